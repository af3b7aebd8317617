import assert from "node:assert/strict";
import { test } from "node:test";

import { CALL_MS, OverlayFeed, SCORED_MS, overlayModel, roomOfPath } from "../overlay.mjs";

const view = {
  status: "playing",
  settings: { race_to: 7 },
  seats: [
    { seat: 0, name: "Ana", connected: true, rating: 1612.4, provisional: false },
    { seat: 1, name: "Bob", connected: false },
  ],
};
const balls = [{ x: 0.5, y: 0.5 }, null, null, { x: 1, y: 0.3 }, null, { x: 1.2, y: 0.4 }, null, null, null, { x: 1.5, y: 0.6 }];
const table = { rack: 3, turn: 1, balls, score: [2, 1], match_over: false, match_winner: null, clock: { seconds: 30, deadline: 100_000, paused: false, extensions: [1, 1] } };

test("the overlay shows names, ratings, score, race, game, turn, clock and balls left", () => {
  const m = overlayModel(view, table, 100_000 - 12_300);
  assert.equal(m.status, "playing");
  assert.deepEqual(m.seats.map((s) => s.name), ["Ana", "Bob"]);
  assert.equal(m.seats[0].rating, 1612);
  assert.equal(m.seats[1].rating, null);
  assert.deepEqual(m.seats.map((s) => s.score), [2, 1]);
  assert.deepEqual(m.seats.map((s) => s.toAct), [false, true]);
  assert.deepEqual(m.seats.map((s) => s.away), [false, true]);
  assert.equal(m.race, 7);
  assert.equal(m.rack, 3);
  assert.deepEqual(m.balls, [3, 5, 9]);
  assert.equal(m.clock, 13);
  assert.equal(m.winner, null);
});

test("no clock while paused or without one; never below zero", () => {
  assert.equal(overlayModel(view, { ...table, clock: null }, 0).clock, null);
  assert.equal(overlayModel(view, { ...table, clock: { ...table.clock, paused: true, deadline: null } }, 0).clock, null);
  assert.equal(overlayModel(view, table, 200_000).clock, 0);
});

test("before the break and after the match", () => {
  const waiting = overlayModel({ ...view, status: "waiting" }, null, 0);
  assert.equal(waiting.rack, 0);
  assert.deepEqual(waiting.balls, []);
  assert.deepEqual(waiting.seats.map((s) => s.score), [0, 0]);
  const over = overlayModel({ ...view, status: "finished" }, { ...table, match_over: true, match_winner: 0, turn: null }, 0);
  assert.equal(over.winner, 0);
  assert.equal(over.ended, null, "a strip that did not see the end does not guess how");
  assert.deepEqual(over.seats.map((s) => s.toAct), [false, false]);
});

test("a match conceded is said to be, not shown as a bare 0 : 0 win", () => {
  const feed = new OverlayFeed();
  feed.push({ t: "snapshot", view: { ...view, table } }, 0);
  feed.push({ t: "match_over", seq: 7, winner: 1, reason: "concede", score: [0, 0] }, 10);
  feed.tick(20);
  const m = overlayModel({ ...view, status: "finished" }, feed.table, 20);
  assert.equal(m.winner, 1);
  assert.equal(m.ended, "concede");
  // The seat freed as the player leaves comes as a snapshot of the same match: still said.
  const left = { ...view, status: "finished", table: { ...table, match_over: true, match_winner: 1 } };
  feed.push({ t: "snapshot", view: left }, 30);
  assert.equal(overlayModel(left, feed.table, 30).ended, "concede");
});

test("the room comes from the page's own path", () => {
  assert.equal(roomOfPath("/overlay/k3v9x2ab"), "k3v9x2ab");
  assert.equal(roomOfPath("/overlay/"), null);
  assert.equal(roomOfPath("/overlay/a/b"), null);
  assert.equal(roomOfPath("/overlay/<script>"), null);
});

test("a computer is said to be one, and named the reader's way", async () => {
  const { setLanguage } = await import("../i18n/index.mjs");
  const bots = { ...view, seats: [{ seat: 0, name: "Bot 2", connected: true, computer: 2 }, { seat: 1, name: "Bot 3", connected: true, computer: 3 }] };
  try {
    setLanguage("ru", false);
    const m = overlayModel(bots, table, 0);
    assert.deepEqual(m.seats.map((s) => s.computer), [true, true]);
    assert.deepEqual(m.seats.map((s) => s.name), ["Бот 2", "Бот 3"]);
    // A person is never a computer, whatever the name; a person's name is their own.
    const people = overlayModel({ ...view, seats: [{ seat: 0, name: "Bot 2", connected: true }, view.seats[1]] }, table, 0);
    assert.deepEqual(people.seats.map((s) => s.computer), [false, false]);
    assert.deepEqual(people.seats.map((s) => s.name), ["Bot 2", "Bob"]);
  } finally {
    setLanguage("en", false);
  }
});

