"""The event-based simulator: exact event times, closed-form motion in between.

Every ball's motion between events is a quadratic in time (``motion.py``). The engine keeps,
for each ball, the time of its next own event (a phase change, a cushion or jaw contact,
entering a pocket, landing) and, for each pair, the time of its next contact; it jumps to
the earliest, resolves it with the model ``Params`` names, and recomputes only what
involves the balls whose motion changed. Pair times are pruned by a conservative reach
bound before a quartic is solved; cushion pieces and pockets a ball can reach are found
with a bounding-box query on the pymunk table world.

A ball is on the cloth, in flight (``flying``: thrown up by the slate, a collision or a
cushion; its height is part of its segment and its contacts are three-dimensional, see
``flight.py``), or falling into a pocket's hole (``falling``). Two balls on the cloth meet
in the plane, exactly as before balls could fly; any other pair meets as two spheres.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from server.physics import flight
from server.physics.contacts import (
    MIN_SEPARATION_SPEED,
    axis_range,
    circle_time,
    pocket_back,
    separate,
    separate_3d,
)
from server.physics.flight import Flight, Nose
from server.physics.motion import INF, BallState, Motion, height_at, state_at
from server.physics.outcome import (
    AIRBORNE,
    OFF_TABLE,
    POCKETED,
    STATIONARY,
    Event,
    Segment,
    ShotFacts,
    ShotOutcome,
)
from server.physics.params import DEFAULT_PARAMS, Params
from server.physics.placement import CUE, validate_positions
from server.physics.resolve import ball_ball, ball_cushion, bed, cluster, pocket, strike
from server.physics.resolve.ball_ball.frictional_inelastic import collide_3d
from server.physics.resolve.ball_cushion.edge import bounce_3d
from server.physics.resolve.cluster.hertz import contact_time
from server.physics.roots import first_contact_quadratic, first_contact_quartic
from server.physics.shot import Shot, validate_shot
from server.physics.table import JAW_TIP_RADIUS, TABLE, Line, Pocket, Tip
from server.physics.world import WORLD, Candidates

MAX_EVENTS = 20_000  # a safety stop; real shots need a few hundred at most
OFF_TABLE_MARGIN = 1e-6

# Kinds of a ball's own next event.
_TRANSITION = 0
_LINE = 1
_TIP = 2
_POCKET = 3
_EXIT = 4  # a falling ball's centre comes back over the slate edge
_BACK = 5  # a falling ball meets the back of its pocket
# A flying ball's own events (its landing is the end of its segment, ``_TRANSITION``).
_EDGE = 6  # a cushion's nose
_POINT = 7  # a jaw's rounded point
_WALL = 8  # a pocket's back
_OVER = 9  # over a cushion's nose: off the table
_OVER_BACK = 10  # over a pocket's back: off the table
_FLIGHT_KINDS = {
    flight.EDGE: _EDGE,
    flight.POINT: _POINT,
    flight.WALL: _WALL,
    flight.OVER: _OVER,
    flight.OVER_BACK: _OVER_BACK,
}

Height = tuple[float, float]  # the height of a ball's bottom above the cloth, and its rate


_BACKS: dict[str, Line] = {name: pocket_back(p) for name, p in TABLE.pockets.items()}


class _Simulation:
    """One shot's state: the current segment of each ball and the cached event times."""

    def __init__(self, positions: dict[int, tuple[float, float]], params: Params) -> None:
        self.params = params
        self.motion = Motion(params)
        self.radius = params.ball_radius
        self.ids = sorted(positions)
        n = len(self.ids)
        self.n = n
        self.seg: list[Segment] = []
        self.end: list[float] = []  # absolute end time of each ball's current segment
        self.snap: list[int] = []
        self.on_table: list[bool] = [True] * n
        self.tracks: list[list[Segment]] = [[] for _ in range(n)]
        self.cands: list[Candidates] = []
        self.ball_t: list[float] = [INF] * n
        self.ball_kind: list[int] = [_TRANSITION] * n
        self.ball_item: list[Line | Tip | Pocket | None] = [None] * n
        self.pair_t: list[list[float]] = [[INF] * n for _ in range(n)]
        # A ball whose centre has passed a pocket's slate edge falls (``pocket_model``):
        # the pocket it is over and when it will have dropped too far to come back.
        self.falling: list[Pocket | None] = [None] * n
        self.fall_end: list[float] = [INF] * n
        # A ball off the cloth and not over a hole: thrown up by the slate, a collision or
        # a cushion, flying until it lands.
        self.flying: list[bool] = [False] * n
        self.events: list[Event] = []
        self.ball_model = ball_ball.MODELS[params.ball_ball_model]
        self.cushion_model = ball_cushion.MODELS[params.ball_cushion_model]
        self.pocket_model = pocket.MODELS[params.pocket_model]
        self.cluster_model = cluster.MODELS[params.cluster_model]
        self.cluster_model_3d = cluster.MODELS_3D[params.cluster_model]
        self.bed_model = bed.MODELS[params.bed_model]
        self.nose = Nose.of(self.radius, params.cushion_height, JAW_TIP_RADIUS)
        self.hop = params.hop_min_speed
        self.g = params.g
        for ball_id in self.ids:
            x, y = positions[ball_id]
            seg, end, snap = self.motion.segment(0.0, (x, y, 0.0, 0.0, 0.0, 0.0, 0.0))
            self.seg.append(seg)
            self.end.append(end)
            self.snap.append(snap)
            self.tracks[len(self.seg) - 1].append(seg)
            self.cands.append(Candidates((), (), ()))

    # -- segments -------------------------------------------------------------------------

    def _set_state(
        self,
        i: int,
        t: float,
        state: tuple[float, float, float, float, float, float, float],
        snap: int = 0,
        height: Height | None = None,
    ) -> None:
        """Start ball ``i``'s next segment at ``t``. Off the cloth the segment carries the
        ball's height: ``height`` (z, vz), or by default where its current segment puts it."""
        off = self.flying[i] or self.falling[i] is not None
        if off and height is None:
            height = height_at(self.seg[i], t)
        if self.falling[i] is not None:
            # Over the hole: no cloth under the ball, so its horizontal motion and spin are
            # constant, and it falls, until it meets something or has dropped too far to
            # come back.
            assert height is not None
            x, y, vx, vy, wx, wy, wz = state
            seg = Segment(
                t, x, y, vx, vy, 0.0, 0.0, wx, wy, wz, 0.0, 0.0, 0.0, AIRBORNE, *height, -self.g
            )
            end, next_snap = self.fall_end[i], 0
        elif self.flying[i]:
            assert height is not None
            seg, end = self.motion.flight(t, state, *height)
            next_snap = 0
        else:
            seg, end, next_snap = self.motion.segment(t, state, snap)
        self.seg[i] = seg
        self.end[i] = end
        self.snap[i] = next_snap
        track = self.tracks[i]
        if track and track[-1][0] == t:
            track[-1] = seg
        else:
            track.append(seg)
        self.cands[i] = self._candidates(seg, t, end)

    def _candidates(self, seg: Segment, t: float, end: float) -> Candidates:
        """Cushion pieces and pockets the ball can reach before its segment ends."""
        if seg[13] <= 1 or end == INF:
            return Candidates((), (), ())
        lo_x, hi_x = axis_range(seg[1], seg[3], seg[5], end - t)
        lo_y, hi_y = axis_range(seg[2], seg[4], seg[6], end - t)
        r = self.radius + 1e-6
        return WORLD.candidates(lo_x - r, lo_y - r, hi_x + r, hi_y + r)

    # -- prediction -----------------------------------------------------------------------

    def _predict_ball(self, i: int, t: float) -> None:
        """The ball's next own event: phase change, cushion, jaw tip or pocket."""
        if self.flying[i]:
            self._predict_flight(i, t)
            return
        seg = self.seg[i]
        best_t, kind, item = self.end[i], _TRANSITION, None
        best: Line | Tip | Pocket | None = item
        if seg[13] > 1:
            horizon = best_t - t
            x, y, vx, vy, _, _, _ = state_at(seg, t)
            ax, ay = seg[5], seg[6]
            big_r = self.radius
            cands = self.cands[i]
            for line in cands.lines:
                nx, ny = line.normal
                sx, sy = line.start
                c0 = nx * (x - sx) + ny * (y - sy) - big_r
                c1 = nx * vx + ny * vy
                if c1 >= 0.0 and c0 > 0.0 and nx * ax + ny * ay >= 0.0:
                    continue
                tau = first_contact_quadratic(0.5 * (nx * ax + ny * ay), c1, c0, horizon)
                if t + tau < best_t:
                    px = x + (vx + 0.5 * ax * tau) * tau
                    py = y + (vy + 0.5 * ay * tau) * tau
                    ex, ey = line.end[0] - sx, line.end[1] - sy
                    along = (px - sx) * ex + (py - sy) * ey
                    if 0.0 <= along <= ex * ex + ey * ey:
                        best_t, kind, best = t + tau, _LINE, line
            for tip in cands.tips:
                tau = circle_time(
                    x - tip.centre[0],
                    y - tip.centre[1],
                    vx,
                    vy,
                    ax,
                    ay,
                    big_r + tip.radius,
                    min(horizon, best_t - t),
                )
                if t + tau < best_t:
                    best_t, kind, best = t + tau, _TIP, tip
            falling = self.falling[i]
            if falling is not None:
                fall_t, fall_kind, fall_item = self._predict_falling(falling, x, y, vx, vy, t)
                if fall_t < best_t:
                    best_t, kind, best = fall_t, fall_kind, fall_item
            for hole in () if falling is not None else cands.pockets:
                tau = circle_time(
                    x - hole.centre[0],
                    y - hole.centre[1],
                    vx,
                    vy,
                    ax,
                    ay,
                    hole.radius,
                    min(horizon, best_t - t),
                )
                if t + tau < best_t:
                    best_t, kind, best = t + tau, _POCKET, hole
        self.ball_t[i] = best_t
        self.ball_kind[i] = kind
        self.ball_item[i] = best

    def _predict_flight(self, i: int, t: float) -> None:
        """A flying ball's next event: landing (its segment's end), a nose, a jaw's point, a
        pocket's back, or flying off the table."""
        seg = self.seg[i]
        best_t, kind = self.end[i], _TRANSITION
        best: Line | Tip | Pocket | None = None
        x, y, vx, vy, _, _, _ = state_at(seg, t)
        f = Flight(x, y, vx, vy, *height_at(seg, t), self.g)
        nose = self.nose
        cands = self.cands[i]
        for line in cands.lines:
            tau = flight.edge_time(f, line, nose, best_t - t)
            if t + tau < best_t:
                best_t, kind, best = t + tau, _EDGE, line
            tau = flight.over_time(f, line, nose, best_t - t, JAW_TIP_RADIUS)
            if t + tau < best_t:
                best_t, kind, best = t + tau, _OVER, line
        for tip in cands.tips:
            tau = flight.point_time(f, tip, nose, best_t - t)
            if t + tau < best_t:
                best_t, kind, best = t + tau, _POINT, tip
        for hole in cands.pockets:
            tau, what = flight.back_time(f, _BACKS[hole.name], nose, best_t - t)
            if t + tau < best_t:
                best_t, kind, best = t + tau, _FLIGHT_KINDS[what], _BACKS[hole.name]
        self.ball_t[i] = best_t
        self.ball_kind[i] = kind
        self.ball_item[i] = best

    def _predict_falling(
        self, hole: Pocket, x: float, y: float, vx: float, vy: float, t: float
    ) -> tuple[float, int, Line | Pocket]:
        """A falling ball's next meeting with its pocket's back, or its centre's return
        over the slate edge (the hole circle, from inside)."""
        back = _BACKS[hole.name]
        best_t, kind = INF, _EXIT
        item: Line | Pocket = hole
        nx, ny = back.normal
        gap = nx * (x - back.start[0]) + ny * (y - back.start[1]) - self.radius
        rate = nx * vx + ny * vy
        if rate < 0.0:
            best_t, kind, item = t + max(0.0, gap / -rate), _BACK, back
        px, py = x - hole.centre[0], y - hole.centre[1]
        # Leaving the circle: rho² − |p(τ)|² falls to zero from above (a quadratic here).
        tau = first_contact_quadratic(
            -(vx * vx + vy * vy),
            -2.0 * (px * vx + py * vy),
            hole.radius * hole.radius - (px * px + py * py),
            INF,
        )
        if t + tau < best_t:
            best_t, kind, item = t + tau, _EXIT, hole
        return best_t, kind, item

    def _predict_pair(self, i: int, j: int, t: float) -> float:
        si, sj = self.seg[i], self.seg[j]
        if si[13] <= 1 and sj[13] <= 1:
            return INF
        end = min(self.end[i], self.end[j])
        horizon = end - t
        ti, tj = t - si[0], t - sj[0]
        axi, ayi, axj, ayj = si[5], si[6], sj[5], sj[6]
        vxi, vyi = si[3] + axi * ti, si[4] + ayi * ti
        vxj, vyj = sj[3] + axj * tj, sj[4] + ayj * tj
        px = (sj[1] + (sj[3] + 0.5 * axj * tj) * tj) - (si[1] + (si[3] + 0.5 * axi * ti) * ti)
        py = (sj[2] + (sj[4] + 0.5 * ayj * tj) * tj) - (si[2] + (si[4] + 0.5 * ayi * ti) * ti)
        vx, vy = vxj - vxi, vyj - vyi
        ax, ay = axj - axi, ayj - ayi
        diameter = 2.0 * self.radius
        if si[16] != 0.0 or sj[16] != 0.0:
            return t + self._pair_3d(si, sj, t, px, py, vx, vy, ax, ay, horizon)
        reach = math.sqrt(vx * vx + vy * vy) * horizon + 0.5 * math.sqrt(ax * ax + ay * ay) * (
            horizon * horizon
        )
        dist = math.sqrt(px * px + py * py)
        if dist - reach > diameter:
            return INF
        tau = first_contact_quartic(
            0.25 * (ax * ax + ay * ay),
            vx * ax + vy * ay,
            vx * vx + vy * vy + px * ax + py * ay,
            2.0 * (px * vx + py * vy),
            px * px + py * py - diameter * diameter,
            horizon,
        )
        return t + tau

    def _pair_3d(
        self,
        si: Segment,
        sj: Segment,
        t: float,
        px: float,
        py: float,
        vx: float,
        vy: float,
        ax: float,
        ay: float,
        horizon: float,
    ) -> float:
        """The first contact of two balls at least one of which is off the cloth: two
        spheres, |Δp|² + Δz² = (2R)², still a quartic (their heights are quadratics)."""
        zi, vzi = height_at(si, t)
        zj, vzj = height_at(sj, t)
        pz, vz, az = zj - zi, vzj - vzi, sj[16] - si[16]
        diameter = 2.0 * self.radius
        reach = math.sqrt(vx * vx + vy * vy + vz * vz) * horizon + 0.5 * math.sqrt(
            ax * ax + ay * ay + az * az
        ) * (horizon * horizon)
        if math.sqrt(px * px + py * py + pz * pz) - reach > diameter:
            return INF
        return first_contact_quartic(
            0.25 * (ax * ax + ay * ay + az * az),
            vx * ax + vy * ay + vz * az,
            vx * vx + vy * vy + vz * vz + px * ax + py * ay + pz * az,
            2.0 * (px * vx + py * vy + pz * vz),
            px * px + py * py + pz * pz - diameter * diameter,
            horizon,
        )

    def _refresh(self, changed: list[int], t: float) -> None:
        on = self.on_table
        pair_t = self.pair_t
        for i in changed:
            if on[i]:
                self._predict_ball(i, t)
            else:
                self.ball_t[i] = INF
        done: set[int] = set()
        for i in changed:
            for j in range(self.n):
                if j == i or j in done:
                    continue
                lo, hi = (i, j) if i < j else (j, i)
                pair_t[lo][hi] = self._predict_pair(lo, hi, t) if on[i] and on[j] else INF
            done.add(i)

    # -- resolution -----------------------------------------------------------------------

    def run(self, cue_velocity: tuple[float, float, float, float, float], down: float) -> float:
        """Play the shot: the cue ball leaves with ``cue_velocity``, driven into the slate
        at ``down`` m/s by an elevated cue."""
        cue = self.ids.index(CUE)
        x, y = self.seg[cue][1], self.seg[cue][2]
        self._after_impulse(cue, 0.0, (x, y, 0.0, 0.0, 0.0, 0.0, 0.0), cue_velocity, 0.0, -down)
        for i in range(self.n):
            self.cands[i] = self._candidates(self.seg[i], 0.0, self.end[i])
        self._refresh(list(range(self.n)), 0.0)
        t = 0.0
        n = self.n
        for _ in range(MAX_EVENTS):
            best_t, who, other = INF, -1, -1
            for i in range(n):
                if self.ball_t[i] < best_t:
                    best_t, who, other = self.ball_t[i], i, -1
            for i in range(n - 1):
                row = self.pair_t[i]
                for j in range(i + 1, n):
                    if row[j] < best_t:
                        best_t, who, other = row[j], i, j
            if best_t == INF:
                return t
            t = best_t
            if other >= 0:
                members = self._cluster(who, other, t)
                if members:
                    self._refresh(members, t)
                else:
                    self._ball_ball(who, other, t)
                    self._refresh([who, other], t)
            else:
                self._ball_event(who, t)
                self._refresh([who], t)
        # Safety stop: freeze every ball where it is (never reached by real shots).
        for i in range(n):
            if self.on_table[i]:
                sx, sy = state_at(self.seg[i], t)[:2]
                self.flying[i] = False
                self.falling[i] = None
                self._set_state(i, t, (sx, sy, 0.0, 0.0, 0.0, 0.0, 0.0))
        return t

    def _on_cloth(self, i: int) -> bool:
        return not self.flying[i] and self.falling[i] is None

    def _height(self, i: int, t: float) -> Height:
        return height_at(self.seg[i], t) if not self._on_cloth(i) else (0.0, 0.0)

    def _after_impulse(
        self,
        i: int,
        t: float,
        state: tuple[float, ...],
        vel: tuple[float, float, float, float, float],
        z: float,
        vz: float,
    ) -> None:
        """Ball ``i`` leaves an impulse at ``t`` with ``vel`` and vertical speed ``vz``, its
        bottom ``z`` above the cloth. On the cloth, the slate answers a push down (the bed
        model), and the ball flies if it rises at ``hop_min_speed`` or more."""
        x, y = state[0], state[1]
        hole = self.falling[i]
        if hole is not None:
            self.fall_end[i] = t + self.pocket_model((x, y, *vel), z, vz, hole, self.params)
            self._set_state(i, t, (x, y, *vel), height=(z, vz))
            return
        if not self.flying[i]:
            if vz < 0.0:
                vel, vz = self.bed_model(vel, vz, self.params)
            if vz < self.hop:
                self._set_state(i, t, (x, y, *vel))
                return
            self.flying[i] = True
        self._set_state(i, t, (x, y, *vel), height=(z, vz))

    def _ball_ball(self, i: int, j: int, t: float) -> None:
        a = state_at(self.seg[i], t)
        b = state_at(self.seg[j], t)
        if self._on_cloth(i) and self._on_cloth(j):
            va, vb = self.ball_model(a, b, self.params)
            va, vb = separate(a, b, va, vb)
            self._set_state(i, t, (a[0], a[1], *va))
            self._set_state(j, t, (b[0], b[1], *vb))
        else:
            za, vza = self._height(i, t)
            zb, vzb = self._height(j, t)
            va, vza, vb, vzb = collide_3d(a, za, vza, b, zb, vzb, self.params)
            va, vza, vb, vzb = separate_3d(a, za, b, zb, va, vza, vb, vzb)
            self._after_impulse(i, t, a, va, za, vza)
            self._after_impulse(j, t, b, vb, zb, vzb)
        self.events.append(Event(t, "ball", self.ids[i], self.ids[j]))

    def _cluster(self, i: int, j: int, t: float) -> list[int]:
        """Resolve the impact of i on j with the cluster model when either touches or
        nearly touches a third ball; return the balls it moved ([] when it does not apply).

        A ball belongs to the cluster when its gap to a member is smaller than the distance
        the impact speed covers in one Hertz contact time (× ``cluster_gap_factor``): such
        contacts overlap in time with the impact. The model is given every pair of members
        that can meet within a few contact times.
        """
        model = self.cluster_model
        if model is None:
            return []
        params = self.params
        on = [k for k in range(self.n) if self.on_table[k]]
        states = {k: state_at(self.seg[k], t) for k in on}
        # Off the cloth the cluster is three-dimensional (a hopping cue ball meeting the
        # rack); with every ball on the cloth it stays in the plane, as before.
        flat = all(self._on_cloth(k) for k in on)
        heights = {k: (0.0, 0.0) if flat else self._height(k, t) for k in on}

        def apart(p: int, q: int) -> tuple[float, float, float]:
            sp, sq, hp, hq = states[p], states[q], heights[p], heights[q]
            dx, dy = sq[0] - sp[0], sq[1] - sp[1]
            if flat:
                return math.hypot(dx, dy), dx, dy
            dz = hq[0] - hp[0]
            return math.sqrt(dx * dx + dy * dy + dz * dz), dx, dy

        d, dx, dy = apart(i, j)
        a, b = states[i], states[j]
        speed = ((a[2] - b[2]) * dx + (a[3] - b[3]) * dy) / d
        if not flat:
            speed += (heights[i][1] - heights[j][1]) * (heights[j][0] - heights[i][0]) / d
        if speed < params.cluster_min_speed:
            return []
        tau = contact_time(speed, params)
        reach = params.cluster_gap_factor * speed * tau
        diameter = 2.0 * self.radius
        members = [i, j]
        k = 0
        while k < len(members):
            for q in on:
                if q not in members and apart(members[k], q)[0] - diameter < reach:
                    members.append(q)
            k += 1
        if len(members) == 2:
            return []
        pairs: list[tuple[int, int]] = [(0, 1)]
        window = 10.0 * tau
        for p in range(len(members)):
            mp = members[p]
            sp = states[mp]
            for q in range(p + 1, len(members)):
                if p == 0 and q == 1:
                    continue
                mq = members[q]
                sq = states[mq]
                gap = apart(mp, mq)[0] - diameter
                rel = math.hypot(sq[2] - sp[2], sq[3] - sp[3], heights[mq][1] - heights[mp][1])
                if gap < reach + rel * window:
                    pairs.append((p, q))
        if flat:
            after, touched = model([states[m] for m in members], pairs, speed, params)
            # The impact is instantaneous on the engine's clock, like a pairwise collision:
            # the balls keep their positions (they move about a millimetre during it) and
            # leave with the velocities and spins the compliant contacts gave them.
            for member, leaving in zip(members, after, strict=True):
                self._set_state(member, t, (states[member][0], states[member][1], *leaving[2:]))
        else:
            model_3d = self.cluster_model_3d
            assert model_3d is not None
            after, lifted, took, touched = model_3d(
                [states[m] for m in members],
                [heights[m] for m in members],
                [self._on_cloth(m) for m in members],
                pairs,
                speed,
                params,
            )
            for member, leaving, (z, vz), down in zip(members, after, lifted, took, strict=True):
                vel = leaving[2:]
                if down > 0.0 and self._on_cloth(member):
                    # What the slate held it against, it gives back (the bed model).
                    vel, up = self.bed_model(vel, -down, params)
                    vz += up
                self._after_impulse(member, t, states[member], vel, z, vz)
        for p, q in touched:
            lo, hi = sorted((self.ids[members[p]], self.ids[members[q]]))
            self.events.append(Event(t, "ball", lo, hi))
        return members

    def _ball_event(self, i: int, t: float) -> None:
        kind, item = self.ball_kind[i], self.ball_item[i]
        state = state_at(self.seg[i], t)
        if self.flying[i]:
            self._flight_event(i, t, kind, item, state)
            return
        falling = self.falling[i]
        if kind == _TRANSITION:
            if falling is not None and t >= self.fall_end[i]:
                self._remove(i, t, state, POCKETED)
                self.events.append(Event(t, "pocket", self.ids[i], pocket=falling.name))
                return
            self._set_state(i, t, state, self.snap[i])
            return
        if kind == _POCKET:
            assert isinstance(item, Pocket)
            self._over_hole(i, t, state, item, 0.0)
            return
        if kind == _EXIT:
            # Back over the slate edge before dropping too far: it rolls on (rattled out).
            self.falling[i] = None
            self.fall_end[i] = INF
            self._set_state(i, t, state)
            return
        if kind == _BACK:
            assert isinstance(item, Line)
            self._off_back(i, t, state, item)
            return
        if kind == _LINE:
            assert isinstance(item, Line)
            normal = item.normal
            jaw = item.pocket
        else:
            assert isinstance(item, Tip)
            dx, dy = state[0] - item.centre[0], state[1] - item.centre[1]
            d = math.hypot(dx, dy)
            normal = (dx / d, dy / d)
            jaw = item.pocket
        vel = self.cushion_model(state, normal, self.params)
        vn = vel[0] * normal[0] + vel[1] * normal[1]
        if vn < MIN_SEPARATION_SPEED:
            k = MIN_SEPARATION_SPEED - vn
            vel = (vel[0] + k * normal[0], vel[1] + k * normal[1], vel[2], vel[3], vel[4])
        self._set_state(i, t, (state[0], state[1], *vel))
        self.events.append(Event(t, "rail", self.ids[i], rail=item.rail, jaw=jaw))

    def _over_hole(
        self, i: int, t: float, state: tuple[float, ...], hole: Pocket, vz: float
    ) -> None:
        """Ball ``i``'s centre is over ``hole`` at cloth height, coming down at ``vz`` ≤ 0:
        it falls (the pocket model says for how long it could still come back)."""
        x, y, vx, vy, wx, wy, wz = state
        self.flying[i] = False
        delay = self.pocket_model((x, y, vx, vy, wx, wy, wz), 0.0, vz, hole, self.params)
        if delay <= 0.0:
            self._remove(i, t, state, POCKETED)
            self.events.append(Event(t, "pocket", self.ids[i], pocket=hole.name))
            return
        self.falling[i] = hole
        self.fall_end[i] = t + delay
        self._set_state(i, t, (x, y, vx, vy, wx, wy, wz), height=(0.0, vz))

    def _off_back(self, i: int, t: float, state: tuple[float, ...], back: Line) -> None:
        """The pocket's back: its liner returns ``e_pocket_back`` of the speed into it."""
        nx, ny = back.normal
        vn = state[2] * nx + state[3] * ny
        k = -(1.0 + self.params.e_pocket_back) * vn
        if vn < 0.0:
            x, y, vx, vy, wx, wy, wz = state
            self._set_state(i, t, (x, y, vx + k * nx, vy + k * ny, wx, wy, wz))

    def _flight_event(
        self, i: int, t: float, kind: int, item: Line | Tip | Pocket | None, state: BallState
    ) -> None:
        """Landing, a nose or jaw point met in the air, a pocket's back, or off the table."""
        seg = self.seg[i]
        z, vz = height_at(seg, t)
        x, y = state[0], state[1]
        if kind == _TRANSITION:
            # Landing: over a hole it falls in, on the slate it bounces (the bed model)
            # and flies on, or stays on the cloth if the bounce is too low.
            hole = WORLD.hole_at((x, y))
            if hole is not None:
                self._over_hole(i, t, state, hole, vz)
                return
            vel, up = self.bed_model(state[2:], vz, self.params)
            if up < self.hop:
                self.flying[i] = False
                self._set_state(i, t, (x, y, *vel))
            else:
                self._set_state(i, t, (x, y, *vel), height=(0.0, up))
            return
        if kind in (_OVER, _OVER_BACK):
            assert isinstance(item, Line)
            self.flying[i] = False
            self._remove(i, t, state, OFF_TABLE)
            self.events.append(Event(t, "off", self.ids[i], rail=item.rail, pocket=item.pocket))
            return
        if kind == _WALL:
            assert isinstance(item, Line)
            self._off_back(i, t, state, item)
            return
        f = Flight(x, y, state[2], state[3], z, vz, self.g)
        if kind == _EDGE:
            assert isinstance(item, Line)
            normal = flight.edge_normal(f, item, self.nose)
        else:
            assert isinstance(item, Tip)
            normal = flight.point_normal(f, item, self.nose)
        vel, vz = bounce_3d(state, vz, normal, self.params)
        cx, cy, cz = normal
        rate = vel[0] * cx + vel[1] * cy + vz * cz
        if rate < MIN_SEPARATION_SPEED:
            k = MIN_SEPARATION_SPEED - rate
            vel = (vel[0] + k * cx, vel[1] + k * cy, vel[2], vel[3], vel[4])
            vz += k * cz
        self._set_state(i, t, (x, y, *vel), height=(z, vz))
        self.events.append(Event(t, "rail", self.ids[i], rail=item.rail, jaw=item.pocket))

    def _remove(self, i: int, t: float, state: tuple[float, ...], how: int) -> None:
        """Ball ``i`` leaves the table at ``t`` (pocketed or off), where it is: at the
        height it had if it was off the cloth."""
        z = height_at(self.seg[i], t)[0] if self.seg[i][16] != 0.0 else 0.0
        seg = Segment(
            t, state[0], state[1], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, how, z
        )
        self.on_table[i] = False
        self.seg[i] = seg
        self.end[i] = INF
        track = self.tracks[i]
        if track and track[-1][0] == t:
            track[-1] = seg
        else:
            track.append(seg)


