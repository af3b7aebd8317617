import assert from "node:assert/strict";
import { test } from "node:test";

import { rackBounds } from "../racks.mjs";

const waiting = { t: "snapshot", view: { status: "waiting" } };
const lag = { t: "snapshot", view: { status: "lag" } };
const playing = { t: "snapshot", view: { status: "playing" } };
const chat = { t: "chat", text: "hi" };
const shot = { t: "shot_result" };
const over = (rack) => ({ t: "game_over", rack });

const lagged = { t: "lag_result", method: "lag", lags: [{ seat: 0 }, { seat: 1 }] };
const drawn = { t: "lag_result", method: "draw", lags: [] };

test("rack 1 starts at the table just before its lag rolls, not in the waiting room", () => {
  const events = [waiting, chat, { t: "presence" }, waiting, lag, lag, lagged, lag, playing, shot, chat, over(1), shot, over(2)];
  assert.deepEqual(rackBounds(events, 1), [5, 11]);
  assert.deepEqual(rackBounds(events, 2), [12, 13]);
  assert.equal(rackBounds(events, 3), null);
  // No snapshot of the lag itself: the last waiting table, both players at it.
  assert.deepEqual(rackBounds([waiting, waiting, chat, waiting, lagged, shot, over(1)], 1), [3, 6]);
  assert.deepEqual(rackBounds([lagged, shot, over(1)], 1), [0, 2]);
});

test("a draw for the break has nothing to roll: rack 1 starts at it", () => {
  assert.deepEqual(rackBounds([waiting, waiting, drawn, lag, playing, shot, over(1)], 1), [2, 6]);
});

test("without a lag rack 1 starts at the table its break rolls on; chat during play is kept", () => {
  const events = [waiting, chat, playing, chat, shot, over(1), chat, shot];
  assert.deepEqual(rackBounds(events, 1), [2, 5]);
  // A rack still being played runs to the last event.
  assert.deepEqual(rackBounds(events, 2), [6, 7]);
});

test("a room that never began play shows what it has", () => {
  assert.deepEqual(rackBounds([waiting, chat], 1), [0, 1]);
  assert.deepEqual(rackBounds([waiting, chat, lag], 1), [2, 2]);
  assert.equal(rackBounds([waiting], 2), null);
  assert.equal(rackBounds([], 1), null);
});
