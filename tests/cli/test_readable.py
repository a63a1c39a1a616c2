"""Output a reviewer can read at any depth, and exports that never drop evidence (SPEC §3-4).

On the conformance corpus's 267-deep ``m_medium`` and a generated chain 1,000 folds
deep: ``show`` stays small, no line of ``show``, ``spans``, ``stages``, ``grep`` or the
fold and message headings of ``expand`` is longer than 300 characters, and the HTML
report is at most twice the checkpoint.  Every string of every message reaches every
format, every locator foldctl prints is accepted back, and replays say what they are.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import foldctl
from foldctl.graph.walk import CHAIN_FIELD_MAX, FoldStart, Row, walk_name
from foldctl.termsafe import one_line, visible
from tests.support import CONFORMANCE, SAMPLES, jsonl, on_a_terminal, run_cli
from tests.support.builders import audit_monday, write_doc
from tools.generate import nested_chain, to_bytes

MAX_LINE = 300


@pytest.fixture(scope="module")
def deep_chain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A chain 1,000 folds deep, its tool results sized like real ones (4-9 KB)."""
    path = tmp_path_factory.mktemp("deep") / "deep.json"
    path.write_bytes(to_bytes(nested_chain(1000, size_range=(4000, 9000))))
    return path


def deep_sources(deep_chain: Path) -> list[Path]:
    found = [deep_chain]
    if (CONFORMANCE / "m_medium.json").is_file():
        found.append(CONFORMANCE / "m_medium.json")
    return found


def longest(text: str, keep: Any = None) -> int:
    lines = [line for line in text.split("\n") if keep is None or keep(line)]
    return max((len(line) for line in lines), default=0)


HEADING = re.compile(r"^[|│ 0-9]*(\+- fold:|`- end of span|(h|f\d+:)\d+ )")


@pytest.mark.parametrize("which", [0, 1], ids=["generated-1000-deep", "m_medium"])
def test_text_stays_readable_at_any_depth(deep_chain: Path, which: int, tmp_path: Path) -> None:
    sources = deep_sources(deep_chain)
    if which >= len(sources):
        pytest.skip(f"conformance corpus not found at {CONFORMANCE}")
    source = str(sources[which])
    show = run_cli("show", source)
    assert show.exit_code == 0
    assert len(show.stdout_bytes) < 100_000
    assert longest(show.stdout) <= MAX_LINE
    for command in ("spans", "stages"):
        result = run_cli(command, source)
        assert result.exit_code == 0 and longest(result.stdout) <= MAX_LINE, command
    grep = run_cli("grep", "-i", "summary|result|search", source)
    assert grep.exit_code == 0 and longest(grep.stdout) <= MAX_LINE
    expand = run_cli("expand", source)
    headings = [line for line in expand.stdout.split("\n") if HEADING.match(line)]
    assert len(headings) > 1000 if which == 0 else len(headings) > 500
    assert max(len(line) for line in headings) <= MAX_LINE
    report = tmp_path / "r.html"
    assert run_cli("report", source, "-o", str(report)).exit_code == 0
    assert report.stat().st_size <= 2 * Path(source).stat().st_size


def test_a_deep_tree_shows_its_depth_and_counts_what_it_leaves_out(deep_chain: Path) -> None:
    out = run_cli("show", str(deep_chain)).stdout
    assert "depth 9" in out and "... 961 more spans (all of them: foldctl spans" in out
    doc = json.loads(run_cli("show", str(deep_chain), "-f", "json").stdout)
    assert len(doc["tree"]) == 1000  # the full tree in JSON


def test_markdown_shows_each_summary_as_a_claim_before_its_originals() -> None:
    source = str(SAMPLES / "nested_chain.json")
    out = run_cli("expand", source, "-f", "markdown").stdout
    lines = out.split("\n")
    fold = lines.index(next(line for line in lines if line.startswith("## fold: span 6 ")))
    claim = lines.index(
        "> **Claim.** The summary at `h1`, written by `summarizer-mini`: what a "
        "model wrote about the conversation, not the conversation."
    )
    first_original = next(n for n, line in enumerate(lines) if "`f6:1`" in line)
    assert fold < claim < first_original
    summary = lines[claim + 2 : claim + 6]
    assert summary[0] == "```text" and summary[1].startswith("[compacted history — 3 earlier")
    assert summary[3].startswith("Summary 7: refund RF-9120 approved")
    # the claims check runs: the false claim is shown with what the originals say
    block = "\n".join(lines[claim:first_original])
    assert "Claims check: 1 finding(s) that this summary is wrong:" in block
    assert "- **contradicted** status `approved` — summary `h1` of span 6" in block
    assert "  - original line: `status: pending_approval`" in block
    plain = run_cli("expand", source, "-f", "markdown", "--no-claims").stdout
    assert "Summary 7: refund RF-9120 approved" in plain and "Claims check" not in plain
    text = run_cli("expand", source, "--claims").stdout
    assert "|   claim contradicted status approved  (summary of span 6:" in text
    refused = run_cli("expand", source, "--claims", "-f", "jsonl")
    assert refused.exit_code == 2 and "foldctl claims --format json" in refused.stderr


