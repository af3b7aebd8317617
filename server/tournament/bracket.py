"""What happens to a tournament, as pure functions: a value in, a new value out, a
`TournamentError` (and nothing changed) for what cannot be done.

- `new_tournament` checks the organiser's settings; `register` and `unregister` take
  entrants up to the cap until play starts.
- `start` seeds the entrants (by rating, or a random draw from the tournament's seed) and
  builds the bracket: the field is padded to a power of two with byes, seeds placed in
  the standard order (seed 1 and seed 2 can meet only in the final; each round the top
  seed left meets the lowest), so the byes go to the top seeds.
- Double elimination adds the losers' bracket: its odd rounds pair the losers' side's
  survivors, its even rounds bring in the winners' bracket's losers of the next round
  (every other round in reverse order, to keep a rematch away), and the grand final sets
  the winners' side champion against the losers' side one. If the losers' side player
  wins it, both have lost once and the reset (`GF2`) decides; otherwise `GF2` is void.
- `assign_room`, `report` and `forfeit` follow a match through its room; each result
  moves the winner on (and in double elimination the loser down), byes resolving at once;
  `no_shows` says who forfeits a match whose players did not both come.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence

import msgspec

from protocol.text import clean, confusable
from server.tournament.model import (
    MAX_PLAYERS,
    MAX_SHOT_CLOCK,
    MIN_PLAYERS,
    MIN_SHOT_CLOCK,
    Decided,
    Entrant,
    Feed,
    FirstBreak,
    Format,
    Match,
    Races,
    Seeding,
    Tournament,
    TournamentError,
)

#: Longest tournament name once cleaned.
MAX_NAME = 48
_replace = msgspec.structs.replace


def new_tournament(
    tournament_id: str,
    name: str,
    *,
    format: Format,
    cap: int,
    races: Races,
    seeding: Seeding,
    seed: int,
    starts_at: int,
    organiser: str,
    bots: bool = False,
    shot_clock: int | None = None,
    first_break: FirstBreak = "draw",
) -> Tournament:
    cleaned = clean(name).strip()
    if not 1 <= len(cleaned) <= MAX_NAME:
        raise TournamentError("bad_name", f"a tournament's name is 1-{MAX_NAME} characters")
    if format not in ("single", "double"):
        raise TournamentError("bad_format", "the format is single or double")
    if seeding not in ("rating", "random"):
        raise TournamentError("bad_seeding", "seeding is by rating or random")
    if not MIN_PLAYERS <= cap <= MAX_PLAYERS:
        raise TournamentError("bad_cap", f"the cap is {MIN_PLAYERS}-{MAX_PLAYERS} players")
    if shot_clock is not None and not MIN_SHOT_CLOCK <= shot_clock <= MAX_SHOT_CLOCK:
        # Checked here, not when the first room is made: a room would refuse it then.
        raise TournamentError(
            "bad_shot_clock", f"the shot clock is {MIN_SHOT_CLOCK}-{MAX_SHOT_CLOCK} seconds"
        )
    if first_break not in ("draw", "lag"):
        raise TournamentError("bad_first_break", "the first break is drawn or lagged for")
    return Tournament(
        id=tournament_id,
        name=cleaned,
        format=format,
        cap=cap,
        races=races,
        seeding=seeding,
        seed=seed,
        starts_at=starts_at,
        organiser=organiser,
        bots=bots,
        shot_clock=shot_clock,
        first_break=first_break,
    )


# --- registration ----------------------------------------------------------------------------


def register(tournament: Tournament, entrant: Entrant) -> Tournament:
    if tournament.status != "registering":
        raise TournamentError("closed", "registration is closed")
    if tournament.entrant_of(entrant.player) is not None:
        raise TournamentError("already_registered", "this player is registered already")
    if entrant.player in tournament.removed:
        raise TournamentError("removed", "the organiser took this player off the list")
    folded = entrant.name.casefold()
    if any(e.name.casefold() == folded for e in tournament.entrants):
        raise TournamentError("name_taken", "another entrant has this name")
    # Names that look alike ("Ivan" and "lvan", Latin "Boris" and "Вoris" with a Cyrillic
    # В) would be one name on the bracket: the rooms' lookalike test (`protocol.text`).
    like = confusable(entrant.name, (e.name for e in tournament.entrants))
    if like is not None:
        raise TournamentError(
            "name_confusable", f"{entrant.name} could pass for {like}, who is registered already"
        )
    if len(tournament.entrants) >= tournament.cap:
        raise TournamentError("full", f"registration is full ({tournament.cap} players)")
    return _replace(tournament, entrants=(*tournament.entrants, entrant))


def unregister(tournament: Tournament, player: str) -> Tournament:
    if tournament.status != "registering":
        raise TournamentError("closed", "registration is closed")
    if tournament.entrant_of(player) is None:
        raise TournamentError("not_registered", "this player is not registered")
    kept = tuple(e for e in tournament.entrants if e.player != player)
    return _replace(tournament, entrants=kept)


def hand_over(
    tournament: Tournament, guest: str, account: str, rating: float, provisional: bool
) -> Tournament:
    """A guest with a place signs in to an account (`account`; the guest's own id when they
    made it): the place is the account's from now on, under the name it was entered under,
    seeded by the account's rating. An account with a place of its own here (or one the
    organiser took off) keeps that and the guest's second place goes: the same person
    entered twice was drawn against themselves. Only before the start: a bracket drawn is
    played by the ids it was drawn with."""
    index = tournament.entrant_of(guest)
    if tournament.status != "registering" or index is None:
        return tournament
    # A place that is an account's already stays where it is: signed up once, it is not
    # seeded again at each sign-in; nor does another account take it.
    if not tournament.entrants[index].guest:
        return tournament
    if account != guest and (
        tournament.entrant_of(account) is not None or account in tournament.removed
    ):
        kept = tuple(e for e in tournament.entrants if e.player != guest)
        return _replace(tournament, entrants=kept)
    entry = msgspec.structs.replace(
        tournament.entrants[index],
        player=account,
        rating=rating,
        provisional=provisional,
        guest=False,
    )
    entrants = tuple(entry if i == index else e for i, e in enumerate(tournament.entrants))
    return _replace(tournament, entrants=entrants)


#: Why a tournament was cancelled, as its `note` says it (the API gives each a code).
TOO_FEW = "fewer than two entrants at the start"
BY_ORGANISER = "cancelled by the organiser"


def remove(tournament: Tournament, organiser: str, name: str) -> Tournament:
    """The organiser takes an entrant off the list before the start (by name, as the page
    shows it), for good: that player may not register again (under any name)."""
    _organiser_only(tournament, organiser)
    folded = name.casefold()
    entrant = next((e for e in tournament.entrants if e.name.casefold() == folded), None)
    if entrant is None:
        raise TournamentError("not_registered", f"nobody is registered as {name!r}")
    kept = unregister(tournament, entrant.player)
    return _replace(kept, removed=(*tournament.removed, entrant.player))


def organiser_cancels(
    tournament: Tournament, organiser: str, under_way: bool = False
) -> Tournament:
    """The organiser cancels a tournament that has not started — or, saying so
    (`under_way`), one being played: nobody wins it, and its matches still at their tables
    play on for nothing (`cancel` is the change itself, also made when too few entrants
    came). Without `under_way` a started one is refused, as a cancel meant for the list of
    entrants must not end the tournament that began meanwhile."""
    _organiser_only(tournament, organiser)
    if tournament.status in ("finished", "cancelled"):
        raise TournamentError("over", "the tournament is over")
    if tournament.status != "registering" and not under_way:
        raise TournamentError("started", "the tournament has started already")
    return cancel(tournament, BY_ORGANISER)


def _organiser_only(tournament: Tournament, player: str) -> None:
    if tournament.organiser != player:
        raise TournamentError("not_organiser", "only the organiser may do this")


def cancel(tournament: Tournament, note: str) -> Tournament:
    if tournament.status in ("finished", "cancelled"):
        raise TournamentError("over", "the tournament is over")
    return _replace(tournament, status="cancelled", note=note)


# --- the bracket -------------------------------------------------------------------------------


def seeding_order(size: int) -> list[int]:
    """The seeds of a `size`-slot bracket in slot order (pairs of neighbours meet first):
    1 v `size`, then each round the best seed left against the worst, 1 and 2 apart."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def bracket_size(players: int) -> int:
    size = 2
    while size < players:
        size *= 2
    return size


