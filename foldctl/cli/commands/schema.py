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
    parquet: Annotated[
        bool,
        typer.Option(
            "--parquet",
            help="With export: the Parquet tables it writes (each column's name, type, "
            "nullability and meaning) as JSON.",
        ),
    ] = False,
) -> None:
    """Print the JSON Schema (draft 2020-12) of COMMAND's --format json output.

    `$defs.record` in it is one --format jsonl line; --jsonl prints that as a schema
    of its own. `schema export --parquet` describes the Parquet tables export writes.
    Without COMMAND, list the commands that publish one.
    """
    from foldctl import jsoncodec, schemas
    from foldctl.errors import UsageError

    if parquet:
        if command != "export":
            raise UsageError(
                "--parquet describes the tables of export: foldctl schema export --parquet"
            )
        from foldctl.schemas.parquet import description

        data = jsoncodec.dumps(description(), indent=True) + b"\n"
    elif command is None:
        data = "".join(f"{name}\n" for name in schemas.names()).encode()
    elif jsonl:
        data = jsoncodec.dumps(schemas.record_schema(command)) + b"\n"
    else:
        data = schemas.text(command)
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
