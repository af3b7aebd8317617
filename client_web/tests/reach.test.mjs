import assert from "node:assert/strict";
import { test } from "node:test";

import { MAX_SPEED } from "../controls.mjs";
import { REACH, describeReach, tableLengths } from "../reach.mjs";

test("the reach table covers every legal speed and only grows", () => {
  assert.ok(REACH[0][0] <= 0.2, "the slowest shot the slider gives");
  assert.equal(REACH[REACH.length - 1][0], MAX_SPEED);
  for (let i = 1; i < REACH.length; i++) {
    assert.ok(REACH[i][0] > REACH[i - 1][0], `speeds ascend at ${i}`);
    assert.ok(REACH[i][1] >= REACH[i - 1][1], `a harder shot never carries less (at ${REACH[i][0]} m/s)`);
  }
});

test("lengths between the tabulated speeds are interpolated, and never beyond the table", () => {
  assert.equal(tableLengths(0), 0);
  assert.equal(tableLengths(-1), 0);
  assert.equal(tableLengths(Number.NaN), 0);
  const [at2, at21] = [REACH.find(([s]) => s === 2), REACH.find(([s]) => s === 2.1)];
  assert.ok(at2 && at21);
  assert.equal(tableLengths(2), at2[1]);
  assert.ok(Math.abs(tableLengths(2.05) - (at2[1] + at21[1]) / 2) < 1e-9);
  assert.ok(tableLengths(0.1) > 0 && tableLengths(0.1) < tableLengths(0.2));
  assert.equal(tableLengths(50), REACH[REACH.length - 1][1]);
});

test("reach in the words players use", () => {
  assert.equal(describeReach(0.2), "under ¼ of a table length");
  assert.equal(describeReach(0.5), "≈ ¼ of a table length");
  assert.equal(describeReach(0.7), "≈ ½ of a table length");
  assert.equal(describeReach(0.85), "≈ ¾ of a table length");
  assert.equal(describeReach(1.0), "≈ 1 table length");
  assert.equal(describeReach(1.7), "≈ 2 table lengths"); // a lag: up and back
  assert.equal(describeReach(1.5), "≈ 1½ table lengths");
  assert.equal(describeReach(12), "≈ 5 table lengths"); // a break: cushions take most of it
  // Where space is tight (beside the power slider).
  assert.equal(describeReach(1.5, { short: true }), "≈ 1½ lengths");
  assert.equal(describeReach(0.7, { short: true }), "≈ ½ length");
  assert.equal(describeReach(1.0, { short: true }), "≈ 1 length");
});

test("a half length takes the noun's form after a half: 'duljine', 'длины'", async () => {
  const { setLanguage } = await import("../i18n/index.mjs");
  try {
    setLanguage("hr", false);
    assert.equal(describeReach(1.5), "≈ 1½ duljine stola");
    assert.equal(describeReach(1.0), "≈ 1 duljina stola");
    assert.equal(describeReach(12), "≈ 5 duljina stola");
    assert.equal(describeReach(1.5, { short: true }), "≈ 1½ duljine");
    setLanguage("ru", false);
    assert.equal(describeReach(1.5), "≈ 1½ длины стола");
    assert.equal(describeReach(12), "≈ 5 длин стола");
  } finally {
    setLanguage("en", false);
  }
});
