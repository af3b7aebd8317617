import assert from "node:assert/strict";
import { test } from "node:test";

import { KEY_PLACE_MS, inHand } from "../inhand.mjs";
import { app } from "../state.mjs";

/** A server that answers each request after `ms`, taking or refusing placements by `take`. */
function server(take = () => true, ms = 5) {
  /** @type {Record<string, any>[]} */
  const sent = [];
  const act = (/** @type {Record<string, any>} */ msg) => {
    sent.push(msg);
    return new Promise((r) => setTimeout(() => r(msg.t !== "place" || take(msg) ? { t: "ok" } : null), ms));
  };
  return { sent, act };
}

const rest = (ms) => new Promise((r) => setTimeout(r, ms));

test("the keys' moves are put down once, when they rest", async () => {
  app.table = { balls: [[0.5, 0.5], [1, 0.6]] };
  const { sent, act } = server();
  const hand = inHand(act);
  for (const x of [0.51, 0.52, 0.53]) hand.nudge([x, 0.5]);
  assert.deepEqual(app.keyPlace, [0.53, 0.5]);
  assert.equal(sent.length, 0);
  await rest(KEY_PLACE_MS + 60);
  assert.deepEqual(sent, [{ t: "place", pos: [0.53, 0.5] }]);
  assert.equal(app.keyPlace, null);
  assert.deepEqual(app.table.balls[0], [0.53, 0.5]);
});

test("a shot asked for while the keys move the ball puts it down first, then waits for the answer", async () => {
  app.table = { balls: [[0.5, 0.5], [1, 0.6]] };
  const { sent, act } = server(() => true, 30);
  const hand = inHand(act);
  hand.nudge([0.6, 0.5]);
  assert.equal(await hand.settled(), true);
  assert.deepEqual(sent, [{ t: "place", pos: [0.6, 0.5] }]);
  assert.deepEqual(app.table.balls[0], [0.6, 0.5]);
  await rest(KEY_PLACE_MS + 60);
  assert.equal(sent.length, 1, "the timer sends nothing more");
});

test("a refused placement stops the shot; a drag forgets the keys' place", async () => {
  app.table = { balls: [[0.5, 0.5], [1, 0.6]] };
  const { sent, act } = server(() => false);
  const hand = inHand(act);
  hand.nudge([0.7, 0.5]);
  assert.equal(await hand.settled(), false);
  assert.deepEqual(app.table.balls[0], [0.5, 0.5]);
  assert.equal(app.placedPending, null);
  hand.nudge([0.8, 0.5]);
  hand.take(); // a drag of the ball begins
  await rest(KEY_PLACE_MS + 60);
  assert.equal(sent.length, 1);
  assert.equal(await hand.settled(), true, "nothing to wait for");
});
