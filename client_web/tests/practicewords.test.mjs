import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage } from "../i18n/index.mjs";
import { drillGoal, shotWords, statusWords } from "../practicewords.mjs";

setLanguage("en");

const table = (extra = {}) => ({ balls: [[0.5, 0.6], [1.9, 0.6]], is_break: false, in_hand: null, rules: false, ghost: null, player: "Ana", ...extra });
const me = { player: true, picked: null, touch: true, note: "", goal: false, preview: "" };

test("a drill set up heads the banner with its goal alone: it says what to do", () => {
  const v = table({ in_hand: "kitchen", drill: "spot_shot" });
  const said = statusWords(v, { ...me, note: drillGoal("spot_shot"), goal: true });
  assert.equal(said.note, "The 1 on the foot spot, cue ball in hand behind the head string: pot the 1 in a corner pocket.");
  assert.equal(said.next, "");
  // Once it is under way, the cue ball in hand is played from behind the head string, as
  // the goal says, with or without the referee.
  assert.equal(statusWords(v, me).next, "Cue ball in hand behind the head string: drag it there, then aim and shoot.");
  assert.equal(drillGoal(null), "");
  assert.equal(drillGoal("nonsense"), "");
});

test("a foul just made heads the banner; a preview of the next shot comes under it", () => {
  const shot = { report: { pocketed: [0], off_table: [] }, verdict: { foul: true, fouls: ["scratch"], reasons: ["scratch"], notes: [], game_over: false } };
  const foul = shotWords(shot, 1);
  assert.equal(foul.tone, "foul");
  assert.ok(foul.text.startsWith("Foul: "), foul.text);
  assert.deepEqual(statusWords(table({ in_hand: "table" }), { ...me, note: foul.text, preview: "Preview: pots 1" }), { note: foul.text, next: "Preview: pots 1" });
  assert.deepEqual(statusWords(table({ in_hand: "table" }), { ...me, note: foul.text }), { note: foul.text, next: "Cue ball in hand: drag it anywhere, then aim and shoot." });
});

test("the ghost's rack decided: the banner says who has it, not 'aim and shoot'", () => {
  const lost = statusWords(table({ ghost: { won: 0, lost: 1, rack: "lost" } }), me);
  assert.ok(lost.next.startsWith("The ghost takes this rack"), lost.next);
  const won = statusWords(table({ ghost: { won: 1, lost: 0, rack: "won" } }), { ...me, note: "The 9 on a legal shot: rack won!" });
  assert.deepEqual(won, { note: "The 9 on a legal shot: rack won!", next: "This rack is yours. Start the next one when you are ready." });
});

test("placing a ball and watching say only that", () => {
  assert.deepEqual(statusWords(table(), { ...me, picked: 1, note: "Foul: x" }), { note: "", next: "the 1 picked: tap where it goes." });
  assert.equal(statusWords(table(), { ...me, picked: 3 }).next, "the 3 picked: tap the table where it goes.");
  assert.equal(statusWords(table(), { ...me, player: false }).next, "Watching Ana practise");
  assert.equal(statusWords(null, me).next, "Setting up the table…");
});
