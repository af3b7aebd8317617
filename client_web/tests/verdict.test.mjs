import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage } from "../i18n/index.mjs";
import { ballList, describeEnd, describeLag, describeRuling, describeShot, describeSnapshot, describeWarning, forLog, foulReasons } from "../verdict.mjs";

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

test("R9 foul in plain words, the rule apart, and who has ball in hand", () => {
  const d = describeShot(
    shot({
      verdict: { ...baseVerdict, foul: true, fouls: ["R9"], reasons: [["R9", "No object ball was pocketed and no ball reached a rail after the first contact"]] },
      table: table(1, "table"),
    }),
    names,
  );
  assert.equal(d.headline, "Foul by Ana: no ball reached a cushion after the hit, and none was pocketed — ball in hand for Bob");
  assert.deepEqual(d.rules, ["R9"]);
  assert.equal(d.tone, "foul");
});

test("R8 names the ball hit and the ball to hit; R8 and G1 together are one line", () => {
  const d = describeShot(
    shot({
      report: { first: 5, pocketed: [0], rails: [], off_table: [] },
      verdict: {
        ...baseVerdict,
        foul: true,
        fouls: ["R8", "G1"],
        reasons: [["R8", "The cue ball first contacted the 5, not the lowest ball (the 2)"], ["G1", "The cue ball was pocketed"]],
      },
      table: table(1, "table"),
    }),
    names,
    2,
  );
  // The first reason in the line, the others under it.
  assert.equal(d.headline, "Foul by Ana: the cue ball hit the 5 first, not the 2 — ball in hand for Bob");
  assert.deepEqual(d.rules, ["R8"]);
  assert.deepEqual(d.details[0], { text: "The cue ball went in a pocket", rule: "G1" });
  // Without the sentences, the rule ids and the report still give the words.
  const bare = describeShot(shot({ report: { first: null, pocketed: [], rails: [] }, verdict: { ...baseVerdict, foul: true, fouls: ["R8"] }, table: table(1, "table") }), names);
  assert.equal(bare.headline, "Foul by Ana: the cue ball hit no ball — ball in hand for Bob");
  assert.deepEqual(foulReasons({ foul: true, reasons: [["R4", "The break pocketed no ball and drove only 2 numbered balls to a rail (four are needed)"]] }), [
    ["R4", "illegal break: no ball went in and only 2 reached a cushion (four are needed)"],
  ]);
});

test("R7 balls made on a foul are said to stay down; the 9 has its own note", () => {
  const scratch = { ...baseVerdict, foul: true, fouls: ["G1"], reasons: [["G1", "The cue ball was pocketed"]] };
  const d = describeShot(shot({ report: { first: 1, pocketed: [2, 0], rails: [], off_table: [] }, verdict: scratch, table: table(1, "table") }), names);
  assert.equal(d.headline, "Foul by Ana: the cue ball went in a pocket — ball in hand for Bob");
  assert.deepEqual(d.details, [{ text: "The 2 stays down", rule: "R7" }]);
  const two = describeShot(shot({ report: { first: 1, pocketed: [0, 6, 2, 9], rails: [], off_table: [] }, verdict: scratch, table: table(1, "table") }), names);
  assert.deepEqual(two.details.map((line) => line.text), ["The 2 and 6 stay down"]);
  setLanguage("ru");
  try {
    assert.equal(describeShot(shot({ report: { first: 1, pocketed: [2, 0], rails: [], off_table: [] }, verdict: scratch, table: table(1, "table") }), names).details[0].text, "Шар 2 остаётся в лузе");
  } finally {
    setLanguage("en");
  }
});

test("legal pot keeps the shooter at the table (R1)", () => {
  const d = describeShot(shot({ report: { first: 1, pocketed: [3, 5], rails: [] }, table: table(0) }), names);
  assert.equal(d.headline, "Ana pockets the 3 and 5 — and shoots again");
  assert.equal(d.tone, "good");
});

