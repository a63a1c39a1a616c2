"""``report``: a self-contained HTML incident report of one checkpoint.

One file a reviewer can attach to a ticket and open anywhere: the overview,
findings linked to the messages they name, the fold tree, a timeline of folds
(inline SVG), the transcript with every summary's originals in a collapsible
``<details>`` block (nested for nested folds), the detached and orphan spans,
and a provenance footer.  No script, no fonts, no network: the page carries a
Content-Security-Policy that forbids everything but its own inline CSS.

Safety is by construction.  All markup is written through :class:`Writer`,
whose only way to add text is :meth:`Writer.text`, which shows controls, bidi
overrides and lone surrogates as visible escapes
(:func:`foldctl.safety.visible`) and then HTML-escapes with ``quote=True``.
Tag and attribute names come from fixed allow-lists (no ``style``, no
``on*``, no ``src``); attribute values are escaped the same way; ``id`` and
``href`` values must match foldctl's own anchor form (``#m-h1-f5-0``), so no
checkpoint string can become a URL.  The one raw string is this module's own
stylesheet.

:func:`render` is pure (graph in, text out).  Reading the evidence and hashing
its stored bytes for the footer is :func:`foldctl.report`'s job (it gathers the
:class:`~foldctl.query.report.Report` rendered here); writing the page is the command
line's.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Final

from foldctl.audit.codes import Finding
from foldctl.digest import digest
from foldctl.formats import registry as formats
from foldctl.graph.filters import NO_FILTER, FoldFilter, filter_events
from foldctl.graph.resolve import FoldGraph
from foldctl.graph.walk import Event, FoldEnd, FoldStart, Replays, Row, walk, walk_floating
from foldctl.jsoncodec import as_text
from foldctl.query.records import overview
from foldctl.query.report import Provenance, Report
from foldctl.render import Output
from foldctl.render.fields import call_rest, other_fields, pretty, tool_calls
from foldctl.termsafe import UNSAFE_CLASS, visible
from foldctl.times import iso_utc

#: The page may use its own inline CSS and nothing else: no script, image,
#: font, frame, connection, form target or ``<base>``.
CSP: Final = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

# --------------------------------------------------------------------------- the writer

_TAGS: Final = frozenset(
    {
        "html", "head", "title", "meta", "body", "header", "nav", "main", "section", "footer",
        "h1", "h2", "h3", "p", "div", "span", "a", "code", "pre", "ul", "ol", "li", "dl", "dt",
        "dd", "table", "thead", "tbody", "tr", "th", "td", "details", "summary", "article",
        "strong", "em", "small",
        # inline SVG (the timeline)
        "svg", "g", "line", "circle", "rect", "text",
    }
)  # fmt: skip
#: HTML void elements.  SVG elements are never void here: in foreign content an
#: unclosed ``<line>`` would swallow what follows, so they get end tags.
_VOID: Final = frozenset({"meta"})
_ATTRS: Final = frozenset(
    {
        "class", "id", "href", "title", "open", "lang", "charset", "name", "content",
        "http-equiv", "role", "aria-label", "colspan",
        "data-span", "data-depth", "data-locator", "data-placement", "data-resolution",
        "data-severity", "data-role",
        "xmlns", "viewBox", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy",
        "r", "text-anchor",
    }
)  # fmt: skip
_ANCHOR: Final = re.compile(r"[a-z][a-z0-9-]*")
#: What :func:`escape` rewrites: HTML's five specials and every character ``visible`` shows.
_NEEDS_ESCAPE: Final = re.compile(f"[&<>\"'{UNSAFE_CLASS}]")
AttrValue = str | int | bool | None


class Writer:
    """HTML written only through escaping: text is always text, tags are only ours.

    Elements must be closed in order; :meth:`getvalue` refuses an unbalanced
    document.  Linear in the output size, whatever the nesting depth.
    """

    __slots__ = ("_open", "_parts")

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._open: list[str] = []

    def start(self, tag: str, attrs: Mapping[str, AttrValue] | None = None) -> None:
        self._parts.append(_start_tag(tag, attrs))
        if tag not in _VOID:
            self._open.append(tag)

    def end(self, tag: str) -> None:
        if not self._open or self._open[-1] != tag:
            raise ValueError(f"</{tag}> does not close <{self._open[-1] if self._open else ''}>")
        self._open.pop()
        self._parts.append(f"</{tag}>")

    def text(self, value: str) -> None:
        self._parts.append(escape(value))

    def el(
        self, tag: str, text: str | None = None, attrs: Mapping[str, AttrValue] | None = None
    ) -> None:
        """``<tag attrs>text</tag>`` (or a void element when ``tag`` is one)."""
        self.start(tag, attrs)
        if tag in _VOID:
            if text is not None:
                raise ValueError(f"<{tag}> cannot hold text")
            return
        if text is not None:
            self.text(text)
        self.end(tag)

    @contextmanager
    def tag(self, tag: str, attrs: Mapping[str, AttrValue] | None = None) -> Iterator[None]:
        self.start(tag, attrs)
        yield
        self.end(tag)

    def extend(self, other: Writer) -> None:
        """Append a finished fragment written by another writer."""
        if other._open:
            raise ValueError(f"fragment has unclosed <{other._open[-1]}>")
        self._parts.extend(other._parts)

    def doctype(self) -> None:
        self._parts.append("<!DOCTYPE html>\n")

    def stylesheet(self) -> None:
        """This module's own CSS, the one raw string in the document."""
        self._parts.append(f"<style>{_CSS}</style>")

    def newline(self) -> None:
        self._parts.append("\n")

    def getvalue(self) -> str:
        if self._open:
            raise ValueError(f"unclosed <{self._open[-1]}>")
        return "".join(self._parts)


