"""The referee: ``apply(state, action)`` decides what an action does under the rules.

Pure and deterministic: the same state and action always give the same outcome, and
nothing outside the arguments is read or changed. An illegal action raises
:class:`RuleError` before anything is built, so the caller keeps its state as it was.

Rule readings where the sources leave room are marked ``Reading:`` next to the code that
applies them; each is listed in docs/RULES.md with a conformance scenario under
``tests/conformance/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import msgspec

from server.rules.actions import (
    ACTION_TYPES,
    Action,
    Choose,
    ClockExpired,
    Concede,
    Extension,
    Forfeit,
    LagResult,
    ShotAction,
    Stalemate,
)
from server.rules.clock import extension_seconds
from server.rules.errors import (
    AWAITING_LAG,
    CHOICE_PENDING,
    INVALID_ACTION,
    INVALID_STATE,
    MATCH_OVER,
    NO_CHOICE_PENDING,
    NO_EXTENSIONS,
    NO_SHOT_CLOCK,
    NO_STALEMATE_PROPOSAL,
    NOT_A_PLAYER,
    NOT_YOUR_TURN,
    PUSH_OUT_NOT_ALLOWED,
    STALEMATE_TOO_EARLY,
    RuleError,
)
from server.rules.judge import CUE, ShotFacts, ball_list, judge_shot
from server.rules.state import FULL_RACK, NINE, FirstAfter, MatchEnd, MatchState, lowest_ball
from server.rules.verdict import GameEnd, Outcome, Verdict

FOULS_TO_LOSE: Final = 3
"""R13: the third consecutive foul loses the game."""
FOULS_TO_WARN: Final = 2
"""R13: the warning comes after the second consecutive foul."""
STALEMATE_INNINGS_AFTER_WARNING: Final = 3
#: R14 reading: innings in a row (both players' counted) without progress before a
#: stalemate may be proposed — a referee warns only once no progress is being made.
STALEMATE_PROPOSAL_INNINGS: Final = 3
"""R14: fruitless innings each player must play after the warning before the re-rack."""

Note = tuple[str, str]


def apply(state: MatchState, action: Action) -> Outcome:
    """The outcome of ``action`` in ``state``, or ``RuleError`` if the rules forbid it."""
    if not isinstance(state, MatchState):
        raise RuleError(INVALID_STATE, "the referee needs a MatchState")
    if not isinstance(action, ACTION_TYPES):
        raise RuleError(INVALID_ACTION, f"{type(action).__name__} is not a table action")
    if state.match_over:
        raise RuleError(MATCH_OVER, "The match is over; no further action is possible")
    if isinstance(action, LagResult):
        return _lag(state, action)
    if state.awaiting_lag and not isinstance(action, (Concede, Forfeit)):
        raise RuleError(AWAITING_LAG, "The lag has not yet decided who breaks the first game")
    if isinstance(action, ShotAction):
        return _shot(state, action)
    if isinstance(action, Choose):
        return _choose(state, action)
    if isinstance(action, ClockExpired):
        return _clock_expired(state, action)
    if isinstance(action, Extension):
        return _extension(state, action)
    if isinstance(action, Concede):
        return _concede(state, action)
    if isinstance(action, Forfeit):
        return _forfeit(state, action)
    return _stalemate(state, action)


# --------------------------------------------------------------------------- checks


def _require_player(state: MatchState, who: object) -> str:
    if not isinstance(who, str) or who not in state.players:
        raise RuleError(NOT_A_PLAYER, f"{who!r} is not a player in this match")
    return who


def _require_turn(state: MatchState, who: object) -> str:
    """O1: only the player whose turn it is may shoot or choose."""
    if not isinstance(who, str):
        raise RuleError(INVALID_ACTION, "the acting player must be named by text")
    if who not in state.players:
        raise RuleError(NOT_YOUR_TURN, f"{who!r} is not a player in this match")
    if who != state.turn:
        raise RuleError(NOT_YOUR_TURN, f"It is {state.turn}'s turn, not {who}'s")
    return who


def _ball_group(state: MatchState, name: str, value: object, *, unique: bool) -> frozenset[int]:
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise RuleError(INVALID_ACTION, f"{name} must be a list of ball numbers")
    balls: list[int] = []
    for ball in value:
        if not isinstance(ball, int) or isinstance(ball, bool):
            raise RuleError(INVALID_ACTION, f"{name}: {ball!r} is not a ball number")
        if ball != CUE and ball not in state.on_table:
            raise RuleError(INVALID_ACTION, f"{name}: the {ball} is not on the table")
        balls.append(ball)
    if unique and len(set(balls)) != len(balls):
        raise RuleError(INVALID_ACTION, f"{name} lists a ball more than once")
    return frozenset(balls)


def _shot_facts(state: MatchState, shot: ShotAction) -> ShotFacts:
    """The shot report, checked against the table: bad facts are rejected, never guessed."""
    first = shot.first
    if first is not None and (
        not isinstance(first, int) or isinstance(first, bool) or first not in state.on_table
    ):
        raise RuleError(INVALID_ACTION, f"first: {first!r} is not an object ball on the table")
    if not isinstance(shot.push_out, bool):
        raise RuleError(INVALID_ACTION, "push_out must be true or false")
    rails = _ball_group(state, "rails", shot.rails, unique=False)
    pocketed = _ball_group(state, "pocketed", shot.pocketed, unique=True)
    off_table = _ball_group(state, "off_table", shot.off_table, unique=True)
    both = pocketed & off_table
    if both:
        raise RuleError(
            INVALID_ACTION, f"{ball_list(both)} cannot be both pocketed and off the table"
        )
    return ShotFacts(first, rails, pocketed, off_table, shot.push_out)


# --------------------------------------------------------------------------- actions


def _shot(state: MatchState, shot: ShotAction) -> Outcome:
    shooter = _require_turn(state, shot.by)
    if state.choice_pending:
        raise RuleError(
            CHOICE_PENDING, "The push-out is waiting for the choice to shoot or pass (R6)"
        )
    facts = _shot_facts(state, shot)
    if facts.push_out and not state.push_out_allowed:
        raise RuleError(
            PUSH_OUT_NOT_ALLOWED,
            "A push-out may only be played on the shot right after a legal break (R6)",
        )
    lowest = lowest_ball(state)
    if lowest is None:  # cannot happen while a game is live: the 9 is always there
        raise RuleError(INVALID_STATE, "no object ball is on the table")
    judgement = judge_shot(lowest, state.is_break, facts)
    opponent = state.opponent(shooter)
    gone = facts.object_pocketed | facts.object_off_table
    notes: list[Note] = []

    if not judgement.foul and not facts.push_out and NINE in facts.object_pocketed:
        # G5/R15: the 9 on a legal shot wins, whenever it falls, the break included (said
        # as such: a player reads "on the break", not an ordinary shot's words).
        if state.is_break:
            notes.append(("G5", "The 9 was pocketed on the break: the game is won"))
        else:
            notes.append(("G5", "The 9 was pocketed on a legal shot: the game is won"))
        remaining = tuple(b for b in state.on_table if b not in gone)
        won = msgspec.structs.replace(state, on_table=remaining)
        return _end_game(won, shooter, "nine", Verdict(notes=tuple(notes)))

    remaining_set = set(state.on_table) - gone
    spotted: tuple[int, ...] = ()
    if NINE in gone:
        # G3/G4, R6.3, R4.3, R11: the 9 down on a foul or a push-out, or off the table, is
        # spotted and wins nothing.
        remaining_set.add(NINE)
        spotted = (NINE,)
        if NINE in facts.object_off_table:
            notes.append(("R11", "The 9 left the table: it is spotted (G3)"))
        elif judgement.foul:
            notes.append(("G4", "The 9 went down on a foul: it is spotted (G3) and does not win"))
        else:
            notes.append(("R6", "The 9 went down on a push-out: it is spotted (G3)"))
    on_table = tuple(sorted(remaining_set))
    counted = facts.object_pocketed - set(spotted)

    if judgement.foul:
        # R7: the inning ends, the opponent has ball in hand anywhere; no push-out follows a
        # foul break (R6.5).
        turn, ball_in_hand, choice = opponent, "table", False
    elif facts.push_out:
        # R6.3/R6.4: balls pocketed on a push-out do not count; the opponent chooses.
        turn, ball_in_hand, choice = opponent, None, True
        notes.append(("R6", "Legal push-out: the incoming player may shoot or pass the shot back"))
    elif counted:
        # R1/R5: a ball pocketed on a legal shot (the break included) keeps the shooter on.
        turn, ball_in_hand, choice = shooter, None, False
    else:
        turn, ball_in_hand, choice = opponent, None, False
    # R5/R6.1: only the shot right after a legal break may be a push-out.
    push_out_allowed = state.is_break and not judgement.foul
    if push_out_allowed:
        notes.append(("R5", "Legal break: the next shot may be played as a push-out"))

    # O3: the turn after a break (legal or not) or after a legal push-out may have the
    # longer first-shot clock; after a push-out it lasts through the choice and the shot.
    first_after: FirstAfter | None = None
    if state.is_break:
        first_after = "break"
    elif facts.push_out and not judgement.foul:
        first_after = "push_out"
    after = msgspec.structs.replace(
        state,
        turn=turn,
        ball_in_hand=ball_in_hand,
        push_out_allowed=push_out_allowed,
        choice_pending=choice,
        is_break=False,
        on_table=on_table,
        stalemate_proposed_by=None,
        first_after=first_after,
    )
    return _after_play(
        state,
        after,
        shooter,
        foul=judgement.foul,
        progress=bool(counted),
        base=Verdict(
            fouls=judgement.fouls,
            foul=judgement.foul,
            reasons=judgement.reasons,
            spotted=spotted,
        ),
        notes=notes,
    )


def _choose(state: MatchState, choose: Choose) -> Outcome:
    chooser = _require_turn(state, choose.by)
    if not state.choice_pending:
        raise RuleError(NO_CHOICE_PENDING, "There is no push-out waiting for a choice")
    if choose.choice == "shoot":
        after = msgspec.structs.replace(state, choice_pending=False, stalemate_proposed_by=None)
        note = ("R6", "The incoming player takes the shot from the position the push-out left")
    elif choose.choice == "pass":
        # Reading: the player who pushed out shoots from where the cue ball lies. No ball in
        # hand goes with the pass: a push-out only follows a legal break, so none was held.
        after = msgspec.structs.replace(
            state,
            turn=state.opponent(chooser),
            choice_pending=False,
            stalemate_proposed_by=None,
        )
        note = ("R6", "The shot is passed back to the player who pushed out")
    else:
        raise RuleError(INVALID_ACTION, "choice must be 'shoot' or 'pass'")
    return Outcome(after, Verdict(notes=(note,)))


def _clock_expired(state: MatchState, expired: ClockExpired) -> Outcome:
    """O3: the clock ran out on the player to act — a foul (R7), counted for R13 in a game.

    Reading: the clock also runs while the shoot/pass choice is pending; letting it run out
    there is the chooser's foul and the player who pushed out gets ball in hand.
    """
    player = _require_turn(state, expired.by)
    opponent = state.opponent(player)
    reasons = (("O3", "The shot clock ran out"),)
    base = Verdict(fouls=("O3",), foul=True, reasons=reasons)
    if state.is_break:
        return _clock_before_the_break(state, opponent, base)
    after = msgspec.structs.replace(
        state,
        turn=opponent,
        ball_in_hand="table",
        push_out_allowed=False,
        choice_pending=False,
        stalemate_proposed_by=None,
        first_after=None,
    )
    return _after_play(state, after, player, foul=True, progress=False, base=base, notes=[])


def _extension(state: MatchState, extension: Extension) -> Outcome:
    """O3: the player to act uses one extension; the room adds its seconds to the clock.

    Extensions are counted per player and per rack: a new rack (a stalemate re-rack
    included) gives each player the settings' number again. Any number left may be
    used, on one shot or on several; each adds its seconds once, to the shot it is
    used on.
    """
    if state.settings.shot_clock is None:
        raise RuleError(NO_SHOT_CLOCK, "This match is played without a shot clock")
    player = _require_turn(state, extension.by)
    index = state.index(player)
    used = state.extensions_used[index]
    if used >= state.settings.extensions:
        raise RuleError(NO_EXTENSIONS, "No shot-clock extensions left in this rack")
    after = msgspec.structs.replace(
        state, extensions_used=_set(state.extensions_used, index, used + 1)
    )
    seconds = extension_seconds(state.settings)
    note = ("O3", f"Extension: {seconds} more seconds for this shot")
    return Outcome(after, Verdict(notes=(note,)))


def _clock_before_the_break(state: MatchState, opponent: str, base: Verdict) -> Outcome:
    """O3/R13/R15: the clock ran out on the breaker — the break passes, nothing else counts.

    Reading: a game starts when its break is struck (R15), and R13's three fouls must fall
    in one game, so a clock foul on an unbroken rack belongs to no game. Its one penalty is
    the break: the opponent becomes the breaker, with the cue ball in the kitchen. It counts
    toward nobody's consecutive fouls and brings no R13 warning, however often the break
    passes back and forth. Nor is it an inning (R14): no automatic stalemate warning can
    come on an unbroken rack, just as no stalemate can be agreed before the break.
    """
    after = msgspec.structs.replace(
        state,
        turn=opponent,
        breaker=opponent,
        ball_in_hand="kitchen",
        consecutive_fouls=(0, 0),
        warned=(),
        stalemate_proposed_by=None,
    )
    notes = (
        ("O3", "The break passes to the opponent, cue ball in hand in the kitchen"),
        ("R13", "No game is under way before the break: this foul counts toward no one's three"),
    )
    return Outcome(after, msgspec.structs.replace(base, notes=notes))


def _concede(state: MatchState, concede: Concede) -> Outcome:
    loser = _require_player(state, concede.by)
    if concede.what not in ("game", "match"):
        raise RuleError(INVALID_ACTION, "what must be 'game' or 'match'")
    state, notes = _settle_lag_against(state, loser)
    if concede.what == "match":
        notes.append(("O4", "The match was conceded"))
        return _end_match_early(state, loser, "concede", notes)
    notes.append(("O4", "The game was conceded"))
    return _end_game(state, state.opponent(loser), "concede", Verdict(notes=tuple(notes)))


def _forfeit(state: MatchState, forfeit: Forfeit) -> Outcome:
    loser = _require_player(state, forfeit.by)
    state, notes = _settle_lag_against(state, loser)
    if state.settings.forfeit == "match":
        notes.append(("O5", "The match was forfeited after a disconnect"))
        return _end_match_early(state, loser, "forfeit", notes)
    notes.append(("O5", "The game was forfeited after a disconnect"))
    return _end_game(state, state.opponent(loser), "forfeit", Verdict(notes=tuple(notes)))


def stalemate_open(state: MatchState) -> bool:
    """A stalemate may be proposed now (R14).

    Reading: a referee warns only when no progress is being made, never on the strength
    of one shot: a proposal needs a game under way (the rack broken, R15), no warning in
    force, no proposal standing, and `STALEMATE_PROPOSAL_INNINGS` innings in a row (both
    players' counted) without a ball pocketed. An opponent's standing proposal may always
    be accepted (or proposed back, which is the same).
    """
    return (
        not state.match_over
        and not state.awaiting_lag
        and not state.is_break
        and not state.stalemate_warning
        and state.stalemate_proposed_by is None
        and state.innings_without_progress >= STALEMATE_PROPOSAL_INNINGS
    )


def _stalemate(state: MatchState, stalemate: Stalemate) -> Outcome:
    """R14 by agreement: one player proposes the stalemate warning, the other accepts.

    Reading: agreement brings the *warning* into force, exactly as the automatic trigger
    does; the re-rack still needs three fruitless innings from each player after it. Both
    players proposing is agreement. A proposal stands until the next table action (shot,
    choice or clock foul), so it always answers the position it was made about.
    """
    player = _require_player(state, stalemate.by)
    if stalemate.action not in ("propose", "accept"):
        raise RuleError(INVALID_ACTION, "action must be 'propose' or 'accept'")
    if state.is_break:
        raise RuleError(INVALID_ACTION, "No game is under way: the rack has not been broken")
    if state.stalemate_warning:
        raise RuleError(INVALID_ACTION, "The stalemate warning is already in force")
    proposer = state.stalemate_proposed_by
    if stalemate.action == "propose" and proposer is None:
        if not stalemate_open(state):
            raise RuleError(
                STALEMATE_TOO_EARLY,
                f"A stalemate may be proposed only after {STALEMATE_PROPOSAL_INNINGS} "
                "innings in a row without a ball pocketed",
            )
        after = msgspec.structs.replace(state, stalemate_proposed_by=player)
        note = ("R14", "A stalemate warning was proposed; the opponent may accept it")
        return Outcome(after, Verdict(notes=(note,)))
    if proposer == player:
        raise RuleError(INVALID_ACTION, "A player cannot accept their own stalemate proposal")
    if proposer is None:
        raise RuleError(NO_STALEMATE_PROPOSAL, "There is no stalemate proposal to accept")
    after = _give_stalemate_warning(state)
    note = ("R14", _WARNING_SENTENCE)
    return Outcome(after, Verdict(notes=(note,), stalemate_warning_given=True))


def _lag(state: MatchState, lag: LagResult) -> Outcome:
    """O6/R3: the lag winner decides who breaks the first game."""
    if not state.awaiting_lag:
        raise RuleError(INVALID_ACTION, "The lag has already been decided")
    if not isinstance(lag.winner, str) or lag.winner not in state.players:
        raise RuleError(INVALID_ACTION, "The lag winner must be one of the players")
    breaker = lag.winner if lag.breaker is None else lag.breaker
    if not isinstance(breaker, str) or breaker not in state.players:
        raise RuleError(INVALID_ACTION, "The chosen breaker must be one of the players")
    after = msgspec.structs.replace(
        state, awaiting_lag=False, breaker=breaker, turn=breaker, ball_in_hand="kitchen"
    )
    note = ("O6", "The lag is decided; its winner chose who breaks the first game")
    return Outcome(after, Verdict(notes=(note,)))


# --------------------------------------------------------------------------- bookkeeping

_WARNING_SENTENCE: Final = (
    "Stalemate warning: if each player's next three innings pocket no ball, the game is "
    "re-racked and broken again by the same player"
)


def _set(pair: tuple[int, int], index: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if index == 0 else (pair[0], value)


def _after_play(
    before: MatchState,
    after: MatchState,
    player: str,
    *,
    foul: bool,
    progress: bool,
    base: Verdict,
    notes: list[Note],
) -> Outcome:
    """R13 foul counting and R14 progress tracking after a shot or a clock foul in a game."""
    index = before.index(player)
    # R13/R15: the game, and with it every count, starts with the break shot.
    so_far = (0, 0) if before.is_break else before.consecutive_fouls
    count = so_far[index] + 1 if foul else 0
    counts = _set(so_far, index, count)
    if count >= FOULS_TO_LOSE:
        notes.append(("R13", "Third consecutive foul: the game is lost"))
        base = msgspec.structs.replace(base, notes=tuple(notes))
        return _end_game(after, before.opponent(player), "three_fouls", base)
    warned = player if count == FOULS_TO_WARN else None
    if warned is not None:
        notes.append(("R13", "Second consecutive foul: a third in a row loses the game"))
    after = msgspec.structs.replace(
        after,
        consecutive_fouls=counts,
        warned=tuple(p for p, c in zip(after.players, counts, strict=True) if c >= FOULS_TO_WARN),
    )
    after, warning_given, stalemate = _track_progress(after, player, progress, notes)
    base = msgspec.structs.replace(
        base, notes=tuple(notes), warned=warned, stalemate_warning_given=warning_given
    )
    if stalemate:
        breaker = after.breaker
        assert breaker is not None  # a game is under way, so its breaker is known
        return Outcome(
            _new_rack(after, breaker),
            msgspec.structs.replace(
                base,
                spotted=(),
                game_over=True,
                game_end="stalemate",
                new_rack=True,
                stalemate=True,
            ),
        )
    return Outcome(after, base)


def _track_progress(
    state: MatchState, player: str, progress: bool, notes: list[Note]
) -> tuple[MatchState, bool, bool]:
    """R14: count fruitless innings; give the automatic warning; call the stalemate.

    Reading: "progress" is an object ball pocketed for good (a spotted 9 is not progress,
    nor is a ball driven off the table, which the rules do not call pocketed). An inning
    ends when a shot or a clock foul hands the table to the opponent; a pass after a
    push-out is not a shot and ends no inning. ``stalemate_innings`` counts both players'
    innings in a row; the inning that triggers the warning is not one of the "next three".
    Any progress lifts the warning (its condition has failed) and starts the count again.
    """
    changed: dict[str, object] = {}
    had_progress = state.inning_had_progress
    warning = state.stalemate_warning
    since = state.innings_since_warning
    fruitless = state.innings_without_progress
    if progress:
        had_progress, fruitless, since = True, 0, (0, 0)
        if warning:
            warning = False
            notes.append(("R14", "A ball was pocketed: the stalemate warning is lifted"))
    inning_ended = state.turn != player
    warning_given = stalemate = False
    if inning_ended:
        if not had_progress:
            fruitless += 1
            if warning:
                index = state.index(player)
                since = _set(since, index, since[index] + 1)
        had_progress = False
        limit = state.settings.stalemate_innings
        if warning and min(since) >= STALEMATE_INNINGS_AFTER_WARNING:
            stalemate = True
            notes.append(
                ("R14", "Stalemate: the game is re-racked and broken again by the same player")
            )
        elif not warning and limit and fruitless >= limit:
            warning, since, warning_given = True, (0, 0), True
            notes.append(("R14", _WARNING_SENTENCE))
    changed.update(
        inning_had_progress=had_progress,
        stalemate_warning=warning,
        innings_since_warning=since,
        innings_without_progress=fruitless,
    )
    return msgspec.structs.replace(state, **changed), warning_given, stalemate


def _give_stalemate_warning(state: MatchState) -> MatchState:
    return msgspec.structs.replace(
        state, stalemate_warning=True, innings_since_warning=(0, 0), stalemate_proposed_by=None
    )


def _settle_lag_against(state: MatchState, loser: str) -> tuple[MatchState, list[Note]]:
    """Reading: a player who concedes or forfeits before the lag loses the lag as well.

    The opponent becomes the first breaker, so R3 can name the next breaker as usual.
    """
    if not state.awaiting_lag:
        return state, []
    winner = state.opponent(loser)
    settled = msgspec.structs.replace(
        state, awaiting_lag=False, breaker=winner, turn=winner, ball_in_hand="kitchen"
    )
    return settled, [("O6", "The lag goes to the opponent of the player who gave up")]


def _end_game(state: MatchState, winner: str, how: GameEnd, base: Verdict) -> Outcome:
    """A game is won: score it, then end the match (race reached) or rack again (R3)."""
    index = state.index(winner)
    score = _set(state.score, index, state.score[index] + 1)
    verdict = msgspec.structs.replace(
        base, spotted=(), game_over=True, game_winner=winner, game_end=how
    )
    if score[index] >= state.settings.race_to:
        scored = msgspec.structs.replace(state, score=score, consecutive_fouls=(0, 0), warned=())
        after = _match_over(scored, winner, "race")
        spotted = base.spotted if how == "three_fouls" else ()
        verdict = msgspec.structs.replace(
            verdict, spotted=spotted, match_over=True, match_winner=winner
        )
        return Outcome(after, verdict)
    scored = msgspec.structs.replace(state, score=score)
    breaker, why = _next_breaker(state, winner, score)
    notes = (*verdict.notes, ("R3", why))
    return Outcome(
        _new_rack(scored, breaker), msgspec.structs.replace(verdict, notes=notes, new_rack=True)
    )


def _end_match_early(state: MatchState, loser: str, how: MatchEnd, notes: list[Note]) -> Outcome:
    """O4/O5: the match ends at once; the score stays as the games were played."""
    winner = state.opponent(loser)
    after = _match_over(state, winner, how)
    return Outcome(after, Verdict(notes=tuple(notes), match_over=True, match_winner=winner))


def _match_over(state: MatchState, winner: str, how: MatchEnd) -> MatchState:
    """The match is over, however it ended (the race won, O4/O5): nobody is to act and
    nothing is pending any more."""
    return msgspec.structs.replace(
        state,
        turn=None,
        ball_in_hand=None,
        push_out_allowed=False,
        choice_pending=False,
        is_break=False,
        stalemate_proposed_by=None,
        match_over=True,
        match_winner=winner,
        match_ended_by=how,
        first_after=None,
    )


def _next_breaker(state: MatchState, winner: str, score: tuple[int, int]) -> tuple[str, str]:
    """R3: who breaks the next rack under the match's ``break_order``."""
    order = state.settings.break_order
    previous = state.breaker
    assert previous is not None  # a game was played, so it had a breaker
    loser = state.opponent(winner)
    if order == "winner":
        return winner, "The winner of the game breaks the next rack"
    if order == "loser":
        return loser, "The loser of the game breaks the next rack"
    if order == "alternate":
        return state.opponent(previous), "The players break in turn"
    if score[0] != score[1]:
        behind = state.players[0] if score[0] < score[1] else state.players[1]
        return behind, "The player behind in the match breaks the next rack"
    return (
        state.opponent(previous),
        "The score is level: the previous breaker's opponent breaks the next rack",
    )


def _new_rack(state: MatchState, breaker: str) -> MatchState:
    """R2: all nine balls racked, cue ball in hand in the kitchen; R13 counts start afresh."""
    return msgspec.structs.replace(
        state,
        turn=breaker,
        ball_in_hand="kitchen",
        push_out_allowed=False,
        choice_pending=False,
        is_break=True,
        on_table=FULL_RACK,
        breaker=breaker,
        rack=state.rack + 1,
        consecutive_fouls=(0, 0),
        warned=(),
        innings_without_progress=0,
        inning_had_progress=False,
        stalemate_warning=False,
        innings_since_warning=(0, 0),
        stalemate_proposed_by=None,
        extensions_used=(0, 0),
        first_after=None,
    )
