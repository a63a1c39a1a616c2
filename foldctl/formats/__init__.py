"""Input formats: how each runtime's files are recognised, loaded into foldctl's one model,
named in an error, and joined (docs/architecture.md, "Input formats").

Each format is one module holding one :class:`~foldctl.formats.base.InputFormat`;
:mod:`foldctl.formats.registry` lists them, recognises a file by its bytes and loads it.
Everything that loads a source asks the registry (``formats/source.py``).
"""
