// Where the cue ball goes after it hits the object ball, with the draw or follow the tip
// gives it: the path the aim preview draws (and the colour of the object ball's path).
//
// A stun ball leaves along the tangent line; a ball with follow or draw leaves along it
// too, then curves, while it slides, toward (follow) or back from (draw) the object ball's
// side, and rolls on in a straight line. This is the standard sliding-ball model of the
// server's physics (docs/PHYSICS.md: sliding friction μs until v = ωR, then rolling
// resistance μr; ball–ball restitution e on the normal component), run for the two balls alone:
// no throw, no squirt, no swerve from side spin — those stay for the player to learn. A
// raised cue's extra draw or follow is in (`effectiveHeight`); the hop it gives the cue ball
// (the server's slate bounce) is not. `tests/browser/test_cuepath_parity.py` holds it against the engine.

import { TABLE } from "./table.mjs";

/** @typedef {[number, number]} Vec */

/** The server's default coefficients (`server/physics/params.py`). */
export const PHYSICS = { g: 9.81, muSlide: 0.2, muRoll: 0.01, eBall: 0.95 };

/**
 * @typedef {object} CueBallPath
 * @property {Vec[]} points the cue ball's centre from contact on (the sliding curve, then
 *   the start of the straight roll); empty when the ball stays at the contact point
 * @property {Vec} rollDir unit direction of the straight roll ([0, 0]: it stops)
 * @property {number} rollDistance how far the straight roll carries before it stops (m)
 */

/**
 * The tip height that gives the same draw or follow with a level cue: a raised cue drives
 * part of the stroke into the bed, so the same speed comes with more spin, 1/cos(elevation)
 * times as much (the server's strike model). Kept within ±1: past that the ball would
 * stop and come back before it reaches anything, which the preview does not draw.
 * @param {number} height tip height (radii) @param {number} [elevation] degrees
 */
export function effectiveHeight(height, elevation = 0) {
  const cos = Math.cos((Math.min(89, Math.max(0, elevation || 0)) * Math.PI) / 180);
  return Math.max(-1, Math.min(1, height / cos));
}

/**
 * Speed and spin of the cue ball along its line when it has travelled `distance`: struck
 * at `speed` with the tip `height` radii above centre (+ follow, − draw). Spin is given as
 * the speed of the ball's bottom relative to its centre, "spin speed": equal to the speed
 * once the ball rolls.
 * @param {number} speed @param {number} height @param {number} distance
 * @returns {{ v: number, s: number }}
 */
export function stateAtDistance(speed, height, distance, k = PHYSICS) {
  const slideDecel = k.muSlide * k.g;
  const v0 = speed;
  const s0 = 2.5 * height * v0; // an off-centre strike: ω = 5·v·h / (2R)
  const u0 = v0 - s0; // slip: > 0 while the ball skids forward (draw, stun)
  const sign = Math.sign(u0);
  const tau = Math.abs(u0) / (3.5 * slideDecel);
  const slideDistance = v0 * tau - 0.5 * sign * slideDecel * tau * tau;
  if (tau > 0 && distance <= slideDistance) {
    // Still sliding there: v0·t − ½·a·t² = distance, the first root (a ≠ 0 while it slides).
    const a = sign * slideDecel;
    const t = (v0 - Math.sqrt(Math.max(0, v0 * v0 - 2 * a * distance))) / a;
    return { v: v0 - a * t, s: s0 + 2.5 * a * t };
  }
  const rolling = (5 * v0 + 2 * s0) / 7;
  const left = Math.max(0, distance - Math.max(0, slideDistance));
  const v = Math.sqrt(Math.max(0, rolling * rolling - 2 * k.muRoll * k.g * left));
  return { v, s: v };
}

/**
 * The cue ball's path after contact.
 * @param {import("./aim.mjs").BallContact} contact where and how the balls meet
 * @param {number} angle the aim (radians)
 * @param {number} speed cue-ball speed off the tip (m/s)
 * @param {number} height tip height in radii (+ follow, − draw)
 * @param {number} [elevation] cue elevation, degrees
 * @returns {CueBallPath}
 */
