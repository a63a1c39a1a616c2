"""The fold graph: frames joined to spans, spans placed, the transcript walked, locators."""
