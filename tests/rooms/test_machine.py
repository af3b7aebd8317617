"""The room machine driven as a pure function: no sockets, no event loop, no clock.

Each test feeds inputs to `step(state, input, now)` and checks the next state and the
effects in order. Shots and lags are simulated here with the real physics (it is pure
too), and fed back as `Simulated`, exactly as the room's actor does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import msgspec
import pytest

from protocol import errors
from protocol import messages as m
from server.rooms import snapshots
from server.rooms.machine import step
from server.rooms.model import (
    AimFlush,
    Bind,
    Broadcast,
    CancelTimer,
    Choosing,
    ClockOut,
    ClockWarning,
    Close,
    CloseMember,
    Effect,
    Finished,
    Grace,
    LagChoiceOut,
    Lagging,
    Limits,
    Playing,
    Report,
    RoomState,
    Save,
    SeatFreed,
    SeatTaken,
    Send,
    Simulate,
    Simulated,
    StartTimer,
    Stop,
    TimerFired,
    Unbind,
    Waiting,
    decode_record,
    new_room,
)
from server.rooms.seams import Enter, Gone, Reattach, Request, SeatPair, Shutdown, Walkover
from server.rooms.simulation import run_shot
from server.rooms.table import TableError

RECORDS = Path(__file__).parent / "records"


@dataclass(eq=False)
class Person:
    """A member as the machine sees one: who it is (the machine calls nothing on it)."""

    player: str | None
    name: str


def room(**settings: object) -> RoomState:
    return new_room("room1", m.RoomSettings(**settings), 1234, None, Limits(grace=60.0))  # type: ignore[arg-type]


def run(state: RoomState, event: object, now: float = 1000.0) -> tuple[RoomState, list[Effect]]:
    return step(state, event, now)  # type: ignore[arg-type]


def kinds(effects: list[Effect]) -> list[str]:
    return [type(e).__name__ for e in effects]


def sent(effects: list[Effect], to: Person) -> list[object]:
    return [e.message for e in effects if isinstance(e, Send) and e.to is to]


def broadcast(effects: list[Effect]) -> list[m.ServerMessage]:
    return [ev for e in effects if isinstance(e, Broadcast) for ev in e.events]


def simulate(effects: list[Effect]) -> Simulated:
    """What the physics pool would answer to the machine's `Simulate`."""
    (job,) = [e for e in effects if isinstance(e, Simulate)]
    results = tuple(
        run_shot(
            dict(j.balls),
            j.shot.angle,
            j.shot.speed,
            (j.shot.tip[0], j.shot.tip[1]),
            j.shot.elevation,
            j.lag,
        )
        for j in job.jobs
    )
    return Simulated(results)


ANA, BO, EVE = Person("p-ana", "Ana"), Person("p-bo", "Bo"), Person("p-eve", "Eve")


def seated(**settings: object) -> RoomState:
    state = room(**settings)
    state, _ = run(state, Enter(ANA, 1, "player"))  # type: ignore[arg-type]
    state, _ = run(state, Enter(BO, 1, "player"))  # type: ignore[arg-type]
    return state


def playing(**settings: object) -> RoomState:
    """Both seated and ready, drawn for the break, Ana breaking."""
    state = seated(first_break="draw", **settings)
    state, _ = run(state, Request(ANA, m.Ready(id=2)))  # type: ignore[arg-type]
    state, _ = run(state, Request(BO, m.Ready(id=2)))  # type: ignore[arg-type]
    assert isinstance(state.phase, Choosing)
    winner = ANA if state.phase.winner == 0 else BO
    choice = "break" if winner is ANA else "give"
    state, _ = run(state, Request(winner, m.LagChoice(id=3, choice=choice)))  # type: ignore[arg-type]
    assert isinstance(state.phase, Playing)
    assert state.phase.table.state.turn == "0"
    return state


def test_entering_saves_first_then_seats_binds_and_tells() -> None:
    state, effects = run(room(), Enter(ANA, 7, "player"))  # type: ignore[arg-type]
    assert kinds(effects) == ["Save", "SeatTaken", "Bind", "Send", "Broadcast"]
    assert isinstance(effects[0], Save) and effects[0].record.seats[0] is not None
    (joined,) = sent(effects, ANA)
    assert isinstance(joined, m.Joined) and joined.id == 7 and joined.seat == 0
    assert state.seats[0] is not None and state.seats[0].member is ANA
    assert state.seq == 1 and isinstance(state.phase, Waiting)


