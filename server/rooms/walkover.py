"""A tournament's match won by a player whose opponent never came (`m.Walkover`).

The tournament forfeits a match whose player has not sat down within its no-show time
(`server.tournament.service`); the room is told, so the player who came and waits at the
table learns that the match is theirs — a match over like any other, ended by forfeit
(O5), with its `match_over` — instead of waiting on for an opponent who is out. When
neither came, the bracket sends the better seed on and the room is told the same (the
other seat absent): its match ends with that result, and the room closes once nobody
watches it. The bracket's word is final: a player who sits down after the no-show time
ran out, as the walkover is on its way, has not come in time and is told the match is
lost. Left waiting, a room's kept seats went on calling both players to it, and a match
they then began there named a winner the bracket had not. A walkover gives no rack or
match result to the players service (a match never played moves no rating), and the
room's `MatchEnds` tells the tournament what it has already decided.

Once a tournament's match is over — played, conceded or walked over — its room holds
nothing more for its players: the match has no rematch, and the bracket sends its winner
on to a room of its own. So a player who goes away from it (to the bracket page, whose
link then opens the next match's table) gives up the seat at once instead of keeping it
through the grace period (O5): a seat kept would be where the lobby puts them back when
they next connect (`reattach`, their `welcome`'s room), away from the table of their next
match, which they could not sit down at while it lasted ("leave the current room first")
— and the no-show time of that match would run out on them.
"""

from __future__ import annotations

import msgspec

from server import rules
from server.rooms.model import Finished, Waiting
from server.rooms.seams import Walkover
from server.rooms.snapshots import rules_settings
from server.rooms.table import apply_action, new_table, seat_player
from server.rooms.working import Working


class Walkovers(Working):
    """The room machine's walkover transition (`server.rooms.machine._Tx` is one)."""

    def walkover(self, event: Walkover) -> bool:
        """The match forfeited by seat `absent`; whether it was (False: nothing changed)."""
        settings = self.state.settings
        absent = event.absent
        if not settings.reserved or not isinstance(self.phase, Waiting) or absent not in (0, 1):
            return False
        self.match += 1
        # A tournament's room forfeits the match (it is made so); a walkover is one anyway.
        match_rules = msgspec.structs.replace(rules_settings(settings), forfeit="match")
        table = new_table(match_rules, self.state.seed, self.match, None)
        step = apply_action(table, rules.Forfeit(by=seat_player(absent)))
        events = self.after_step(step, "forfeit", absent)
        events.append(self.snapshot_event())
        self.commit(events)
        return True

    def one_match_over(self) -> bool:
        """Whether this is a tournament's room whose one match is over: a seat emptied now
        is freed at once, not kept for its player to come back to (above)."""
        return bool(self.state.settings.reserved) and isinstance(self.phase, Finished)
