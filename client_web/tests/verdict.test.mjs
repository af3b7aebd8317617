import assert from "node:assert/strict";
import { test } from "node:test";

import { ballList, describeLag, describeRuling, describeShot, foulReasons } from "../verdict.mjs";

const names = ["Ana", "Bob"];
const baseVerdict = {
  foul: false,
  fouls: [],
  reasons: [],
  notes: [],
  spotted: [],
  game_over: false,
  game_winner: null,
  game_end: null,
  match_over: false,
  match_winner: null,
  new_rack: false,
  warned: null,
  stalemate: false,
};
const table = (turn, bih = null, choice = false) => ({ turn, ball_in_hand: bih, choice_pending: choice, breaker: 0 });
const shot = (over) => ({
  shooter: 0,
  shot: { push_out: false },
  miscue: false,
  report: { first: 1, pocketed: [], rails: [], off_table: [] },
  verdict: baseVerdict,
  table: table(1),
  ...over,
});

test("R9 foul names the rule and who has ball in hand", () => {
  const d = describeShot(
    shot({
      verdict: { ...baseVerdict, foul: true, fouls: ["R9"], reasons: [["R9", "no rail after contact"]] },
      table: table(1, "table"),
    }),
    names,
  );
  assert.equal(d.headline, "Foul: no rail after contact (R9) — ball in hand for Bob");
  assert.equal(d.tone, "foul");
});

test("R8 and G1 fouls together are one line; rule ids alone still read as words", () => {
  const d = describeShot(
    shot({ verdict: { ...baseVerdict, foul: true, fouls: ["R8", "G1"], reasons: [] }, table: table(1, "table") }),
    names,
  );
  assert.equal(d.headline, "Foul: wrong ball first (R8); scratch: the cue ball went in or off the table (G1) — ball in hand for Bob");
  assert.deepEqual(foulReasons({ foul: true, reasons: [["R8", "hit the 5 first"]] }), [["R8", "hit the 5 first"]]);
});

test("legal pot keeps the shooter at the table (R1)", () => {
  const d = describeShot(shot({ report: { first: 1, pocketed: [3, 5], rails: [] }, table: table(0) }), names);
  assert.equal(d.headline, "Ana pockets the 3 and the 5 — Ana shoots again");
  assert.equal(d.tone, "good");
});

test("miss passes the turn; no contact is said plainly", () => {
  assert.equal(describeShot(shot({}), names).headline, "No ball pocketed — Bob to shoot");
});

test("R6 push-out offers the incoming player the choice", () => {
  const d = describeShot(shot({ shot: { push_out: true }, table: table(1, null, true) }), names);
  assert.equal(d.headline, "Ana pushes out (R6) — Bob chooses: shoot or pass");
});

test("G5 the 9 on a legal shot wins the rack; notes carry their rule ids", () => {
  const d = describeShot(
    shot({
      report: { first: 1, pocketed: [9], rails: [] },
      verdict: { ...baseVerdict, game_over: true, game_winner: 0, game_end: "nine", notes: [["G5", "Ana wins the rack"]] },
      table: table(0, "kitchen"),
    }),
    names,
  );
  assert.equal(d.headline, "Ana wins the rack: the 9 pocketed on a legal shot (G5)");
  assert.deepEqual(d.details, ["Ana wins the rack (G5)"]);
  assert.equal(d.tone, "win");
});

test("R13 third foul loses the game and the foul is still explained", () => {
  const d = describeShot(
    shot({
      verdict: {
        ...baseVerdict,
        foul: true,
        fouls: ["R8"],
        reasons: [["R8", "wrong ball first"]],
        game_over: true,
        game_winner: 1,
        game_end: "three_fouls",
      },
    }),
    names,
  );
  assert.equal(d.headline, "Bob wins the rack: three consecutive fouls by the opponent (R13)");
  assert.equal(d.details[0], "Foul: wrong ball first (R8)");
});

test("G3 spotted 9 is mentioned when the server gives no note", () => {
  const d = describeShot(shot({ verdict: { ...baseVerdict, foul: true, fouls: ["G1"], spotted: [9] }, table: table(1, "table") }), names);
  assert.ok(d.details.some((l) => l.includes("(G3)")));
});

test("rulings: R6 choice, R14 stalemate, O3 clock foul, O4 concession", () => {
  assert.equal(
    describeRuling({ by: 1, action: "choose_pass", verdict: null, table: table(0) }, names).headline,
    "Bob passes the shot back — Ana to shoot (R6)",
  );
  assert.equal(
    describeRuling({ by: 0, action: "stalemate_propose", verdict: null, table: table(0) }, names).headline,
    "Ana proposes a stalemate (R14) — Bob may accept",
  );
  assert.equal(
    describeRuling(
      { by: 0, action: "clock_expired", verdict: { ...baseVerdict, foul: true, fouls: ["O3"], reasons: [["O3", "the shot clock ran out"]] }, table: table(1, "table") },
      names,
    ).headline,
    "Foul: the shot clock ran out (O3) — ball in hand for Bob",
  );
  assert.match(describeRuling({ by: 0, action: "concede_game", verdict: null, table: table(1) }, names).headline, /Ana concedes the game \(O4\)/);
  assert.match(
    describeRuling({ by: 1, action: "stalemate_accept", verdict: null, table: table(0) }, names).headline,
    /^Bob accepts: stalemate warning in force \(R14\)/,
  );
});

test("ball lists and the lag", () => {
  assert.equal(ballList([4]), "the 4");
  assert.equal(ballList([1, 2, 3]), "the 1, the 2 and the 3");
  assert.equal(
    describeLag({ method: "lag", winner: 1, lags: [{ seat: 0, distance: null, fault: "no foot rail" }, { seat: 1, distance: 0.12, fault: "" }] }, names),
    "Bob wins the lag and chooses who breaks (R3, O6). Ana: no foot rail, Bob: 12.0 cm from the head rail",
  );
});

test("R3 the lag winner chooses who breaks the first game", () => {
  assert.equal(describeLag({ method: "draw", winner: 0, lags: [] }, names), "Ana wins the draw and chooses who breaks (R3, O6)");
  const first = (/** @type {number} */ breaker) => ({ turn: breaker, ball_in_hand: "kitchen", choice_pending: false, breaker });
  assert.equal(
    describeRuling({ by: 0, action: "lag_choice", verdict: null, table: first(0) }, names).headline,
    "Ana chooses to break the first game (R3)",
  );
  assert.equal(
    describeRuling({ by: 0, action: "lag_choice", verdict: null, table: first(1) }, names).headline,
    "Ana lets Bob break the first game (R3)",
  );
});
