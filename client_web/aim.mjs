// Aiming geometry: pure functions of positions, no DOM and no state.
//
// What the player sees while aiming (the aim line, the ghost ball at the first ball
// the line meets, the object ball's expected direction, where the line meets a
// cushion) and what is checked before a ball-in-hand placement is sent. The aim
// preview is the ideal, frictionless geometry (the cue ball's path after contact, with
// draw or follow, is `cuepath.mjs`): the server's physics adds throw, squirt and swerve,
// which is exactly what a player has to learn to allow for.

import { JAW_TIP_RADIUS, TABLE } from "./table.mjs";

/** @typedef {[number, number]} Vec */
/** @typedef {{ n: number, x: number, y: number }} BallPos */
/** @typedef {import("./table.mjs").TableGeometry} TableGeometry */

/**
 * @typedef {object} BallContact
 * @property {"ball"} kind
 * @property {number} ball the object ball the line meets first
 * @property {number} distance how far the cue ball travels to the contact (m)
 * @property {Vec} ghost the cue ball's centre at contact
 * @property {Vec} objectDir unit vector the object ball leaves along (line of centres)
 * @property {Vec} cueDir unit vector of a stun cue ball after contact (tangent line);
 *   [0, 0] for a full-ball hit
 * @property {number} cutAngle radians between the aim and the object ball's path, 0…π/2
 * @property {ObjectRun} [run] where the object ball runs (`aimPreview` gives it)
 */

/**
 * Where the object ball runs along its line of centres: to a cushion, perhaps into a
 * pocket, or into the next ball in its way (which it meets before any pocket).
 * @typedef {object} ObjectRun
 * @property {number} distance how far its centre travels (m)
 * @property {Vec} point its centre at the end of the run
 * @property {string | null} pocket the pocket whose mouth it enters, when nothing is in its way
 * @property {number | null} blocker the ball in its way, if any
 */

/**
 * @typedef {object} CushionContact
 * @property {"cushion"} kind
 * @property {"head" | "foot" | "near" | "far"} rail head: x = 0, foot: x = length,
 *   near: y = 0, far: y = width
 * @property {string | null} pocket the pocket whose mouth the line enters, if any
 * @property {number} distance
 * @property {Vec} point the cue ball's centre where it meets the cushion
 * @property {Vec} reflected unit direction after an ideal (mirror) rebound
 */

/** Degrees in a radian. */
export const DEG = 180 / Math.PI;

/** The signed smallest turn from angle `a` to angle `b` (radians). @param {number} a @param {number} b */
export function angleBetween(a, b) {
  return Math.atan2(Math.sin(b - a), Math.cos(b - a));
}

/** Degrees in [−180, 180), to 0.0001°, as the shots are sent (the protocol takes ±360). @param {number} rad */
export function toDegrees(rad) {
  let d = rad * DEG;
  d = ((d % 360) + 540) % 360 - 180;
  return Math.round(d * 1e4) / 1e4;
}

/** A coordinate as the protocol is sent it: to the micrometre. @param {number} v */
export function round6(v) {
  return Math.round(v * 1e6) / 1e6;
}

/** @param {number} angle @returns {Vec} */
export function unitFromAngle(angle) {
  return [Math.cos(angle), Math.sin(angle)];
}

/** Angle of the direction from `from` to `to`, in (−π, π]. @param {Vec} from @param {Vec} to */
export function angleTo(from, to) {
  return Math.atan2(to[1] - from[1], to[0] - from[0]);
}

