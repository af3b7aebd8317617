"""Compact, versioned binary encoding of a shot's ball trajectories (see `TRAJECTORY.md`).

The physics engine describes every ball's motion as piecewise-quadratic segments; browsers
only need to redraw that motion at any frame rate, never more than a millimetre off. Sending
the raw 14 doubles per segment would cost 112 bytes a segment; this encoding costs about 20.

Why it is shaped the way it is:

* Times are integer ticks of 2⁻¹⁷ s (7.6 µs). A boundary moved by less than half a tick
  costs at most |Δv|·3.8 µs ≈ 0.09 mm even where a ball reverses at 12 m/s.
* Every value is coded as the difference from what the decoder can already predict (the
  previous segment carried forward), in units of a power of two. The decoder rebuilds
  each segment from the *decoded* end of the one before, so errors never accumulate along
  a track: each segment starts within 2⁻¹⁷ m of the exact path.
* The unit for velocity and acceleration depends on the segment's own duration: a quantised
  velocity error grows with τ and an acceleration error with τ², so a 10 s rolling segment
  gets finer units than a 5 ms one. Per axis, the drift inside a segment stays below
  2⁻¹⁵ m from each, whatever its length.
* Both decoders (this one and `client_web/trajectory.mjs`) do the same IEEE-754 double
  operations in the same order, so they produce bit-identical numbers.
* Version 2 adds the ball's height for balls off the cloth (a jump, a hop, a fall into a
  pocket): a segment in flight carries z, vz and az, coded like x. Only those segments
  pay for it, so ordinary shots cost what they did. Version 1 bytes still decode (with
  every height 0), and `encode_tracks(..., version=1)` still writes them for tracks that
  never leave the cloth.

The encoder simulates the decoder step by step; the two must change together, and any
change to the bytes is a new `FORMAT_VERSION`.
"""

from __future__ import annotations

import bisect
import math
import numbers
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Final, NamedTuple

__all__ = [
    "AIRBORNE",
    "FORMAT_VERSION",
    "MAX_TIME",
    "TICK",
    "VERSIONS",
    "BallState",
    "Segment",
    "TrajectoryError",
    "decode_tracks",
    "duration",
    "encode_tracks",
    "position_at",
    "state_at",
]

FORMAT_VERSION: Final = 2
#: Every version this decoder reads.
VERSIONS: Final = (1, 2)

#: One time tick in seconds (2⁻¹⁷ s ≈ 7.63 µs): every decoded `t0` is a multiple of it.
TICK: Final = math.ldexp(1.0, -17)
_TICKS_PER_SECOND: Final = math.ldexp(1.0, 17)
#: Segments must start before 2²⁸ ticks (2048 s).
_MAX_TICKS: Final = 1 << 28
MAX_TIME: Final = _MAX_TICKS * TICK

# Precision level of the last segment of a track, which lasts forever: as fine as a segment
# spanning the whole time range.
_LAST_LEVEL: Final = 28

# Generous physical limits; anything beyond is rejected as a bug upstream. They also keep
# every coded integer far below 2⁵³, so JavaScript numbers hold them exactly.
_POSITION_LIMIT: Final = 100.0  # m
_VELOCITY_LIMIT: Final = 100.0  # m/s
_ACCELERATION_LIMIT: Final = 1000.0  # m/s²
_SPIN_LIMIT: Final = 1.0e4  # rad/s
_SPIN_RATE_LIMIT: Final = 1.0e5  # rad/s²
# Decoded values sit within quantisation of an accepted input; a decoder allows this slack.
_DECODE_SLACK: Final = 1.0

# 0 rest, 1 spinning, 2 sliding, 3 rolling, 4 pocketed, 5 off table; version 2 adds
# 6 in flight (off the cloth: z, vz, az describe its height).
_STATE_COUNT: Final = {1: 6, 2: 7}
_OFF_TABLE_STATES: Final = frozenset((4, 5))
AIRBORNE: Final = 6

