import assert from "node:assert/strict";
import { test } from "node:test";

import { encode } from "@msgpack/msgpack";

import { Connection } from "../net.mjs";

/** A connection that records what it hands on (no socket: frames go straight in). */
function connection() {
  /** @type {any[]} */
  const got = [];
  /** @type {any[]} */
  const sent = [];
  const conn = new Connection({
    url: "ws://unused",
    name: () => "Ana",
    onMessage: (m) => got.push(m),
    onState: () => {},
    onWelcome: () => {},
    session: { token: () => null, setToken: () => {} },
  });
  conn.fire = (/** @type {any} */ m) => sent.push(m);
  const receive = (/** @type {any} */ m) => {
    const b = encode(m);
    conn.receive(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  };
  return { conn, got, sent, receive };
}

const snapshot = (room, seq) => ({ t: "snapshot", room, seq, now: 0, view: {} });
const event = (room, seq, t = "ruling") => ({ t, room, seq });

test("a snapshot restating the room at the same seq (a rating moved) keeps the queue", () => {
  const { got, receive } = connection();
  receive(snapshot("R1", 10));
  receive(event("R1", 11, "shot_result"));
  receive(event("R1", 12, "game_over"));
  receive(event("R1", 13, "match_over"));
  receive(snapshot("R1", 13)); // the winner's new rating, a moment later
  assert.deepEqual(got.map((m) => m.t), ["snapshot", "shot_result", "game_over", "match_over", "snapshot"]);
  assert.equal(got[0].reset, true, "the first snapshot starts the sequence");
  assert.equal(got[4].reset, false, "a restatement waits behind the results");
});

test("a snapshot that continues the sequence keeps it; one that jumps, or another room's, restarts it", () => {
  const { got, receive } = connection();
  receive(snapshot("R1", 10));
  receive(snapshot("R1", 11));
  receive(snapshot("R1", 20));
  receive(snapshot("R2", 21));
  receive(snapshot("R2", 20)); // older than what was seen
  assert.deepEqual(got.map((m) => m.reset), [true, false, true, true, true]);
});

test("an event after a gap asks for the room again, and what comes before the answer is dropped", () => {
  const { got, sent, receive } = connection();
  receive(snapshot("R1", 10));
  receive(event("R1", 12));
  assert.deepEqual(sent.map((m) => m.t), ["resync"]);
  receive(event("R1", 13));
  receive(snapshot("R1", 13));
  assert.deepEqual(got.map((m) => [m.t, m.seq]), [["snapshot", 10], ["snapshot", 13]]);
  assert.equal(got[1].reset, true);
});
