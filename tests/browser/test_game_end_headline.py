"""The headline over the table when a game ends: the next game's table is headed by how
the last one ended, not by its last foul as if the breaker had just fouled."""

from __future__ import annotations

from tests.browser.support import save
from tests.browser.test_client import OpenClient, assert_quiet, foul_softly, settle, shooter
from tests.browser.test_firstminute import started


def test_a_game_lost_on_a_third_foul_by_time_heads_the_next_game_as_lost(
    open_client: OpenClient,
) -> None:
    """Two fouls each way by shots, then the first player lets the shot clock run out:
    the third foul in a row loses the game. Above the next game's table both players
    read who won the game and why; "Foul: the shot clock ran out" read as if the new
    game's breaker had fouled, and never said the game was lost on three fouls."""
    ana, bob, _room = started(open_client, settings={"shot_clock": 5})
    players = (ana, bob)
    first = shooter(players)
    second = bob if first is ana else ana
    for c in (first, second, first, second):
        assert shooter(players) is c
        foul_softly(c)
        settle(ana, bob)
    assert shooter(players) is first
    # The first player's third foul: the clock runs out (5 s, ball in hand's extra time).
    for c in players:
        c.wait("a.table.rack === 2", timeout=90_000)
        c.page.locator("#result-dialog").wait_for(state="hidden", timeout=30_000)
        c.idle()
    for c in players:
        verdict = c.page.inner_text("#status .verdict")
        save(c, f"game-end-headline-{c.name}.png")
        # The winner's own page says "you".
        winner = "You win the game" if c is second else f"{second.name} wins the game"
        assert verdict.startswith(winner), verdict
        assert "three fouls in a row" in verdict and "R13" in verdict, verdict
    # So say the logs, as a reload rebuilds them.
    for c, winner in ((first, f"{second.name} wins the game"), (second, "You win the game")):
        c.page.reload()
        c.wait("a.table && a.table.rack === 2")
        c.idle()
        assert c.page.inner_text("#status .verdict").startswith(winner)
    assert_quiet(ana, bob)
