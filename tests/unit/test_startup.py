"""A command imports what it runs and no more, and the rules it runs compile when used:
``show`` loads no claim rule, ``--help`` no command module, and importing the claim rules
or the detectors compiles none of their patterns."""

from __future__ import annotations

import inspect
import pickle
import re
import subprocess
import sys

from typer._click.utils import make_default_short_help

from foldctl.cli.group import MODULES, SUMMARIES, function_of
from foldctl.lazyre import LazyPattern, lazy
from tests.support import REPO, SAMPLES

TINY = str(SAMPLES / "one_fold_conversation.json")


def imported_by(*argv: str) -> set[str]:
    """The modules of foldctl (and msgspec) a real run of ``foldctl ARGV`` imported."""
    code = (
        "import sys\nfrom foldctl.cli.main import run\n"
        f"run({list(argv)!r})\n"
        "sys.stdout.flush()\n"
        "print('\\n'.join(m for m in sys.modules if m.startswith(('foldctl', 'msgspec'))), "
        "file=sys.stderr)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    return set(proc.stderr.split())


def test_show_imports_no_claim_rule_and_builds_only_itself() -> None:
    loaded = imported_by("show", TINY)
    assert "foldctl.graph.open" in loaded and "foldctl.cli.commands.show" in loaded
    assert not {m for m in loaded if m.startswith(("foldctl.claims", "foldctl.redact"))}
    assert not {m for m in loaded if m.startswith("foldctl.cli.commands.")} - {
        "foldctl.cli.commands.show"
    }
    assert "foldctl.render.markdown" not in loaded and "foldctl.parallel" not in loaded


def test_help_lists_every_command_and_imports_none_of_them() -> None:
    loaded = imported_by("--help")
    assert not {m for m in loaded if m.startswith("foldctl.cli.commands.")}
    floors = ("foldctl.graph", "foldctl.load", "foldctl.audit", "foldctl.query", "foldctl.claims")
    assert not {m for m in loaded if m.startswith(floors)}
    # nor the renderers and msgspec (their records): completing --format imports them
    assert not {m for m in loaded if m.startswith(("foldctl.render", "msgspec"))}
    listed = subprocess.run(
        [sys.executable, "-m", "foldctl", "--help"], capture_output=True, text=True, cwd=REPO
    ).stdout
    assert all(re.search(rf"^  {name} ", listed, re.M) for name in MODULES)


def test_the_help_line_of_each_command_is_its_docstring() -> None:
    """``--help`` lists :data:`~foldctl.cli.group.SUMMARIES`, kept here to what each
    command's docstring says first (as click would cut it)."""
    for name in MODULES:
        doc = inspect.getdoc(function_of(name)) or ""
        assert SUMMARIES[name] == make_default_short_help(doc, 10**6), name


def test_the_claim_rules_and_detectors_compile_nothing_when_imported() -> None:
    code = (
        "import foldctl.claims.record, foldctl.redact.redactor\n"
        "from foldctl.lazyre import LazyPattern\n"
        "import gc\n"
        "lazies = [o for o in gc.get_objects() if isinstance(o, LazyPattern)]\n"
        "print(len(lazies), sum('_compiled' in o.__dict__ for o in lazies))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    ).stdout.split()
    declared, compiled = int(out[0]), int(out[1])
    assert declared >= 50 and compiled == 0


def test_a_lazy_pattern_is_the_pattern_once_used() -> None:
    word = lazy(r"(?P<w>[a-z]+)", re.IGNORECASE)
    assert isinstance(word, LazyPattern) and "_compiled" not in word.__dict__
    assert word.pattern == "(?P<w>[a-z]+)"  # its source, without compiling
    assert "_compiled" not in word.__dict__
    assert [m.group("w") for m in word.finditer("Ab 12 cd")] == ["Ab", "cd"]
    assert word.groupindex == {"w": 1} and word.flags & re.IGNORECASE
    assert word.__dict__["finditer"] == word.finditer  # kept: the next call is plain
    again = pickle.loads(pickle.dumps(word))
    assert again.sub("_", "ab 1") == "_ 1" and lazy(rb"\d").search(b"a1").group() == b"1"
