"""foldctl: checkpoint forensics for compacted agent conversations."""

__version__ = "0.1.0"