test("a shot's outcome shows when the shot has rolled out on the viewers' tables, and what follows waits behind it", () => {
  const feed = new OverlayFeed(2);
  const before = { ...table, turn: 0, score: [2, 1], clock: { seconds: 30, deadline: 50_000, paused: false, extensions: [1, 1] } };
  feed.push({ t: "snapshot", view: { ...view, table: before } }, 1000);
  assert.equal(feed.table, before);
  const after = { ...table, turn: 1, clock: { seconds: 30, deadline: 90_000, paused: false, extensions: [1, 1] } };
  // A 6 s shot at twice its speed: 3 s on screen.
  feed.push({ t: "shot_result", seq: 5, duration: 6, table: after }, 2000);
  feed.push({ t: "game_over", seq: 6, score: [3, 1] }, 2001);
  assert.equal(feed.table, before, "the outcome is not told while the shot rolls");
  feed.tick(4999);
  assert.equal(feed.table, before);
  feed.tick(5000);
  assert.deepEqual(feed.table, { ...after, score: [3, 1] });
  assert.equal(feed.queue.length, 0);
});

test("a snapshot is the room as it is now: what waited is dropped; a ruling without a shot is taken at once", () => {
  const feed = new OverlayFeed(2);
  feed.push({ t: "snapshot", view: { ...view, table } }, 0);
  feed.push({ t: "shot_result", seq: 5, duration: 10, table: { ...table, turn: 0 } }, 0);
  const now = { ...table, rack: 4 };
  feed.push({ t: "snapshot", view: { ...view, table: now } }, 100);
  assert.equal(feed.table, now);
  assert.equal(feed.queue.length, 0);
  const ruled = { ...now, turn: 0 };
  feed.push({ t: "ruling", seq: 9, table: ruled }, 200);
  assert.equal(feed.table, ruled);
  feed.push({ t: "room_gone", room: "r" }, 300);
  assert.equal(feed.gone, true);
});

test("the shot clock never shows more than the turn's time and the extensions taken in it", () => {
  const feed = new OverlayFeed(2);
  const clock = { seconds: 60, extension: 30, deadline: 10_000 + 64_000, paused: false, extensions: [1, 1] };
  feed.push({ t: "snapshot", view: { ...view, table: { ...table, turn: 1, clock } } }, 0);
  // The server started the clock when the shot had played out at its own speed (4 s later).
  assert.equal(overlayModel(feed.view, feed.table, 10_000, feed.clockCap()).clock, 60);
  // An extension taken: the ruling's table has one fewer, the clock may show 30 s more.
  feed.push({ t: "ruling", seq: 3, table: { ...table, turn: 1, clock: { ...clock, deadline: 10_000 + 94_000, extensions: [1, 0] } } }, 1);
  assert.equal(overlayModel(feed.view, feed.table, 10_000, feed.clockCap()).clock, 90);
  // The next shot begins a new turn: its own 60 s again.
  feed.push({ t: "shot_result", seq: 4, duration: 0, table: { ...table, turn: 0, clock: { ...clock, deadline: 20_000 + 61_000, extensions: [1, 0] } } }, 2);
  assert.equal(overlayModel(feed.view, feed.table, 20_000, feed.clockCap()).clock, 60);
});

test("while a shot rolls the feed says so (the page then shows no clock running)", () => {
  const feed = new OverlayFeed(2);
  feed.push({ t: "snapshot", view: { ...view, table } }, 0);
  assert.equal(feed.rolling(), false);
  feed.push({ t: "shot_result", seq: 5, duration: 4, table: { ...table, turn: 0 } }, 0);
  assert.equal(feed.rolling(), true);
  feed.tick(2000);
  assert.equal(feed.rolling(), false);
});

