"""The room machine with a computer player seated, driven as a pure function: no sockets,
no event loop, no clock. Each state of the machine is reached with a bot in a seat; the
bot's `Think` effects are answered by the real `server.bot.decide` (level 1, the fastest)
and its shots simulated by the real physics, as the room's actor does."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import msgspec
import pytest

from protocol import messages as m
from server.bot import LagChoice, decide
from server.bot import Shot as BotShot
from server.rooms import snapshots
from server.rooms.bots import Aiming, BotMember, BotWake, Think, Thought
from server.rooms.machine import step
from server.rooms.model import (
    Broadcast,
    Choosing,
    ClockOut,
    Close,
    Effect,
    Finished,
    Grace,
    Lagging,
    Limits,
    Playing,
    Relay,
    RoomState,
    SeatFreed,
    SeatTaken,
    Send,
    Simulate,
    Simulated,
    StartTimer,
    TimerFired,
    Waiting,
    decode_record,
    new_room,
)
from server.rooms.seams import Enter, Gone, Reattach, Request, SeatBots, Shutdown
from server.rooms.simulation import run_shot
from server.rooms.table import seat_player

NOW = 1000.0


@dataclass(eq=False)
class Person:
    player: str | None
    name: str


ANA, EVE = Person("p-ana", "Ana"), Person("p-eve", "Eve")


def room(**settings: object) -> RoomState:
    limits = Limits(grace=60.0, bot_pause=0.5, exhibition_gap=2.0)
    return new_room("bots1", m.RoomSettings(**settings), 99, None, limits)  # type: ignore[arg-type]


def run(state: RoomState, event: object, now: float = NOW) -> tuple[RoomState, list[Effect]]:
    return step(state, event, now)  # type: ignore[arg-type]


def thinks(effects: list[Effect]) -> list[Think]:
    return [e for e in effects if isinstance(e, Think)]


def broadcast(effects: list[Effect]) -> list[m.ServerMessage]:
    return [ev for e in effects if isinstance(e, Broadcast) for ev in e.events]


def simulated(effects: list[Effect]) -> Simulated:
    (job,) = [e for e in effects if isinstance(e, Simulate)]
    return Simulated(
        tuple(
            run_shot(dict(j.balls), j.shot.angle, j.shot.speed, j.shot.tip, j.shot.elevation, j.lag)
            for j in job.jobs
        )
    )


def answer(think: Think) -> Thought:
    """What the actor posts back: the bot's own decision."""
    decision = None if think.view is None else decide(think.view, think.level, think.seed)
    return Thought(think, decision)


def settle(
    state: RoomState, effects: list[Effect], now: float = NOW
) -> tuple[RoomState, list[Effect], list[m.ServerMessage]]:
    """Carry the bots' turns through until the room waits for the person or the match is
    over: every `Think` answered, every `Simulate` simulated. Returns what was broadcast."""
    heard = broadcast(effects)
    for _ in range(1000):
        if isinstance(state.phase, Finished):
            return state, effects, heard
        if any(isinstance(e, Simulate) for e in effects):
            state, effects = run(state, simulated(effects), now)
        elif thinks(effects):
            (think,) = thinks(effects)
            state, effects = run(state, answer(think), now)
        else:
            return state, effects, heard
        heard += broadcast(effects)
    raise AssertionError("the bot never stopped")


def against_bot(**settings: object) -> tuple[RoomState, list[Effect]]:
    return run(room(**settings), SeatBots((ANA, 5), (None, 1)))


def test_play_the_computer_seats_both_starts_the_lag_and_asks_the_bot() -> None:
    state, effects = against_bot()
    assert isinstance(state.phase, Lagging)
    person, computer = state.seats
    assert person is not None and person.member is ANA and person.bot is None
    assert computer is not None and computer.bot == 1 and isinstance(computer.member, BotMember)
    # Only the person's seat is the lobby's business; the person hears `joined`.
    assert [e.player for e in effects if isinstance(e, SeatTaken)] == ["p-ana"]
    assert any(isinstance(e, Send) and isinstance(e.message, m.Joined) for e in effects)
    (think,) = thinks(effects)
    assert think.seat == 1 and think.kind == "lag" and think.level == 1
    assert think.view is not None and think.view.lag == "shoot"
    assert think.delay == 0.5  # the pace
    # The wire says which seat is a computer, and the lobby entry too.
    view = snapshots.view(state, NOW)
    assert [s.computer for s in view.seats if s is not None] == [None, 1]
    assert snapshots.info(state).computer == [None, 1]
    # The same room asks the same question: seeded from the room's seed and the move.
    _, effects_again = against_bot()
    assert thinks(effects_again) == [think]