# Segment head byte: bits 0-2 state, then which groups of fields follow.
_HAS_POSITION: Final = 0x08
_HAS_MOTION: Final = 0x10
_HAS_SPIN: Final = 0x20
_HAS_HEIGHT: Final = 0x40  # version 2
_RESERVED_BITS: Final = {1: 0xC0, 2: 0x80}
_STATE_BITS: Final = 0x07

_MAX_VARINT_BYTES: Final = 8
_MAX_SAFE_INTEGER: Final = (1 << 53) - 1
_CHECKSUM_BYTES: Final = 4
_MAX_BALLS: Final = 255


def _position_exponent() -> int:
    return -16


def _velocity_exponent(level: int) -> int:
    # Segment shorter than 2^(level-17) s: drift (q/2)·T < 2^-15 m; never coarser than 2^-10.
    return min(3 - level, -10)


def _acceleration_exponent(level: int) -> int:
    # Drift ½·(q/2)·T² < 2^-15 m; never coarser than 2^-6 m/s².
    return min(21 - 2 * level, -6)


def _spin_exponent() -> int:
    return -4


def _spin_rate_exponent(level: int) -> int:
    # Spin drift (q/2)·T < 2^-5 rad/s; never coarser than 2^-2 rad/s².
    return min(13 - level, -2)


def _quanta(exponent_of: Callable[[int], int]) -> tuple[float, ...]:
    """The quantum for every precision level, indexed by level."""
    return tuple(math.ldexp(1.0, exponent_of(level)) for level in range(_LAST_LEVEL + 1))


_Q_POSITION: Final = math.ldexp(1.0, _position_exponent())
_Q_SPIN: Final = math.ldexp(1.0, _spin_exponent())
_Q_VELOCITY: Final = _quanta(_velocity_exponent)
_Q_ACCELERATION: Final = _quanta(_acceleration_exponent)
_Q_SPIN_RATE: Final = _quanta(_spin_rate_exponent)


class TrajectoryError(ValueError):
    """Tracks that cannot be encoded, or bytes that are not a valid trajectory."""


class Segment(NamedTuple):
    """One piece of a ball's motion (the physics engine's `Segment`, docs/ARCHITECTURE.md).

    From `t0` until the next segment's `t0`: `p(τ) = p0 + v·τ + ½·a·τ²` and
    `ω(τ) = w + dw·τ` with `τ = t − t0`. `state`: 0 rest, 1 spinning in place, 2 sliding,
    3 rolling, 4 pocketed, 5 off the table, 6 in flight. The height of the ball's bottom
    above the cloth is `z(τ) = z + vz·τ + ½·az·τ²` (0 on the cloth; below 0 over a pocket's
    hole). A track's last segment lasts forever.
    """

    t0: float
    x: float
    y: float
    vx: float
    vy: float
    ax: float
    ay: float
    wx: float
    wy: float
    wz: float
    dwx: float
    dwy: float
    dwz: float
    state: int
    z: float = 0.0
    vz: float = 0.0
    az: float = 0.0


class BallState(NamedTuple):
    """Where a ball is and how it moves and spins at one moment, for drawing it."""

    x: float
    y: float
    vx: float
    vy: float
    wx: float
    wy: float
    wz: float
    state: int
    z: float = 0.0
    vz: float = 0.0


# --------------------------------------------------------------------------- encoding


