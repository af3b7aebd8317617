"""Final standings, with places shared as elimination brackets share them.

Everyone knocked out in the same round shares that round's places: in a single
elimination of 8, 1, 2, 3–4, 5–8; in a double elimination of 16, 1, 2, 3, 4, 5–6, 7–8,
9–12, 13–16 (the losers' bracket rounds, last first). A player's places are known as
soon as they are out: how many players the earlier rounds knock out is fixed by the
bracket (each real match of a knock-out round puts one player out; byes none), so a
running tournament lists those already out with their final places.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.tournament.model import Match, Tournament

#: The grand final's key: above every losers' round.
_FINAL = 10_000


@dataclass(frozen=True)
class Standing:
    first: int
    last: int
    entrant: int

    @property
    def place(self) -> str:
        """`"5"`, or `"5–6"` for a shared place."""
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def champion(tournament: Tournament) -> int | None:
    """The winner's entrant index, once the tournament is finished."""
    if tournament.status != "finished":
        return None
    if tournament.format == "single":
        final = max(tournament.matches, key=lambda match: match.round)
        return final.winner_entrant
    reset = tournament.match("GF2")
    decider = reset if reset.status == "done" else tournament.match("GF1")
    return decider.winner_entrant


def _knockout_key(tournament: Tournament, match: Match) -> int | None:
    """The key of the round `match` belongs to, if its loser goes out."""
    if tournament.format == "single":
        return match.round
    if match.bracket == "losers":
        return match.round
    if match.bracket == "final":
        return _FINAL
    return None


def _knocks_out(tournament: Tournament, match: Match) -> bool:
    """Whether the loser of this decided match is out of the tournament."""
    if match.status != "done" or match.decided == "bye":
        return False
    if match.id == "GF1":
        return match.winner == 0
    return _knockout_key(tournament, match) is not None


def standings(tournament: Tournament) -> list[Standing]:
    """The champion (once finished) and every player out, best first."""
    sizes: dict[int, int] = {}
    for match in tournament.matches:
        key = _knockout_key(tournament, match)
        if key is None or match.decided == "bye" or match.id == "GF2":
            continue  # the grand final puts out one player, in GF1 or in its reset
        sizes[key] = sizes.get(key, 0) + 1
    total = len(tournament.entrants)
    rows: list[Standing] = []
    for match in tournament.matches:
        if not _knocks_out(tournament, match):
            continue
        key = _knockout_key(tournament, match)
        loser = match.loser_entrant
        if key is None or loser is None:
            continue
        below = sum(size for other, size in sizes.items() if other < key)
        last = total - below
        rows.append(Standing(last - sizes[key] + 1, last, loser))
    winner = champion(tournament)
    if winner is not None:
        rows.append(Standing(1, 1, winner))
    rows.sort(key=lambda row: (row.first, row.entrant))
    return rows


def rounds_played(tournament: Tournament) -> int:
    """Rounds in which at least one match was played (or forfeited): each bracket's
    rounds, and the grand final and its reset."""
    seen = {
        (match.bracket, match.round)
        for match in tournament.matches
        if match.status == "done" and match.decided != "bye"
    }
    return len(seen)
