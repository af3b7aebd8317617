"""What the room machine stores and what it only sends: ready toggles and spectators are
broadcast only (no save, no new seq), the spectator count is paced, the log has a cap,
and the room remembers who held its seats (who may read a private room's replay)."""

from __future__ import annotations

import dataclasses

from protocol import messages as m
from server.rooms import snapshots
from server.rooms.model import CrowdFlush, Limits, Save, StartTimer, TimerFired
from server.rooms.seams import Enter, Gone, Request
from tests.rooms.test_machine import ANA, BO, EVE, Person, broadcast, kinds, room, run, seated


def test_a_ready_toggle_is_sent_not_stored() -> None:
    state = seated()
    before = state.seq
    state, effects = run(state, Request(ANA, m.Ready(id=2)))  # type: ignore[arg-type]
    assert not any(isinstance(e, Save) for e in effects)
    (snapshot,) = broadcast(effects)
    assert isinstance(snapshot, m.Snapshot) and snapshot.seq == before == state.seq
    assert snapshot.view.seats[0] is not None and snapshot.view.seats[0].ready
    state, effects = run(state, Request(ANA, m.Ready(id=3, ready=False)))  # type: ignore[arg-type]
    assert not any(isinstance(e, Save) for e in effects) and state.seq == before
    # Both ready is the match starting: that is stored, from the next seq on.
    state, _ = run(state, Request(ANA, m.Ready(id=4)))  # type: ignore[arg-type]
    state, effects = run(state, Request(BO, m.Ready(id=5)))  # type: ignore[arg-type]
    save = effects[0]
    assert isinstance(save, Save) and [e.seq for e in save.events] == [before + 1, before + 2]  # type: ignore[attr-defined]


def test_spectators_are_counted_at_most_once_per_interval_and_never_stored() -> None:
    state = seated()
    seq = state.seq
    fans = [Person(f"p-fan{n}", f"Fan{n}") for n in range(3)]
    state, effects = run(state, Enter(fans[0], 9, "spectator"), now=100.0)  # type: ignore[arg-type]
    assert not any(isinstance(e, Save) for e in effects)
    assert broadcast(effects) == [m.Spectators(room="room1", count=1)]  # the first at once
    state, effects = run(state, Enter(fans[1], 9, "spectator"), now=100.2)  # type: ignore[arg-type]
    (timer,) = [e for e in effects if isinstance(e, StartTimer)]
    assert broadcast(effects) == [] and timer.timer == CrowdFlush()
    assert abs(timer.delay - 0.8) < 1e-9
    state, effects = run(state, Enter(fans[2], 9, "spectator"), now=100.4)  # type: ignore[arg-type]
    assert effects and broadcast(effects) == [] and "StartTimer" not in kinds(effects)
    state, effects = run(state, Gone(fans[0]), now=100.6)  # type: ignore[arg-type]
    assert broadcast(effects) == [] and not any(isinstance(e, Save) for e in effects)
    state, effects = run(state, TimerFired(CrowdFlush()), now=101.0)
    assert broadcast(effects) == [m.Spectators(room="room1", count=2)]  # the newest count
    # Back where it was when last told: nothing to say.
    state, _ = run(state, Gone(fans[1]), now=101.1)  # type: ignore[arg-type]
    state, _ = run(state, Enter(fans[1], 9, "spectator"), now=101.2)  # type: ignore[arg-type]
    state, effects = run(state, TimerFired(CrowdFlush()), now=102.0)
    assert broadcast(effects) == []
    assert state.seq == seq  # no seq was taken by any of it


def test_the_log_keeps_at_most_its_cap_and_chat_a_quarter_of_it() -> None:
    state = dataclasses.replace(seated(), limits=Limits(log_max=12))
    assert state.logged == 2  # the two seats taken
    stored: list[int] = []
    sent: list[int] = []
    for n in range(10):
        state, effects = run(state, Request(ANA, m.Chat(id=n + 10, text=f"hi {n}")))  # type: ignore[arg-type]
        save = effects[0]
        assert isinstance(save, Save) and save.record.seq == state.seq  # always saved
        stored += [e.seq for e in save.events]  # type: ignore[attr-defined]
        sent += [e.seq for e in broadcast(effects)]  # type: ignore[attr-defined]
    assert sent == list(range(3, 13))  # everyone present heard every line
    assert stored == [3, 4, 5]  # chat may fill 12 // 4 of the log
    assert (state.logged, state.chat_logged) == (5, 3)
    # Game events fill the rest, then nothing more is logged.
    for n in range(10):
        state, effects = run(state, Request(ANA, m.Ready(id=n, ready=n % 2 == 0)))  # type: ignore[arg-type]
        state, effects = run(state, Enter(EVE, 40 + n, "spectator"))  # type: ignore[arg-type]
        state, effects = run(state, Gone(EVE))  # type: ignore[arg-type]
    assert state.logged == 5  # toggles and spectators took none of it
    record = snapshots.record(state, 0.0)
    assert (record.logged, record.chat_logged) == (5, 3)
    restored = snapshots.restore(record, Limits(log_max=12), 0.0).state
    assert (restored.logged, restored.chat_logged) == (5, 3)


def test_the_room_remembers_who_held_its_seats() -> None:
    state = room(private=True)
    state, _ = run(state, Enter(ANA, 1, "player"))  # type: ignore[arg-type]
    state, _ = run(state, Enter(BO, 1, "player"))  # type: ignore[arg-type]
    state, _ = run(state, Request(BO, m.Leave(id=2)))  # type: ignore[arg-type]
    state, _ = run(state, Enter(EVE, 1, "player"))  # type: ignore[arg-type]
    assert state.seated == ("p-ana", "p-bo", "p-eve")
    assert snapshots.record(state, 0.0).seated == ["p-ana", "p-bo", "p-eve"]
