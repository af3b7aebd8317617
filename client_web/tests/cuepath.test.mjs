import assert from "node:assert/strict";
import { test } from "node:test";

import { firstBallContact } from "../aim.mjs";
import { PHYSICS, cueBallPath, effectiveHeight, pathToCushion, stateAtDistance } from "../cuepath.mjs";
import { TABLE } from "../table.mjs";

const R = TABLE.ballRadius;
const deg = (/** @type {number} */ r) => (r * 180) / Math.PI;
/** @param {number} a @param {number} b @param {number} tol */
const close = (a, b, tol) => assert.ok(Math.abs(a - b) <= tol, `${a} is not within ${tol} of ${b}`);
/** The angle between two unit vectors, degrees. @param {number[]} a @param {number[]} b */
const between = (a, b) => deg(Math.acos(Math.max(-1, Math.min(1, a[0] * b[0] + a[1] * b[1]))));

/** An object ball 0.5 m along +x from the cue ball, hit at `cut` degrees. @param {number} cut */
function contactAt(cut) {
  const cue = /** @type {[number, number]} */ ([0.9, 0.635]);
  const object = { n: 1, x: 1.4, y: 0.635 };
  const angle = Math.atan2(2 * R * Math.sin((cut * Math.PI) / 180), 0.5);
  const contact = firstBallContact(cue, angle, [object]);
  assert.ok(contact);
  return { contact, angle };
}

test("a ball struck centre slides, then rolls at 5/7 of its speed", () => {
  const start = stateAtDistance(2, 0, 0);
  assert.deepEqual(start, { v: 2, s: 0 });
  const far = stateAtDistance(2, 0, 2);
  assert.equal(far.v, far.s); // rolling by then
  assert.ok(far.v < (5 / 7) * 2);
  // Struck 0.4 radii high it rolls from the start: nothing to slide off.
  const natural = stateAtDistance(2, 0.4, 0.5);
  assert.equal(natural.v, natural.s);
  // Draw: backspin that wears off on the way.
  const draw = stateAtDistance(3, -0.5, 0.3);
  assert.ok(draw.s < 0 && draw.v > 2.7 && draw.v < 3);
});

test("stun: the cue ball leaves along the tangent line (nearly: e < 1 leaves a little forward)", () => {
  const { contact, angle } = contactAt(30);
  // Struck at centre on a cloth with next to no friction: it arrives without spin.
  const path = cueBallPath(contact, angle, 2, 0, 0, { ...PHYSICS, muSlide: 1e-6 });
  close(between(path.rollDir, contact.cueDir), 0, 3);
});

test("follow: a rolling ball at a half-ball hit turns about 33.7° from the aim line", () => {
  const { contact, angle } = contactAt(30);
  const path = cueBallPath(contact, angle, 2, 0.4, 0, { ...PHYSICS, eBall: 1 });
  close(between(path.rollDir, [Math.cos(angle), Math.sin(angle)]), 33.67, 0.3);
  assert.ok(path.points.length > 2, "it slides along a curve first");
});

test("draw on a full hit comes straight back; follow goes on through", () => {
  const { contact, angle } = contactAt(0);
  const aim = [Math.cos(angle), Math.sin(angle)];
  const draw = cueBallPath(contact, angle, 3, -0.5);
  close(between(draw.rollDir, aim), 180, 0.5);
  const follow = cueBallPath(contact, angle, 3, 0.5);
  close(between(follow.rollDir, aim), 0, 0.5);
  assert.ok(draw.rollDistance > 0.3 && follow.rollDistance > 0.3);
});

test("the drawn path stops at the first cushion and at the roll's cap", () => {
  const { contact, angle } = contactAt(45);
  const path = cueBallPath(contact, angle, 6, 0.3);
  const shown = pathToCushion(path);
  const last = shown[shown.length - 1];
  const onCushion = [last[0] - R, TABLE.length - R - last[0], last[1] - R, TABLE.width - R - last[1]];
  close(Math.min(...onCushion), 0, 1e-9);
  for (const [x, y] of shown) assert.ok(x >= R - 1e-9 && y >= R - 1e-9 && x <= TABLE.length - R + 1e-9 && y <= TABLE.width - R + 1e-9);
  const capped = pathToCushion(cueBallPath(contact, angle, 1, 0.3), 0.05);
  const tail = capped.slice(-2);
  close(Math.hypot(tail[1][0] - tail[0][0], tail[1][1] - tail[0][1]), 0.05, 1e-9);
});

test("a raised cue puts more spin on the same speed, within what the preview draws", () => {
  assert.equal(effectiveHeight(-0.4), -0.4);
  close(effectiveHeight(-0.4, 60), -0.8, 1e-12);
  assert.equal(effectiveHeight(-0.8, 80), -1);
  assert.equal(effectiveHeight(0.5, Number.NaN), 0.5);
  const { contact, angle } = contactAt(30);
  const level = cueBallPath(contact, angle, 2, -0.4);
  const raised = cueBallPath(contact, angle, 2, -0.4, 50);
  const aim = [Math.cos(angle), Math.sin(angle)];
  assert.ok(between(raised.rollDir, aim) > between(level.rollDir, aim), "more draw: it comes back further");
  // Far too slow for the spin to matter: it never reaches the ball, nothing is drawn.
  const none = cueBallPath({ ...contact, distance: 50 }, angle, 0.3, 0);
  assert.deepEqual(none.points, []);
});
