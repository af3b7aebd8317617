"""R14 at the table: a stalemate proposed to a player is answered where its words are,
and the stalemate warning goes with the game it was given in."""

from __future__ import annotations

from tests.browser.support import save
from tests.browser.test_client import (
    OpenClient,
    assert_quiet,
    foul_softly,
    settle,
    shoot_at_lowest,
    shooter,
    start_match,
)
from tests.browser.test_watching import concede


def test_a_stalemate_is_accepted_beside_its_words_and_its_warning_goes_with_the_game(
    open_client: OpenClient,
) -> None:
    """The player a stalemate warning was proposed to read "Ana proposes a stalemate warning
    — you may accept" with nothing to press: the answer was in the closed "More" menu. It stands in
    the status box. Accepted, the warning heads the game until the game ends; it stood
    over the next game, and the one after, once the game was conceded (or replayed)."""
    ana, bob, _room = start_match(open_client)
    players = (ana, bob)
    shoot_at_lowest(shooter(players), 95)
    settle(ana, bob)
    for _ in range(4):
        if ana.state("a.table.stalemate_open"):
            break
        foul_softly(shooter(players))
        settle(ana, bob)
    ana.wait("a.table.stalemate_open === true")
    assert ana.page.is_hidden("#stalemate-chip"), "nothing proposed yet"
    ana.page.click("#more summary")
    ana.page.click("#stalemate")
    bob.wait("a.table.stalemate_proposed_by === 0")
    chip = bob.page.locator("#stalemate-chip")
    chip.wait_for(state="visible")
    assert chip.inner_text() == "Accept"  # (beside "… — you may accept")
    assert "you may accept" in bob.page.inner_text("#status")
    assert ana.page.is_hidden("#stalemate-chip"), "the proposer has nothing to accept"
    save(bob, "stalemate-offer-accept-en.png")
    chip.click()
    for c in players:
        c.wait("a.table.stalemate_warning === true")
        c.page.locator("#banner.stalemate").wait_for(state="visible")
    assert bob.page.is_hidden("#stalemate-chip")
    # The game ends (conceded): the next one starts with no warning over it.
    rack = ana.state("a.table.rack")
    concede(shooter(players), "game")
    for c in players:
        c.wait(f"a.table.rack === {rack + 1} && !a.anim")
        c.page.locator("#result-dialog").wait_for(state="hidden", timeout=30_000)
        c.idle()
        assert not c.state("a.table.stalemate_warning")
        assert c.page.is_hidden("#banner"), c.page.inner_text("#banner")
    save(ana, "stalemate-next-game-no-banner-en.png")
    assert_quiet(ana, bob)