def escape(value: str) -> str:
    """Checkpoint text as inert HTML text (or attribute value): visible, then escaped."""
    if _NEEDS_ESCAPE.search(value) is None:  # most text: nothing to rewrite
        return value
    return html.escape(visible(value), quote=True)


def _start_tag(tag: str, attrs: Mapping[str, AttrValue] | None) -> str:
    if tag not in _TAGS:
        raise ValueError(f"<{tag}> is not a tag this report writes")
    parts = [f"<{tag}"]
    for name, value in (attrs or {}).items():
        if name not in _ATTRS:
            raise ValueError(f"attribute {name!r} is not one this report writes")
        if value is None or value is False:
            continue
        if value is True:
            parts.append(f" {name}")
            continue
        text = str(value)
        if name == "id" and _ANCHOR.fullmatch(text) is None:
            raise ValueError(f"id {text!r} is not of the form [a-z][a-z0-9-]*")
        if name == "href" and (not text.startswith("#") or _ANCHOR.fullmatch(text[1:]) is None):
            raise ValueError(f"href {text!r} is not a link within the report")
        parts.append(f' {name}="{escape(text)}"')
    parts.append(">")
    return "".join(parts)


def anchor_id(locator: str) -> str:
    """The anchor of a message: ``h1>f5:0`` -> ``m-h1-f5-0`` (one-to-one on locators)."""
    return "m-" + locator.replace(">", "-").replace(":", "-")


# --------------------------------------------------------------------------- the page

_ROLES: Final = frozenset({"system", "user", "assistant", "tool"})
_SHOWN_KEYS: Final = frozenset({"role", "content", "toolName"})
_DEEP: Final = 8  # nested folds deeper than this stop indenting (a 267-deep chain stays readable)
#: Browsers stop nesting parsed HTML a little past 500 levels (Chromium: 512) and
#: hang what is deeper on the last level.  Folds nested deeper than this are
#: therefore written flat, between "begins" and "ends" markers, in the same order.
MAX_NESTING: Final = 400