def seeded(tournament: Tournament, extra: Sequence[Entrant] = ()) -> tuple[Entrant, ...]:
    """The entrants (and `extra`, computer players filling empty places) in seed order:
    by rating, best first, ties broken by the draw; or wholly by the draw."""
    field = [*tournament.entrants, *extra]
    draw = random.Random(tournament.seed)
    tiebreak = [draw.random() for _ in field]
    indices = list(range(len(field)))
    if tournament.seeding == "rating":
        indices.sort(key=lambda i: (-field[i].rating, tiebreak[i]))
    else:
        indices.sort(key=lambda i: tiebreak[i])
    return tuple(field[i] for i in indices)


def build_matches(fmt: Format, players: int) -> tuple[Match, ...]:
    """Every match of a bracket for `players` entrants (byes included), unresolved."""
    size = bracket_size(players)
    rounds = size.bit_length() - 1
    order = seeding_order(size)
    matches: list[Match] = []
    for index in range(size // 2):
        feeds = (Feed("seed", seed=order[2 * index]), Feed("seed", seed=order[2 * index + 1]))
        matches.append(Match(f"W1-{index + 1}", "winners", 1, feeds))
    for rnd in range(2, rounds + 1):
        for index in range(size >> rnd):
            feeds = (_won(f"W{rnd - 1}-{2 * index + 1}"), _won(f"W{rnd - 1}-{2 * index + 2}"))
            matches.append(Match(f"W{rnd}-{index + 1}", "winners", rnd, feeds))
    if fmt == "single":
        return tuple(matches)
    champion_of_losers = _lost("W1-1")
    if rounds >= 2:
        matches += _losers_bracket(size, rounds)
        champion_of_losers = _won(f"L{2 * (rounds - 1)}-1")
    matches.append(Match("GF1", "final", 1, (_won(f"W{rounds}-1"), champion_of_losers)))
    matches.append(Match("GF2", "final", 2, (_won("GF1"), _lost("GF1"))))
    return tuple(matches)


def _losers_bracket(size: int, rounds: int) -> list[Match]:
    matches: list[Match] = []
    for index in range(size // 4):
        feeds = (_lost(f"W1-{2 * index + 1}"), _lost(f"W1-{2 * index + 2}"))
        matches.append(Match(f"L1-{index + 1}", "losers", 1, feeds))
    for stage in range(1, rounds):
        count = size >> (stage + 1)
        drop = 2 * stage
        for index in range(count):
            source = count - 1 - index if stage % 2 else index
            feeds = (_won(f"L{drop - 1}-{index + 1}"), _lost(f"W{stage + 1}-{source + 1}"))
            matches.append(Match(f"L{drop}-{index + 1}", "losers", drop, feeds))
        if stage < rounds - 1:
            for index in range(count // 2):
                feeds = (_won(f"L{drop}-{2 * index + 1}"), _won(f"L{drop}-{2 * index + 2}"))
                matches.append(Match(f"L{drop + 1}-{index + 1}", "losers", drop + 1, feeds))
    return matches


def _won(match_id: str) -> Feed:
    return Feed("winner", match=match_id)


def _lost(match_id: str) -> Feed:
    return Feed("loser", match=match_id)


def start(tournament: Tournament, extra: Sequence[Entrant] = ()) -> Tournament:
    """Close registration and build the bracket (`extra`: computer players for empty
    places, if the organiser allows them). Fewer than two entrants cancel it."""
    if tournament.status != "registering":
        raise TournamentError("started", "the tournament has started already")
    if extra and not tournament.bots:
        raise TournamentError("no_bots", "the organiser did not allow computer players")
    if len(tournament.entrants) + len(extra) > tournament.cap:
        raise TournamentError("full", "more entrants than places")
    entrants = seeded(tournament, extra)
    if len(entrants) < 2:
        return cancel(tournament, TOO_FEW)
    matches = build_matches(tournament.format, len(entrants))
    running = _replace(tournament, status="running", entrants=entrants, matches=matches)
    return settle(running)


# --- moving on -------------------------------------------------------------------------------


def settle(tournament: Tournament) -> Tournament:
    """Fill every slot whose feed has resolved, resolve byes, until nothing changes; a
    tournament whose last match is decided is finished."""
    by_id = {match.id: match for match in tournament.matches}
    order = [match.id for match in tournament.matches]
    players = len(tournament.entrants)
    changed = True
    while changed:
        changed = False
        for match_id in order:
            match = by_id[match_id]
            if match.status != "waiting":
                continue
            updated = _fill(match, by_id, players)
            if updated != match:
                by_id[match_id] = updated
                changed = True
    matches = tuple(by_id[match_id] for match_id in order)
    status = tournament.status
    if status == "running" and _last_decided(tournament.format, by_id):
        status = "finished"
    return _replace(tournament, matches=matches, status=status)


def _fill(match: Match, by_id: dict[str, Match], players: int) -> Match:
    if match.id == "GF2":
        first = by_id["GF1"]
        if first.status != "done":
            return match
        if first.winner == 0:  # the winners' side champion won: no reset
            return _replace(match, status="void", filled=(True, True))
    slots = list(match.players)
    filled = list(match.filled)
    for slot, feed in enumerate(match.feeds):
        if filled[slot]:
            continue
        if feed.kind == "seed":
            slots[slot] = feed.seed - 1 if feed.seed <= players else None
            filled[slot] = True
            continue
        source = by_id[feed.match]
        if source.status != "done":
            continue
        slots[slot] = source.winner_entrant if feed.kind == "winner" else source.loser_entrant
        filled[slot] = True
    pair = (slots[0], slots[1])
    done = (filled[0], filled[1])
    if not all(done):
        return _replace(match, players=pair, filled=done)
    if pair[0] is not None and pair[1] is not None:
        return _replace(match, players=pair, filled=done, status="ready")
    # A bye: whoever is there goes on (nobody, if neither slot has a player).
    winner = 0 if pair[0] is not None else 1
    return _replace(match, players=pair, filled=done, status="done", winner=winner, decided="bye")


def _last_decided(fmt: Format, by_id: dict[str, Match]) -> bool:
    if fmt == "double":
        return by_id["GF2"].status in ("done", "void")
    final = max(by_id.values(), key=lambda match: match.round)
    return final.status == "done"


def race_of(tournament: Tournament, match: Match) -> int:
    """The race the match is played to: its stage's."""
    races = tournament.races
    if match.bracket == "final":
        return races.final
    if match.bracket == "losers":
        return races.losers
    return races.final if _single_final(tournament, match) else races.winners


def stage_label(tournament: Tournament, match: Match) -> str:
    """The match's stage in a language-free code for its table's name, which the pages
    word in the reader's language: `R2` a single elimination's second round (its only
    bracket), `W2` a double elimination's winners' bracket's second round, `L3` the
    losers' bracket's third, `F` a single elimination's final, `GF1`/`GF2` the grand
    final and its deciding match. A double elimination's winners' round carries its
    bracket as a losers' round does: the bracket page puts it under "Winners' bracket",
    and a table and its stream strip called only "Round 1" could be either side's."""
    if match.bracket == "final":
        return match.id
    if match.bracket == "losers":
        return f"L{match.round}"
    if tournament.format == "double":
        return f"W{match.round}"
    return "F" if _single_final(tournament, match) else f"R{match.round}"


def _single_final(tournament: Tournament, match: Match) -> bool:
    """Whether `match` is a single elimination's final: the last round of its one bracket."""
    if tournament.format != "single" or match.bracket != "winners":
        return False
    return match.round == max(m.round for m in tournament.matches if m.bracket == "winners")


def ready(tournament: Tournament) -> list[Match]:
    """Matches whose two players are known and free, without a room yet."""
    return [match for match in tournament.matches if match.status == "ready"]


def assign_room(tournament: Tournament, match_id: str, room: str, at: int) -> Tournament:
    match = tournament.match(match_id)
    if match.status != "ready":
        raise TournamentError("not_ready", f"match {match_id} is not waiting for a room")
    return _put(tournament, _replace(match, status="playing", room=room, room_at=at))


def reassign_room(
    tournament: Tournament,
    match_id: str,
    room: str,
    at: int,
    came: tuple[bool, bool] = (False, False),
) -> Tournament:
    """The match's room is gone before anyone played in it: a new one, its wait afresh.
    `came`: the slots whose players sat down in the room gone (added to those who had
    come before it), so they are still no no-shows."""
    match = tournament.match(match_id)
    if match.status != "playing":
        raise TournamentError("not_playing", f"match {match_id} has no room")
    known = (match.came[0] or came[0], match.came[1] or came[1])
    return _put(tournament, _replace(match, room=room, room_at=at, came=known))


def slots_among(
    tournament: Tournament, match: Match, players: Collection[str]
) -> tuple[bool, bool]:
    """For each of `match`'s slots, whether its entrant's player is one of `players` (an
    empty slot never is)."""
    first, second = (
        entrant is not None and tournament.entrants[entrant].player in players
        for entrant in match.players
    )
    return first, second


def no_shows(
    tournament: Tournament, match: Match, present: Collection[str], came: Collection[str]
) -> list[int]:
    """The slots that forfeit `match` once its no-show time is up and play has not begun.
    `present`: the players in their seats now (a seat kept through its grace period, O5,
    included); `came`: every player who has sat down at the match's table (its room's
    record keeps them; a slot in `match.came` came to an earlier room of the match).

    A player who never sat down loses to one who did, even if that one has stepped away
    since (to the bracket, say): they came, so they are no no-show. Of two who both came,
    the one away from the table loses to the one waiting at it. Both slots, when neither
    is there and neither did more than the other (the better seed then goes on:
    `forfeit`); none when both are at the table. A computer always comes."""

    here, sat = slots_among(tournament, match, present), slots_among(tournament, match, came)

    def standing(slot: int) -> int:
        entrant = match.players[slot]
        if entrant is None:
            return 0
        if tournament.entrants[entrant].bot or here[slot]:
            return 2
        return 1 if match.came[slot] or sat[slot] else 0

    first, second = standing(0), standing(1)
    if first == second:
        return [] if first == 2 else [0, 1]
    return [0] if first < second else [1]


def report(
    tournament: Tournament,
    match_id: str,
    winner: int,
    score: tuple[int, int] = (0, 0),
    decided: Decided = "played",
) -> Tournament:
    """Match `match_id` was won by the player in slot `winner` (0 or 1)."""
    if tournament.status != "running":
        raise TournamentError("not_running", "the tournament is not running")
    match = tournament.match(match_id)
    if match.status not in ("ready", "playing"):
        raise TournamentError("not_open", f"match {match_id} is not being played")
    if winner not in (0, 1):
        raise TournamentError("bad_winner", "the winner is slot 0 or 1")
    if decided == "bye":
        raise TournamentError("bad_result", "byes are resolved by the bracket")
    if any(racks < 0 for racks in score):
        raise TournamentError("bad_result", "a score is never negative")
    done = _replace(match, status="done", winner=winner, score=score, decided=decided)
    return settle(_put(tournament, done))


def report_player(
    tournament: Tournament, match_id: str, winner: str, score: tuple[int, int] = (0, 0)
) -> Tournament:
    """Match `match_id` was won at the table by player id `winner`; `score` in the
    match's slot order."""
    match = tournament.match(match_id)
    for slot, entrant in enumerate(match.players):
        if entrant is not None and tournament.entrants[entrant].player == winner:
            return report(tournament, match_id, slot, score)
    raise TournamentError("not_in_match", f"{winner!r} does not play match {match_id}")


def forfeit(tournament: Tournament, match_id: str, absent: Iterable[int]) -> Tournament:
    """The players in slots `absent` did not come: the other wins by forfeit. If neither
    came, the better seed (the lower entrant index) goes on, by forfeit too. The match
    keeps who was absent (`Match.no_show`)."""
    away = set(absent)
    if not away or not away <= {0, 1}:
        raise TournamentError("bad_forfeit", "name the absent slot, 0 or 1, or both")
    match = tournament.match(match_id)
    if len(away) == 1:
        winner = 1 - next(iter(away))
    else:
        first, second = match.players
        winner = 0 if first is not None and (second is None or first < second) else 1
    decided = report(tournament, match_id, winner, (0, 0), "forfeit")
    # Who was not there is kept, for the bracket to say why the match was forfeited.
    done = _replace(decided.match(match_id), no_show=(0 in away, 1 in away))
    return _put(decided, done)


def _put(tournament: Tournament, match: Match) -> Tournament:
    matches = tuple(match if m.id == match.id else m for m in tournament.matches)
    return _replace(tournament, matches=matches)


def played(tournament: Tournament) -> list[Match]:
    """Matches decided at the table or by forfeit (not byes, not a void reset)."""
    return [m for m in tournament.matches if m.status == "done" and m.decided != "bye"]