def test_a_refusal_changes_nothing_and_the_input_is_never_mutated() -> None:
    state = seated()
    before = snapshots.record(state, 0.0)
    with pytest.raises(TableError) as refused:
        run(state, Enter(EVE, 3, "player"))  # type: ignore[arg-type]
    assert refused.value.code == errors.ROOM_FULL
    assert snapshots.record(state, 0.0) == before


def test_every_table_action_of_a_spectator_gets_the_same_code() -> None:
    state = playing()
    state, _ = run(state, Enter(EVE, 4, "spectator"))  # type: ignore[arg-type]
    actions: list[m.ClientMessage] = [
        m.Ready(id=5),
        m.Rematch(id=5),
        m.LagShot(id=5, speed=2.0),
        m.LagChoice(id=5, choice="break"),
        m.Place(id=5, pos=(0.5, 0.5)),
        m.Aim(id=5, angle=0.0, speed=1.0),
        m.Shot(id=5, angle=0.0, speed=1.0),
        m.Choose(id=5, choice="shoot"),
        m.Concede(id=5, what="game"),
        m.Stalemate(id=5, action="propose"),
        m.Extend(id=5),
    ]
    for action in actions:
        with pytest.raises(TableError) as refused:
            run(state, Request(EVE, action))  # type: ignore[arg-type]
        assert refused.value.code == errors.NOT_A_PLAYER, type(action).__name__


def test_ready_both_starts_the_lag_and_a_tie_is_played_again() -> None:
    state = seated()
    state, _ = run(state, Request(ANA, m.Ready(id=2)))  # type: ignore[arg-type]
    state, effects = run(state, Request(BO, m.Ready(id=2)))  # type: ignore[arg-type]
    assert isinstance(state.phase, Lagging) and state.status == "lag"
    state, effects = run(state, Request(ANA, m.LagShot(id=3, speed=2.0)))  # type: ignore[arg-type]
    assert kinds(effects)[:1] == ["Save"] and sent(effects, ANA) == [m.Ok(id=3)]
    # The second lag shot is simulated before anything is stored or answered.
    state, effects = run(state, Request(BO, m.LagShot(id=4, speed=2.0)))  # type: ignore[arg-type]
    assert kinds(effects) == ["Simulate"] and len(effects[0].jobs) == 2  # type: ignore[union-attr]
    state, effects = run(state, simulate(effects))
    assert effects[0].__class__ is Save and sent(effects, BO) == [m.Ok(id=4)]
    (lag, _) = broadcast(effects)
    assert isinstance(lag, m.LagResult) and lag.method == "lag"
    # Mirror-image lags from the two halves of the table go the same distance: a tie.
    assert lag.winner is None and isinstance(state.phase, Lagging) and not state.phase.shots