test("miss passes the turn; no contact is said plainly", () => {
  assert.equal(describeShot(shot({}), names).headline, "Ana pockets no ball — Bob to shoot");
  assert.equal(describeShot(shot({ report: { first: null, pocketed: [], rails: [] } }), names).headline, "No ball hit — Bob to shoot");
});

test("a shot's verdict says whose shot is next when its headline names them, and only then", () => {
  // (the prompt under it then does not name them again)
  assert.equal(describeShot(shot({}), names).next, 1); // "No ball pocketed — Bob to shoot"
  assert.equal(describeShot(shot({ report: { first: 1, pocketed: [3], rails: [] }, table: table(0) }), names).next, 0); // "… and shoots again"
  const foul = { ...baseVerdict, foul: true, fouls: ["R8"], reasons: [["R8", "wrong ball"]] };
  assert.equal(describeShot(shot({ verdict: foul, table: table(1, "table") }), names).next, 1); // "ball in hand for Bob"
  const won = { ...baseVerdict, game_over: true, game_winner: 0, game_end: "nine" };
  assert.equal(describeShot(shot({ report: { first: 9, pocketed: [9], rails: [] }, verdict: won, table: table(1, "kitchen") }), names).next, undefined); // the winner named, not the breaker
});

test("R5 a legal break is named the break, in every language", () => {
  const legal = { ...baseVerdict, notes: [["R5", "Legal break: the next shot may be played as a push-out"]] };
  assert.equal(describeShot(shot({ verdict: legal }), names).headline, "Ana breaks, no ball pocketed — Bob to shoot");
  const made = describeShot(shot({ report: { first: 1, pocketed: [7, 2], rails: [] }, verdict: legal, table: table(0) }), names);
  // Listed by number, whatever order they dropped in.
  assert.equal(made.headline, "Ana breaks and pockets the 2 and 7 — and shoots again");
  // The note under it still says what the break allows.
  assert.ok(made.details.some((l) => l.rule === "R5"));
  setLanguage("hr");
  assert.equal(describeShot(shot({ verdict: legal }), names).headline, "Ana otvara, nijedna kugla nije ubačena — na potezu je Bob");
  setLanguage("ru");
  assert.equal(describeShot(shot({ report: { first: 1, pocketed: [7], rails: [] }, verdict: legal, table: table(0) }), names).headline, "Ana разбивает и забивает шар 7 — бьёт дальше");
  setLanguage("en");
  // Not the break: as before.
  assert.equal(describeShot(shot({}), names).headline, "Ana pockets no ball — Bob to shoot");
});

test("R6 push-out offers the incoming player the choice", () => {
  const d = describeShot(shot({ shot: { push_out: true }, table: table(1, null, true) }), names);
  assert.equal(d.headline, "Ana pushes out — Bob chooses: shoot, or pass it back");
  assert.deepEqual(d.rules, ["R6"]);
});

test("G5 the 9 on a legal shot wins the game; notes are worded by the client, the headline's own not again", () => {
  const d = describeShot(
    shot({
      report: { first: 1, pocketed: [9], rails: [] },
      verdict: {
        ...baseVerdict,
        game_over: true,
        game_winner: 0,
        game_end: "nine",
        notes: [
          ["G5", "The 9 was pocketed on a legal shot: the game is won"],
          ["R3", "The winner of the game breaks the next one"],
        ],
        note_codes: [null, "R3.winner"],
      },
      table: table(0, "kitchen"),
    }),
    names,
  );
  assert.equal(d.headline, "Ana wins the game: the 9 pocketed on a legal shot");
  assert.deepEqual(d.rules, ["G5"]);
  assert.deepEqual(d.details, [{ text: "The winner of the game breaks the next one", rule: "R3" }]);
  assert.equal(d.tone, "win");
});

