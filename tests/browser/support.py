"""What the browser tests share: the server and page handles, the chromium settings."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
#: Chromium's headless shell where installed: the same engine (Blink, V8, Skia) without the
#: full browser's windowing layer. It opens a page of the client for about a quarter of the
#: CPU time the full browser takes headless (0.3 s against 1.3 s, measured on the suite's
#: machines), and the browser tests open some six hundred pages. Debian's `chromium`
#: otherwise (`make test` installs both).
CHROMIUM = next(
    (p for p in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(p).exists()),
    "/usr/bin/chromium",
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Seed for the rooms' racks, so a rack and every shot on it replay identically.
SEED = 20240611
#: Animations run this many times faster than real time in the tests.
RATE = 16


@dataclass
class Server:
    url: str
    process: subprocess.Popen[str]
    output: list[str] = field(default_factory=list)


@dataclass
class Client:
    """One person at one browser page, with what its console said."""

    name: str
    page: Any
    context: Any
    console: list[str] = field(default_factory=list)

    def state(self, expr: str) -> Any:
        return self.page.evaluate(f"(() => {{ const a = window.ninepool.app; return {expr}; }})()")

    def wait(self, expr: str, timeout: float = 60_000) -> None:
        self.page.wait_for_function(
            "(() => { const a = window.ninepool && window.ninepool.app; "
            f"return !!a && ({expr}); }})()",
            timeout=timeout,
        )

    def idle(self, timeout: float = 90_000) -> None:
        """Waits until nothing is animating or queued."""
        self.page.wait_for_function(
            "window.ninepool && !window.ninepool.animating()", timeout=timeout
        )

    def screen(self, x: float, y: float) -> tuple[float, float]:
        sx, sy = self.page.evaluate(f"window.ninepool.screenOf({x}, {y})")
        return float(sx), float(sy)

    def problems(self) -> list[str]:
        return [c for c in self.console if c.startswith(("error", "warning", "pageerror"))]


#: For `locator.evaluate_all`: the texts of the elements drawn cut (wider than shown).
CUT_TEXTS = (
    "(els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"
)


def save(client: Client, name: str, full_page: bool = False) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    client.page.screenshot(path=str(path), full_page=full_page)
    return path


def open_replay(c: Client, room: str) -> list[str]:
    """Opens `room`'s replay in `c`'s page (by its address, as a shared link would) and
    waits for its list; the list's lines."""
    c.page.goto(f"{c.page.url.split('#')[0]}#/replay/{room}")
    c.page.wait_for_selector("#replay-view:not([hidden])")
    c.page.wait_for_function("document.getElementById('r-log').children.length > 0")
    return list(c.page.locator("#r-log li").all_inner_texts())
