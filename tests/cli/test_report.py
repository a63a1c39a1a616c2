"""``foldctl report`` without a browser: escaping, structure, CSP, provenance, determinism.

The HTML is read back with the standard library's parser, the way a browser
would tokenise it, and checked against the conformance oracles and against a
twin of every hostile checkpoint whose strings are harmless: hostile content
may change the report's text, never its elements.
"""

from __future__ import annotations

import gzip
import html
import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
import xxhash
from hypothesis import given
from hypothesis import strategies as st

from foldctl import __version__
from foldctl.audit.codes import Finding
from foldctl.digest import digest
from foldctl.graph.open import open_graph
from foldctl.query.report import Provenance
from foldctl.render.html import (
    CSP,
    MAX_NESTING,
    Writer,
    anchor_id,
    escape,
    render,
)
from foldctl.termsafe import visible
from tests.support import CONFORMANCE, SAMPLES, run_cli, run_proc
from tests.support.reports import (
    benign_texts,
    chain_checkpoint,
    checkpoint,
    hostile_checkpoint,
    oracle_rows,
    write,
    xss_payloads,
)

NESTED = CONFORMANCE / "c_nested_one_run.json"
STAMP = "2026-01-31T12:00:00Z"
STAMP_SHOWN = "2026-01-31T12:00:00.000Z"
VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "embed", "source"}

# ------------------------------------------------------------------- reading the HTML back


@dataclass
class Element:
    index: int  # position in document order
    tag: str
    attrs: dict[str, str | None]
    depth: int  # open elements around it
    details_depth: int  # <details class=fold> around it (itself not counted)
    page: Page
    first_chunk: int  # the text inside is page.chunks[first_chunk:last_chunk]
    last_chunk: int = -1

    @property
    def text(self) -> str:
        return "".join(self.page.chunks[self.first_chunk : self.last_chunk])

    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()


