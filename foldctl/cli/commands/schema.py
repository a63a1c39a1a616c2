"""``schema``: the published JSON Schema of a command's JSON/JSONL output."""

from __future__ import annotations

from typing import Annotated

import typer

import foldctl
from foldctl.cli.app import command
from foldctl.cli.completion import complete_schema
from foldctl.cli.options import NoRedactOpt, refuse_redact
from foldctl.cli.output import write_stdout
from foldctl.errors import UsageError


@command()
def schema(
    command_name: Annotated[
        str | None,
        typer.Argument(
            metavar="COMMAND",
            help="A command name; omit it to list them.",
            autocompletion=complete_schema,
        ),
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
    redact: NoRedactOpt = False,
) -> None:
    """Print the JSON Schema (draft 2020-12) of COMMAND's --format json output.

    `$defs.record` in it is one --format jsonl line; --jsonl prints that as a schema
    of its own. `schema export --parquet` describes the Parquet tables export writes.
    Without COMMAND, list the commands that publish one.
    """
    refuse_redact(redact, "schema", "it prints JSON Schemas, never a checkpoint's text")
    if parquet and command_name != "export":
        raise UsageError(
            "--parquet describes the tables of export: foldctl schema export --parquet"
        )
    write_stdout(foldctl.schema(command_name, jsonl=jsonl, parquet=parquet))