_CSS: Final = (
    """
:root{--fg:#1d232b;--muted:#5b6572;--line:#d5dae1;--bg:#fff;--soft:#f5f7fa;--accent:#2457a6;
--warn:#9a5b00;--err:#a8232e;--info:#3b6e8f;--fold:#eef3fb}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
background:var(--bg)}
header.top,main,footer{max-width:1200px;margin:0 auto;padding:0 1.25rem}
header.top{padding-top:1rem}
h1{font-size:1.45rem;margin:.4rem 0}h2{font-size:1.15rem;margin:1.6rem 0 .5rem;
border-bottom:1px solid var(--line);padding-bottom:.2rem}
a{color:var(--accent)}
code,pre,.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:.86rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0}
nav.toc{font-size:.9rem;margin:.4rem 0 0}nav.toc a{margin-right:1rem}
dl.overview{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.6rem 0}
dl.overview dt{color:var(--muted)}dl.overview dd{margin:0;overflow-wrap:anywhere}
pre.input{max-height:12rem;overflow:auto;background:var(--soft);padding:.4rem .6rem;margin:0}
table{border-collapse:collapse;width:100%;font-size:.88rem}
th,td{text-align:left;vertical-align:top;padding:.2rem .5rem;border-bottom:1px solid var(--line)}
th{background:var(--soft);font-weight:600}
td.wrap{overflow-wrap:anywhere}
.sev{font-weight:600;text-transform:uppercase;font-size:.75rem}
.sev-error{color:var(--err)}.sev-warning{color:var(--warn)}.sev-info{color:var(--info)}
.muted{color:var(--muted)}
.note{background:var(--soft);border-left:3px solid var(--line);padding:.4rem .7rem}
.timeline{width:100%;height:auto;border:1px solid var(--line);background:var(--bg)}
.timeline .lane{stroke:var(--line)}.timeline .axis{stroke:var(--muted)}
.timeline .ckpt{stroke:var(--err);stroke-dasharray:4 3}
.timeline text{font-size:11px;fill:var(--muted)}
.timeline .dot{fill:var(--accent);stroke:var(--accent)}
.timeline .dot.discard{fill:var(--warn);stroke:var(--warn)}
.timeline .dot.detached,.timeline .dot.orphan{fill:var(--bg);stroke-width:2}
article.msg{border:1px solid var(--line);border-radius:4px;margin:.45rem 0;padding:.35rem .6rem;
background:var(--bg)}
article.msg:target{outline:3px solid var(--accent)}
article.frame{background:var(--fold);border-color:#b9c9e6}
article.frame.unresolved,article.frame.cycle{border-color:var(--warn);background:#fff7ea}
article.frame.discarded{border-color:var(--warn)}
.meta{font-size:.85rem;display:flex;flex-wrap:wrap;gap:.25rem .7rem;align-items:baseline}
.meta .loc{font-weight:600;word-break:break-all}
.role{font-weight:600;text-transform:uppercase;font-size:.75rem;letter-spacing:.03em}
.role.role-user{color:#1f6f43}.role.role-assistant{color:#6a3ea1}.role.role-tool{color:#8a5a00}
.role.role-system{color:#444}
.digest{color:var(--muted);font-size:.75rem}
.badge{font-size:.75rem;padding:0 .4rem;border-radius:3px;background:var(--soft);
border:1px solid var(--line)}
.badge.warn{border-color:var(--warn);color:var(--warn)}
a.badge.finding{text-decoration:none}
.badge.sev-error{border-color:var(--err);color:var(--err)}
.badge.sev-warning{border-color:var(--warn);color:var(--warn)}
.badge.sev-info{border-color:var(--info);color:var(--info)}
.empty{color:var(--muted);font-style:italic;font-size:.85rem}
ul.calls{margin:.2rem 0;padding-left:1.2rem}
dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:0 .8rem;margin:.2rem 0;
font-size:.85rem}dl.fields dt{color:var(--muted)}dl.fields dd{margin:0}
dl.fields pre{margin:0}
dl.facts{grid-template-columns:max-content minmax(0,1fr) max-content minmax(0,1fr)}
details.fold{border-left:3px solid #9fb6dc;margin:.3rem 0 .6rem .9rem;padding:0 0 0 .6rem}
details.fold.deep{margin-left:0}
details.fold.floating{border-left-color:var(--warn)}
details.fold>summary{cursor:pointer;font-size:.88rem;padding:.2rem 0;color:var(--accent)}
details.fold>summary .muted{color:var(--muted)}
details.fold>.facts,.fold-flat>.facts{font-size:.82rem;margin:.2rem 0 .4rem}
.fold-flat{border-top:2px dashed #9fb6dc;margin:.6rem 0 0;padding-top:.2rem}
.flat-start{font-size:.88rem;margin:.2rem 0}
.flat-end{font-size:.8rem;color:var(--muted);border-bottom:2px dashed #9fb6dc;margin:.2rem 0 .6rem}
td.tree,td.nowrap{white-space:nowrap}
details.all{display:inline}details.all>summary{cursor:pointer;color:var(--accent)}
ul.all{columns:16rem;margin:.2rem 0;padding-left:1.2rem;font-family:ui-monospace,monospace;
font-size:.8rem}
"""
    + "".join(f".ind-{n}{{padding-left:{0.5 + n * 0.9:.1f}rem}}" for n in range(1, 13))
    + "\n"
)


def render(
    graph: FoldGraph,
    *,
    provenance: Provenance,
    scheme_note: str = "",
    findings: Sequence[Finding] | None = None,
    replays: Replays = "ref",
    folds: FoldFilter = NO_FILTER,
) -> str:
    """The whole report as one HTML document (pure: same inputs, same text); with
    ``folds``, the tree, the timeline and the transcript of the folds that pass."""
    doc = overview(graph, scheme_note, folds=folds)
    body = Writer()
    anchors = _Anchors(findings)

    def shown(events: Iterator[Event]) -> Iterator[Event]:
        return filter_events(events, folds, graph.spans) if folds.active else events

    with body.tag("section", {"id": "transcript"}):
        body.el("h2", "Transcript")
        body.el(
            "p",
            "The live window, oldest first. Each summary is followed by its originals: open "
            "it to see them, nested for nested folds.",
            {"class": "muted"},
        )
        if folds.active:
            body.el(
                "p",
                f"Only the folds {folds.describe()}: the live window's own messages and "
                "the other folds are left out.",
                {"class": "note"},
            )
        _events(body, shown(walk(graph, keep_frames=True, replays=replays)), anchors, graph)
    with body.tag("section", {"id": "floating"}):
        body.el("h2", "Detached and orphan spans")
        if graph.floating_roots:
            body.el(
                "p",
                "Spans whose frame is nowhere in the transcript. Their originals are shown "
                "here, each with the reason it floats; they are not part of the conversation "
                "the agent saw.",
                {"class": "note"},
            )
            floating = walk_floating(graph, keep_frames=True, replays=replays)
            _events(body, shown(floating), anchors, graph)
        else:
            body.el("p", "None: every span is placed in the transcript.", {"class": "muted"})

    w = Writer()
    w.doctype()
    with w.tag("html", {"lang": "en"}):
        with w.tag("head"):
            w.el("meta", attrs={"charset": "utf-8"})
            w.el("meta", attrs={"http-equiv": "Content-Security-Policy", "content": CSP})
            w.el("meta", attrs={"name": "referrer", "content": "no-referrer"})
            w.el(
                "meta", attrs={"name": "viewport", "content": "width=device-width, initial-scale=1"}
            )
            w.el(
                "meta", attrs={"name": "generator", "content": f"foldctl {provenance.tool_version}"}
            )
            w.el("title", f"foldctl report: {_recorded(doc.get('runId'))}")
            w.stylesheet()
        with w.tag("body"):
            _header(w, doc)
            with w.tag("main"):
                _findings(w, findings, anchors)
                _tree(w, doc, anchors)
                _timeline(w, graph, anchors, folds)
                w.extend(body)
            _footer(w, provenance, doc)
    w.newline()
    return w.getvalue()


