import assert from "node:assert/strict";
import { test } from "node:test";

import { TvDirector, interest, pickTable } from "../tv.mjs";

/** @param {Record<string, any>} over */
const info = (over) => ({ room: "r", name: "", players: ["A", "B"], spectators: 0, score: [0, 0], race_to: 5, status: "playing", rack: 1, balls_left: 9, ...over });


/**
 * A director over the list `rooms` gives, recording what it does ("watch a", "leave").
 * @param {() => Record<string, any>[]} rooms @param {number} lingerMs @param {number} closingMs @param {number} [idleMs]
 */
function recorded(rooms, lingerMs, closingMs, idleMs) {
  /** @type {string[]} */
  const calls = [];
  const host = { rooms, watch: async (/** @type {string} */ room) => void calls.push(`watch ${room}`) ?? true, leave: async () => void calls.push("leave"), showing: () => {} };
  return { tv: new TvDirector(host, lingerMs, closingMs, idleMs), calls };
}

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

test("people before the computers' exhibitions, a tournament's match before a friendly one", () => {
  const people = info({ room: "p" });
  const bots = info({ room: "x", computer: [5, 3], spectators: 3, score: [2, 2], race_to: 3 });
  const cup = info({ room: "t", settings: { tournament: "t1" } });
  assert.ok(interest(people) > interest(bots));
  assert.ok(interest(cup) > interest(people));
  assert.equal(pickTable([bots, people], null), "p");
  // A person against the computer is people playing.
  assert.ok(interest(info({ computer: [null, 2] })) > interest(bots));
});

test("a table that closes as its match ends stays on until that end has played out", async () => {
  /** @type {Record<string, any>[]} */
  let rooms = [info({ room: "a" }), info({ room: "b" })];
  const { tv, calls } = recorded(() => rooms, 10, 200);
  tv.start();
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(calls, ["watch a"]);
  // The table closes (its lobby entry goes) while its last shot still plays on the channel.
  rooms = [info({ room: "b" })];
  tv.gone("a");
  await tv.update();
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(calls, ["watch a"], "the last shot is not cut");
  tv.matchOver(); // the end shown: the usual linger, then on
  await new Promise((r) => setTimeout(r, 40));
  assert.deepEqual(calls, ["watch a", "leave", "watch b"]);
  // Closed mid-match, its end never comes: on after the wait.
  rooms = [info({ room: "c" })];
  tv.gone("b");
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(calls.slice(-1), ["watch b"]);
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(calls.slice(-2), ["leave", "watch c"]);
  await tv.stop();
});

test("the channel leaves the computers' exhibition as soon as people play", () => {
  const bots = info({ room: "x", computer: [5, 3] });
  const people = info({ room: "p", status: "lag" });
  assert.equal(pickTable([bots], "x"), "x");
  assert.equal(pickTable([bots, people], "x"), "p");
  // A people's match is not left for a better one while it is live.
  assert.equal(pickTable([people, info({ room: "q", spectators: 40 })], "p"), "p");
});

test("a match the list says is over stays on until its end has played out on the channel", async () => {
  /** @type {Record<string, any>[]} */
  let rooms = [info({ room: "a" })];
  const { tv, calls } = recorded(() => rooms, 10, 1000);
  tv.start();
  await new Promise((r) => setTimeout(r, 0));
  // The server has the match over (the list says so, another table is live) while the
  // winning shot still rolls on the channel.
  rooms = [info({ room: "a", status: "finished" }), info({ room: "b", spectators: 9 })];
  await tv.update();
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(calls, ["watch a"]);
  tv.matchOver();
  await new Promise((r) => setTimeout(r, 40));
  assert.deepEqual(calls, ["watch a", "leave", "watch b"]);
  await tv.stop();
});

test("a table whose people are all away is not live; one away ranks below the computers", () => {
  assert.equal(interest(info({ away: [true, true] })), null);
  // Against the computer: its person gone, nothing is played.
  assert.equal(interest(info({ computer: [null, 3], away: [true, false] })), null);
  const stalled = interest(info({ away: [false, true], score: [4, 4], spectators: 9 }));
  const exhibition = interest(info({ computer: [2, 5], score: [0, 3] }));
  assert.ok(stalled !== null && exhibition !== null && stalled < exhibition, `${stalled} ${exhibition}`);
  // Everyone there (or an old server's entry, without the field): as before.
  assert.equal(interest(info({ away: [false, false] })), interest(info({})));
  const live = info({ room: "live", computer: [1, 4] });
  assert.equal(pickTable([info({ room: "gone", away: [true, true], spectators: 30 }), live], "gone"), "live");
});

test("a table that stands still is left for another live one, if there is one", async () => {
  /** @type {Record<string, any>[]} */
  let rooms = [info({ room: "a", spectators: 5 }), info({ room: "b" })];
  const { tv, calls } = recorded(() => rooms, 10, 200, 150);
  tv.start();
  try {
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(calls, ["watch a"]);
    // Play goes on at a: the channel stays, whatever else is live.
    for (let i = 0; i < 8; i++) {
      tv.activity();
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(calls, ["watch a"]);
    // a stands still: on to b.
    await new Promise((r) => setTimeout(r, 400));
    assert.deepEqual(calls, ["watch a", "leave", "watch b"]);
    // b stands still too, and a has not moved since (a watcher fewer is no move): it stays,
    // the two still tables do not take turns.
    rooms = [info({ room: "a", spectators: 4 }), info({ room: "b", spectators: 1 })];
    await new Promise((r) => setTimeout(r, 400));
    assert.deepEqual(calls, ["watch a", "leave", "watch b"]);
    // a is played again (a ball down): back to it.
    rooms = [info({ room: "a", spectators: 4, balls_left: 7 }), info({ room: "b", spectators: 1 })];
    await new Promise((r) => setTimeout(r, 400));
    assert.deepEqual(calls.slice(0, 5), ["watch a", "leave", "watch b", "leave", "watch a"]);
  } finally {
    await tv.stop();
  }
});

test("after a match, the channel goes to a table that moves before one it left standing still", async () => {
  /** @type {Record<string, any>[]} */
  const rooms = [info({ room: "a", spectators: 9 }), info({ room: "b", spectators: 3 }), info({ room: "c" })];
  const { tv, calls } = recorded(() => rooms, 10, 200, 150);
  tv.start();
  try {
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 250)); // a stands still: on to b
    assert.deepEqual(calls, ["watch a", "leave", "watch b"]);
    tv.activity();
    tv.matchOver(); // b's match ends: a has the crowd, but has not moved since
    await new Promise((r) => setTimeout(r, 60));
    assert.deepEqual(calls, ["watch a", "leave", "watch b", "leave", "watch c"]);
  } finally {
    await tv.stop();
  }
});

test("lingering on a result, the match's own last events show and a rematch begun there is held", async () => {
  const { tv } = recorded(() => [info({ room: "a" })], 40, 1000);
  tv.start();
  await new Promise((r) => setTimeout(r, 5));
  const again = { t: "snapshot", view: { match: 2 } };
  assert.equal(tv.holds(again, 1), false); // not lingering: everything shows
  tv.matchOver();
  assert.equal(tv.holds({ t: "snapshot", view: { match: 1 } }, 1), false); // its own end
  assert.equal(tv.holds({ t: "spectators" }, 1), false);
  assert.equal(tv.holds(again, 1), true); // the rematch…
  assert.equal(tv.holds({ t: "lag_result" }, 2), true); // …and all after it
  await new Promise((r) => setTimeout(r, 80));
  assert.equal(tv.holds({ t: "lag_result" }, 2), false); // the linger over: shown again
  await tv.stop();
});
