"""``redactions``: what ``--redact`` would remove from a checkpoint, to check before sharing."""

from __future__ import annotations

from foldctl.cli.app import command
from foldctl.cli.inputs import opened
from foldctl.cli.options import (
    NoRedactOpt,
    Output,
    RedactionRules,
    SchemeOpt,
    SourceArg,
)
from foldctl.cli.output import emit, note_unkeyed


@command()
def redactions(
    source_arg: SourceArg,
    out: Output,
    scheme: SchemeOpt = None,
    redact: NoRedactOpt = False,  # accepted: this command is the redaction's review
    *,
    how: RedactionRules,
) -> None:
    """The review list of --redact: one row per placeholder, with its kind, how often it
    stands in and the locators of the messages it stands in.

    With the same --redact-key-file, the placeholders are those every other command
    prints with --redact.
    """
    redactor = how.redactor()
    emit("redactions", out, opened(source_arg, scheme).redactions(redactor))
    note_unkeyed(redactor)