/** @param {Vec} a @param {Vec} b */
export function distance(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/**
 * Distance along a ray (unit `dir`) from `origin` until a circle of `radius` around
 * `centre` is reached, or null when the ray misses it or points away from it. A start
 * inside the circle is a miss: an overlapping ball cannot be hit from where it is.
 * @param {Vec} origin @param {Vec} dir @param {Vec} centre @param {number} radius
 * @returns {number | null}
 */
export function rayCircle(origin, dir, centre, radius) {
  const ox = origin[0] - centre[0];
  const oy = origin[1] - centre[1];
  const b = dir[0] * ox + dir[1] * oy;
  const c = ox * ox + oy * oy - radius * radius;
  if (c < 0) return null;
  const disc = b * b - c;
  if (disc < 0) return null;
  const t = -b - Math.sqrt(disc);
  return t >= 0 ? t : null;
}

/**
 * The first object ball a cue ball sent from `cue` at `angle` would touch, with the
 * ghost-ball position and the ideal directions both balls leave along.
 * @param {Vec} cue @param {number} angle @param {Iterable<BallPos>} balls object balls
 * @param {number} [radius]
 * @returns {BallContact | null}
 */
export function firstBallContact(cue, angle, balls, radius = TABLE.ballRadius) {
  const dir = unitFromAngle(angle);
  /** @type {{ n: number, t: number, centre: Vec } | null} */
  let best = null;
  for (const b of balls) {
    if (b.n === 0) continue;
    const t = rayCircle(cue, dir, [b.x, b.y], 2 * radius);
    if (t !== null && (best === null || t < best.t)) best = { n: b.n, t, centre: [b.x, b.y] };
  }
  if (best === null) return null;
  const ghost = /** @type {Vec} */ ([cue[0] + dir[0] * best.t, cue[1] + dir[1] * best.t]);
  const dx = best.centre[0] - ghost[0];
  const dy = best.centre[1] - ghost[1];
  const len = Math.hypot(dx, dy) || 1;
  const objectDir = /** @type {Vec} */ ([dx / len, dy / len]);
  const cosCut = Math.max(-1, Math.min(1, dir[0] * objectDir[0] + dir[1] * objectDir[1]));
  const cutAngle = Math.acos(cosCut);
  // A stun cue ball keeps only the velocity component along the tangent line.
  const tx = dir[0] - cosCut * objectDir[0];
  const ty = dir[1] - cosCut * objectDir[1];
  const tlen = Math.hypot(tx, ty);
  const cueDir = /** @type {Vec} */ (tlen < 1e-9 ? [0, 0] : [tx / tlen, ty / tlen]);
  return { kind: "ball", ball: best.n, distance: best.t, ghost, objectDir, cueDir, cutAngle };
}

/**
 * Where a ball centre travelling from `origin` at `angle` meets a cushion. The centre
 * is confined to the bed inset by one radius, so that is the box the ray leaves.
 * @param {Vec} origin @param {number} angle @param {TableGeometry} [table]
 * @returns {CushionContact}
 */
export function cushionContact(origin, angle, table = TABLE) {
  const r = table.ballRadius;
  const dir = unitFromAngle(angle);
  const minX = r;
  const maxX = table.length - r;
  const minY = r;
  const maxY = table.width - r;
  /** @type {{ t: number, rail: CushionContact["rail"] }[]} */
  const hits = [];
  if (dir[0] < -1e-12) hits.push({ t: (minX - origin[0]) / dir[0], rail: "head" });
  if (dir[0] > 1e-12) hits.push({ t: (maxX - origin[0]) / dir[0], rail: "foot" });
  if (dir[1] < -1e-12) hits.push({ t: (minY - origin[1]) / dir[1], rail: "near" });
  if (dir[1] > 1e-12) hits.push({ t: (maxY - origin[1]) / dir[1], rail: "far" });
  let best = hits[0];
  for (const h of hits) if (h.t < best.t) best = h;
  const t = Math.max(0, best.t);
  const point = /** @type {Vec} */ ([origin[0] + dir[0] * t, origin[1] + dir[1] * t]);
  const reflected = /** @type {Vec} */ (
    best.rail === "head" || best.rail === "foot" ? [-dir[0], dir[1]] : [dir[0], -dir[1]]
  );
  return { kind: "cushion", rail: best.rail, pocket: pocketEntered(origin, dir, point, table), distance: t, point, reflected };
}

/**
 * The pocket a ball centre running from `origin` along the unit `dir`, meeting the
 * cushion line at `point`, drops into cleanly: its path reaches the hole (the slate's
 * edge, where the server's ball falls) and passes both jaw points without touching
 * them. Null otherwise. Why so strict: an opening reaching a ball's width along the
 * rails was called a pot for paths the server's jaws turn away — 45 % of the paths it
 * called in, measured against the engine (tests/browser/test_pocket_parity.py); a
 * ball that grazes a jaw drops at some speeds and not at others, and the line is a
 * promise — kept at the speeds pots are played at (a hard ball into a side pocket at a
 * steep angle can still rattle out, as the preview knows no speed). @param {Vec} origin @param {Vec} dir @param {Vec} point
 * @param {TableGeometry} [table] @returns {string | null}
 */
export function pocketEntered(origin, dir, point, table = TABLE) {
  const r = table.ballRadius;
  for (const p of table.pockets) {
    const mid = [(p.jaws[0][0] + p.jaws[1][0]) / 2, (p.jaws[0][1] + p.jaws[1][1]) / 2];
    if (Math.hypot(point[0] - mid[0], point[1] - mid[1]) > p.mouth) continue; // a rail first
    // Where the centre first crosses the hole's circle.
    const fx = origin[0] - p.hole[0];
    const fy = origin[1] - p.hole[1];
    const b = fx * dir[0] + fy * dir[1];
    const disc = b * b - (fx * fx + fy * fy - p.holeRadius * p.holeRadius);
    if (disc < 0) return null;
    const t = -b - Math.sqrt(disc);
    if (t < 0) return null;
    const end = /** @type {Vec} */ ([origin[0] + dir[0] * t, origin[1] + dir[1] * t]);
    const clear = p.tips.every((tip) => segmentDistance(origin, end, tip) >= r + JAW_TIP_RADIUS);
    return clear ? p.id : null;
  }
  return null;
}

/** The distance from `p` to the segment `a`–`b`. @param {Vec} a @param {Vec} b @param {Vec} p */
function segmentDistance(a, b, p) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const k = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(a[0] + dx * k - p[0], a[1] + dy * k - p[1]);
}