test("G5 the 9 on the break is said to be on the break, in every language", async () => {
  const nineOnBreak = shot({
    report: { first: 1, pocketed: [4, 9], rails: [2, 3] },
    verdict: {
      ...baseVerdict,
      game_over: true,
      game_winner: 0,
      game_end: "nine",
      notes: [["G5", "The 9 was pocketed on the break: the game is won"]],
      note_codes: ["G5.break"],
    },
    table: table(0, "kitchen"),
  });
  assert.equal(describeShot(nineOnBreak, names).headline, "Ana wins the game: the 9 on the break");
  assert.equal(describeShot(nineOnBreak, names, null, 0).headline, "You win the game: the 9 on the break");
  const expected = { hr: "Ana dobiva partiju: devetka iz otvaranja", ru: "Ana выигрывает партию: девятка с разбития" };
  try {
    for (const [lang, headline] of Object.entries(expected)) {
      await setLanguage(lang);
      assert.equal(describeShot(nineOnBreak, names).headline, headline);
    }
  } finally {
    await setLanguage("en");
  }
});

test("the result of a game won by the 9 on the break says so", () => {
  assert.equal(describeEnd("nineBreak"), "The 9 went down on the break.");
  assert.equal(describeEnd("nine"), "The 9 went down on a legal shot.");
});

test("R13 third foul loses the game and the foul is still explained", () => {
  const d = describeShot(
    shot({
      report: { first: null, pocketed: [], rails: [] },
      verdict: {
        ...baseVerdict,
        foul: true,
        fouls: ["R8"],
        reasons: [["R8", "The cue ball did not contact any object ball"]],
        game_over: true,
        game_winner: 1,
        game_end: "three_fouls",
        notes: [["R13", "Third consecutive foul: the game is lost"]],
        note_codes: ["R13.third"],
      },
    }),
    names,
  );
  assert.equal(d.headline, "Bob wins the game: three fouls in a row by Ana");
  assert.deepEqual(d.rules, ["R13"]);
  // On the loser's own screen it is theirs ("by the opponent" read as if Bob had fouled).
  const mine = describeShot(shot({ report: { first: null, pocketed: [], rails: [] }, verdict: { ...baseVerdict, foul: true, fouls: ["R8"], game_over: true, game_winner: 1, game_end: "three_fouls" } }), names, null, 0);
  assert.equal(mine.headline, "Bob wins the game: your three fouls in a row");
  assert.deepEqual(d.details[0], { text: "Foul: the cue ball hit no ball", rule: "R8" });
  // The third foul's note is not said again under the game it lost.
  assert.ok(!d.details.some((l) => l.rule === "R13"), JSON.stringify(d.details));
});

test("G3 spotted 9 is mentioned when the server gives no note", () => {
  const d = describeShot(shot({ verdict: { ...baseVerdict, foul: true, fouls: ["G1"], spotted: [9] }, table: table(1, "table") }), names);
  assert.ok(d.details.some((l) => l.rule === "G3"));
});

test("rulings: R6 choice, R14 stalemate, O3 clock foul, O4 concession", () => {
  const pass = describeRuling({ by: 1, action: "choose_pass", verdict: null, table: table(0) }, names);
  assert.equal(pass.headline, "Bob passes the shot back — Ana to shoot");
  assert.deepEqual(pass.rules, ["R6"]);
  assert.equal(
    describeRuling({ by: 0, action: "stalemate_propose", verdict: null, table: table(0) }, names).headline,
    "Ana proposes a stalemate warning — Bob may accept",
  );
  const clock = describeRuling(
    { by: 0, action: "clock_expired", verdict: { ...baseVerdict, foul: true, fouls: ["O3"], reasons: [["O3", "The shot clock ran out"]] }, table: table(1, "table") },
    names,
  );
  assert.equal(clock.headline, "Foul by Ana: the shot clock ran out — ball in hand for Bob");
  assert.deepEqual(clock.rules, ["O3"]);
  assert.match(describeRuling({ by: 0, action: "concede_game", verdict: null, table: table(1) }, names).headline, /^Ana concedes the game/);
  assert.match(describeRuling({ by: 1, action: "stalemate_accept", verdict: null, table: table(0) }, names).headline, /^Bob accepts: stalemate warning/);
});

