"""The tournament's pure core: seeding, byes, both brackets, results, forfeits, standings."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from server.tournament.bracket import (
    BY_ORGANISER,
    TOO_FEW,
    assign_room,
    build_matches,
    forfeit,
    new_tournament,
    no_shows,
    organiser_cancels,
    played,
    race_of,
    ready,
    reassign_room,
    register,
    remove,
    report,
    report_player,
    seeding_order,
    slots_among,
    stage_label,
    start,
    unregister,
)
from server.tournament.model import (
    Entrant,
    Races,
    Tournament,
    TournamentError,
    decode_tournament,
    encode_tournament,
)
from server.tournament.simulate import play_out
from server.tournament.standings import champion, standings


def fresh(fmt: str = "double", cap: int = 64, seeding: str = "rating", **kw: object) -> Tournament:
    return new_tournament(
        "t1",
        "Zagreb Open",
        format=fmt,  # type: ignore[arg-type]
        cap=cap,
        races=Races(winners=3, losers=2, final=5),
        seeding=seeding,  # type: ignore[arg-type]
        seed=11,
        starts_at=1000,
        organiser="org",
        **kw,  # type: ignore[arg-type]
    )


def with_players(count: int, fmt: str = "double", seeding: str = "rating") -> Tournament:
    tournament = fresh(fmt, seeding=seeding)
    for number in range(1, count + 1):
        # Player 1 has the best rating, so seeds follow the numbers.
        tournament = register(tournament, Entrant(f"p{number}", f"P{number}", 2000.0 - number))
    return start(tournament)


def names(tournament: Tournament, entrants: list[int | None]) -> list[str | None]:
    return [None if e is None else tournament.entrants[e].name for e in entrants]


def test_standard_seeding_order_keeps_the_top_seeds_apart() -> None:
    assert seeding_order(2) == [1, 2]
    assert seeding_order(4) == [1, 4, 2, 3]
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seeding_order(64)
    assert sorted(order) == list(range(1, 65))
    # Seeds 1 and 2 in opposite halves, 1-4 in different quarters: they meet last.
    assert order.index(1) < 32 <= order.index(2)
    assert len({order.index(s) // 16 for s in (1, 2, 3, 4)}) == 4
    with pytest.raises(ValueError):
        seeding_order(6)


def test_byes_go_to_the_top_seeds() -> None:
    tournament = with_players(5, "single")
    first_round = [m for m in tournament.matches if m.round == 1]
    byes = [m for m in first_round if m.decided == "bye"]
    assert sorted(str(n) for n in names(tournament, [m.winner_entrant for m in byes])) == [
        "P1",
        "P2",
        "P3",
    ]
    playing = [m for m in first_round if m.status == "ready"]
    assert [names(tournament, list(m.players)) for m in playing] == [["P4", "P5"]]
    # Seed 1 waits in round 2 for the winner of 4 v 5.
    second = tournament.match("W2-1")
    assert names(tournament, [second.players[0]]) == ["P1"] and second.status == "waiting"


def test_rating_seeding_and_random_draw_are_deterministic() -> None:
    by_rating = with_players(8)
    assert [e.name for e in by_rating.entrants] == [f"P{n}" for n in range(1, 9)]
    drawn = [with_players(8, seeding="random").entrants for _ in range(2)]
    assert drawn[0] == drawn[1]
    assert [e.name for e in drawn[0]] != [f"P{n}" for n in range(1, 9)]


def test_registration_rules() -> None:
    tournament = fresh(cap=2)
    tournament = register(tournament, Entrant("a", "Ana"))
    with pytest.raises(TournamentError) as again:
        register(tournament, Entrant("a", "Other"))
    assert again.value.code == "already_registered"
    with pytest.raises(TournamentError) as same_name:
        register(tournament, Entrant("b", "ANA"))
    assert same_name.value.code == "name_taken"
    tournament = register(tournament, Entrant("b", "Bo"))
    with pytest.raises(TournamentError) as full:
        register(tournament, Entrant("c", "Cy"))
    assert full.value.code == "full"
    tournament = unregister(tournament, "a")
    assert [e.player for e in tournament.entrants] == ["b"]
    with pytest.raises(TournamentError):
        unregister(tournament, "a")
    started = start(register(tournament, Entrant("c", "Cy")))
    with pytest.raises(TournamentError) as closed:
        register(started, Entrant("d", "Di"))
    assert closed.value.code == "closed"


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("name", "  ", "bad_name"),
        ("name", "x" * 49, "bad_name"),
        ("cap", 65, "bad_cap"),
        ("cap", 1, "bad_cap"),
        ("format", "swiss", "bad_format"),
        ("seeding", "age", "bad_seeding"),
    ],
)
def test_bad_settings_are_refused(field: str, value: object, code: str) -> None:
    settings: dict[str, object] = {
        "format": "single",
        "cap": 8,
        "races": Races(),
        "seeding": "random",
        "seed": 1,
        "starts_at": 0,
        "organiser": "o",
    }
    name = "Cup"
    if field == "name":
        name = str(value)
    else:
        settings[field] = value
    with pytest.raises(TournamentError) as refused:
        new_tournament("t", name, **settings)  # type: ignore[arg-type]
    assert refused.value.code == code


def test_too_few_entrants_cancel_it() -> None:
    tournament = start(register(fresh(), Entrant("a", "Ana")))
    assert tournament.status == "cancelled" and tournament.note == TOO_FEW


def test_the_organiser_removes_an_entrant_and_calls_it_off_before_the_start() -> None:
    tournament = register(register(fresh(), Entrant("a", "Ana")), Entrant("b", "Bo"))
    for who, name, code in (("a", "Bo", "not_organiser"), ("org", "Cy", "not_registered")):
        with pytest.raises(TournamentError) as refused:
            remove(tournament, who, name)
        assert refused.value.code == code
    fewer = remove(tournament, "org", "bO")  # by the name as shown, any case
    assert [e.player for e in fewer.entrants] == ["a"] and tournament.entrants[1].name == "Bo"
    # For good: the removed player does not come back, under that name or another.
    assert fewer.removed == ("b",)
    for name in ("Bo", "Bojan"):
        with pytest.raises(TournamentError) as barred:
            register(fewer, Entrant("b", name))
        assert barred.value.code == "removed"
    assert [e.name for e in register(fewer, Entrant("c", "Bo")).entrants] == ["Ana", "Bo"]
    with pytest.raises(TournamentError) as not_theirs:
        organiser_cancels(tournament, "a")
    assert not_theirs.value.code == "not_organiser"
    off = organiser_cancels(tournament, "org")
    assert (off.status, off.note) == ("cancelled", BY_ORGANISER)
    running = start(tournament)
    for change, code in (
        (lambda t: remove(t, "org", "Ana"), "closed"),
        (lambda t: organiser_cancels(t, "org"), "started"),
    ):
        with pytest.raises(TournamentError) as late:
            change(running)
        assert late.value.code == code
    with pytest.raises(TournamentError) as again:
        organiser_cancels(off, "org")
    assert again.value.code == "over"
    # Said to be meant for one under way, the organiser's cancel ends it (theirs alone).
    called_off = organiser_cancels(running, "org", under_way=True)
    assert (called_off.status, called_off.note) == ("cancelled", BY_ORGANISER)
    assert called_off.matches == running.matches  # played on at the tables, for nothing
    with pytest.raises(TournamentError) as not_theirs_either:
        organiser_cancels(running, "a", under_way=True)
    assert not_theirs_either.value.code == "not_organiser"


def test_computer_players_only_when_allowed() -> None:
    tournament = register(fresh(), Entrant("a", "Ana"))
    with pytest.raises(TournamentError) as refused:
        start(tournament, [Entrant("bot:1", "Bot 1", bot=True)])
    assert refused.value.code == "no_bots"
    allowed = register(fresh(bots=True), Entrant("a", "Ana"))
    started = start(allowed, [Entrant("bot:1", "Bot 1", bot=True)])
    assert started.status == "running" and len(started.entrants) == 2


def test_double_elimination_structure_for_sixteen() -> None:
    matches = build_matches("double", 16)
    counts = Counter(m.bracket for m in matches)
    assert counts == {"winners": 15, "losers": 14, "final": 2}
    losers_rounds = Counter(m.round for m in matches if m.bracket == "losers")
    assert losers_rounds == {1: 4, 2: 4, 3: 2, 4: 2, 5: 1, 6: 1}
    # Even losers' rounds take the winners' bracket's losers, every other one reversed.
    second = [m.feeds[1].match for m in matches if m.bracket == "losers" and m.round == 2]
    assert second == ["W2-4", "W2-3", "W2-2", "W2-1"]
    fourth = [m.feeds[1].match for m in matches if m.bracket == "losers" and m.round == 4]
    assert fourth == ["W3-1", "W3-2"]


def test_the_favourite_wins_every_match() -> None:
    tournament = with_players(16)
    while tournament.status == "running":
        match = ready(tournament)[0]
        a, b = match.players
        assert a is not None and b is not None
        tournament = report(tournament, match.id, 0 if a < b else 1, (3, 1))
    assert champion(tournament) == 0
    assert tournament.match("GF2").status == "void"
    assert len(played(tournament)) == 30
    rows = [(row.place, tournament.entrants[row.entrant].name) for row in standings(tournament)]
    assert rows[:4] == [("1", "P1"), ("2", "P2"), ("3", "P3"), ("4", "P4")]
    assert [place for place, _ in rows] == (
        ["1", "2", "3", "4"] + ["5–6"] * 2 + ["7–8"] * 2 + ["9–12"] * 4 + ["13–16"] * 4
    )


def test_grand_final_reset_when_the_losers_side_wins_it() -> None:
    tournament = with_players(4)
    # Winners' bracket: the favourites; then seed 2 comes through the losers' side.
    for match_id, winner in [("W1-1", 0), ("W1-2", 0), ("W2-1", 0), ("L1-1", 0), ("L2-1", 1)]:
        tournament = report(tournament, match_id, winner, (3, 0))
    first = tournament.match("GF1")
    assert names(tournament, list(first.players)) == ["P1", "P2"]
    tournament = report(tournament, "GF1", 1, (5, 4))
    reset = tournament.match("GF2")
    assert reset.status == "ready" and tournament.status == "running"
    assert names(tournament, list(reset.players)) == ["P2", "P1"]
    tournament = report(tournament, "GF2", 0, (5, 2))
    assert tournament.status == "finished" and names(tournament, [champion(tournament)]) == ["P2"]
    assert len(played(tournament)) == 2 * 4 - 1
    assert [(r.place, r.entrant) for r in standings(tournament)] == [
        ("1", 1),
        ("2", 0),
        ("3", 3),
        ("4", 2),  # P4 went out in the losers' final
    ]


def test_losers_move_down_and_winners_up() -> None:
    tournament = with_players(8)
    tournament = report(tournament, "W1-1", 1, (1, 3))  # seed 8 beats seed 1
    assert names(tournament, [tournament.match("W2-1").players[0]]) == ["P8"]
    assert names(tournament, [tournament.match("L1-1").players[0]]) == ["P1"]


def test_rooms_reports_and_forfeits() -> None:
    tournament = with_players(4, "single")
    match = ready(tournament)[0]
    tournament = assign_room(tournament, match.id, "room-1", 5)
    assert tournament.match(match.id).status == "playing"
    with pytest.raises(TournamentError):
        assign_room(tournament, match.id, "room-2", 6)
    loser_player = tournament.entrants[match.players[1] or 0].player
    tournament = report_player(tournament, match.id, loser_player, (1, 3))
    done = tournament.match(match.id)
    assert done.winner == 1 and done.decided == "played" and done.score == (1, 3)
    with pytest.raises(TournamentError) as again:
        report(tournament, match.id, 0)
    assert again.value.code == "not_open"
    with pytest.raises(TournamentError):
        report_player(tournament, "W1-2", "nobody")
    tournament = forfeit(tournament, "W1-2", [0])
    assert tournament.match("W1-2").decided == "forfeit" and tournament.match("W1-2").winner == 1
    # Who was absent is kept, for the bracket to say (a match played keeps no one absent).
    assert tournament.match("W1-2").no_show == (True, False)
    assert tournament.match(match.id).no_show == (False, False)
    final = tournament.match("W2-1")
    tournament = forfeit(tournament, "W2-1", [0, 1])  # neither came: the better seed goes on
    a, b = final.players
    assert a is not None and b is not None
    assert tournament.match("W2-1").winner_entrant == min(a, b)
    assert tournament.match("W2-1").no_show == (True, True)
    assert tournament.status == "finished"


def test_the_stage_decides_the_race() -> None:
    single = with_players(4, "single")
    assert [race_of(single, single.match(i)) for i in ("W1-1", "W2-1")] == [3, 5]
    double = with_players(4)
    assert [race_of(double, double.match(i)) for i in ("W2-1", "L1-1", "GF1", "GF2")] == [
        3,
        2,
        5,
        5,
    ]


@pytest.mark.parametrize("fmt", ["single", "double"])
def test_every_field_size_plays_to_the_end(fmt: str) -> None:
    for count in range(2, 65):
        tournament = play_out(with_players(count, fmt), random.Random(count))
        assert tournament.status == "finished"
        matches = len(played(tournament))
        reset = tournament.match("GF2").status == "done" if fmt == "double" else False
        assert matches == (count - 1 if fmt == "single" else 2 * count - 2 + reset)
        rows = standings(tournament)
        assert sorted(row.entrant for row in rows) == list(range(count))
        # Places cover 1..N with each shared range as wide as its group.
        groups = Counter((row.first, row.last) for row in rows)
        assert sum(groups.values()) == count
        for (first, last), size in groups.items():
            assert last - first + 1 == size
        assert min(first for first, _ in groups) == 1 and max(last for _, last in groups) == count


def test_a_tournament_encodes_and_decodes_unchanged() -> None:
    tournament = with_players(6)
    assert decode_tournament(encode_tournament(tournament)) == tournament


def test_a_lost_room_is_replaced_only_while_the_match_waits_for_it() -> None:
    tournament = with_players(2, "single")
    tournament = assign_room(tournament, "W1-1", "room-1", 5)
    tournament = reassign_room(tournament, "W1-1", "room-2", 9)
    match = tournament.match("W1-1")
    assert (match.status, match.room, match.room_at) == ("playing", "room-2", 9)
    finished = report(tournament, "W1-1", 0, (1, 0))
    with pytest.raises(TournamentError) as refused:
        reassign_room(finished, "W1-1", "room-3", 10)
    assert refused.value.code == "not_playing"


def test_who_came_is_remembered_across_the_rooms_of_a_match() -> None:
    """A room made again keeps the slots whose players sat down in the room it replaces,
    and those who had come to one before it."""
    tournament = with_players(2, "single")
    tournament = assign_room(tournament, "W1-1", "room-1", 5)
    assert tournament.match("W1-1").came == (False, False)
    tournament = reassign_room(tournament, "W1-1", "room-2", 9, (False, True))
    tournament = reassign_room(tournament, "W1-1", "room-3", 12, (True, False))
    assert tournament.match("W1-1").came == (True, True)
    tournament = reassign_room(tournament, "W1-1", "room-4", 15)
    assert tournament.match("W1-1").came == (True, True)


def test_no_shows_are_those_who_never_came() -> None:
    """Who forfeits a match when its no-show time is up: whoever never sat down, against
    one who did even if they stepped away since; of two who came, the one away from the
    table; both (the better seed goes on) when neither did more; nobody when both sit."""
    tournament = with_players(2, "single")
    tournament = assign_room(tournament, "W1-1", "room-1", 5)
    match = tournament.match("W1-1")
    first, second = (tournament.entrants[e or 0].player for e in match.players)
    both = {first, second}
    assert no_shows(tournament, match, present=both, came=both) == []
    assert no_shows(tournament, match, present={first}, came={first}) == [1]
    # Sat down and stepped away (the bracket page): they came, the other did not.
    assert no_shows(tournament, match, present=set(), came={second}) == [0]
    assert no_shows(tournament, match, present={first}, came=both) == [1]
    assert no_shows(tournament, match, present=set(), came=both) == [0, 1]
    assert no_shows(tournament, match, present=set(), came=set()) == [0, 1]
    # Came to an earlier room of the match (closed once it emptied): came all the same.
    moved = reassign_room(tournament, "W1-1", "room-2", 9, (False, True)).match("W1-1")
    assert no_shows(tournament, moved, present=set(), came=set()) == [0]
    assert no_shows(tournament, moved, present={first}, came={first}) == [1]
    # Which slots' players are among some players (an empty slot never is).
    assert slots_among(tournament, match, {second, "p-other"}) == (False, True)
    assert slots_among(tournament, match, both) == (True, True)
    later = with_players(4, "single")
    final = next(m for m in later.matches if m.players == (None, None))
    assert slots_among(later, final, {e.player for e in later.entrants}) == (False, False)


def test_a_computer_always_comes() -> None:
    tournament = fresh("single", cap=2, bots=True)
    tournament = register(tournament, Entrant("p1", "P1", 400.0))
    tournament = start(tournament, [Entrant("bot-1", "Bot 1", 900.0, bot=True, level=1)])
    tournament = assign_room(tournament, "W1-1", "room-1", 5)
    match = tournament.match("W1-1")
    person = 0 if tournament.entrants[match.players[0] or 0].player == "p1" else 1
    assert no_shows(tournament, match, present=set(), came=set()) == [person]
    assert no_shows(tournament, match, present={"p1"}, came={"p1"}) == []


def test_a_matchs_stage_as_its_table_is_named() -> None:
    """The language-free code a tournament table's name carries (the pages word it)."""
    double = with_players(8)
    labels = {m.id: stage_label(double, m) for m in double.matches}
    # The winners' bracket is named, as the losers' is: not a bare round.
    assert labels["W1-1"] == "W1" and labels["W3-1"] == "W3"
    assert labels["L1-1"] == "L1" and labels["L4-1"] == "L4"
    assert (labels["GF1"], labels["GF2"]) == ("GF1", "GF2")
    single = with_players(4, "single")
    assert [stage_label(single, m) for m in single.matches] == ["R1", "R1", "F"]
