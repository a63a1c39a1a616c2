"""SOURCE to bytes: files, gzip, directories and SQLite session stores, read-only.

Nothing here decodes JSON or audits anything; :mod:`foldctl.load` turns the
bytes into a checkpoint.
"""
