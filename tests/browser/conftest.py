"""Browser tests: the real server in a subprocess, Debian's chromium driven by playwright.

Every page records its console; a test ends by asserting that no page logged an error or
a warning. Screenshots go to `test-artifacts/` (gitignored) for people to look at.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import CHROMIUM, CHROMIUM_ARGS, RATE, ROOT, SEED, Client, Server

playwright_sync = pytest.importorskip("playwright.sync_api")

if not Path(CHROMIUM).exists():
    pytest.skip("chromium is not installed (make test installs it)", allow_module_level=True)
if not (ROOT / "client_web" / "node_modules" / "@msgpack" / "msgpack").exists():
    pytest.skip(
        "client_web/node_modules is missing (make test runs npm install)", allow_module_level=True
    )


@pytest.fixture(scope="module")
def server_flags() -> list[str]:
    """Settings a module adds to the server's command line (after the shared ones, so they
    win); a module overrides this fixture to run its server differently."""
    return []


@pytest.fixture(scope="module")
def server(server_flags: list[str]) -> Iterator[Server]:
    """`python -m server --port 0` with a fixed seed; the URL is read from its banner."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0"]
    # An in-memory store: not the lone node's default database file in the repo.
    command += ["--seed", str(SEED), "--store", "memory://"]
    # Every page comes from 127.0.0.1: no cap on the rooms one address may open, nor on
    # how fast it connects (a module opens more pages a minute than the burst of 30 a
    # busy player's address is allowed, the more so on a fast machine), nor on the
    # accounts it signs up in an hour (a module may sign up more than ten people).
    command += ["--rooms-per-address", "0", "--handshake-rate", "0"]
    command += ["--accounts-per-address", "0"]
    # No bot tables in the lobby (each test sees its own rooms only); a computer opponent
    # plays a moment after a shot has played out, not at a person's pace.
    command += ["--bot-tables", "0", "--bot-pause", "0.3", *server_flags]
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    url = None
    for line in proc.stdout:
        lines.append(line)
        match = re.search(r"ready: open (http://\S+?)/?$", line.strip())
        if match:
            url = match.group(1).replace("localhost", "127.0.0.1")
            break
    if url is None:
        proc.kill()
        pytest.fail("the server did not start:\n" + "".join(lines))
    # Keep draining the server's output: a full pipe would stall its logging, and so the server.
    threading.Thread(target=lines.extend, args=(proc.stdout,), daemon=True).start()
    try:
        yield Server(url=url, process=proc, output=lines)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def open_client(browser: Any, server: Server) -> Iterator[Callable[..., Client]]:
    clients: list[Client] = []

    def _open(
        name: str,
        width: int = 1280,
        height: int = 800,
        dpr: float = 1,
        touch: bool = False,
        lang: str | None = "en",
        hash: str = "",
        rate: float | None = RATE,
        token: str | None = None,
    ) -> Client:
        """A person at a fresh browser: `touch` is a phone (touch events, a mobile viewport),
        `lang` the page's `?lang=` (None: the browser's own languages), `hash` the route,
        `token` a session token the browser kept (a player coming back)."""
        context = browser.new_context(
            viewport={"width": width, "height": height},
            device_scale_factor=dpr,
            has_touch=touch,
            is_mobile=touch,
        )
        context.add_init_script(f"localStorage.setItem('ninepool.name', {name!r});")
        if token is not None:
            context.add_init_script(f"localStorage.setItem('ninepool.token', {token!r});")
        page = context.new_page()
        client = Client(name=name, page=page, context=context)
        page.on("console", lambda m: client.console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: client.console.append(f"pageerror: {e}"))
        page.on(
            "dialog",
            lambda d: (client.console.append(f"error: native {d.type} dialog"), d.dismiss()),
        )
        query = "&".join(
            q for q in (f"rate={rate}" if rate else "", f"lang={lang}" if lang else "") if q
        )
        page.goto(f"{server.url}/{'?' + query if query else ''}{hash}")
        # A page opened at a replay plays it without a connection (it makes one once it
        # goes elsewhere); any other page is ready once it is online.
        if hash.startswith("#/replay/"):
            page.wait_for_selector("#replay-view:not([hidden])")
        else:
            page.wait_for_selector("#conn.conn-online")
        clients.append(client)
        return client

    yield _open
    for c in clients:
        c.context.close()


@pytest.fixture
def open_page(browser: Any, server: Server) -> Iterator[Callable[..., Client]]:
    """A fresh browser at any address of the server, not necessarily the client app: nothing
    stored (it never opened the game) but `storage`, the `localStorage` entries it starts
    with; `clipboard` lets the page write and read it; `locale` the browser's own
    language and region (`en-US`: an American browser), else Chromium's; `touch` makes it a
    phone's touch screen."""
    clients: list[Client] = []

    def _open(
        name: str,
        path: str,
        width: int = 1280,
        height: int = 800,
        clipboard: bool = False,
        storage: dict[str, str] | None = None,
        locale: str | None = None,
        touch: bool = False,
    ) -> Client:
        own: dict[str, Any] = {} if locale is None else {"locale": locale}
        if touch:  # a phone's: a touch screen, no mouse to hover with
            own.update(has_touch=True, is_mobile=True, device_scale_factor=2)
        context = browser.new_context(viewport={"width": width, "height": height}, **own)
        if clipboard:
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
        for key, value in (storage or {}).items():
            context.add_init_script(f"localStorage.setItem({key!r}, {value!r});")
        page = context.new_page()
        client = Client(name=name, page=page, context=context)
        page.on("console", lambda m: client.console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: client.console.append(f"pageerror: {e}"))
        page.goto(f"{server.url}{path}")
        clients.append(client)
        return client

    yield _open
    for c in clients:
        c.context.close()


@pytest.fixture
def page_at(open_page: Callable[..., Client]) -> Callable[..., Client]:
    """A page of the tournaments (`path`) in `lang`, in a browser holding the session
    `token` and the name the game has played under there (`name`), if given."""

    def _open(
        path: str, lang: str, token: str | None = None, name: str = "", **browser: Any
    ) -> Client:
        """`browser`: more of `open_page`'s settings (`locale`, `width`…)."""
        storage = {} if token is None else {"ninepool.token": token}
        if name:
            storage["ninepool.name"] = name
        return open_page(lang, f"{path}?lang={lang}", **{"height": 900, **browser}, storage=storage)

    return _open
