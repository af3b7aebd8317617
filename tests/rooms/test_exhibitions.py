"""The exhibitions' choice of levels, without sockets: each new one takes the next
pairing whose levels play nowhere else, so a lobby never shows one computer player
("Bot 4") at two tables while levels are free."""

from __future__ import annotations

from protocol import messages as m
from server.rooms import exhibitions


def listed(room: str, levels: tuple[int | None, int | None]) -> m.Info:
    return m.Info(
        room=room,
        name="",
        players=[f"Bot {level}" if level else "Ana" for level in levels],
        spectators=0,
        score=[0, 0],
        race_to=3,
        status="playing",
        computer=list(levels),
    )


def test_pairings_in_turn_skip_levels_already_playing() -> None:
    assert exhibitions.pairing(0) == (4, 5)
    assert exhibitions.pairing(1) == (3, 4)
    # With (4, 5) at a table, the second exhibition does not take (3, 4) but (2, 3).
    assert exhibitions.pairing(1, {4, 5}) == (2, 3)
    assert exhibitions.pairing(0, {2, 3}) == (4, 5)
    # Every pairing meets a busy level: the one in turn, as before.
    assert exhibitions.pairing(2, {1, 2, 3, 4, 5}) == exhibitions.PAIRINGS[2]


def test_levels_shown_are_the_exhibitions_only() -> None:
    infos = [listed("a", (4, 5)), listed("b", (None, 2))]
    assert exhibitions.levels_shown(infos) == {4, 5}
