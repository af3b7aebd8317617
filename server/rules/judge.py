"""Which fouls one shot commits, judged only from the facts of the shot (G2).

This is the part of the referee a person would check first, so it is kept apart from
the bookkeeping of turns and games: given the balls on the table and what the cue ball
did, it names every rule broken and says why in a plain sentence.
"""

from __future__ import annotations

from typing import Final, NamedTuple

CUE: Final = 0
BREAK_RAIL_BALLS: Final = 4
FOUL_ORDER: Final = ("R4", "R8", "R9", "R11", "G1", "O3")


class ShotFacts(NamedTuple):
    """A validated shot report: ball sets instead of raw lists."""

    first: int | None
    rails: frozenset[int]
    pocketed: frozenset[int]
    off_table: frozenset[int]
    push_out: bool

    @property
    def object_pocketed(self) -> frozenset[int]:
        return self.pocketed - {CUE}

    @property
    def object_off_table(self) -> frozenset[int]:
        return self.off_table - {CUE}


class Judgement(NamedTuple):
    """The fouls of one shot, in a stable order, each with its reason."""

    reasons: tuple[tuple[str, str], ...]

    @property
    def fouls(self) -> tuple[str, ...]:
        return tuple(rule for rule, _ in self.reasons)

    @property
    def foul(self) -> bool:
        return bool(self.reasons)


def ball_name(ball: int) -> str:
    return "the cue ball" if ball == CUE else f"the {ball}"


def ball_list(balls: frozenset[int] | set[int]) -> str:
    names = [ball_name(b) for b in sorted(balls)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def judge_shot(lowest: int, is_break: bool, facts: ShotFacts) -> Judgement:
    """Every foul the shot commits.

    ``lowest`` is the lowest ball on the table when the shot starts.

    Readings where the rules are terse (each also has a conformance scenario):
    * R8 covers "no ball at all"; R9 is judged only when the cue ball did contact a ball,
      since R9 speaks of rails *after* that contact (a total miss is R8 alone).
    * On the break, R4 takes the place of R9: its "pocket a ball or drive four numbered
      balls to a rail" is the stricter form of the same requirement. A breaker who hits
      a ball other than the 1 commits R8 as on any shot.
    * A push-out waives R8 and R9 only (R6.2); the cue ball and balls off the table are
      still fouls.
    """
    found: dict[str, str] = {}
    if not facts.push_out:
        if facts.first is None:
            found["R8"] = "The cue ball did not contact any object ball"
        elif facts.first != lowest:
            found["R8"] = (
                f"The cue ball first contacted {ball_name(facts.first)}, "
                f"not the lowest ball ({ball_name(lowest)})"
            )
        if is_break:
            rail_balls = {b for b in facts.rails if b != CUE}
            if not facts.object_pocketed and len(rail_balls) < BREAK_RAIL_BALLS:
                found["R4"] = (
                    "The break pocketed no ball and drove "
                    f"{_count_balls(len(rail_balls))} to a rail (four are needed)"
                )
        elif facts.first is not None and not facts.object_pocketed and not facts.rails:
            found["R9"] = (
                "No object ball was pocketed and no ball reached a rail after the first contact"
            )
    if facts.object_off_table:
        balls = facts.object_off_table
        verb = "was" if len(balls) == 1 else "were"
        found["R11"] = f"{ball_list(balls).capitalize()} {verb} driven off the table"
    if CUE in facts.pocketed:
        found["G1"] = "The cue ball was pocketed"
    elif CUE in facts.off_table:
        found["G1"] = "The cue ball left the table"
    return Judgement(tuple((rule, found[rule]) for rule in FOUL_ORDER if rule in found))


def _count_balls(count: int) -> str:
    if count == 0:
        return "no numbered ball"
    return f"only {count} numbered ball{'s' if count > 1 else ''}"