def encode_tracks(
    tracks: Mapping[int, Sequence[Sequence[float]]], *, version: int = FORMAT_VERSION
) -> bytes:
    """Pack every ball's segments; the decoded path stays within 0.3 mm of the exact one.

    `tracks` maps ball numbers (0-255) to their segments in time order, each any sequence
    of 14 numbers in `Segment` order, or 17 with the height (z, vz, az). Segments shorter
    than one tick are dropped (they are never visible); everything else keeps its state
    and order. `version=1` writes the old format, which has no height: tracks with a
    segment in flight (state 6) or a height are refused.
    """
    if version not in VERSIONS:
        raise TrajectoryError(f"cannot write trajectory format version {version!r}")
    if not isinstance(tracks, Mapping):
        raise TrajectoryError(f"tracks must be a mapping of ball -> segments, not {tracks!r:.40}")
    for ball in tracks:
        if isinstance(ball, bool) or not isinstance(ball, int) or not 0 <= ball <= _MAX_BALLS:
            raise TrajectoryError(f"ball numbers must be integers 0-{_MAX_BALLS}, not {ball!r}")
    balls = sorted(tracks)
    if len(balls) > _MAX_BALLS:
        raise TrajectoryError(f"at most {_MAX_BALLS} balls, not {len(balls)}")
    out = bytearray((version, len(balls)))
    for ball in balls:
        _encode_track(out, ball, tracks[ball], version)
    out += zlib.crc32(out).to_bytes(_CHECKSUM_BYTES, "little")
    return bytes(out)


_STATE_CODES: Final = {1: frozenset((0, 1, 2, 3, 4, 5)), 2: frozenset((0, 1, 2, 3, 4, 5, 6))}
_FLAT: Final = (0.0, 0.0, 0.0)


def _checked_rows(ball: int, track: object, version: int) -> list[tuple[float, ...]]:
    """The track's segments as 17-tuples (height 0 where none is given), or a clear error.

    One chained comparison per segment accepts a good one (NaN fails every comparison,
    infinity every limit, a string raises); only bad input pays for `_track_error`.
    """
    if not isinstance(track, Sequence) or isinstance(track, str | bytes):
        raise TrajectoryError(f"ball {ball}: the track must be a sequence of segments")
    rows: list[tuple[float, ...]] = []
    p, v, a, w, dw = (
        _POSITION_LIMIT,
        _VELOCITY_LIMIT,
        _ACCELERATION_LIMIT,
        _SPIN_LIMIT,
        _SPIN_RATE_LIMIT,
    )
    codes = _STATE_CODES[version]
    previous = 0.0
    complete = False
    try:
        for segment in track:
            row = segment if isinstance(segment, tuple) else tuple(segment)
            if len(row) == 14:
                row = (*row, *_FLAT)
            t0, x, y, vx, vy, ax, ay, wx, wy, wz, dwx, dwy, dwz, state, z, vz, az = row
            if not (
                previous <= t0 < MAX_TIME
                and -p <= x <= p
                and -p <= y <= p
                and -v <= vx <= v
                and -v <= vy <= v
                and -a <= ax <= a
                and -a <= ay <= a
                and -w <= wx <= w
                and -w <= wy <= w
                and -w <= wz <= w
                and -dw <= dwx <= dw
                and -dw <= dwy <= dw
                and -dw <= dwz <= dw
                and state in codes
                and isinstance(state, int | float)
                and -p <= z <= p
                and -v <= vz <= v
                and -a <= az <= a
                and (version > 1 or z == vz == az == 0.0)
            ):
                break
            rows.append(row)
            previous = t0
        else:
            complete = True
    except (TypeError, ValueError):
        pass
    if complete:
        if not rows:
            raise TrajectoryError(f"ball {ball}: a track needs at least one segment")
        return rows
    raise _track_error(ball, track, version)


def _track_error(ball: int, track: Sequence[object], version: int) -> TrajectoryError:
    """What is wrong with the first bad segment of a track the fast checks refused."""
    previous = 0.0
    for index, segment in enumerate(track):
        where = f"ball {ball} segment {index}"
        problem = _segment_problem(segment, version)
        if problem:
            return TrajectoryError(f"{where}: {problem}")
        assert isinstance(segment, Sequence)
        t0 = float(segment[0])
        if t0 < previous:
            return TrajectoryError(f"{where}: t0 goes back in time")
        previous = t0
    return TrajectoryError(f"ball {ball}: the track holds values that are not plain numbers")