def test_every_state_with_a_bot_seated() -> None:
    state, effects = against_bot(race_to=2)
    # Lagging: the bot's lag stroke is played as a client's `lag` would be.
    state, effects = run(state, answer(thinks(effects)[0]))
    assert isinstance(state.phase, Lagging) and state.phase.shot_of(1) is not None
    assert not thinks(effects)  # nothing more to ask until the person lags
    state, effects = run(state, Request(ANA, m.LagShot(id=6, speed=1.9)))
    state, effects = run(state, simulated(effects))
    assert isinstance(state.phase, Choosing | Lagging)
    while isinstance(state.phase, Lagging):  # a tie: the lag again
        state, effects = settle(state, effects)[:2]
        state, effects = run(state, Request(ANA, m.LagShot(id=7, speed=1.9)))
        state, effects = run(state, simulated(effects))
    assert isinstance(state.phase, Choosing)
    if state.phase.winner == 0:
        assert not thinks(effects)
        state, effects = run(state, Request(ANA, m.LagChoice(id=8, choice="give")))
    else:
        (think,) = thinks(effects)
        assert think.kind == "lag_choice"
    # Playing: the bot plays its turns; the person concedes each game on theirs.
    state, effects, heard = settle(state, effects)
    racks = 0
    while isinstance(state.phase, Playing):
        table = state.phase.table.state
        assert table.turn == seat_player(0), "the room waits for the person only on their turn"
        state, effects = run(state, Request(ANA, m.Concede(id=20 + racks, what="game")))
        racks += 1
        state, effects, more = settle(state, effects)
        heard += more
    shots = [e for e in heard if isinstance(e, m.ShotResult)]
    assert any(e.shooter == 1 for e in shots), "the bot shot"
    assert isinstance(state.phase, Finished)
    assert state.phase.table.state.score[1] == 2
    # Finished: the bot plays again when the person asks for a rematch.
    assert not thinks(effects)
    state, effects = run(state, Request(ANA, m.Rematch(id=40)))
    (think,) = thinks(effects)
    assert think.kind == "rematch" and think.view is None
    state, effects = run(state, answer(think))
    assert isinstance(state.phase, Lagging) and state.match == 2


def test_a_computer_that_won_the_lag_chooses_once_its_balls_have_stopped_on_screen() -> None:
    """Its choice (and its break after it) came at its pace from the lag's result, while
    the lag's balls still rolled on screens: the person never saw who had won the lag.
    It chooses at its pace after they have stopped."""
    state, effects = against_bot()
    state, effects = run(state, answer(thinks(effects)[0]))
    # The person's lag dies short of the foot rail (a foul lag): the computer wins it.
    state, effects = run(state, Request(ANA, m.LagShot(id=6, speed=0.4)))
    state, effects = run(state, simulated(effects))
    assert isinstance(state.phase, Choosing) and state.phase.winner == 1
    (result,) = [e for e in broadcast(effects) if isinstance(e, m.LagResult)]
    rolling = max(lag.duration for lag in result.lags)
    assert rolling > 3.0  # a lag's ball goes to the foot rail and back
    (think,) = thinks(effects)
    assert think.kind == "lag_choice"
    assert think.delay == pytest.approx(rolling + 2 * 0.5)


def test_an_answer_to_a_question_no_longer_asked_is_dropped() -> None:
    state, effects = against_bot()
    (think,) = thinks(effects)
    # The person leaves before the bot's lag stroke comes: the room is gone.
    state, effects = run(state, Request(ANA, m.Leave(id=9)))
    assert any(isinstance(e, Close) for e in effects), "a bot keeps no room open for itself"
    assert not any(isinstance(e, SeatFreed) and e.player.startswith("computer") for e in effects)
    stale, none = run(state, answer(think))
    assert none == [] and stale == state


def test_a_decision_that_cannot_be_played_asks_again() -> None:
    state, effects = against_bot()
    (think,) = thinks(effects)
    # No decision came (failed, or took too long): the question is asked again, new seed.
    state, effects = run(state, Thought(think, None))
    (again,) = thinks(effects)
    assert again.attempt == 1 and again.seed != think.seed and again.kind == "lag"


def bot_to_shoot(clock: int | None = None) -> tuple[RoomState, list[Effect]]:
    """A room in play with the bot to break (the draw's winner chose so)."""
    state, effects = against_bot(first_break="draw", shot_clock=clock)
    assert isinstance(state.phase, Choosing)
    if state.phase.winner == 0:
        state, effects = run(state, Request(ANA, m.LagChoice(id=8, choice="give")))
    else:
        (think,) = thinks(effects)
        state, effects = run(state, answer(think))  # the bot breaks
    assert isinstance(state.phase, Playing)
    assert state.phase.table.state.turn == seat_player(1)
    return state, effects


def test_the_shot_clock_runs_for_the_bot_and_its_late_answer_is_dropped() -> None:
    state, effects = bot_to_shoot(clock=30)
    (think,) = thinks(effects)
    assert think.kind == "table" and think.view is not None and think.view.state.is_break
    assert isinstance(state.phase, Playing) and state.phase.clock.deadline is not None
    # The clock runs out before the bot's answer: a foul (O3), the person's turn.
    state, effects = run(state, TimerFired(ClockOut()), NOW + 31)
    assert isinstance(state.phase, Playing)
    assert state.phase.table.state.turn == seat_player(0)
    assert state.thinking is None
    late, none = run(state, answer(think), NOW + 32)
    assert none == [] and late == state


