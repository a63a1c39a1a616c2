"""`fingerprint` (in progress)."""
