"""Checkpoints for the HTML report's tests: hostile payloads and their harmless twins, a
chain of any depth, and the oracle's transcript to compare with."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from foldctl.fingerprint import fnv1a32
from foldctl.jsoncodec import dumps
from tests.support import CONFORMANCE

RETAINED = (
    "The folded messages are retained verbatim with this conversation and can be produced on "
    "request."
)
DISCARDED = (
    "The folded messages were not retained beyond the run that folded them; only this summary "
    "carries them forward."
)


def frame_text(count: int, iteration: int, model: str, summary: str, retained: bool = True) -> str:
    return (
        f"[compacted history — {count} earlier message(s) were folded out of this window at "
        f"iteration {iteration}. The text after this line is a SUMMARY written by {model}; it is "
        f"a claim about the conversation, not the conversation. "
        f"{RETAINED if retained else DISCARDED}]\n\n{summary}"
    )


def span_of(
    frame: str,
    messages: list[dict[str, Any]] | None,
    *,
    index: int,
    model: str = "mock-model",
    run: str = "run-1",
    stages: list[str] | None = None,
    fingerprint: str | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "summaryFingerprint": fingerprint or fnv1a32(frame),
        "runId": run,
        "iteration": index + 1,
        "foldedAtMs": 1_790_000_000_000 + 1000 * index,
        "model": model,
        "messageCount": 2 if messages is None else len(messages),
        "removedStageIds": stages if stages is not None else [f"tool-calls#{index}"],
        "retained": "discard" if messages is None else "conversation",
    }
    if messages is not None:
        out["messages"] = messages
    return out


def checkpoint(
    history: list[dict[str, Any]], folded: list[dict[str, Any]] | None, **top: Any
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "version": 1,
        "runId": top.get("runId", "run-1"),
        "history": history,
        "lastCompletedIteration": 3,
        "originalInput": {"message": top.get("original", "do the thing")},
        "checkpointedAt": 1_790_000_100_000,
    }
    if folded is not None:
        doc["folded"] = folded
    return doc


def write(tmp_path: Path, doc: dict[str, Any], name: str = "ckpt.json") -> Path:
    path = tmp_path / name
    path.write_bytes(dumps(doc))
    return path


def chain_checkpoint(depth: int) -> dict[str, Any]:
    """A linear chain: span i's messages are span i-1's frame and one message of its own."""
    folded: list[dict[str, Any]] = []
    previous: str | None = None
    for i in range(depth):
        messages = [] if previous is None else [{"role": "user", "content": previous}]
        messages.append({"role": "assistant", "content": f"original of span {i}"})
        frame = frame_text(len(messages), i + 1, "mock-model", f"summary {i}")
        folded.append(span_of(frame, messages, index=i))
        previous = frame
    assert previous is not None
    return checkpoint(
        [{"role": "user", "content": previous}, {"role": "user", "content": "now"}], folded
    )


def xss_payloads(port: int) -> list[str]:
    """Markup, URL, CSS and character tricks; each, if it ever acted, would be noticed."""
    url = f"http://127.0.0.1:{port}"
    mark = "document.body.appendChild(document.createElement('xss-marker'))"
    return [
        f"<script>document.title='XSS';window.__xss=1;{mark}</script>",
        f'<img src="{url}/img.png" onerror="document.title=\'XSS\';window.__xss=2;{mark}">',
        f'<svg onload="window.__xss=3;{mark}"><circle r="5"></circle></svg>',
        "</pre></div></article></details></section></main></body>"
        "<script>window.__xss=4</script><details open><summary>breakout",
        '<a id="xss-link" href="javascript:window.__xss=5">click me</a> javascript:alert(1)',
        f"</style><style>body{{display:none}}</style><style>@import url({url}/import.css);</style>",
        f'<div style="background:url({url}/bg.png);width:expression(window.__xss=6)">css</div>',
        "\" onmouseover=\"window.__xss=7\" x=\"' onfocus='window.__xss=8' autofocus '",
        "bidi \u202eevil\u202c ESC \x1b[31mred\x1b[0m NUL \x00 LS \u2028 BOM \ufeff "
        "lone \ud800 DEL \x7f C1 \x9b CR \r end",
        f'<meta http-equiv="refresh" content="0;url={url}/refresh">',
        f'<base href="{url}/"><a href="relative">relative</a>',
        '<iframe srcdoc="<script>parent.window.__xss=9</script>"></iframe>'
        f'<iframe src="{url}/frame"></iframe>',
        f'</template><script>window.__xss=10</script><template><img src=x onerror="{mark}">',
        f'<link rel="stylesheet" href="{url}/link.css"><object data="{url}/object">'
        f'</object><embed src="{url}/embed">',
        "<!-- <script>window.__xss=11</script> --><![CDATA[ ]]><plaintext>swallow the rest",
        f'<form action="{url}/form"><input autofocus onfocus="window.__xss=12">'
        "<button>go</button></form>",
        '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=13">'
        "</style></mglyph></table></mtext></math>",
        "&lt;script&gt;window.__xss=14&lt;/script&gt; &amp; &#x3C;b&#x3E; &#0;",
        '<noscript><p title="</noscript><img src=x onerror=window.__xss=15>"></noscript>',
        "<xmp></xmp><textarea></textarea></title><title>XSS</title>"
        "<img src=x onerror=window.__xss=16>",
        "[bold]rich markup[/bold] [link=https://example.com]x[/link] :warning: {{7*7}} ${7*7}",
    ]


def hostile_checkpoint(texts: list[str]) -> dict[str, Any]:
    """Every string a checkpoint carries taken from ``texts`` (content, names, ids, keys...).

    Called with payloads and with harmless strings of the same count, it gives
    two checkpoints of identical shape: same joins, same spans, same nesting.
    """
    n = len(texts)

    def t(i: int) -> str:
        return texts[i % n]

    tool_turns: list[dict[str, Any]] = [
        {
            "role": "assistant",
            "content": t(1),
            "toolCalls": [{"id": t(2), "name": t(3), "args": {"query": t(4), t(5): [t(6)]}}],
        },
        {"role": "tool", "content": t(7), "toolCallId": t(2), "toolName": t(3)},
    ]
    inner = [{"role": "user", "content": x} for x in texts] + tool_turns
    frame0 = frame_text(len(inner), 1, t(10), t(8))
    span0 = span_of(frame0, inner, index=0, model=t(10), run=t(9), stages=[t(11), "seed#0"])
    odd = {"role": t(12), "content": t(13), t(14): t(15)}
    frame1 = frame_text(2, 2, t(16), t(17))
    span1 = span_of(
        frame1, [{"role": "user", "content": frame0}, odd], index=1, model=t(16), run=t(18)
    )
    frame2 = frame_text(3, 3, t(19), t(20), retained=False)
    span2 = span_of(frame2, None, index=2, model=t(19), run=t(0))
    orphan = [{"role": "user", "content": t(21)}, {"role": "assistant", "content": t(22)}]
    span3 = span_of("no frame anywhere", orphan, index=3, model=t(23), run=t(24))
    history = (
        [{"role": "user", "content": x} for x in texts]
        + [{"role": "user", "content": frame1}, {"role": "user", "content": frame2}]
        + tool_turns
    )
    return checkpoint(history, [span0, span1, span2, span3], runId=t(5), original=t(0))


def benign_texts(count: int) -> list[str]:
    return [f"benign text number {i}" for i in range(count)]


# ------------------------------------------------------------------- the writer


def oracle_rows(case: str) -> tuple[list[dict[str, Any]], Counter[int]]:
    """The oracle's transcript, and how many expanded spans it shows at each depth."""
    oracle = json.loads((CONFORMANCE / f"{case}.expected.json").read_text("utf-8"))
    rows = oracle["fullyExpanded"]
    blocks = {
        (row["historyIndex"], tuple(row["chain"][:d]))
        for row in rows
        for d in range(1, len(row["chain"]) + 1)
    }
    return rows, Counter(len(chain) for _, chain in blocks)
