"""Bot tables: exhibitions of two computer players, listed in the lobby for anyone to
watch, so a visitor to a quiet server finds something on the tables.

The policy, in one place (`to_start`):

- at most `--bot-tables` exhibitions are listed at once (in a cluster, as the shared
  room list counts them; two nodes deciding at the same moment may each start one);
- new ones start only while someone is in the lobby (subscribed to the room list on this
  node) and no match between people is being played (no listed room with a person
  seated is in its lag or play): a bot table is for a lobby with nothing else to watch,
  and costs nothing while nobody is connected;
- each takes the next pairing of neighbouring levels whose computers play at no other
  exhibition (a computer's name is its level: "Bot 4" at two tables read as one player
  in two matches);
- an exhibition runs its match out; at its end it plays another if anyone watches it,
  else it closes (`server.rooms.machine`), and the lobby starts a new one if the policy
  still wants it. So a bot table with nobody left to watch is gone within one match.

The lobby asks when that may have changed: someone subscribed to the list, or a room
closed. Pure: the listing and the counts in, a number out.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol import messages as m

#: The levels of successive exhibitions: neighbours on the ladder, so each is a contest
#: (`bench/README.md`), the strong pairs first.
PAIRINGS: tuple[tuple[int, int], ...] = ((4, 5), (3, 4), (5, 3), (2, 3), (4, 2), (1, 2))
#: An exhibition's match: short, so a table nobody watches ends soon.
EXHIBITION_RACE = 3


def is_exhibition(info: m.Info) -> bool:
    return len(info.computer) == 2 and all(level is not None for level in info.computer)


def people_playing(info: m.Info) -> bool:
    """A match with a person seated is in its lag or play."""
    if info.status not in ("lag", "playing"):
        return False
    computers = info.computer or [None] * len(info.players)
    return any(level is None for level in computers)


def to_start(listing: Iterable[m.Info], starting: int, limit: int, someone_in_lobby: bool) -> int:
    """How many exhibitions to start now: `starting` are started here and not yet
    listed."""
    infos = list(listing)
    if not someone_in_lobby or any(people_playing(info) for info in infos):
        return 0
    running = sum(1 for info in infos if is_exhibition(info)) + starting
    return max(0, limit - running)


def levels_shown(listing: Iterable[m.Info]) -> set[int]:
    """The computer levels playing at the listed exhibitions."""
    return {
        level
        for info in listing
        if is_exhibition(info)
        for level in info.computer
        if level is not None
    }


def pairing(number: int, busy: set[int] | frozenset[int] = frozenset()) -> tuple[int, int]:
    """The levels of the `number`-th exhibition started by a node: the next pairing in
    turn whose levels play at no other exhibition (`busy`). A computer player's name is
    its level ("Bot 4"), so the same level at two tables showed one name playing two
    matches at once; only with every level busy does one play twice."""
    for step in range(len(PAIRINGS)):
        levels = PAIRINGS[(number + step) % len(PAIRINGS)]
        if busy.isdisjoint(levels):
            return levels
    return PAIRINGS[number % len(PAIRINGS)]