def test_the_person_away_keeps_the_seat_and_a_bot_alone_keeps_no_room() -> None:
    state, effects = bot_to_shoot()
    state, effects = settle(state, effects)[:2]  # the bot plays until the person's turn
    state, effects = run(state, Gone(ANA))
    assert any(isinstance(e, StartTimer) and e.timer == Grace(0) for e in effects)
    assert not thinks(effects)
    state, effects = run(state, Reattach(ANA))
    assert state.seats[0] is not None and state.seats[0].member is ANA
    # The grace period runs out with the person away and nobody but the bot in the room:
    # every game left is forfeited (O5), as in a room nobody is left in.
    state, _ = run(state, Gone(ANA))
    state, effects = run(state, TimerFired(Grace(0)), NOW + 61)
    assert isinstance(state.phase, Finished) and state.phase.table.state.score[1] == 3
    # The person's seat is let go with it, and the bot alone keeps no room open.
    assert state.closed and any(isinstance(e, Close) for e in effects)
    assert not thinks(effects)


def test_a_restored_room_seats_its_bot_and_wakes_it() -> None:
    state, effects = bot_to_shoot(clock=30)
    (think,) = thinks(effects)
    record = decode_record(msgspec.msgpack.encode(snapshots.record(state, NOW)))
    assert [s.bot if s is not None else None for s in record.seats] == [None, 1]
    restored = snapshots.restore(record, state.limits, NOW + 5)
    person, computer = restored.state.seats
    assert person is not None and person.member is None  # the person has the grace period
    assert computer is not None and computer.member == BotMember("computer:1", "Bot 1", 1)
    assert StartTimer(BotWake(), 0.0) in restored.timers
    assert StartTimer(Grace(1), state.limits.grace) not in restored.timers
    # The wake-up runs the bot's paused clock again and asks it the same question.
    assert isinstance(restored.state.phase, Playing)
    assert restored.state.phase.clock.deadline is None
    woken, effects = run(restored.state, TimerFired(BotWake()), NOW + 5)
    assert isinstance(woken.phase, Playing) and woken.phase.clock.deadline is not None
    (again,) = thinks(effects)
    assert again == think


def test_an_exhibition_plays_again_while_watched_and_ends_unwatched() -> None:
    state, effects = run(room(race_to=1, first_break="draw"), SeatBots(None, (2, 1)))
    assert not [e for e in effects if isinstance(e, SeatTaken)]
    asked = thinks(effects)
    state, effects = run(state, Enter(EVE, 3, "spectator"))
    assert not thinks(effects)  # the question stands: it is not asked twice
    state, effects, heard = settle(state, [*effects, *asked])
    assert isinstance(state.phase, Finished)
    assert any(isinstance(e, m.MatchOver) for e in heard)
    # Watched: both bots ask for a rematch (the gap between matches, then the pace).
    (first,) = thinks(effects)
    assert first.kind == "rematch" and first.delay == 2.0
    state, effects = run(state, answer(first))
    (second,) = thinks(effects)
    assert second.delay == 0.5
    state, effects = run(state, answer(second))
    assert state.match == 2 and not isinstance(state.phase, Finished | Waiting)
    asked = thinks(effects)
    # The spectator leaving does not stop the match being played.
    state, effects = run(state, Gone(EVE))
    assert not any(isinstance(e, Close) for e in effects)
    state, effects, _ = settle(state, [*effects, *asked])
    assert isinstance(state.phase, Finished)
    # Nobody watches: the exhibition ends with its match.
    (think,) = thinks(effects)
    state, effects = run(state, answer(think))
    assert state.closed and any(isinstance(e, Close) for e in effects)


def test_shutdown_asks_no_bot() -> None:
    state, effects = bot_to_shoot()
    state, effects = run(state, Shutdown(done=None))  # type: ignore[arg-type]
    assert not thinks(effects)


def test_a_computers_stroke_is_shown_lined_up_before_it_is_played() -> None:
    """Decided before its pace has run out, the computer's stroke is relayed as a person's
    aim (with the cue ball where it will be put down): a spectator and its opponent see
    the shot coming, not a still table and then a shot. Nothing for a stale question,
    nor for a decision that is no stroke; the table itself is unchanged."""
    state, effects = bot_to_shoot()
    (think,) = thinks(effects)
    thought = answer(think)
    assert thought.decision is not None
    aimed, effects = run(state, Aiming(think, thought.decision))
    (relay,) = [e for e in effects if isinstance(e, Relay)]
    shot = thought.decision
    assert isinstance(shot, BotShot)
    assert (relay.message.seat, relay.message.speed) == (1, shot.speed)
    assert relay.message.angle == pytest.approx(math.fmod(shot.angle, 360.0))
    assert relay.message.cue == shot.place and relay.exclude is state.seats[1].member  # type: ignore[union-attr]
    assert aimed.phase == state.phase and aimed.thinking == think
    # The stroke is then played as ever.
    _, effects = run(aimed, thought)
    assert any(isinstance(e, Simulate) for e in effects)
    # A question no longer asked, or a decision that is no stroke: nothing.
    stale = replace(think, attempt=think.attempt + 1)
    assert run(state, Aiming(stale, shot))[1] == []
    assert run(state, Aiming(think, LagChoice("break")))[1] == []
