"""`python -m server.tournament.simulate --players N --format single|double --seed S`:
a whole tournament of N entrants played with random results, as one JSON object.

    {"players": N, "format": "double", "matches": 31, "rounds": 10,
     "champion": "Player 07", "standings": [{"place": "1", "name": "Player 07"}, …]}

`matches` counts the matches played (byes and a void grand-final reset are not
matches): N−1 in a single elimination, 2N−2 or 2N−1 (the reset) in a double.
`rounds` counts the rounds in which a match was played (each bracket's, the grand final
and its reset). The entrants are drawn into the bracket at random from the seed, each
match is won at random and its loser gets a random score below the race; the same seed
prints the same object. Bad arguments: a message on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from server.tournament.bracket import new_tournament, played, race_of, ready, register, report
from server.tournament.bracket import start as start_tournament
from server.tournament.model import MAX_PLAYERS, MIN_PLAYERS, Entrant, Format, Races, Tournament
from server.tournament.standings import champion, rounds_played, standings


def simulate(players: int, fmt: Format, seed: int) -> dict[str, Any]:
    """Play a whole tournament with random results; the summary the CLI prints."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"--players is {MIN_PLAYERS}-{MAX_PLAYERS}")
    chance = random.Random(seed)
    tournament = new_tournament(
        "simulated",
        "Simulated",
        format=fmt,
        cap=players,
        races=Races(),
        seeding="random",
        seed=seed,
        starts_at=0,
        organiser="simulate",
    )
    width = len(str(players))
    for number in range(1, players + 1):
        entrant = Entrant(f"p{number}", f"Player {number:0{width}d}")
        tournament = register(tournament, entrant)
    tournament = play_out(start_tournament(tournament), chance)
    return summary(tournament)


def play_out(tournament: Tournament, chance: random.Random) -> Tournament:
    """Decide every match at random, in bracket order, until the tournament is over."""
    while tournament.status == "running":
        match = ready(tournament)[0]
        race = race_of(tournament, match)
        winner = chance.randrange(2)
        score = [0, 0]
        score[winner], score[1 - winner] = race, chance.randrange(race)
        tournament = report(tournament, match.id, winner, (score[0], score[1]))
    return tournament


def summary(tournament: Tournament) -> dict[str, Any]:
    winner = champion(tournament)
    names = [entrant.name for entrant in tournament.entrants]
    return {
        "players": len(tournament.entrants),
        "format": tournament.format,
        "matches": len(played(tournament)),
        "rounds": rounds_played(tournament),
        "champion": "" if winner is None else names[winner],
        "standings": [
            {"place": row.place, "name": names[row.entrant]} for row in standings(tournament)
        ],
    }


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # the usual usage line, exit status 2
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _players(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"{value} players: a tournament has 2-64")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(
        prog="python -m server.tournament.simulate",
        description="Play a whole tournament with random results and print it as JSON.",
    )
    parser.add_argument("--players", type=_players, required=True, help="entrants, 2-64")
    parser.add_argument("--format", choices=("single", "double"), required=True)
    parser.add_argument("--seed", type=_seed, required=True, help="the draw's and results' seed")
    arguments = parser.parse_args(argv)
    result = simulate(arguments.players, arguments.format, arguments.seed)
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
