"""`diff` (in progress)."""
