"""From the server's values to the wire's views (pure functions)."""

from __future__ import annotations

from protocol import messages as m
from server.rooms.shots import SimResult
from server.rooms.table import Table, player_seat
from server.rooms.wording import foul_code, note_code
from server.rules import Verdict, stalemate_open


def seat_of(player: str | None) -> int | None:
    return player_seat(player)


def table_view(table: Table, clock: m.ClockView | None) -> m.TableView:
    state = table.state
    lowest = state.on_table[0] if state.on_table else None
    breaker = player_seat(state.breaker)
    return m.TableView(
        rack=state.rack,
        breaker=breaker if breaker is not None else 0,
        turn=player_seat(state.turn),
        ball_in_hand=state.ball_in_hand,
        push_out_allowed=state.push_out_allowed,
        choice_pending=state.choice_pending,
        balls=list(table.balls),
        lowest=lowest,
        score=list(state.score),
        fouls=list(state.consecutive_fouls),
        warned=sorted(player_seat(p) or 0 for p in state.warned),
        stalemate_warning=state.stalemate_warning,
        stalemate_proposed_by=player_seat(state.stalemate_proposed_by),
        match_over=state.match_over,
        match_winner=player_seat(state.match_winner),
        clock=clock,
        stalemate_open=stalemate_open(state),
    )


def verdict_view(verdict: Verdict) -> m.VerdictView:
    return m.VerdictView(
        foul=verdict.foul,
        fouls=list(verdict.fouls),
        reasons=[(rule, text) for rule, text in verdict.reasons],
        notes=[(rule, text) for rule, text in verdict.notes],
        spotted=list(verdict.spotted),
        game_over=verdict.game_over,
        game_winner=player_seat(verdict.game_winner),
        game_end=verdict.game_end,
        match_over=verdict.match_over,
        match_winner=player_seat(verdict.match_winner),
        new_rack=verdict.new_rack,
        warned=player_seat(verdict.warned),
        stalemate=verdict.stalemate,
        stalemate_warning_given=verdict.stalemate_warning_given,
        reason_codes=[foul_code(rule, text) for rule, text in verdict.reasons],
        note_codes=[note_code(rule, text) for rule, text in verdict.notes],
    )


def shot_report_view(result: SimResult) -> m.ShotReport:
    """What the shot touched and pocketed, as sent: each ball that met a rail once, in order."""
    return m.ShotReport(
        first=result.first,
        rails=sorted(set(result.rails)),
        pocketed=list(result.pocketed),
        off_table=list(result.off_table),
    )


def final_view(result: SimResult) -> list[tuple[float, float] | None]:
    """Where balls 0–9 came to rest (None: off the table or pocketed), by ball number."""
    return [result.final.get(ball) for ball in range(10)]