test("O4/O5 a conceded or forfeited game says how once: not '— Bob wins the game: the opponent conceded'", () => {
  const over = { ...baseVerdict, game_over: true, game_winner: 1, match_over: false };
  const conceded = describeRuling({ by: 0, action: "concede_game", verdict: { ...over, game_end: "concede" }, table: table(1) }, names);
  assert.equal(conceded.headline, "Ana concedes the game — Bob wins the game");
  const match = describeRuling({ by: 0, action: "concede_match", verdict: { ...over, game_end: "concede", match_over: true }, table: table(1) }, names);
  assert.equal(match.headline, "Ana concedes the match — Bob wins the match");
  // The referee's note saying the match was conceded is the headline again: left out; a
  // note of another rule stays.
  const noted = { ...over, game_end: "concede", match_over: true, notes: [["O4", "The match was conceded"], ["G3", "The 9 was spotted"]], note_codes: ["O4.match", ""] };
  const said = describeRuling({ by: 0, action: "concede_match", verdict: noted, table: table(1) }, names);
  assert.deepEqual(said.details.map((line) => line.rule), ["G3"]);
  assert.deepEqual(describeRuling({ by: 0, action: "concede_match", verdict: { ...noted, notes: noted.notes.slice(0, 1), note_codes: ["O4.match"] }, table: table(1) }, names).details, []);
  const forfeit = describeRuling({ by: 0, action: "forfeit", verdict: { ...over, game_end: "forfeit" }, table: table(1) }, names);
  assert.ok(forfeit.headline.endsWith("— Bob wins the game"), forfeit.headline);
  assert.match(forfeit.headline, /^Ana stayed away too long/);
  // Forfeited before the lag (a tournament's no-show): the player never came, and the
  // lag's note, which matters to a match that goes on, is not said under a match over.
  const unplayed = { ...over, game_end: "forfeit", match_over: true, notes: [["O6", "The lag goes to the opponent of the player who gave up"]], note_codes: ["O6.gaveUp"] };
  const noShow = describeRuling({ by: 0, action: "forfeit", verdict: unplayed, table: table(1) }, names);
  assert.match(noShow.headline, /^Ana did not come to the table and loses — Bob wins the match/);
  assert.deepEqual(noShow.details, []);
  const gameOnly = describeRuling({ by: 0, action: "forfeit", verdict: { ...unplayed, match_over: false }, table: table(1) }, names);
  assert.deepEqual(gameOnly.details.map((line) => line.text), ["The lag goes to the opponent of the player who conceded or did not come"]);
  assert.match(describeRuling({ by: 0, action: "forfeit", verdict: unplayed, table: table(1) }, names, false, 0).headline, /^You did not come to the table and lose/);
});

test("ball lists and the lag", () => {
  assert.equal(ballList([4]), "4");
  assert.equal(ballList([1, 2, 3]), "1, 2, and 3");
  const lag = describeLag(
    { method: "lag", winner: 1, lags: [{ seat: 0, distance: null, fault: "the ball did not reach the foot rail" }, { seat: 1, distance: 0.12, fault: "" }] },
    names,
  );
  assert.equal(lag.headline, "Bob wins the lag and chooses who breaks");
  assert.deepEqual(lag.rules, ["R3", "O6"]);
  assert.deepEqual(
    lag.details.map((l) => l.text),
    ["Ana: the ball did not reach the far cushion", "Bob: 12.0 cm from the cushion"],
  );
  const close = describeLag({ method: "lag", winner: 0, lags: [{ seat: 0, distance: 0.054, fault: "" }, { seat: 1, distance: 0.103, fault: "" }] }, names);
  assert.equal(close.details[2].text, "Ana's ball stopped 4.9 cm closer to the cushion.");
  assert.equal(describeLag({ method: "lag", winner: null, lags: [] }, names).headline, "Lag again — no winner");
});

