"""``schema``: the published JSON Schema of a command's JSON/JSONL output."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from foldctl.cli.app import app


@app.command()
def schema(
    command: Annotated[
        str | None,
        typer.Argument(metavar="COMMAND", help="A command name; omit it to list them."),
    ] = None,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="The schema of one --format jsonl line instead.")
    ] = False,
) -> None:
    """Print the JSON Schema (draft 2020-12) of COMMAND's --format json output.

    `$defs.record` in it is one --format jsonl line; --jsonl prints that as a schema
    of its own. Without COMMAND, list the commands that publish one.
    """
    from foldctl import jsoncodec, schemas

    if command is None:
        data = "".join(f"{name}\n" for name in schemas.names()).encode()
    elif jsonl:
        data = jsoncodec.dumps(schemas.record_schema(command)) + b"\n"
    else:
        data = schemas.text(command)
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