def _segment_problem(segment: object, version: int) -> str:
    """Why a segment cannot be encoded, or "" if it can."""
    if not isinstance(segment, Sequence) or isinstance(segment, str | bytes):
        return "a segment is a sequence of 14 numbers (17 with its height)"
    if len(segment) not in (14, 17):
        return f"a segment has 14 numbers (17 with its height), not {len(segment)}"
    if not all(isinstance(value, numbers.Real) for value in segment):
        return "every field must be a number"
    row = tuple(map(float, segment))
    if not all(map(math.isfinite, row)):
        return "every field must be finite"
    if len(row) == 14:
        row = (*row, *_FLAT)
    t0, x, y, vx, vy, ax, ay, wx, wy, wz, dwx, dwy, dwz, state, z, vz, az = row
    if not 0.0 <= t0 < MAX_TIME:
        return f"t0 must be in [0, {MAX_TIME:g}) s, not {t0!r}"
    if state not in _STATE_CODES[version]:
        top = _STATE_COUNT[version] - 1
        return f"state must be an integer 0-{top} in version {version}, not {state!r}"
    if version == 1 and (z, vz, az) != _FLAT:
        return "version 1 has no height: z, vz and az must be 0"
    limits = (
        ((x, y, z), _POSITION_LIMIT, "position (m)"),
        ((vx, vy, vz), _VELOCITY_LIMIT, "velocity (m/s)"),
        ((ax, ay, az), _ACCELERATION_LIMIT, "acceleration (m/s²)"),
        ((wx, wy, wz), _SPIN_LIMIT, "spin (rad/s)"),
        ((dwx, dwy, dwz), _SPIN_RATE_LIMIT, "spin rate (rad/s²)"),
    )
    for values, limit, what in limits:
        if max(map(abs, values)) > limit:
            return f"{what} beyond ±{limit:g}: {values!r}"
    return ""


def _put_varints(out: bytearray, values: Sequence[int]) -> None:
    """LEB128 for non-negative integers: seven bits a byte, low bits first."""
    append = out.append
    for z in values:
        if z < 0x80:
            append(z)
        elif z < 0x4000:
            append((z & 0x7F) | 0x80)
            append(z >> 7)
        else:
            while z > 0x7F:
                append((z & 0x7F) | 0x80)
                z >>= 7
            append(z)


def _encode_track(out: bytearray, ball: int, track: object, version: int) -> None:
    rows = _checked_rows(ball, track, version)
    try:
        _encode_rows(out, ball, rows)
    except (TypeError, ValueError, OverflowError):
        # Number types that compare like floats but do not compute like them (Decimal…).
        raise _track_error(ball, rows, version) from None