test("R3 the lag winner chooses who breaks the first game", () => {
  assert.equal(describeLag({ method: "draw", winner: 0, lags: [] }, names).headline, "Ana wins the draw and chooses who breaks");
  const first = (/** @type {number} */ breaker) => ({ turn: breaker, ball_in_hand: "kitchen", choice_pending: false, breaker });
  assert.equal(describeRuling({ by: 0, action: "lag_choice", verdict: null, table: first(0) }, names).headline, "Ana chooses to break the first game");
  assert.equal(describeRuling({ by: 0, action: "lag_choice", verdict: null, table: first(1) }, names).headline, "Ana lets Bob break the first game");
  // No choice in time: the winner breaks, and is not said to have chosen it (O6).
  const verdict = { notes: [["O6", "the lag is decided; its winner chose who breaks the first game"]], note_codes: ["O6.decided"] };
  const late = describeRuling({ by: 0, action: "lag_choice", verdict, table: first(0), late: true }, names);
  assert.equal(late.headline, "No choice in time: Ana breaks the first game");
  assert.deepEqual([late.rules, late.details], [["O6"], []]);
});

test("the end of a game and of a match are worded from the server's codes", () => {
  assert.equal(describeEnd("nine"), "The 9 went down on a legal shot.");
  assert.equal(describeEnd("race", 3), "First to 3 games.");
  assert.equal(describeEnd("race", 1), "First to 1 game.");
  assert.equal(describeEnd("something new"), "The game is over.");
});

test("a game lost by fouls, a concession or staying away names the one who lost it", async () => {
  const { setLanguage } = await import("../i18n/index.mjs");
  // What was conceded is said: "You conceded." under a game's result read as the match.
  assert.equal(describeEnd("concede", 0, "Ana"), "Ana concedes the game.");
  assert.equal(describeEnd("concede", 0, "Ana", false, true), "Ana concedes the match.");
  assert.equal(describeEnd("forfeit", 0, "Ana"), "Ana stayed away too long.");
  assert.equal(describeEnd("three_fouls", 0, "Ana"), "Three fouls in a row: Ana.");
  assert.equal(describeEnd("nine", 0, "Ana"), "The 9 went down on a legal shot.");
  assert.equal(describeEnd("concede"), "The opponent conceded.");
  try {
    setLanguage("hr", false);
    assert.equal(describeEnd("concede", 0, "Ana"), "Ana predaje partiju.");
    assert.equal(describeEnd("concede", 0, "Ana", true, true), "Predali ste meč.");
    setLanguage("ru", false);
    assert.equal(describeEnd("concede", 0, "Ана"), "Ана сдаёт партию.");
    assert.equal(describeEnd("concede", 0, "Ана", true), "Вы сдали партию.");
    assert.equal(describeEnd("three_fouls", 0, "Ана"), "У игрока Ана три фола подряд.");
  } finally {
    setLanguage("en", false);
  }
});

test("O6: after the room's draw the breaker's choice says the draw, after a lag the lag", () => {
  const verdict = { ...baseVerdict, notes: [["O6", "The lag is decided; its winner chose who breaks the first game"]], note_codes: ["O6.decided"] };
  const ruling = { by: 0, action: "lag_choice", verdict, table: { ...table(0, "kitchen"), breaker: 0 } };
  const lagged = describeRuling(ruling, names);
  assert.deepEqual(lagged.details, [{ text: "The lag is decided; its winner chose who breaks the first game", rule: "O6" }]);
  const drawn = describeRuling(ruling, names, true);
  assert.deepEqual(drawn.details, [{ text: "The draw is made; its winner chose who breaks the first game", rule: "O6" }]);
  assert.equal(drawn.headline, lagged.headline);
});

