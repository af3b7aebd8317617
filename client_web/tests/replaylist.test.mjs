// The replay page's list: one line per room event, in the order a match ends.

import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage, t } from "../i18n/index.mjs";
import { describeEvent, lagShownAt, momentOf, tableAfter } from "../replay.mjs";

const names = ["Ana", "Bob"];
const verdict = {
  foul: false,
  fouls: [],
  reasons: [],
  notes: [],
  spotted: [],
  game_over: true,
  game_winner: 0,
  game_end: "nine",
  match_over: true,
  match_winner: 0,
  new_rack: false,
  warned: null,
  stalemate: false,
};
const lastShot = {
  t: "shot_result",
  seq: 40,
  shooter: 0,
  shot: { push_out: false },
  miscue: false,
  report: { first: 9, pocketed: [9], rails: [], off_table: [] },
  verdict,
  table: { turn: null, ball_in_hand: null, choice_pending: false, breaker: 1, rack: 2 },
};

test("the match's last shot says the game; the game's and the match's own lines follow", () => {
  setLanguage("en", false);
  const lines = [
    lastShot,
    { t: "game_over", seq: 41, winner: 0, rack: 2, reason: "nine", score: [2, 0] },
    { t: "match_over", seq: 42, winner: 0, score: [2, 0] },
  ].map((e) => describeEvent(e, names).text);
  assert.match(lines[0], /^Ana wins the game/);
  assert.doesNotMatch(lines[0], /match/);
  assert.match(lines[1], /^Ana wins game 2!/);
  assert.match(lines[2], /^Ana wins the match! Ana 2 – 0 Bob/);
});

test("a shot that ends a game before the match's end is worded as before", () => {
  setLanguage("en", false);
  const e = { ...lastShot, verdict: { ...verdict, match_over: false, match_winner: null } };
  assert.match(describeEvent(e, names).text, /^Ana wins the game/);
  // In every language.
  setLanguage("hr", false);
  assert.match(describeEvent(lastShot, names).text, /dobiva partiju/);
});

test("the score after a game or the match is named in the scoreboard's order", () => {
  setLanguage("en", false);
  assert.match(describeEvent({ t: "match_over", seq: 9, winner: 1, score: [1, 2] }, names).text, /^Bob wins the match! Ana 1 – 2 Bob$/);
  // (how the game ended, the line before it said: not said twice)
  assert.equal(describeEvent({ t: "game_over", seq: 8, winner: 1, rack: 3, reason: "nine", score: [2, 1] }, names).text, "Bob wins game 3! Ana 2 – 1 Bob");
  setLanguage("ru", false);
  assert.match(describeEvent({ t: "game_over", seq: 8, winner: 0, rack: 3, reason: "nine", score: [2, 1] }, names).text, / Ana 2 : 1 Bob$/);
  setLanguage("en", false);
});

