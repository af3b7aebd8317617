// The ball-in-hand handle's place beside the cue ball (input.mjs `handleSpot`): square to
// the aim, toward the bottom of the screen, never off the canvas nor over a ball.
import assert from "node:assert/strict";
import { test } from "node:test";

import { handleRadius, handleSpot } from "../input.mjs";
import { BALL_RADIUS } from "../table.mjs";

/** A landscape view of the table: 400 px a metre, the table's centre at (500, 300). */
const view = /** @type {any} */ ({
  scale: 400,
  cssWidth: 1000,
  cssHeight: 600,
  toScreen: (/** @type {number} */ x, /** @type {number} */ y) => [500 + x * 400, 300 - y * 400],
});
const cue = /** @type {[number, number]} */ ([0, 0]);
const world = (/** @type {number[]} */ [sx, sy]) => ({ x: (sx - 500) / 400, y: (300 - sy) / 400 });
const clearOf = (/** @type {number[]} */ spot, /** @type {{x: number, y: number}} */ ball, /** @type {boolean} */ touch) => {
  const [bx, by] = view.toScreen(ball.x, ball.y);
  return Math.hypot(bx - spot[0], by - spot[1]) > handleRadius(touch) + BALL_RADIUS * view.scale;
};

for (const touch of [false, true]) {
  test(`${touch ? "finger" : "mouse"}: square to the aim, toward the bottom of the screen`, () => {
    const [x, y] = handleSpot(view, cue, touch, 0, []);
    assert.equal(Math.round(x), 500);
    assert.ok(y > 300, `below the cue ball: ${y}`);
  });

  test(`${touch ? "finger" : "mouse"}: a ball where the handle would go sends it to the other side`, () => {
    const first = handleSpot(view, cue, touch, 0, []);
    const ball = world(first);
    const spot = handleSpot(view, cue, touch, 0, [ball]);
    assert.ok(clearOf(spot, ball, touch), `handle ${spot} over the ball at ${view.toScreen(ball.x, ball.y)}`);
    assert.ok(spot[1] < 300, `above the cue ball now: ${spot}`);
  });

  test(`${touch ? "finger" : "mouse"}: balls on both sides: a diagonal behind the cue ball`, () => {
    const below = world(handleSpot(view, cue, touch, 0, []));
    const above = { x: below.x, y: -below.y };
    const spot = handleSpot(view, cue, touch, 0, [below, above]);
    assert.ok(clearOf(spot, below, touch) && clearOf(spot, above, touch), `${spot}`);
    assert.ok(spot[0] < 500, `behind the cue ball (the aim points right): ${spot}`);
  });
}

for (const touch of [false, true]) {
  test(`${touch ? "finger" : "mouse"}: the whole handle stays on the canvas by every edge`, () => {
    // A handle half off the canvas is half cut off (at a phone's right edge, by the power
    // strip beside it) and half out of a finger's reach.
    const r = handleRadius(touch);
    const edges = []; // the cue ball's centre 30 px or more inside (past the rail's wood)
    for (let k = 30; k <= 150; k += 3) edges.push([view.cssWidth - k, 300], [k, 300], [500, k], [500, view.cssHeight - k]);
    for (const [sx, sy] of edges) {
      for (let a = 0; a < 360; a += 15) {
        const at = /** @type {[number, number]} */ ([(sx - 500) / 400, (300 - sy) / 400]);
        const [x, y] = handleSpot(view, at, touch, (a * Math.PI) / 180, []);
        const within = x - r >= 0 && x + r <= view.cssWidth && y - r >= 0 && y + r <= view.cssHeight;
        assert.ok(within, `cue ball at ${sx},${sy}, aim ${a}°: handle at ${x.toFixed(1)},${y.toFixed(1)}`);
      }
    }
  });
}
