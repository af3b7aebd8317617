"""The trajectory encoding: accuracy against the exact motion, sizes, vectors, bad input.

The accuracy oracle is exact, not sampled: between consecutive boundaries (of the exact
track or of the decoded one) both paths are quadratics, so the largest error on each axis
(x, y and the height z) is at an end of the piece or at the vertex of the difference.
"""

from __future__ import annotations

import bisect
import itertools
import json
import math
import random
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.trajectory import (
    AIRBORNE,
    FORMAT_VERSION,
    TICK,
    Segment,
    TrajectoryError,
    decode_tracks,
    duration,
    encode_tracks,
    position_at,
    state_at,
)
from protocol.vectors.make_trajectory_vectors import (
    VECTORS_PATH,
    Cloth,
    build_vectors,
    chain,
    dumps,
    long_roll,
    synthesise_ball,
    synthesise_shot,
)

Row = Sequence[float]

#: The documented bounds (TRAJECTORY.md). Inside segments: knot rounding (2⁻¹⁷ m) plus the
#: velocity and acceleration drift (2⁻¹⁵ m each) per axis, under 0.1 mm across the cloth
#: and 0.07 mm in height. Within a tick of a boundary, add at most one tick of the largest
#: possible velocity jump (24 m/s). The requirement is 1 mm.
CORE_BOUND = 0.1e-3
HEIGHT_BOUND = 2.0**-17 + 2.0**-14
POSITION_BOUND = 0.3e-3
VELOCITY_BOUND = 2.0**-10  # m/s
SPIN_BOUND = 2.0**-4  # rad/s
OFF_TABLE = (4, 5)


# --------------------------------------------------------------------------- the oracle


def _height(row: Row) -> tuple[float, float, float]:
    """(z, vz, az) of a segment: 0 when it has none (14 numbers)."""
    return (row[14], row[15], row[16]) if len(row) == 17 else (0.0, 0.0, 0.0)


def _at(row: Row, t: float) -> tuple[float, float, float, float, float, float]:
    """Position (x, y, z) and velocity of one segment (exact or decoded) at time t."""
    tau = t - row[0]
    z, vz, az = _height(row)
    return (
        row[1] + row[3] * tau + 0.5 * row[5] * tau * tau,
        row[2] + row[4] * tau + 0.5 * row[6] * tau * tau,
        z + vz * tau + 0.5 * az * tau * tau,
        row[3] + row[5] * tau,
        row[4] + row[6] * tau,
        vz + az * tau,
    )


def _active(starts: list[float], t: float) -> int:
    return max(bisect.bisect_right(starts, t) - 1, 0)


def position_errors(
    tracks: Mapping[int, Sequence[Row]], decoded: Mapping[int, Sequence[Segment]]
) -> tuple[float, float]:
    """The largest distance between exact and decoded positions (m): over pieces longer
    than a tick, and over the short pieces a rounded boundary can leave next to it.

    Per piece, each axis' error is a quadratic in t; its maximum over the piece is exact.
    Where one path is off the table and the other is not, the piece must be shorter than a
    tick (a boundary moved by rounding), else the mismatch is an error of its own.
    """
    assert sorted(tracks) == sorted(decoded)
    core = short = 0.0
    for ball, rows in tracks.items():
        decoded_rows = decoded[ball]
        exact_starts = [row[0] for row in rows]
        decoded_starts = [s.t0 for s in decoded_rows]
        first = max(exact_starts[0], decoded_starts[0])
        last = max(exact_starts[-1], decoded_starts[-1]) + 1.0
        cuts = sorted({first, last, *exact_starts, *decoded_starts})
        cuts = [c for c in cuts if first <= c <= last]
        for a, b in itertools.pairwise(cuts):
            exact = rows[_active(exact_starts, a)]
            approx = decoded_rows[_active(decoded_starts, a)]
            exact_off = int(exact[13]) in OFF_TABLE
            approx_off = approx.state in OFF_TABLE
            if exact_off or approx_off:
                assert exact_off == approx_off or b - a <= TICK, (ball, a, b)
                continue
            candidates = [a, b]
            ea, da = _at(exact, a), _at(approx, a)
            curvatures = (
                exact[5] - approx[5],
                exact[6] - approx[6],
                _height(exact)[2] - _height(approx)[2],
            )
            for axis in (0, 1, 2):
                slope = ea[3 + axis] - da[3 + axis]
                if curvatures[axis] != 0.0:
                    vertex = a - slope / curvatures[axis]
                    if a < vertex < b:
                        candidates.append(vertex)
            per_axis = [0.0, 0.0, 0.0]
            for t in candidates:
                e, d = _at(exact, t), _at(approx, t)
                for axis in (0, 1, 2):
                    per_axis[axis] = max(per_axis[axis], abs(e[axis] - d[axis]))
            if b - a > TICK:
                core = max(core, math.hypot(per_axis[0], per_axis[1]))
                assert per_axis[2] <= HEIGHT_BOUND, (ball, a, b, per_axis)
            else:
                short = max(short, math.hypot(per_axis[0], per_axis[1]))
    return core, short


