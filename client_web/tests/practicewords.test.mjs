import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage } from "../i18n/index.mjs";
import { bannerAction, drillGoal, drillWords, keptRun, previewWords, runAfterChange, setOutAgain, shotWords, statusWords, tipWords } from "../practicewords.mjs";

setLanguage("en");

const table = (extra = {}) => ({ balls: [[0.5, 0.6], [1.9, 0.6]], is_break: false, in_hand: null, rules: false, ghost: null, player: "Ana", ...extra });
const me = { player: true, picked: null, touch: true, note: "", goal: false, preview: "" };
const foulShot = { report: { pocketed: [0], off_table: [] }, verdict: { foul: true, fouls: ["scratch"], reasons: ["scratch"], notes: [], game_over: false }, miscue: false };

test("a drill set up heads the banner with its goal alone: it says what to do", () => {
  const v = table({ in_hand: "kitchen", drill: "spot_shot" });
  const said = statusWords(v, { ...me, note: drillGoal("spot_shot"), goal: true });
  assert.equal(said.note, "The 1 on the foot spot, cue ball in hand behind the head string: pot the 1 in a corner pocket.");
  assert.equal(said.next, "");
  // With the preview on, its outcome follows the goal.
  assert.equal(statusWords(v, { ...me, note: drillGoal("spot_shot"), goal: true, preview: "Preview: pots 1" }).next, "Preview: pots 1");
  // Once it is under way, the cue ball in hand is played from behind the head string, as
  // the goal says, with or without the referee.
  assert.equal(statusWords(v, me).next, "Cue ball in hand behind the head string: drag it there, then aim and shoot.");
  assert.equal(drillGoal(null), "");
  assert.equal(drillGoal("nonsense"), "");
});

test("a foul just made heads the banner, then placing the ball in hand; the preview once it is placed", () => {
  const foul = shotWords(foulShot, 1);
  assert.equal(foul.tone, "foul");
  assert.ok(foul.text.startsWith("Foul: "), foul.text);
  const inHand = table({ in_hand: "table" });
  assert.deepEqual(statusWords(inHand, { ...me, note: foul.text, preview: "Preview: pots 1" }), { note: foul.text, next: "Cue ball in hand: drag it anywhere, then aim and shoot." });
  // The ball moved (the note gone with the change): the preview says where the shot goes.
  assert.deepEqual(statusWords(inHand, { ...me, preview: "Preview: pots 1" }), { note: "", next: "Preview: pots 1" });
});

test("a miscue is said first, in the result and in the preview", () => {
  const said = shotWords({ ...foulShot, miscue: true }, 1);
  assert.ok(said.text.startsWith("Miscue: the tip slipped off the cue ball. Foul: "), said.text);
  const preview = previewWords({ report: { pocketed: [] }, verdict: null, miscue: true }, 1);
  // Foreseen by the preview, it is said as what would happen, not as one just made.
  assert.equal(preview, "Preview: the tip would slip off the cue ball (a miscue).");
});

test("a scratch with the referee off is a scratch, not 'nothing pocketed'", () => {
  const said = shotWords({ report: { pocketed: [0], off_table: [] }, verdict: null, miscue: false }, null);
  assert.deepEqual(said, { text: "Scratch: the cue ball went down.", tone: "foul" });
  const both = shotWords({ report: { pocketed: [3, 0], off_table: [] }, verdict: null, miscue: false }, null);
  assert.equal(both.text, "Pocketed: 3. Scratch: the cue ball went down.");
});

test("the ghost's rack just decided: the banner says who has it; after an undo, how to shoot", () => {
  const lost = statusWords(table({ ghost: { won: 0, lost: 1, rack: "lost" } }), { ...me, note: "Foul: x" });
  assert.ok(lost.next.startsWith("Racks: you 0, the ghost 1. The ghost takes this rack"), lost.next);
  const won = statusWords(table({ ghost: { won: 1, lost: 0, rack: "won" } }), { ...me, note: "The 9 on a legal shot: rack won!" });
  assert.deepEqual(won, { note: "The 9 on a legal shot: rack won!", next: "Racks: you 1, the ghost 0. This rack is yours. Start the next one when you are ready." });
  const undone = statusWords(table({ ghost: { won: 0, lost: 1, rack: "lost" } }), me);
  assert.equal(undone.next, "Tap to aim; to shoot, pull the strip at the right edge down.");
});

test("a break says how to shoot on a phone; a table cleared says how to play it again", () => {
  assert.equal(statusWords(table({ is_break: true, in_hand: "kitchen" }), me).next, "The break: tap to aim; to shoot, pull the strip at the right edge down.");
  assert.equal(statusWords(table({ is_break: true, in_hand: "kitchen" }), { ...me, touch: false }).next, "The break: aim and shoot.");
  // With the preview on too: how to break, not the preview's outcome of a break.
  assert.equal(statusWords(table({ is_break: true, in_hand: "kitchen" }), { ...me, preview: "Preview: nothing goes down" }).next, "The break: tap to aim; to shoot, pull the strip at the right edge down.");
  const cleared = statusWords(table({ balls: [[0.5, 0.6], null, null] }), { ...me, note: "Pocketed: 1" });
  assert.equal(cleared.next, "Every ball is down. Retry shot puts the balls back as they stood before the last shot; a drill or the balls off the table set up more.");
});