test("a game's winning shot shows where the balls stopped; the next rack comes after the results", () => {
  const rack = (n) => [[0.6, 0.6], ...Array.from({ length: 9 }, (_, b) => [1.9 + b * 0.01, 0.6 + n])];
  const before = { t: "snapshot", seq: 1, view: { table: { balls: [[1.0, 0.5], null, null, null, null, null, null, null, null, [2.0, 0.6]], lowest: 9, score: [0, 0] } } };
  const final = [[1.5, 0.4], null, null, null, null, null, null, null, null, null];
  const winning = { ...lastShot, seq: 2, verdict: { ...verdict, match_over: false }, final, table: { ...lastShot.table, balls: rack(0), lowest: 1, score: [1, 0] } };
  const events = [
    before,
    winning,
    { t: "game_over", seq: 3, winner: 0, rack: 1, reason: "nine", score: [1, 0] },
    { t: "placed", seq: 4, seat: 1, pos: [0.5, 0.5] },
  ];
  assert.deepEqual(tableAfter(events, 0)?.balls, before.view.table.balls);
  // The shot's line and the game's result: the 9 down, the cue ball where it stopped.
  for (const i of [1, 2]) {
    const table = tableAfter(events, i);
    assert.deepEqual(table?.balls, final, `event ${i}`);
    assert.deepEqual(table?.score, [1, 0]);
  }
  // Then the new rack, the next breaker's cue ball placed on it.
  const after = tableAfter(events, 3);
  assert.deepEqual(after?.balls.slice(1), rack(0).slice(1));
  assert.deepEqual(after?.balls[0], [0.5, 0.5]);
  // A game conceded: its line shows the balls where they lay, the next event the new rack.
  const conceded = { t: "ruling", seq: 2, by: 1, action: "concede_game", verdict: { ...verdict, match_over: false, game_end: "concede" }, table: { ...lastShot.table, balls: rack(0), lowest: 1, score: [1, 0] } };
  const afterConcede = [before, conceded, { t: "game_over", seq: 3, winner: 0, rack: 1, reason: "concede", score: [1, 0] }, { t: "placed", seq: 4, seat: 1, pos: [0.5, 0.5] }];
  assert.deepEqual(tableAfter(afterConcede, 1)?.balls, before.view.table.balls);
  assert.deepEqual(tableAfter(afterConcede, 2)?.balls, before.view.table.balls);
  assert.deepEqual(tableAfter(afterConcede, 3)?.balls.slice(1), rack(0).slice(1));
  // The next event is described by the next rack's lowest ball.
  assert.equal(tableAfter(events, 2)?.lowest, 1);
  // A shot that does not end a game shows its own table, as before.
  const plain = { ...winning, verdict: { ...verdict, game_over: false, match_over: false } };
  assert.deepEqual(tableAfter([before, plain], 1)?.balls, rack(0));
});

test("the lag's balls stay on the replay's table until the winner's choice brings the rack", () => {
  const lag = { t: "lag_result", seq: 2, method: "lag", winner: 1, lags: [{ seat: 0, distance: 0.3, fault: "" }, { seat: 1, distance: 0.1, fault: "" }] };
  const events = [
    { t: "snapshot", seq: 0, view: { status: "lag", table: null } },
    { t: "presence", seq: 1, seat: 1, connected: true },
    lag,
    { t: "snapshot", seq: 3, view: { status: "lag", lag_choice: 1, table: null } }, // waiting for Bob's choice
    { t: "chat", seq: 4, name: "Ana", text: "nice lag" },
    { t: "ruling", seq: 5, by: 1, action: "lag_choice", verdict: null, table: { turn: 1, balls: [] } },
  ];
  assert.equal(lagShownAt(events, 1), null); // before it was played
  assert.equal(lagShownAt(events, 2), lag);
  assert.equal(lagShownAt(events, 3), lag); // the replay had emptied the table here
  assert.equal(lagShownAt(events, 4), lag);
  assert.equal(lagShownAt(events, 5), null); // the rack is on the table
  // A lag played again: its own balls, not the first one's.
  const again = { ...lag, seq: 6, winner: null, lags: [{ seat: 0, distance: 0.2, fault: "" }, { seat: 1, distance: 0.2, fault: "" }] };
  assert.equal(lagShownAt([...events.slice(0, 4), again], 4), again);
});

test("a spectator's chat line says so in the replay, as at the table", () => {
  setLanguage("en", false);
  assert.equal(describeEvent({ t: "chat", seq: 4, seat: null, name: "Vera", text: "nice" }, names).text, `${t("chat.watching", { name: "Vera" })}: nice`);
  assert.equal(describeEvent({ t: "chat", seq: 5, seat: 1, name: "Bob", text: "thanks" }, names).text, "Bob: thanks");
  assert.ok(t("chat.watching", { name: "Vera" }).startsWith("Vera "));
});

test("a shared moment is an event the list numbers; anything else opens at the start", () => {
  assert.equal(momentOf("?at=5", 12), 5);
  assert.equal(momentOf("?lang=hr&at=12&rate=2", 12), 12);
  for (const search of ["", "?at=13", "?at=0", "?at=-2", "?at=2.5", "?at=x", "?at=1e3", "?at=0005"]) assert.equal(momentOf(search, 12), null, search);
});
