"""The settings of computer players (`server/rooms/bots.py`, `server/rooms/exhibitions.py`):
`Config.computers`, declared here as the `limits` section is beside `server.edge.limits`."""

from __future__ import annotations

from dataclasses import dataclass

from server.ops.settings import NUMBER, WHOLE, Section, Setting, at_least, between


@dataclass(frozen=True)
class Computers:
    bot_workers: int = 1
    bot_pause: float = 1.5
    bot_tables: int = 2
    quick_computer_after: float = 20.0
    quick_computer_level: int = 2


COMPUTERS = Section(
    "computers",
    "computer players (see Computer players in server/README.md)",
    (
        Setting(
            Computers,
            "bot_workers",
            WHOLE,
            "worker processes that make computer players' decisions, apart from the physics "
            "workers so a thinking computer never delays a shot (`0`: one thread, tiny "
            "hosts only)",
            at_least(0),
        ),
        Setting(
            Computers,
            "bot_pause",
            NUMBER,
            "seconds a computer player waits after the last shot has played out before it "
            "plays, so its shots come at a player's pace (`0`: as soon as it has decided)",
            between(0, 30),
        ),
        Setting(
            Computers,
            "bot_tables",
            WHOLE,
            "exhibitions of two computer players listed in the lobby, at most: started "
            "while someone is in the lobby and no match between people is being played, "
            "ended with their match when nobody watches (`0`: none)",
            between(0, 50),
        ),
        Setting(
            Computers,
            "quick_computer_after",
            NUMBER,
            "seconds a player waits for a quick match before a computer player is offered "
            "(`0`: never offered)",
            at_least(0),
        ),
        Setting(
            Computers,
            "quick_computer_level",
            WHOLE,
            "the level (1–5) of the computer player a quick match offers",
            between(1, 5),
        ),
    ),
)