test("the feed says a match is over once its last shot has rolled out on the viewers' tables", () => {
  const feed = new OverlayFeed(2);
  /** @type {string[]} */
  const shown = [];
  feed.onShown = (msg) => shown.push(msg.t);
  feed.push({ t: "snapshot", view: { ...view, table } }, 0);
  feed.push({ t: "shot_result", duration: 3, table: { ...table, match_over: true, match_winner: 0 } }, 100);
  feed.push({ t: "game_over", score: [3, 1] }, 110);
  feed.push({ t: "match_over", score: [3, 1] }, 120);
  feed.tick(1_000);
  assert.deepEqual(shown, [], "the shot still rolls (1.5 s at twice its speed)");
  feed.tick(1_700);
  assert.deepEqual(shown, ["shot_result", "game_over", "match_over"]);
});

test("a named table's strip carries its name as the lobby says it, a tournament's round too", async () => {
  const { setLanguage } = await import("../i18n/index.mjs");
  setLanguage("hr", false);
  assert.equal(overlayModel(view, table, 0).title, "");
  const cup = { ...view, settings: { race_to: 3, tournament: "t1", name: "Zagreb Open · L1" } };
  assert.equal(overlayModel(cup, table, 0).title, "Zagreb Open · Gubitnička grana, 1. kolo");
  setLanguage("en", false);
});

test("a tournament's empty seats keep their players' names: awaited before the match, gone after it", () => {
  const cup = { ...view, status: "waiting", settings: { race_to: 3, tournament: "abc123", reserved: ["p1", "p2"] }, seats: [null, null] };
  const kept = ["Mara", "Nikola"];
  const before = overlayModel(cup, null, 0, Infinity, kept);
  assert.deepEqual(before.seats.map((s) => s.name), kept);
  assert.deepEqual(before.seats.map((s) => s.away), [true, true]);
  // Conceded, and both gone from the finished table: still named, and not "away".
  const after = overlayModel({ ...cup, status: "finished" }, { ...table, match_over: true, match_winner: 0, turn: null }, 0, Infinity, kept);
  assert.deepEqual(after.seats.map((s) => s.name), kept);
  assert.deepEqual(after.seats.map((s) => s.away), [false, false]);
  // Nothing kept (not a tournament's room, or its names not read yet): empty.
  assert.deepEqual(overlayModel(cup, null, 0).seats.map((s) => s.name), ["", ""]);
});

test("after the lag the one choosing who breaks is the one to act, named; a deciding game is said", () => {
  const choosing = { ...view, status: "lag", settings: { race_to: 7, first_break: "lag" }, lag_choice: 1, lag_choice_until: 80_000 };
  const m = overlayModel(choosing, null, 70_000);
  // (the choice's time stood under the first plate, whoever chose)
  assert.deepEqual(m.seats.map((s) => s.toAct), [false, true]);
  assert.equal(m.chooser, "Bob");
  assert.equal(overlayModel({ ...choosing, lag_choice: null }, null, 0).chooser, null);
  // At 6 : 6 in a race to 7 the game decides the match; at 6 : 5 it does not.
  assert.equal(overlayModel(view, { ...table, score: [6, 6] }, 0).decider, true);
  assert.equal(overlayModel(view, { ...table, score: [6, 5] }, 0).decider, false);
  assert.equal(overlayModel(view, { ...table, score: [7, 6], match_over: true, match_winner: 0 }, 0).decider, false);
});

test("the last shot's call is kept while it is news, from when it rolled out, and a snapshot drops it", () => {
  const feed = new OverlayFeed(2);
  feed.push({ t: "snapshot", view: { ...view, table } }, 0);
  const shot = { t: "shot_result", seq: 5, duration: 4, table: { ...table, turn: 0, lowest: 5 } };
  feed.push(shot, 1_000);
  assert.equal(feed.callAt(2_000), null); // still rolling on the viewers' tables (2 s at twice the speed)
  feed.tick(3_000);
  assert.equal(feed.callAt(3_000)?.msg, shot);
  assert.equal(feed.callAt(3_000)?.lowest, table.lowest ?? null);
  assert.equal(feed.callAt(3_000 + CALL_MS), null);
  feed.push({ t: "snapshot", view: { ...view, table } }, 3_500);
  assert.equal(feed.callAt(3_600), null);
});

