"""Every physical coefficient of the simulation, and which model resolves each event kind.

Values are SI. Defaults are the typical published values (Alciatore, Marlow, Mathavan et
al.); ``docs/PHYSICS.md`` gives each one with its source and the equations that use it.
Each can be changed per simulation by passing another ``Params``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from server.physics.table import (
    BALL_RADIUS,
    CORNER_HOLE_RADIUS,
    CORNER_JAW_ANGLE,
    CORNER_MOUTH,
    CORNER_SHELF,
    CUSHION_HEIGHT,
    JAW_TIP_RADIUS,
    SIDE_HOLE_RADIUS,
    SIDE_JAW_ANGLE,
    SIDE_MOUTH,
    SIDE_SHELF,
    TABLE_LENGTH,
    TABLE_WIDTH,
)


class ParamsError(ValueError):
    """A coefficient out of its physical range, or an unknown model name."""


#: The models each event kind can be resolved with, by the `Params` field that names one.
#: The registries (`MODELS` in `server/physics/resolve/<kind>/`) implement exactly these
#: (`tests/physics/test_model_names.py`). They are named here rather than read from there
#: because the models import this module for `Params`, and this module imports no model.
MODEL_NAMES: dict[str, tuple[str, ...]] = {
    "strike_model": ("instantaneous_point",),
    "ball_ball_model": ("frictional_inelastic",),
    "ball_cushion_model": ("han2005", "nose_impulse"),
    "cluster_model": ("hertz", "pairwise"),
    "pocket_model": ("drop", "fall"),
    "bed_model": ("bounce", "flat"),
}


@dataclass(frozen=True, slots=True)
class Params:
    """Coefficients (SI) and model names.

    * ``mu_slide``: ball–cloth sliding friction; a sliding ball decelerates at mu_slide·g.
    * ``mu_roll``: rolling resistance as a friction coefficient (deceleration mu_roll·g).
    * ``mu_spin``: spinning friction; spin about the vertical decays at
      5·mu_spin·g / (2R) rad/s² (≈ 10 rad/s² by default) in every state.
    * ``mu_ball``: ball–ball friction at low slip speed. The friction falls with the slip
      speed v of the contact points as mu_ball·(r + (1 − r)·exp(−c·v)) with
      r = ``mu_ball_fast_ratio`` and c = ``mu_ball_decay`` — Alciatore's fit to Marlow's
      data, 0.00995 + 0.108·exp(−1.088·v). ``mu_ball = 0`` makes collisions frictionless.
    * ``e_ball``, ``e_cushion``: restitution. ``e_cushion`` is the rebound speed ratio of
      a spinless ball hitting a cushion square on (the way it is measured).
    * ``e_cushion_falloff``: how the cushion's restitution falls with the normal impact
      speed v: e(v) = 1 − (1 − e_cushion)·(v / ``e_cushion_ref_speed``)^falloff, clamped
      to [0, 1] (``e_cushion_at``). A power law in the impact speed is the form of the
      viscoelastic contact laws (Kuwabara & Kono 1987; Ramírez, Pöschel, Brilliantov &
      Schwager 1999); the defaults put 0.85 at 1 m/s (the typical measured rebound,
      Alciatore) and 0.77 at 2.9 m/s (the peak of Han's 2005 measured fit), and give 0.89
      at 0.5 m/s, 0.73 at 5 m/s and 0.66 at 8 m/s. ``e_cushion_falloff = 0`` is a constant
      ``e_cushion``.
    * ``mu_cushion``: ball–cushion friction (side spin, running and reverse english).
    * ``pocket_model``: ``"fall"`` (a ball past the slate edge falls and can rattle back
      out until it has dropped ``pocket_drop_depth``; the pocket's back returns
      ``e_pocket_back`` of the speed into it) or ``"drop"`` (gone at the slate edge).
    * ``cluster_model``: how a ball striking touching or nearly touching balls is resolved:
      ``"hertz"`` (compliant contact, all contacts at once; ``resolve/cluster/hertz.py``)
      or ``"pairwise"`` (one instantaneous pair at a time). ``ball_youngs_modulus`` and
      ``ball_poisson`` (phenolic resin) set the Hertz stiffness; ``cluster_steps`` the steps
      per contact time; a ball joins the cluster when its gap to a member is below
      ``cluster_gap_factor`` × the distance the impact speed covers in one contact time;
      impacts slower than ``cluster_min_speed`` stay pairwise.
    * ``bed_model``: what the slate does with a ball driven into it (an elevated cue, a ball
      landing, a ball struck from above): ``"bounce"`` returns ``e_slate`` of the speed
      into it, with the cloth's sliding friction ``mu_slide`` during the bounce, so balls
      leave the cloth and fly; ``"flat"`` takes every vertical impulse (nothing leaves the
      cloth). A ball that would rise slower than ``hop_min_speed`` stays on the cloth.
    """

    ball_radius: float = BALL_RADIUS
    ball_mass: float = 0.17
    g: float = 9.81
    mu_slide: float = 0.2
    mu_roll: float = 0.01
    mu_spin: float = 10.0 * 2.0 * BALL_RADIUS / (5.0 * 9.81)
    mu_ball: float = 0.00995 + 0.108
    mu_ball_fast_ratio: float = 0.00995 / (0.00995 + 0.108)
    mu_ball_decay: float = 1.088
    e_ball: float = 0.95
    e_cushion: float = 0.85
    e_cushion_ref_speed: float = 1.0
    e_cushion_falloff: float = 0.4
    mu_cushion: float = 0.2
    cushion_height: float = CUSHION_HEIGHT
    miscue_limit: float = 0.5
    miscue_speed_factor: float = 0.25
    strike_model: str = "instantaneous_point"
    ball_ball_model: str = "frictional_inelastic"
    cluster_model: str = "hertz"
    ball_youngs_modulus: float = 5.84e9
    ball_poisson: float = 0.34
    cluster_steps: float = 40.0
    cluster_gap_factor: float = 1.0
    cluster_min_speed: float = 0.05
    ball_cushion_model: str = "nose_impulse"
    pocket_model: str = "fall"
    pocket_drop_depth: float = BALL_RADIUS / 2.0
    e_pocket_back: float = 0.13
    bed_model: str = "bounce"
    e_slate: float = 0.5
    hop_min_speed: float = 0.1

    def __post_init__(self) -> None:
        positive = (
            "ball_radius",
            "ball_mass",
            "g",
            "mu_slide",
            "mu_roll",
            "mu_spin",
            "ball_youngs_modulus",
            "cluster_gap_factor",
            "e_cushion_ref_speed",
            "pocket_drop_depth",
            "hop_min_speed",
        )
        for name in positive:
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0.0):
                raise ParamsError(f"{name} must be a positive finite number, got {value!r}")
        non_negative = (
            "mu_ball",
            "mu_ball_decay",
            "mu_cushion",
            "cluster_min_speed",
            "e_cushion_falloff",
        )
        for name in non_negative:
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0.0):
                raise ParamsError(f"{name} must be a finite number >= 0, got {value!r}")
        unit = (
            "e_ball",
            "e_cushion",
            "mu_ball_fast_ratio",
            "miscue_speed_factor",
            "e_pocket_back",
            "e_slate",
        )
        for name in unit:
            value = getattr(self, name)
            if not (math.isfinite(value) and 0.0 <= value <= 1.0):
                raise ParamsError(f"{name} must be within [0, 1], got {value!r}")
        if not 0.0 <= self.ball_poisson < 0.5:
            raise ParamsError(f"ball_poisson must be within [0, 0.5), got {self.ball_poisson!r}")
        if not 8.0 <= self.cluster_steps <= 10_000.0:
            raise ParamsError(f"cluster_steps must be within 8 … 10000, got {self.cluster_steps!r}")
        if not 0.0 < self.miscue_limit < 1.0:
            raise ParamsError(f"miscue_limit must be within (0, 1), got {self.miscue_limit!r}")
        if not self.ball_radius < self.cushion_height < 2.0 * self.ball_radius:
            raise ParamsError("cushion_height must lie between the ball's centre and its top")
        for field, known in MODEL_NAMES.items():
            name = getattr(self, field)
            if name not in known:
                raise ParamsError(f"{field} {name!r} is not one of: {', '.join(sorted(known))}")

    @property
    def spin_decay(self) -> float:
        """Angular deceleration of the spin about the vertical, rad/s²."""
        return 5.0 * self.mu_spin * self.g / (2.0 * self.ball_radius)

    @property
    def cushion_angle(self) -> float:
        """Elevation of the nose contact above the ball's centre, radians: sinθ = h/R − 1."""
        return math.asin(self.cushion_height / self.ball_radius - 1.0)

    def e_cushion_at(self, normal_speed: float) -> float:
        """Cushion restitution at the ball's horizontal speed into the cushion (m/s)."""
        if self.e_cushion_falloff == 0.0 or normal_speed <= 0.0:
            return self.e_cushion
        ratio = normal_speed / self.e_cushion_ref_speed
        e: float = 1.0 - (1.0 - self.e_cushion) * ratio**self.e_cushion_falloff
        return min(1.0, max(0.0, e))

    def mu_ball_at(self, slip_speed: float) -> float:
        """Ball–ball friction at the contact points' relative slip speed (m/s)."""
        r = self.mu_ball_fast_ratio
        return self.mu_ball * (r + (1.0 - r) * math.exp(-self.mu_ball_decay * slip_speed))


DEFAULT_PARAMS = Params()


def params_dict(params: Params = DEFAULT_PARAMS) -> dict[str, float | str]:
    """Every constant in use, flat, SI: the coefficients, the models and the table."""
    out: dict[str, float | str] = dict(asdict(params))
    out.update(
        spin_decay=params.spin_decay,
        table_length=TABLE_LENGTH,
        table_width=TABLE_WIDTH,
        corner_mouth=CORNER_MOUTH,
        side_mouth=SIDE_MOUTH,
        corner_jaw_angle_deg=CORNER_JAW_ANGLE,
        side_jaw_angle_deg=SIDE_JAW_ANGLE,
        jaw_tip_radius=JAW_TIP_RADIUS,
        corner_shelf=CORNER_SHELF,
        side_shelf=SIDE_SHELF,
        corner_hole_radius=CORNER_HOLE_RADIUS,
        side_hole_radius=SIDE_HOLE_RADIUS,
    )
    return out