def _encode_rows(out: bytearray, ball: int, rows: list[tuple[float, ...]]) -> None:
    floor = math.floor
    ticks = [floor(row[0] * _TICKS_PER_SECOND + 0.5) for row in rows]
    # A segment whose start rounds to its successor's is never visible: drop it.
    last = len(rows) - 1
    kept = [k for k in range(len(rows)) if k == last or ticks[k + 1] != ticks[k]]

    out.append(ball)
    # Everything after the ball number is a varint: counts, durations, head bytes (all
    # below 0x80, so one byte each) and zigzagged corrections, written in one pass.
    values = [len(kept), ticks[kept[0]]]

    q_p = _Q_POSITION
    inv_p = 1.0 / q_p
    q_w = _Q_SPIN
    inv_w = 1.0 / q_w
    # The decoder's state: the previous decoded segment, and its duration in seconds.
    px = py = vx = vy = ax = ay = 0.0
    wx = wy = wz = dwx = dwy = dwz = 0.0
    pz = vz = az = 0.0
    span = reach = 0.0
    final = len(kept) - 1
    for j, k in enumerate(kept):
        t0, x, y, vx0, vy0, tax, tay, wx0, wy0, wz0, tdwx, tdwy, tdwz, state_code = rows[k][:14]
        z0, vz0, taz = rows[k][14:]
        start = ticks[k]
        if j < final:
            n = ticks[kept[j + 1]] - start
            values.append(n)
            level = n.bit_length()
        else:
            n = 0
            level = _LAST_LEVEL
        head = int(state_code)
        # The exact segment carried to its tick-aligned start (d is under half a tick).
        d = start * TICK - t0
        dd = 0.5 * d * d
        tx = x + vx0 * d + tax * dd
        ty = y + vy0 * d + tay * dd
        tvx = vx0 + tax * d
        tvy = vy0 + tay * d
        twx = wx0 + tdwx * d
        twy = wy0 + tdwy * d
        twz = wz0 + tdwz * d

        # Position: the previous decoded segment carried forward, plus a correction.
        ppx = px + vx * span + ax * reach
        ppy = py + vy * span + ay * reach
        cx = floor((tx - ppx) * inv_p + 0.5)
        cy = floor((ty - ppy) * inv_p + 0.5)
        px = ppx + cx * q_p
        py = ppy + cy * q_p
        slot = len(values)
        values.append(head)
        if cx or cy:
            head |= _HAS_POSITION
            values += ((cx << 1) ^ (cx >> 63), (cy << 1) ^ (cy >> 63))

        q_v = _Q_VELOCITY[level]
        q_a = _Q_ACCELERATION[level]
        # A group is left out only when its targets are exactly zero (a ball at rest, not
        # spinning, on the cloth): the decoder then rebuilds them exactly, so decoding and
        # encoding again gives the same bytes back.
        if tvx == 0.0 and tvy == 0.0 and tax == 0.0 and tay == 0.0:
            vx = vy = ax = ay = 0.0
        else:
            head |= _HAS_MOTION
            inv_v = 1.0 / q_v
            inv_a = 1.0 / q_a
            pvx = vx + ax * span
            pvy = vy + ay * span
            kvx = floor((tvx - pvx) * inv_v + 0.5)
            kvy = floor((tvy - pvy) * inv_v + 0.5)
            kax = floor((tax - ax) * inv_a + 0.5)
            kay = floor((tay - ay) * inv_a + 0.5)
            vx = pvx + kvx * q_v
            vy = pvy + kvy * q_v
            ax = ax + kax * q_a
            ay = ay + kay * q_a
            values += (
                (kvx << 1) ^ (kvx >> 63),
                (kvy << 1) ^ (kvy >> 63),
                (kax << 1) ^ (kax >> 63),
                (kay << 1) ^ (kay >> 63),
            )

        q_dw = _Q_SPIN_RATE[level]
        if twx == 0.0 and twy == 0.0 and twz == 0.0 and tdwx == 0.0 and tdwy == 0.0 and tdwz == 0.0:
            wx = wy = wz = dwx = dwy = dwz = 0.0
        else:
            head |= _HAS_SPIN
            inv_dw = 1.0 / q_dw
            pwx = wx + dwx * span
            pwy = wy + dwy * span
            pwz = wz + dwz * span
            kwx = floor((twx - pwx) * inv_w + 0.5)
            kwy = floor((twy - pwy) * inv_w + 0.5)
            kwz = floor((twz - pwz) * inv_w + 0.5)
            kdx = floor((tdwx - dwx) * inv_dw + 0.5)
            kdy = floor((tdwy - dwy) * inv_dw + 0.5)
            kdz = floor((tdwz - dwz) * inv_dw + 0.5)
            wx = pwx + kwx * q_w
            wy = pwy + kwy * q_w
            wz = pwz + kwz * q_w
            dwx = dwx + kdx * q_dw
            dwy = dwy + kdy * q_dw
            dwz = dwz + kdz * q_dw
            values += (
                (kwx << 1) ^ (kwx >> 63),
                (kwy << 1) ^ (kwy >> 63),
                (kwz << 1) ^ (kwz >> 63),
                (kdx << 1) ^ (kdx >> 63),
                (kdy << 1) ^ (kdy >> 63),
                (kdz << 1) ^ (kdz >> 63),
            )

        # Height (version 2): coded like x, only for a segment off the cloth.
        tz = z0 + vz0 * d + taz * dd
        tvz = vz0 + taz * d
        if tz == 0.0 and tvz == 0.0 and taz == 0.0:
            pz = vz = az = 0.0
        else:
            head |= _HAS_HEIGHT
            ppz = pz + vz * span + az * reach
            cz = floor((tz - ppz) * inv_p + 0.5)
            pvz = vz + az * span
            kvz = floor((tvz - pvz) / q_v + 0.5)
            kaz = floor((taz - az) / q_a + 0.5)
            pz = ppz + cz * q_p
            vz = pvz + kvz * q_v
            az = az + kaz * q_a
            values += ((cz << 1) ^ (cz >> 63), (kvz << 1) ^ (kvz >> 63), (kaz << 1) ^ (kaz >> 63))

        values[slot] = head
        span = n * TICK
        reach = 0.5 * span * span
    _put_varints(out, values)


