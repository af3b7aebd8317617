import assert from "node:assert/strict";
import { test } from "node:test";

import { loudness, shotSounds } from "../sound.mjs";

/** A segment with the fields the sounds read. */
const seg = (t0, x, y, vx, vy, state = 2) => ({ t0, x, y, vx, vy, ax: 0, ay: 0, wx: 0, wy: 0, wz: 0, dwx: 0, dwy: 0, dwz: 0, state });

test("the impacts of a shot: strike, ball on ball, cushion, pocket — in time order", () => {
  const R = 0.028575;
  // The cue ball at 2 m/s along x meets the 1 (at rest, two radii ahead of the contact) at 0.5 s.
  const contact = 0.5 + 2 * 0.5;
  const tracks = new Map([
    [0, [seg(0, 0.5, 0.6, 2, 0), seg(0.5, 1.5, 0.6, 0, 0, 0)]],
    [
      1,
      [
        seg(0, 1.5 + 2 * R, 0.6, 0, 0, 0),
        seg(0.5, 1.5 + 2 * R, 0.6, 2, 0),
        // At the foot cushion (x = 2.54 − R), back the other way.
        seg(0.98, 2.54 - R, 0.6, -1.6, 0),
        seg(1.2, 2.2, 0.6, -1.0, 0, 4),
      ],
    ],
  ]);
  void contact;
  const sounds = shotSounds(tracks);
  assert.deepEqual(
    sounds.map((s) => s.kind),
    ["cue", "ball", "cushion", "pocket"],
  );
  assert.ok(sounds[1].speed > 1.9);
  assert.ok(sounds.every((s, i) => i === 0 || s.t >= sounds[i - 1].t));
});

test("loudness grows with the impact and stays within 0…1", () => {
  assert.ok(loudness(0.2) < loudness(2));
  assert.ok(loudness(2) < loudness(8));
  assert.equal(loudness(50), 1);
  assert.ok(loudness(0) > 0);
});
