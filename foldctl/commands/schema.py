"""`schema` (in progress)."""
