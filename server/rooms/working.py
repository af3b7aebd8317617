"""A room's state while one input is handled: a mutable working copy and the effects so
far, with the small steps every transition is made of (events with their `seq`, the
commit, timers, the shot clock).

The room machine (`server.rooms.machine`) builds one per input and throws it away once
it has made the next state and the effects: the state values themselves never change.

What the room says reaches its members in one of two ways:

- `commit`: a room event with the next `seq`, saved with the room's record before it is
  sent. The log keeps it for the replay while the room's log has room: at most
  `Limits.log_max` events, chat at most a quarter of them (a chatty crowd cannot push
  the match out of its own replay). Past that an event is still saved in the record
  (its `seq` with it, so no number is ever given twice) and sent, not logged.
- `broadcast_only`: what carries no game information — a `ready` toggle, the spectator
  count. It is not saved and takes no `seq` (a `snapshot` at the room's latest `seq`,
  which clients take as a fresh start, or the seq-less `spectators`), so the log has no
  gaps and a client following `seq` sees none either.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import msgspec

from protocol import messages as m
from server import rules
from server.players.ratings import bot_player_id
from server.players.results import MatchResult, RackResult
from server.rooms import snapshots
from server.rooms.model import (
    REPORTS_KEPT,
    SEATED_KEPT,
    Broadcast,
    CancelTimer,
    Clock,
    ClockOut,
    ClockWarning,
    Crowd,
    CrowdFlush,
    Effect,
    Finished,
    Phase,
    Playing,
    RackTally,
    Report,
    Result,
    RoomState,
    Save,
    Seat,
    Send,
    StartTimer,
    TimerName,
    Waiting,
)
from server.rooms.seams import Member
from server.rooms.table import Step, player_seat, seat_player
from server.rooms.views import verdict_view
from server.rules import MatchState, Verdict


class Working:
    """One step in the making: a working copy of the state, changed in place while the
    input is handled, and the effects in order."""

    def __init__(self, state: RoomState, now: float) -> None:
        self.state = state
        self.now = now
        s = state
        self.phase: Phase = s.phase
        self.seq = s.seq
        self.match = s.match
        self.shots = s.shots
        self.seats: list[Seat | None] = list(s.seats)
        self.spectators: list[Member] = list(s.spectators)
        self.inflight = s.inflight
        self.aim = s.aim
        self.pending = s.pending
        self.closed = s.closed
        self.crowd = s.crowd
        self.logged = s.logged if s.logged >= 0 else s.seq
        self.chat_logged = s.chat_logged
        self.seated = s.seated
        self.tally = s.tally
        self.reports = s.reports
        self.history = s.history
        self.racking_until = s.racking_until
        self.saved: list[m.ServerMessage] = []
        self.dirty = False
        self.out: list[Effect] = []

    # --- the result ---------------------------------------------------------------------

    def current(self) -> RoomState:
        return replace(
            self.state,
            phase=self.phase,
            seq=self.seq,
            match=self.match,
            shots=self.shots,
            seats=(self.seats[0], self.seats[1]),
            spectators=tuple(self.spectators),
            inflight=self.inflight,
            aim=self.aim,
            pending=self.pending,
            closed=self.closed,
            crowd=self.crowd,
            logged=self.logged,
            chat_logged=self.chat_logged,
            seated=self.seated,
            tally=self.tally,
            reports=self.reports,
            history=self.history,
            racking_until=self.racking_until,
        )

    def finish(self) -> tuple[RoomState, list[Effect]]:
        state = self.current()
        if not self.dirty:
            return state, self.out
        save = Save(snapshots.record(state, self.now), tuple(self.saved))
        return state, [save, *self.out]

    # --- building blocks ------------------------------------------------------------------

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def commit(self, events: list[m.ServerMessage], exclude: Member | None = None) -> None:
        """Store these events (with the room's record), then send them to the members;
        the log keeps those it has room for (see the module's docstring)."""
        self.dirty = True
        self.saved += [event for event in events if self._loggable(event)]
        for event in events:
            self.history = self.history.heard(event)
        self.out.append(Broadcast(tuple(events), exclude))

    def _loggable(self, event: m.ServerMessage) -> bool:
        limits = self.state.limits
        if self.logged >= limits.log_max:
            return False
        if isinstance(event, m.ChatRelay):
            if self.chat_logged >= limits.chat_log_max:
                return False
            self.chat_logged += 1
        self.logged += 1
        return True

    def broadcast_only(self, message: m.ServerMessage, exclude: Member | None = None) -> None:
        """Send to the members without storing: for what carries no game information, and
        so no new `seq` either (see the module's docstring)."""
        assert getattr(message, "seq", self.seq) == self.seq, "a stored event needs commit"
        self.out.append(Broadcast((message,), exclude))

    def crowd_changed(self) -> None:
        """Spectators came or went: the members hear the count now, or once the interval
        since they last heard it is over (with the newest count then)."""
        if self.crowd.flush_scheduled:
            return
        wait = self.crowd.last_sent + self.state.limits.crowd_interval - self.now
        if wait <= 0:
            self.flush_crowd()
        else:
            self.crowd = replace(self.crowd, flush_scheduled=True)
            self.timer(CrowdFlush(), wait)

    def flush_crowd(self) -> None:
        count = len(self.spectators)
        if count == self.crowd.sent:
            self.crowd = replace(self.crowd, flush_scheduled=False)
            return
        self.crowd = Crowd(sent=count, last_sent=self.now)
        self.broadcast_only(m.Spectators(room=self.state.id, count=count))

    def note_seated(self, player: str) -> None:
        """`player` took a seat: one of those who may read a private room's replay."""
        kept = [p for p in self.seated if p != player]
        self.seated = (*kept, player)[-SEATED_KEPT:]

    def send(self, to: Member, message: msgspec.Struct) -> None:
        self.out.append(Send(to, message))

    def ok(self, to: Member, request_id: int) -> None:
        self.send(to, m.Ok(id=request_id))

    def timer(self, name: TimerName, delay: float) -> None:
        self.out.append(StartTimer(name, max(0.0, delay)))

    def cancel(self, name: TimerName) -> None:
        self.out.append(CancelTimer(name))

    def snapshot_message(self, seq: int) -> m.Snapshot:
        return snapshots.snapshot(self.current(), seq, self.now)

    def own_snapshot(self, member: Member) -> m.Snapshot:
        """The room for `member` alone (a join, a reload, a resync): with what it missed,
        and a seated player's seat invite."""
        snapshot = self.snapshot_message(self.seq)
        invite = self.invite if self.seat_of(member) is not None else None
        return msgspec.structs.replace(snapshot, recent=self.history.wire(), invite=invite)

    @property
    def invite(self) -> str:
        """The room's seat invite (`m.Sit`): derived from the room's secret seed, so it
        is the same after a restart or on another node, and tells nothing of the seed."""
        return seat_invite(self.state.seed, self.state.id)

    def snapshot_event(self) -> m.Snapshot:
        return self.snapshot_message(self.next_seq())

    def presence(self, seat: int | None, connected: bool, clock: bool = False) -> m.Presence:
        """`clock`: the turn's clock changed with it (paused or running again): sent along."""
        grace_until = None
        if seat is not None:
            record = self.seats[seat]
            grace_until = record.grace_until if record is not None else None
        return m.Presence(
            room=self.state.id,
            seq=self.next_seq(),
            seat=seat,
            connected=connected,
            grace_until=grace_until,
            spectators=len(self.spectators),
            clock=snapshots.clock_view(self.current()) if clock else None,
        )

    def members(self) -> list[Member]:
        seated = [s.member for s in self.seats if s is not None and s.member is not None]
        return seated + self.spectators

    def seat_of(self, member: Member) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.member is member:
                return index
        return None

    def seat_of_player(self, player: str | None) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.player == player:
                return index
        return None

    def turn_seat(self) -> int | None:
        if not isinstance(self.phase, Playing):
            return None
        return player_seat(self.phase.table.state.turn)

    def name(self, index: int) -> str:
        seat = self.seats[index]
        return seat.name if seat is not None else f"seat {index}"

    def grace_deadline(self) -> int:
        return int((self.now + self.state.limits.grace) * 1000)

    def table_view(self) -> m.TableView:
        return snapshots.table_view_of(self.current(), self.now)

    def clock(self) -> Clock:
        return self.phase.clock if isinstance(self.phase, Playing) else Clock()

    def set_clock(self, clock: Clock) -> None:
        if isinstance(self.phase, Playing):
            self.phase = replace(self.phase, clock=clock)

    def restart_clock(self, delay: float) -> None:
        """A new turn: the clock starts once the shot has played out (`delay`), with the
        time the referee gives the turn (the first shot after a break or a push-out may
        have longer, O3)."""
        self.stop_clock()
        turn = self.turn_seat()
        phase = self.phase
        allowed = rules.turn_clock(phase.table.state) if isinstance(phase, Playing) else None
        if allowed is None or turn is None:
            return
        seconds = allowed.seconds
        seat = self.seats[turn]
        if seat is None or seat.member is None:
            self.set_clock(Clock(left=seconds + delay))
            return
        self.set_clock(Clock(deadline=self.now + delay + seconds))
        self.arm_clock()

    def arm_clock(self) -> None:
        clock = self.clock()
        if clock.deadline is None:
            return
        left = clock.deadline - self.now
        self.timer(ClockOut(), left)
        warning = self.state.settings.clock_warning
        if warning > 0 and not clock.warned and left > warning:
            self.timer(ClockWarning(), left - warning)

    def stop_clock(self) -> None:
        self.set_clock(Clock())
        self.cancel(ClockOut())
        self.cancel(ClockWarning())

    def pause_clock(self) -> None:
        clock = self.clock()
        if clock.deadline is None:
            return
        left = max(0.0, clock.deadline - self.now)
        self.stop_clock()
        self.set_clock(Clock(left=left))

    def resume_clock(self) -> None:
        clock = self.clock()
        if clock.left is None:
            return
        self.set_clock(Clock(deadline=self.now + clock.left))
        self.arm_clock()

    # --- referee steps ----------------------------------------------------------------------

    def after_step(
        self, step: Step, action: str, by: int | None, late: bool = False
    ) -> list[m.ServerMessage]:
        """Events for a non-shot referee action, with the clock restarted (`late`: a choice
        made by its time running out)."""
        phase = self.phase
        if not isinstance(phase, Waiting) and by is not None:
            at_table = action in ("choose_shoot", "choose_pass", "clock_expired")
            self.note_rack(phase.table.state, by, step.verdict, at_table, shot=False)
        self.phase = Playing(step.table, self.clock())
        self.inflight = None
        self.start_next_turn(step.verdict, 0.0)
        ruling = m.Ruling(
            room=self.state.id,
            seq=self.next_seq(),
            by=by,
            action=action,  # type: ignore[arg-type]
            verdict=verdict_view(step.verdict),
            table=self.table_view(),
            late=late,
        )
        return [ruling, *self.consequences(step, by)]

    def consequences(self, step: Step, by: int | None) -> list[m.ServerMessage]:
        """Warnings, game and match results that follow a verdict."""
        verdict, state, room = step.verdict, step.table.state, self.state.id
        events: list[m.ServerMessage] = []
        warned = player_seat(verdict.warned)
        if warned is not None:
            text = f"{self.name(warned)} is on two consecutive fouls: a third loses the game (R13)"
            events.append(
                m.Warning(room=room, seq=self.next_seq(), kind="three_fouls", seat=warned, msg=text)
            )
        if verdict.stalemate_warning_given:
            text = (
                "Stalemate warning: three more innings each without a ball pocketed "
                "and the rack is replayed (R14)"
            )
            events.append(
                m.Warning(room=room, seq=self.next_seq(), kind="stalemate", seat=None, msg=text)
            )
        if verdict.game_over:
            self.rack_over(verdict, state.rack - (1 if verdict.new_rack else 0))
            until = None if verdict.match_over else self.racking_until
            next_rack = None if until is None else int(until * 1000)
            events.append(
                m.GameOver(
                    room=room,
                    seq=self.next_seq(),
                    rack=state.rack - (1 if verdict.new_rack else 0),
                    winner=player_seat(verdict.game_winner),
                    reason=verdict.game_end or "nine",  # always set with game_over
                    score=list(state.score),
                    next_rack=next_rack,
                )
            )
        if verdict.match_over:
            if not verdict.game_over:
                self.rack_conceded(verdict, state)
            self.match_over(state)
            self.stop_clock()
            # (a tournament's seat nobody came to: the name it was kept under)
            kept = (*self.state.kept_names, "", "")
            first, second = (kept[i] if s is None else s.name for i, s in enumerate(self.seats))
            self.phase = Finished(step.table, names=(first, second))
            events.append(
                m.MatchOver(
                    room=room,
                    seq=self.next_seq(),
                    winner=player_seat(verdict.match_winner),
                    reason=state.match_ended_by or "race",  # always set with match_over
                    score=list(state.score),
                )
            )
        return events

    def start_next_turn(self, verdict: Verdict, on_screen: float) -> None:
        """The next turn's clock, started once the last shot has played out (`on_screen`
        seconds from now). When the verdict ends a game and the match goes on, everyone
        first sees the result for `Limits.rack_pause` seconds: the next break's clock
        starts after them, and `racking_until` says when (for the `game_over` event and
        for a computer about to break)."""
        if verdict.game_over and not verdict.match_over:
            on_screen += self.state.limits.rack_pause
            self.racking_until = self.now + on_screen
        self.restart_clock(on_screen)

    # --- results for the players service (docs/RATINGS.md) -------------------------------

    def note_rack(
        self, before: MatchState, seat: int, verdict: Verdict, at_table: bool, shot: bool
    ) -> None:
        """Count one action of `seat` in the rack in play (`before` is the referee's state
        it was taken in): a turn at the table, a foul, the 9 made on the break."""
        tally = self.tally
        if tally.rack != before.rack:
            tally = RackTally(rack=before.rack)
        if before.breaker is not None:
            tally = replace(tally, breaker=player_seat(before.breaker))
        fouls, turns = list(tally.fouls), list(tally.turns)
        if verdict.foul:
            fouls[seat] += 1
        if at_table:
            turns[seat] += 1
        nine = tally.nine_on_break or (
            shot
            and before.is_break
            and verdict.game_over
            and verdict.game_end == "nine"
            and verdict.game_winner == seat_player(seat)
        )
        self.tally = replace(
            tally, fouls=(fouls[0], fouls[1]), turns=(turns[0], turns[1]), nine_on_break=nine
        )

    def player_ids(self) -> tuple[str, str] | None:
        """The players of a result, seat by seat: a computer as the players service knows
        computers, by level (`ratings.bot_player_id`), whatever id its seat has here
        (`computer:<seat>`, or the tournament entrant it plays for): its rating is that
        level's fixed one, and it is never an account (nor on a leaderboard)."""
        first, second = self.seats
        if first is None or second is None:
            return None
        return _result_id(first), _result_id(second)

    def report(self, result: Result) -> None:
        """Hand a result over once the step is saved; the record keeps the latest ones."""
        self.reports = (*self.reports, result)[-REPORTS_KEPT:]
        self.out.append(Report(result))

    def rack_over(self, verdict: Verdict, rack: int) -> None:
        """A rack has ended: its result, if it has a winner and both seats are taken."""
        winner = player_seat(verdict.game_winner)
        players = self.player_ids()
        if winner is None or players is None or verdict.game_end is None:
            self.tally = RackTally()
            return
        tally = self.tally if self.tally.rack == rack else RackTally(rack=rack)
        breaker = tally.breaker if tally.breaker is not None else winner
        loser = 1 - winner
        self.report(
            RackResult(
                room=self.state.id,
                match=self.match,
                rack=rack,
                winner=players[winner],
                loser=players[loser],
                rated=self.state.settings.rated,
                breaker=players[breaker],
                break_and_run=(
                    verdict.game_end == "nine" and breaker == winner and tally.turns[loser] == 0
                ),
                nine_on_break=tally.nine_on_break,
                fouls={players[0]: tally.fouls[0], players[1]: tally.fouls[1]},
                ended_by=verdict.game_end,
                at=int(self.now * 1000),
            )
        )
        self.tally = RackTally()

    def rack_conceded(self, verdict: Verdict, state: MatchState) -> None:
        """A match conceded (O4) while its rack is under way — the break struck — ends that
        rack as a game conceded: else conceding the match would be a way out of a rack
        about to be lost (docs/RATINGS.md). A match forfeited (O5) ends none: a dropped
        network can cause it. Between racks, or before the break, no rack is under way."""
        tally = self.tally
        if state.match_ended_by != "concede" or tally.rack != state.rack or sum(tally.turns) == 0:
            return
        ended = msgspec.structs.replace(
            verdict, game_over=True, game_winner=state.match_winner, game_end="concede"
        )
        self.rack_over(ended, state.rack)

    def match_over(self, state: MatchState) -> None:
        players = self.player_ids()
        if players is None or state.match_ended_by is None:
            return
        winner = player_seat(state.match_winner)
        self.report(
            MatchResult(
                room=self.state.id,
                match=self.match,
                players=players,
                winner=None if winner is None else players[winner],
                score=(state.score[0], state.score[1]),
                ended_by=state.match_ended_by,
                rated=self.state.settings.rated,
                at=int(self.now * 1000),
            )
        )


def _result_id(seat: Seat) -> str:
    return seat.player if seat.bot is None else bot_player_id(seat.bot)


def seat_invite(seed: int, room: str) -> str:
    """`s` and 20 hex digits: lower case, so a link never takes it for an invite code."""
    key = seed.to_bytes(16, "big", signed=True)
    digest = hashlib.blake2b(room.encode(), key=key, digest_size=10, person=b"seat-invite")
    return "s" + digest.hexdigest()