test("placing a ball and watching say only that", () => {
  assert.deepEqual(statusWords(table(), { ...me, picked: 1, note: "Foul: x" }), { note: "", next: "Picked:\u00a0the 1. Tap where it goes." });
  assert.equal(statusWords(table(), { ...me, picked: 3 }).next, "Picked:\u00a0the 3. Tap the table where it goes.");
  assert.equal(statusWords(table(), { ...me, player: false }).next, "Watching Ana practise");
  assert.equal(statusWords(null, me).next, "Setting up the table…");
});

test("the 9 on the break is said for what it is, with the rules off too", () => {
  setLanguage("en");
  const broke = { report: { pocketed: [3, 9], off_table: [], first: 1 }, verdict: null, miscue: false };
  assert.deepEqual(shotWords(broke, 1, true), { text: "The 9 on the break (pocketed: 3, 9): in a match, that wins the rack!", tone: "good" });
  // Not a break: only what went down; a scratch with it is no win.
  assert.equal(shotWords(broke, 1, false).text, "Pocketed: 3, 9");
  const scratched = { ...broke, report: { pocketed: [0, 9], off_table: [], first: 1 } };
  assert.equal(shotWords(scratched, 1, true).text, "Pocketed: 9. Scratch: the cue ball went down.");
  // Nor a break that hit another ball before the 1 (a foul in a match: the 9 comes back up).
  assert.equal(shotWords({ ...broke, report: { ...broke.report, first: 4 } }, 1, true).text, "Pocketed: 3, 9");
  setLanguage("ru");
  assert.equal(shotWords(broke, 1, true).text, "Девятка с разбития (забито: 3, 9): в матче это выигранная партия!");
  setLanguage("en");
});

test("the tip's place is worded on each slider, both warned past where the tip holds", () => {
  setLanguage("en");
  assert.deepEqual(tipWords(0, 0), { spin: "centre ball", side: "none" });
  assert.deepEqual(tipWords(-0.3, 0), { spin: "draw 30 %", side: "none" });
  assert.deepEqual(tipWords(0.6, 0.6), { spin: "follow 60 % — miscue risk", side: "right 60 % — miscue risk" });
});

