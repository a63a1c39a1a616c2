"""Bytes to :class:`~foldctl.model.Checkpoint`: the fast path, the exact path, validation."""
