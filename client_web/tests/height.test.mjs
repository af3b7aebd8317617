// Balls off the cloth (trajectory format version 2): the playback frames carry the height
// the Python reader gives, and the renderer draws it as size and shadow.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { normaliseTracks, sampleTracks } from "../playback.mjs";
import { heightLook } from "../render.mjs";
import { AIRBORNE } from "../trajectory.mjs";

const vectors = JSON.parse(readFileSync(new URL("../../protocol/vectors/trajectory.json", import.meta.url), "utf8"));

test("a ball in flight is sampled at the height the Python reader gives it", () => {
  let flying = 0;
  for (const c of vectors.cases) {
    const tracks = normaliseTracks(c.decoded);
    for (const s of c.samples) {
      if (s.state[7] !== AIRBORNE) continue;
      const frame = sampleTracks(tracks, s.t).find((b) => b.n === s.ball);
      assert.ok(frame, `${c.name}: ball ${s.ball} at ${s.t}`);
      assert.equal(frame.z, s.state[8], `${c.name}: ball ${s.ball} z at ${s.t}`);
      flying++;
    }
  }
  assert.ok(flying >= 10, `only ${flying} samples in flight`);
});

test("a ball on the cloth has no height in its frame", () => {
  const c = vectors.cases.find((/** @type {any} */ c) => c.name.startsWith("stroke"));
  for (const b of sampleTracks(normaliseTracks(c.decoded), 0.1)) assert.equal(b.z, undefined);
});

test("higher balls are drawn larger with a fainter shadow further away; below the cloth, none", () => {
  assert.deepEqual(heightLook(0), { scale: 1, shadowShift: 1, shadowAlpha: 1 });
  const low = heightLook(0.02);
  const high = heightLook(0.2);
  assert.ok(1 < low.scale && low.scale < high.scale);
  assert.ok(1 < low.shadowShift && low.shadowShift < high.shadowShift);
  assert.ok(high.shadowAlpha < low.shadowAlpha && low.shadowAlpha < 1);
  const falling = heightLook(-0.014);
  assert.ok(falling.scale < 1);
  assert.equal(falling.shadowAlpha, 0);
});
