"""Make `trajectory.json`: the test vectors both trajectory decoders are checked against.

    python -m protocol.vectors.make_trajectory_vectors          # rewrite the vectors
    python -m protocol.vectors.make_trajectory_vectors --check  # exit 1 if they are stale

The tracks come from a small, seeded kinematic model of balls on a 9-ft table (sliding,
rolling, spin decay, cushions, instant velocity changes at collisions, hops and bounces
off the cloth, pockets). It is not the physics engine: it exists so the encoding can be
tested on plausible motion without depending on it, and the tests draw random tracks from
it too. The cases of the old format (version 1) are kept, written by
`encode_tracks(..., version=1)`: their bytes are the ones version-1 servers sent, and both
decoders must still read them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from protocol.trajectory import (
    AIRBORNE,
    FORMAT_VERSION,
    TrajectoryError,
    decode_tracks,
    duration,
    encode_tracks,
    position_at,
    state_at,
)

VECTORS_PATH = Path(__file__).with_name("trajectory.json")

BALL_RADIUS = 0.028575
TABLE_LENGTH = 2.54
TABLE_WIDTH = 1.27
GRAVITY = 9.81
SLATE_RESTITUTION = 0.5
LOWEST_HOP = 0.1  # m/s: a ball bouncing up slower than this stays on the cloth

Row = tuple[float, ...]
Tracks = dict[int, list[Row]]


@dataclass(frozen=True)
class Cloth:
    """Coefficients for one synthetic shot, drawn from the published ranges in
    docs/PHYSICS.md ("Coefficients")."""

    mu_slide: float = 0.2
    mu_roll: float = 0.01
    spin_decay: float = 10.0  # rad/s²
    e_cushion: float = 0.85

    @staticmethod
    def random(rng: random.Random) -> Cloth:
        return Cloth(
            mu_slide=rng.uniform(0.15, 0.4),
            mu_roll=rng.uniform(0.005, 0.015),
            spin_decay=rng.uniform(5.0, 15.0),
            e_cushion=rng.uniform(0.6, 0.9),
        )


def _row(
    t: float, p: Sequence[float], v: Sequence[float], a: Sequence[float], w: Sequence[float],
    dw: Sequence[float], state: int, height: Sequence[float] = (0.0, 0.0, 0.0),
) -> Row:  # fmt: skip
    """A segment; `height` is (z, vz, az), given only for a ball off the cloth."""
    row = (t, p[0], p[1], v[0], v[1], a[0], a[1], w[0], w[1], w[2], dw[0], dw[1], dw[2], state)
    return row if state != AIRBORNE else (*row, *height)


def chain(
    start: tuple[float, float],
    pieces: Sequence[tuple[float, tuple[float, float], tuple[float, float], Sequence[float], int]],
    spin: Sequence[float] = (0.0, 0.0, 0.0),
) -> list[Row]:
    """Segments from (duration, velocity, acceleration, spin rate, state) pieces, each
    starting where the previous one ends, with spin carried along; the last one lasts."""
    rows: list[Row] = []
    t = 0.0
    x, y = start
    w = list(spin)
    for span, v, a, dw, state in pieces:
        rows.append(_row(t, (x, y), v, a, w, dw, state))
        x += v[0] * span + 0.5 * a[0] * span * span
        y += v[1] * span + 0.5 * a[1] * span * span
        w = [w[i] + dw[i] * span for i in range(3)]
        t += span
    return rows


def _cushion_time(p: float, v: float, a: float, low: float, high: float) -> float:
    """First τ > 0 at which p + vτ + ½aτ² leaves [low, high] (inf if it never does)."""
    best = math.inf
    for bound in (low, high):
        c = p - bound
        if a == 0.0:
            roots = [-c / v] if v != 0.0 else []
        else:
            disc = v * v - 2.0 * a * c
            if disc < 0.0:
                continue
            r = math.sqrt(disc)
            if abs(2.0 * a * c) < 1e-6 * v * v:
                # A deceleration that is near rounding error beside the speed (a rolling
                # ball's across its path): (-v ± r)/a loses the near root to cancellation
                # and the ball would run through the cushion. The stable form of it.
                q = v + math.copysign(r, v)
                roots = [-q / a, -2.0 * c / q]
            else:
                roots = [(-v - r) / a, (-v + r) / a]
        for tau in roots:
            velocity = v + a * tau
            toward = velocity > 0.0 if bound == high else velocity < 0.0
            if 1e-12 < tau < best and toward:
                best = tau
    return best


def synthesise_ball(
    rng: random.Random,
    start: tuple[float, float],
    cloth: Cloth,
    *,
    hit_at: float = 0.0,
    speed: float = 0.0,
    spin: tuple[float, float, float] = (0.0, 0.0, 0.0),
    collisions: int = 0,
    heading: float | None = None,
    horizon: float = 60.0,
    lift: float = 0.0,
    hops: float = 0.0,
) -> list[Row]:
    """One ball's segments: at rest until `hit_at`, then launched at `speed` with `spin`.

    While moving it suffers `collisions` instant velocity changes (some in quick bursts, as
    in a rack), bounces off cushions and may drop in a pocket or jump off the table. It
    leaves the cloth at `lift` m/s upward, and each collision throws it up with probability
    `hops`; in the air it flies (no cloth: constant velocity and spin) and bounces on
    landing until it bounces too low to leave the cloth.
    """
    r = BALL_RADIUS
    g = GRAVITY
    p = list(start)
    rows: list[Row] = []
    zero3 = (0.0, 0.0, 0.0)
    if speed <= 0.0:
        return [_row(0.0, p, (0, 0), (0, 0), zero3, zero3, 0)]
    if hit_at > 0.0:
        rows.append(_row(0.0, p, (0, 0), (0, 0), zero3, zero3, 0))
    if heading is None:
        heading = rng.uniform(-math.pi, math.pi)
    v = [speed * math.cos(heading), speed * math.sin(heading)]
    w = list(spin)
    t = hit_at
    height, rise = 0.0, lift  # the ball's bottom above the cloth, and its vertical speed
    while True:
        ux, uy = v[0] - r * w[1], v[1] + r * w[0]
        slip = math.hypot(ux, uy)
        moving = math.hypot(v[0], v[1])
        if rise > 0.0 or height > 0.0:
            state, a, dw = AIRBORNE, [0.0, 0.0], [0.0, 0.0, 0.0]
            phase = (rise + math.sqrt(rise * rise + 2.0 * g * height)) / g
        elif slip > 1e-9:
            state = 2
            f = cloth.mu_slide * g
            a = [-f * ux / slip, -f * uy / slip]
            k = 5.0 * f / (2.0 * r)
            dw = [-k * uy / slip, k * ux / slip, 0.0]
            phase = 2.0 * slip / (7.0 * f)
        elif moving > 1e-9:
            state = 3
            f = cloth.mu_roll * g
            a = [-f * v[0] / moving, -f * v[1] / moving]
            dw = [-a[1] / r, a[0] / r, 0.0]
            phase = moving / f
        elif w[2] != 0.0:
            state, a, dw, phase = 1, [0.0, 0.0], [0.0, 0.0, 0.0], math.inf
        else:
            rows.append(_row(t, p, (0, 0), (0, 0), zero3, zero3, 0))
            return rows
        spin_stop = math.inf
        if w[2] != 0.0 and state != AIRBORNE:
            dw[2] = -math.copysign(cloth.spin_decay, w[2])
            spin_stop = abs(w[2]) / cloth.spin_decay
        cushion = min(
            _cushion_time(p[0], v[0], a[0], r, TABLE_LENGTH - r),
            _cushion_time(p[1], v[1], a[1], r, TABLE_WIDTH - r),
        )
        collision = math.inf
        if collisions > 0 and state not in (1, AIRBORNE):
            burst = rng.random() < 0.3
            collision = rng.uniform(0.0, 2e-4) if burst else rng.expovariate(2.0)
        tau = min(phase, spin_stop, cushion, collision, max(horizon - t, 0.0))
        rows.append(_row(t, p, v, a, w, dw, state, (height, rise, -g)))
        p = [p[i] + v[i] * tau + 0.5 * a[i] * tau * tau for i in range(2)]
        v = [v[i] + a[i] * tau for i in range(2)]
        w = [w[i] + dw[i] * tau for i in range(3)]
        t += tau
        if state == AIRBORNE:
            height += (rise - 0.5 * g * tau) * tau
            rise -= g * tau
        if tau == phase:
            if state == AIRBORNE:  # landing: a bounce, or back on the cloth
                bounce = -SLATE_RESTITUTION * rise
                height, rise = 0.0, bounce if bounce >= LOWEST_HOP else 0.0
            elif state == 2:  # sliding ends in pure rolling
                w[0], w[1] = -v[1] / r, v[0] / r
            elif state == 3:  # rolling ends at rest
                v, w[0], w[1] = [0.0, 0.0], 0.0, 0.0
        elif tau == spin_stop:
            w[2] = 0.0
        elif tau == cushion:
            if rng.random() < 0.15:
                rows.append(_row(t, p, (0, 0), (0, 0), zero3, zero3, 4))
                return rows
            if rng.random() < 0.02 and math.hypot(v[0], v[1]) > 6.0:
                rows.append(_row(t, p, (0, 0), (0, 0), zero3, zero3, 5))
                return rows
            axis = 0 if p[0] <= r + 1e-9 or p[0] >= TABLE_LENGTH - r - 1e-9 else 1
            v[axis] = -cloth.e_cushion * v[axis]
            w[2] *= 0.7
        elif tau == collision:
            collisions -= 1
            heading = rng.uniform(-math.pi, math.pi)
            new_speed = math.hypot(v[0], v[1]) * rng.uniform(0.05, 1.0)
            v = [new_speed * math.cos(heading), new_speed * math.sin(heading)]
            w[2] += rng.uniform(-5.0, 5.0)
            if hops > 0.0 and rng.random() < hops:
                rise = rng.uniform(0.2, 2.0)
        else:  # the horizon: stop the ball where it is
            rows.append(_row(t, p, (0, 0), (0, 0), zero3, zero3, 0))
            return rows


def synthesise_shot(
    rng: random.Random, *, moving: int, speed: float, busy: int, hops: float = 0.0
) -> Tracks:
    """Nine object balls and the cue ball; `moving` of them move, with `busy` collisions,
    each of which throws the ball off the cloth with probability `hops`."""
    cloth = Cloth.random(rng)
    spots = _spread_positions(rng, 10)
    tracks: Tracks = {}
    for ball in range(10):
        if ball < moving:
            first = ball == 0
            tracks[ball] = synthesise_ball(
                rng,
                spots[ball],
                cloth,
                hit_at=0.0 if first else rng.uniform(0.05, 0.6),
                speed=speed if first else speed * rng.uniform(0.2, 0.9),
                spin=(rng.uniform(-150, 150), rng.uniform(-150, 150), rng.uniform(-200, 200)),
                collisions=rng.randint(busy // 2, busy),
                hops=hops,
            )
        else:
            tracks[ball] = synthesise_ball(rng, spots[ball], cloth)
    return tracks


def _spread_positions(rng: random.Random, count: int) -> list[tuple[float, float]]:
    r = BALL_RADIUS
    spots: list[tuple[float, float]] = []
    while len(spots) < count:
        x = rng.uniform(r, TABLE_LENGTH - r)
        y = rng.uniform(r, TABLE_WIDTH - r)
        if all(math.hypot(x - sx, y - sy) >= 2 * r for sx, sy in spots):
            spots.append((x, y))
    return spots


def long_roll(rng: random.Random, seconds: float) -> list[Row]:
    """A slow ball rolling to rest over one segment of `seconds` on a very slow cloth."""
    speed = rng.uniform(0.05, 0.15)
    decel = speed / seconds
    heading = rng.uniform(-math.pi, math.pi)
    ux, uy = math.cos(heading), math.sin(heading)
    r = BALL_RADIUS
    distance = speed * seconds / 2.0
    x0 = TABLE_LENGTH / 2 - ux * distance / 2
    y0 = TABLE_WIDTH / 2 - uy * distance / 2
    v = (speed * ux, speed * uy)
    a = (-decel * ux, -decel * uy)
    rows = [
        _row(0.0, (x0, y0), v, a, (-v[1] / r, v[0] / r, 0.0), (-a[1] / r, a[0] / r, 0.0), 3),
    ]
    end = (x0 + ux * distance, y0 + uy * distance)
    rows.append(_row(seconds, end, (0, 0), (0, 0), (0, 0, 0), (0, 0, 0), 0))
    return rows


# --------------------------------------------------------------------------- vectors


def _cases() -> list[tuple[str, Tracks, int]]:
    """Every case with the format version it is written in."""
    cases = [(name, tracks, FORMAT_VERSION) for name, tracks in _flat_cases()]
    # The old format: the same bytes version-1 servers sent for these tracks.
    old = {"stroke: slide, roll, rest", "ordinary shot (seed 7)", "break (seed 1)"}
    cases += [(f"version 1: {name}", tracks, 1) for name, tracks, _ in cases if name in old]
    cases += [(name, tracks, FORMAT_VERSION) for name, tracks in _height_cases()]
    return cases


def _height_cases() -> list[tuple[str, Tracks]]:
    """Balls off the cloth (version 2): a jump that bounces, a fall into a pocket, a ball
    leaving the table in flight, and shots whose collisions throw balls up."""
    rng = random.Random(20250301)
    g = GRAVITY
    rest = (0.0, 0.0, 0.0)
    jump = synthesise_ball(rng, (0.5, 0.635), Cloth(), speed=3.0, heading=0.1, lift=1.4)
    drop = math.sqrt(2.0 * BALL_RADIUS / 2.0 / g)
    # Rolling into the F1 corner, then over the hole: no cloth, falling until it is down.
    r, roll, decel, span = BALL_RADIUS, (1.2, 0.9), (-0.06, -0.045), 0.35
    start = (2.1, 0.9)
    edge = [start[i] + roll[i] * span + 0.5 * decel[i] * span * span for i in range(2)]
    over = [roll[i] + decel[i] * span for i in range(2)]
    down = [edge[i] + over[i] * drop for i in range(2)]
    fall = [
        _row(0.0, start, roll, decel, (-roll[1] / r, roll[0] / r, 0.0),
             (-decel[1] / r, decel[0] / r, 0.0), 3),
        _row(span, edge, over, (0, 0), (-over[1] / r, over[0] / r, 0.0), rest, AIRBORNE,
             (0.0, 0.0, -g)),
        _row(span + drop, down, (0, 0), (0, 0), rest, rest, 4),
    ]  # fmt: skip
    leaves = [
        _row(0.0, (2.2, 0.3), (3.0, -4.0), (0, 0), (10.0, 20.0, 5.0), rest, AIRBORNE,
             (0.01, 1.1, -g)),
        _row(0.07, (2.41, 0.02), (0, 0), (0, 0), rest, rest, 5),
    ]  # fmt: skip
    return [
        ("jump: flight, bounces, landing", {0: jump}),
        ("fall into a pocket", {3: fall, 0: long_roll(rng, 1.5)}),
        ("off the table in flight", {6: leaves}),
        ("ordinary shot with hops", synthesise_shot(rng, moving=3, speed=4.0, busy=3, hops=0.5)),
        ("break with hops", synthesise_shot(rng, moving=10, speed=10.0, busy=14, hops=0.2)),
    ]


def _flat_cases() -> list[tuple[str, Tracks]]:
    rng = random.Random(20240601)
    r = BALL_RADIUS
    rest = (0.0, 0.0, 0.0)
    cases: list[tuple[str, Tracks]] = [("no balls", {})]
    cases.append(
        ("one ball at rest", {0: [_row(0.0, (0.635, 0.635), (0, 0), (0, 0), rest, rest, 0)]})
    )
    # A centre-ball stroke: sliding, then rolling from 5/7 of the speed, then rest.
    stroke = synthesise_ball(rng, (0.4, 0.635), Cloth(), speed=0.6, heading=0.0)
    cases.append(
        (
            "stroke: slide, roll, rest",
            {0: stroke, 9: [_row(0.0, (2.2, 0.9), (0, 0), (0, 0), rest, rest, 0)]},
        )
    )
    # Zero-length and sub-tick segments (simultaneous events) are dropped by the encoder.
    v = (2.0, 1.0)
    a = (-0.08, -0.04)
    roll_rate = (-a[1] / r, a[0] / r, -10.0)
    simultaneous = chain(
        (1.0, 0.5),
        [
            (0.25, v, a, roll_rate, 3),
            (0.0, (-1.9, 0.99), (0.0, 0.0), rest, 2),
            (1e-7, (-1.9, 0.99), (1.5, -0.8), rest, 2),
            (0.35, (0.5, -2.0), (-0.4, 1.6), (20.0, 5.0, -10.0), 2),
            (0.0, (0.0, 0.0), (0.0, 0.0), rest, 0),
        ],
        spin=(-v[1] / r, v[0] / r, 5.0),
    )
    cases.append(("simultaneous events", {0: simultaneous}))
    cases.append(("long roll, 30 s", {0: long_roll(rng, 30.0)}))
    reversal = chain(
        (1.0, 0.6),
        [
            (0.125, (12.0, 0.0), (-1.962, 0.0), (0.0, 68.67, 0.0), 2),
            (0.3, (-9.6, 0.0), (1.962, 0.0), (0.0, -68.67, 0.0), 2),
            (0.0, (0.0, 0.0), (0.0, 0.0), rest, 0),
        ],
    )
    cases.append(("12 m/s reversal at a cushion", {0: reversal}))
    cases.append((
        "spinning in place",
        {3: [
            _row(0.0, (1.27, 0.3), (0, 0), (0, 0), (0.0, 0.0, 40.0), (0.0, 0.0, -10.0), 1),
            _row(4.0, (1.27, 0.3), (0, 0), (0, 0), rest, rest, 0),
        ]},
    ))  # fmt: skip
    for seed in (7, 8):
        cases.append((f"ordinary shot (seed {seed})", _ordinary_shot(random.Random(seed))))
    cases.append(("break (seed 1)", _break_shot(random.Random(1))))
    return cases


def _ordinary_shot(rng: random.Random) -> Tracks:
    return synthesise_shot(rng, moving=rng.randint(2, 4), speed=rng.uniform(1.0, 6.0), busy=3)


def _break_shot(rng: random.Random) -> Tracks:
    return synthesise_shot(rng, moving=10, speed=10.0, busy=14)


def _sample_times(rows: Sequence[Row], end: float, limit: int = 24) -> list[float]:
    """Before, at and just after each segment start, half way through it, and after the end."""
    times = {-1.0, 0.0, end, end + 1.0}
    for i, row in enumerate(rows):
        times.update((row[0], row[0] + 1e-4))
        if i + 1 < len(rows):
            times.add((row[0] + rows[i + 1][0]) / 2)
    ordered = sorted(times)
    step = max(1, math.ceil(len(ordered) / limit))
    return ordered[::step]


def _with_checksum(body: bytes) -> str:
    return (body + zlib.crc32(body).to_bytes(4, "little")).hex()


def _error_cases() -> list[dict[str, str]]:
    still = {0: [_row(0.0, (0.5, 0.5), (0, 0), (0, 0), (0, 0, 0), (0, 0, 0), 0)]}
    one = encode_tracks(still)
    body = one[:-4]  # 02 01 | 00 01 00 | 08 <x> <y>
    head = body[:5]
    tail = body[6:]
    old = encode_tracks(still, version=1)[:-4]  # the same in version 1
    v = FORMAT_VERSION
    cases = [
        ("empty", "", "empty trajectory"),
        ("unknown version", "07" + one[1:].hex(), "unsupported trajectory format version 7"),
        ("version only", f"{v:02x}", "truncated trajectory"),
        ("cut short", one[:-1].hex(), "checksum mismatch"),
        ("bit flipped", one[:7].hex() + f"{one[7] ^ 4:02x}" + one[8:].hex(), "checksum mismatch"),
        ("state 7", _with_checksum(head + bytes([0x0F]) + tail), "bad segment head"),
        ("reserved bit", _with_checksum(head + bytes([0x88]) + tail), "bad segment head"),
        ("version 1: state 6", _with_checksum(old[:5] + b"\x0e" + old[6:]), "bad segment head"),
        ("version 1: height", _with_checksum(old[:5] + b"\x48" + old[6:]), "bad segment head"),
        ("missing height", _with_checksum(head + bytes([0x4E]) + tail), "truncated trajectory"),
        ("trailing byte", _with_checksum(body + b"\x00"), "unexpected bytes at end"),
        ("missing field", _with_checksum(body[:-1]), "truncated trajectory: missing"),
        ("missing ball", _with_checksum(bytes([v, 2]) + body[2:]), "truncated trajectory: missing"),
        ("balls out of order", _with_checksum(bytes([v, 2]) + body[2:] + body[2:]), "out of order"),
        ("no segments", _with_checksum(bytes([v, 1, 0, 0, 0])), "impossible segment count"),
        (
            "zero-length segment",
            _with_checksum(bytes([v, 1, 0, 2, 0, 0, 0, 0])),
            "zero-length segment",
        ),
        ("overlong integer", _with_checksum(bytes([v, 1, 0, 0x81, 0, 0, 0])), "overlong integer"),
        (
            "integer too long",
            _with_checksum(bytes([v, 1, 0, 1]) + b"\xff" * 8 + b"\x01\x00"),
            "integer too long",
        ),
        (
            "integer too large",
            _with_checksum(bytes([v, 1, 0, 1]) + b"\xff" * 7 + b"\x7f\x00"),
            "integer too large",
        ),
        (
            "time out of range",
            _with_checksum(bytes([v, 1, 0, 1, 0x80, 0x80, 0x80, 0x80, 0x01, 0])),
            "time beyond",
        ),
        (
            "duration out of range",
            _with_checksum(bytes([v, 1, 0, 2, 0]) + b"\xff" * 7 + b"\x0f\x00\x00"),
            "time beyond",
        ),
        (
            "position out of range",
            _with_checksum(bytes([v, 1, 0, 1, 0, 0x08]) + b"\x80\x80\xc0\x06\x00"),
            "value out of range",
        ),
    ]  # fmt: skip
    return [{"name": name, "hex": data, "error": error} for name, data, error in cases]


def build_vectors() -> dict[str, object]:
    """Every case: the tracks, their encoding, the decoded segments and sampled states."""
    cases = []
    for name, tracks, version in _cases():
        data = encode_tracks(tracks, version=version)
        decoded = decode_tracks(data)
        end = duration(decoded)
        samples = []
        for ball, rows in sorted(tracks.items()):
            for t in _sample_times(rows, end):
                position = position_at(decoded, ball, t)
                s = state_at(decoded, ball, t)
                samples.append({
                    "ball": ball, "t": t,
                    "position": None if position is None else list(position),
                    "state": list(s),
                })  # fmt: skip
        segment_count = sum(len(rows) for rows in decoded.values())
        cases.append({
            "name": name,
            "version": version,
            "bytes": len(data),
            "segments": segment_count,
            "duration": end,
            "tracks": {str(b): [list(row) for row in rows] for b, rows in sorted(tracks.items())},
            "hex": data.hex(),
            "decoded": {str(b): [list(s) for s in rows] for b, rows in decoded.items()},
            "samples": samples,
        })  # fmt: skip
    errors = _error_cases()
    for case in errors:  # every error case must really fail the Python decoder as stated
        try:
            decode_tracks(bytes.fromhex(case["hex"]))
        except TrajectoryError as error:
            if case["error"] not in str(error):
                raise AssertionError(f"{case['name']}: {error}") from None
        else:
            raise AssertionError(f"{case['name']}: decoded without error")
    return {
        "format": "ninepool trajectory",
        "version": FORMAT_VERSION,
        "about": "Regenerate with `python -m protocol.vectors.make_trajectory_vectors`. "
        "`state` samples are [x, y, vx, vy, wx, wy, wz, state, z, vz]; a case's `version` "
        "is the format its `hex` is written in.",
        "cases": cases,
        "errors": errors,
    }


def dumps(value: object, indent: int = 0) -> str:
    """JSON with one segment (or sample) per line: readable, diffable, not enormous."""
    if _is_leaf(value):
        return json.dumps(value, separators=(", ", ": "))
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    assert isinstance(value, list)
    items = [pad + dumps(v, indent + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def _is_leaf(value: object) -> bool:
    """Scalars, lists of scalars, and objects holding only those go on one line."""
    if isinstance(value, dict):
        return all(_is_scalar_list(v) for v in value.values())
    return _is_scalar_list(value)


def _is_scalar_list(value: object) -> bool:
    if isinstance(value, list):
        return all(not isinstance(v, dict | list) for v in value)
    return not isinstance(value, dict)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only check the stored vectors")
    args = parser.parse_args(argv)
    text = dumps(build_vectors()) + "\n"
    if args.check:
        stored = VECTORS_PATH.read_text(encoding="utf-8") if VECTORS_PATH.exists() else ""
        if stored != text:
            print(f"{VECTORS_PATH} is stale: regenerate it", file=sys.stderr)
            return 1
        return 0
    VECTORS_PATH.write_text(text, encoding="utf-8")
    for case in build_vectors()["cases"]:  # type: ignore[attr-defined]
        print(f"{case['name']:32} {case['segments']:4} segments {case['bytes']:6} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