def test_the_lag_winner_chooses_and_the_choice_times_out_to_the_winner_breaking() -> None:
    state = seated()
    for who in (ANA, BO):
        state, _ = run(state, Request(who, m.Ready(id=2)))  # type: ignore[arg-type]
    state, _ = run(state, Request(ANA, m.LagShot(id=3, speed=2.2)))  # type: ignore[arg-type]
    state, effects = run(state, Request(BO, m.LagShot(id=4, speed=1.6)))  # type: ignore[arg-type]
    state, effects = run(state, simulate(effects))
    assert isinstance(state.phase, Choosing)
    winner = state.phase.winner
    (timer,) = [e for e in effects if isinstance(e, StartTimer)]
    assert timer.timer == LagChoiceOut() and timer.delay > 30.0  # animation + 30 s
    # Everyone's view says when the choice's time runs out (run's wall time is 1000 s).
    view = snapshots.view(state, 1000.0)
    assert view.lag_choice == winner
    assert view.lag_choice_until == int((1000.0 + timer.delay) * 1000)
    # A room brought back gives the whole time again, from then.
    restored = snapshots.restore(snapshots.record(state, 1000.0), state.limits, 2000.0).state
    assert snapshots.view(restored, 2000.0).lag_choice_until == 2_030_000
    loser = BO if winner == 0 else ANA
    with pytest.raises(TableError) as refused:
        run(state, Request(loser, m.LagChoice(id=5, choice="break")))  # type: ignore[arg-type]
    assert refused.value.code == errors.NOT_YOUR_TURN
    # A choice made in time is not late.
    _, effects = run(state, Request(ANA if winner == 0 else BO, m.LagChoice(id=6, choice="give")))  # type: ignore[arg-type]
    (ruling,) = [e for e in broadcast(effects) if isinstance(e, m.Ruling)]
    assert ruling.action == "lag_choice" and ruling.late is False
    state, effects = run(state, TimerFired(LagChoiceOut()))
    assert isinstance(state.phase, Playing)
    assert state.phase.table.state.turn == str(winner)
    assert CancelTimer(LagChoiceOut()) in effects
    # The ruling says the time chose, not the winner.
    (ruling,) = [e for e in broadcast(effects) if isinstance(e, m.Ruling)]
    assert (ruling.action, ruling.by, ruling.late) == ("lag_choice", winner, True)


def test_a_shot_is_simulated_then_stored_then_answered() -> None:
    state = playing(shot_clock=30)
    shot = m.Shot(id=9, angle=0.0, speed=9.0)
    state, effects = run(state, Request(ANA, shot))  # type: ignore[arg-type]
    assert kinds(effects) == ["Simulate"]
    assert state.pending is not None
    state, effects = run(state, simulate(effects), now=1001.0)
    assert isinstance(effects[0], Save) and state.pending is None
    assert sent(effects, ANA) == [m.Ok(id=9)]
    result = broadcast(effects)[0]
    assert isinstance(result, m.ShotResult) and result.shooter == 0
    assert effects[0].events[0] == result
    assert state.shots == 1 and state.inflight is not None
    # The next turn's clock starts once the shot has played out.
    starts = {e.timer: e.delay for e in effects if isinstance(e, StartTimer)}
    assert starts[ClockOut()] == pytest.approx(result.duration + 30.0)
    assert starts[ClockWarning()] == pytest.approx(result.duration + 20.0)


def test_a_player_who_goes_has_a_grace_period_then_forfeits_the_game() -> None:
    state = playing(shot_clock=30)
    state, effects = run(state, Gone(ANA))  # type: ignore[arg-type]
    assert StartTimer(Grace(0), 60.0) in effects
    assert state.seats[0] is not None and state.seats[0].member is None
    assert isinstance(state.phase, Playing) and state.phase.clock.deadline is None
    assert state.phase.clock.left is not None  # paused, not lost
    state, effects = run(state, TimerFired(Grace(0)), now=1061.0)
    ruling = broadcast(effects)[0]
    assert isinstance(ruling, m.Ruling) and ruling.action == "forfeit"
    assert StartTimer(Grace(0), 60.0) in effects  # O5 "game": a new grace period
    assert isinstance(state.phase, Playing) and state.phase.table.state.score == (0, 1)


def test_a_returning_player_gets_the_seat_and_the_clock_back() -> None:
    state = playing(shot_clock=30)
    assert isinstance(state.phase, Playing) and state.phase.clock.deadline is not None
    left = state.phase.clock.deadline - 1010.0
    state, effects = run(state, Gone(ANA), now=1010.0)  # type: ignore[arg-type]
    # Everyone else is told the shooter's clock stopped, with the time it keeps.
    (away,) = broadcast(effects)
    assert isinstance(away, m.Presence) and away.clock is not None
    assert away.clock.paused and away.clock.deadline is None
    assert away.clock.left == pytest.approx(left)
    again = Person("p-ana", "Ana")
    state, effects = run(state, Reattach(again), now=1040.0)  # type: ignore[arg-type]
    assert CancelTimer(Grace(0)) in effects and Bind(again) in effects  # type: ignore[arg-type]
    assert state.seats[0] is not None and state.seats[0].member is again
    assert isinstance(state.phase, Playing) and state.phase.clock.deadline is not None
    # ... and that it runs again from there: the time away is not counted, nor given.
    (back,) = broadcast(effects)
    assert isinstance(back, m.Presence) and back.clock is not None and not back.clock.paused
    assert back.clock.deadline == int((1040.0 + left) * 1000) and back.clock.left is None
    # The player who is not to shoot goes and comes back: their presence says no clock.
    state, effects = run(state, Gone(BO), now=1041.0)  # type: ignore[arg-type]
    (other,) = broadcast(effects)
    assert isinstance(other, m.Presence) and other.clock is None


