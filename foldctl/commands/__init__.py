"""One module per command; each registers itself on :data:`foldctl.app.app`."""
