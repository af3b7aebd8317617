// The JavaScript trajectory decoder against the shared vectors: the same segments, the
// same positions and states at the same times as the Python decoder, and the same refusals.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { AIRBORNE, FORMAT_VERSION, TICK, TrajectoryError, VERSIONS, decodeTracks, duration, positionAt, stateAt } from "../trajectory.mjs";

const vectors = JSON.parse(readFileSync(new URL("../../protocol/vectors/trajectory.json", import.meta.url), "utf8"));

const FIELDS = ["t0", "x", "y", "vx", "vy", "ax", "ay", "wx", "wy", "wz", "dwx", "dwy", "dwz", "state", "z", "vz", "az"];

/** @param {string} hex */
const fromHex = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));

/**
 * Both decoders do the same double operations in the same order, so the numbers are
 * expected to be identical; the tolerance (far inside the 1e-6 m asked for) only keeps
 * the test honest about what is promised.
 * @param {number} got @param {number} want @param {string} what
 */
function same(got, want, what) {
  assert.ok(Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want)), `${what}: ${got} != ${want}`);
}

let largestDifference = 0;

test("the vectors are for this decoder's version, and old versions are among them", () => {
  assert.equal(vectors.version, FORMAT_VERSION);
  assert.ok(vectors.cases.length >= 5);
  const versions = new Set(vectors.cases.map((/** @type {any} */ c) => c.version));
  assert.deepEqual([...versions].sort(), VERSIONS);
  const flying = vectors.cases.filter((/** @type {any} */ c) => Object.values(c.decoded).some((rows) => /** @type {number[][]} */ (rows).some((row) => row[13] === AIRBORNE)));
  assert.ok(flying.length >= 3);
});

for (const c of vectors.cases) {
  test(`vector: ${c.name}`, () => {
    const bytes = fromHex(c.hex);
    assert.equal(bytes.length, c.bytes);
    assert.equal(bytes[0], c.version);
    const decoded = decodeTracks(bytes);
    assert.deepEqual([...decoded.keys()], Object.keys(c.decoded).map(Number));
    for (const [ball, rows] of Object.entries(c.decoded)) {
      const track = decoded.get(Number(ball));
      assert.ok(track);
      assert.equal(track.length, rows.length);
      rows.forEach((/** @type {number[]} */ row, /** @type {number} */ i) => {
        FIELDS.forEach((field, k) => {
          const got = /** @type {any} */ (track[i])[field];
          if (field === "state") assert.equal(got, row[k]);
          else {
            same(got, row[k], `${c.name} ball ${ball} segment ${i} ${field}`);
            largestDifference = Math.max(largestDifference, Math.abs(got - row[k]));
          }
        });
      });
    }
    assert.equal(duration(decoded), c.duration);
    for (const s of c.samples) {
      const position = positionAt(decoded, s.ball, s.t);
      if (s.position === null) assert.equal(position, null, `${c.name} ball ${s.ball} at ${s.t}`);
      else {
        assert.ok(position, `${c.name} ball ${s.ball} at ${s.t}`);
        same(position[0], s.position[0], `${c.name} x at ${s.t}`);
        same(position[1], s.position[1], `${c.name} y at ${s.t}`);
      }
      const state = stateAt(decoded, s.ball, s.t);
      const got = [state.x, state.y, state.vx, state.vy, state.wx, state.wy, state.wz];
      got.forEach((value, k) => same(value, s.state[k], `${c.name} ball ${s.ball} state[${k}] at ${s.t}`));
      assert.equal(state.state, s.state[7]);
      same(state.z, s.state[8], `${c.name} ball ${s.ball} z at ${s.t}`);
      same(state.vz, s.state[9], `${c.name} ball ${s.ball} vz at ${s.t}`);
    }
  });
}

test("the JavaScript numbers are the Python numbers", () => {
  assert.equal(largestDifference, 0);
});

for (const e of vectors.errors) {
  test(`refused: ${e.name}`, () => {
    assert.throws(
      () => decodeTracks(fromHex(e.hex)),
      (/** @type {unknown} */ error) =>
        error instanceof TrajectoryError && error.message.includes(e.error) && error.name === "TrajectoryError",
    );
  });
}

test("every truncation and every flipped bit is refused", () => {
  const data = fromHex(vectors.cases.find((/** @type {any} */ c) => c.name.startsWith("ordinary")).hex);
  for (let length = 0; length < data.length; length++) {
    assert.throws(() => decodeTracks(data.subarray(0, length)), TrajectoryError);
  }
  for (let i = 0; i < data.length; i++) {
    for (let bit = 0; bit < 8; bit++) {
      const corrupted = data.slice();
      corrupted[i] ^= 1 << bit;
      assert.throws(() => decodeTracks(corrupted), TrajectoryError);
    }
  }
});

test("random bytes are refused with a TrajectoryError, never anything else", () => {
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
  for (let round = 0; round < 2000; round++) {
    const data = Uint8Array.from({ length: next() + 1 }, next);
    if (round % 2 === 0) data[0] = FORMAT_VERSION;
    assert.throws(() => decodeTracks(data), TrajectoryError);
  }
});

test("an ArrayBuffer or any byte view decodes the same; other things are refused", () => {
  const c = vectors.cases.find((/** @type {any} */ c) => c.name.startsWith("break"));
  const bytes = fromHex(c.hex);
  const padded = new Uint8Array(bytes.length + 3);
  padded.set(bytes, 3);
  const viaView = decodeTracks(new DataView(padded.buffer, 3, bytes.length));
  const viaBuffer = decodeTracks(bytes.slice().buffer);
  assert.deepEqual(viaView, decodeTracks(bytes));
  assert.deepEqual(viaBuffer, decodeTracks(bytes));
  assert.throws(() => decodeTracks(/** @type {any} */ ("0100")), TrajectoryError);
});

test("queries: none once pocketed, clamped before the start, errors for a missing ball or bad time", () => {
  const c = vectors.cases.find((/** @type {any} */ c) => c.name.startsWith("ordinary"));
  const decoded = decodeTracks(fromHex(c.hex));
  const [ball, track] = [...decoded.entries()].find(([, t]) => t.length > 1) ?? [];
  assert.ok(track && ball !== undefined);
  assert.deepEqual(positionAt(decoded, ball, -3), positionAt(decoded, ball, track[0].t0));
  assert.throws(() => positionAt(decoded, 42, 0), /no track for ball 42/);
  assert.throws(() => stateAt(decoded, ball, NaN), /finite/);
  const still = { wx: 0, wy: 0, wz: 0, dwx: 0, dwy: 0, dwz: 0, z: 0, vz: 0, az: 0 };
  const pocketed = new Map([[7, [{ t0: 0, x: 1, y: 1, vx: 1, vy: 0, ax: 0, ay: 0, ...still, state: 3 }, { t0: 1, x: 2, y: 1, vx: 0, vy: 0, ax: 0, ay: 0, ...still, state: 4 }]]]);
  assert.deepEqual(positionAt(pocketed, 7, 0.5), [1.5, 1]);
  assert.equal(positionAt(pocketed, 7, 1), null);
  assert.equal(stateAt(pocketed, 7, 5).state, 4);
  assert.equal(duration(pocketed), 1);
  assert.equal(duration(new Map()), 0);
  assert.equal(TICK, 1 / 131072);
});
