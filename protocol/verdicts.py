"""The codes a verdict's reasons and notes are sent with (`VerdictView.reason_codes`,
`VerdictView.note_codes`), so a client words them in its reader's language.

Each code is the rule id, with a suffix where one rule gives several different things to
say. The referee's English sentence still travels beside each code (`reasons`, `notes`)
for a reader of the raw protocol; clients should word the code. A client that meets a
code it does not know words the rule id before the first dot. Every code here has a
wording in each of the client's catalogues (`client_web/i18n/`: `foul.<code>`,
`note.<code>`); a test keeps them in step.
"""

from __future__ import annotations

from typing import Final

#: One per foul (`reasons`). The wording takes the shot's facts (`ShotReport`): which ball
#: was hit first, how many reached a rail, which left the table.
FOUL_CODES: Final[dict[str, str]] = {
    "R8.none": "The cue ball touched no object ball.",
    "R8.wrong": "The cue ball touched another ball before the lowest one.",
    "R4": "The break pocketed no ball and drove fewer than four numbered balls to a rail.",
    "R4.zero": "The break pocketed no ball and drove no numbered ball to a rail.",
    "R9": "No ball was pocketed and no ball reached a rail after the first contact.",
    "R11": "An object ball was driven off the table.",
    "G1.pocket": "The cue ball was pocketed (a scratch).",
    "G1.off": "The cue ball left the table.",
    "O3": "The shot clock ran out.",
}

#: Everything else a verdict says (`notes`).
NOTE_CODES: Final[dict[str, str]] = {
    "G5": "The 9 was pocketed on a legal shot: the game is won.",
    "G5.break": "The 9 was pocketed on the break: the game is won.",
    "R11.nine": "The 9 left the table: it is spotted.",
    "G4": "The 9 went down on a foul: it is spotted and does not win.",
    "R6.nine": "The 9 went down on a push-out: it is spotted.",
    "R6.legal": "A legal push-out: the incoming player may shoot or pass the shot back.",
    "R6.shoot": "The incoming player shoots from where the push-out left the balls.",
    "R6.pass": "The shot is passed back to the player who pushed out.",
    "R5": "A legal break: the next shot may be a push-out.",
    "O3.break": "The break passes to the opponent, cue ball in hand in the kitchen.",
    "O4.match": "The match was conceded.",
    "O4.game": "The game was conceded.",
    "O5.match": "The match was forfeited after a disconnect.",
    "O5.game": "The game was forfeited after a disconnect.",
    "R13.third": "A third consecutive foul: the game is lost.",
    "R13.second": "A second consecutive foul: a third in a row loses the game.",
    "R13.beforeBreak": "No game is under way before the break: the foul counts toward no "
    "one's three.",
    "R14.lifted": "A ball was pocketed: the stalemate warning is lifted.",
    "R14.stalemate": "Stalemate: the game is racked again and broken by the same player.",
    "R14.proposed": "A stalemate warning was proposed; the opponent may accept it.",
    "R14.warning": "The stalemate warning is in force.",
    "O6.decided": "The lag is decided; its winner chose who breaks the first game.",
    "O6.gaveUp": "The lag goes to the opponent of the player who conceded or never came.",
    "R3.winner": "The winner of the game breaks the next rack.",
    "R3.loser": "The loser of the game breaks the next rack.",
    "R3.alternate": "The players break in turn.",
    "R3.behind": "The player behind in the match breaks the next rack.",
    "R3.level": "The score is level: the previous breaker's opponent breaks the next rack.",
}
