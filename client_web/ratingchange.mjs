// What a rated match did to the players' ratings, for the match's result (and for each
// game's, as ratings move game by game): each player's
// rating now with its change since the match began, or — when no game of it counted (the
// match conceded or forfeited in its first game) — that the ratings did not move, and
// why. Ratings move per game won at the table or conceded (docs/RATINGS.md), and the
// server says each new rating in a snapshot a moment after the game's result, so the
// line is drawn again whenever a snapshot comes while the result is open.
//
// The ratings the match began with are kept per room in the tab's session storage, so a
// reload in the middle of a match still shows the change at its end.

import { ratingText } from "./account.mjs";
import { $ } from "./dom.mjs";
import { lang, t } from "./i18n/index.mjs";
import { app, names } from "./state.mjs";

/** @typedef {{ players: string[], ratings: (number | null)[], counted: number, underWay?: boolean }} Base */

/** Game endings that move ratings: the 9 made, the opponent's third foul in a row, a game conceded. */
const RATED_ENDS = new Set(["nine", "three_fouls", "concede"]);

/** @param {string} room */
const keyOf = (room) => `ninepool.ratedMatch.${room}`;

/** @param {string} room @returns {Base | null} */
function readBase(room) {
  try {
    const raw = sessionStorage.getItem(keyOf(room));
    const base = raw ? JSON.parse(raw) : null;
    return base && Array.isArray(base.players) && Array.isArray(base.ratings) && typeof base.counted === "number" ? base : null;
  } catch {
    return null;
  }
}

/** @param {string} room @param {Base} base */
function writeBase(room, base) {
  try {
    sessionStorage.setItem(keyOf(room), JSON.stringify(base));
  } catch {
    // Storage full or refused: the result then shows the ratings without their change.
  }
}

/** The seats' players and ratings as the view has them. */
function seatsNow() {
  const seats = app.view?.seats ?? [];
  return {
    players: seats.map((/** @type {any} */ s) => (s ? String(s.player) : "")),
    ratings: seats.map((/** @type {any} */ s) => (s && typeof s.rating === "number" ? s.rating : null)),
  };
}

/**
 * Called with every snapshot: before a rated match's first game has ended, the ratings
 * the seats show are the ones the match begins with (a rematch begins again).
 */
export function noteSnapshot() {
  const v = app.view;
  if (!v || !app.room || !v.settings?.rated || v.status === "finished") return;
  const score = v.table?.score ?? [0, 0];
  const rack = v.table?.rack ?? 0;
  if (score[0] + score[1] !== 0 || rack > 1) return;
  writeBase(app.room, { ...seatsNow(), counted: 0 });
}

/**
 * Called with every game's result in a rated match. @param {string} reason the game's end
 * @param {boolean} [underWay] the game under way when the match was conceded (it counts as
 * lost, though the match's score does not show it: said under the result)
 */
export function noteGameOver(reason, underWay = false) {
  if (!app.room || !app.view?.settings?.rated || !RATED_ENDS.has(reason)) return;
  const base = readBase(app.room);
  if (base) writeBase(app.room, { ...base, counted: base.counted + 1, underWay });
}

/** "+12", "−7", "0" the language's way, with a true minus sign (some languages' formats give a hyphen). @param {number} v */
function signed(v) {
  return new Intl.NumberFormat(lang(), { signDisplay: "exceptZero", maximumFractionDigits: 0 }).format(v).replace("-", "\u2212");
}

/**
 * The line under a rated match's result, or a game's ("" for an unrated one, or no rating
 * known; after a game, "" until a game has counted: its ratings are the match's so far).
 * @param {boolean} [matchOver] the match's result (else a game's, the match going on)
 * @returns {string}
 */
export function ratingLine(matchOver = true) {
  const v = app.view;
  if (!v || !app.room || !v.settings?.rated) return "";
  const now = seatsNow();
  const base = readBase(app.room);
  const same = base !== null && base.players.join("\n") === now.players.join("\n");
  if (same && base.counted === 0) return matchOver ? t("result.ratingsKept") : "";
  if (!matchOver && !same) return "";
  const n = names();
  const items = now.ratings.flatMap((rating, seat) => {
    if (rating === null) return [];
    const provisional = !!v.seats?.[seat]?.provisional;
    // A computer's rating is fixed: it has no change to show.
    const computer = typeof v.seats?.[seat]?.computer === "number";
    const before = same && !computer ? base.ratings[seat] : null;
    const shown = ratingText(rating, provisional);
    return [before === null || before === undefined ? t("result.ratingNow", { name: n[seat], rating: shown }) : t("result.ratingChange", { name: n[seat], rating: shown, change: signed(Math.round(rating) - Math.round(before)) })];
  });
  if (!items.length) return "";
  // Between games the change is the match's so far, not the game's: said so (a player who
  // had just lost 26 points read "(−2)" as what the game cost).
  const line = t(matchOver ? "result.ratings" : "result.ratingsSoFar", { list: items.join(" · ") });
  return matchOver && same && base.underWay ? `${line} ${t("result.underWayCounts")}` : line;
}

/** Draws the line into the open match result (and hides it when there is none). */
export function renderRatingLine() {
  const dlg = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  const el = $("result-rating");
  // After each game too: ratings move game by game, and a newcomer playing a rated match
  // (against the computer, say) sees what each game did.
  const text = ratingLine(dlg.classList.contains("match"));
  el.textContent = text;
  el.hidden = !text;
}
