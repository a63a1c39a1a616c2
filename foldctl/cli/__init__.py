"""The command line: a typer application over the library, and the one place errors become
stderr lines and exit codes.  Nothing below this package imports it."""
