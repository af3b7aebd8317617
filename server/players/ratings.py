"""Per-rack ratings on a base-2 logistic scale: 100 points are 2:1 odds of winning a rack.

Pure functions, no I/O: the stores call `rate_rack` inside their transactions, so the
arithmetic lives in one place whichever backend runs it. docs/RATINGS.md says why this
model and not Glicko-2, and where every constant comes from.

- `expected(a, b)`: the chance that a player rated `a` wins a rack from one rated `b`,
  `1 / (1 + 2 ** (-(a - b) / 100))`. A 100-point edge wins two racks of three, 200
  points four of five.
- `k_factor(racks)`: how far one rack moves a rating that already rests on `racks` rated
  racks. Early on a rating is an estimate from little evidence and each rack is a large
  share of it: the step is the Newton step of the maximum-likelihood estimate,
  `1 / (SLOPE * (racks + PRIOR_RACKS))`, i.e. as if the starting rating were worth
  `PRIOR_RACKS` racks of evidence; it never falls below `K_ESTABLISHED`, so an established
  rating still follows a player who improves.
- `rate_rack(winner, loser)`: both players' new ratings after one rack. Each side moves by
  its own K, so a newcomer's result moves the newcomer a lot and the established
  opponent little. A bot (fixed rating) never moves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

#: Rating points for 2:1 odds per rack (the base-2 logistic's scale).
SCALE: Final = 100.0
#: Where every account starts: the middle of the FargoRate-like scale's club range.
START: Final = 500.0
#: Rated racks after which a rating stops being provisional.
PROVISIONAL_RACKS: Final = 30
#: d expected / d rating at even odds: ln 2 / SCALE * 1/4 (the logistic's slope at 1/2).
SLOPE: Final = math.log(2.0) / SCALE / 4.0
#: What the starting rating is worth, in racks of evidence (sets the first rack's K).
PRIOR_RACKS: Final = 12
#: The smallest K: an established rating's step per rack (see docs/RATINGS.md).
K_ESTABLISHED: Final = 8.0
#: Ratings are kept within these bounds (a runaway from a bug or a farm stops here).
FLOOR: Final = 0.0
CEILING: Final = 1200.0

#: Fixed ratings of the bots by level (server/bot/levels.py): `ladder_ratings(250, …)` of
#: the measured ladder (bench/README.md, 200 racks a pairing: level 2 won 71 % of racks
#: from level 1, 3 from 2 69 %, 4 from 3 72 %, 5 from 4 70 %), rounded; level 1, a
#: beginner, is pinned at half a new account's 500. Measure the ladder again and run
#: `ladder_ratings` when the bot or the physics changes.
BOT_RATINGS: Final[Mapping[int, float]] = {1: 250.0, 2: 379.0, 3: 495.0, 4: 631.0, 5: 753.0}
#: Player ids of bots: `bot_<level>` (a seat's player id when a bot sits in it).
BOT_PREFIX: Final = "bot_"


def expected(rating: float, opponent: float) -> float:
    """The chance that a player rated `rating` wins one rack from one rated `opponent`."""
    return 1.0 / (1.0 + math.pow(2.0, -(rating - opponent) / SCALE))


def odds(edge: float) -> float:
    """The rack odds a rating edge stands for: 100 points -> 2.0, 200 -> 4.0."""
    return math.pow(2.0, edge / SCALE)


def k_factor(racks: int) -> float:
    """Points one rack can move a rating that rests on `racks` rated racks (see the
    module's docstring): 48 for a newcomer, 24 after a dozen racks, 14 at the thirtieth,
    `K_ESTABLISHED` from the 61st on."""
    if racks < 0:
        raise ValueError("racks must not be negative")
    return max(K_ESTABLISHED, 1.0 / (SLOPE * (racks + PRIOR_RACKS)))


def is_provisional(racks: int) -> bool:
    return racks < PROVISIONAL_RACKS


@dataclass(frozen=True, slots=True)
class Side:
    """One player of a rack as the rating sees it: the rating before the rack, the rated
    racks it rests on, and whether it is fixed (a bot)."""

    rating: float
    racks: int
    fixed: bool = False


def _clamp(rating: float) -> float:
    return min(CEILING, max(FLOOR, rating))


def rate_rack(winner: Side, loser: Side) -> tuple[float, float]:
    """The winner's and the loser's ratings after one rack between them."""
    surprise = 1.0 - expected(winner.rating, loser.rating)
    gained = winner.rating + k_factor(winner.racks) * surprise
    lost = loser.rating - k_factor(loser.racks) * surprise
    return (
        winner.rating if winner.fixed else _clamp(gained),
        loser.rating if loser.fixed else _clamp(lost),
    )


# --- bots -------------------------------------------------------------------------------------


def bot_player_id(level: int) -> str:
    """The player id a bot of `level` plays under (one per level, so its racks can be told
    apart from people's and its rating looked up)."""
    if level not in BOT_RATINGS:
        raise ValueError(f"no bot level {level}")
    return f"{BOT_PREFIX}{level}"


def bot_level(player: str) -> int | None:
    """The level of a bot's player id, None for anyone else."""
    if not player.startswith(BOT_PREFIX):
        return None
    tail = player.removeprefix(BOT_PREFIX)
    if not tail.isdigit() or not tail.isascii():
        return None
    level = int(tail)
    return level if level in BOT_RATINGS else None


def bot_rating(level: int) -> float:
    return BOT_RATINGS[level]


def edge_of(win_rate: float) -> float:
    """The rating edge that wins racks at `win_rate`: 100 * log2(p / (1 - p))."""
    if not 0.0 < win_rate < 1.0:
        raise ValueError("a win rate strictly between 0 and 1 is needed")
    return SCALE * math.log2(win_rate / (1.0 - win_rate))


def ladder_ratings(anchor: float, win_rates: Sequence[float]) -> tuple[float, ...]:
    """Bot ratings from a measured ladder: `win_rates[i]` is the share of racks level
    `i + 2` won against level `i + 1` (bench/bot_ladder.py). Level 1 is pinned at
    `anchor` and each level sits its measured edge above the one below, so the table of
    `BOT_RATINGS` can be replaced by `dict(enumerate(ladder_ratings(...), start=1))`."""
    ratings = [anchor]
    for rate in win_rates:
        ratings.append(ratings[-1] + edge_of(rate))
    return tuple(ratings)
