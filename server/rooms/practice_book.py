"""Where a practice table is kept so that its player finds it again: one seam, chosen once
at start-up (`server.app`).

A practice table has one player and no match to replay: all it is, is one small value
(`server.rooms.practice.Practice`: the balls, the undo/redo history, the drill and its
score) with the table's id and the name shown. So a table does not need a node to live
on: after each change its actor writes that value down, and when its player comes back
through another node (behind a load balancer) or after the node that ran it died, the
node the player reaches reads the value back and opens the table there. The table
follows its only player; nothing is relayed. What can be lost is a shot still being
simulated when a node dies: the table comes back as it was before that shot.

- `LonePracticeBook` (below): a lone node keeps the values in its memory (its players
  always come back to it; a restart ends its tables, as documented).
- `server.cluster.practice_book.RedisPracticeBook`: the value under the player's key in
  the cluster's Redis, written only by the node that last took the table (a holder token
  fences a node that has lost it: its next write fails, and it closes its copy).
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from server.rooms.practice import Practice


class KeptPractice(msgspec.Struct, frozen=True):
    """A practice table as it is kept: enough to open it again on any node."""

    room: str
    player: str
    name: str
    state: Practice


class PracticeBook(Protocol):
    """Keeps each player's practice table (see the module's docstring)."""

    async def keep(self, table: KeptPractice, holder: str | None) -> str | None:
        """Write the table down. `holder` None: a new table, taken now (replacing any the
        player had). Returns the holder token to write with from now on, or None if the
        table was taken since by another node (nothing was written)."""

    async def claim(self, player: str, mine: str | None) -> tuple[str, KeptPractice] | None:
        """Take the table `player` left (on any node): its holder token and value, or None
        if they have none. The node that held it can write it no more — unless `mine`
        is still the holder's token: then it stays so, and `mine` comes back (this node's
        own copy is the table)."""

    async def forget(self, player: str, holder: str) -> None:
        """The table closed: it is not kept (unless another node has taken it since)."""


class LonePracticeBook:
    """A lone node: the values in its memory, kept and fenced as in a cluster."""

    def __init__(self) -> None:
        self.tables: dict[str, tuple[str, KeptPractice]] = {}
        self._taken = 0

    def _token(self) -> str:
        self._taken += 1
        return str(self._taken)

    async def keep(self, table: KeptPractice, holder: str | None) -> str | None:
        kept = self.tables.get(table.player)
        if holder is not None and (kept is None or kept[0] != holder):
            return None
        token = holder if holder is not None else self._token()
        self.tables[table.player] = (token, table)
        return token

    async def claim(self, player: str, mine: str | None) -> tuple[str, KeptPractice] | None:
        kept = self.tables.get(player)
        if kept is None or kept[0] == mine:
            return kept
        taken = (self._token(), kept[1])
        self.tables[player] = taken
        return taken

    async def forget(self, player: str, holder: str) -> None:
        kept = self.tables.get(player)
        if kept is not None and kept[0] == holder:
            del self.tables[player]