def test_markdown_nests_to_a_readable_depth_then_writes_it_out(deep_chain: Path) -> None:
    source = str(deep_chain)
    out = run_cli("expand", source, "-f", "markdown", "--no-claims").stdout.split("\n")
    headings = [line for line in out if line.startswith("#")]
    assert max(len(line) - len(line.lstrip("#")) for line in headings) == 6
    folds = [line for line in out if "fold: span" in line]
    assert len(folds) == 1000 and all(len(line) <= MAX_LINE for line in folds)
    nested = [line for line in folds if line.startswith("#")]
    assert [line.split(" ")[0] for line in nested] == ["##", "###", "####", "#####"]
    assert folds[4].startswith("- **fold: span 995** · depth 5 (outermost span 999)")
    assert "###### depth 1000 · `f0:0` assistant" in out
    assert "*end of span 0 (depth 1000)*" in out
    # every summary is there, before the originals it stands for
    assert sum(line.startswith("> **Claim.**") for line in out) == 1000
    tree = run_cli("show", source, "-f", "markdown").stdout.split("\n")
    items = [line for line in tree if line.lstrip().startswith("- ") and " span " in line]
    assert len(items) == 1000
    assert max(len(line) - len(line.lstrip()) for line in items) == 6  # four levels in
    assert items[-1].startswith("      - depth 1000: `f1:0` span 0:")


def test_machine_rows_stay_linear_at_any_depth(tmp_path: Path) -> None:
    """Past CHAIN_FIELD_MAX levels a JSONL row's ``chain`` lists the innermost spans (the
    library keeps the whole chain, ``depth`` its length): 10,000 deep, the full chains
    made ``expand -f jsonl`` write 41 times the file."""
    path = tmp_path / "deep.json"
    path.write_bytes(to_bytes(nested_chain(2000)))
    full = {row.locator: row.chain for row in foldctl.open(str(path)).walk()}
    for argv in (["expand", str(path)], ["grep", "-i", "user|result", str(path)]):
        out = run_cli(*argv, "-f", "jsonl")
        assert out.exit_code == 0, out.stderr
        rows = jsonl(out.stdout)
        assert max(row["depth"] for row in rows) > 2 * CHAIN_FIELD_MAX
        for row in rows:
            assert row["chain"] == list(full[row["locator"]][-CHAIN_FIELD_MAX:])
            assert row["depth"] == len(full[row["locator"]])
        assert len(out.stdout_bytes) <= 8 * path.stat().st_size, argv


def test_wide_characters_keep_columns_aligned(tmp_path: Path) -> None:
    from foldctl.render.cells import width

    doc = json.loads((SAMPLES / "nested_chain.json").read_text())
    doc["folded"][0]["model"] = "要約モデル-大"  # wide characters: two columns each
    doc["folded"][1]["model"] = "x" * 300  # an outlier does not widen every row
    source = str(write_doc(tmp_path / "w.json", doc))
    out = run_cli("spans", source).stdout.splitlines()
    assert out[-1].startswith("(retained messages not decoded")
    header, rows = out[0], out[1:-1]
    column = width(header[: header.index("messageCount")])
    for row in rows:
        cells = list(re.finditer(r"\S+(?: \S+)*", row))
        assert width(row[: cells[5].start()]) == column, row
    assert max(width(line) for line in out) < 250
    assert any("…" in row for row in rows)
    whole = jsonl(run_cli("spans", source, "-f", "jsonl").stdout)
    assert whole[1]["model"] == "x" * 300


# --------------------------------------------------------------------------- the false claim


def test_the_demo_false_claim_is_found_by_a_plain_grep() -> None:
    result = run_cli("grep", "-F", "has been approved", str(SAMPLES / "nested_chain.json"))
    assert result.exit_code == 0
    assert ":h2:assistant:toolCalls[0].args.public_reply: " in result.stdout


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "jsonl", "html"])
def test_the_demo_false_claim_is_in_every_export(fmt: str, tmp_path: Path) -> None:
    source = str(SAMPLES / "nested_chain.json")
    if fmt == "html":
        page = tmp_path / "r.html"
        run_cli("report", source, "-o", str(page))
        out = html.unescape(page.read_text("utf-8"))
    else:
        out = run_cli("expand", source, "-f", fmt).stdout
    assert "It has been approved and should reach your card" in out
    assert "toolu_rf1_008a" in out  # the tool call's id travels with it


