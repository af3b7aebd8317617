// Where a tournament's entrant stands, in one line: still in and their next match, out
// and their place, their final place, the title.

import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage } from "../i18n/index.mjs";
import { feederOf, placeWords, racesWords, roundTitle, startsInWords, whereYouStand } from "../tourstanding.mjs";

/** @param {Partial<import("../tournament.mjs").MatchView>} m @returns {import("../tournament.mjs").MatchView} */
function match(m) {
  return { id: "x", bracket: "winners", round: 1, players: [null, null], seeds: [null, null], status: "waiting", winner: null, decided: null, score: [0, 0], room: null, race: 3, ...m };
}

/** Eight in a single elimination: Ana (seed 1) beat Bo in round 1 and waits in round 2
 * for the winner of Cy and Di; Bo is out in 5th–8th.
 * @param {Partial<import("../tournament.mjs").TournamentView>} [more] @returns {import("../tournament.mjs").TournamentView} */
function eight(more = {}) {
  const names = ["Ana", "Bo", "Cy", "Di", "Ed", "Fi", "Gu", "Hu"];
  return {
    id: "t", name: "Friday", format: "single", status: "running", cap: 8, seeding: "random", starts_at: 0, races: { winners: 3, losers: 3, final: 3 },
    me: 1, entrants: names.map((name, i) => ({ name, player: `p${i}` })),
    matches: [
      match({ id: "a", players: ["Ana", "Bo"], seeds: [1, 2], status: "done", winner: 0, decided: "played", score: [3, 1] }),
      match({ id: "b", players: ["Cy", "Di"], seeds: [3, 4], status: "playing", room: "r" }),
      match({ id: "c", round: 2, players: ["Ana", null], seeds: [1, null] }),
      match({ id: "d", round: 3 }),
    ],
    standings: [{ place: "5–8", name: "Bo" }],
    champion: null,
    ...more,
  };
}

const named = (/** @type {string} */ name) => name;

test("places are written as each language writes them", () => {
  setLanguage("en", false);
  assert.deepEqual(["1", "2", "3", "4", "11", "12", "13", "21", "22", "5–8", "3–4"].map(placeWords), ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "5th–8th", "3rd–4th"]);
  setLanguage("hr", false);
  assert.deepEqual(["2", "5–8"].map(placeWords), ["2.", "5.–8."]);
  setLanguage("ru", false);
  assert.deepEqual(["2", "5–8"].map(placeWords), ["2-е", "5–8-е"]);
});

test("a player still in is told their next match, its opponent once known", () => {
  setLanguage("en", false);
  assert.equal(whereYouStand(eight(), named), "You are still in. Your next match: round 2; your opponent is not known yet.");
  const known = eight();
  known.matches[2] = match({ id: "c", round: 2, players: ["Ana", "Di"], seeds: [1, 4], status: "ready" });
  setLanguage("hr", false);
  assert.equal(whereYouStand(known, named), "Još ste u turniru. Vaš sljedeći meč: 2. kolo, protivnik: Di.");
  // Its table open, the banner above says it: nothing more.
  const final = eight();
  final.matches[2] = match({ id: "c", round: 3, players: ["Ana", "Di"], seeds: [1, 4], status: "ready" });
  assert.equal(whereYouStand(final, named), "Još ste u turniru. Vaš sljedeći meč: finale, protivnik: Di.");
  known.matches[2] = match({ id: "c", round: 2, players: ["Ana", "Di"], seeds: [1, 4], status: "playing", room: "q" });
  assert.equal(whereYouStand(known, named), null);
});

test("a player knocked out is told so and their place; at the end, their final place", () => {
  setLanguage("ru", false);
  assert.equal(whereYouStand(eight({ me: 2 }), named), "Вы выбыли из турнира: 5–8-е место.");
  setLanguage("en", false);
  assert.equal(whereYouStand(eight({ me: 2, status: "finished" }), named), "You finished in 5th–8th place.");
  assert.equal(whereYouStand(eight({ status: "finished", champion: "Ana", standings: [{ place: "1", name: "Ana" }] }), named), "You won the tournament!");
});

test("nothing for a reader who did not enter, before the start, or once cancelled", () => {
  setLanguage("en", false);
  assert.equal(whereYouStand(eight({ me: null }), named), null);
  assert.equal(whereYouStand(eight({ status: "registering" }), named), null);
  assert.equal(whereYouStand(eight({ status: "cancelled" }), named), null);
});

test("a double elimination names the side of the next match", () => {
  setLanguage("en", false);
  const view = eight({ format: "double", me: 2 });
  view.standings = [];
  view.matches.push(match({ id: "l1", bracket: "losers", round: 1, players: ["Bo", null], seeds: [2, null] }), match({ id: "l2", bracket: "losers", round: 2 }));
  assert.equal(whereYouStand(view, named), "You are still in. Your next match: losers' bracket, round 1; your opponent is not known yet.");
});

