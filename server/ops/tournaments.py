"""The tournaments' settings (`server/tournament`), declared here once like every other:
`server.ops.config` adds the section to the process's settings and fills `Config.tournaments`
from it."""

from __future__ import annotations

from dataclasses import dataclass

from server.ops.settings import NUMBER, Section, Setting, more_than


@dataclass(frozen=True)
class TournamentSettings:
    #: Seconds a match room waits for a player to sit down (then they forfeit the match).
    tournament_no_show: float = 300.0


TOURNAMENTS = Section(
    "tournaments",
    "tournaments (see server/tournament/README.md)",
    (
        Setting(
            TournamentSettings,
            "tournament_no_show",
            NUMBER,
            "seconds a tournament match's room waits for a player to sit down before that "
            "player forfeits the match",
            more_than(0),
        ),
    ),
)