# --------------------------------------------------------------------------- decoding


class _Reader:
    """Bounds-checked reads over the body (everything before the checksum)."""

    __slots__ = ("data", "end", "pos")

    def __init__(self, data: bytes, end: int) -> None:
        self.data = data
        self.pos = 2
        self.end = end

    def byte(self, what: str) -> int:
        if self.pos >= self.end:
            raise TrajectoryError(f"truncated trajectory: missing {what}")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def unsigned(self, what: str) -> int:
        data, pos, end = self.data, self.pos, self.end
        value = 0
        shift = 0
        for count in range(_MAX_VARINT_BYTES):
            if pos >= end:
                raise TrajectoryError(f"truncated trajectory: missing {what}")
            b = data[pos]
            pos += 1
            value |= (b & 0x7F) << shift
            if b < 0x80:
                if b == 0 and count > 0:
                    raise TrajectoryError(f"malformed trajectory: overlong integer in {what}")
                if value > _MAX_SAFE_INTEGER:
                    raise TrajectoryError(f"malformed trajectory: integer too large in {what}")
                self.pos = pos
                return value
            shift += 7
        raise TrajectoryError(f"malformed trajectory: integer too long in {what}")

    def signed(self, what: str) -> int:
        """Zigzag: 0, 1, 2, 3, … → 0, -1, 1, -2, …; most corrections fit one byte."""
        pos = self.pos
        if pos < self.end:
            b = self.data[pos]
            if b < 0x80:
                self.pos = pos + 1
                return (b >> 1) ^ -(b & 1)
        z = self.unsigned(what)
        return (z >> 1) ^ -(z & 1)