test("an opponent not known yet is named by the match they come from, once its two are known", () => {
  setLanguage("en", false);
  const view = eight();
  view.matches[2] = match({ id: "c", round: 2, players: ["Ana", null], seeds: [1, null], feeds: [["winner", "a"], ["winner", "b"]] });
  assert.equal(whereYouStand(view, named), "You are still in. Your next match: round 2, against the winner of Cy\u00a0– Di.");
  setLanguage("ru", false);
  assert.equal(whereYouStand(view, named), "Вы ещё в турнире. Следующий матч: 2\u2011й раунд, соперник: победитель матча Cy\u00a0– Di.");
  // The losers' bracket waits for a loser; a computer is named as the page names it.
  setLanguage("hr", false);
  const double = eight({ format: "double", me: 2 });
  double.standings = [];
  double.matches[1] = match({ id: "b", players: ["Cy", "Bot 3"], computers: [null, 3], seeds: [3, 4], status: "playing", room: "r" });
  double.matches.push(match({ id: "l1", bracket: "losers", round: 1, players: ["Bo", null], seeds: [2, null], feeds: [["loser", "a"], ["loser", "b"]] }));
  const tagged = (/** @type {string} */ name, /** @type {number | null | undefined} */ level) => (level ? `${name} (${level})` : name);
  assert.equal(whereYouStand(double, tagged), "Još ste u turniru. Vaš sljedeći meč: gubitnička grana, 1. kolo, protivnik: gubitnik meča Cy\u00a0– Bot 3 (3).");
  // A match whose own two are not known yet names nobody.
  setLanguage("en", false);
  view.matches[1] = match({ id: "b", players: ["Cy", null], seeds: [3, null] });
  assert.equal(whereYouStand(view, named), "You are still in. Your next match: round 2; your opponent is not known yet.");
});

test("a bracket's slot to come is named by its match once that match's two are known; the deciding match is 'if needed' until it is known", () => {
  setLanguage("en", false);
  const view = eight({ format: "double" });
  const c = match({ id: "c", round: 2, players: ["Ana", null], seeds: [1, null], feeds: [["winner", "a"], ["winner", "b"]] });
  const from = feederOf(view, c, 1, named);
  assert.deepEqual(from, { kind: "winner", a: "Cy", b: "Di" });
  assert.equal(feederOf(view, c, 1, named) && feederOf({ ...view, matches: [] }, c, 1, named), null);
  const gf2 = match({ id: "GF2", bracket: "final", round: 2 });
  view.matches.push(gf2);
  assert.equal(roundTitle(view, "final", 2, 2), "Deciding match (if needed)");
  gf2.status = "void";
  assert.equal(roundTitle(view, "final", 2, 2), "Deciding match");
  setLanguage("ru", false);
  gf2.status = "waiting";
  assert.equal(roundTitle(view, "final", 2, 2), "Решающий матч (если понадобится)");
});

test("the races said are the ones the bracket plays: a bracket of two the final alone, or no losers' side", () => {
  setLanguage("en", false);
  const races = { winners: 3, losers: 2, final: 5 };
  const view = (/** @type {"single" | "double"} */ format, /** @type {number} */ cap, /** @type {Partial<import("../tournament.mjs").MatchView>[]} */ drawn = []) =>
    ({ ...eight(), format, cap, races, matches: drawn.map((m) => match(m)) });
  // Before the draw, by the places.
  assert.equal(racesWords(view("single", 2)), "The final is a race to 5");
  assert.equal(racesWords(view("single", 4)), "Races to 3, the final to 5");
  assert.equal(racesWords(view("double", 2)), "Races to 3, the final to 5");
  assert.equal(racesWords(view("double", 4)), "Races to 3 on the winners' side, 2 on the losers' side, 5 in the final");
  // Drawn, by the bracket's matches: four places but two came (a bracket of two).
  assert.equal(racesWords(view("single", 4, [{ round: 1 }])), "The final is a race to 5");
  assert.equal(racesWords(view("single", 4, [{ round: 1 }, { round: 1 }, { round: 2 }])), "Races to 3, the final to 5");
  assert.equal(racesWords(view("double", 4, [{ bracket: "winners" }, { bracket: "final" }])), "Races to 3, the final to 5");
  assert.equal(racesWords(view("double", 3, [{ bracket: "winners" }, { bracket: "losers" }, { bracket: "final" }])), "Races to 3 on the winners' side, 2 on the losers' side, 5 in the final");
  setLanguage("ru", false);
  assert.equal(racesWords(view("single", 2)), "Финал — игра до 5");
  setLanguage("en", false);
});

test("how long until a tournament starts, in one unit the reader's language words", () => {
  const cases = {
    en: ["Starts in 30 seconds", "Starts in 2 minutes", "Starts in 24 minutes", "Starts in 100 minutes", "Starts in 5 hours", "Starts in 40 hours", "Starts in 3 days", "Starting now…"],
    hr: ["Počinje za 30 sekundi", "Počinje za 2 minute", "Počinje za 24 minute", "Počinje za 100 minuta", "Počinje za 5 sati", "Počinje za 40 sati", "Počinje za 3 dana", "Počinje upravo sada…"],
    ru: ["Начнётся через 30 секунд", "Начнётся через 2 минуты", "Начнётся через 24 минуты", "Начнётся через 100 минут", "Начнётся через 5 часов", "Начнётся через 40 часов", "Начнётся через 3 дня", "Начинается…"],
  };
  for (const [language, words] of Object.entries(cases)) {
    setLanguage(/** @type {any} */ (language));
    assert.deepEqual([29.2e3, 61e3, 24 * 60e3, 100 * 60e3, 5 * 3600e3, 40 * 3600e3, 3 * 86400e3, -5e3].map(startsInWords), words);
  }
  setLanguage("en");
});