def render_bytes(
    graph: FoldGraph,
    *,
    provenance: Provenance,
    scheme_note: str = "",
    findings: Sequence[Finding] | None = None,
    replays: Replays = "ref",
    folds: FoldFilter = NO_FILTER,
) -> bytes:
    text = render(
        graph, provenance=provenance, scheme_note=scheme_note, findings=findings,
        replays=replays, folds=folds,
    )  # fmt: skip
    return text.encode("utf-8")


def report(result: Report, output: Output) -> None:
    output.out.write(
        render_bytes(
            result.graph,
            provenance=result.provenance,
            scheme_note=result.scheme_note,
            findings=result.findings,
            replays=result.replays,
            folds=result.folds,
        )
    )
    output.out.flush()


class _Anchors:
    """Which anchors the transcript wrote, to link findings, tree and timeline to them.

    It also knows which findings name which message or span, so the transcript
    can link back to them.
    """

    def __init__(self, findings: Sequence[Finding] | None = None) -> None:
        self.at_locator: dict[str, list[tuple[int, Finding]]] = {}
        self.at_span: dict[int, list[tuple[int, Finding]]] = {}
        for n, f in enumerate(findings or ()):
            if f.locator is not None:
                self.at_locator.setdefault(f.locator, []).append((n, f))
            elif f.span is not None:
                self.at_span.setdefault(f.span, []).append((n, f))
        self.ids: set[str] = set()
        self._next: dict[str, int] = {}  # base -> the suffix to try next (no rescans)
        self.span_block: dict[int, str] = {}  # span -> its first <details> id
        self.span_frame: dict[int, str] = {}  # span -> the first frame row that joins it

    def unique(self, base: str) -> str:
        """``base``, or ``base-2``, ``base-3``, ... the first not yet taken (a base used
        6,000 times costs one step per use, not one per earlier use)."""
        n = self._next.get(base, 1)
        anchor = base if n == 1 else f"{base}-{n}"
        while anchor in self.ids:
            n += 1
            anchor = f"{base}-{n}"
        self._next[base] = n + 1
        self.ids.add(anchor)
        return anchor

    def for_span(self, span: int) -> str | None:
        return self.span_block.get(span) or self.span_frame.get(span)

    def for_locator(self, locator: str) -> str | None:
        anchor = anchor_id(locator)
        return anchor if anchor in self.ids else None


def _header(w: Writer, doc: dict[str, Any]) -> None:
    c = doc["counts"]
    with w.tag("header", {"class": "top"}):
        w.el("h1", f"Fold report: {_recorded(doc.get('runId'))}")
        scheme = doc["scheme"] + (f" ({doc['schemeNote']})" if doc["schemeNote"] else "")
        spans = f"{c['spans']} ({c['retained']} retained, {c['discarded']} discarded)"
        if not doc["foldedPresent"]:
            spans += "; no `folded` key: never folded, or stored before 8.2"
        session = doc.get("session")
        head: list[tuple[str, str]] = (
            [
                ("source", f"{doc['source']} ({formats.get(doc['format']).title})"),
                ("session", _recorded(session.get("sessionId"))),
                ("project", _recorded(session.get("project"))),
                ("runtime", _recorded(session.get("runtimeVersion"))),
                ("time", f"{session.get('firstAt', '?')} .. {session.get('lastAt', '?')}"),
                ("lines", f"{session['lines']} ({session['records']} records)"),
                ("not recorded", ", ".join(doc.get("notRecorded", ()))),
            ]
            if session is not None
            else [
                ("source", f"{doc['source']} ({doc['shape']})"),
                ("runId", doc["runId"]),
                ("version", str(doc["version"])),
                ("checkpointedAt", f"{doc['checkpointedAt']} ({doc['checkpointedAtMs']} ms)"),
                ("iterations", f"last completed: {doc['lastCompletedIteration']}"),
            ]
        )
        if doc.get("partial"):
            head.append(("partial", "some lines are not JSON and were left out (see verify)"))
        rows: list[tuple[str, str]] = [
            *head,
            ("scheme", scheme),
            (
                "live messages",
                f"{c['liveMessages']} ({c['liveFrames']} frames, "
                f"{c['unresolvedLiveFrames']} unresolved)",
            ),
            ("spans", spans),
            ("placement", f"{c['placed']} placed, {c['detached']} detached, {c['orphan']} orphan"),
            (
                "frames",
                f"{c['frames']} ({c['unresolvedFrames']} unresolved, {c['replayedFrames']} "
                f"replayed, {c['cycles']} in cycles)",
            ),
            ("folded messages", f"{c['foldedMessages']} kept verbatim"),
            ("deepest fold", str(c["maxDepth"])),
            ("ambiguous fingerprints", str(c["ambiguousFingerprints"])),
        ]
        with w.tag("dl", {"class": "overview"}):
            for name, value in rows:
                w.el("dt", name)
                w.el("dd", value)
            for name, items in (("runs", doc["runs"]), ("models", doc["models"])):
                w.el("dt", name)
                with w.tag("dd"):
                    _brief_list(w, items, name)
            w.el("dt", "original input")
            with w.tag("dd"):
                w.el("pre", _recorded(doc.get("originalInput")), {"class": "input"})
        with w.tag("nav", {"class": "toc"}):
            for anchor, label in (
                ("findings", "Findings"),
                ("tree", "Fold tree"),
                ("timeline", "Timeline"),
                ("transcript", "Transcript"),
                ("floating", "Detached and orphan"),
                ("provenance", "Provenance"),
            ):
                w.el("a", label, {"href": f"#{anchor}"})