def decode_tracks(data: bytes | bytearray | memoryview) -> dict[int, list[Segment]]:
    """Read back what `encode_tracks` wrote: ball -> its segments in time order.

    Raises `TrajectoryError` for an unknown version, a wrong checksum (corrupted or
    truncated data) or any malformed content; it never returns partial results.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TrajectoryError(f"a trajectory is bytes, not {type(data).__name__}")
    buf = bytes(data)
    if not buf:
        raise TrajectoryError("empty trajectory")
    if buf[0] not in VERSIONS:
        raise TrajectoryError(
            f"unsupported trajectory format version {buf[0]} "
            f"(this decoder reads versions {', '.join(map(str, VERSIONS))})"
        )
    if len(buf) < 2 + _CHECKSUM_BYTES:
        raise TrajectoryError(f"truncated trajectory: {len(buf)} bytes")
    end = len(buf) - _CHECKSUM_BYTES
    if zlib.crc32(buf[:end]) != int.from_bytes(buf[end:], "little"):
        raise TrajectoryError("trajectory checksum mismatch: the data is corrupted or truncated")
    reader = _Reader(buf, end)
    tracks: dict[int, list[Segment]] = {}
    previous_ball = -1
    for _ in range(buf[1]):
        ball = reader.byte("ball number")
        if ball <= previous_ball:
            raise TrajectoryError(f"malformed trajectory: ball {ball} out of order")
        previous_ball = ball
        tracks[ball] = _decode_track(reader, ball, buf[0])
    if reader.pos != end:
        raise TrajectoryError(f"malformed trajectory: {end - reader.pos} unexpected bytes at end")
    return tracks


def _decode_track(reader: _Reader, ball: int, version: int) -> list[Segment]:
    where = f"ball {ball}"
    states = _STATE_COUNT[version]
    reserved = _RESERVED_BITS[version]
    count = reader.unsigned(f"{where} segment count")
    if count == 0 or count > reader.end - reader.pos:
        raise TrajectoryError(f"malformed trajectory: {where} has an impossible segment count")
    ticks = reader.unsigned(f"{where} start time")
    segments: list[Segment] = []
    px = py = vx = vy = ax = ay = 0.0
    wx = wy = wz = dwx = dwy = dwz = 0.0
    pz = vz = az = 0.0
    span = reach = 0.0
    for index in range(count):
        if ticks >= _MAX_TICKS:
            raise TrajectoryError(f"malformed trajectory: {where} time beyond {MAX_TIME:g} s")
        if index < count - 1:
            n = reader.unsigned(f"{where} segment duration")
            if n == 0:
                raise TrajectoryError(f"malformed trajectory: {where} zero-length segment")
            if ticks + n >= _MAX_TICKS:
                raise TrajectoryError(f"malformed trajectory: {where} time beyond {MAX_TIME:g} s")
            level = n.bit_length()
        else:
            n = 0
            level = _LAST_LEVEL
        head = reader.byte(f"{where} segment head")
        state = head & _STATE_BITS
        if state >= states or head & reserved:
            raise TrajectoryError(f"malformed trajectory: {where} bad segment head {head:#04x}")

        px = px + vx * span + ax * reach
        py = py + vy * span + ay * reach
        if head & _HAS_POSITION:
            px = px + reader.signed(where) * _Q_POSITION
            py = py + reader.signed(where) * _Q_POSITION
        if head & _HAS_MOTION:
            q_v = _Q_VELOCITY[level]
            q_a = _Q_ACCELERATION[level]
            vx = vx + ax * span + reader.signed(where) * q_v
            vy = vy + ay * span + reader.signed(where) * q_v
            ax = ax + reader.signed(where) * q_a
            ay = ay + reader.signed(where) * q_a
        else:
            vx = vy = ax = ay = 0.0
        if head & _HAS_SPIN:
            q_dw = _Q_SPIN_RATE[level]
            wx = wx + dwx * span + reader.signed(where) * _Q_SPIN
            wy = wy + dwy * span + reader.signed(where) * _Q_SPIN
            wz = wz + dwz * span + reader.signed(where) * _Q_SPIN
            dwx = dwx + reader.signed(where) * q_dw
            dwy = dwy + reader.signed(where) * q_dw
            dwz = dwz + reader.signed(where) * q_dw
        else:
            wx = wy = wz = dwx = dwy = dwz = 0.0
        if head & _HAS_HEIGHT:
            pz = pz + vz * span + az * reach + reader.signed(where) * _Q_POSITION
            vz = vz + az * span + reader.signed(where) * _Q_VELOCITY[level]
            az = az + reader.signed(where) * _Q_ACCELERATION[level]
        else:
            pz = vz = az = 0.0
        segment = Segment(
            ticks * TICK, px, py, vx, vy, ax, ay, wx, wy, wz, dwx, dwy, dwz, state, pz, vz, az
        )
        _check_decoded(where, segment)
        segments.append(segment)
        ticks += n
        span = n * TICK
        reach = 0.5 * span * span
    return segments


def _check_decoded(where: str, s: Segment) -> None:
    """Well-formed bytes can still describe absurd motion; refuse it rather than draw it."""
    p = _POSITION_LIMIT + _DECODE_SLACK
    v = _VELOCITY_LIMIT + _DECODE_SLACK
    a = _ACCELERATION_LIMIT + _DECODE_SLACK
    w = _SPIN_LIMIT + _DECODE_SLACK
    dw = _SPIN_RATE_LIMIT + _DECODE_SLACK
    if not (
        -p <= s.x <= p
        and -p <= s.y <= p
        and -v <= s.vx <= v
        and -v <= s.vy <= v
        and -a <= s.ax <= a
        and -a <= s.ay <= a
        and -w <= s.wx <= w
        and -w <= s.wy <= w
        and -w <= s.wz <= w
        and -dw <= s.dwx <= dw
        and -dw <= s.dwy <= dw
        and -dw <= s.dwz <= dw
        and -p <= s.z <= p
        and -v <= s.vz <= v
        and -a <= s.az <= a
    ):
        raise TrajectoryError(f"malformed trajectory: {where} value out of range at t={s.t0:g}")


# --------------------------------------------------------------------------- reading


def _segment_at(
    decoded: Mapping[int, Sequence[Segment]], ball: int, t: float
) -> tuple[Segment, float]:
    """The segment in force at `t` and the time into it (0 before the track starts)."""
    track = decoded.get(ball)
    if not track:
        raise TrajectoryError(f"no track for ball {ball!r}")
    if not math.isfinite(t):
        raise TrajectoryError(f"time must be finite, not {t!r}")
    index = bisect.bisect_right(track, t, key=_start_time) - 1
    if index < 0:
        return track[0], 0.0
    segment = track[index]
    return segment, t - segment.t0


def _start_time(segment: Segment) -> float:
    return segment.t0


def position_at(
    decoded: Mapping[int, Sequence[Segment]], ball: int, t: float
) -> tuple[float, float] | None:
    """The ball's centre at time `t` (s), or None once it is pocketed or off the table.

    Before its first segment a ball is where that segment starts.
    """
    s, tau = _segment_at(decoded, ball, t)
    if s.state in _OFF_TABLE_STATES:
        return None
    return (s.x + s.vx * tau + 0.5 * s.ax * tau * tau, s.y + s.vy * tau + 0.5 * s.ay * tau * tau)


def state_at(decoded: Mapping[int, Sequence[Segment]], ball: int, t: float) -> BallState:
    """Position, velocity, spin, state code and height at time `t`, for drawing the ball.

    For a pocketed or off-table ball the position is where its segment puts it (where it
    left the table, unless the segment moves); `state` says not to draw it on the cloth.
    `z` is the height of the ball's bottom above the cloth, `vz` its rate (0 on the cloth).
    """
    s, tau = _segment_at(decoded, ball, t)
    return BallState(
        s.x + s.vx * tau + 0.5 * s.ax * tau * tau,
        s.y + s.vy * tau + 0.5 * s.ay * tau * tau,
        s.vx + s.ax * tau,
        s.vy + s.ay * tau,
        s.wx + s.dwx * tau,
        s.wy + s.dwy * tau,
        s.wz + s.dwz * tau,
        s.state,
        s.z + s.vz * tau + 0.5 * s.az * tau * tau,
        s.vz + s.az * tau,
    )


def duration(decoded: Mapping[int, Sequence[Segment]]) -> float:
    """When the last ball starts its final segment: nothing changes after this (s)."""
    return max((track[-1].t0 for track in decoded.values() if track), default=0.0)