test("in a timed lag the strip counts the lag's time, then the winner's choice; a lag nobody played is told as a draw", () => {
  const lagging = { ...view, status: "lag", match: 1, settings: { race_to: 7, first_break: "lag", shot_clock: 20, first_shot_clock: 30 }, lag_until: 50_000 };
  const feed = new OverlayFeed(2);
  feed.push({ t: "snapshot", view: lagging }, 0);
  let m = overlayModel(feed.view, feed.table, 50_000 - 14_200, feed.clockCap(), null, feed.lagDrawn());
  assert.equal(m.clock, 15);
  assert.equal(m.draw, false);
  // Nobody lagged in time: the first break is drawn for, and Ana (seat 0) chooses.
  feed.push({ t: "lag_result", seq: 3, method: "draw", lags: [], winner: 0, reason: "late", table: null }, 1);
  const choosing = { ...lagging, lag_until: null, lag_choice: 0, lag_choice_until: 80_000 };
  feed.push({ t: "snapshot", view: choosing }, 2);
  m = overlayModel(feed.view, feed.table, 80_000 - 20_000, feed.clockCap(), null, feed.lagDrawn());
  assert.equal(m.clock, 20);
  assert.equal(m.draw, true);
  // Right after the lag the server's time still holds the lag's animation, which the strip
  // does not play: it shows the room's 20 s, no more.
  assert.equal(overlayModel(feed.view, feed.table, 80_000 - 25_000, feed.clockCap(), null, true).clock, 20);
  assert.equal(overlayModel({ ...lagging, lag_until: 50_000 + 40_000 }, null, 50_000).clock, 30);
  // A player leaves while the winner chooses: the room waits, and its next lag (numbered as
  // the same match) is a lag, not a draw.
  feed.push({ t: "snapshot", view: { ...lagging, status: "waiting", lag_until: null } }, 3);
  feed.push({ t: "snapshot", view: lagging }, 3);
  assert.equal(feed.lagDrawn(), false);
  assert.equal(overlayModel(feed.view, feed.table, 40_000, feed.clockCap(), null, feed.lagDrawn()).draw, false);
  // The rematch lags again: the last match's draw is not this one's.
  feed.push({ t: "snapshot", view: { ...lagging, match: 2 } }, 3);
  assert.equal(feed.lagDrawn(), false);
  // A page coming in during the choice reads the draw from the room's log, not an earlier match's.
  const late = new OverlayFeed(2);
  const log = [{ t: "lag_result", method: "draw" }, { t: "match_over" }, { t: "lag_result", method: "lag" }];
  late.push({ t: "snapshot", view: { ...choosing, match: 2 }, recent: { log, chat: [], verdict: null } }, 0);
  assert.equal(late.lagDrawn(), false);
  late.push({ t: "snapshot", view: { ...choosing, match: 2 }, recent: { log: log.slice(0, 2).concat([{ t: "lag_result", method: "draw" }]), chat: [], verdict: null } }, 1);
  assert.equal(late.lagDrawn(), true);
  // Untimed (no shot clock): no count.
  assert.equal(overlayModel({ ...lagging, settings: { race_to: 7 }, lag_until: null }, null, 0).clock, null);
});

test("fouls in a row are on each plate, the second a warning; a game won lights its score a moment; a conceded game is called", () => {
  const fouled = overlayModel(view, { ...table, fouls: [1, 2], warned: [1] }, 0);
  assert.deepEqual(fouled.seats.map((s) => s.fouls), [1, 2]);
  const feed = new OverlayFeed(2);
  feed.push({ t: "snapshot", view: { ...view, table } }, 0);
  const concede = { t: "ruling", by: 1, action: "concede_game", verdict: null, table: { ...table, rack: 4, turn: 0, score: [3, 1] } };
  feed.push(concede, 100);
  feed.push({ t: "game_over", rack: 3, winner: 0, reason: "concede", score: [3, 1] }, 100);
  assert.equal(feed.callAt(200)?.msg, concede, "the concession is what the strip says");
  assert.equal(feed.scoredAt(200), 0);
  assert.equal(feed.scoredAt(100 + SCORED_MS), null);
  // A choice (shoot or pass after a push-out) is the table's to show: the call stands.
  feed.push({ t: "ruling", by: 1, action: "choose_shoot", verdict: null, table: { ...table, rack: 4 } }, 300);
  assert.equal(feed.callAt(300)?.msg, concede);
  // Once the match is over the strip lists no balls of a game never finished, and no fouls.
  const over = overlayModel({ ...view, status: "finished" }, { ...table, fouls: [0, 2], match_over: true, match_winner: 0, turn: null }, 0);
  assert.deepEqual(over.balls, []);
  assert.deepEqual(over.seats.map((s) => s.fouls), [0, 0]);
  // A snapshot (a join, a resync) is the room as it is now: no old moment carried into it.
  feed.push({ t: "snapshot", view: { ...view, table } }, 400);
  assert.equal(feed.scoredAt(400), null);
});
