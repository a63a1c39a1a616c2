"""foldctl: checkpoint forensics for compacted agent conversations."""

__version__ = "0.1.0"


def version_line() -> str:
    """What ``foldctl --version`` prints."""
    return f"foldctl {__version__}\n"
