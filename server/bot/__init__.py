"""A computer player for nine-ball: ``decide(view, level, seed) -> Decision``.

Pure like the referee and the physics it uses: no I/O, no clock, no global random
source — the same view, level and seed give the same decision in any process, and every
value in and out is picklable, so a room can run it in a process pool. See README.md in
this folder for how it chooses and what each level does.
"""

from server.bot.brain import decide
from server.bot.decision import Choose, Decision, LagChoice, LagShot, Shot
from server.bot.levels import LEVELS, Level, level_of
from server.bot.view import BotView, LagStep, view_of

__all__ = [
    "LEVELS",
    "BotView",
    "Choose",
    "Decision",
    "LagChoice",
    "LagShot",
    "LagStep",
    "Level",
    "Shot",
    "decide",
    "level_of",
    "view_of",
]