/**
 * Everything the aim overlay draws for one cue direction: the line to whatever comes
 * first (an object ball or a cushion), then either the two departing directions after
 * the contact or the mirror rebound off the cushion.
 * @param {Vec} cue @param {number} angle @param {Iterable<BallPos>} balls
 * @param {TableGeometry} [table]
 * @returns {BallContact | CushionContact}
 */
export function aimPreview(cue, angle, balls, table = TABLE) {
  const list = [...balls];
  const ball = firstBallContact(cue, angle, list, table.ballRadius);
  const cushion = cushionContact(cue, angle, table);
  if (ball !== null && ball.distance <= cushion.distance) return { ...ball, run: objectRun(ball, list, table) };
  return cushion;
}

/**
 * The direction from `cue` nearest the line to the ball `target`'s centre that meets that
 * ball first: the straight line if nothing is in the way, else the fullest hit past the
 * ball that is (a new turn's cue pointed through it, a red ghost ball and a foul warning
 * the player had not asked for), else the straight line all the same.
 * @param {Vec} cue @param {BallPos} target @param {Iterable<BallPos>} balls
 * @param {number} [radius] @returns {number} radians
 */
export function clearLineTo(cue, target, balls, radius = TABLE.ballRadius) {
  const list = [...balls];
  const straight = angleTo(cue, [target.x, target.y]);
  const meets = (/** @type {number} */ a) => firstBallContact(cue, a, list, radius)?.ball === target.n;
  if (meets(straight)) return straight;
  // Within the target's own width as seen from the cue ball (a hit thinner than that misses).
  const reach = Math.asin(Math.min(1, (1.96 * radius) / Math.max(2 * radius, Math.hypot(target.x - cue[0], target.y - cue[1]))));
  const steps = 48;
  for (let k = 1; k <= steps; k++) {
    for (const side of [1, -1]) {
      const a = straight + (side * reach * k) / steps;
      if (meets(a)) return a;
    }
  }
  return straight;
}

/**
 * Where the object ball of `contact` runs: the aim preview's line that turns green when
 * it enters a pocket ends at the first ball in its way instead (a pot promised through
 * another ball was a miss played on the preview's word). The cue ball is not in the way:
 * it has moved to the contact.
 * @param {BallContact} contact @param {Iterable<BallPos>} balls @param {TableGeometry} [table]
 * @returns {ObjectRun}
 */
export function objectRun(contact, balls, table = TABLE) {
  const r = table.ballRadius;
  const from = /** @type {Vec} */ ([contact.ghost[0] + contact.objectDir[0] * 2 * r, contact.ghost[1] + contact.objectDir[1] * 2 * r]);
  const angle = Math.atan2(contact.objectDir[1], contact.objectDir[0]);
  const others = [...balls].filter((b) => b.n !== contact.ball && b.n !== 0);
  // A ball frozen to it (touching, or overlapping by a rounding) on its way out is in its
  // way at once: the ray starts inside that ball's reach, which the ray test misses.
  const frozen = others.find((b) => Math.hypot(b.x - from[0], b.y - from[1]) <= 2 * r + 1e-6 && (b.x - from[0]) * contact.objectDir[0] + (b.y - from[1]) * contact.objectDir[1] > 0);
  if (frozen) return { distance: 0, point: from, pocket: null, blocker: frozen.n };
  const hit = firstBallContact(from, angle, others, r);
  const cushion = cushionContact(from, angle, table);
  if (hit !== null && hit.distance < cushion.distance) return { distance: hit.distance, point: hit.ghost, pocket: null, blocker: hit.ball };
  return { distance: cushion.distance, point: cushion.point, pocket: cushion.pocket, blocker: null };
}