#: A list in the overview shows this many items; the rest are one click away.
BRIEF_ITEMS: Final = 3


def _brief_list(w: Writer, items: Sequence[str], noun: str) -> None:
    """A list of ids as ``show`` writes it, its count and its first few, with the whole
    list in a ``<details>`` one click away: 222 run ids do not fill the overview."""
    if not items:
        w.text("(none)")
        return
    if len(items) <= BRIEF_ITEMS + 1:
        w.text(", ".join(items))
        return
    w.text(f"{len(items)}: {', '.join(items[:BRIEF_ITEMS])}, … ")
    with w.tag("details", {"class": "all"}):
        w.el("summary", f"all {len(items)} {noun}")
        with w.tag("ul", {"class": "all"}):
            for item in items:
                w.el("li", item)


def _findings(w: Writer, findings: Sequence[Finding] | None, anchors: _Anchors) -> None:
    with w.tag("section", {"id": "findings"}):
        if findings is None:
            w.el("h2", "Findings")
            w.el(
                "p",
                "Not audited: this report was made without running the audit (foldctl "
                "verify). It shows the checkpoint as joined; it makes no claim that nothing "
                "is wrong.",
                {"class": "note"},
            )
            return
        w.el("h2", f"Findings ({len(findings)})")
        if not findings:
            w.el("p", "The audit (foldctl verify) found nothing.", {"class": "muted"})
            return
        with w.tag("table"):
            with w.tag("thead"), w.tag("tr"):
                for name in ("severity", "code", "where", "finding"):
                    w.el("th", name)
            with w.tag("tbody"):
                for n, f in enumerate(findings):
                    with w.tag("tr", {"id": f"finding-{n}", "data-severity": f.severity}):
                        w.el("td", f.severity, {"class": f"sev sev-{_slug(f.severity)}"})
                        w.el("td", f.code, {"class": "mono"})
                        with w.tag("td", {"class": "mono wrap"}):
                            _finding_place(w, f, anchors)
                        with w.tag("td", {"class": "wrap"}):
                            w.text(f.message)
                            if f.related:
                                with w.tag("small", {"class": "muted"}):
                                    w.text(" Also: ")
                                    for k, place in enumerate(f.related):
                                        if k:
                                            w.text(", ")
                                        _place_link(w, place, anchors)


def _finding_place(w: Writer, f: Finding, anchors: _Anchors) -> None:
    parts = 0
    if f.locator is not None:
        _place_link(w, f.locator, anchors)
        parts += 1
    if f.span is not None:
        if parts:
            w.text(" · ")
        _place_link(w, f"span {f.span}", anchors)
        parts += 1
    if f.path is not None:
        if parts:
            w.text(" · ")
        w.el("span", f.path, {"class": "muted"})
        parts += 1
    if not parts:
        w.text("checkpoint")


def _place_link(w: Writer, place: str, anchors: _Anchors) -> None:
    """A locator or ``span N``, linked when the report shows it."""
    if place.startswith("span ") and place[5:].isdigit():
        anchor = anchors.for_span(int(place[5:]))
    else:
        anchor = anchors.for_locator(place)
    if anchor is None:
        w.text(place)
    else:
        w.el("a", place, {"href": f"#{anchor}"})


def _slug(text: str) -> str:
    return text if text in ("error", "warning", "info") else "other"


