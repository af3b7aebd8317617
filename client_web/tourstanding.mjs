// Where the reader stands in a tournament they entered, said in one line at the top of
// its page: still in, and their next match (its stage, and the opponent once known); out,
// and the place they share; their final place; or the title. The bracket shows it too,
// but a player knocked out had to find their own name in the standings' table to learn
// that they were out at all, and in which place. Also the races the bracket plays, for
// the page's facts. Kept apart from the page so that the words are tested without one.

import { stageWords } from "./formats.mjs";
import { lang, t } from "./i18n/index.mjs";

/** @typedef {import("./tournament.mjs").TournamentView} TournamentView */
/** @typedef {import("./tournament.mjs").MatchView} MatchView */

/**
 * A place as the reader's language writes it: "5" as "5th" / "5." / "5-е", and a shared
 * place "5–8" as "5th–8th" / "5.–8." / "5–8-е" (Russian puts the ending once, on the last).
 * @param {string} place `"5"` or `"5–8"`, as the API gives it
 * @returns {string}
 */
export function placeWords(place) {
  const numbers = place.split("–");
  if (lang() === "hr") return numbers.map((n) => `${n}.`).join("–");
  if (lang() === "ru") return `${numbers.join("–")}-е`;
  const rules = new Intl.PluralRules("en", { type: "ordinal" });
  /** @type {Record<string, string>} */
  const endings = { one: "st", two: "nd", few: "rd", other: "th" };
  return numbers.map((n) => `${n}${endings[rules.select(Number(n))] ?? "th"}`).join("–");
}

/**
 * A round's title under its bracket's heading: "Round 2", the single bracket's "Final",
 * the grand final's first or deciding match.
 * @param {TournamentView} view @param {string} side @param {number} round @param {number} last
 */
export function roundTitle(view, side, round, last) {
  // The deciding match is played only if the losers' side's player wins the first: said
  // so until that is known.
  if (side === "final" && round === 1) return t("tour.gfFirst");
  if (side === "final") {
    const open = view.matches.some((m) => m.bracket === "final" && m.round === 2 && m.status === "waiting");
    return t(open ? "tour.gfDeciderIfNeeded" : "tour.gfDecider");
  }
  if (view.format === "single" && round === last) return t("tour.finalRound");
  return t("tour.round", { n: round });
}

/**
 * A match's stage code as the server names its table (`stage_label`): said in the same
 * words as the table's name ("Losers' bracket, round 3", "Grand final").
 * @param {TournamentView} view @param {MatchView} match
 */
export function stageCode(view, match) {
  if (match.bracket === "final") return match.round === 1 ? "GF1" : "GF2";
  if (match.bracket === "losers") return `L${match.round}`;
  if (view.format === "double") return `W${match.round}`;
  const last = Math.max(...view.matches.filter((m) => m.bracket === "winners").map((m) => m.round));
  return match.round === last ? "F" : `R${match.round}`;
}

/**
 * The line for the reader, or null when there is nothing of theirs to say: not an entrant,
 * the tournament not begun (or cancelled), or their match being played (the banner above
 * takes them to its table).
 * @param {TournamentView} view @param {(name: string, level: number | null | undefined) => string} named
 *   a player's name as the page shows it (a computer's with what it is)
 * @returns {string | null}
 */
