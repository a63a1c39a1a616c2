"""``foldctl report`` in a real headless Chromium: what a reviewer opening the file gets.

Driven over the DevTools protocol (tests/cdp.py).  Skips, saying why, when no
Chromium is installed (Debian: ``apt-get install chromium``).  A screenshot of
the nested report is saved under test-artifacts/; with
``FOLDCTL_UPDATE_SCREENSHOT=1`` it also replaces docs/report-screenshot.png.
"""

from __future__ import annotations

import http.server
import os
import re
import struct
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from foldctl.graph.open import open_graph
from foldctl.graph.walk import FoldStart, walk, walk_floating
from foldctl.render.html import CSP
from foldctl.termsafe import visible
from tests.support import CONFORMANCE, REPO, SAMPLES, run_cli
from tests.support.cdp import Browser, Page, browser_session, find_browser
from tests.support.reports import (
    benign_texts,
    hostile_checkpoint,
    oracle_rows,
    write,
    xss_payloads,
)

BROWSER = find_browser()
UPDATE_SCREENSHOT = os.environ.get("FOLDCTL_UPDATE_SCREENSHOT") == "1"
ARTIFACTS = REPO / "test-artifacts"
STAMP = "2026-01-31T12:00:00Z"

pytestmark = pytest.mark.skipif(
    BROWSER is None,
    reason="browser tests need Chromium (apt-get install chromium, or set FOLDCTL_TEST_BROWSER)",
)

#: Records Content-Security-Policy violations from the first instant of each document.
WATCH_CSP = (
    "window.__violations = [];"
    "document.addEventListener('securitypolicyviolation',"
    " e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI), true);"
)
FOLDS = """Array.from(document.querySelectorAll('details.fold'), d => {
  let nested = 0;
  for (let e = d.parentElement; e; e = e.parentElement) if (e.matches('details.fold')) nested++;
  return [Number(d.dataset.depth), nested + 1];
})"""
CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>')
SHAPE = "Array.from(document.querySelectorAll('*'), e => e.tagName).join(' ')"


def nested_sources() -> list[Path]:
    """The nested sample when it exists, and the nested conformance checkpoint."""
    candidates = [SAMPLES / "nested_chain.json", CONFORMANCE / "c_nested_one_run.json"]
    return [p for p in candidates if p.is_file()]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    assert BROWSER is not None
    with browser_session(BROWSER, tmp_path_factory.mktemp("chromium")) as session:
        yield session


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    tab = browser.new_page()
    tab.before_load(WATCH_CSP)
    yield tab
    tab.close()


