"""`grep` (in progress)."""
