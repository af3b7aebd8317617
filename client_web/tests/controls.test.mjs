import assert from "node:assert/strict";
import { test } from "node:test";

import { MAX_SPEED, describeTip, powerFromSpeed, speedFromPower } from "../controls.mjs";

test("O2 power curve: the full slider is the fastest legal speed, never zero", () => {
  assert.equal(speedFromPower(1), MAX_SPEED);
  assert.ok(speedFromPower(0) > 0, "the server refuses a speed of 0");
  assert.equal(speedFromPower(2), MAX_SPEED, "clamped");
  // A pro break (≈ 10.7 m/s) sits high on the slider, soft shots get most of it.
  assert.ok(powerFromSpeed(10.7) > 0.9);
  assert.ok(speedFromPower(0.5) < 3.5);
  for (const p of [0.1, 0.33, 0.5, 0.8]) assert.ok(Math.abs(powerFromSpeed(speedFromPower(p)) - p) < 0.01);
});

test("tip offsets in words, with the miscue zone past half a radius", () => {
  assert.equal(describeTip(0, 0), "centre ball");
  assert.equal(describeTip(0, 0.3), "follow 0.30");
  assert.equal(describeTip(-0.2, -0.1), "draw 0.10, left 0.20");
  assert.equal(describeTip(0.45, 0.3), "follow 0.30, right 0.45 — miscue risk");
});
