import assert from "node:assert/strict";
import { test } from "node:test";

import { lastPlay, matchBounds, rackBounds } from "../racks.mjs";

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

test("a rematch's racks are numbered from 1 again: match 2's game 1 is its own, not the first match's", () => {
  const finished = { t: "snapshot", view: { status: "finished" } };
  const matchOver = { t: "match_over" };
  const events = [playing, shot, over(1), shot, over(2), matchOver, finished, chat, playing, shot, over(1), shot, shot];
  assert.deepEqual(rackBounds(events, 1), [0, 2]);
  assert.deepEqual(rackBounds(events, 2), [3, 4]);
  assert.deepEqual(rackBounds(events, 1, 1), [0, 2]);
  // The rematch's first game: from the table its break rolls on to its game_over.
  assert.deepEqual(rackBounds(events, 1, 2), [8, 10]);
  // Its second, still being played, runs to the last event.
  assert.deepEqual(rackBounds(events, 2, 2), [11, 12]);
  assert.equal(rackBounds(events, 3, 2), null);
  assert.equal(rackBounds(events, 3, 1), null);
  assert.equal(rackBounds(events, 1, 3), null);
});

test("a match conceded with a rack under way ends that rack at its match_over, before the rematch", () => {
  const matchOver = { t: "match_over" };
  const events = [playing, shot, over(1), shot, { t: "ruling" }, matchOver, playing, shot, over(1)];
  assert.deepEqual(rackBounds(events, 2), [3, 5]);
  assert.deepEqual(rackBounds(events, 1, 2), [6, 8]);
});

test("Last is the last event of play, not the players leaving after it", () => {
  const events = [playing, shot, over(1), { t: "match_over" }, { t: "presence" }, chat, { t: "snapshot", view: { status: "finished" } }];
  assert.equal(lastPlay(events, 0, 6), 3);
  assert.equal(lastPlay(events, 0, 2), 2);
  assert.equal(lastPlay([waiting, chat], 0, 1), 1);
});

test("a rematch asked for but never begun is no match; the first shows what the room has", () => {
  const events = [playing, shot, over(1), { t: "match_over" }, chat, { t: "presence" }];
  assert.equal(rackBounds(events, 1, 2), null);
  assert.deepEqual(rackBounds([chat], 1, 1), [0, 0]);
});

test("a rematch starts where it is begun, not at the finished table's last words", () => {
  const finished = { t: "snapshot", view: { status: "finished" } };
  const events = [playing, shot, over(1), { t: "match_over" }, finished, chat, finished, lag, lagged, shot, over(1)];
  assert.deepEqual(matchBounds(events, 2), [7, 10]);
  assert.deepEqual(rackBounds(events, 1, 2), [7, 10]);
});
