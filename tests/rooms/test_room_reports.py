"""What a room reports when a rack and a match end, driven through the pure machine.

The shots are the real physics (pure); the results are the `Report` effects after the
step's `Save`, and the record keeps them (and the rack in play) for a room brought back.
"""

from __future__ import annotations

from typing import Any

import msgspec

from protocol import messages as m
from server.players.results import MatchResult, RackResult
from server.rooms import snapshots
from server.rooms.model import Effect, Report, RoomState, Save, Simulated
from server.rooms.seams import Rated, Rating, Request
from server.rooms.table import player_seat
from tests.rooms.test_machine import ANA, BO, Person, kinds, playing, run, simulate
from tests.server import scripting


def table_of(state: RoomState) -> m.TableView:
    return snapshots.table_view_of(state, 1000.0)


def shoot(state: RoomState, who: Person, message: dict[str, Any]) -> tuple[RoomState, list[Effect]]:
    shot = m.Shot(
        id=9,
        angle=float(message["angle"]),
        speed=float(message["speed"]),
        push_out=bool(message.get("push_out", False)),
    )
    state, effects = run(state, Request(who, shot))  # type: ignore[arg-type]
    return run(state, simulate(effects))


def place(state: RoomState, who: Person) -> RoomState:
    table = table_of(state)
    spot = scripting.free_spot(table, kitchen=table.ball_in_hand == "kitchen")
    state, _ = run(state, Request(who, m.Place(id=8, pos=spot)))  # type: ignore[arg-type]
    return state


def three_fouls(state: RoomState) -> tuple[RoomState, list[Effect], Person, int]:
    """Break, then the player to shoot after the break fouls three times in a row (R13)
    while the other plays safe; the last step's effects, the fouler and their fouls."""
    people = (ANA, BO)
    state, effects = shoot(state, ANA, scripting.break_shot(table_of(state)))
    fouler: Person | None = None
    for _ in range(20):
        table = table_of(state)
        if state.table is None or state.table.state.rack != 1 or table.match_over:
            break
        turn = table.turn
        assert turn is not None
        shooter = people[turn]
        if table.choice_pending:
            state, effects = run(state, Request(shooter, m.Choose(id=7, choice="shoot")))  # type: ignore[arg-type]
            continue
        if fouler is None:
            fouler = shooter
        if table.ball_in_hand is not None:
            state = place(state, shooter)
            table = table_of(state)
        if shooter is fouler:
            plan = scripting.plan_foul(table)
        else:
            plan = scripting.plan_legal(table, "miss")
        state, effects = shoot(state, shooter, plan.message())
    assert fouler is not None
    return state, effects, fouler, 3


def reports(effects: list[Effect]) -> list[RackResult | MatchResult]:
    return [e.result for e in effects if isinstance(e, Report)]


def test_a_rated_rack_and_match_won_on_three_fouls_are_reported_after_the_save() -> None:
    state, effects, fouler, fouls = three_fouls(playing(race_to=1, rated=True))
    names = kinds(effects)
    assert names[0] == "Save" and names.count("Report") == 2
    assert all(names.index("Save") < i for i, k in enumerate(names) if k == "Report")
    rack, match = reports(effects)
    winner = BO if fouler is ANA else ANA
    assert isinstance(rack, RackResult) and isinstance(match, MatchResult)
    assert (rack.room, rack.match, rack.rack) == ("room1", 1, 1)
    assert rack.winner == winner.player and rack.loser == fouler.player
    assert rack.ended_by == "three_fouls" and rack.rated
    assert rack.breaker == ANA.player  # Ana broke (the draw's winner chose to)
    assert rack.fouls[str(fouler.player)] == fouls
    assert rack.fouls[str(winner.player)] == 0
    assert not rack.break_and_run and not rack.nine_on_break
    assert rack.at == 1_000_000
    assert match.players == (ANA.player, BO.player)
    assert match.winner == winner.player and match.ended_by == "race" and match.rated
    assert match.score == ((1, 0) if winner is ANA else (0, 1))
    # The record holds both, for a room brought back (they are handed over again there).
    (save,) = [e for e in effects if isinstance(e, Save)]
    assert save.record.rack_reports == [rack] and save.record.match_reports == [match]
    restored = snapshots.restore(save.record, state.limits, 2000.0).state
    assert restored.reports == (rack, match)


def test_an_unrated_room_reports_too_and_the_service_leaves_it_out() -> None:
    _, effects, _, _ = three_fouls(playing(race_to=1))
    rack, match = reports(effects)
    assert isinstance(rack, RackResult) and not rack.rated
    assert isinstance(match, MatchResult) and not match.rated


def test_a_conceded_rack_is_reported_as_conceded() -> None:
    state = playing(race_to=2, rated=True)
    state, effects = run(state, Request(BO, m.Concede(id=5, what="game")))  # type: ignore[arg-type]
    (rack,) = reports(effects)
    assert isinstance(rack, RackResult)
    assert rack.ended_by == "concede" and rack.winner == ANA.player and rack.loser == BO.player
    assert rack.breaker == ANA.player
    assert kinds(effects)[0] == "Save"