def _tree(w: Writer, doc: dict[str, Any], anchors: _Anchors) -> None:
    with w.tag("section", {"id": "tree"}):
        w.el("h2", "Fold tree")
        nodes: Iterable[dict[str, Any]] = doc["tree"]
        if not nodes:
            w.el("p", "No folds: this checkpoint holds no folded spans.", {"class": "muted"})
            return
        w.el(
            "p",
            "Each span under the span whose originals hold its frame; depth 1 is a frame in the "
            "live window. The frame column is where the span's summary sits: hN in the live "
            "window, fS:N message N of span S.",
            {"class": "muted"},
        )
        with w.tag("table", {"class": "tree"}):
            with w.tag("thead"), w.tag("tr"):
                for name in ("span", "frame", "depth", "model", "messages", "retained", "run",
                             "iteration", "foldedAt"):  # fmt: skip
                    w.el("th", name)
            with w.tag("tbody"):
                for node in nodes:
                    span = node["span"]
                    with w.tag("tr", {"data-span": span, "data-placement": node["placement"]}):
                        indent = min(node["depth"], 12)
                        with w.tag("td", {"class": f"tree ind-{indent}"}):
                            anchor = anchors.for_span(span)
                            label = f"span {span}"
                            if anchor is None:
                                w.text(label)
                            else:
                                w.el("a", label, {"href": f"#{anchor}"})
                        with w.tag("td", {"class": "mono"}):
                            _frame_cell(w, node["frame"], node["placement"], anchors)
                        w.el("td", str(node["depth"]))
                        w.el("td", _recorded(node.get("model")), {"class": "wrap"})
                        w.el("td", str(node["messageCount"]))
                        w.el("td", node["retained"])
                        w.el("td", _recorded(node.get("runId")), {"class": "wrap mono"})
                        w.el("td", _recorded(node.get("iteration")))
                        w.el("td", _recorded(node.get("foldedAt")), {"class": "mono nowrap"})


def _frame_cell(w: Writer, frame: str | None, placement: str, anchors: _Anchors) -> None:
    """Where a span's frame sits: its locator, linked to it."""
    if frame is None:
        w.text(placement)
        return
    anchor = anchors.for_locator(frame)
    if anchor is None:
        w.el("span", frame)
    else:
        w.el("a", frame, {"href": f"#{anchor}"})


def _recorded(value: object) -> str:
    """A fact as the page shows it: "not recorded" where the input format has none."""
    return "not recorded" if value is None else str(value)


def _time(ms: int | float | None) -> str:
    return "time not recorded" if ms is None else iso_utc(ms)


def _stages(stages: tuple[str, ...] | None) -> str:
    return "not recorded" if stages is None else ", ".join(stages) or "(none)"


def _timeline(
    w: Writer, graph: FoldGraph, anchors: _Anchors, folds: FoldFilter = NO_FILTER
) -> None:
    with w.tag("section", {"id": "timeline"}):
        w.el("h2", "Timeline of folds")
        spans = [s for s in graph.spans if folds.selects(s)] if folds.active else graph.spans
        if not spans:
            w.el("p", "No folds to place in time.", {"class": "muted"})
            return
        w.el(
            "p",
            "Each dot is a fold at its foldedAt, one lane per run (filled: originals retained; "
            "orange: discarded; hollow: detached or orphan). The dashed line is checkpointedAt.",
            {"class": "muted"},
        )
        spans = tuple(s for s in spans if s.folded_at_ms is not None)  # times not recorded
        checkpointed = graph.checkpoint.checkpointed_at
        if not spans or checkpointed is None:
            w.el("p", "No fold times are recorded to place in time.", {"class": "muted"})
            return
        lanes: dict[str, int] = {}
        for span in spans:
            lanes.setdefault(_recorded(span.run_id), len(lanes))
        times = [float(s.folded_at_ms or 0) for s in spans] + [float(checkpointed)]
        t0, t1 = min(times), max(times)
        left, right, top, lane_h, bottom, width = 190.0, 20.0, 14.0, 16.0, 44.0, 980.0
        height = top + lane_h * len(lanes) + bottom
        plot = width - left - right

        spread = t1 - t0

        def x_of(t: float) -> float:
            if spread == 0 or not math.isfinite(spread):  # one instant, or absurd stored times
                return left + plot / 2
            return left + (t - t0) / spread * plot

        view: dict[str, AttrValue] = {
            "class": "timeline",
            "viewBox": f"0 0 {width:.0f} {height:.0f}",
            "role": "img",
            "aria-label": f"timeline of {len(spans)} folds over {len(lanes)} runs",
            "xmlns": "http://www.w3.org/2000/svg",
        }
        axis_y = top + lane_h * len(lanes) + 6
        with w.tag("svg", view):
            for run, lane in lanes.items():
                y = top + lane_h * lane + lane_h / 2
                _svg_line(w, "lane", left, y, width - right, y)
                with w.tag("text", _at(left - 6, y + 4, "end")):
                    w.text(run if len(run) <= 28 else run[:27] + "…")
                    w.el("title", run)
            _svg_line(w, "axis", left, axis_y, width - right, axis_y)
            w.el("text", iso_utc(t0), _at(left, axis_y + 16))
            if t1 != t0:
                w.el("text", iso_utc(t1), _at(width - right, axis_y + 16, "end"))
            cx = x_of(float(checkpointed))
            _svg_line(w, "ckpt", cx, top - 6, cx, axis_y)
            w.el("text", "checkpointedAt", _at(cx - 4, axis_y + 32, "end"))
            for span in spans:
                place = graph.places[span.index]
                dot: dict[str, AttrValue] = {
                    "class": f"dot {span.retained} {place.placement}",
                    "data-span": span.index,
                    "cx": f"{x_of(float(span.folded_at_ms or 0)):.1f}",
                    "cy": f"{top + lane_h * lanes[_recorded(span.run_id)] + lane_h / 2:.1f}",
                    "r": 4,
                }
                tip = (
                    f"span {span.index}: {_recorded(span.model)}, {span.message_count} messages, "
                    f"{span.retained}, {place.placement}, iteration {_recorded(span.iteration)}, "
                    f"{_time(span.folded_at_ms)}"
                )
                anchor = anchors.for_span(span.index)
                if anchor is not None:
                    w.start("a", {"href": f"#{anchor}"})
                with w.tag("circle", dot):
                    w.el("title", tip)
                if anchor is not None:
                    w.end("a")


