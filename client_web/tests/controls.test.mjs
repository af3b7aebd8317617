import assert from "node:assert/strict";
import { test } from "node:test";

import { MAX_ELEVATION, MAX_SPEED, describeTip, describeTipWords, maxSpeedAt, powerFromSpeed, speedFromPower } from "../controls.mjs";

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
  // Off the centre, but by less than 0.02 each way: the centre, never an empty phrase.
  assert.equal(describeTip(0.015, -0.015), "centre ball");
  assert.equal(describeTip(0.015, 0.05), "follow 0.05");
  assert.equal(describeTip(-0.2, -0.1), "draw 0.10, left 0.20");
  assert.equal(describeTip(0.45, 0.3), "follow 0.30, right 0.45 — miscue risk");
});

test("a watcher reads the tip in words alone, a small offset as the centre", async () => {
  const { setLanguage } = await import("../i18n/index.mjs");
  assert.equal(describeTipWords(0.02, 0.04), "centre ball");
  assert.equal(describeTipWords(0, -0.29), "draw");
  assert.equal(describeTipWords(-0.2, 0.3), "follow, left english");
  assert.equal(describeTipWords(0.45, 0.3), "follow, right english — miscue risk");
  assert.equal(describeTipWords(0.12, 0.12), "follow, right english"); // (off the centre as drawn)
  try {
    setLanguage("ru", false);
    assert.equal(describeTipWords(0.2, -0.2), "оттяжка, правый винт");
    setLanguage("hr", false);
    assert.equal(describeTipWords(-0.2, 0), "lijevi efekt");
  } finally {
    setLanguage("en", false);
  }
});

/** The server's cross-field rule (O2, physics "Ranges"): speed ≤ 13·cos(elevation). */
const serverLimit = (/** @type {number} */ e) => Math.min(12, 13 * Math.cos((e * Math.PI) / 180));

test("O2 elevated cue: the power slider spans only the speeds the cue can give", () => {
  // The documented limits: 12 m/s up to 22.6°, 6.5 at 60°, 2.26 at 80°, rounded down.
  assert.equal(maxSpeedAt(0), 12);
  assert.equal(maxSpeedAt(22), 12);
  assert.equal(maxSpeedAt(30), 11.25);
  assert.equal(maxSpeedAt(60), 6.49);
  assert.equal(maxSpeedAt(80), 2.25);
  assert.equal(speedFromPower(1, 60), 6.49, "full power is the most the cue gives there");
  assert.equal(speedFromPower(1, 80), 2.25);
  assert.ok(maxSpeedAt(MAX_ELEVATION) > speedFromPower(0, MAX_ELEVATION), "a range is left at the steepest cue");
});

test("O2 elevated cue: no power at any elevation gives a speed the server refuses", () => {
  for (let e = 0; e <= MAX_ELEVATION; e += 0.5) {
    const limit = serverLimit(e);
    for (let i = 0; i <= 100; i++) {
      const speed = speedFromPower(i / 100, e);
      assert.ok(speed > 0 && speed <= limit, `power ${i} % at ${e}°: ${speed} m/s, limit ${limit}`);
    }
    // Out-of-range power and elevation are clamped into the legal range, never past it.
    assert.ok(speedFromPower(5, e) <= limit);
  }
  assert.ok(speedFromPower(1, 200) <= serverLimit(MAX_ELEVATION));
  assert.ok(speedFromPower(1, -10) <= 12);
});

test("O2 elevated cue: raising the cue lowers the speed of the same power", () => {
  for (const p of [0.3, 0.6, 1]) {
    let previous = Infinity;
    for (const e of [0, 30, 45, 60, 75, 85]) {
      const speed = speedFromPower(p, e);
      assert.ok(speed <= previous, `power ${p} at ${e}°`);
      previous = speed;
    }
    assert.ok(speedFromPower(p, 60) < speedFromPower(p, 0), "visibly lower at 60°");
  }
  for (const e of [0, 45, 80]) {
    for (const p of [0.1, 0.5, 0.9]) assert.ok(Math.abs(powerFromSpeed(speedFromPower(p, e), e) - p) < 0.02, `${p} at ${e}°`);
  }
  // A remote player's 6 m/s at 60° is near the top of that range, not half way as if level.
  assert.ok(powerFromSpeed(6, 60) > 0.9 && powerFromSpeed(6, 0) < 0.75);
});
