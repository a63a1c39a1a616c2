"""``report``: one self-contained HTML file for an incident review."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Annotated

import typer

from foldctl.cli.app import (
    RedactKeyOpt,
    RedactOnlyOpt,
    RedactOpt,
    RedactRulesOpt,
    RedactSkipOpt,
    ReplaysOpt,
    SchemeOpt,
    SourceArg,
    app,
    redacted,
    redactor_of,
    replays_mode,
    source,
)
from foldctl.errors import UsageError
from foldctl.times import iso_utc

OutputOpt = Annotated[
    str,
    typer.Option(
        "--output", "-o", metavar="FILE.html", help="Where to write the report; - for stdout."
    ),
]
NowOpt = Annotated[
    str | None,
    typer.Option(
        "--now",
        metavar="TIME",
        help="Generation time to record (ISO-8601 or epoch seconds); default: "
        "SOURCE_DATE_EPOCH, else the clock.",
    ),
]


@app.command()
def report(
    source_arg: SourceArg,
    output: OutputOpt,
    scheme: SchemeOpt = None,
    now: NowOpt = None,
    replays: ReplaysOpt = "ref",
    redact: RedactOpt = False,
    redact_key_file: RedactKeyOpt = None,
    redact_rules: RedactRulesOpt = None,
    redact_only: RedactOnlyOpt = None,
    redact_skip: RedactSkipOpt = None,
) -> None:
    """A self-contained HTML incident report: overview, findings, folds, transcript."""
    import io

    from foldctl import __version__
    from foldctl.audit.checks import audit
    from foldctl.claims.record import audit_findings
    from foldctl.cli.output import size_text, write_file
    from foldctl.cli.progress import slow_notice
    from foldctl.graph.open import open_evidence
    from foldctl.graph.walk import check_expansion
    from foldctl.render import Output, OutputFormat
    from foldctl.render.html import Provenance, Report
    from foldctl.render.registry import render
    from foldctl.termsafe import one_line

    stamp = generated_at(now, os.environ)
    spec = source(source_arg)
    with slow_notice("reading and auditing the checkpoint"):
        graph, note, stored = open_evidence(spec, scheme)
        mode = replays_mode(replays)
        if mode == "full":
            check_expansion(graph, floating=True)
        findings = (*audit(graph), *audit_findings(graph))
        redactor = redactor_of(redact, redact_key_file, redact_rules, redact_only, redact_skip)
        if redactor is not None:
            from foldctl.redact.apply import redact_findings

            graph = redacted(graph, redactor)
            findings = redact_findings(redactor, findings)
    provenance = Provenance(
        __version__,
        graph.checkpoint.source,
        "<stdin>" if stored.path is None else str(stored.path),
        stored.size,
        stored.xxh3_128,
        stored.gzip,
        stamp,
    )
    page = io.BytesIO()
    with slow_notice("writing the report"):
        result = Report(graph, provenance, note, findings, mode)
        render("report", OutputFormat.html, result, Output(page))
    data = page.getvalue()
    write_file(output, data, stored.path, what="the report")
    if output != "-":
        sys.stderr.write(f"foldctl: wrote {one_line(output)} ({size_text(len(data))})\n")
        sys.stderr.flush()


def generated_at(now: str | None, environ: Mapping[str, str]) -> str:
    """The report's generation time: ``--now``, else ``SOURCE_DATE_EPOCH``, else the clock.

    ``--now`` takes ISO-8601 (``2026-01-31T12:00:00Z``; no offset means UTC)
    or whole seconds since the epoch; ``SOURCE_DATE_EPOCH`` takes whole seconds.
    """
    if now is not None:
        stamp, what = iso_utc(_parse_now(now)), f"--now {now!r}"
    elif environ.get("SOURCE_DATE_EPOCH", "").strip():
        epoch = environ["SOURCE_DATE_EPOCH"]
        what = f"SOURCE_DATE_EPOCH={epoch!r}"
        if not epoch.strip().isdigit():
            raise UsageError(f"{what}: expected whole seconds since the epoch")
        stamp = iso_utc(int(epoch) * 1000)
    else:
        return iso_utc(datetime.now(timezone.utc).timestamp() * 1000)
    if stamp.startswith("("):
        raise UsageError(f"{what}: out of range for a date")
    return stamp


def _parse_now(text: str) -> float:
    value = text.strip()
    if value.isdigit():
        return int(value) * 1000
    if value[-1:] in ("Z", "z"):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(
            f"--now {text!r}: expected ISO-8601 (2026-01-31T12:00:00Z) or epoch seconds"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp() * 1000
