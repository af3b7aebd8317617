import assert from "node:assert/strict";
import { test } from "node:test";

import {
  aimPreview,
  angleTo,
  checkPlacement,
  clampToBed,
  clearLineTo,
  cushionContact,
  firstBallContact,
  isMiscueZone,
  lowestBall,
  objectRun,
  pocketEntered,
  rayCircle,
  rollingDeflection,
} from "../aim.mjs";
import { BALL_RADIUS as R, TABLE } from "../table.mjs";

const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} ≉ ${b}`);
const deg = (rad) => (rad * 180) / Math.PI;

test("rayCircle: straight on, grazing, missing, behind, starting inside", () => {
  close(rayCircle([0, 0], [1, 0], [1, 0], 0.1), 0.9);
  close(rayCircle([0, 0], [1, 0], [1, 0.1], 0.1), 1); // tangent
  assert.equal(rayCircle([0, 0], [1, 0], [1, 0.2], 0.1), null);
  assert.equal(rayCircle([0, 0], [1, 0], [-1, 0], 0.1), null);
  assert.equal(rayCircle([0, 0], [1, 0], [0.05, 0], 0.1), null);
});

test("full-ball hit: ghost ball one diameter short, object ball straight on", () => {
  const hit = firstBallContact([0.5, 0.635], 0, [{ n: 1, x: 1.5, y: 0.635 }]);
  assert.ok(hit);
  assert.equal(hit.ball, 1);
  close(hit.ghost[0], 1.5 - 2 * R);
  close(hit.ghost[1], 0.635);
  close(hit.objectDir[0], 1);
  close(hit.objectDir[1], 0);
  close(hit.cutAngle, 0);
  assert.deepEqual(hit.cueDir, [0, 0]);
  close(hit.distance, 1 - 2 * R);
});

test("half-ball hit: 30° cut, stun cue ball leaves at 90° to the object ball", () => {
  // Aim through the object ball's edge: the line passes R from its centre.
  const obj = { n: 3, x: 1.5, y: 0.635 + R };
  const hit = firstBallContact([0.5, 0.635], 0, [obj]);
  assert.ok(hit);
  close(deg(hit.cutAngle), 30, 1e-7);
  // Ghost ball touches the object ball.
  close(Math.hypot(obj.x - hit.ghost[0], obj.y - hit.ghost[1]), 2 * R, 1e-12);
  // Object ball goes up-right at 30°, cue ball down-right, perpendicular.
  close(deg(Math.atan2(hit.objectDir[1], hit.objectDir[0])), 30, 1e-7);
  close(hit.objectDir[0] * hit.cueDir[0] + hit.objectDir[1] * hit.cueDir[1], 0, 1e-12);
  assert.ok(hit.cueDir[1] < 0);
});

test("the nearest ball along the line is the one met first; balls off the line are ignored", () => {
  const balls = [
    { n: 9, x: 2.0, y: 0.635 },
    { n: 4, x: 1.2, y: 0.64 },
    { n: 2, x: 1.0, y: 0.9 },
    { n: 0, x: 0.9, y: 0.635 }, // the cue ball itself never blocks
  ];
  const hit = firstBallContact([0.5, 0.635], 0, balls);
  assert.ok(hit);
  assert.equal(hit.ball, 4);
});

test("a ball behind the cue ball is not hit; empty table gives null", () => {
  assert.equal(firstBallContact([1.0, 0.6], 0, [{ n: 1, x: 0.5, y: 0.6 }]), null);
  assert.equal(firstBallContact([1.0, 0.6], 0, []), null);
});

test("cushion contact: the centre stops one radius from the nose, mirror rebound", () => {
  const c = cushionContact([1.27, 0.635], 0);
  assert.equal(c.rail, "foot");
  close(c.point[0], TABLE.length - R);
  close(c.point[1], 0.635);
  close(c.reflected[0], -1);
  const up = cushionContact([1.0, 0.635], Math.PI / 2);
  assert.equal(up.rail, "far");
  close(up.point[1], TABLE.width - R);
  // 45° toward the near side rail from the middle of the table.
  const diag = cushionContact([1.0, 0.5], -Math.PI / 4);
  assert.equal(diag.rail, "near");
  close(diag.point[0], 1.0 + (0.5 - R));
  close(diag.reflected[1], Math.SQRT1_2, 1e-12);
});

test("cushion contact reports the pocket the line runs into", () => {
  // From the table centre straight at the foot-right corner.
  const ang = angleTo([1.27, 0.635], [TABLE.length, TABLE.width]);
  assert.equal(cushionContact([1.27, 0.635], ang).pocket, "F1");
  // Straight across the middle into the side pocket.
  assert.equal(cushionContact([1.27, 0.635], -Math.PI / 2).pocket, "S0");
  // A rail well away from any pocket.
  assert.equal(cushionContact([0.8, 0.635], Math.PI / 2).pocket, null);
  assert.equal(pocketEntered([0.3, 0.5], [0, -1], [0.3, R]), null);
});

test("a line is into a pocket only when it passes both jaw points without touching them", () => {
  // Straight in along the foot-right corner's axis (45°), then slid sideways: clean up to
  // about 2.7 cm from the axis (the jaw points less the ball), and not once the ball
  // would touch a jaw point, though its centre is still in the mouth.
  const from = [TABLE.length - 0.5, TABLE.width - 0.5];
  const ang = Math.PI / 4;
  const across = [-Math.sin(ang), Math.cos(ang)];
  const slid = (d) => cushionContact([from[0] + across[0] * d, from[1] + across[1] * d], ang).pocket;
  assert.equal(slid(0), "F1");
  assert.equal(slid(0.025), "F1");
  assert.equal(slid(-0.025), "F1");
  assert.equal(slid(0.035), null);
  assert.equal(slid(-0.035), null);
  // The old test — the centre meeting the cushion line within a ball's width of the
  // mouth along the rail — called this one in: it strikes the jaw point.
  assert.equal(slid(0.05), null);
  // A side pocket straight on: the mouth is wider than a corner's.
  const side = (d) => cushionContact([1.27 + d, 0.635], -Math.PI / 2).pocket;
  assert.equal(side(0), "S0");
  assert.equal(side(0.03), "S0");
  assert.equal(side(0.04), null);
});

test("aim preview picks whichever comes first, ball or cushion", () => {
  const balls = [{ n: 1, x: 1.905, y: 0.635 }];
  assert.equal(aimPreview([0.635, 0.635], 0, balls).kind, "ball");
  assert.equal(aimPreview([0.635, 0.635], Math.PI, balls).kind, "cushion");
  assert.equal(aimPreview([0.635, 0.635], Math.PI / 2, balls).kind, "cushion");
});

test("the object ball's run ends at a ball in its way: no pot is promised through it", () => {
  // The cue ball, the 1 and the foot-right corner on one line, straight in.
  const cue = /** @type {[number, number]} */ ([1.27, 0.635]);
  const corner = [TABLE.length, TABLE.width];
  const ang = angleTo(cue, corner);
  const along = (d) => ({ x: cue[0] + Math.cos(ang) * d, y: cue[1] + Math.sin(ang) * d });
  const one = { n: 1, ...along(0.3) };
  const clear = aimPreview(cue, ang, [one]);
  assert.equal(clear.kind, "ball");
  assert.equal(clear.run?.pocket, "F1");
  assert.equal(clear.run?.blocker, null);
  // The 9 half a metre past the 1, on its line: the 1 meets it, and runs into no pocket.
  const nine = { n: 9, ...along(0.8) };
  const blocked = aimPreview(cue, ang, [one, nine]);
  assert.equal(blocked.kind, "ball");
  assert.equal(blocked.run?.pocket, null);
  assert.equal(blocked.run?.blocker, 9);
  close(blocked.run?.distance ?? 0, 0.5 - 2 * R, 1e-9);
  // Off its line by more than a diameter, the 9 is not in the way.
  const aside = { n: 9, x: nine.x - 3 * R * Math.sin(ang), y: nine.y + 3 * R * Math.cos(ang) };
  assert.equal(aimPreview(cue, ang, [one, aside]).run?.pocket, "F1");
  // Frozen to the 1 on its line (touching, or a rounding closer), the 9 is in its way at once.
  for (const gap of [0, -1e-12, 1e-9]) {
    const frozen = { n: 9, ...along(0.3 + 2 * R + gap) };
    const run = aimPreview(cue, ang, [one, frozen]).run;
    assert.deepEqual([run?.pocket, run?.blocker, run?.distance], [null, 9, 0], String(gap));
  }
  // Frozen to the 1 behind it, it is not.
  const back = ang + (3 * Math.PI) / 4; // touching it, 45° behind its square
  const behind = { n: 9, x: one.x + Math.cos(back) * 2 * R, y: one.y + Math.sin(back) * 2 * R };
  assert.equal(objectRun({ ...clear, kind: "ball", ghost: [one.x - Math.cos(ang) * 2 * R, one.y - Math.sin(ang) * 2 * R], objectDir: [Math.cos(ang), Math.sin(ang)], ball: 1, distance: 0, cueDir: [0, 0], cutAngle: 0 }, [one, behind]).pocket, "F1");
  // Nor is the cue ball, which has left its spot for the contact.
  const contact = /** @type {import("../aim.mjs").BallContact} */ (clear);
  assert.equal(objectRun(contact, [one, { n: 0, ...along(0.6) }]).pocket, "F1");
});

test("a new turn's line to the ball to hit goes past a ball in the way, as full as it can", () => {
  const cue = /** @type {[number, number]} */ ([0.5, 0.635]);
  const three = { n: 3, x: 1.5, y: 0.635 };
  // Nothing in the way: straight at it.
  close(clearLineTo(cue, three, [three]), 0);
  // The 7 just short of the 3, a little off the line: the line turns just past the 7,
  // and meets the 3 first.
  const seven = { n: 7, x: 1.3, y: 0.665 };
  const a = clearLineTo(cue, three, [three, seven]);
  assert.notEqual(a, 0);
  assert.equal(firstBallContact(cue, a, [three, seven])?.ball, 3);
  // As full as it can be: a little less and the 7 is met first.
  assert.equal(firstBallContact(cue, a * 0.9, [three, seven])?.ball, 7);
  // Walled in (the 5 the 7's mirror across the line): straight at it all the same.
  const wall = [three, seven, { n: 5, x: 1.3, y: 0.605 }];
  close(clearLineTo(cue, three, wall), 0);
});

test("rolling cue ball deflects 33.7° at a half-ball hit, 0° full, 90°-limit thin", () => {
  close(deg(rollingDeflection(Math.PI / 6)), 33.67, 0.01);
  close(rollingDeflection(0), 0);
  assert.ok(deg(rollingDeflection(1.5)) < 10);
});

test("R10 placement: on the bed, not touching a ball; R2 kitchen on the break", () => {
  const balls = [{ n: 1, x: 1.905, y: 0.635 }];
  assert.equal(checkPlacement([0.5, 0.6], balls, true).ok, true);
  const kitchen = checkPlacement([1.0, 0.6], balls, true);
  assert.equal(kitchen.problem, "kitchen");
  assert.equal(checkPlacement([1.0, 0.6], balls, false).ok, true);
  const overlap = checkPlacement([1.905 + 2 * R - 1e-4, 0.635], balls, false);
  assert.equal(overlap.problem, "overlap");
  assert.equal(overlap.ball, 1);
  assert.match(overlap.message, /1-ball/);
  assert.equal(checkPlacement([1.905 + 2 * R + 1e-4, 0.635], balls, false).ok, true);
  assert.equal(checkPlacement([R / 2, 0.6], balls, false).problem, "outside");
  // Frozen to the ball counts as touching; a hair away does not.
  assert.equal(checkPlacement([1.905 - 2 * R, 0.635], balls, false).problem, "overlap");
  assert.equal(checkPlacement([1.905 - 2 * R - 2e-6, 0.635], balls, false).ok, true);
  // In the corner the ball would hang over the pocket hole; along a rail it is fine.
  const corner = checkPlacement([R, R], balls, false);
  assert.equal(corner.problem, "outside");
  assert.match(corner.message, /pocket/);
  assert.equal(checkPlacement([0.4, R], balls, false).ok, true);
  assert.equal(checkPlacement([Number.NaN, 0.6], balls, false).problem, "outside");
});

test("clampToBed keeps the dragged ball on the cloth and in the kitchen", () => {
  assert.deepEqual(clampToBed([-1, 5], false), [R, TABLE.width - R]);
  assert.deepEqual(clampToBed([2, 0.5], true), [TABLE.headStringX, 0.5]);
});

test("R1 lowest ball and the miscue zone", () => {
  assert.equal(lowestBall([{ n: 0, x: 0, y: 0 }, { n: 7, x: 0, y: 0 }, { n: 3, x: 0, y: 0 }]), 3);
  assert.equal(lowestBall([{ n: 0, x: 0, y: 0 }]), null);
  assert.equal(isMiscueZone(0.4, 0.35), true);
  assert.equal(isMiscueZone(0.3, 0.39), false);
  assert.equal(isMiscueZone(0, -0.5), false);
});

test("angles and coordinates as the protocol is sent them", async () => {
  const { toDegrees, round6 } = await import("../aim.mjs");
  assert.equal(toDegrees(Math.PI / 2), 90);
  assert.equal(toDegrees(-Math.PI / 2), -90);
  assert.equal(toDegrees(2.5 * Math.PI), 90); // into [−180, 180)
  assert.equal(Math.abs(toDegrees(Math.PI)), 180);
  assert.equal(toDegrees(0.1234567), 7.0735); // 7.07352… degrees
  assert.equal(round6(0.12345678), 0.123457);
  assert.equal(round6(-1.0000004), -1);
});
