"""Names in real Chromium: a guest who signs up in the middle of a match is named anew on
every screen at once — the opponent's, a spectator's, the lobby's list, the log, the
match's result and its replay."""

from __future__ import annotations

from tests.browser.support import save
from tests.browser.test_client import (
    OpenClient,
    assert_quiet,
    shooter,
    start_match,
)
from tests.browser.test_rated_browser import sign_up
from tests.browser.test_watching import concede


def test_a_guest_who_signs_up_mid_match_is_named_anew_on_every_screen(
    open_client: OpenClient,
) -> None:
    ana, bob, room = start_match(open_client)
    cleo = open_client("Cleo")
    lou = open_client("Lou")
    cleo.page.click(f"tr[data-room='{room}'] button:has-text('Watch')")
    cleo.wait("!!a.table")
    # The draw's winner (breaking) is the guest who signs up: the log has named them.
    guest = shooter((ana, bob))
    opponent = bob if guest is ana else ana
    seat = guest.state("a.seat")
    for c in (opponent, cleo):
        c.page.wait_for_function(
            f"document.getElementById('log').textContent.includes('{guest.name} wins the draw')"
        )

    sign_up(guest, "Marta")
    for c in (guest, opponent, cleo):
        c.page.wait_for_function(
            f"document.getElementById('seat{seat}').textContent.includes('Marta')", timeout=10_000
        )
    lou.page.wait_for_function(
        f"document.querySelector(\"tr[data-room='{room}']\").textContent.includes('Marta')",
        timeout=10_000,
    )
    for c in (opponent, cleo):
        # The log says so once; its other lines name her anew, as a reload would.
        c.page.wait_for_function(
            f"document.getElementById('log').textContent.includes('{guest.name} plays on as Marta')"
        )
        lines = c.page.locator("#log li").all_inner_texts()
        assert [line for line in lines if guest.name in line] == [
            f"{guest.name} plays on as Marta"
        ], lines
        assert any(line.startswith("Marta wins the draw") for line in lines), lines
    save(opponent, "renamed-opponent.png")
    # Still a guest's unrated match: nothing rated appears on it.
    assert not opponent.state("a.view.settings.rated")

    # The result names her, and so does the match's replay.
    concede(guest, "match")
    cleo.page.locator("#result-dialog").wait_for(state="visible")
    assert "Marta" in cleo.page.inner_text("#result-score")
    assert "Marta concedes" in cleo.page.inner_text("#result-text")
    cleo.page.click("#result-replay-match")
    cleo.page.locator("#r-last").wait_for(state="visible")
    cleo.page.click("#r-last")
    cleo.page.wait_for_function(
        f"document.getElementById('r-seat{seat}').textContent.includes('Marta')"
    )
    assert f"{guest.name} plays on as Marta" in cleo.page.inner_text("#r-log")
    assert_quiet(ana, bob, cleo, lou)