export function whereYouStand(view, named) {
  const me = view.me ?? null;
  if (me === null || view.status === "registering" || view.status === "cancelled") return null;
  const mine = myEntry(view);
  if (!mine) return null;
  if (view.champion !== null && view.champion === mine.name) return t("tour.whereChampion");
  const out = view.standings.find((row) => row.name === mine.name);
  if (out) return t(view.status === "finished" ? "tour.whereFinal" : "tour.whereOut", { place: placeWords(out.place) });
  const ahead = view.matches.filter((m) => m.seeds.includes(me) && m.status !== "done" && m.status !== "void");
  if (ahead.some((m) => m.status === "playing")) return null;
  const next = ahead[0];
  if (!next) return null;
  const slot = next.seeds.indexOf(me);
  const name = next.players[1 - slot];
  // (in the middle of a sentence, after a colon: "Your next match: round 2")
  const words = stageWords(stageCode(view, next));
  const stage = words.charAt(0).toLocaleLowerCase(lang()) + words.slice(1);
  if (name) return t("tour.whereNext", { stage, name: named(name, next.computers?.[1 - slot]) });
  // Not known yet: named by the match it waits for, once that match's two are known.
  const from = feederOf(view, next, 1 - slot, named);
  if (from) return t(from.kind === "winner" ? "tour.whereNextWinner" : "tour.whereNextLoser", { stage, a: from.a, b: from.b });
  return t("tour.whereNextOpen", { stage });
}

/**
 * Where a slot not filled yet is filled from, once the match it waits for has its two
 * players: that match's winner or loser, and its two by name; null otherwise (a first
 * round's seed, or a match whose own players are not known yet).
 * @param {TournamentView} view @param {MatchView} match @param {number} slot
 * @param {(name: string, level: number | null | undefined) => string} named
 * @returns {{ kind: "winner" | "loser", a: string, b: string } | null}
 */
export function feederOf(view, match, slot, named) {
  const [kind, from] = match.feeds?.[slot] ?? [];
  const feeder = view.matches.find((m) => m.id === from);
  const [a, b] = feeder?.players ?? [];
  if ((kind !== "winner" && kind !== "loser") || !feeder || !a || !b) return null;
  return { kind, a: named(a, feeder.computers?.[0]), b: named(b, feeder.computers?.[1]) };
}

/** The reader's own entry (`me`: their place on the list, from 1), if they entered.
 * @param {TournamentView} view */
export function myEntry(view) {
  return view.me ? view.entrants[view.me - 1] : undefined;
}

/**
 * The races as this bracket has them: a bracket of two is the final alone (single) or has
 * no losers' side (double), so it names no races it does not play — the bracket's own
 * matches once drawn, the places before.
 * @param {TournamentView} view
 */
export function racesWords(view) {
  const { winners, losers, final } = view.races;
  const drawn = view.matches.length > 0;
  if (view.format === "single") {
    const finalOnly = drawn ? view.matches.every((m) => m.round === 1) : view.cap === 2;
    return finalOnly ? t("tour.racesFinal", { final }) : t("tour.racesSingle", { winners, final });
  }
  const losersSide = drawn ? view.matches.some((m) => m.bracket === "losers") : view.cap > 2;
  return losersSide ? t("tour.races", { winners, losers, final }) : t("tour.racesSingle", { winners, final });
}

/**
 * How long until a tournament still taking entries starts, in one unit the reader's
 * language words ("Starts in 24 minutes", "Počinje za 3 sata", "Начнётся через 2 дня"):
 * the date alone left a player to work out whether to wait at the page or come back
 * tomorrow. Seconds in the last minute, minutes up to two hours, hours up to two days,
 * then days; at or past the time, that it is starting (the
 * server makes the draw on its next round).
 * @param {number} leftMs time to the start by the server's clock
 * @returns {string}
 */
export function startsInWords(leftMs) {
  if (leftMs <= 0) return t("tour.startingNow");
  const seconds = leftMs / 1000;
  /** @type {[number, Intl.RelativeTimeFormatUnit]} */
  const [value, unit] = seconds <= 60 ? [Math.ceil(seconds), "second"] : seconds <= 120 * 60 ? [Math.ceil(seconds / 60), "minute"] : seconds < 48 * 3600 ? [Math.round(seconds / 3600), "hour"] : [Math.round(seconds / 86400), "day"];
  return t("tour.startsIn", { in: new Intl.RelativeTimeFormat(lang(), { numeric: "always" }).format(value, unit) });
}