def max_position_error(
    tracks: Mapping[int, Sequence[Row]], decoded: Mapping[int, Sequence[Segment]]
) -> float:
    """The largest distance between exact and decoded positions at any moment (m)."""
    core, short = position_errors(tracks, decoded)
    assert core <= CORE_BOUND
    return max(core, short)


def check_motion_and_spin(
    tracks: Mapping[int, Sequence[Row]], decoded: Mapping[int, Sequence[Segment]]
) -> None:
    """Half way through every decoded segment of two ticks or more (clear of any rounded
    boundary), the state is exact and velocity and spin are within their bounds."""
    for ball, rows in tracks.items():
        starts = [row[0] for row in rows]
        segments = decoded[ball]
        for this, following in itertools.pairwise(segments):
            if following.t0 - this.t0 < 2 * TICK:
                continue
            t = (this.t0 + following.t0) / 2
            exact = rows[_active(starts, t)]
            got = state_at(decoded, ball, t)
            tau = t - exact[0]
            assert got.state == int(exact[13]), (ball, t)
            assert abs(got.vx - (exact[3] + exact[5] * tau)) <= VELOCITY_BOUND
            assert abs(got.vy - (exact[4] + exact[6] * tau)) <= VELOCITY_BOUND
            _, vz, az = _height(exact)
            assert abs(got.vz - (vz + az * tau)) <= VELOCITY_BOUND
            for axis in range(3):
                want = exact[7 + axis] + exact[10 + axis] * tau
                assert abs(got[4 + axis] - want) <= SPIN_BOUND, (ball, t, axis)


def roundtrip(tracks: Mapping[int, Sequence[Row]]) -> tuple[bytes, dict[int, list[Segment]]]:
    data = encode_tracks(tracks)
    decoded = decode_tracks(data)
    assert max_position_error(tracks, decoded) <= POSITION_BOUND
    check_motion_and_spin(tracks, decoded)
    return data, decoded


# --------------------------------------------------------------------------- accuracy


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    moving=st.integers(1, 10),
    speed=st.floats(0.05, 12.0),
    busy=st.integers(0, 20),
    hops=st.sampled_from((0.0, 0.0, 0.3, 1.0)),
)
def test_plausible_shots_stay_within_bound(
    seed: int, moving: int, speed: float, busy: int, hops: float
) -> None:
    # The model's own randomness (positions, headings, spins, collisions, hops off the
    # cloth) is seeded.
    rng = random.Random(seed)
    roundtrip(synthesise_shot(rng, moving=moving, speed=speed, busy=busy, hops=hops))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), seconds=st.floats(1.0, 60.0))
def test_long_rolling_segments_do_not_drift(seed: int, seconds: float) -> None:
    # One segment of up to 60 s: a quantised velocity would drift by error × τ.
    rng = random.Random(seed)
    roundtrip({0: long_roll(rng, seconds), 1: long_roll(rng, seconds / 3)})