# --------------------------------------------------------------------------- every field


def all_sources() -> list[Path]:
    found = sorted(p for p in SAMPLES.glob("*.json"))
    if CONFORMANCE.is_dir():
        found += sorted(
            p
            for p in CONFORMANCE.glob("*.json")
            if not p.name.endswith(".expected.json") and p.name != "m_medium.json"
        )
    return found


def leaves(message: dict[str, Any]) -> Iterator[str]:
    """Every string in a message's values, and the keys of the objects in them (tool-call
    arguments, unknown fields); not the message's own field names nor a tool call's."""
    calls = message.get("toolCalls")
    structural = {id(c) for c in calls} if isinstance(calls, list) else set()
    stack = list(message.values())
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            if id(item) not in structural:
                stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def shown(leaf: str, out: str, *, lines: bool) -> bool:
    """Whether ``leaf`` is in ``out`` as a text format writes it: made visible (line by line
    in text), or as a JSON string's inside when it sits in a JSON value."""
    as_json = json.dumps(leaf, ensure_ascii=False)[1:-1]
    if visible(as_json) in out or one_line(as_json) in out:
        return True
    if lines:
        return all(one_line(part) in out for part in leaf.split("\n"))
    return visible(leaf) in out


@pytest.mark.parametrize("source", all_sources(), ids=lambda p: p.name)
def test_every_string_of_every_message_reaches_every_format(source: Path, tmp_path: Path) -> None:
    args = ["expand", str(source), "--keep-frames", "--include-detached", "--replays", "full"]
    records = jsonl(run_cli(*args, "-f", "jsonl").stdout)
    messages = [
        m.message for m in foldctl.open(source).walk(keep_frames=True, include_detached=True)
    ]
    assert len(records) == len(messages) > 0
    for record, message in zip(records, messages, strict=True):
        assert {k: record[k] for k in message} == message  # JSONL: every field verbatim
    assert [r for r in json.loads(run_cli(*args, "-f", "json").stdout)] == records
    text = run_cli(*args).stdout
    markdown = run_cli(*args, "-f", "markdown").stdout
    page = tmp_path / "r.html"
    assert run_cli("report", str(source), "-o", str(page)).exit_code == 0
    page_text = html.unescape(page.read_text("utf-8"))
    for message in messages:
        for leaf in leaves(message):
            if not leaf.strip():
                continue
            assert shown(leaf, text, lines=True), ("text", leaf[:80])
            assert shown(leaf, markdown, lines=False), ("markdown", leaf[:80])
            assert shown(leaf, page_text, lines=False), ("html", leaf[:80])


def test_markdown_escapes_only_what_would_change_the_rendering() -> None:
    out = run_cli("expand", str(SAMPLES / "nested_chain.json"), "-f", "markdown").stdout
    assert out.startswith("# Transcript of `run-")
    assert "checkpointed at: 2026-03-16T09:13:46.142Z" in out  # no \- or \. in a timestamp
    assert "- tool call `update_ticket` (id `toolu_rf1_008a`)" in out
    assert "\\_" not in out and "\\-" not in out and "\\." not in out
    assert "↳" not in out and "depth 7 (outermost span 6)" in out


# --------------------------------------------------------------------------- every locator


@pytest.mark.parametrize("source", all_sources(), ids=lambda p: p.name)
def test_every_printed_locator_is_accepted_back(source: Path) -> None:
    cp = foldctl.open(source)
    graph = cp.graph
    printed = {
        o["locator"]
        for o in jsonl(
            run_cli(
                "expand", str(source), "--keep-frames", "--include-detached", "-f", "jsonl"
            ).stdout
        )
    }
    printed |= {o["locator"] for o in jsonl(run_cli("grep", "", str(source), "-f", "jsonl").stdout)}
    digests = {o["digest"] for o in jsonl(run_cli("expand", str(source), "-f", "jsonl").stdout)[:5]}
    for d in digests:
        located = run_cli("locate", str(source), d).stdout.split()
        assert located
        printed.update(located)
    assert printed
    for locator in sorted(printed):
        events = list(walk_name(graph, locator))
        rows = [e for e in events if isinstance(e, Row)]
        ref = graph.frame_at(*_container_index(locator))
        if ref is None:
            assert [r.locator for r in rows] == [locator]
        else:
            assert rows, locator
    for span in range(len(graph.spans)):
        if graph.spans[span].messages is not None:
            events = list(walk_name(graph, f"f{span}"))
            assert isinstance(events[0], FoldStart) and events[0].span.index == span
            assert all(span in e.chain for e in events if isinstance(e, Row))
    sample = sorted(printed)[:3] + [f"f{i}" for i, s in enumerate(graph.spans) if s.messages][:2]
    for name in sample:
        assert run_cli("expand", str(source), "--only", name, "-f", "jsonl").exit_code == 0