/**
 * Deflection of a rolling (naturally following) cue ball from the aim line after a
 * frictionless hit at `cutAngle` (radians): about 33.7° at a half-ball hit. Used to
 * hint where a follow shot goes; a stun shot leaves along the tangent (90° − cut).
 * @param {number} cutAngle
 * @returns {number}
 */
export function rollingDeflection(cutAngle) {
  const s = Math.sin(cutAngle);
  const c = Math.cos(cutAngle);
  return Math.atan2((5 / 7) * s * c, s * s + (2 / 7) * c * c);
}

/** A placed cue ball this close to an object ball touches it (m), as the server counts. */
export const TOUCH_SLACK = 1e-6;

/**
 * @typedef {object} PlacementCheck
 * @property {boolean} ok
 * @property {"outside" | "kitchen" | "overlap" | null} problem
 * @property {number | null} ball the overlapped ball, for "overlap"
 * @property {string} message plain words for the player (English)
 * @property {string} key the catalogue key of those words (`ball` fills `{ball}`)
 */

/**
 * Whether the cue ball may be placed at `pos` (R10): on the bed, not touching or
 * overlapping an object ball, and behind the head string when `kitchenOnly` (the
 * break, R2). The server decides; this is the check shown before anything is sent.
 * @param {Vec} pos @param {Iterable<BallPos>} balls @param {boolean} kitchenOnly
 * @param {TableGeometry} [table]
 * @returns {PlacementCheck}
 */
export function checkPlacement(pos, balls, kitchenOnly, table = TABLE) {
  const r = table.ballRadius;
  const [x, y] = pos;
  if (!Number.isFinite(x) || !Number.isFinite(y) || x < r || x > table.length - r || y < r || y > table.width - r) {
    return { ok: false, problem: "outside", ball: null, message: "The cue ball must be on the table.", key: "place.outside" };
  }
  for (const p of table.pockets) {
    if (Math.hypot(x - p.hole[0], y - p.hole[1]) < p.holeRadius + r) {
      return { ok: false, problem: "outside", ball: null, message: "The cue ball would hang over a pocket.", key: "place.pocket" };
    }
  }
  if (kitchenOnly && x > table.headStringX) {
    return {
      ok: false,
      problem: "kitchen",
      ball: null,
      message: "On the break the cue ball goes behind the head string (R2).",
      key: "place.kitchen",
    };
  }
  for (const b of balls) {
    if (b.n === 0) continue;
    // Touching counts, as on the server (within a micrometre).
    if (Math.hypot(b.x - x, b.y - y) < 2 * r + TOUCH_SLACK) {
      return {
        ok: false,
        problem: "overlap",
        ball: b.n,
        message: `The cue ball would touch the ${b.n}-ball (R10).`,
        key: "place.overlap",
      };
    }
  }
  return { ok: true, problem: null, ball: null, message: "", key: "" };
}

/**
 * Keeps a dragged cue ball on the bed (and in the kitchen when required) so the
 * preview follows the pointer without leaving the cloth.
 * @param {Vec} pos @param {boolean} kitchenOnly @param {TableGeometry} [table]
 * @returns {Vec}
 */
export function clampToBed(pos, kitchenOnly, table = TABLE) {
  const r = table.ballRadius;
  const maxX = kitchenOnly ? table.headStringX : table.length - r;
  return [Math.min(maxX, Math.max(r, pos[0])), Math.min(table.width - r, Math.max(r, pos[1]))];
}

/**
 * The lowest-numbered object ball still on the table (R1), or null when none is.
 * @param {Iterable<BallPos>} balls
 * @returns {number | null}
 */
export function lowestBall(balls) {
  let low = null;
  for (const b of balls) if (b.n > 0 && (low === null || b.n < low)) low = b.n;
  return low;
}

/**
 * Whether a cue-tip offset is past the miscue limit (|tip| > 0.5 ball radii).
 * @param {number} side @param {number} height @param {number} [limit]
 */
export function isMiscueZone(side, height, limit = 0.5) {
  return Math.hypot(side, height) > limit;
}
