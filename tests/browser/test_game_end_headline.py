"""The headline over the table when a game ends: the next game's table is headed by how
the last one ended, not by its last foul as if the breaker had just fouled. And the
match's result: its confetti falls behind the words it celebrates."""

from __future__ import annotations

from typing import Any

from tests.browser.support import Client, save
from tests.browser.test_client import OpenClient, assert_quiet, foul_softly, settle, shooter
from tests.browser.test_firstminute import started
from tests.browser.test_watching import concede

#: What is drawn on top at the middle of an element of the result, confetti included: hit
#: testing follows the order of painting once the confetti's canvas takes the pointer.
ON_TOP = """(id) => {
  const confetti = document.getElementById("confetti");
  confetti.style.pointerEvents = "auto";
  const r = document.getElementById(id).getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  confetti.style.pointerEvents = "";
  return top?.closest("[id]")?.id ?? null;
}"""


def test_the_match_winners_confetti_falls_behind_the_title_and_buttons(
    open_client: OpenClient,
) -> None:
    """The winner's confetti rained over the result's title, the very words it
    celebrates, and over its buttons. It falls behind them, over the card."""
    ana, bob, _room = started(open_client, host={"lang": "hr"})
    concede(bob, "match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    ana.page.wait_for_timeout(300)  # the confetti is falling
    for part in ("result-title", "result-score", "result-close"):
        assert ana.page.evaluate(ON_TOP, part) == part, part
    save(ana, "confetti-behind-title-hr.png")
    assert_quiet(ana, bob)


def foul_in_turn(players: tuple[Client, Client], fouls: int) -> tuple[Client, Client]:
    """`fouls` soft fouls (R8), each player's in turn from the one to shoot (five: the
    third in a row of the first loses the game, R13); the first and the second shooter."""
    first = shooter(players)
    second = players[1] if first is players[0] else players[0]
    for c in ((first, second) * 3)[:fouls]:
        assert shooter(players) is c
        foul_softly(c)
        settle(*players)
    return first, second


def test_a_game_lost_on_a_third_foul_by_time_heads_the_next_game_as_lost(
    open_client: OpenClient,
) -> None:
    """Two fouls each way by shots, then the first player lets the shot clock run out:
    the third foul in a row loses the game. Above the next game's table both players
    read who won the game and why; "Foul: the shot clock ran out" read as if the new
    game's breaker had fouled, and never said the game was lost on three fouls."""
    ana, bob, _room = started(open_client, settings={"shot_clock": 5})
    players = (ana, bob)
    first, second = foul_in_turn(players, 4)
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


#: For each text piece of the result's two names: on how many lines it is drawn.
NAME_LINES = """() => [...document.querySelectorAll("#result-score .result-name")].flatMap((name) =>
  [...name.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((text) => {
    const range = document.createRange();
    range.selectNodeContents(text);
    const tops = [...range.getClientRects()].map((r) => Math.round(r.top));
    return [text.textContent, new Set(tops).size];
  }))"""


def test_a_guests_numbered_name_wraps_after_its_hyphen_not_inside_the_number(
    open_client: OpenClient,
) -> None:
    """On a narrow phone the result named "Игрок-644" on one line and "6" on the next: a
    line may not break between a hyphen and a digit, so the name broke where it ran out
    of room. It wraps after the hyphen."""
    small = {"width": 320, "height": 640, "touch": True, "lang": "ru"}

    def numbered(name: str, **kw: Any) -> Client:  # the host as a guest the page named
        return open_client("Игрок-6446" if name == "Ana" else name, **kw)

    ana, bob, _room = started(numbered, host=small, guest=small)
    bob.page.tap("#panel-toggle")
    concede(bob, "match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    pieces = ana.page.evaluate(NAME_LINES)
    assert ["Игрок-", 1] in pieces and ["6446", 1] in pieces, pieces
    assert all(lines == 1 for _, lines in pieces), pieces
    assert ana.page.inner_text("#result-score .result-name >> nth=0") in (
        "Игрок-6446",
        "Игрок-\n6446",
    )
    save(ana, "result-name-wraps-after-hyphen-ru.png")
    assert_quiet(ana, bob)


def test_a_game_lost_on_a_third_foul_says_which_foul_it_was(open_client: OpenClient) -> None:
    """The loser's game card said only "Your third foul in a row.": a player who had not
    read the log never learnt what the third foul was. It says which, after it."""
    ana, bob, _room = started(open_client)
    first, _ = foul_in_turn((ana, bob), 5)  # the third foul in a row loses (R13)
    first.page.locator("#result-dialog").wait_for(state="visible")
    said = first.page.inner_text("#result-text")
    assert said == "Your third foul in a row. Foul: the cue ball hit no ball.", said
    assert_quiet(ana, bob)
