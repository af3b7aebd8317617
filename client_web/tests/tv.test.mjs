import assert from "node:assert/strict";
import { test } from "node:test";

import { TvDirector, interest, pickTable } from "../tv.mjs";

/** @param {Record<string, any>} over */
const info = (over) => ({ room: "r", name: "", players: ["A", "B"], spectators: 0, score: [0, 0], race_to: 5, status: "playing", rack: 1, balls_left: 9, ...over });

test("only live tables with two players are worth showing", () => {
  assert.equal(interest(info({ status: "waiting" })), null);
  assert.equal(interest(info({ status: "finished" })), null);
  assert.equal(interest(info({ players: ["A"] })), null);
  assert.equal(typeof interest(info({})), "number");
  assert.equal(typeof interest(info({ status: "lag" })), "number");
});

test("a crowd, a close score, hill-hill and a rack near its end each raise interest", () => {
  const base = interest(info({ score: [1, 3] }));
  assert.ok(interest(info({ score: [1, 3], spectators: 20 })) > base);
  assert.ok(interest(info({ score: [2, 3] })) > base);
  assert.ok(interest(info({ score: [4, 4] })) > interest(info({ score: [3, 4] })) + 1.5);
  assert.ok(interest(info({ balls_left: 2 })) > interest(info({ balls_left: 9 })));
  assert.ok(interest(info({ status: "lag" })) < interest(info({})));
});

test("an old server's entries (no balls_left) still rank", () => {
  const old = info({});
  delete old.balls_left;
  delete old.rack;
  assert.equal(typeof interest(old), "number");
});

test("the channel stays on its table while the match is live, else takes the best", () => {
  const rooms = [info({ room: "a", spectators: 1 }), info({ room: "b", spectators: 30 }), info({ room: "c", status: "waiting" })];
  assert.equal(pickTable(rooms, null), "b");
  assert.equal(pickTable(rooms, "a"), "a");
  assert.equal(pickTable(rooms, "c"), "b"); // c is not live: move on
  assert.equal(pickTable([info({ room: "z" }), info({ room: "y" })], null), "y"); // ties: by id
  assert.equal(pickTable([info({ room: "c", status: "waiting" })], null), null);
});

test("the director watches the best table, lingers on a result, then moves on", async () => {
  /** @type {Record<string, any>[]} */
  let rooms = [info({ room: "a", spectators: 5 }), info({ room: "b" })];
  /** @type {string[]} */
  const calls = [];
  /** @type {(string | null)[]} */
  const shown = [];
  const tv = new TvDirector(
    {
      rooms: () => rooms,
      watch: async (room) => {
        calls.push(`watch ${room}`);
        return true;
      },
      leave: async () => {
        calls.push("leave");
      },
      showing: (room) => shown.push(room),
    },
    10,
  );
  tv.start();
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(calls, ["watch a"]);
  rooms = [info({ room: "a", spectators: 5 }), info({ room: "b", spectators: 50 })];
  await tv.update(); // b is better now, but a's match is still on
  assert.deepEqual(calls, ["watch a"]);
  tv.matchOver();
  await new Promise((r) => setTimeout(r, 40));
  assert.deepEqual(calls, ["watch a", "leave", "watch b"]);
  assert.deepEqual(shown, ["a", "b"]);
  rooms = [];
  tv.matchOver();
  await new Promise((r) => setTimeout(r, 40));
  assert.deepEqual(calls.slice(-1), ["leave"]);
  assert.equal(shown.at(-1), null);
  await tv.stop();
});
