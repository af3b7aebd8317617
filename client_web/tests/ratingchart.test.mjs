// The profile's rating chart as values: its scale in whole tens around the ratings, a
// point per rated game across the drawing, the days at either end.

import assert from "node:assert/strict";
import { test } from "node:test";

import { chartModel } from "../ratingchart.mjs";

test("the scale is whole tens around the ratings, and each game a point from left to right", () => {
  const m = chartModel([
    { at: 1, rating: 478.2 },
    { at: 2, rating: 503.9 },
    { at: 3, rating: 457.4 },
  ]);
  assert.deepEqual([m.bottom, m.top, m.first, m.last, m.now], [450, 510, 1, 3, 457.4]);
  const xs = m.points.map(([x]) => x);
  assert.ok(xs[0] < xs[1] && xs[1] < xs[2]);
  // Higher ratings higher up (smaller y); the extremes inside the drawing.
  const ys = m.points.map(([, y]) => y);
  assert.ok(ys[1] < ys[0] && ys[0] < ys[2]);
  for (const y of ys) assert.ok(y >= 0 && y <= 60);
});

test("a flat history still has a scale ten points tall", () => {
  const m = chartModel([
    { at: 1, rating: 500 },
    { at: 2, rating: 500 },
  ]);
  assert.deepEqual([m.bottom, m.top], [500, 510]);
  assert.equal(m.points[0][1], m.points[1][1]);
});