test("a drill's goal met is said with the shot's result; a foul, a scratch, a miss on the way or another drill meets none", () => {
  const after = (balls, drill) => ({ balls, drill, is_break: false, in_hand: null, rules: false, ghost: null, player: "Ana" });
  const cleared = [[0.5, 0.6], null, null, null, null, null, null, null, null, null];
  const shot = (report, view, verdict = null) => ({ report: { first: null, rails: [], pocketed: [], off_table: [], ...report }, verdict, miscue: false, view });
  const words = (...args) => drillWords(...args).text;
  // The spot shot: the 1 down.
  const spot = shotWords(shot({ first: 1, pocketed: [1] }, after(cleared, "spot_shot")), 1);
  assert.deepEqual(spot, { text: "Pocketed: 1. Spot shot made — well done!", tone: "good" });
  // …but not with the cue ball after it, nor in free play.
  assert.equal(words("spot_shot", shot({ first: 1, pocketed: [1, 0] }, after(cleared, "spot_shot")), 1), "");
  assert.equal(words(null, shot({ first: 1, pocketed: [1] }, after(cleared, null)), 1), "");
  // The kick: the 1 reached first (and pocketed, or not); the 2 first is told it missed.
  const standing = [[0.5, 0.6], [2.2, 0.3], [1.45, 0.47], null, null, null, null, null, null, [1.9, 0.95]];
  assert.deepEqual(shotWords(shot({ first: 1, rails: [0, 1] }, after(standing, "kick")), 1), { text: "The cue ball reached the 1 first — well done!", tone: "good" });
  assert.equal(words("kick", shot({ first: 1, pocketed: [1] }, after(cleared, "kick")), 1), "The cue ball reached the 1 first, and the 1 went in — well done!");
  assert.deepEqual(shotWords(shot({ first: 2 }, after(standing, "kick")), 1), { text: "Nothing pocketed. The cue ball did not reach the 1 first: Retry shot sets the kick up again.", tone: "" });
  // A foul the referee called says why itself.
  const foul = { foul: true, fouls: ["R8"], reasons: [["R8", "wrong ball"]], notes: [], game_over: false };
  assert.equal(words("kick", shot({ first: 2 }, after(standing, "kick"), foul), 1), "");
  // The three-ball run: done when its last ball goes down off the lowest and no shot of
  // the run missed; cleared with a miss on the way, it is told so.
  const last = shot({ first: 9, pocketed: [9] }, after(cleared, "three_ball"));
  assert.equal(shotWords(last, 9).text, "Pocketed: 9. Table cleared without a miss — well done!");
  assert.deepEqual(shotWords(last, 9, false, false), { text: "Pocketed: 9. Table cleared, but not in one run: “Set up again” puts the balls back to run it without a miss.", tone: "" });
  const left = [[0.5, 0.6], null, null, null, null, null, null, null, [2.0, 1.0], [1.0, 0.9]];
  assert.equal(words("three_ball", shot({ first: 7, pocketed: [7] }, after(left, "three_ball")), 7), "");
  // A miss says the run is over, once (the run then no longer clean).
  assert.equal(words("three_ball", shot({ first: 7 }, after(left, "three_ball")), 7), "That ends the run: “Set up again” puts the balls back to run it without a miss.");
  assert.equal(words("three_ball", shot({ first: 7 }, after(left, "three_ball")), 7, { clean: false }), "");
  assert.equal(words("three_ball", shot({ first: 9, pocketed: [8, 9] }, after(cleared, "three_ball")), 8), "That ends the run: “Set up again” puts the balls back to run it without a miss."); // (not off the lowest)
  // What keeps a run going, and where one starts afresh.
  assert.ok(keptRun(shot({ first: 7, pocketed: [7] }, null), 7));
  assert.ok(!keptRun(shot({ first: 7 }, null), 7) && !keptRun(shot({ first: 8, pocketed: [8] }, null), 7));
  assert.ok(!setOutAgain(after(left), after([[1, 1], ...left.slice(1)])));
  assert.ok(setOutAgain(after(left), after(cleared)) && setOutAgain(null, after(left)));
  // The break drill's break says how to break again; the board cleared in the run says what next.
  assert.equal(words("break", shot({ first: 1, pocketed: [3] }, after(left, "break")), 1, { wasBreak: true }), "Retry shot racks the same balls for another break.");
  assert.equal(statusWords(after(cleared, "three_ball"), { ...me, note: "x" }).next, "Set the drill up again, then add a ball from the ones off the table to make the run harder.");
  // The ghost's rack decided: its score with it.
  const ghost = { ...after(left, "nine_ghost"), ghost: { won: 0, lost: 1, rack: "lost" } };
  assert.ok(statusWords(ghost, { ...me, note: "x" }).next.startsWith("Racks: you 0, the ghost 1. "));
  // The kick judged while the 1 is on the table only: once it is down, no "missed".
  assert.equal(words("kick", shot({ first: 9 }, after(cleared, "kick")), 9), "");
  // A run: set out afresh by the drill, a link or an object ball put on; broken by a shot
  // played again or taken back; a cue ball placed or taken back changes nothing.
  const moved = after([[1, 1], ...left.slice(1)]);
  assert.equal(runAfterChange(false, "drill", after(left), after(left)), true);
  assert.equal(runAfterChange(false, "put", after(left), after(cleared)), true);
  assert.equal(runAfterChange(false, "put", after(left), moved), false);
  assert.equal(runAfterChange(true, "put", after(left), moved), true);
  assert.equal(runAfterChange(true, "retry", after(left), after(left)), false);
  assert.equal(runAfterChange(true, "undo", after(cleared), after(left)), false);
  assert.equal(runAfterChange(true, "redo", after(left), after(cleared)), false);
  assert.equal(runAfterChange(true, "undo", moved, after(left)), true);
  assert.equal(runAfterChange(true, "rules", after(left), after(left)), true);
  // The cue ball moved by hand: before the run's first shot, nothing; after it, the run ends.
  assert.equal(runAfterChange(true, "put", after(left), moved), true);
  assert.equal(runAfterChange(true, "put", after(left), moved, true), false);
});

test("the banner offers the ghost's next rack once it is decided, and a three-ball run again once it is over", () => {
  const shot = { player: true, shot: true, clean: true };
  const ghost = (rack) => table({ drill: "nine_ghost", ghost: { won: 0, lost: 1, rack } });
  assert.deepEqual(bannerAction(ghost("lost"), shot), { label: "practice.ghost.next", drill: "nine_ghost" });
  assert.deepEqual(bannerAction(ghost("won"), shot), { label: "practice.ghost.next", drill: "nine_ghost" });
  assert.equal(bannerAction(ghost("playing"), shot), null);
  const run = table({ drill: "three_ball" });
  assert.equal(bannerAction(run, shot), null); // a run still going
  assert.deepEqual(bannerAction(run, { ...shot, clean: false }), { label: "practice.drillAgain", drill: "three_ball" });
  assert.deepEqual(bannerAction(table({ drill: "three_ball", balls: [[0.5, 0.6], null] }), shot), { label: "practice.drillAgain", drill: "three_ball" });
  // Nothing for a drill's goal just set, for a spectator, for a drill of one shot (Retry
  // sets it up again), nor without a drill.
  assert.equal(bannerAction(ghost("lost"), { ...shot, shot: false }), null);
  assert.equal(bannerAction(ghost("lost"), { ...shot, player: false }), null);
  assert.equal(bannerAction(table({ drill: "kick" }), { ...shot, clean: false }), null);
  assert.equal(bannerAction(table(), { ...shot, clean: false }), null);
});