class Listener:
    """A local HTTP server that must hear nothing: any request to it is a leak."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        paths = self.paths

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                paths.append(self.path)
                self.send_response(204)
                self.end_headers()

            do_POST = do_GET

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    server = Listener()
    yield server
    server.close()


def make_report(source: Path, out: Path) -> Path:
    result = run_cli("report", str(source), "-o", str(out), "--now", STAMP)
    assert result.exit_code == 0, result.stderr
    return out


def open_report(page: Page, path: Path) -> None:
    page.goto(path.resolve().as_uri())
    page.settle()


def only_the_page_was_requested(page: Page, path: Path) -> None:
    assert page.requested_urls() == [path.resolve().as_uri()]


# ------------------------------------------------------------------- structure


@pytest.mark.parametrize("source", nested_sources(), ids=lambda p: p.name)
def test_details_blocks_at_each_depth(page: Page, tmp_path: Path, source: Path) -> None:
    report = make_report(source, tmp_path / "nested.html")
    open_report(page, report)
    folds = page.evaluate(FOLDS)
    graph, _ = open_graph(str(source))
    events = [*walk(graph, keep_frames=True), *walk_floating(graph, keep_frames=True)]
    expected = Counter(e.context.depth for e in events if isinstance(e, FoldStart))
    assert Counter(depth for depth, _ in folds) == expected
    assert max(expected) >= 2, "a nested sample"
    assert all(stated == real for stated, real in folds), "data-depth is the real nesting"
    if source.name == "c_nested_one_run.json":  # and, independently, the reference oracle
        _, blocks = oracle_rows("c_nested_one_run")
        assert Counter(depth for depth, _ in folds) == blocks
    only_the_page_was_requested(page, report)
    assert page.evaluate("window.__violations") == []


@pytest.mark.parametrize("source", nested_sources(), ids=lambda p: p.name)
def test_opening_a_summary_shows_its_originals(page: Page, tmp_path: Path, source: Path) -> None:
    report = make_report(source, tmp_path / "nested.html")
    open_report(page, report)
    graph, _ = open_graph(str(source))
    first = next(e for e in walk(graph) if isinstance(e, FoldStart))
    assert first.span.messages
    original = first.span.messages[0]
    outer = f"#span-{first.span.index}"
    inner_article = f"{outer} > article"
    visible_now = (
        f"[document.querySelector('{outer}').open,"
        f" document.querySelector('{inner_article}').checkVisibility()]"
    )
    assert page.evaluate(visible_now) == [False, False], "closed until the reader opens it"
    page.click(f"{outer} > summary")
    assert page.evaluate(visible_now) == [True, True]
    shown = page.evaluate(
        f"(e => e ? e.textContent : '')(document.querySelector('{inner_article} pre.content'))"
    )
    assert shown == visible(original["content"]) or original["content"] == ""
    nested = page.evaluate(
        f"Array.from(document.querySelectorAll('{outer} details.fold'), d => d.open)"
    )
    assert not any(nested), "opening one level opens only that level"


def test_a_267_deep_chain_renders_nested(page: Page, tmp_path: Path) -> None:
    source = CONFORMANCE / "m_medium.json"
    if not source.is_file():
        pytest.skip(f"conformance corpus not found at {CONFORMANCE}")
    report = make_report(source, tmp_path / "medium.html")
    open_report(page, report)
    folds = page.evaluate(FOLDS)
    rows, blocks = oracle_rows("m_medium")
    assert Counter(depth for depth, _ in folds) == blocks
    assert max(real for _, real in folds) == 267
    assert page.evaluate("document.querySelectorAll('article').length") == len(rows) + len(folds)
    # the innermost originals are inside all 267 blocks
    deepest = page.evaluate(
        "(() => { const d = Array.from(document.querySelectorAll('details.fold'))"
        ".find(d => d.dataset.depth === '267'); return d.querySelectorAll(':scope > article')"
        ".length; })()"
    )
    assert deepest >= 1
    only_the_page_was_requested(page, report)


# ------------------------------------------------------------------- hostile content


@pytest.mark.parametrize("with_csp", [True, False], ids=["with-csp", "csp-removed"])
def test_hostile_content_is_inert(
    page: Page, listener: Listener, tmp_path: Path, with_csp: bool
) -> None:
    """Escaping alone must hold: the payloads stay text even with the CSP taken out."""
    payloads = xss_payloads(listener.port)
    reports = {}
    for name, texts in (("hostile", payloads), ("benign", benign_texts(len(payloads)))):
        source = write(tmp_path, hostile_checkpoint(texts), f"{name}.json")
        report = make_report(source, tmp_path / f"{name}.html")
        if not with_csp:
            text, removed = CSP_META.subn("", report.read_text("utf-8"))
            assert removed == 1
            report.write_text(text, "utf-8")
        reports[name] = report

    open_report(page, reports["benign"])
    benign_shape = page.evaluate(SHAPE)
    page.browser.events.clear()
    open_report(page, reports["hostile"])
    assert page.evaluate(SHAPE) == benign_shape, "payloads created no element"
    for selector in ("details.fold > summary", "a.loc"):  # a reader clicking around
        page.click(selector)
    page.settle()

    assert page.evaluate("document.title") == f"foldctl report: {visible(payloads[5])}"
    assert page.evaluate("typeof window.__xss") == "undefined"
    foreign = page.evaluate(
        "document.querySelectorAll('xss-marker, script, img, iframe, object, embed, form, "
        "input, button, base, link, template, noscript, textarea, xmp, plaintext, math, "
        "meta[http-equiv=refresh], [style], [onerror], [onload], [onmouseover], [onfocus]'"
        ").length"
    )
    assert foreign == 0
    assert page.evaluate("location.href.split('#')[0]") == reports["hostile"].resolve().as_uri()
    assert page.evaluate("getComputedStyle(document.body).display") == "block"
    only_the_page_was_requested(page, reports["hostile"])
    assert listener.paths == []
    assert page.evaluate("window.__violations") == [], "nothing even tried to load or run"
    texts = page.evaluate(
        "Array.from(document.querySelectorAll('#transcript > article > pre.content'),"
        " e => e.textContent)"
    )
    for payload in payloads:
        assert visible(payload) in texts


def test_the_hostile_sample_is_inert(page: Page, tmp_path: Path) -> None:
    source = SAMPLES / "hostile_content.json"
    report = make_report(source, tmp_path / "sample.html")
    open_report(page, report)
    assert page.evaluate("document.querySelectorAll('script, img, iframe, [style]').length") == 0
    assert page.evaluate("document.title").startswith("foldctl report: ")
    assert page.evaluate("window.__violations") == []
    only_the_page_was_requested(page, report)


@pytest.mark.parametrize("with_csp", [True, False], ids=["with-csp", "without-csp"])
def test_the_detectors_notice_a_live_payload(
    page: Page, listener: Listener, tmp_path: Path, with_csp: bool
) -> None:
    """Control: the same checks on a page that embeds a payload raw do fire."""
    head = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">' if with_csp else ""
    raw = tmp_path / "raw.html"
    raw.write_text(
        f"<!DOCTYPE html><html><head>{head}<title>control</title></head><body>"
        f'<img src="http://127.0.0.1:{listener.port}/control.png">'
        "<script>window.__xss = 1; document.title = 'XSS'</script></body></html>",
        "utf-8",
    )
    open_report(page, raw)
    assert page.requested_urls() != [raw.resolve().as_uri()]
    if with_csp:
        assert page.evaluate("window.__violations") != []
        assert listener.paths == [] and page.evaluate("document.title") == "control"
    else:
        assert listener.paths == ["/control.png"]
        assert page.evaluate("[document.title, window.__xss]") == ["XSS", 1]


# ------------------------------------------------------------------- the picture


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_screenshot_of_the_nested_report(page: Page, tmp_path: Path) -> None:
    sources = nested_sources()
    assert sources, "the nested sample is bundled"
    report = make_report(sources[0], tmp_path / "nested.html")
    open_report(page, report)
    # open the outermost summary and the one inside it, as a reader would
    page.click("details.fold > summary")
    page.click("details.fold details.fold > summary")
    page.evaluate("document.querySelector('#transcript').scrollIntoView({block: 'start'}) || true")
    shot = ARTIFACTS / "report-nested.png"
    page.screenshot(shot, width=1280, height=2000)
    assert png_size(shot.read_bytes()) == (1280, 2000)
    if UPDATE_SCREENSHOT:
        docs = REPO / "docs" / "report-screenshot.png"
        page.screenshot(docs, width=1280, height=1400)
        assert png_size(docs.read_bytes()) == (1280, 1400)