test("a snapshot in a replay says what changed: seats, readiness, a new name, rematch and the stage", () => {
  setLanguage("en", false);
  const ana = { seat: 0, player: "p-ana", name: "Ana", connected: true, ready: false };
  const bot = { seat: 1, player: "bot-1", name: "Bot 3", connected: true, ready: true, computer: 3 };
  const view = (status, seats, rematch = []) => ({ status, seats, rematch });
  const first = view("waiting", [ana, null]);
  assert.equal(describeSnapshot(first, null), "Ana sits down at the table. Waiting for players");
  const both = view("waiting", [ana, bot]);
  assert.equal(describeSnapshot(both, first), "Bot 3 sits down at the table");
  const ready = view("waiting", [{ ...ana, ready: true }, bot]);
  assert.equal(describeSnapshot(ready, both), "Ana is ready");
  assert.equal(describeSnapshot(view("lag", ready.seats), ready), "Lag for the break");
  const lagging = view("lag", ready.seats);
  assert.equal(describeSnapshot({ ...lagging, lagged: [0] }, lagging), "Ana has played the lag shot");
  // Both seated while waiting: the seats say it, not "waiting for players".
  assert.equal(describeSnapshot(both, null), "Ana sits down at the table. Bot 3 sits down at the table");
  // The lag (or the draw) won: the same stage, its winner to choose who breaks.
  const choosing = { ...view("lag", ready.seats), lag_choice: 1 };
  assert.equal(describeSnapshot(choosing, ready), "Waiting for Bot 3 to choose who breaks");
  assert.equal(describeSnapshot(choosing, view("lag", ready.seats)), "Waiting for Bot 3 to choose who breaks");
  const over = view("finished", ready.seats);
  assert.equal(describeSnapshot(view("finished", ready.seats, [1]), over), "Bot 3 asks for a rematch");
  assert.equal(describeSnapshot(view("finished", [null, bot]), over), "Ana leaves the table");
  // Someone else in the seat: one left, one sat down.
  const eve = { ...ana, player: "p-eve", name: "Eve" };
  assert.equal(describeSnapshot(view("waiting", [eve, bot]), both), "Ana leaves the table. Eve sits down at the table");
  // Nothing a reader sees changed: the stage, as before.
  assert.equal(describeSnapshot(both, both), "Table state (waiting)");
  // The same player under another name (a guest who made an account mid-match).
  const playing = view("playing", ready.seats);
  const marta = view("playing", [{ ...ready.seats[0], name: "Marta" }, bot]);
  assert.equal(describeSnapshot(marta, playing), "Ana plays on as Marta");
  setLanguage("hr", false);
  assert.equal(describeSnapshot(first, null), "Ana sjeda za stol. Čekaju se igrači");
  setLanguage("ru", false);
  assert.equal(describeSnapshot(view("playing", ready.seats), view("lag", ready.seats)), "Игра начинается");
  setLanguage("en", false);
});

test("the clock's warning speaks to the player whose clock it is, and names them to the rest", () => {
  setLanguage("en", false);
  const w = { kind: "clock", seat: 1, seconds: 10 };
  assert.equal(describeWarning(w, names).text, "Bob: 10 s left to shoot");
  assert.equal(describeWarning(w, names, null, 0).text, "Bob: 10 s left to shoot");
  assert.equal(describeWarning(w, names, null, 1).text, "10 s left for your shot");
  setLanguage("ru", false);
  assert.equal(describeWarning({ kind: "clock", seat: null, seconds: 5 }, names, 0, 0).text, "На ваш удар осталось 5 с");
  setLanguage("en", false);
});

test("the log does not say a two-foul warning twice: the warning's own line follows the foul", () => {
  setLanguage("hr", false);
  const second = ["R13", "Second consecutive foul: a third in a row loses the game"];
  const foul = shot({
    verdict: { ...baseVerdict, foul: true, fouls: ["R9"], reasons: [["R9", "No object ball was pocketed and no ball reached a rail after the first contact"]], notes: [second], warned: 0 },
    table: table(1, "table"),
  });
  const d = describeShot(foul, names);
  assert.ok(d.details.some((l) => l.rule === "R13"), "the shot alone says it (the banner)");
  const logged = forLog(d, foul.verdict);
  assert.deepEqual(logged.details.filter((l) => l.rule === "R13"), []);
  assert.equal(logged.headline, d.headline);
  // Without a warning (its note is another R13 one, or there is none) nothing is dropped.
  const unwarned = { ...foul.verdict, warned: null };
  assert.deepEqual(forLog(d, unwarned), d);
  setLanguage("en", false);
});