_DURATIONS = st.one_of(
    st.floats(0.0, 2e-5),  # sub-tick: simultaneous events
    st.floats(2e-5, 0.05),
    st.floats(0.05, 2.0),
    st.floats(2.0, 60.0),
)


@st.composite
def continuous_tracks(draw: st.DrawFn) -> dict[int, list[tuple[float, ...]]]:
    """Arbitrary (not physical) continuous motion: any velocity up to 12 m/s, jumps of up to
    24 m/s at boundaries, durations from zero to a minute, friction-sized and larger
    accelerations, the table left far behind as long as the track stays within 100 m."""
    tracks: dict[int, list[tuple[float, ...]]] = {}
    for ball in range(draw(st.integers(1, 3))):
        t = draw(st.floats(0.0, 1.0))
        x, y = draw(st.floats(0.0, 2.54)), draw(st.floats(0.0, 1.27))
        z = draw(st.floats(-0.1, 1.0))
        rows: list[tuple[float, ...]] = []
        count = draw(st.integers(1, 10))
        for index in range(count):
            last = index == count - 1
            span = 0.0 if last else draw(_DURATIONS)
            reach = max(span, 1e-3)
            speed = draw(st.floats(0.0, min(12.0, 2.0 / reach)))
            accel = draw(st.floats(0.0, min(20.0, 4.0 / reach**2)))
            heading, pull = draw(st.floats(-4.0, 4.0)), draw(st.floats(-4.0, 4.0))
            if last:
                speed = accel = 0.0
            vx, vy = speed * math.cos(heading), speed * math.sin(heading)
            ax, ay = accel * math.cos(pull), accel * math.sin(pull)
            spin = [draw(st.floats(-600.0, 600.0)) for _ in range(3)]
            spin_rate = [draw(st.floats(-400.0, 400.0)) for _ in range(3)]
            state = draw(st.sampled_from((0, 4, 5))) if last else draw(st.integers(0, 3 + 3))
            if state > 3:  # off the cloth: a height, its rate and gravity (or any pull)
                state = AIRBORNE
                rise = draw(st.floats(-speed, speed))
                pull = -9.81 if draw(st.booleans()) and 4.9 * reach**2 <= 2.0 else -accel
                rows.append((t, x, y, vx, vy, ax, ay, *spin, *spin_rate, state, z, rise, pull))
                z += rise * span + 0.5 * pull * span * span
            else:
                rows.append((t, x, y, vx, vy, ax, ay, *spin, *spin_rate, state))
                z = 0.0
            x += vx * span + 0.5 * ax * span * span
            y += vy * span + 0.5 * ay * span * span
            t += span
        tracks[ball] = rows
    return tracks


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tracks=continuous_tracks())
def test_any_continuous_motion_stays_within_bound(
    tracks: dict[int, list[tuple[float, ...]]],
) -> None:
    roundtrip(tracks)


def test_a_rolling_ball_is_a_millimetre_right_all_the_way_to_rest() -> None:
    # A slow ball over a single 45 s segment, sampled densely as a client would draw it.
    rng = random.Random(5)
    tracks = {0: long_roll(rng, 45.0)}
    _, decoded = roundtrip(tracks)
    row = tracks[0][0]
    for frame in range(45 * 60):
        t = frame / 60
        got = position_at(decoded, 0, t)
        assert got is not None
        want = _at(row, t)
        assert math.hypot(got[0] - want[0], got[1] - want[1]) <= POSITION_BOUND