def test_the_last_one_out_closes_the_room() -> None:
    state = playing()
    state, effects = run(state, Request(ANA, m.Leave(id=20)))  # type: ignore[arg-type]
    assert isinstance(state.phase, Finished)  # leaving a running match concedes it (O4)
    assert SeatFreed("p-ana") in effects and Unbind(ANA) in effects  # type: ignore[arg-type]
    state, effects = run(state, Request(BO, m.Leave(id=21)))  # type: ignore[arg-type]
    assert state.closed and Close(retire=False) in effects
    assert isinstance(effects[0], Save) and effects[0].record.closed


def test_the_lobby_entry_of_a_match_left_names_its_winner_and_who_conceded() -> None:
    state = playing()
    assert snapshots.info(state).winner is None and snapshots.info(state).ended_by is None
    # Leaving a running match concedes it (O4), and frees the seat at once.
    state, _ = run(state, Request(ANA, m.Leave(id=20)))  # type: ignore[arg-type]
    info = snapshots.info(state)
    assert info.players == ["Bo"]
    assert (info.winner, info.loser, info.ended_by) == ("Bo", "Ana", "concede")
    # Where the winner sat, which orders the score (Ana's seat is empty now).
    bo_seat = next(i for i, s in enumerate(state.seats) if s is not None and s.name == "Bo")
    assert info.winner_seat == bo_seat
    # A room brought back from its record still names them.
    record = decode_record(msgspec.msgpack.encode(snapshots.record(state, 1001.0)))
    restored = snapshots.restore(record, Limits(grace=60.0), 2000.0).state
    info = snapshots.info(restored)
    assert (info.winner, info.loser, info.ended_by) == ("Bo", "Ana", "concede")
    assert info.winner_seat == bo_seat


def test_quick_match_seats_both_ready_and_starts() -> None:
    state, effects = run(room(), SeatPair((ANA, 5), (BO, 6)))  # type: ignore[arg-type]
    assert [e for e in effects if isinstance(e, SeatTaken)] == [
        SeatTaken("p-ana"),
        SeatTaken("p-bo"),
    ]
    assert isinstance(state.phase, Lagging)


def test_shutdown_pauses_the_clock_saves_and_closes_everyone() -> None:
    state = playing(shot_clock=30)
    state, effects = run(state, Enter(EVE, 4, "spectator"))  # type: ignore[arg-type]
    state, effects = run(state, Shutdown(None), now=1010.0)  # type: ignore[arg-type]
    assert isinstance(effects[0], Save) and effects[0].record.clock_left == pytest.approx(20.0)
    closed = [e.member for e in effects if isinstance(e, CloseMember)]
    assert closed == [ANA, BO, EVE] and isinstance(effects[-1], Stop)


def test_a_record_round_trips_through_restore() -> None:
    state = playing(shot_clock=30)
    record = snapshots.record(state, 1005.0)
    restored = snapshots.restore(record, Limits(grace=60.0), 2000.0)
    again = snapshots.record(restored.state, 2000.0)
    assert again.table == record.table and again.seq == record.seq
    assert again.clock_left == pytest.approx(25.0)
    assert {t.timer for t in restored.timers} == {Grace(0), Grace(1)}