def _svg_line(w: Writer, cls: str, x1: float, y1: float, x2: float, y2: float) -> None:
    coords = {"x1": f"{x1:.1f}", "y1": f"{y1:.1f}", "x2": f"{x2:.1f}", "y2": f"{y2:.1f}"}
    w.el("line", None, {"class": cls, **coords})


def _at(x: float, y: float, anchor: str | None = None) -> dict[str, AttrValue]:
    return {"x": f"{x:.1f}", "y": f"{y:.1f}", "text-anchor": anchor}


def _footer(w: Writer, p: Provenance, doc: dict[str, Any]) -> None:
    with w.tag("footer", {"id": "provenance"}):
        w.el("h2", "Provenance")
        stored = f"{p.stored_size} bytes" + (", gzip-compressed" if p.gzip else "")
        with w.tag("dl", {"class": "overview"}):
            for name, value in (
                ("generated by", f"foldctl {p.tool_version}"),
                ("generated at", p.generated_at),
                ("source", f"{p.source} ({doc['shape']})"),
                ("bytes of", p.hashed),
                ("size", stored),
                ("xxh3-128", p.stored_xxh3_128),
                ("fingerprint scheme", doc["scheme"]),
            ):
                w.el("dt", name)
                w.el("dd", value, {"class": "mono"})
        w.el(
            "p",
            "The size and xxh3-128 are of the file's bytes as stored (before any gzip "
            "decompression; for a session store, the whole store file), so the file can be "
            "checked against this report (xxh128sum FILE). Message digests "
            "are xxh3-128 of each message's canonical JSON. This page has no script and loads "
            "nothing.",
            {"class": "muted"},
        )


def _events(
    w: Writer, events: Iterable[FoldStart | Row | FoldEnd], anchors: _Anchors, graph: FoldGraph
) -> None:
    """Write the transcript: rows as articles, each fold a nested <details> (no recursion)."""
    for event in events:
        if isinstance(event, Row):
            _message(w, event, anchors, graph)
        elif isinstance(event, FoldStart):
            _fold_open(w, event, anchors, graph)
        elif event.context.depth > MAX_NESTING:
            w.el("p", f"end of span {event.span.index}", {"class": "flat-end"})
        else:
            w.end("details")


def _fold_open(w: Writer, event: FoldStart, anchors: _Anchors, graph: FoldGraph) -> None:
    span, ctx = event.span, event.context
    place = graph.places[span.index]
    anchor = anchors.unique(f"span-{span.index}")
    anchors.span_block.setdefault(span.index, anchor)
    flat = ctx.depth > MAX_NESTING
    classes = ["fold-flat" if flat else "fold"]
    if ctx.depth > _DEEP:
        classes.append("deep")
    if ctx.placement != "placed":
        classes.append("floating")
    attrs: dict[str, AttrValue] = {
        "class": " ".join(classes),
        "id": anchor,
        "data-span": span.index,
        "data-depth": ctx.depth,
        "data-placement": ctx.placement,
    }
    kept = "no originals retained" if span.messages is None else f"{len(span.messages)} originals"
    label = f"span {span.index}"
    if ctx.occurrence > 1:
        label += (
            f" — replay {ctx.occurrence}: the same messages as at its first placement "
            f"(through the frame at {event.first_frame or 'history'})"
            + ("; not repeated here" if event.reference else "")
        )
    if event.reason:
        label += f" — {ctx.placement}: {event.reason}"
    line = (
        f" · {kept} (messageCount {span.message_count}) · {_recorded(span.model)} · run "
        f"{_recorded(span.run_id)} · iteration {_recorded(span.iteration)} · "
        f"{_time(span.folded_at_ms)}"
    )
    first = anchors.span_block[span.index] if event.reference else None
    if flat:
        w.start("div", attrs)
        with w.tag("p", {"class": "flat-start"}):
            w.el("strong", label)
            _first_placement_link(w, first)
            w.text(line)
            w.el(
                "span",
                f" · depth {ctx.depth}: shown flat (not collapsible); browsers do not nest "
                f"HTML this deep. Its originals follow, up to “end of span {span.index}”.",
                {"class": "muted"},
            )
            w.text(" ")
            _finding_badges(w, anchors.at_span.get(span.index, ()))
    else:
        w.start("details", attrs)
        with w.tag("summary"):
            w.el("strong", label)
            _first_placement_link(w, first)
            w.text(line)
            if ctx.depth > 1:
                w.el(
                    "span",
                    f" · depth {ctx.depth}, outermost span {ctx.outermost}",
                    {"class": "muted"},
                )
            w.text(" ")
            _finding_badges(w, anchors.at_span.get(span.index, ()))
    # The facts the summary line does not carry, on one line: a page of a chain a
    # thousand folds deep stays within twice the checkpoint's size.
    placement = place.placement + (f" ({place.reason})" if place.reason else "")
    w.el(
        "p",
        f"{span.retained} · {placement} · summaryFingerprint {_recorded(span.fingerprint)} · "
        f"foldedAtMs {_recorded(span.folded_at_ms)} · removedStageIds "
        f"{_stages(span.removed_stage_ids)}",
        {"class": "facts mono"},
    )
    if span.messages is None:
        w.el(
            "p",
            "retained: discard: the runtime kept no originals of this fold; only its summary "
            "carried them forward.",
            {"class": "empty"},
        )
    elif not span.messages:
        w.el("p", "messages is an empty list: no originals to show.", {"class": "empty"})
    if flat:  # a marker, not a container: the originals follow as its siblings
        w.end("div")


