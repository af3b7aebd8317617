// Decoder for the shot trajectory encoding (protocol/TRAJECTORY.md), and the queries an
// animation needs: where a ball is, how it moves and spins, at any moment.
//
// This mirrors protocol/trajectory.py operation for operation: every number is rebuilt
// with the same IEEE-754 double operations in the same order, so both decoders give
// bit-identical segments. The shared test vectors (protocol/vectors/trajectory.json)
// hold them to it. Plain ES module, no dependencies.
//
// Version 2 adds the height of a ball off the cloth (jumps, hops, falls into a pocket);
// version 1 still decodes, every height 0.

/** The format version the server writes. */
export const FORMAT_VERSION = 2;
/** Every version this decoder reads. */
export const VERSIONS = [1, 2];
/** Segment state of a ball in flight (version 2). */
export const AIRBORNE = 6;

/**
 * 2^e, exactly (built by doubling/halving, never by a library power function).
 * @param {number} e integer exponent
 */
function pow2(e) {
  let r = 1;
  for (let i = 0; i < e; i++) r *= 2;
  for (let i = 0; i > e; i--) r /= 2;
  return r;
}

/** One time tick in seconds (2⁻¹⁷ s ≈ 7.63 µs): every `t0` is a multiple of it. */
export const TICK = pow2(-17);
const MAX_TICKS = 2 ** 28;
/** Segments start before this time (s). */
export const MAX_TIME = MAX_TICKS * TICK;
const LAST_LEVEL = 28;

const POSITION_LIMIT = 100.0;
const VELOCITY_LIMIT = 100.0;
const ACCELERATION_LIMIT = 1000.0;
const SPIN_LIMIT = 1.0e4;
const SPIN_RATE_LIMIT = 1.0e5;
const DECODE_SLACK = 1.0;

/** @type {Record<number, number>} */
const STATE_COUNT = { 1: 6, 2: 7 };
const HAS_POSITION = 0x08;
const HAS_MOTION = 0x10;
const HAS_SPIN = 0x20;
const HAS_HEIGHT = 0x40;
/** @type {Record<number, number>} */
const RESERVED_BITS = { 1: 0xc0, 2: 0x80 };
const STATE_BITS = 0x07;
const MAX_VARINT_BYTES = 8;
const CHECKSUM_BYTES = 4;

/**
 * Quanta per precision level 0…28 (a segment of n ticks has level bitLength(n)).
 * @param {(level: number) => number} exponentOf
 */
function quanta(exponentOf) {
  /** @type {number[]} */
  const out = [];
  for (let level = 0; level <= LAST_LEVEL; level++) out.push(pow2(exponentOf(level)));
  return out;
}

const Q_POSITION = pow2(-16);
const Q_SPIN = pow2(-4);
const Q_VELOCITY = quanta((level) => Math.min(3 - level, -10));
const Q_ACCELERATION = quanta((level) => Math.min(21 - 2 * level, -6));
const Q_SPIN_RATE = quanta((level) => Math.min(13 - level, -2));

/** Bytes that are not a valid trajectory, or a question about a ball it does not hold. */
export class TrajectoryError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "TrajectoryError";
  }
}

/**
 * One piece of a ball's motion, valid from `t0` until the next segment's `t0`:
 * p(τ) = p + v·τ + ½·a·τ², ω(τ) = w + dw·τ, τ = t − t0. The last segment lasts forever.
 * @typedef {object} Segment
 * @property {number} t0 start time (s)
 * @property {number} x position (m)
 * @property {number} y
 * @property {number} vx velocity (m/s)
 * @property {number} vy
 * @property {number} ax acceleration (m/s²)
 * @property {number} ay
 * @property {number} wx angular velocity (rad/s)
 * @property {number} wy
 * @property {number} wz
 * @property {number} dwx angular acceleration (rad/s²)
 * @property {number} dwy
 * @property {number} dwz
 * @property {number} state 0 rest, 1 spinning in place, 2 sliding, 3 rolling, 4 pocketed, 5 off the table, 6 in flight
 * @property {number} z height of the ball's bottom above the cloth (m): 0 on it, below 0 over a pocket's hole
 * @property {number} vz its rate (m/s)
 * @property {number} az its acceleration (m/s²)
 */