export function cueBallPath(contact, angle, speed, height, elevation = 0, k = PHYSICS) {
  const d = /** @type {Vec} */ ([Math.cos(angle), Math.sin(angle)]);
  const { v, s } = stateAtDistance(speed, effectiveHeight(height, elevation), contact.distance, k);
  if (!(v > 0)) return { points: [], rollDir: [0, 0], rollDistance: 0 }; // it never gets there
  const n = contact.objectDir;
  const vn = v * (d[0] * n[0] + d[1] * n[1]);
  // The normal part of the velocity goes to the object ball but for (1 − e)/2 of it; the
  // tangential part and the spin stay with the cue ball.
  const keep = (1 - k.eBall) / 2;
  /** @type {Vec} */
  const V = [v * d[0] - vn * n[0] + keep * vn * n[0], v * d[1] - vn * n[1] + keep * vn * n[1]];
  /** @type {Vec} */
  const S = [s * d[0], s * d[1]];
  const U = [V[0] - S[0], V[1] - S[1]];
  const slip = Math.hypot(U[0], U[1]);
  const a = k.muSlide * k.g;
  /** @type {Vec[]} */
  const points = [contact.ghost];
  let start = contact.ghost;
  /** @type {Vec} */
  let roll = V;
  if (slip > 1e-9) {
    const uhat = [U[0] / slip, U[1] / slip];
    const tau = slip / (3.5 * a);
    const steps = 24;
    for (let i = 1; i <= steps; i++) {
      const t = (tau * i) / steps;
      points.push([
        contact.ghost[0] + V[0] * t - 0.5 * a * uhat[0] * t * t,
        contact.ghost[1] + V[1] * t - 0.5 * a * uhat[1] * t * t,
      ]);
    }
    start = points[points.length - 1];
    roll = [(5 * V[0] + 2 * S[0]) / 7, (5 * V[1] + 2 * S[1]) / 7];
  }
  const rollSpeed = Math.hypot(roll[0], roll[1]);
  if (rollSpeed < 1e-6) return { points: points.length > 1 ? points : [], rollDir: [0, 0], rollDistance: 0 };
  if (points.length === 1) points.push(start);
  return {
    points,
    rollDir: [roll[0] / rollSpeed, roll[1] / rollSpeed],
    rollDistance: (rollSpeed * rollSpeed) / (2 * k.muRoll * k.g),
  };
}

/**
 * The path cut where the ball's centre would meet a cushion (the bed inset by a radius):
 * the preview shows the way to the first cushion only.
 * @param {CueBallPath} path
 * @returns {Vec[]}
 */
export function pathToCushion(path, maxRoll = Infinity, table = TABLE) {
  const r = table.ballRadius;
  /** @param {Vec} p */
  const inside = (p) => p[0] >= r && p[0] <= table.length - r && p[1] >= r && p[1] <= table.width - r;
  /**
   * How far along `dir` from `from` the centre meets the cushion line, at most `limit`.
   * @param {Vec} from @param {number[]} dir @param {number} limit
   */
  const toCushion = (from, [dx, dy], limit) => {
    let t = limit;
    if (dx > 1e-12) t = Math.min(t, (table.length - r - from[0]) / dx);
    if (dx < -1e-12) t = Math.min(t, (r - from[0]) / dx);
    if (dy > 1e-12) t = Math.min(t, (table.width - r - from[1]) / dy);
    if (dy < -1e-12) t = Math.min(t, (r - from[1]) / dy);
    return Math.max(0, t);
  };
  /** @type {Vec[]} */
  const out = [];
  for (const p of path.points) {
    if (!inside(p)) {
      // The curve meets the cushion within this step: end it there.
      const from = out[out.length - 1];
      if (from) {
        const step = Math.hypot(p[0] - from[0], p[1] - from[1]);
        const dir = [(p[0] - from[0]) / step, (p[1] - from[1]) / step];
        const t = toCushion(from, dir, step);
        out.push([from[0] + dir[0] * t, from[1] + dir[1] * t]);
      }
      return out;
    }
    out.push(p);
  }
  if (out.length === 0 || path.rollDistance <= 0) return out;
  const from = out[out.length - 1];
  const t = toCushion(from, path.rollDir, Math.min(path.rollDistance, maxRoll));
  out.push([from[0] + path.rollDir[0] * t, from[1] + path.rollDir[1] * t]);
  return out;
}

/**
 * The colour of the object ball's path: green when it runs into a pocket, unless the ball
 * the line meets first is the wrong one (a foul: the pot would not count, and a green line
 * under a red ghost ball read as a good shot); yellow otherwise.
 * @param {boolean} pocket @param {boolean} wrong
 */
export function objectPathColour(pocket, wrong) {
  return pocket && !wrong ? "rgba(120, 255, 160, 0.95)" : "rgba(255, 230, 90, 0.95)";
}
