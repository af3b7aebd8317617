"""Where a tournament's player is told that the table of their match is open, said once:
at a table of their own, in the banner over it (no toast saying the same words at the
same moment); in the lobby, in its banner. In English, Croatian and Russian."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import Client, Server, save
from tests.browser.test_client import assert_quiet
from tests.browser.test_firstminute import OpenClient
from tests.browser.test_tournament_table import ana_in_a_tournament

#: The words, as each language says them of the tournament "Saturday"'s final.
READY = {
    "en": "Your tournament match is ready: Saturday · Final.",
    "hr": "Vaš turnirski meč je spreman: Saturday · Finale.",
    "ru": "Ваш турнирный матч готов: Saturday · Финал.",
}


def times_on_screen(c: Client, words: str) -> int:
    """How many times `words` can be read on the page now (hidden elements say nothing)."""
    return int(c.page.evaluate(f"document.body.innerText.split({words!r}).length - 1"))


@pytest.mark.parametrize("lang", ["en", "hr", "ru"])
def test_at_a_table_the_match_ready_is_said_once(
    open_client: OpenClient, server: Server, lang: str
) -> None:
    ana = open_client("Ana", lang=lang)
    ana.wait("!!a.welcome")
    # At a table of her own when the match opens.
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    ana_in_a_tournament(server, ana)
    ana.page.locator("#next-match").wait_for(state="visible")
    assert ana.page.inner_text("#next-match-text") == READY[lang]
    # The banner says it; nothing else on the screen says it again.
    assert ana.page.is_hidden("#toast") or READY[lang] not in ana.page.inner_text("#toast")
    assert times_on_screen(ana, READY[lang]) == 1
    save(ana, f"tournament-ready-at-a-table-{lang}.png")
    assert_quiet(ana)


def test_in_the_lobby_the_match_ready_is_said_once(open_client: OpenClient, server: Server) -> None:
    ana = open_client("Ana")
    ana.wait("!!a.welcome")
    ana_in_a_tournament(server, ana)
    ana.page.locator("#my-match").wait_for(state="visible")
    # Whom against, and how long she has to sit down, once the tournament's page is read.
    ready = "Your tournament match is ready: Saturday · Final, against Luka."
    ana.page.wait_for_function(
        f"document.getElementById('my-match-text').textContent === {ready!r}"
    )
    assert times_on_screen(ana, ready) == 1
    due = ana.page.inner_text("#my-match-due")
    assert re.fullmatch(r"Sit down within \d+:\d\d, or you lose it by forfeit\.", due), due
    ana.page.wait_for_function(
        f"document.getElementById('my-match-due').textContent !== {due!r}"
    )  # counting down
    assert_quiet(ana)
