"""The client as modules one by one (`--client-bundle off`, and what the server falls back
to while a bundle is stale or missing): the game opens and seats a player, and the
browser fetched the modules, not a bundle. The rest of the browser tests play the bundle
`make setup` builds (server/edge/bundle.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.support import Client
from tests.browser.test_client import assert_quiet


@pytest.fixture(scope="module")
def server_flags() -> list[str]:
    return ["--client-bundle", "off"]


def scripts(c: Client) -> set[str]:
    """The paths of the scripts the page fetched."""
    return set(
        c.page.evaluate(
            "performance.getEntriesByType('resource')"
            ".map((r) => new URL(r.name).pathname).filter((p) => p.endsWith('.mjs'))"
        )
    )


def test_the_modules_one_by_one_open_the_game_and_seat_a_player(
    open_client: Callable[..., Client],
) -> None:
    ana = open_client("Ana", lang="hr")
    fetched = scripts(ana)
    # The page script's imports, each its own request, the third-party codec too.
    assert {"/app.mjs", "/hud.mjs", "/i18n/hr.mjs", "/net.mjs"} <= fetched, sorted(fetched)
    assert any(p.startswith("/node_modules/@msgpack/") for p in fetched), sorted(fetched)
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    assert ana.page.locator("#table-view").is_visible()
    assert_quiet(ana)
