"""`report` (in progress)."""
