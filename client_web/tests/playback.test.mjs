import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { DROP_TIME, ShotPlayback, normaliseTracks, restingBalls, sampleTracks, segmentAt, tracksDuration } from "../playback.mjs";

const vectors = JSON.parse(readFileSync(new URL("../../protocol/vectors/trajectory.json", import.meta.url), "utf8"));

test("playback samples the decoded vectors where the Python reader puts every ball", () => {
  let checked = 0;
  for (const c of vectors.cases) {
    const tracks = normaliseTracks(c.decoded);
    for (const s of c.samples) {
      const frame = sampleTracks(tracks, s.t).find((b) => b.n === s.ball);
      if (s.position === null) {
        // Gone from the cloth: either not drawn, or still dropping into the hole.
        if (frame) assert.ok((frame.alpha ?? 1) < 1, `${c.name}: ball ${s.ball} at ${s.t} should be dropping`);
        continue;
      }
      assert.ok(frame, `${c.name}: ball ${s.ball} missing at t=${s.t}`);
      assert.equal(frame.x, s.position[0], `${c.name} x at ${s.t}`);
      assert.equal(frame.y, s.position[1], `${c.name} y at ${s.t}`);
      // The spin drawn is the decoded spin at that moment.
      assert.equal(frame.wx, s.state[4]);
      assert.equal(frame.wy, s.state[5]);
      assert.equal(frame.wz, s.state[6]);
      checked++;
    }
  }
  assert.ok(checked > 10, `only ${checked} samples checked`);
});

test("the duration is when the last ball starts its last segment", () => {
  for (const c of vectors.cases) {
    assert.equal(tracksDuration(normaliseTracks(c.decoded)), c.duration, c.name);
  }
});

const seg = (t0, x, y, vx, vy, ax, ay, state) => [t0, x, y, vx, vy, ax, ay, 0, 0, 0, 0, 0, 0, state];

test("the last frame is the server's final positions exactly, not the decoded ones", () => {
  const tracks = normaliseTracks({
    0: [seg(0, 0.5, 0.5, 1, 0, -0.5, 0, 3), seg(2, 1.5, 0.5, 0, 0, 0, 0, 0)],
    3: [seg(0, 1.0, 1.0, 0, 0, 0, 0, 0), seg(0.5, 1.0, 1.0, 0.4, 0.4, 0, 0, 3), seg(1.0, 1.2, 1.2, 0, 0, 0, 0, 4)],
  });
  const final = [[1.5000001, 0.4999999], null, null, null];
  const pb = new ShotPlayback(tracks, 2, final);
  assert.deepEqual(pb.frame(2), restingBalls(final));
  assert.deepEqual(pb.frame(99), restingBalls(final));
  assert.equal(pb.done(1.99), false);
  assert.equal(pb.done(2), true);
  // Mid-shot: the cue ball decelerating, the 3 rolling.
  const mid = pb.frame(0.75);
  const cue = mid.find((b) => b.n === 0);
  assert.ok(cue);
  assert.equal(cue.x, 0.5 + 0.75 - 0.25 * 0.75 * 0.75);
  const three = mid.find((b) => b.n === 3);
  assert.ok(three);
  assert.equal(three.x, 1.0 + 0.4 * 0.25);
});

test("a pocketed ball drops into the nearest hole, then is gone", () => {
  const tracks = normaliseTracks({ 5: [seg(0, 2.5, 1.24, 0, 0, 0, 0, 3), seg(1, 2.52, 1.25, 0, 0, 0, 0, 4)] });
  const dropping = sampleTracks(tracks, 1 + DROP_TIME / 2);
  assert.equal(dropping.length, 1);
  assert.ok(dropping[0].x > 2.52 && dropping[0].y > 1.25, "moves toward the foot corner hole");
  assert.ok((dropping[0].alpha ?? 1) < 1);
  assert.equal(sampleTracks(tracks, 1 + DROP_TIME + 1e-9).length, 0);
  // Off the table (state 5) vanishes at once.
  assert.equal(sampleTracks(normaliseTracks({ 2: [seg(0, 1, 1, 0, 0, 0, 0, 5)] }), 0).length, 0);
});

test("segmentAt finds the segment in force, the first one before the track starts", () => {
  const track = normaliseTracks({ 0: [seg(0.5, 0, 0, 0, 0, 0, 0, 0), seg(1, 0, 0, 0, 0, 0, 0, 2), seg(2, 0, 0, 0, 0, 0, 0, 0)] }).get(0);
  assert.ok(track);
  assert.equal(segmentAt(track, 0).t0, 0.5);
  assert.equal(segmentAt(track, 1).t0, 1);
  assert.equal(segmentAt(track, 1.999).t0, 1);
  assert.equal(segmentAt(track, 50).t0, 2);
});