def _facts(events: list[Event], off_table: list[int]) -> ShotFacts:
    first: int | None = None
    first_index = -1
    for k, ev in enumerate(events):
        if ev.kind == "ball" and CUE in (ev.a, ev.b):
            first = ev.b if ev.a == CUE else ev.a
            first_index = k
            break
    rails = sorted({ev.a for ev in events[first_index + 1 :] if ev.kind == "rail"})
    pocketed = tuple(ev.a for ev in events if ev.kind == "pocket")
    flown = [ev.a for ev in events if ev.kind == "off"]
    return ShotFacts(first, tuple(rails), pocketed, (*flown, *off_table))


def simulate(
    balls: Mapping[int, tuple[float, float]], shot: Shot, params: Params = DEFAULT_PARAMS
) -> ShotOutcome:
    """Simulate one shot struck on the cue ball (id 0) until every ball has stopped (G2).

    Raises ``ShotError`` for a bad shot and ``PlacementError`` for bad ball positions.
    """
    validate_shot(shot)
    if not isinstance(params, Params):
        raise TypeError("params must be a Params")
    positions = validate_positions(balls)
    velocity, down, miscue = strike.strike(shot, params)
    sim = _Simulation(positions, params)
    duration = sim.run(velocity, down)
    off_table: list[int] = []
    final: dict[int, tuple[float, float] | None] = {}
    for i, ball_id in enumerate(sim.ids):
        seg = sim.seg[i]
        if sim.on_table[i] and not WORLD.ball_resting_ok(
            (seg[1], seg[2]), sim.radius - OFF_TABLE_MARGIN
        ):
            # Never expected: the cushion outline is closed on the cloth, and a ball in the
            # air leaves only over a nose (an "off" event). Reported, not hidden.
            sim._remove(i, seg[0], (seg[1], seg[2]), OFF_TABLE)
            off_table.append(ball_id)
        final[ball_id] = (seg[1], seg[2]) if sim.on_table[i] else None
        assert sim.seg[i][13] in (STATIONARY, POCKETED, OFF_TABLE)
    tracks = {ball_id: tuple(sim.tracks[i]) for i, ball_id in enumerate(sim.ids)}
    return ShotOutcome(
        events=tuple(sim.events),
        final=final,
        report=_facts(sim.events, off_table),
        tracks=tracks,
        duration=duration,
        miscue=miscue,
    )