def test_a_match_conceded_with_its_rack_under_way_reports_that_rack_conceded() -> None:
    """Conceding the match is no way out of a rack about to be lost: the rack under way
    (its break struck) is reported as a game conceded, then the match."""
    state = playing(race_to=3, rated=True)
    state, _ = shoot(state, ANA, scripting.break_shot(table_of(state)))
    state, effects = run(state, Request(BO, m.Concede(id=6, what="match")))  # type: ignore[arg-type]
    rack, match = reports(effects)
    assert isinstance(rack, RackResult) and isinstance(match, MatchResult)
    assert rack.ended_by == "concede" and rack.rack == 1
    assert (rack.winner, rack.loser) == (ANA.player, BO.player)
    assert match.ended_by == "concede" and match.winner == ANA.player


def test_a_match_conceded_before_its_break_reports_no_rack() -> None:
    """Before the break no game is under way (R15): the match alone is reported."""
    state = playing(race_to=3, rated=True)
    state, effects = run(state, Request(BO, m.Concede(id=7, what="match")))  # type: ignore[arg-type]
    (match,) = reports(effects)
    assert isinstance(match, MatchResult) and match.ended_by == "concede"


def test_the_rack_in_play_survives_a_restore() -> None:
    state = playing(race_to=1, rated=True)
    state, _ = shoot(state, ANA, scripting.break_shot(table_of(state)))
    table = table_of(state)
    turn = table.turn
    assert turn is not None and state.table is not None
    shooter = (ANA, BO)[turn]
    if table.ball_in_hand is not None:
        state = place(state, shooter)
    state, effects = shoot(state, shooter, scripting.plan_foul(table_of(state)).message())
    (save,) = [e for e in effects if isinstance(e, Save)]
    assert save.record.tally is not None
    assert save.record.tally.fouls[turn] >= 1 and save.record.tally.breaker == 0
    restored = snapshots.restore(save.record, state.limits, 2000.0).state
    assert restored.tally == state.tally
    assert player_seat(state.table.state.breaker) == 0


def test_a_rating_is_shown_next_to_the_seat_without_a_save() -> None:
    state = playing(rated=True)
    state, effects = run(state, Rated((Rating(str(BO.player), 612, True),)))
    assert kinds(effects) == ["Broadcast"]
    view = snapshots.view(state, 1000.0)
    seat = view.seats[1]
    assert seat is not None and seat.rating == 612 and seat.provisional
    assert snapshots.info(state).ratings == [None, 612]
    # The same again changes nothing; a stranger's rating is not for this room.
    assert run(state, Rated((Rating(str(BO.player), 612, True),)))[1] == []
    assert run(state, Rated((Rating("p-nobody", 700, False),)))[1] == []


def crafted(
    state: RoomState, who: Person, pocketed: tuple[int, ...]
) -> tuple[RoomState, list[Effect]]:
    """`who` shoots at the lowest ball; the physics' answer is taken as it is but for
    `pocketed`, which drop (the referee judges what it is told, as from any shot)."""
    table = table_of(state)
    shot = m.Shot(id=9, angle=0.0, speed=8.0)
    state_after, effects = run(state, Request(who, shot))  # type: ignore[arg-type]
    (real,) = simulate(effects).results
    lowest = table.lowest
    final = {**real.final, **{ball: None for ball in pocketed}}
    if final.get(0) is None:
        final[0] = (0.5, 0.5)  # the cue ball stays up
    result = msgspec.structs.replace(
        real,
        final=final,
        first=lowest,
        pocketed=pocketed,
        off_table=(),
        rails=(),  # a ball pocketed: no cushion needed (R4, R8)
    )
    return run(state_after, Simulated((result,)))


def test_a_nine_on_the_break_is_a_break_and_run_and_a_nine_on_the_break() -> None:
    state = playing(race_to=1, rated=True)
    _, effects = crafted(state, ANA, (9,))
    rack, match = reports(effects)
    assert isinstance(rack, RackResult) and isinstance(match, MatchResult)
    assert rack.winner == ANA.player and rack.breaker == ANA.player
    assert rack.ended_by == "nine" and rack.nine_on_break and rack.break_and_run
    assert rack.fouls == {ANA.player: 0, BO.player: 0}


def test_a_break_and_run_without_the_nine_on_the_break() -> None:
    state = playing(race_to=2, rated=True)
    state, effects = crafted(state, ANA, (2,))  # a ball down on the break: Ana shoots on
    assert not reports(effects) and table_of(state).turn == 0
    _, effects = crafted(state, ANA, (9,))  # the 9 made off the 1: the rack is Ana's
    (rack,) = reports(effects)
    assert isinstance(rack, RackResult)
    assert rack.winner == ANA.player and rack.ended_by == "nine"
    assert rack.break_and_run and not rack.nine_on_break


def test_a_racks_two_new_ratings_are_shown_in_one_snapshot() -> None:
    """After a rated rack both players' ratings move: one snapshot says both, so no one
    sees the winner's new rating beside the loser's old one; one of them changed, still
    one; neither, none."""
    state = playing(rated=True)
    both = Rated((Rating(str(ANA.player), 524, True), Rating(str(BO.player), 476, True)))
    state, effects = run(state, both)
    assert kinds(effects) == ["Broadcast"]
    assert snapshots.info(state).ratings == [524, 476]
    one = Rated((Rating(str(ANA.player), 530, True), Rating(str(BO.player), 476, True)))
    state, effects = run(state, one)
    assert kinds(effects) == ["Broadcast"] and snapshots.info(state).ratings == [530, 476]
    assert run(state, one)[1] == []
