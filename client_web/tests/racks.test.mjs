import assert from "node:assert/strict";
import { test } from "node:test";

import { rackBounds } from "../racks.mjs";

const waiting = { t: "snapshot", view: { status: "waiting" } };
const lag = { t: "snapshot", view: { status: "lag" } };
const playing = { t: "snapshot", view: { status: "playing" } };
const chat = { t: "chat", text: "hi" };
const shot = { t: "shot_result" };
const over = (rack) => ({ t: "game_over", rack });

test("rack 1 starts at the last table before play, after the table waited for its players", () => {
  const events = [waiting, chat, { t: "presence" }, waiting, lag, { t: "lag_result" }, shot, chat, over(1), shot, over(2)];
  assert.deepEqual(rackBounds(events, 1), [4, 8]);
  // No snapshot of the lag itself: the last waiting table, both players at it, comes
  // first, so the lag is the next step and rolls.
  const lagged = { t: "lag_result", method: "lag", lags: [{ seat: 0 }, { seat: 1 }] };
  const unlagged = [waiting, waiting, chat, waiting, lagged, shot, over(1)];
  assert.deepEqual(rackBounds(unlagged, 1), [3, 6]);
  assert.deepEqual(rackBounds([lagged, shot, over(1)], 1), [0, 2]);
  // A draw for the break has nothing to roll: the rack starts at it.
  const drawn = { t: "lag_result", method: "draw", lags: [] };
  assert.deepEqual(rackBounds([waiting, waiting, drawn, shot, over(1)], 1), [2, 4]);
  assert.deepEqual(rackBounds(events, 2), [9, 10]);
  assert.equal(rackBounds(events, 3), null);
});

test("without a lag rack 1 starts at the first table in play; chat during play is kept", () => {
  const events = [waiting, playing, chat, shot, over(1), chat, shot];
  assert.deepEqual(rackBounds(events, 1), [1, 4]);
  assert.deepEqual(rackBounds([waiting, chat, waiting, chat, shot, over(1)], 1), [2, 5]);
  // A rack still being played runs to the last event.
  assert.deepEqual(rackBounds(events, 2), [5, 6]);
});

test("a room that never began play shows all it has as rack 1", () => {
  assert.deepEqual(rackBounds([waiting, chat], 1), [0, 1]);
  assert.equal(rackBounds([waiting], 2), null);
  assert.equal(rackBounds([], 1), null);
});
