// A tournament's match keeps each seat for its player, but the room knows those players
// only by id (`settings.reserved`). Their names come from the tournament's own page
// (`GET /api/tournaments/<id>`, whose entrants carry their player ids and names), read
// once per room: an empty seat then says whom it waits for, not "Empty seat", and those
// waiting see when a player who has not come forfeits (the page's `live.forfeit_at`).

import { app } from "./state.mjs";

/** @typedef {import("./state.mjs").Msg} Msg */
/** @typedef {"out" | "losers" | "grandFinal" | "decider" | "title"} Stake */

/**
 * Reads the names of a tournament match's players, once for this room, then redraws.
 * Nothing for a room that is not a tournament's, or a tournament that cannot be read
 * (the seats then say what they said before).
 * @param {Msg} view the room view @param {() => void} refresh
 */
export async function learnKeptNames(view, refresh) {
  const tournament = view?.settings?.tournament;
  if (!tournament || app.keptNames?.room === view.room) return;
  app.keptNames = { room: view.room, names: [null, null], forfeitAt: null, stakes: [null, null] };
  const kept = await readKept(view);
  if (!kept || app.keptNames?.room !== view.room) return; // the seats keep their plain words
  app.keptNames = { room: view.room, ...kept };
  refresh();
}

/**
 * A tournament match's players by name, seat 0 then seat 1, when a player who has
 * not come forfeits, and what losing it costs each seat (`stakeOf`), from the tournament's
 * page; null for a room that is not a tournament's or a tournament that cannot be read. Also what the stream strip names
 * its seats by once they are empty: a tournament's room frees a seat as soon as its
 * player leaves a finished match, and its result is still on screen.
 * @param {Msg} view the room view
 * @returns {Promise<{ names: (string | null)[], forfeitAt: number | null, stakes: (Stake | null)[] } | null>}
 */
export async function readKept(view) {
  const tournament = view?.settings?.tournament;
  if (!tournament) return null;
  const doc = await readTournament(tournament);
  if (!doc) return null;
  const reserved = view.settings.reserved ?? [];
  const byPlayer = new Map((doc.entrants ?? []).map((/** @type {Msg} */ e) => [e.player, e.name]));
  const match = (doc.matches ?? []).find((/** @type {Msg} */ x) => x.room === view.room);
  const forfeitAt = match?.live?.forfeit_at;
  return {
    names: [0, 1].map((i) => byPlayer.get(reserved[i]) ?? null),
    forfeitAt: typeof forfeitAt === "number" ? forfeitAt : null,
    stakes: [0, 1].map((i) => (match ? stakeOf(doc, match, reserved[i]) : null)),
  };
}

/**
 * What losing a tournament's match costs one of its players — said where they may concede
 * it or leave it (which concedes it): "out" of the tournament; sent to the "losers"'
 * bracket (a double elimination's winners' side), or to the "grandFinal" where there is
 * no losers' bracket (a double elimination of two); a "decider" for the title (the grand
 * final's unbeaten player, `GF1`'s first); the "title" (a final's loser is out in second
 * place). Null for a player not in the match.
 * @param {Msg} doc the tournament's page @param {Msg} match its entry for this room
 * @param {string | undefined} player the player's id
 * @returns {Stake | null}
 */
export function stakeOf(doc, match, player) {
  const seed = (doc.entrants ?? []).findIndex((/** @type {Msg} */ e) => e.player === player) + 1;
  const slot = seed > 0 ? (match.seeds ?? []).indexOf(seed) : -1;
  if (slot < 0) return null;
  if (match.bracket === "final") return match.round === 1 && slot === 0 ? "decider" : "title";
  if (match.bracket === "losers") return "out";
  // A double elimination of two has no losers' bracket: its first match's loser goes
  // straight to the grand final (the match whose feeds take this one's loser).
  if (doc.format === "double") {
    const down = (doc.matches ?? []).find((/** @type {Msg} */ m) => (m.feeds ?? []).some((/** @type {[string, string | null]} */ f) => f[0] === "loser" && f[1] === match.id));
    return down?.bracket === "final" ? "grandFinal" : "losers";
  }
  const rounds = (doc.matches ?? []).filter((/** @type {Msg} */ m) => m.bracket === "winners").map((/** @type {Msg} */ m) => m.round);
  return match.round === Math.max(...rounds) ? "title" : "out";
}

/** What losing a tournament's match costs the player in `seat` (`stakeOf`), when known.
 * @param {number | null} seat @returns {Stake | null} */
export function keptStake(seat) {
  return seat !== null && app.keptNames && app.keptNames.room === app.room ? (app.keptNames.stakes[seat] ?? null) : null;
}

/** A tournament's page as its API gives it (`GET /api/tournaments/<id>`); null when it
 * cannot be read. @param {string} tournament @returns {Promise<Msg | null>} */
async function readTournament(tournament) {
  try {
    const res = await fetch(`/api/tournaments/${encodeURIComponent(tournament)}`);
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

/** Seconds left before a player who has not come forfeits, when known (server clock). @returns {number | null} */
export function forfeitIn() {
  const at = app.keptNames && app.keptNames.room === app.room ? app.keptNames.forfeitAt : null;
  return at === null ? null : Math.max(0, Math.ceil((at - app.serverNow()) / 1000));
}

/** The name of the player a tournament's seat is kept for, when known. @param {number} seat @returns {string | null} */
export function keptName(seat) {
  return app.keptNames && app.keptNames.room === app.room ? (app.keptNames.names[seat] ?? null) : null;
}

/** How often, and how far apart (ms), a finished match's tournament is read for its end. */
const CHAMPION_READS = 6;
const CHAMPION_READ_MS = 700;

/**
 * After a tournament's match is over: whether it ended the tournament, and who won it
 * (its champion's name; null when it goes on, or cannot be read). The tournament takes
 * the room's result a moment after the room ends it, so its page is read a few times.
 * @param {Msg} view the room view @returns {Promise<string | null>}
 */
export async function championAfter(view) {
  const tournament = view?.settings?.tournament;
  if (!tournament) return null;
  for (let read = 0; read < CHAMPION_READS; read++) {
    await new Promise((resolve) => setTimeout(resolve, CHAMPION_READ_MS));
    const doc = await readTournament(tournament);
    if (doc?.status === "finished") return typeof doc.champion === "string" ? doc.champion : null;
    const match = (doc?.matches ?? []).find((/** @type {Msg} */ x) => x.room === view.room);
    if (match?.status === "done") return null; // taken, and the tournament goes on
  }
  return null;
}
