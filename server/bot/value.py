"""How good the table is for the bot after a shot: a rough chance of winning the rack.

Every simulated shot is judged by the real referee (``rules.apply``), so fouls, the break,
push-outs, the 9 on a foul and the third foul are exactly what the server will rule. What
the referee cannot say is how good the position left is; that is estimated here, with a
small model of the rest of the rack:

* the game won is 1, the game lost (three fouls) is 0, a re-rack is ½;
* a player to shoot with a pot of chance ``q`` on the next ball and ``n`` balls left wins
  ``W(q, n) = q·V(n−1) + (1−q)·(1 − U(n))``: potting leaves them at the table with one
  ball fewer, missing hands the opponent a shot. ``V(n)`` is the value of being at the
  table with a typical shot (the level's :attr:`Level.typical`, the chance of potting a
  ball *and* getting on the next), ``U(n)`` of being at it after the other player
  missed, with a worse shot (:data:`AFTER_MISS` of a typical one). Both follow from
  ``V(0) = 1`` by the same rule, ball by ball, so every ball potted is worth something
  even to a player who rarely runs out;
* the opponent's turn is worth ``1 − W(q, n)`` to the bot, ``q`` their pot chance from
  where the cue ball stopped — the bot assumes an opponent as good as itself; an
  opponent with no ball to hit straight must kick, and fouls about :data:`KICK_FOUL` of
  the time: ball in hand for the bot, or the game if it is their third foul (R13);
* ball in hand for the opponent is their turn with a near-certain first pot; after the
  bot's own second foul a little worse still (R13: one more loses);
* after the bot's push-out the opponent takes whichever of shooting or passing is better
  for them, so the bot gets the lesser of the two.

The estimate only needs to rank shots of the same position, so it is kept cheap: it is
computed for every Monte-Carlo run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from server import physics, rules
from server.bot.geometry import best_chance, hittable, others
from server.rules import MatchState

Point = tuple[float, float]

AFTER_MISS: Final = 0.75
"""The shot a miss leaves the other player, as a share of a typical one."""
KICK_FOUL: Final = 0.35
"""How often a player with no ball to hit straight fouls (a rough figure for kicks)."""
SECOND_FOUL_COST: Final = 0.04
MAX_BALLS: Final = 9


@dataclass(frozen=True, slots=True)
class RackModel:
    """``V(n)`` and ``U(n)`` (see the module's doc) for ``n`` = 0 … 9 balls left."""

    at_table: tuple[float, ...]
    after_miss: tuple[float, ...]

    def turn(self, chance: float, balls_left: int) -> float:
        """``W(q, n)``: the shooter's chance of winning with a pot of ``chance`` next."""
        n = min(max(balls_left, 1), MAX_BALLS)
        return chance * self.at_table[n - 1] + (1.0 - chance) * (1.0 - self.after_miss[n])


def rack_model(typical: float) -> RackModel:
    """Solve ``V`` and ``U`` ball by ball: with ``m`` the after-miss chance,
    ``U(n) = m·V(n−1) + (1−m)·(1 − U(n))`` gives ``U(n)``, then
    ``V(n) = t·V(n−1) + (1−t)·(1 − U(n))``."""
    miss = AFTER_MISS * typical
    at_table = [1.0]
    after_miss = [1.0]
    for _ in range(MAX_BALLS):
        u = (miss * at_table[-1] + 1.0 - miss) / (2.0 - miss)
        after_miss.append(u)
        at_table.append(typical * at_table[-1] + (1.0 - typical) * (1.0 - u))
    return RackModel(tuple(at_table), tuple(after_miss))


@dataclass(frozen=True, slots=True)
class Judge:
    """What valuing an outcome needs: the state before the shot, who shoots, and the
    level's aim spread (radians) and typical chance."""

    state: MatchState
    me: str
    sigma: float
    floor: float
    typical: float
    model: RackModel

    def chance_at(self, layout: dict[int, Point], ball: int) -> float:
        cue = layout.get(0)
        target = layout.get(ball)
        if cue is None or target is None:
            return 0.0
        return best_chance(cue, target, others(layout, 0, ball), self.sigma, self.floor)

    def value(
        self, final: dict[int, Point | None], facts: physics.ShotFacts, push_out: bool
    ) -> tuple[float, bool]:
        """The outcome's value for the shooter, and whether the referee calls a foul."""
        action = rules.ShotAction(
            by=self.me,
            first=facts.first,
            rails=tuple(facts.rails),
            pocketed=tuple(facts.pocketed),
            off_table=tuple(facts.off_table),
            push_out=push_out,
        )
        try:
            outcome = rules.apply(self.state, action)
        except rules.RuleError:
            return 0.0, True
        verdict, after = outcome.verdict, outcome.state
        if verdict.game_over:
            if verdict.game_winner is None:
                return 0.5, verdict.foul
            return (1.0 if verdict.game_winner == self.me else 0.0), verdict.foul
        return self.position_value(after, settle(final, after, verdict)), verdict.foul

    def position_value(self, after: MatchState, layout: dict[int, Point]) -> float:
        """The value for the shooter of the table ``layout`` in state ``after``."""
        n = len(after.on_table)
        lowest = after.on_table[0]
        t = self.typical
        turn = self.model.turn
        if after.turn == self.me:
            mine = turn(self.chance_at(layout, lowest), n)
            # Right after a legal break the shooter may push out instead (R6).
            return max(mine, 0.5) if after.push_out_allowed else mine
        if after.choice_pending:
            theirs = turn(self.chance_at(layout, lowest), n)
            return min(theirs, 1.0 - theirs)
        if after.ball_in_hand is not None:
            cost = SECOND_FOUL_COST if after.fouls_of(self.me) == 2 else 0.0
            return 1.0 - turn((1.0 + t) / 2.0, n) - cost
        q = self.chance_at(layout, lowest)
        theirs = turn(q, n)
        if after.push_out_allowed:
            return 1.0 - max(theirs, 0.5)
        if q == 0.0 and self.snookered(layout, lowest):
            # They must kick, and a kick often fouls: ball in hand for the bot, or the
            # game when it is their third foul (R13).
            opponent = after.opponent(self.me)
            gain = 1.0 if after.fouls_of(opponent) == 2 else turn((1.0 + t) / 2.0, n)
            return (1.0 - KICK_FOUL) * (1.0 - theirs) + KICK_FOUL * gain
        return 1.0 - theirs

    def snookered(self, layout: dict[int, Point], ball: int) -> bool:
        """No part of ``ball`` can be hit straight from where the cue ball lies."""
        cue, target = layout.get(0), layout.get(ball)
        if cue is None or target is None:
            return False
        return not hittable(cue, target, others(layout, 0, ball))


def settle(
    final: dict[int, Point | None], after: MatchState, verdict: rules.Verdict
) -> dict[int, Point]:
    """The balls as the table will stand: object balls the referee keeps off stay off,
    the 9 is spotted when the referee says so (G3)."""
    layout: dict[int, Point] = {}
    for ball, pos in final.items():
        if pos is None:
            continue
        if ball == 0 or ball in after.on_table:
            layout[ball] = pos
    for ball in verdict.spotted:
        layout.pop(ball, None)
        layout[ball] = physics.spot_ball(layout, ball)
    return layout


def judge_for(state: MatchState, me: str, sigma_deg: float, typical: float) -> Judge:
    """A :class:`Judge` for a level whose aim spreads by ``sigma_deg`` degrees. The floor
    (an object-ball error no aim removes) grows with it, and never falls below what the
    geometry itself gets wrong."""
    sigma = math.radians(sigma_deg)
    floor = math.radians(0.15 + 1.5 * sigma_deg)
    return Judge(
        state=state,
        me=me,
        sigma=sigma,
        floor=floor,
        typical=typical,
        model=rack_model(typical),
    )