test("the two-foul warning speaks to the warned player on their own screen", () => {
  setLanguage("ru", false);
  assert.equal(describeWarning({ kind: "three_fouls", seat: 0 }, names, null, 0).text, "У вас два фола подряд: третий — проигрыш партии");
  assert.equal(describeWarning({ kind: "three_fouls", seat: 0 }, names, null, 1).text, "У игрока Ana два фола подряд: третий — проигрыш партии");
  assert.equal(describeWarning({ kind: "three_fouls", seat: 0 }, names).text, "У игрока Ana два фола подряд: третий — проигрыш партии");
  setLanguage("en", false);
});

test("a line that names the reader says 'you' on their own page, and names them on anyone else's", () => {
  setLanguage("en", false);
  const bih = shot({ verdict: { ...baseVerdict, foul: true, fouls: ["R9"], reasons: [["R9", "No object ball was pocketed and no ball reached a rail after the first contact"]] }, table: table(1, "table") });
  assert.equal(describeShot(bih, names, null, 1).headline, "Foul: no ball reached a cushion after the hit, and none was pocketed — ball in hand for you");
  assert.equal(describeShot(bih, names, null, 0).headline, "Your foul: no ball reached a cushion after the hit, and none was pocketed — ball in hand for Bob");
  // Whoever watches reads who fouled, and who has ball in hand.
  assert.equal(describeShot(bih, names, null, null).headline, "Foul by Ana: no ball reached a cushion after the hit, and none was pocketed — ball in hand for Bob");
  for (const [lang, mineSaid, theirs, yours] of [["hr", "Vaš faul: ", "Ana čini faul: ", "Faul: "], ["ru", "Ваш фол: ", "Ana допускает фол: ", "Фол: "]]) {
    setLanguage(lang, false);
    assert.ok(describeShot(bih, names, null, 0).headline.startsWith(mineSaid), lang);
    assert.ok(describeShot(bih, names, null, null).headline.startsWith(theirs), lang);
    assert.ok(describeShot(bih, names, null, 1).headline.startsWith(yours), lang);
  }
  setLanguage("en", false);
  assert.equal(describeShot(shot({}), names, null, 1).headline, "Ana pockets no ball — your shot");
  assert.equal(describeShot(shot({}), names, null, 0).headline, "You pocket no ball — Bob to shoot");
  const lag = { method: "lag", winner: 1, lags: [{ seat: 0, distance: 0.3, fault: "" }, { seat: 1, distance: 0.12, fault: "" }] };
  assert.equal(describeLag(lag, names, 1).headline, "You win the lag and choose who breaks");
  const first = { turn: 0, ball_in_hand: "kitchen", choice_pending: false, breaker: 0 };
  assert.equal(describeRuling({ by: 0, action: "lag_choice", verdict: null, table: first }, names, false, 0).headline, "You choose to break the first game");
  // After a dash, in lower case: "Bob concedes the match — you win the match".
  const conceded = describeRuling({ by: 1, action: "concede_match", verdict: { ...baseVerdict, game_over: true, match_over: true, game_winner: 0, game_end: "concede" }, table: table(null) }, names, false, 0);
  assert.equal(conceded.headline, "Bob concedes the match — you win the match");
  const pots = shot({ shooter: 0, report: { first: 1, pocketed: [1], rails: [] }, table: table(0) });
  assert.equal(describeShot(pots, names, null, 0).headline, "You pocket the 1 — and shoot again");
  assert.equal(describeShot(pots, names, null, 1).headline, "Ana pockets the 1 — and shoots again");
  const pushed = shot({ shooter: 0, shot: { push_out: true }, table: table(1) });
  assert.equal(describeShot(pushed, names, null, 1).headline, "Ana pushes out — you choose: shoot, or pass it back");
  // The player who acted is not named to themselves: "You push out — Bob chooses".
  assert.equal(describeShot(pushed, names, null, 0).headline, "You push out — Bob chooses: shoot, or pass it back");
  const pushedDown = shot({ shooter: 0, shot: { push_out: true }, report: { first: 3, pocketed: [5], rails: [] }, table: table(1) });
  assert.equal(describeShot(pushedDown, names, null, 0).headline, "You push out; ball 5 stays down — Bob chooses: shoot, or pass it back");
  const legalBreak = { ...baseVerdict, notes: [["R5", "Legal break"]] };
  assert.equal(describeShot(shot({ shooter: 0, verdict: legalBreak }), names, null, 0).headline, "You break, no ball pocketed — Bob to shoot");
  assert.equal(describeShot(shot({ shooter: 0, verdict: legalBreak }), names, null, 1).headline, "Ana breaks, no ball pocketed — your shot");
  const passed = { by: 1, action: "choose_pass", verdict: null, table: table(0) };
  assert.equal(describeRuling(passed, names, false, 1).headline, "You pass the shot back — Ana to shoot");
  assert.equal(describeRuling(passed, names, false, 0).headline, "Bob passes the shot back — your shot");
  assert.equal(describeRuling(passed, names, false, 0).next, 0); // it names whose shot it is
  const proposed = { by: 0, action: "stalemate_propose", verdict: null, table: table(1) };
  assert.equal(describeRuling(proposed, names, false, 0).headline, "You propose a stalemate warning — Bob may accept");
  assert.equal(describeRuling(proposed, names, false, 1).headline, "Ana proposes a stalemate warning — you may accept");
  assert.equal(describeRuling(proposed, names).headline, "Ana proposes a stalemate warning — Bob may accept");
  const gives = { by: 0, action: "lag_choice", verdict: null, table: { turn: 1, ball_in_hand: "kitchen", choice_pending: false, breaker: 1 } };
  assert.equal(describeRuling(gives, names, false, 1).headline, "Ana lets you break the first game");
  assert.equal(describeRuling(gives, names, false, 0).headline, "You let Bob break the first game");
  assert.equal(describeLag({ method: "draw", winner: 1, lags: [] }, names, 1).headline, "You win the draw and choose who breaks");
  const lagged = describeLag({ method: "lag", winner: 1, lags: [{ seat: 0, distance: 0.3, fault: "" }, { seat: 1, distance: 0.12, fault: "" }] }, names, 1);
  assert.deepEqual(lagged.details.map((l) => l.text), ["Ana: 30.0 cm from the cushion", "You: 12.0 cm from the cushion", "Your ball stopped 18.0 cm closer to the cushion."]);
  assert.equal(describeEnd("concede", 0, "Ana", true), "You conceded the game.");
  assert.equal(describeEnd("concede", 0, "Ana"), "Ana concedes the game.");
  assert.equal(describeRuling({ by: 0, action: "concede_game", verdict: null, table: table(1) }, names, false, 0).headline, "You concede the game");
  setLanguage("hr", false);
  assert.equal(describeShot(bih, names, null, 1).headline.split(" — ")[1], "igrate s bijelom u ruci");
  assert.equal(describeLag(lag, names, 1).headline, "Dobili ste bliškanje i birate tko otvara");
  assert.equal(describeShot(pushed, names, null, 0).headline, "Odigrali ste push out — Bob bira: igrati ili vam vratiti udarac");
  assert.equal(describeShot(shot({}), names, null, 1).headline, "Ana ne ubacuje nijednu kuglu — na potezu ste vi");
  setLanguage("ru", false);
  assert.equal(describeShot(shot({}), names, null, 1).headline, "Ana ничего не забивает — бьёте вы");
  assert.equal(describeShot(shot({}), names, null, 0).headline, "Вы ничего не забили — бьёт Bob");
  assert.equal(describeRuling(passed, names, false, 1).headline, "Вы вернули удар — бьёт Ana");
  assert.equal(describeRuling({ by: 0, action: "lag_choice", verdict: null, table: first }, names, false, 0).headline, "Первую партию по своему выбору разбиваете вы");
  setLanguage("en", false);
});

test("a snapshot that ends the match says so first, then who asks for a rematch", () => {
  const seats = [{ player: "a", name: "Ana", ready: true }, { player: "b", name: "Bot 2", computer: 2, ready: true }];
  const playing = { status: "playing", seats, rematch: [] };
  const said = describeSnapshot({ status: "finished", seats, rematch: [1] }, playing);
  assert.ok(said.startsWith("The match is over. "), said);
  assert.ok(said.includes("asks for a rematch"), said);
});
