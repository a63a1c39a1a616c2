"""`sessions` (in progress)."""