/**
 * A ball at one moment, for drawing it.
 * @typedef {object} BallState
 * @property {number} x
 * @property {number} y
 * @property {number} vx
 * @property {number} vy
 * @property {number} wx
 * @property {number} wy
 * @property {number} wz
 * @property {number} state as in `Segment`; 4 and 5 mean: not on the cloth
 * @property {number} z height of the ball's bottom above the cloth (m)
 * @property {number} vz
 */

/** @typedef {Map<number, Segment[]>} Tracks ball number → segments in time order */

/** @type {Uint32Array} */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * CRC-32 (IEEE 802.3, as zlib's crc32) of `bytes[0 … end)`.
 * @param {Uint8Array} bytes @param {number} end
 */
function crc32(bytes, end) {
  let c = 0xffffffff;
  for (let i = 0; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * @param {Uint8Array | ArrayBuffer | ArrayBufferView} data
 * @returns {Uint8Array}
 */
function asBytes(data) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TrajectoryError(`a trajectory is bytes, not ${data === null ? "null" : typeof data}`);
}

/** Bounds-checked reads over the body (everything before the checksum). */
class Reader {
  /** @param {Uint8Array} bytes @param {number} end */
  constructor(bytes, end) {
    this.bytes = bytes;
    this.end = end;
    this.pos = 2;
  }

  /** @param {string} what */
  byte(what) {
    if (this.pos >= this.end) throw new TrajectoryError(`truncated trajectory: missing ${what}`);
    return this.bytes[this.pos++];
  }

  /** LEB128, at most 8 bytes, canonical, below 2^53. @param {string} what */
  unsigned(what) {
    let value = 0;
    let scale = 1;
    for (let count = 0; count < MAX_VARINT_BYTES; count++) {
      if (this.pos >= this.end) throw new TrajectoryError(`truncated trajectory: missing ${what}`);
      const b = this.bytes[this.pos++];
      value += (b & 0x7f) * scale;
      if (b < 0x80) {
        if (b === 0 && count > 0) throw new TrajectoryError(`malformed trajectory: overlong integer in ${what}`);
        if (value > Number.MAX_SAFE_INTEGER) throw new TrajectoryError(`malformed trajectory: integer too large in ${what}`);
        return value;
      }
      scale *= 128;
    }
    throw new TrajectoryError(`malformed trajectory: integer too long in ${what}`);
  }

  /** Zigzag: 0, −1, 1, −2, … @param {string} what */
  signed(what) {
    const z = this.unsigned(what);
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }
}

/**
 * Bit length of a positive integer below 2^28.
 * @param {number} n
 */
function bitLength(n) {
  return 32 - Math.clz32(n);
}

/**
 * Read a trajectory: ball number → its segments in time order.
 * Throws `TrajectoryError` for an unknown version, a wrong checksum (corrupted or
 * truncated data) or malformed content; never returns partial results.
 * @param {Uint8Array | ArrayBuffer | ArrayBufferView} data
 * @returns {Tracks}
 */
export function decodeTracks(data) {
  const bytes = asBytes(data);
  if (bytes.length === 0) throw new TrajectoryError("empty trajectory");
  const version = bytes[0];
  if (!VERSIONS.includes(version)) {
    throw new TrajectoryError(
      `unsupported trajectory format version ${version} (this decoder reads versions ${VERSIONS.join(", ")})`,
    );
  }
  if (bytes.length < 2 + CHECKSUM_BYTES) throw new TrajectoryError(`truncated trajectory: ${bytes.length} bytes`);
  const end = bytes.length - CHECKSUM_BYTES;
  const stored = (bytes[end] | (bytes[end + 1] << 8) | (bytes[end + 2] << 16) | (bytes[end + 3] << 24)) >>> 0;
  if (crc32(bytes, end) !== stored) {
    throw new TrajectoryError("trajectory checksum mismatch: the data is corrupted or truncated");
  }
  const reader = new Reader(bytes, end);
  /** @type {Tracks} */
  const tracks = new Map();
  let previousBall = -1;
  for (let i = 0; i < bytes[1]; i++) {
    const ball = reader.byte("ball number");
    if (ball <= previousBall) throw new TrajectoryError(`malformed trajectory: ball ${ball} out of order`);
    previousBall = ball;
    tracks.set(ball, decodeTrack(reader, ball, version));
  }
  if (reader.pos !== end) {
    throw new TrajectoryError(`malformed trajectory: ${end - reader.pos} unexpected bytes at end`);
  }
  return tracks;
}

/**
 * @param {Reader} reader @param {number} ball @param {number} version
 * @returns {Segment[]}
 */
function decodeTrack(reader, ball, version) {
  const where = `ball ${ball}`;
  const states = STATE_COUNT[version];
  const reserved = RESERVED_BITS[version];
  const count = reader.unsigned(`${where} segment count`);
  if (count === 0 || count > reader.end - reader.pos) {
    throw new TrajectoryError(`malformed trajectory: ${where} has an impossible segment count`);
  }
  let ticks = reader.unsigned(`${where} start time`);
  /** @type {Segment[]} */
  const segments = [];
  let px = 0, py = 0, vx = 0, vy = 0, ax = 0, ay = 0;
  let wx = 0, wy = 0, wz = 0, dwx = 0, dwy = 0, dwz = 0;
  let pz = 0, vz = 0, az = 0;
  let span = 0;
  let reach = 0;
  for (let index = 0; index < count; index++) {
    if (ticks >= MAX_TICKS) throw new TrajectoryError(`malformed trajectory: ${where} time beyond ${MAX_TIME} s`);
    let n = 0;
    let level = LAST_LEVEL;
    if (index < count - 1) {
      n = reader.unsigned(`${where} segment duration`);
      if (n === 0) throw new TrajectoryError(`malformed trajectory: ${where} zero-length segment`);
      if (ticks + n >= MAX_TICKS) throw new TrajectoryError(`malformed trajectory: ${where} time beyond ${MAX_TIME} s`);
      level = bitLength(n);
    }
    const head = reader.byte(`${where} segment head`);
    const state = head & STATE_BITS;
    if (state >= states || head & reserved) {
      throw new TrajectoryError(`malformed trajectory: ${where} bad segment head 0x${head.toString(16).padStart(2, "0")}`);
    }

    px = px + vx * span + ax * reach;
    py = py + vy * span + ay * reach;
    if (head & HAS_POSITION) {
      px = px + reader.signed(where) * Q_POSITION;
      py = py + reader.signed(where) * Q_POSITION;
    }
    if (head & HAS_MOTION) {
      const qv = Q_VELOCITY[level];
      const qa = Q_ACCELERATION[level];
      vx = vx + ax * span + reader.signed(where) * qv;
      vy = vy + ay * span + reader.signed(where) * qv;
      ax = ax + reader.signed(where) * qa;
      ay = ay + reader.signed(where) * qa;
    } else {
      vx = vy = ax = ay = 0;
    }
    if (head & HAS_SPIN) {
      const qdw = Q_SPIN_RATE[level];
      wx = wx + dwx * span + reader.signed(where) * Q_SPIN;
      wy = wy + dwy * span + reader.signed(where) * Q_SPIN;
      wz = wz + dwz * span + reader.signed(where) * Q_SPIN;
      dwx = dwx + reader.signed(where) * qdw;
      dwy = dwy + reader.signed(where) * qdw;
      dwz = dwz + reader.signed(where) * qdw;
    } else {
      wx = wy = wz = dwx = dwy = dwz = 0;
    }
    if (head & HAS_HEIGHT) {
      pz = pz + vz * span + az * reach + reader.signed(where) * Q_POSITION;
      vz = vz + az * span + reader.signed(where) * Q_VELOCITY[level];
      az = az + reader.signed(where) * Q_ACCELERATION[level];
    } else {
      pz = vz = az = 0;
    }
    /** @type {Segment} */
    const segment = { t0: ticks * TICK, x: px, y: py, vx, vy, ax, ay, wx, wy, wz, dwx, dwy, dwz, state, z: pz, vz, az };
    checkDecoded(where, segment);
    segments.push(segment);
    ticks += n;
    span = n * TICK;
    reach = 0.5 * span * span;
  }
  return segments;
}

/**
 * Well-formed bytes can still describe absurd motion; refuse it rather than draw it.
 * @param {string} where @param {Segment} s
 */
function checkDecoded(where, s) {
  const slack = DECODE_SLACK;
  if (
    Math.max(Math.abs(s.x), Math.abs(s.y)) > POSITION_LIMIT + slack ||
    Math.max(Math.abs(s.vx), Math.abs(s.vy)) > VELOCITY_LIMIT + slack ||
    Math.max(Math.abs(s.ax), Math.abs(s.ay)) > ACCELERATION_LIMIT + slack ||
    Math.max(Math.abs(s.wx), Math.abs(s.wy), Math.abs(s.wz)) > SPIN_LIMIT + slack ||
    Math.max(Math.abs(s.dwx), Math.abs(s.dwy), Math.abs(s.dwz)) > SPIN_RATE_LIMIT + slack ||
    Math.abs(s.z) > POSITION_LIMIT + slack ||
    Math.abs(s.vz) > VELOCITY_LIMIT + slack ||
    Math.abs(s.az) > ACCELERATION_LIMIT + slack
  ) {
    throw new TrajectoryError(`malformed trajectory: ${where} value out of range at t=${s.t0}`);
  }
}

/**
 * The segment in force at `t`, and the time into it (0 before the track starts).
 * @param {Tracks} decoded @param {number} ball @param {number} t
 * @returns {[Segment, number]}
 */
function segmentAt(decoded, ball, t) {
  const track = decoded.get(ball);
  if (!track || track.length === 0) throw new TrajectoryError(`no track for ball ${ball}`);
  if (!Number.isFinite(t)) throw new TrajectoryError(`time must be finite, not ${t}`);
  if (t < track[0].t0) return [track[0], 0];
  let lo = 0;
  let hi = track.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (track[mid].t0 <= t) lo = mid;
    else hi = mid - 1;
  }
  const s = track[lo];
  return [s, t - s.t0];
}

/**
 * The ball's centre at time `t` (s), or null once it is pocketed or off the table.
 * Before its first segment a ball is where that segment starts.
 * @param {Tracks} decoded @param {number} ball @param {number} t
 * @returns {[number, number] | null}
 */
export function positionAt(decoded, ball, t) {
  const [s, tau] = segmentAt(decoded, ball, t);
  if (s.state === 4 || s.state === 5) return null;
  return [s.x + s.vx * tau + 0.5 * s.ax * tau * tau, s.y + s.vy * tau + 0.5 * s.ay * tau * tau];
}

/**
 * Position, velocity, spin, state and height at time `t`, for drawing the ball. For a
 * pocketed or off-table ball the position is where its segment puts it (where it left the
 * table).
 * @param {Tracks} decoded @param {number} ball @param {number} t
 * @returns {BallState}
 */
export function stateAt(decoded, ball, t) {
  const [s, tau] = segmentAt(decoded, ball, t);
  const z = s.z ?? 0;
  const vz = s.vz ?? 0;
  const az = s.az ?? 0;
  return {
    x: s.x + s.vx * tau + 0.5 * s.ax * tau * tau,
    y: s.y + s.vy * tau + 0.5 * s.ay * tau * tau,
    vx: s.vx + s.ax * tau,
    vy: s.vy + s.ay * tau,
    wx: s.wx + s.dwx * tau,
    wy: s.wy + s.dwy * tau,
    wz: s.wz + s.dwz * tau,
    state: s.state,
    z: z + vz * tau + 0.5 * az * tau * tau,
    vz: vz + az * tau,
  };
}

/**
 * When the last ball starts its final segment: nothing changes after this (s).
 * @param {Tracks} decoded
 */
export function duration(decoded) {
  let end = 0;
  for (const track of decoded.values()) if (track.length) end = Math.max(end, track[track.length - 1].t0);
  return end;
}
