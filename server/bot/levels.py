"""The five levels: how well a bot strokes the ball and how hard it thinks.

A level is two things. **Execution noise** (the spread of the aim, the speed and the tip
around what the bot meant): every shot the bot returns is its chosen stroke plus noise
drawn from the decision's seed, and the bot plans knowing its own noise, so a weak level
also *chooses* easier shots. **Search**: which kinds of shot it even considers (a
beginner aims straight pots at one speed without english; the strong level plays banks,
kicks, combinations, caroms on the 9, safeties and side spin), how many strokes it tries
without noise, and how many Monte-Carlo runs it spends on the best of them.

The figures were set by playing the levels against each other (``bench/bot_ladder.py``;
the measured table is in ``bench/README.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

Kind = str
POT: Final = "pot"
BANK: Final = "bank"
KICK: Final = "kick"
COMBO: Final = "combo"
CAROM: Final = "carom"
SAFETY: Final = "safety"
PUSH: Final = "push"
BREAK: Final = "break"


@dataclass(frozen=True, slots=True)
class Level:
    """Everything a level changes.

    ``angle_sd`` (degrees), ``speed_sd`` (a fraction of the speed) and ``tip_sd`` (ball
    radii): the execution noise, normal and independent. ``speeds``: multiples of the
    speed a pot needs (the object ball reaching the pocket with a little to spare).
    ``tips``: (side, height) offsets tried on pots. ``kinds``: the shot kinds considered.
    ``variants``: how many strokes at most are simulated without noise before the
    Monte-Carlo. ``rounds``: successive halving, each (candidates kept, runs each has by
    the end of the round) — many candidates get a few runs, the best few get many.
    ``placements``: ball-in-hand spots searched. ``typical``: the chance of potting a ball
    and getting on the next that the value model assumes for this level (see
    :mod:`server.bot.value`). ``break_spots``: where the cue ball is put for the break
    and how far (metres) off the 1's centre it is aimed; ``break_speeds``: the speeds
    tried; ``break_rounds``: the Monte-Carlo of the break (none: the first stroke,
    untried). ``corrects_aim``: the level allows for throw and squirt (a beginner aims
    the plain ghost ball and misses slow cuts by the throw).
    """

    number: int
    name: str
    angle_sd: float
    speed_sd: float
    tip_sd: float
    speeds: tuple[float, ...]
    tips: tuple[tuple[float, float], ...]
    kinds: frozenset[Kind]
    variants: int
    rounds: tuple[tuple[int, int], ...]
    placements: int
    typical: float
    safety_variants: int
    break_spots: tuple[tuple[tuple[float, float], float], ...]
    break_speeds: tuple[float, ...]
    break_rounds: tuple[tuple[int, int], ...]
    corrects_aim: bool = True

    @property
    def max_runs(self) -> int:
        """Monte-Carlo runs one candidate can get."""
        return max(runs for _, runs in self.rounds)


# Break strokes (see docs/PHYSICS.md, "The break"): a full hit on the 1 from the middle
# makes about half its breaks in this physics; the same stroke aimed about 22 mm off the
# 1's centre (the 1 hit two-thirds full) makes about three in four, and so does a square
# break from 6–15 cm off a side rail, which sends a wing ball into a foot corner.
_FULL: Final = ((0.5, 0.635), 0.0)
_CUT_LEFT: Final = ((0.5, 0.635), 0.022)
_CUT_RIGHT: Final = ((0.5, 0.635), -0.022)
_SIDE_LOW: Final = ((0.5, 0.1), 0.0)
_SIDE_HIGH: Final = ((0.5, 1.17), 0.0)
_SIDE_LOW_WIDE: Final = ((0.5, 0.14), 0.0)
_SIDE_HIGH_WIDE: Final = ((0.5, 1.13), 0.0)

LEVELS: Final[dict[int, Level]] = {
    1: Level(
        number=1,
        name="beginner",
        angle_sd=1.0,
        speed_sd=0.17,
        tip_sd=0.06,
        speeds=(1.8,),
        tips=((0.0, 0.0),),
        kinds=frozenset({POT, KICK}),
        variants=8,
        rounds=((4, 4),),
        placements=1,
        typical=0.35,
        safety_variants=4,
        break_spots=(_FULL,),
        break_speeds=(8.5,),
        break_rounds=(),
        corrects_aim=False,
    ),
    2: Level(
        number=2,
        name="casual",
        angle_sd=0.35,
        speed_sd=0.1,
        tip_sd=0.05,
        speeds=(1.3, 2.2),
        tips=((0.0, 0.0), (0.0, 0.35)),
        kinds=frozenset({POT, KICK, SAFETY}),
        variants=14,
        rounds=((6, 4), (2, 10)),
        placements=1,
        typical=0.5,
        safety_variants=6,
        break_spots=(_FULL,),
        break_speeds=(9.5,),
        break_rounds=(),
    ),
    3: Level(
        number=3,
        name="club",
        angle_sd=0.2,
        speed_sd=0.09,
        tip_sd=0.04,
        speeds=(1.25, 1.8, 2.8),
        tips=((0.0, -0.35), (0.0, 0.0), (0.0, 0.35)),
        kinds=frozenset({POT, KICK, SAFETY, COMBO, PUSH}),
        variants=26,
        rounds=((8, 6), (3, 16)),
        placements=2,
        typical=0.65,
        safety_variants=12,
        break_spots=(_CUT_LEFT, _SIDE_LOW),
        break_speeds=(10.0,),
        break_rounds=((2, 3),),
    ),
    4: Level(
        number=4,
        name="advanced",
        angle_sd=0.07,
        speed_sd=0.05,
        tip_sd=0.03,
        speeds=(1.2, 1.7, 2.4, 3.4),
        tips=((0.0, -0.4), (0.0, -0.15), (0.0, 0.15), (0.0, 0.4), (-0.3, 0.0), (0.3, 0.0)),
        kinds=frozenset({POT, KICK, SAFETY, COMBO, BANK, CAROM, PUSH}),
        variants=40,
        rounds=((12, 6), (5, 16), (2, 30)),
        placements=3,
        typical=0.8,
        safety_variants=18,
        break_spots=(_CUT_LEFT, _CUT_RIGHT, _SIDE_LOW, _SIDE_HIGH),
        break_speeds=(10.0, 11.0),
        break_rounds=((8, 2), (2, 6)),
    ),
    5: Level(
        number=5,
        name="strong",
        angle_sd=0.025,
        speed_sd=0.03,
        tip_sd=0.02,
        speeds=(1.15, 1.5, 2.0, 2.7, 3.6),
        tips=(
            (0.0, -0.45),
            (0.0, -0.2),
            (0.0, 0.1),
            (0.0, 0.4),
            (-0.3, -0.2),
            (0.3, -0.2),
            (-0.3, 0.3),
            (0.3, 0.3),
        ),
        kinds=frozenset({POT, KICK, SAFETY, COMBO, BANK, CAROM, PUSH}),
        variants=56,
        rounds=((16, 6), (6, 18), (2, 36)),
        placements=4,
        typical=0.88,
        safety_variants=24,
        break_spots=(
            _CUT_LEFT,
            _CUT_RIGHT,
            _SIDE_LOW,
            _SIDE_HIGH,
            _SIDE_LOW_WIDE,
            _SIDE_HIGH_WIDE,
        ),
        break_speeds=(10.0, 11.0),
        break_rounds=((12, 2), (4, 4), (2, 8)),
    ),
}


def level_of(number: int) -> Level:
    """The level numbered 1 (beginner) … 5 (strong); ``ValueError`` for anything else."""
    if isinstance(number, bool) or number not in LEVELS:
        raise ValueError(f"level must be 1 … {len(LEVELS)}, got {number!r}")
    return LEVELS[number]
