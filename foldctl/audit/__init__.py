"""Integrity findings: codes, the checks over one fold graph, and the batch over many sources."""
