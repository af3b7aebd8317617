"""The code each of the referee's reasons and notes goes out with (`protocol.verdicts`).

The referee (`server.rules`) words its verdicts in English for its own readers (the
conformance runner, the logs); a client words the code instead, in its reader's
language. The referee's sentences are fixed texts, so each maps to one code here; a
sentence not known here goes out as its bare rule id (which clients word by the rule's
name), and `tests/rooms/test_verdict_codes.py` fails for every such sentence it can reach.
"""

from __future__ import annotations

from typing import Final

_NOTES: Final[dict[str, str]] = {
    "The 9 was pocketed on a legal shot: the game is won": "G5",
    "The 9 was pocketed on the break: the game is won": "G5.break",
    "The 9 left the table: it is spotted (G3)": "R11.nine",
    "The 9 went down on a foul: it is spotted (G3) and does not win": "G4",
    "The 9 went down on a push-out: it is spotted (G3)": "R6.nine",
    "Legal push-out: the incoming player may shoot or pass the shot back": "R6.legal",
    "The incoming player takes the shot from the position the push-out left": "R6.shoot",
    "The shot is passed back to the player who pushed out": "R6.pass",
    "Legal break: the next shot may be played as a push-out": "R5",
    "The break passes to the opponent, cue ball in hand in the kitchen": "O3.break",
    "The match was conceded": "O4.match",
    "The game was conceded": "O4.game",
    "The match was forfeited after a disconnect": "O5.match",
    "The game was forfeited after a disconnect": "O5.game",
    "Third consecutive foul: the game is lost": "R13.third",
    "Second consecutive foul: a third in a row loses the game": "R13.second",
    "No game is under way before the break: this foul counts toward no one's three": (
        "R13.beforeBreak"
    ),
    "A ball was pocketed: the stalemate warning is lifted": "R14.lifted",
    "Stalemate: the game is re-racked and broken again by the same player": "R14.stalemate",
    "A stalemate warning was proposed; the opponent may accept it": "R14.proposed",
    "The lag is decided; its winner chose who breaks the first game": "O6.decided",
    "The lag goes to the opponent of the player who gave up": "O6.gaveUp",
    "The winner of the game breaks the next rack": "R3.winner",
    "The loser of the game breaks the next rack": "R3.loser",
    "The players break in turn": "R3.alternate",
    "The player behind in the match breaks the next rack": "R3.behind",
    "The score is level: the previous breaker's opponent breaks the next rack": "R3.level",
}


def note_code(rule: str, sentence: str) -> str:
    code = _NOTES.get(sentence)
    if code is not None:
        return code
    if rule == "R14" and sentence.startswith("Stalemate warning"):
        return "R14.warning"
    return rule


def foul_code(rule: str, sentence: str) -> str:
    if rule == "R8":
        return "R8.wrong" if sentence.startswith("The cue ball first contacted") else "R8.none"
    if rule == "R4":
        return "R4.zero" if "no numbered ball" in sentence else "R4"
    if rule == "G1":
        return "G1.pocket" if "pocketed" in sentence else "G1.off"
    return rule
