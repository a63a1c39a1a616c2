"""A small Chrome DevTools Protocol client for the browser tests (standard library only).

Chromium is started headless with ``--remote-debugging-pipe``: it reads
commands on its file descriptor 3 and writes replies and events on 4, each
message one JSON text ended by a NUL byte.  No port, no websocket, no
download: the tests drive the system's own Chromium (Debian: ``apt-get
install chromium``), found on PATH or named by ``FOLDCTL_TEST_BROWSER``.

Run as a script to screenshot a page: ``python -m tests.cdp PAGE.html OUT.png``.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, BinaryIO

#: Read when this module is imported (the tests' environment isolation runs later).
BROWSER_OVERRIDE = os.environ.get("FOLDCTL_TEST_BROWSER")
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
TIMEOUT = 60.0

FLAGS = (
    "--headless",
    "--no-sandbox",  # the tests may run as root (CI containers)
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--no-first-run",
    "--no-default-browser-check",
    "--mute-audio",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)


def find_browser() -> str | None:
    """The Chromium to drive, or None (the browser tests then skip, saying so)."""
    if BROWSER_OVERRIDE:
        return BROWSER_OVERRIDE if Path(BROWSER_OVERRIDE).is_file() else None
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


class CDPError(RuntimeError):
    pass


class Browser:
    """One headless Chromium process and its pipe."""

    def __init__(self, executable: str, profile: Path) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        # Put the child's ends at 10 or above so moving them to 3 and 4 cannot clobber them.
        child_in = fcntl.fcntl(to_child_r, fcntl.F_DUPFD_CLOEXEC, 10)
        child_out = fcntl.fcntl(from_child_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_child_r)
        os.close(from_child_w)

        def wire_pipe() -> None:  # runs in the child between fork and exec
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.log_path = profile / "chromium.log"
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={profile / 'profile'}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            preexec_fn=wire_pipe,  # the pipe protocol needs exactly fds 3 and 4
            close_fds=False,  # fds 3/4 are set up in preexec; others are non-inheritable
        )
        os.close(child_in)
        os.close(child_out)
        self._out: BinaryIO = os.fdopen(to_child_w, "wb")
        self._in = from_child_r
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []

    def _send(self, message: dict[str, Any]) -> None:
        self._out.write(json.dumps(message).encode("utf-8") + b"\0")
        self._out.flush()

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError(f"no answer from Chromium within {TIMEOUT}s; {self.log_tail()}")
            ready, _, _ = select.select([self._in], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._in, 1 << 20)
            if not chunk:
                raise CDPError(f"Chromium closed the pipe; {self.log_tail()}")
            self._buffer += chunk
        text, _, self._buffer = self._buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(text)
        return message

    def call(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> Any:
        """Send a command and wait for its reply; events that arrive meanwhile are kept."""
        self._next_id += 1
        ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        self._send(message)
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == ident:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], since: int = 0
    ) -> dict[str, Any]:
        """The first event from ``events[since]`` on (or yet to come) satisfying ``predicate``."""
        for event in self.events[since:]:
            if predicate(event):
                return event
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self._receive(deadline)
            if "method" in message:
                self.events.append(message)
                if predicate(message):
                    return message

    def new_page(self) -> Page:
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})
        return Page(self, session["sessionId"], target)

    def log_tail(self) -> str:
        self._log.flush()
        tail = self.log_path.read_bytes()[-600:].decode("utf-8", "replace")
        return f"Chromium log ends: {tail!r}"

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                self.call("Browser.close")
        except (CDPError, OSError):
            pass
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for closer in (self._out.close, lambda: os.close(self._in), self._log.close):
            with suppress(OSError):
                closer()


class Page:
    """One tab, attached with a flat session: navigate, evaluate, click, screenshot."""

    def __init__(self, browser: Browser, session: str, target: str) -> None:
        self.browser = browser
        self.session = session
        self.target = target
        for domain in ("Page", "Runtime", "Network"):
            self.call(f"{domain}.enable")

    def close(self) -> None:
        self.browser.call("Target.closeTarget", {"targetId": self.target})

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return self.browser.call(method, params, self.session)

    def before_load(self, script: str) -> None:
        """Run ``script`` in every new document before its own content (DevTools bypasses CSP)."""
        self.call("Page.addScriptToEvaluateOnNewDocument", {"source": script})

    def goto(self, url: str) -> None:
        """Navigate and wait for the load event (images, frames and styles are in by then)."""
        start = len(self.browser.events)
        result = self.call("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise CDPError(f"navigating to {url}: {result['errorText']}")

        def loaded(event: dict[str, Any]) -> bool:
            return (
                event.get("sessionId") == self.session
                and event.get("method") == "Page.loadEventFired"
            )

        self.browser.wait_for(loaded, since=start)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression (promises awaited) in the page."""
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in result:
            raise CDPError(f"{expression!r} threw: {result['exceptionDetails']}")
        return result["result"].get("value")

    def settle(self) -> None:
        """Let timers, meta refreshes and late loads that a payload could start have their turn."""
        self.evaluate(
            "new Promise(r => setTimeout(() => requestAnimationFrame(() => r(true)), 500))"
        )

    def requested_urls(self) -> list[str]:
        return [
            e["params"]["request"]["url"]
            for e in self.browser.events
            if e.get("sessionId") == self.session and e.get("method") == "Network.requestWillBeSent"
        ]

    def click(self, selector: str) -> None:
        """A real mouse click at the centre of the first element matching ``selector``."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.call(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            )

    def screenshot(self, path: Path, width: int = 1280, height: int = 2000) -> None:
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))


@contextmanager
def browser_session(executable: str, workdir: Path | None = None) -> Iterator[Browser]:
    with tempfile.TemporaryDirectory(dir=workdir) as profile:
        browser = Browser(executable, Path(profile))
        try:
            yield browser
        finally:
            browser.close()


def _main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: python -m tests.cdp PAGE.html OUT.png\n")
        return 2
    executable = find_browser()
    if executable is None:
        sys.stderr.write("no Chromium found (install chromium or set FOLDCTL_TEST_BROWSER)\n")
        return 2
    with browser_session(executable) as browser:
        page = browser.new_page()
        page.goto(Path(argv[0]).resolve().as_uri())
        page.screenshot(Path(argv[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
