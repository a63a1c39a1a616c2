"""One module per command; each registers itself on :data:`foldctl.cli.app.app`."""