class Page(HTMLParser):
    """Every element with its attributes and nesting, and the text inside each one."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.chunks: list[str] = []
        self._open: list[Element] = []
        self._folds = 0
        self.doctype = ""
        self.feed(text)
        self.close()
        assert not self._open, f"unclosed: {[e.tag for e in self._open]}"

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(
            len(self.elements),
            tag,
            dict(attrs),
            len(self._open),
            self._folds,
            self,
            len(self.chunks),
        )
        self.elements.append(element)
        if tag in VOID:
            element.last_chunk = element.first_chunk
            return
        self._open.append(element)
        if _is_fold(element):
            self._folds += 1

    def handle_endtag(self, tag: str) -> None:
        assert self._open and self._open[-1].tag == tag, f"</{tag}> closes {self._open[-1:]}"
        element = self._open.pop()
        element.last_chunk = len(self.chunks)
        if _is_fold(element):
            self._folds -= 1

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)

    def find(self, tag: str | None = None, **attrs: str) -> list[Element]:
        found = []
        for e in self.elements:
            if tag is not None and e.tag != tag:
                continue
            if all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                found.append(e)
        return found

    def with_class(self, cls: str, tag: str | None = None) -> list[Element]:
        return [e for e in self.elements if (tag is None or e.tag == tag) and cls in e.classes()]

    def inside(self, outer: Element) -> list[Element]:
        """The elements within ``outer``, in document order."""
        out = []
        for e in self.elements[outer.index + 1 :]:
            if e.depth <= outer.depth:
                break
            out.append(e)
        return out

    def digest_of(self, article: Element) -> str:
        return next(e.text for e in self.inside(article) if "digest" in e.classes())


def _is_fold(e: Element) -> bool:
    return e.tag == "details" and "fold" in e.classes()


def provenance(source: str = "test.json") -> Provenance:
    return Provenance(__version__, source, source, 123, "0" * 32, False, STAMP_SHOWN)


def report_of(path: Path | str) -> str:
    graph, note = open_graph(str(path))
    return render(graph, provenance=provenance(str(path)), scheme_note=note)


def section(page: Page, name: str) -> list[Element]:
    """Elements inside the element with id ``name`` (a section, the footer), in order."""
    return page.inside(next(e for e in page.elements if e.attrs.get("id") == name))


# ------------------------------------------------------------------- checkpoints to render


def test_writer_escapes_every_text_and_attribute() -> None:
    w = Writer()
    with w.tag("p", {"title": '"><script>x</script>', "class": "a"}):
        w.text("<b>&amp;</b>'\"")
    assert w.getvalue() == (
        '<p title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;" class="a">'
        "&lt;b&gt;&amp;amp;&lt;/b&gt;&#x27;&quot;</p>"
    )


@pytest.mark.parametrize(
    ("tag", "attrs", "complaint"),
    [
        ("script", {}, "not a tag"),
        ("img", {}, "not a tag"),
        ("style", {}, "not a tag"),
        ("iframe", {}, "not a tag"),
        ("p", {"style": "color:red"}, "not one this report writes"),
        ("p", {"onclick": "x()"}, "not one this report writes"),
        ("a", {"src": "x"}, "not one this report writes"),
        ("a", {"href": "javascript:alert(1)"}, "not a link within the report"),
        ("a", {"href": "http://example.com/"}, "not a link within the report"),
        ("a", {"href": "#x y"}, "not a link within the report"),
        ("p", {"id": "a b"}, "not of the form"),
        ("p", {"id": '"x'}, "not of the form"),
    ],
)
def test_writer_refuses_markup_it_does_not_own(
    tag: str, attrs: dict[str, str], complaint: str
) -> None:
    with pytest.raises(ValueError, match=complaint):
        Writer().start(tag, attrs)


def test_writer_refuses_unbalanced_documents() -> None:
    w = Writer()
    w.start("div")
    with pytest.raises(ValueError, match="does not close"):
        w.end("p")
    with pytest.raises(ValueError, match="unclosed <div>"):
        w.getvalue()
    outer = Writer()
    with pytest.raises(ValueError, match="unclosed"):
        outer.extend(w)


def test_escape_shows_controls_and_bidi_visibly() -> None:
    shown = escape("a\x1b[31m\u202eb\x00\ud800<c>\n\t")
    assert shown == "a\\x1b[31m\\u202eb\\x00\\ud800&lt;c&gt;\n\t"
    shown.encode("utf-8")  # nothing unencodable is left


def test_escape_leaves_alone_only_what_needs_nothing() -> None:
    # escape() skips the rewriting when nothing needs it: every code point of the
    # Basic Multilingual Plane (surrogates included) and one beyond it agree with it.
    for code in [*range(0x10000), 0x1F600]:
        char = chr(code)
        assert escape(f"a{char}b") == html.escape(visible(f"a{char}b"), quote=True), hex(code)


@given(st.text())
def test_any_text_stays_text(value: str) -> None:
    w = Writer()
    with w.tag("p", {"title": value}):
        w.text(value)
    page = Page(w.getvalue())
    assert [e.tag for e in page.elements] == ["p"]
    assert page.elements[0].text == visible(value)
    assert page.elements[0].attrs["title"] == visible(value)


_STEP = st.integers(min_value=0, max_value=30)
_LOCATORS = st.one_of(
    st.tuples(_STEP, st.lists(st.tuples(_STEP, _STEP), max_size=4)).map(
        lambda t: ">".join([f"h{t[0]}", *(f"f{s}:{i}" for s, i in t[1])])
    ),
    st.lists(st.tuples(_STEP, _STEP), min_size=1, max_size=4).map(
        lambda steps: ">".join(f"f{s}:{i}" for s, i in steps)
    ),
)


@given(_LOCATORS, _LOCATORS)
def test_anchor_ids_are_one_to_one_and_valid(a: str, b: str) -> None:
    assert re.fullmatch(r"[a-z][a-z0-9-]*", anchor_id(a))
    assert (anchor_id(a) == anchor_id(b)) == (a == b)


def test_anchor_example() -> None:
    assert anchor_id("f5:0") == "m-f5-0"


# ------------------------------------------------------------------- the page


def test_page_is_self_contained_and_forbids_everything_else(conformance: Path) -> None:
    text = report_of(NESTED)
    page = Page(text)
    assert page.doctype.lower() == "doctype html"
    head = [e for e in page.elements if e.tag == "meta"]
    assert head[0].attrs == {"charset": "utf-8"}
    assert head[1].attrs == {"http-equiv": "Content-Security-Policy", "content": CSP}
    assert CSP.startswith("default-src 'none'; style-src 'unsafe-inline'")
    tags = Counter(e.tag for e in page.elements)
    assert tags["script"] == 0 and tags["style"] == 1
    assert not {"img", "link", "iframe", "object", "embed", "base", "form"} & set(tags)
    ids = [e.attrs["id"] for e in page.elements if "id" in e.attrs]
    assert len(ids) == len(set(ids)), "every anchor is unique"
    for e in page.elements:
        for name, value in e.attrs.items():
            assert not name.startswith("on") and name not in ("style", "src", "action")
            if name == "href":
                assert value is not None and value.startswith("#"), value
                assert value[1:] in ids, f"link to a missing anchor {value}"
            elif value and "://" in value:
                assert name == "xmlns", (name, value)
    assert "@import" not in text and "url(" not in text


@pytest.mark.parametrize(
    "case",
    [
        "a_one_fold_conversation",
        "b_one_fold_discard",
        "c_nested_one_run",
        "e_tool_calls",
        "f_unicode",
        "g_envelope_conversation",
        "i_forged_frame",
        "k_duplicate_fingerprints",
    ],
)
def test_transcript_is_the_reference_expansion(conformance: Path, case: str) -> None:
    page = Page(report_of(conformance / f"{case}.json"))
    transcript = section(page, "transcript")
    rows, blocks = oracle_rows(case)
    shown = [
        e for e in transcript if e.tag == "article" and e.attrs.get("data-resolution") != "expanded"
    ]
    assert [digest(row["message"]) for row in rows] == [page.digest_of(e) for e in shown]
    folds = [e for e in transcript if _is_fold(e)]
    assert Counter(int(e.attrs["data-depth"] or 0) for e in folds) == blocks
    for e in folds:  # data-depth says how deep the <details> really is
        assert int(e.attrs["data-depth"] or 0) == e.details_depth + 1
    expanded = [e for e in transcript if e.attrs.get("data-resolution") == "expanded"]
    assert len(expanded) == len(folds), "every expanded summary is shown before its originals"


def test_a_267_deep_chain_renders(conformance: Path) -> None:
    page = Page(report_of(conformance / "m_medium.json"))
    rows, blocks = oracle_rows("m_medium")
    folds = [e for e in page.elements if _is_fold(e)]
    assert max(e.details_depth + 1 for e in folds) == 267 == max(blocks)
    articles = page.find("article")
    assert len(articles) == len(rows) + len(folds)


def test_deeper_than_browsers_nest_is_written_flat_in_order(tmp_path: Path) -> None:
    depth = MAX_NESTING + 25
    path = write(tmp_path, chain_checkpoint(depth))
    page = Page(report_of(path))
    folds = [e for e in page.elements if _is_fold(e)]
    flat = page.with_class("fold-flat")
    assert len(folds) == MAX_NESTING and len(flat) == 25
    assert max(e.depth for e in page.elements) < 500, "within what browsers nest"
    originals = [
        e.text.split("original of span ")[1].split()[0]
        for e in page.find("pre")
        if "original of span" in e.text
    ]
    assert originals == [str(i) for i in range(depth)]
    ends = page.with_class("flat-end")
    assert [e.text for e in ends] == [f"end of span {i}" for i in range(25)]


def test_discarded_summary_is_labelled_with_its_span(conformance: Path) -> None:
    page = Page(report_of(conformance / "b_one_fold_discard.json"))
    frames = page.find("article", data_resolution="discarded")
    assert len(frames) == 1
    assert "discarded its originals" in frames[0].text
    assert "mock-cheap" in frames[0].text  # the span's facts are on the frame itself
    assert not [e for e in section(page, "transcript") if _is_fold(e)]


def test_unresolved_summaries_are_labelled(conformance: Path) -> None:
    page = Page(report_of(conformance / "i_forged_frame.json"))
    forged = page.find("article", data_resolution="unresolved")
    assert len(forged) == 2
    assert all("no span joins it" in e.text for e in forged)


def test_orphan_spans_float_after_the_transcript_with_their_reason(conformance: Path) -> None:
    page = Page(report_of(conformance / "k_duplicate_fingerprints.json"))
    floating = [e for e in section(page, "floating") if _is_fold(e) and e.details_depth == 0]
    assert [(e.attrs["data-span"], e.attrs["data-placement"]) for e in floating] == [
        ("2", "orphan"),
        ("3", "orphan"),
    ]
    assert all("joins span" in e.text for e in floating)
    assert not [e for e in section(page, "transcript") if e.attrs.get("data-placement") == "orphan"]


def test_no_folds_says_so(conformance: Path) -> None:
    page = Page(report_of(conformance / "i_no_folds.json"))
    tree = section(page, "tree")
    assert "No folds" in " ".join(e.text for e in tree)
    assert not page.find("svg")


def test_timeline_has_one_linked_dot_per_span(conformance: Path) -> None:
    page = Page(report_of(NESTED))
    dots = page.find("circle")
    assert sorted(int(d.attrs["data-span"] or -1) for d in dots) == list(range(6))
    links = [e for e in section(page, "timeline") if e.tag == "a"]
    assert len(links) == 6


def test_absurd_fold_times_still_draw(tmp_path: Path) -> None:
    doc = chain_checkpoint(2)
    doc["folded"][0]["foldedAtMs"] = -1e308
    doc["folded"][1]["foldedAtMs"] = 1e308
    page = Page(report_of(write(tmp_path, doc)))
    assert all(d.attrs["cx"] not in ("nan", "inf", "-inf") for d in page.find("circle"))
    assert "(out of range: 1e+308)" in " ".join(e.text for e in section(page, "tree"))


# ------------------------------------------------------------------- hostile content


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    payloads = xss_payloads(9)
    bad = write(tmp_path, hostile_checkpoint(payloads), "hostile.json")
    good = write(tmp_path, hostile_checkpoint(benign_texts(len(payloads))), "benign.json")
    return bad, good, payloads


def shape(page: Page) -> list[tuple[str, tuple[str, ...]]]:
    return [(e.tag, tuple(sorted(e.attrs))) for e in page.elements]


def test_hostile_content_changes_nothing_but_its_own_text(
    hostile: tuple[Path, Path, list[str]],
) -> None:
    bad, good, payloads = hostile
    bad_page, good_page = Page(report_of(bad)), Page(report_of(good))
    assert len(payloads) >= 10
    assert shape(bad_page) == shape(good_page)
    # every live payload message shows exactly the payload, made visible, as text
    live = [
        e
        for e in section(bad_page, "transcript")
        if "content" in e.classes() and e.details_depth == 0
    ]
    shown = {e.text for e in live}
    for payload in payloads:
        assert visible(payload) in shown, payload[:40]
    titles = [e for e in bad_page.find("title") if e.depth == 2]  # html > head > title
    assert len(titles) == 1 and titles[0].text == f"foldctl report: {visible(payloads[5])}"


@pytest.mark.parametrize("field", ["model", "runId", "toolName", "args", "stage", "key"])
def test_hostile_names_and_ids_are_text(hostile: tuple[Path, Path, list[str]], field: str) -> None:
    bad, _, payloads = hostile
    text = report_of(bad)
    page = Page(text)
    all_text = page.elements[0].text  # everything inside <html>
    expect = {
        "model": payloads[10],
        "runId": payloads[9],
        "toolName": payloads[3],
        "args": json.dumps(
            {"query": payloads[4], payloads[5]: [payloads[6]]}, indent=2, ensure_ascii=False
        ),
        "stage": payloads[11],
        "key": payloads[14],
    }[field]
    assert visible(expect) in all_text
    assert "<script" not in text.lower()


def test_untrusted_role_is_not_a_css_class(hostile: tuple[Path, Path, list[str]]) -> None:
    bad, _, payloads = hostile
    page = Page(report_of(bad))
    roles = {e.attrs.get("data-role") for e in page.find("article")}
    assert roles <= {"system", "user", "assistant", "tool", "other"}
    assert any(visible(payloads[12]) == e.text for e in page.with_class("role", "span"))


# ------------------------------------------------------------------- findings


def test_findings_link_to_what_they_name_and_back(conformance: Path) -> None:
    graph, note = open_graph(str(NESTED))
    findings = [
        Finding("frame-mismatch", "warning", "<b>stated</b> count differs", "f5:0", 4),
        Finding("time-order", "warning", "span 2 folded late", None, 2, "folded[2].foldedAtMs"),
        Finding("schema", "error", "no such message", "h99", None, related=("h0", "span 3")),
        Finding("legacy", "info", "about the checkpoint"),
    ]
    page = Page(render(graph, provenance=provenance(), scheme_note=note, findings=findings))
    rows = [e for e in section(page, "findings") if e.tag == "tr" and "data-severity" in e.attrs]
    assert [e.attrs["id"] for e in rows] == ["finding-0", "finding-1", "finding-2", "finding-3"]
    links = [e.attrs["href"] for e in section(page, "findings") if e.tag == "a"]
    assert links == ["#m-f5-0", "#span-4", "#span-2", "#m-h0", "#span-3"]
    assert "<b>stated</b> count differs" in rows[0].text  # shown as text
    assert "folded[2].foldedAtMs" in rows[1].text
    assert "h99" in rows[2].text and "checkpoint" in rows[3].text
    # and back: the message and the span carry a badge that links to their finding
    badges = {e.attrs["href"]: e for e in page.with_class("finding", "a")}
    assert set(badges) == {"#finding-0", "#finding-1"}
    message = next(e for e in page.find("article") if e.attrs.get("id") == "m-f5-0")
    assert badges["#finding-0"] in page.inside(message)
    fold = next(e for e in page.elements if e.attrs.get("id") == "span-2")
    assert badges["#finding-1"] in page.inside(fold)


def test_without_an_audit_the_report_says_so(conformance: Path) -> None:
    graph, note = open_graph(str(NESTED))
    page = Page(render(graph, provenance=provenance(), scheme_note=note, findings=None))
    assert "Not audited" in " ".join(e.text for e in section(page, "findings"))
    empty = Page(render(graph, provenance=provenance(), scheme_note=note, findings=[]))
    assert "found nothing" in " ".join(e.text for e in section(empty, "findings"))


@pytest.mark.parametrize("case", ["i_forged_frame", "k_duplicate_fingerprints", "c_nested_one_run"])
def test_cli_report_lists_what_verify_finds(conformance: Path, tmp_path: Path, case: str) -> None:
    source = conformance / f"{case}.json"
    out = tmp_path / "r.html"
    assert run_cli("report", str(source), "-o", str(out), "--now", STAMP).exit_code == 0
    verify = run_cli("verify", str(source), "--claims", "--format", "json")
    (audited,) = json.loads(verify.stdout)["sources"]
    page = Page(out.read_text("utf-8"))
    rows = [e for e in section(page, "findings") if e.tag == "tr" and "data-severity" in e.attrs]
    assert [page.inside(r)[1].text for r in rows] == [f["code"] for f in audited["findings"]]


# ------------------------------------------------------------------- the command


def footer(page: Page) -> dict[str, str]:
    items = [e for e in section(page, "provenance") if e.tag in ("dt", "dd")]
    return {items[i].text: items[i + 1].text for i in range(0, len(items), 2)}


def test_report_records_provenance_of_the_stored_bytes(conformance: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    result = run_cli("report", str(NESTED), "-o", str(out), "--now", STAMP)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    facts = footer(Page(out.read_text("utf-8")))
    data = NESTED.read_bytes()
    assert facts["xxh3-128"] == xxhash.xxh3_128_hexdigest(data)
    assert facts["size"] == f"{len(data)} bytes"
    assert facts["bytes of"] == str(NESTED)
    assert facts["generated at"] == STAMP_SHOWN
    assert facts["generated by"] == f"foldctl {__version__}"
    assert facts["source"] == f"{NESTED} (checkpoint)"


def test_gzip_and_stdin_are_hashed_as_received(conformance: Path, tmp_path: Path) -> None:
    packed = gzip.compress(NESTED.read_bytes(), mtime=0)
    gz = tmp_path / "c.json.gz"
    gz.write_bytes(packed)
    out = tmp_path / "gz.html"
    assert run_cli("report", str(gz), "-o", str(out), "--now", STAMP).exit_code == 0
    facts = footer(Page(out.read_text("utf-8")))
    assert facts["xxh3-128"] == xxhash.xxh3_128_hexdigest(packed)
    assert facts["size"] == f"{len(packed)} bytes, gzip-compressed"
    piped = run_cli("report", "-", "-o", "-", "--now", STAMP, stdin=packed)
    assert piped.exit_code == 0, piped.stderr
    facts = footer(Page(piped.stdout))
    assert facts["xxh3-128"] == xxhash.xxh3_128_hexdigest(packed)
    assert facts["source"] == "<stdin> (checkpoint)"
    # the same conversation either way
    transcript = [e.text for e in section(Page(piped.stdout), "transcript")]
    assert transcript == [e.text for e in section(Page(out.read_text("utf-8")), "transcript")]


def test_a_store_session_is_hashed_as_the_store_file(tmp_path: Path) -> None:
    store = SAMPLES / "sessions.db"
    out = tmp_path / "r.html"
    result = run_cli("report", f"{store}#nested_chain", "-o", str(out), "--now", STAMP)
    assert result.exit_code == 0, result.stderr
    facts = footer(Page(out.read_text("utf-8")))
    assert facts["bytes of"] == str(store)
    assert facts["xxh3-128"] == xxhash.xxh3_128_hexdigest(store.read_bytes())
    assert facts["source"].startswith(f"{store}#nested_chain ")
    refused = run_cli("report", f"{store}#nested_chain", "-o", str(store))
    assert refused.exit_code == 2 and "report writes HTML, to a FILE.html" in refused.stderr


def test_same_input_and_time_give_the_same_bytes(
    conformance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c = tmp_path / "a.html", tmp_path / "b.html", tmp_path / "c.html"
    assert run_cli("report", str(NESTED), "-o", str(a), "--now", "1769860800").exit_code == 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1769860800")
    assert run_cli("report", str(NESTED), "-o", str(b)).exit_code == 0
    assert a.read_bytes() == b.read_bytes()
    assert footer(Page(a.read_text("utf-8")))["generated at"] == STAMP_SHOWN
    # --now wins over SOURCE_DATE_EPOCH
    assert (
        run_cli("report", str(NESTED), "-o", str(c), "--now", "2020-01-01T00:00:00+02:00").exit_code
        == 0
    )
    assert footer(Page(c.read_text("utf-8")))["generated at"] == "2019-12-31T22:00:00.000Z"


@pytest.mark.parametrize(
    ("args", "env", "complaint"),
    [
        (["--now", "yesterday"], {}, "--now 'yesterday': expected ISO-8601"),
        ([], {"SOURCE_DATE_EPOCH": "soon"}, "SOURCE_DATE_EPOCH='soon'"),
        (["--now", "99999999999999"], {}, "out of range"),
        (["--scheme", "md5"], {}, "unknown scheme 'md5'"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    conformance: Path,
    tmp_path: Path,
    args: list[str],
    env: dict[str, str],
    complaint: str,
) -> None:
    out = tmp_path / "r.html"
    proc = run_proc("report", str(NESTED), "-o", str(out), *args, env=env)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert err.count("\n") == 1 and complaint in err and "Traceback" not in err
    assert not out.exists()


def test_output_is_opened_only_after_success(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"version": 1, "history": [}')
    out = tmp_path / "r.html"
    out.write_bytes(b"previous report")
    proc = run_proc("report", str(bad), "-o", str(out))
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert err.startswith(f"foldctl: error: {bad}: byte ") and err.count("\n") == 1
    assert out.read_bytes() == b"previous report"
    missing = run_proc("report", str(tmp_path / "nope.json"), "-o", str(tmp_path / "new.html"))
    assert missing.returncode == 2 and b"no such file" in missing.stderr
    assert not (tmp_path / "new.html").exists()


def test_evidence_is_never_overwritten_or_touched(conformance: Path, tmp_path: Path) -> None:
    source = tmp_path / "ckpt.html"  # a checkpoint may have any name, even one -o takes
    source.write_bytes(NESTED.read_bytes())
    before = (source.read_bytes(), os.stat(source).st_mtime_ns)
    refused = run_cli("report", str(source), "-o", str(source))
    assert refused.exit_code == 2
    assert "that is the source" in refused.stderr
    out = tmp_path / "r.html"
    assert run_cli("report", str(source), "-o", str(out)).exit_code == 0
    assert (source.read_bytes(), os.stat(source).st_mtime_ns) == before


def test_unwritable_output_is_a_clear_error(conformance: Path, tmp_path: Path) -> None:
    result = run_cli("report", str(NESTED), "-o", str(tmp_path / "no" / "dir" / "r.html"))
    assert result.exit_code == 2
    assert "cannot write the report" in result.stderr


def test_real_process_writes_html_to_stdout(conformance: Path) -> None:
    proc = run_proc("report", str(NESTED), "-o", "-", env={"SOURCE_DATE_EPOCH": "0"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    text = proc.stdout.decode("utf-8")
    assert text.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert footer(Page(text))["generated at"] == "1970-01-01T00:00:00.000Z"


def test_output_option_is_required(conformance: Path) -> None:
    proc = run_proc("report", str(NESTED))
    assert proc.returncode == 2
    assert b"--output" in proc.stderr


def test_help_names_the_options() -> None:
    result = run_cli("report", "--help")
    assert result.exit_code == 0
    for option in ("--output", "--now", "--scheme", "SOURCE_DATE_EPOCH"):
        assert option in result.stdout


def test_entities_in_content_stay_literal(tmp_path: Path) -> None:
    path = write(tmp_path, checkpoint([{"role": "user", "content": "&lt;b&gt; &amp;amp;"}], None))
    page = Page(report_of(path))
    assert "&lt;b&gt; &amp;amp;" in {e.text for e in page.find("pre")}


def test_many_runs_show_the_first_few_and_the_rest_one_click_away(tmp_path: Path) -> None:
    doc = chain_checkpoint(12)
    for n, span in enumerate(doc["folded"]):
        span["runId"] = f"run-{n:02d}"
    path = write(tmp_path, doc)
    out = tmp_path / "r.html"
    assert run_cli("report", str(path), "-o", str(out), "--now", STAMP).exit_code == 0
    page = Page(out.read_text(encoding="utf-8"))
    runs = next(e for e in page.find("dt") if e.text == "runs")
    shown = page.elements[runs.index + 1]  # its <dd>
    assert shown.tag == "dd"
    assert shown.text.startswith("13: run-00, run-01, run-02, … ")  # run-1 (the top) and 12
    (folded,) = [e for e in page.inside(shown) if e.tag == "details"]
    assert "open" not in folded.attrs  # one click away, not in the way
    assert [e.text for e in page.inside(folded) if e.tag == "li"] == sorted(
        ["run-1", *(f"run-{n:02d}" for n in range(12))]
    )


def test_output_that_is_not_html_is_refused_before_any_work(tmp_path: Path) -> None:
    demo = SAMPLES / "nested_chain.json"  # bundled: the test runs in a fresh clone
    for name in ("r.md", "r.json", "report"):
        out = tmp_path / name
        refused = run_cli("report", str(demo), "-o", str(out))
        assert refused.exit_code == 2 and not out.exists()
        assert refused.stderr == (
            f"foldctl: error: -o {out}: report writes HTML, to a FILE.html; for markdown: "
            f"foldctl expand {demo} --format markdown > {out}\n"
        )
    for name in ("r.html", "R.HTM"):
        assert run_cli("report", str(demo), "-o", str(tmp_path / name)).exit_code == 0
