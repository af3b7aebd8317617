// Playback of a shot: samples the decoded trajectory (see `trajectory.mjs`) at any time,
// so the animation runs at whatever rate the display refreshes, and ends on the server's
// final positions exactly. Pure: the caller owns the clock and the drawing.

import { TABLE } from "./table.mjs";

/**
 * @typedef {object} Seg one decoded segment, in the physics' `Segment` field order
 * @property {number} t0
 * @property {number} x
 * @property {number} y
 * @property {number} vx
 * @property {number} vy
 * @property {number} ax
 * @property {number} ay
 * @property {number} wx
 * @property {number} wy
 * @property {number} wz
 * @property {number} dwx
 * @property {number} dwy
 * @property {number} dwz
 * @property {number} state 0 rest, 1 spinning, 2 sliding, 3 rolling, 4 pocketed, 5 off the table, 6 in flight
 * @property {number} [z] height of the ball's bottom above the cloth (m), with its rate and acceleration
 * @property {number} [vz]
 * @property {number} [az]
 */

/**
 * @typedef {object} BallFrame
 * @property {number} n ball number
 * @property {number} x
 * @property {number} y
 * @property {number} [z] height above the cloth (m) of a ball in flight
 * @property {number} wx angular velocity, world frame (rad/s)
 * @property {number} wy
 * @property {number} wz
 * @property {number} [alpha] fading out into a pocket
 * @property {number} [scale] shrinking into a pocket
 * @property {number} [seat] a lag ball: whose it is
 */

const FIELDS = /** @type {const} */ (["t0", "x", "y", "vx", "vy", "ax", "ay", "wx", "wy", "wz", "dwx", "dwy", "dwz", "state", "z", "vz", "az"]);

/** How long a pocketed ball is seen dropping into the hole, seconds. */
export const DROP_TIME = 0.16;

/**
 * A segment as the decoder gives it (a 14-number array or an object with the field
 * names) turned into a `Seg`.
 * @param {any} s @returns {Seg}
 */
export function toSeg(s) {
  if (Array.isArray(s) || ArrayBuffer.isView(s)) {
    const a = /** @type {ArrayLike<number>} */ (s);
    /** @type {Record<string, number>} */
    const o = {};
    FIELDS.forEach((f, i) => {
      o[f] = Number(a[i] ?? 0);
    });
    return /** @type {Seg} */ (/** @type {unknown} */ (o));
  }
  return /** @type {Seg} */ (s);
}

/**
 * Decoded tracks (a Map, or an object keyed by ball number) as a Map of `Seg` arrays.
 * @param {Map<number, any[]> | Record<string, any[]>} decoded
 * @returns {Map<number, Seg[]>}
 */
export function normaliseTracks(decoded) {
  /** @type {Map<number, Seg[]>} */
  const out = new Map();
  const entries = decoded instanceof Map ? [...decoded.entries()] : Object.entries(decoded);
  for (const [k, segs] of entries) out.set(Number(k), Array.from(segs, toSeg));
  return out;
}

/** The segment in force at `t` (the first one before the track starts). @param {Seg[]} track @param {number} t */
export function segmentAt(track, t) {
  let lo = 0;
  let hi = track.length - 1;
  if (t <= track[0].t0) return track[0];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (track[mid].t0 <= t) lo = mid;
    else hi = mid - 1;
  }
  return track[lo];
}

/** @param {number} x @param {number} y */
function nearestHole(x, y) {
  let best = TABLE.pockets[0];
  let bestD = Infinity;
  for (const p of TABLE.pockets) {
    const d = Math.hypot(p.hole[0] - x, p.hole[1] - y);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best.hole;
}

/**
 * Every ball that is on the cloth (or still dropping) at time `t`.
 * @param {Map<number, Seg[]>} tracks @param {number} t
 * @returns {BallFrame[]}
 */
export function sampleTracks(tracks, t) {
  /** @type {BallFrame[]} */
  const out = [];
  for (const [n, track] of tracks) {
    if (!track.length) continue;
    const s = segmentAt(track, t);
    const tau = Math.max(0, t - s.t0);
    const x = s.x + s.vx * tau + 0.5 * s.ax * tau * tau;
    const y = s.y + s.vy * tau + 0.5 * s.ay * tau * tau;
    if (s.state === 5) continue;
    if (s.state === 4) {
      if (tau >= DROP_TIME) continue;
      const k = tau / DROP_TIME;
      const [hx, hy] = nearestHole(s.x, s.y);
      out.push({ n, x: s.x + (hx - s.x) * k, y: s.y + (hy - s.y) * k, wx: 0, wy: 0, wz: 0, alpha: 1 - k, scale: 1 - 0.35 * k });
      continue;
    }
    const frame = { n, x, y, wx: s.wx + s.dwx * tau, wy: s.wy + s.dwy * tau, wz: s.wz + s.dwz * tau };
    if (s.state === 6) out.push({ ...frame, z: (s.z ?? 0) + (s.vz ?? 0) * tau + 0.5 * (s.az ?? 0) * tau * tau });
    else out.push(frame);
  }
  return out;
}

/**
 * Balls from a wire ball list (index = ball number, null = gone) as frames at rest.
 * @param {ReadonlyArray<readonly [number, number] | null | undefined>} balls
 * @returns {BallFrame[]}
 */
export function restingBalls(balls) {
  /** @type {BallFrame[]} */
  const out = [];
  balls.forEach((p, n) => {
    if (p) out.push({ n, x: p[0], y: p[1], wx: 0, wy: 0, wz: 0 });
  });
  return out;
}

/**
 * When the last ball starts its last segment: nothing moves after it.
 * @param {Map<number, Seg[]>} tracks
 */
export function tracksDuration(tracks) {
  let d = 0;
  for (const track of tracks.values()) if (track.length) d = Math.max(d, track[track.length - 1].t0);
  return d;
}

/**
 * One shot being played back. `frame(t)` gives the balls at `t` seconds into the shot;
 * from `duration` on it is the server's `final` list exactly, not the decoded tracks.
 */
export class ShotPlayback {
  /**
   * @param {Map<number, Seg[]>} tracks
   * @param {number} duration seconds, from the server
   * @param {ReadonlyArray<readonly [number, number] | null> | null} final where the server says each ball stopped
   */
  constructor(tracks, duration, final) {
    this.tracks = tracks;
    this.duration = Math.max(duration, tracksDuration(tracks));
    this.final = final;
  }

  /** @param {number} t seconds into the shot @returns {BallFrame[]} */
  frame(t) {
    if (t >= this.duration && this.final) return restingBalls(this.final);
    return sampleTracks(this.tracks, Math.min(t, this.duration));
  }

  /** @param {number} t */
  done(t) {
    return t >= this.duration;
  }
}
