"""What one action did and why: the referee's ruling, ready to show to everyone."""

from __future__ import annotations

from typing import Literal

import msgspec

from server.rules.state import MatchState

GameEnd = Literal["nine", "three_fouls", "concede", "forfeit", "stalemate"]


class Verdict(msgspec.Struct, frozen=True):
    """The ruling on one action.

    ``fouls``: the rule ids broken (several fouls on one shot are still one foul, R7);
    ``reasons``: one ``(rule_id, sentence)`` per foul, in the same order, worded without
    player names so a client can show "Foul: <sentence> (<rule_id>)". ``notes``: the
    other things the action set in motion, also as ``(rule_id, sentence)`` — the 9
    spotted, a warning, a game won, a re-rack.

    ``spotted``: balls the server must put back on the table (only ever the 9, G3);
    empty when ``new_rack`` is set, since racking puts every ball back anyway.
    ``game_over`` / ``game_winner`` / ``game_end``: the action ended a game, and how
    (a stalemate ends a game with no winner). ``new_rack``: a new rack is set up
    (after a game, or the R14 re-rack) — the server racks the balls (R2).
    ``warned``: the player given the R13 warning by this action. ``stalemate``: the
    game was re-racked by R14. ``stalemate_warning_given``: this action brought the
    R14 warning into force (by agreement or automatically).
    """

    fouls: tuple[str, ...] = ()
    foul: bool = False
    reasons: tuple[tuple[str, str], ...] = ()
    notes: tuple[tuple[str, str], ...] = ()
    spotted: tuple[int, ...] = ()
    game_over: bool = False
    game_winner: str | None = None
    game_end: GameEnd | None = None
    match_over: bool = False
    match_winner: str | None = None
    new_rack: bool = False
    warned: str | None = None
    stalemate: bool = False
    stalemate_warning_given: bool = False


class Outcome(msgspec.Struct, frozen=True):
    """The state after an action, and the verdict explaining how it got there."""

    state: MatchState
    verdict: Verdict