_RESOLUTION_LABEL: Final = {
    "expanded": "summary of span {span}: its originals follow",
    "discarded": "summary of span {span}, which discarded its originals (retained: discard)",
    "unresolved": "looks like a summary, but no span joins it (fingerprint {fp}): "
    "forged, tampered, or stored before 8.2",
    "cycle": "summary of span {span}, which is already open above: a fold cycle, "
    "not expanded again",
    "depth-limit": "summary of span {span}, not expanded (depth limit)",
}


def _message(w: Writer, row: Row, anchors: _Anchors, graph: FoldGraph) -> None:
    m = formats.view_of(graph.checkpoint)(row.message)  # as its format shows it
    locator = row.locator
    anchor = anchors.unique(anchor_id(locator))
    role = m.get("role")
    role_text = role if isinstance(role, str) else as_text(role)
    role_class = role if role in _ROLES else "other"
    classes = ["msg", f"role-{role_class}"]
    frame = row.frame
    if frame is not None:
        classes += ["frame", frame.resolution]
        if frame.span is not None:
            anchors.span_frame.setdefault(frame.span, anchor)
    attrs: dict[str, AttrValue] = {
        "class": " ".join(classes),
        "id": anchor,
        "data-role": role_class,
        "data-resolution": frame.resolution if frame is not None else None,
    }
    with w.tag("article", attrs):
        with w.tag("div", {"class": "meta"}):
            w.el("a", locator, {"class": "loc mono", "href": f"#{anchor}"})
            w.el("span", role_text, {"class": f"role role-{role_class}"})
            tool = m.get("toolName")
            if isinstance(tool, str):
                w.el("span", tool, {"class": "mono"})
            if row.occurrence > 1:
                w.el(
                    "span",
                    f"replay {row.occurrence}: the same record message as at the first placement",
                    {"class": "badge warn"},
                )
            if frame is not None:
                label = _RESOLUTION_LABEL[frame.resolution].format(
                    span=frame.span, fp=frame.fingerprint
                )
                warn = frame.resolution != "expanded"
                w.el("span", label, {"class": "badge warn" if warn else "badge"})
            _finding_badges(w, anchors.at_locator.get(locator, ()))
            if row.line is not None:
                w.el("span", f"line {row.line}", {"class": "mono"})
            w.el(
                "code",
                digest(row.message),
                {"class": "digest"},
            )
        content = m.get("content")
        if isinstance(content, str) and content:
            w.el("pre", content, {"class": "content"})
        elif isinstance(content, str):
            w.el("p", "(empty content)", {"class": "empty"})
        if frame is not None and frame.resolution == "discarded" and frame.span is not None:
            span = graph.spans[frame.span]
            w.el(
                "p",
                f"span {span.index}: {_recorded(span.model)}, {span.message_count} messages, "
                f"run {_recorded(span.run_id)}, iteration {_recorded(span.iteration)}, "
                f"{_time(span.folded_at_ms)}, stages {_stages(span.removed_stage_ids)}",
                {"class": "empty"},
            )
        calls = tool_calls(m)
        if calls:
            with w.tag("ul", {"class": "calls"}):
                for call in calls:
                    with w.tag("li"):
                        w.el("strong", as_text(call.get("name", "(no name)")))
                        if "id" in call:
                            w.text(" ")
                            w.el("code", as_text(call["id"]))
                        if "args" in call:
                            w.el("pre", pretty(call["args"]), {"class": "args"})
                        rest = call_rest(call)
                        if rest:
                            w.el("pre", pretty(rest), {"class": "args"})
        extra = other_fields(m)
        if extra:
            with w.tag("dl", {"class": "fields"}):
                for key, value in extra:
                    w.el("dt", key)
                    with w.tag("dd"):
                        w.el("pre", value if isinstance(value, str) else pretty(value))


def _first_placement_link(w: Writer, anchor: str | None) -> None:
    """For a replay shown as a reference: a link to where its messages are shown."""
    if anchor is not None:
        w.text(" ")
        w.el("a", "(go to the first placement)", {"href": f"#{anchor}"})


def _finding_badges(w: Writer, found: Iterable[tuple[int, Finding]]) -> None:
    for n, f in found:
        w.el(
            "a",
            f"{f.severity}: {f.code}",
            {"class": f"badge finding sev-{_slug(f.severity)}", "href": f"#finding-{n}"},
        )