def test_segments_shorter_than_a_tick_are_dropped_and_never_missed() -> None:
    rest = (0.0, 0.0, 0.0)
    rows = chain(
        (1.0, 0.5),
        [
            (0.5, (2.0, 0.0), (-0.1, 0.0), rest, 3),
            (0.0, (1.95, 0.0), (0.0, 0.0), rest, 2),  # replaced at once
            (1e-7, (-1.5, 0.3), (0.4, -0.1), rest, 2),
            (0.4, (-1.0, 1.0), (0.4, -0.4), rest, 2),
            (0.0, (0.0, 0.0), (0.0, 0.0), rest, 0),
        ],
        spin=(0.0, 70.0, 0.0),
    )
    _, decoded = roundtrip({0: rows})
    assert [s.t0 for s in decoded[0]] == [0.0, 0.5, pytest.approx(0.9, abs=TICK)]
    assert [s.state for s in decoded[0]] == [3, 2, 0]
    assert decoded[0][1].vx == pytest.approx(-1.0, abs=2**-10)


# --------------------------------------------------------------------------- sizes


def _bytes_per_segment(data: bytes, decoded: Mapping[int, Sequence[Segment]]) -> float:
    return len(data) / sum(len(track) for track in decoded.values())


@pytest.mark.parametrize("seed", range(12))
def test_a_break_fits_in_8_kb(seed: int) -> None:
    rng = random.Random(seed)
    tracks = synthesise_shot(rng, moving=10, speed=10.0, busy=16)
    data, decoded = roundtrip(tracks)
    assert len(data) <= 8 * 1024
    assert _bytes_per_segment(data, decoded) <= 30


def test_a_busy_break_of_20_segments_a_ball_fits_in_8_kb() -> None:
    rng = random.Random(99)
    cloth = Cloth(mu_slide=0.2, mu_roll=0.01, spin_decay=10.0, e_cushion=0.85)
    tracks = {}
    for ball in range(10):
        rows: list[tuple[float, ...]] = []
        while len(rows) < 20:
            rows = synthesise_ball(
                rng,
                (0.3 + 0.2 * ball, 0.6),
                cloth,
                speed=rng.uniform(4.0, 10.0),
                spin=(rng.uniform(-300, 300), rng.uniform(-300, 300), rng.uniform(-300, 300)),
                collisions=30,
            )
        tracks[ball] = rows
    data, decoded = roundtrip(tracks)
    assert sum(len(t) for t in decoded.values()) >= 200
    assert len(data) <= 8 * 1024


@pytest.mark.parametrize("seed", range(12))
def test_an_ordinary_shot_fits_in_2_kb(seed: int) -> None:
    rng = random.Random(1000 + seed)
    tracks = synthesise_shot(rng, moving=rng.randint(2, 4), speed=rng.uniform(0.5, 7.0), busy=5)
    data, decoded = roundtrip(tracks)
    assert len(data) <= 2 * 1024
    assert _bytes_per_segment(data, decoded) <= 30


# --------------------------------------------------------------------------- vectors


def _load_vectors() -> dict[str, object]:
    loaded: dict[str, object] = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
    return loaded


def test_stored_vectors_are_up_to_date() -> None:
    # A change to the bytes must be deliberate: a new version and regenerated vectors.
    assert VECTORS_PATH.read_text(encoding="utf-8") == dumps(build_vectors()) + "\n"


def _vector_cases() -> list[dict[str, object]]:
    cases = _load_vectors()["cases"]
    assert isinstance(cases, list)
    return cases


@pytest.mark.parametrize("case", _vector_cases(), ids=lambda case: str(case["name"]))
def test_vector_case(case: dict[str, object]) -> None:
    tracks_json = case["tracks"]
    assert isinstance(tracks_json, dict)
    tracks = {int(ball): [tuple(row) for row in rows] for ball, rows in tracks_json.items()}
    version = case["version"]
    assert isinstance(version, int)
    data = encode_tracks(tracks, version=version)
    assert data.hex() == case["hex"]
    assert data[0] == version
    decoded = decode_tracks(bytes.fromhex(str(case["hex"])))
    assert {str(b): [list(s) for s in rows] for b, rows in decoded.items()} == case["decoded"]
    assert max_position_error(tracks, decoded) <= POSITION_BOUND
    assert duration(decoded) == case["duration"]
    samples = case["samples"]
    assert isinstance(samples, list)
    for sample in samples:
        ball, t = sample["ball"], sample["t"]
        position = position_at(decoded, ball, t)
        assert (None if position is None else list(position)) == sample["position"]
        assert list(state_at(decoded, ball, t)) == sample["state"]