@pytest.mark.parametrize("name", ["playing", "choosing"])
def test_records_written_before_the_machine_still_load(name: str) -> None:
    """These records were written by the room of the previous version (one class doing
    everything), mid-match and while the lag winner chose."""
    record = decode_record((RECORDS / f"{name}.msgpack").read_bytes())
    restored = snapshots.restore(record, Limits(grace=60.0), 5000.0)
    state = restored.state
    again = snapshots.record(state, 5000.0)
    assert again.table is not None and record.table is not None
    # The referee's state learns the room's shot clock and the extensions the record
    # counted (O3, the referee's to count since); apart from that nothing is lost and
    # nothing invented.
    clock = snapshots.rules_settings(record.settings)
    assert again.table.state.settings.shot_clock == clock.shot_clock
    assert again.table.state.settings.extensions == clock.extensions
    assert again.extensions == record.extensions
    rules_then = msgspec.structs.replace(
        again.table.state,
        settings=record.table.state.settings,
        extensions_used=record.table.state.extensions_used,
    )
    table_then = msgspec.structs.replace(again.table, state=rules_then)
    assert msgspec.structs.replace(again, table=table_then) == record
    if name == "playing":
        assert isinstance(state.phase, Playing) and state.phase.clock.left == 31.5
        assert [s.name for s in state.seats if s is not None] == ["Ana", "Борис"]
        # The saved match goes on: the player to shoot can shoot once back.
        again = Person(state.seats[0].player, "Ana")  # type: ignore[union-attr]
        state, _ = run(state, Reattach(again))  # type: ignore[arg-type]
        state, effects = run(state, Request(again, m.Shot(id=1, angle=0.3, speed=3.0)))  # type: ignore[arg-type]
        assert kinds(effects) == ["Simulate"]
    else:
        assert isinstance(state.phase, Choosing) and state.phase.winner == 1
        assert StartTimer(LagChoiceOut(), 30.0) in restored.timers


def test_aim_previews_are_relayed_at_most_once_per_interval() -> None:
    state = playing()
    aim = m.Aim(id=1, angle=0.1, speed=2.0)
    state, effects = run(state, Request(ANA, aim), now=1000.0)  # type: ignore[arg-type]
    assert kinds(effects) == ["Relay"]
    state, effects = run(state, Request(ANA, aim), now=1000.01)  # type: ignore[arg-type]
    assert kinds(effects) == ["StartTimer"]
    state, effects = run(state, Request(ANA, aim), now=1000.02)  # type: ignore[arg-type]
    assert effects == []  # the newest waits for the flush already set
    state, effects = run(state, TimerFired(AimFlush()), now=1000.05)
    assert kinds(effects) == ["Relay"] and effects[0].message.angle == 0.1  # type: ignore[union-attr]


def test_a_tournament_matchs_seats_are_kept_for_its_players_from_the_stands_too() -> None:
    """`sit` from the stands as `enter` as a player: each seat is its player's only."""
    state = room(reserved=("p-bo", "p-ana"))
    for person in (EVE, ANA):
        state, _ = run(state, Enter(person, 3, "spectator"))  # type: ignore[arg-type]
    before = snapshots.record(state, 0.0)
    for seat in (None, 0, 1):
        with pytest.raises(TableError) as refused:
            run(state, Request(EVE, m.Sit(id=4, seat=seat)))  # type: ignore[arg-type]
        assert refused.value.code == errors.ROOM_FULL
    with pytest.raises(TableError) as refused:
        run(state, Request(ANA, m.Sit(id=5, seat=0)))  # type: ignore[arg-type]
    assert refused.value.code == errors.SEAT_TAKEN  # Bo's seat
    assert snapshots.record(state, 0.0) == before
    state, effects = run(state, Request(ANA, m.Sit(id=6)))  # type: ignore[arg-type]
    joined = sent(effects, ANA)[0]
    assert isinstance(joined, m.Joined) and (joined.role, joined.seat) == ("player", 1)
    assert (
        state.seats[1] is not None and state.seats[1].player == "p-ana" and state.seats[0] is None
    )


