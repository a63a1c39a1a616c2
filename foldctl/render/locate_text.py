"""Human text for ``locate``: one locator per line (to feed ``expand --only``), each after
its source when several sources were searched (``source:locator``, as grep names a file)."""

from __future__ import annotations

from foldctl.query.locate import LocateResult
from foldctl.render import Output
from foldctl.render.sink import write_chunks
from foldctl.termsafe import one_line


def locators(result: LocateResult, output: Output) -> None:
    if result.many:
        lines = (f"{one_line(row['source'])}:{row['locator']}\n" for row in result.rows)
    else:
        lines = (f"{row['locator']}\n" for row in result.rows)
    write_chunks((line.encode("utf-8", "backslashreplace") for line in lines), output.out)