def _error_vectors() -> list[dict[str, str]]:
    errors = _load_vectors()["errors"]
    assert isinstance(errors, list)
    return errors


@pytest.mark.parametrize("case", _error_vectors(), ids=lambda case: case["name"])
def test_error_vector(case: dict[str, str]) -> None:
    with pytest.raises(TrajectoryError, match=case["error"]):
        decode_tracks(bytes.fromhex(case["hex"]))


# --------------------------------------------------------------------------- reading


def _shot_with_a_pocketed_ball() -> dict[int, list[tuple[float, ...]]]:
    rest = (0.0,) * 6
    return {
        1: [
            (0.0, 2.2, 0.9, 0.0, 0.0, 0.0, 0.0, *rest, 0),
            (0.5, 2.2, 0.9, 1.0, 0.9, -0.07, -0.06, *rest, 3),
            (0.8, 2.4969, 1.1673, 0.0, 0.0, 0.0, 0.0, *rest, 4),
        ],
        0: [(0.0, 0.6, 0.6, 0.0, 0.0, 0.0, 0.0, *rest, 0)],
    }


def test_position_is_none_once_pocketed_and_clamped_before_the_start() -> None:
    decoded = decode_tracks(encode_tracks(_shot_with_a_pocketed_ball()))
    assert list(decoded) == [0, 1]  # ascending ball numbers, whatever the input order
    assert position_at(decoded, 1, 0.8 - TICK) is not None
    assert position_at(decoded, 1, 0.8 + TICK) is None
    assert position_at(decoded, 1, 100.0) is None
    assert state_at(decoded, 1, 1.0).state == 4
    start = position_at(decoded, 1, -5.0)
    assert start == position_at(decoded, 1, 0.0)
    assert start == pytest.approx((2.2, 0.9), abs=1e-4)
    assert duration(decoded) == pytest.approx(0.8, abs=TICK / 2)
    assert duration({}) == 0.0


def test_reading_a_missing_ball_or_a_bad_time_is_an_error() -> None:
    decoded = decode_tracks(encode_tracks(_shot_with_a_pocketed_ball()))
    with pytest.raises(TrajectoryError, match="no track for ball 5"):
        position_at(decoded, 5, 0.0)
    with pytest.raises(TrajectoryError, match="finite"):
        state_at(decoded, 0, math.nan)


def test_encoding_is_deterministic_and_order_free() -> None:
    tracks = synthesise_shot(random.Random(3), moving=4, speed=5.0, busy=4)
    reordered = dict(reversed(list(tracks.items())))
    assert encode_tracks(tracks) == encode_tracks(reordered) == encode_tracks(tracks)


# --------------------------------------------------------------------------- bad input

_REST = (0.0,) * 6


