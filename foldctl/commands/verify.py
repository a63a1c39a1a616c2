"""`verify` (in progress)."""
