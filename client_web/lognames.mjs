// The names a line of the table's log is worded with. A line keeps the players' names as
// they were when it was written: a guest who takes another name mid-match (a new account)
// is named anew from then on, and what was said before still says what it said then —
// "Ana plays on as Marta" stays so after a second rename, after a reload and in another
// language. A seat that was empty when the line was written is named as it is now (its
// kept name, or "Seat 2" in the reader's language).

import { seatName } from "./i18n/index.mjs";

/** @typedef {{ name: string, computer: number | null } | null} WrittenSeat */

/**
 * The seats' names as they stand in `view` (the room's wire view), kept with a line.
 * @param {Record<string, any> | null | undefined} view @returns {WrittenSeat[]}
 */
export function seatsOf(view) {
  return [0, 1].map((i) => {
    const seat = view?.seats?.[i];
    return seat ? { name: String(seat.name), computer: seat.computer ?? null } : null;
  });
}

/**
 * The names to word a line with: those it was written with (`written`), each seat empty
 * then named as now (`now`, the page's `names()`).
 * @param {WrittenSeat[] | undefined} written @param {string[]} now @returns {string[]}
 */
export function namesAsWritten(written, now) {
  return [0, 1].map((i) => {
    const seat = written?.[i];
    return seat ? seatName(seat.name, seat.computer) : now[i];
  });
}

/**
 * What a snapshot changed of its seats' names since the one before (`before`): each seat
 * whose player plays on under another name, with the name before and the name now.
 * @param {Record<string, any>} view @param {Record<string, any> | null | undefined} before
 * @returns {{ seat: number, was: string, name: string }[]}
 */
export function renamesBetween(view, before) {
  if (!before || before.room !== view.room) return [];
  return [0, 1].flatMap((seat) => {
    const was = before.seats?.[seat];
    const now = view.seats?.[seat];
    return was && now && was.player === now.player && was.name !== now.name ? [{ seat, was: String(was.name), name: String(now.name) }] : [];
  });
}

/**
 * Who sat down and who got up between two snapshots of the same room (`before`, then
 * `view`): each seat whose player changed, the one who left first. A player waiting at
 * their table saw the other seat fill with no line in the log to say so.
 * @param {Record<string, any>} view @param {Record<string, any> | null | undefined} before
 * @returns {{ kind: "sits" | "leaves", seat: number, who: NonNullable<WrittenSeat> }[]}
 */
export function seatingBetween(view, before) {
  if (!before || before.room !== view.room) return [];
  return [0, 1].flatMap((seat) => {
    const was = before.seats?.[seat];
    const now = view.seats?.[seat];
    if (was && now && was.player === now.player) return [];
    /** @type {{ kind: "sits" | "leaves", seat: number, who: NonNullable<WrittenSeat> }[]} */
    const changes = [];
    if (was) changes.push({ kind: "leaves", seat, who: { name: String(was.name), computer: was.computer ?? null } });
    if (now) changes.push({ kind: "sits", seat, who: { name: String(now.name), computer: now.computer ?? null } });
    return changes;
  });
}

/**
 * Who asked for a rematch between two snapshots of the same finished match (`before`,
 * then `view`): each seat newly in its `rematch`. (The players see it on the result's
 * button; a spectator's log said nothing.)
 * @param {Record<string, any>} view @param {Record<string, any> | null | undefined} before
 * @returns {{ seat: number, who: NonNullable<WrittenSeat> }[]}
 */
export function rematchAsked(view, before) {
  if (!before || before.room !== view.room || before.match !== view.match || view.status !== "finished") return [];
  return [0, 1].flatMap((seat) => {
    const now = view.seats?.[seat];
    if (!now || !(view.rematch ?? []).includes(seat) || (before.rematch ?? []).includes(seat)) return [];
    return [{ seat, who: { name: String(now.name), computer: now.computer ?? null } }];
  });
}
