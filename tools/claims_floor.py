"""The least work a claims check of a checkpoint does, with nothing checked.

Usage::

    python -m tools.claims_floor CHECKPOINT.json

Starts as a ``foldctl`` command does (the command line's modules imported), loads and
joins the checkpoint, extracts the atoms of every summary (what each summary is to be
checked for) and reads every retained message once for its number tokens, the
cheapest way Python offers (``bytes.translate``, ``split`` and a set intersection over
the JSON as stored).  No error is recognised, no index is built, no summary is checked,
nothing is written but a count.  ``make bench`` times it beside ``expand --format jsonl``
and ``claims`` on the same file: where this floor alone takes as long as ``expand``, no
claims check can take less (docs/claims.md, "Speed").
"""

from __future__ import annotations

import sys

import foldctl.cli.main  # noqa: F401  (the start-up of a command)
from foldctl.claims.index import NUMBER_TOKENS, wanted_tokens
from foldctl.claims.record import summary_texts
from foldctl.graph.open import open_graph
from foldctl.load.fast import RawMessages


def main(argv: list[str]) -> int:
    graph, _ = open_graph(argv[0], None)
    wanted = wanted_tokens(summary_texts(graph))  # every summary's atoms, extracted once
    filed = 0
    for span in graph.spans:
        messages = span.messages
        if isinstance(messages, RawMessages):
            for i in range(len(messages)):
                tokens = messages.raw_json(i).translate(NUMBER_TOKENS).split()
                filed += len(wanted.intersection(tokens))
        elif messages is not None:  # read on the exact path: decoded already
            for message in messages:
                text = str(message.get("content", "")).encode("utf-8", "surrogatepass")
                filed += len(wanted.intersection(text.translate(NUMBER_TOKENS).split()))
    print(f"{len(wanted)} wanted tokens, {filed} postings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