@pytest.mark.parametrize(
    ("tracks", "message"),
    [
        ([(0.0,) * 14], "mapping"),
        ({-1: [(0.0,) * 14]}, "ball numbers"),
        ({256: [(0.0,) * 14]}, "ball numbers"),
        ({True: [(0.0,) * 14]}, "ball numbers"),
        ({"0": [(0.0,) * 14]}, "ball numbers"),
        ({0: []}, "at least one segment"),
        ({0: "segments"}, "sequence of segments"),
        ({0: [(0.0,) * 13]}, r"14 numbers \(17 with its height\), not 13"),
        ({0: [(0.0,) * 16]}, "not 16"),
        ({0: ["0" * 14]}, "sequence of 14 numbers"),
        ({0: [(0.0, "1", *(0.0,) * 12)]}, "must be a number"),
        ({0: [(0.0, math.nan, *(0.0,) * 12)]}, "finite"),
        ({0: [(0.0, 0.0, math.inf, *(0.0,) * 11)]}, "finite"),
        ({0: [(-0.1, *(0.0,) * 13)]}, "t0 must be"),
        ({0: [(5000.0, *(0.0,) * 13)]}, "t0 must be"),
        ({0: [(0.0, *(0.0,) * 12, 7)]}, "state must be"),
        ({0: [(0.0, *(0.0,) * 12, 6, 0.0, 0.0, -2e3)]}, "acceleration"),
        ({0: [(0.0, *(0.0,) * 12, 6, 200.0, 0.0, 0.0)]}, "position"),
        ({0: [(0.0, *(0.0,) * 12, 2.5)]}, "state must be"),
        ({0: [(0.0, 0.5, 0.5, 101.0, *(0.0,) * 9, 2)]}, "velocity"),
        ({0: [(0.0, 500.0, *(0.0,) * 12)]}, "position"),
        ({0: [(0.0, *(0.0,) * 4, 2000.0, *(0.0,) * 8)]}, "acceleration"),
        ({0: [(0.0, *(0.0,) * 8, 2e4, 0.0, 0.0, 0.0, 1)]}, "spin"),
        ({0: [(1.0, *(0.0,) * 13), (0.5, *(0.0,) * 13)]}, "back in time"),
    ],
)
def test_bad_tracks_are_refused_clearly(tracks: object, message: str) -> None:
    with pytest.raises(TrajectoryError, match=message):
        encode_tracks(tracks)  # type: ignore[arg-type]


def test_every_truncation_and_bit_flip_is_refused() -> None:
    data = encode_tracks(synthesise_shot(random.Random(11), moving=3, speed=4.0, busy=3))
    for length in range(len(data)):
        with pytest.raises(TrajectoryError):
            decode_tracks(data[:length])
    for index in range(len(data)):
        for bit in range(8):
            corrupted = bytearray(data)
            corrupted[index] ^= 1 << bit
            with pytest.raises(TrajectoryError):
                decode_tracks(bytes(corrupted))


def test_unknown_version_is_named_in_the_error() -> None:
    data = bytearray(encode_tracks({}))
    data[0] = FORMAT_VERSION + 1
    with pytest.raises(TrajectoryError, match=f"unsupported trajectory format version {data[0]}"):
        decode_tracks(bytes(data))
    with pytest.raises(TrajectoryError, match="bytes"):
        decode_tracks("0100")  # type: ignore[arg-type]


def _check_decoded_sanity(decoded: Mapping[int, Sequence[Segment]]) -> None:
    for track in decoded.values():
        assert track
        assert all(a.t0 < b.t0 for a, b in itertools.pairwise(track))
        for segment in track:
            assert 0 <= segment.state <= AIRBORNE
            assert all(math.isfinite(value) for value in segment)


@settings(max_examples=400, deadline=None)
@given(body=st.binary(max_size=300))
def test_well_checksummed_garbage_is_refused_or_sane(body: bytes) -> None:
    # Past the checksum, only the structure guards: it must raise TrajectoryError or give
    # finite, ordered segments — never another exception.
    data = bytes([FORMAT_VERSION]) + body
    data += zlib.crc32(data).to_bytes(4, "little")
    try:
        decoded = decode_tracks(data)
    except TrajectoryError:
        return
    _check_decoded_sanity(decoded)


_VALID_BODY = encode_tracks(synthesise_shot(random.Random(4), moving=4, speed=6.0, busy=6))[:-4]


@settings(max_examples=600, deadline=None)
@given(
    edits=st.lists(
        st.tuples(st.integers(0, len(_VALID_BODY) - 1), st.integers(0, 255)),
        min_size=1,
        max_size=4,
    ),
    cut=st.integers(0, 8),
)
def test_mutated_but_checksummed_trajectories_are_refused_or_sane(
    edits: list[tuple[int, int]], cut: int
) -> None:
    # Deep inside a valid encoding, every structural check gets exercised.
    body = bytearray(_VALID_BODY)
    for index, value in edits:
        body[index] = value
    data = bytes(body[: len(body) - cut])
    data += zlib.crc32(data).to_bytes(4, "little")
    try:
        decoded = decode_tracks(data)
    except TrajectoryError:
        return
    _check_decoded_sanity(decoded)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300))