def _container_index(locator: str) -> tuple[int | None, int]:
    if locator.startswith("h"):
        return None, int(locator[1:])
    span, _, index = locator[1:].partition(":")
    return int(span), int(index)


def test_a_detached_span_can_be_expanded_on_its_own_and_says_why() -> None:
    source = str(SAMPLES / "detached_span.json")
    spans = jsonl(run_cli("spans", source, "-f", "jsonl").stdout)
    [floating] = [s for s in spans if s["placement"] == "detached" and s["messagesKept"]][:1]
    out = run_cli("expand", source, "--only", f"f{floating['span']}")
    assert out.exit_code == 0
    assert f"fold: span {floating['span']}" in out.stdout.splitlines()[0]
    assert "(detached: " in out.stdout.splitlines()[0]


# --------------------------------------------------------------------------- replays


def test_a_replayed_frame_is_marked_in_every_format(tmp_path: Path) -> None:
    doc = audit_monday().checkpoint()
    doc["history"].append(dict(doc["history"][1]))  # the same summary twice in the window
    source = str(write_doc(tmp_path / "replayed.json", doc))
    full = ("--replays", "full")
    rows = jsonl(run_cli("expand", source, "-f", "jsonl", *full).stdout)
    again = [r for r in rows if r["occurrence"] == 2]
    assert again and {r["locator"] for r in again} <= {
        r["locator"] for r in rows if r["occurrence"] == 1
    }
    text = run_cli("expand", source, *full).stdout
    assert (
        "(replay 2: the same messages as span 2 at its first placement, through the frame at h1;"
        in text
    )
    assert "through the frame at h4)" in text and "(replay 2)" in text
    markdown = run_cli("expand", source, "-f", "markdown", *full).stdout
    assert "**replay 2**" in markdown and "— replay 2" in markdown
    # By reference, the default of every command: said once, not repeated
    once = jsonl(run_cli("expand", source, "-f", "jsonl").stdout)
    assert len(once) == len(rows) - len(again) and all(r["occurrence"] == 1 for r in once)
    assert "through the frame at h4; not repeated here)" in run_cli("expand", source).stdout
    page = tmp_path / "r.html"
    run_cli("report", source, "-o", str(page))
    html = page.read_text("utf-8")
    assert "replay 2: the same messages as at its first placement" in html
    # The report links a replay to its first placement instead of repeating it.
    link = '<a href="#span-2">(go to the first placement)</a>'
    assert f"; not repeated here</strong> {link}" in html
    repeated = tmp_path / "full.html"
    run_cli("report", source, "-o", str(repeated), *full)
    assert "not repeated here" not in repeated.read_text("utf-8")
    assert repeated.stat().st_size > page.stat().st_size


# --------------------------------------------------------------------------- the careful user


def test_term_dumb_means_no_colour_and_json_is_indented_on_a_terminal() -> None:
    sample = "sample_checkpoints/nested_chain.json"
    painted = on_a_terminal("show", sample, env={"TERM": "xterm-256color"})
    assert b"\x1b[" in painted
    dumb = on_a_terminal("show", sample, env={"TERM": "dumb"})
    assert b"\x1b[" not in dumb and b"fold tree" in dumb
    pretty = on_a_terminal("show", sample, "-f", "json", env={"TERM": "dumb"})
    assert pretty.startswith(b'{\r\n  "source"') or pretty.startswith(b'{\n  "source"')
    piped = run_cli("show", sample, "-f", "json").stdout
    assert piped.startswith('{"source"')


def test_report_says_where_it_wrote_and_how_big(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    result = run_cli("report", str(SAMPLES / "nested_chain.json"), "-o", str(out))
    assert result.exit_code == 0
    size = out.stat().st_size
    assert result.stderr == f"foldctl: wrote {out} ({size / 1000:.1f} KB)\n"


def test_slow_work_says_so_on_a_terminal_only() -> None:
    import io
    import time

    from foldctl.cli.progress import slow_notice

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    seen = Terminal()
    with slow_notice("writing the report", seen, after=0.01):
        time.sleep(0.2)
    assert seen.getvalue().startswith("foldctl: writing the report...\nfoldctl: done in 0.")
    quiet = io.StringIO()
    with slow_notice("writing the report", quiet, after=0.01):
        time.sleep(0.05)
    assert quiet.getvalue() == ""
