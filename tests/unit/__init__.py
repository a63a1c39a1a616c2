"""Unit tests of library modules that stand alone (no checkpoint, no CLI)."""