def test_random_bytes_are_refused(data: bytes) -> None:
    with pytest.raises(TrajectoryError):
        decode_tracks(data)


# --------------------------------------------------------------------------- the engine


def _physics() -> object:
    physics = pytest.importorskip("server.physics")
    for name in ("simulate", "rack", "kitchen_spot", "Shot"):
        if not hasattr(physics, name):
            pytest.skip(f"server.physics has no {name} yet")
    return physics


@pytest.mark.parametrize("seed", range(3))
def test_real_breaks_from_the_physics_engine(seed: int) -> None:
    """The seam itself: the engine's own tracks for a 10 m/s break."""
    physics: Any = _physics()
    balls = dict(physics.rack(seed))
    cue = balls[0] = physics.kitchen_spot()
    aim = math.degrees(math.atan2(balls[1][1] - cue[1], balls[1][0] - cue[0]))
    shot = physics.Shot(angle=aim, speed=10.0, tip=(0.0, 0.0), elevation=0.0)
    outcome = physics.simulate(balls, shot)
    data, _ = roundtrip(outcome.tracks)
    assert len(data) <= 8 * 1024


def test_real_shots_from_the_physics_engine() -> None:
    physics: Any = _physics()
    rng = random.Random(17)
    for _ in range(10):
        balls: dict[int, tuple[float, float]] = {}
        while len(balls) < 10:
            spot = (rng.uniform(0.1, 2.44), rng.uniform(0.1, 1.17))
            if all(math.dist(spot, other) > 0.07 for other in balls.values()):
                balls[len(balls)] = spot
        shot = physics.Shot(
            angle=rng.uniform(0, 360),
            speed=rng.uniform(0.5, 6),
            tip=(rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)),
            elevation=0.0,
        )
        data, _ = roundtrip(physics.simulate(balls, shot).tracks)
        assert len(data) <= 2 * 1024


# --------------------------------------------------------------------------- versions


def test_version_1_still_decodes_with_every_height_zero() -> None:
    tracks = synthesise_shot(random.Random(21), moving=4, speed=5.0, busy=4)
    old = encode_tracks(tracks, version=1)
    new = encode_tracks(tracks)
    assert old[0] == 1 and new[0] == FORMAT_VERSION == 2
    # Without a height the two versions differ in the version byte (and the checksum) only.
    assert old[1:-4] == new[1:-4]
    decoded = decode_tracks(old)
    assert decoded == decode_tracks(new)
    assert all(s.z == s.vz == s.az == 0.0 for track in decoded.values() for s in track)


def test_version_1_cannot_carry_a_height() -> None:
    flying = {0: [(0.0, 1.0, 0.5, 1.0, 0.0, 0.0, 0.0, *_REST, AIRBORNE, 0.0, 1.0, -9.81)]}
    with pytest.raises(TrajectoryError, match="state must be an integer 0-5 in version 1"):
        encode_tracks(flying, version=1)
    hop = {0: [(0.0, 1.0, 0.5, 1.0, 0.0, 0.0, 0.0, *_REST, 2, 0.0, 1.0, -9.81)]}
    with pytest.raises(TrajectoryError, match="no height"):
        encode_tracks(hop, version=1)
    with pytest.raises(TrajectoryError, match="version 3"):
        encode_tracks({}, version=3)


def test_a_jump_keeps_its_height_within_the_bound() -> None:
    rng = random.Random(8)
    jump = synthesise_ball(rng, (0.5, 0.6), Cloth(), speed=4.0, heading=0.0, lift=2.0)
    assert any(int(row[13]) == AIRBORNE for row in jump)
    _, decoded = roundtrip({0: jump})
    peak = max(state_at(decoded, 0, k / 500).z for k in range(500))
    assert peak == pytest.approx(2.0**2 / (2 * 9.81), abs=1e-4)