def test_a_walkover_gives_the_player_who_came_the_match_and_nothing_else() -> None:
    """The tournament forfeits a no-show; the room tells the player waiting at it."""
    state = room(reserved=("p-ana", "p-bo"), race_to=3)
    state, _ = run(state, Enter(ANA, 3, "player"))  # type: ignore[arg-type]
    # Not for a seat that is no seat, nor a room that is not a tournament's.
    assert run(state, Walkover(2))[1] == []
    assert run(room(race_to=3), Walkover(1))[1] == []
    # The bracket's word is final: Ana, seated after her time ran out (as the walkover was
    # on its way), is told she lost the match.
    late, effects = run(state, Walkover(0))
    over = next(e for e in broadcast(effects) if isinstance(e, m.MatchOver))
    assert isinstance(late.phase, Finished) and (over.winner, over.reason) == (1, "forfeit")
    state, effects = run(state, Walkover(1))
    assert isinstance(state.phase, Finished)
    events = broadcast(effects)
    ruling, over = events[0], next(e for e in events if isinstance(e, m.MatchOver))
    assert isinstance(ruling, m.Ruling) and (ruling.action, ruling.by) == ("forfeit", 1)
    assert (over.winner, over.reason) == (0, "forfeit")
    assert isinstance(effects[0], Save) and effects[0].record.status == "finished"
    assert not [e for e in effects if isinstance(e, Report)]  # no rating moves
    assert run(state, Walkover(1))[1] == []  # once only


def test_a_table_neither_player_came_to_ends_with_the_brackets_result() -> None:
    """Neither came: the bracket sends the better seed on, and the room is told the same
    (the other seat absent). Its match ends so, for whoever watches, and the room closes
    once nobody does — at once when nobody is there. (Left waiting, its kept seats called
    both players to it, and a match begun there named its own winner.)"""
    state, effects = run(room(reserved=("p-ana", "p-bo"), race_to=3), Walkover(1))
    assert isinstance(state.phase, Finished) and state.closed
    assert isinstance(effects[-1], Close) and effects[-1].retire  # its record says how
    assert not [e for e in effects if isinstance(e, Report)]  # no rating moves
    # Watched: the spectator is told, and the room stays until they go; the lobby names
    # who went on by the name the seat was kept under.
    kept = replace(room(reserved=("p-ana", "p-bo"), race_to=3), kept_names=("Ana", "Bo"))
    state, _ = run(kept, Enter(EVE, 3, "spectator"))  # type: ignore[arg-type]
    state, effects = run(state, Walkover(1))
    over = next(e for e in broadcast(effects) if isinstance(e, m.MatchOver))
    assert (over.winner, over.reason) == (0, "forfeit") and not state.closed
    listed = snapshots.info(state)
    assert (listed.winner, listed.loser, listed.ended_by) == ("Ana", "Bo", "forfeit")
    with pytest.raises(TableError):
        run(state, Request(EVE, m.Sit(id=4)))  # type: ignore[arg-type]
    state, effects = run(state, Gone(EVE))  # type: ignore[arg-type]
    assert state.closed and isinstance(effects[-1], Close)


def finished_tournament_room() -> RoomState:
    """A tournament's room whose one match is over (a walkover), its winner still there."""
    state = room(reserved=("p-ana", "p-bo"), race_to=3)
    state, _ = run(state, Enter(ANA, 3, "player"))  # type: ignore[arg-type]
    state, _ = run(state, Walkover(1))
    assert isinstance(state.phase, Finished)
    return state


def test_a_player_come_after_the_match_was_forfeited_watches_how_it_ended() -> None:
    """Bo comes to the table after his no-show time ran out and the match went to Ana: he
    is not seated in the match over (the log said he lost by not coming, then that he sat
    down); he sees it as anyone watching does."""
    state, effects = run(finished_tournament_room(), Enter(BO, 7, "player"))  # type: ignore[arg-type]
    joined = sent(effects, BO)[0]
    assert isinstance(joined, m.Joined) and (joined.role, joined.seat) == ("spectator", None)
    assert state.seats[1] is None and BO in state.spectators
    assert not [e for e in effects if isinstance(e, SeatTaken)]


def test_a_player_leaving_a_tournament_room_whose_match_is_over_keeps_no_seat() -> None:
    """Nothing to come back to: the seat is freed at once and the empty room closes, so
    the lobby does not put its player back at this table instead of the next match's."""
    state, effects = run(finished_tournament_room(), Gone(ANA))  # type: ignore[arg-type]
    assert state.seats == (None, None)
    assert [e.player for e in effects if isinstance(e, SeatFreed)] == ["p-ana"]
    assert not [e for e in effects if isinstance(e, StartTimer)]  # no grace period
    assert state.closed and isinstance(effects[-1], Close) and effects[-1].retire
    # An ordinary room's finished match keeps the seat for the grace period (O5).
    state = playing(race_to=1)
    state, effects = run(state, Request(ANA, m.Concede(id=9, what="match")))  # type: ignore[arg-type]
    assert isinstance(state.phase, Finished)
    state, effects = run(state, Gone(ANA))  # type: ignore[arg-type]
    assert state.seats[0] is not None and state.seats[0].member is None
    assert [e.timer for e in effects if isinstance(e, StartTimer)] == [Grace(0)]


def test_a_restored_tournament_room_whose_match_is_over_gives_no_grace() -> None:
    """After a restart the same holds: its grace periods end at once, then it closes."""
    record = snapshots.record(finished_tournament_room(), 1000.0)
    restored = snapshots.restore(record, Limits(grace=60.0), 2000.0)
    assert [(t.timer, t.delay) for t in restored.timers] == [(Grace(0), 0.0)]
    state, effects = run(restored.state, TimerFired(Grace(0)), now=2000.0)
    assert state.seats == (None, None) and state.closed
    assert [e.player for e in effects if isinstance(e, SeatFreed)] == ["p-ana"]
    # A finished match in an ordinary room: every seat keeps the whole grace period.
    state = playing(race_to=1)
    state, _ = run(state, Request(ANA, m.Concede(id=9, what="match")))  # type: ignore[arg-type]
    restored = snapshots.restore(snapshots.record(state, 1000.0), Limits(grace=60.0), 2000.0)
    assert {(t.timer, t.delay) for t in restored.timers} == {(Grace(0), 60.0), (Grace(1), 60.0)}


def test_a_match_left_during_its_lag_is_not_counted_and_the_next_start_is_it_again() -> None:
    """A player leaving during the lag sends the room back to waiting with no match played
    (no `match_over`): the count of matches (`view.match`, which a replay's rack and match
    links name) does not move, so the match that is played next is still match 1."""
    state = seated()
    state, _ = run(state, Request(ANA, m.Ready(id=2)))  # type: ignore[arg-type]
    state, effects = run(state, Request(BO, m.Ready(id=2)))  # type: ignore[arg-type]
    assert isinstance(state.phase, Lagging) and state.match == 1
    state, effects = run(state, Request(BO, m.Leave(id=3)))  # type: ignore[arg-type]
    assert state.status == "waiting" and state.match == 0
    assert not any(isinstance(e, m.MatchOver) for e in broadcast(effects))
    state, _ = run(state, Enter(EVE, 4, "player"))  # type: ignore[arg-type]
    state, _ = run(state, Request(ANA, m.Ready(id=5)))  # type: ignore[arg-type]
    state, effects = run(state, Request(EVE, m.Ready(id=5)))  # type: ignore[arg-type]
    assert isinstance(state.phase, Lagging) and state.match == 1
    snapshots = [e for e in broadcast(effects) if isinstance(e, m.Snapshot)]
    assert snapshots[-1].view.status == "lag" and snapshots[-1].view.match == 1


def test_a_newcomer_hears_who_sat_where_when_even_under_a_name_sat_under_before() -> None:
    """`Recent.seating`: the snapshots at which who sat changed, so a late joiner names
    each line as it was written — another player under a name sat under before too."""
    state = seated()
    state, _ = run(state, Request(BO, m.Leave(id=5)))  # type: ignore[arg-type]
    other = Person("p-bo-2", "Bo")
    state, _ = run(state, Enter(other, 6, "player"))  # type: ignore[arg-type]
    recent = state.history.wire()
    assert recent is not None
    seats = [[None if s is None else s.player for s in snap.view.seats] for snap in recent.seating]
    assert seats == [["p-ana", None], ["p-ana", "p-bo"], ["p-ana", None], ["p-ana", "p-bo-2"]]
    # A ready toggle (no new seat) adds none.
    state, _ = run(state, Request(ANA, m.Ready(id=7, ready=False)))  # type: ignore[arg-type]
    again = state.history.wire()
    assert again is not None and len(again.seating) == 4
