// The table's log: every verdict, ruling, lag and warning worded in the player's language
// (and worded again when the language changes), and the history a late joiner or a reload
// missed, rebuilt from the snapshot's `recent` or from the room's replay document. Each
// line keeps the players' names it was written with (`lognames.mjs`).

import { decode } from "@msgpack/msgpack";

import { $ } from "./dom.mjs";
import { addChat, renderBadge } from "./chat.mjs";
import { log } from "./hud.mjs";
import { seatName, t } from "./i18n/index.mjs";
import { session } from "./net.mjs";
import { namesAsWritten, rematchAsked, renamesBetween, seatingBetween, seatsOf } from "./lognames.mjs";
import { rackAddress } from "./racks.mjs";
import { app, breakDrawn, mySeat, names, shotRack } from "./state.mjs";
import { describeLag, describeRuling, describeShot, describeWarning, forLog } from "./verdict.mjs";

/** @typedef {import("./state.mjs").Msg} Msg */

/**
 * Where a game that ended on this event is replayed (the log's line links it, as the
 * result did before the next rack took its place): null for any other event.
 * @param {{ m: Msg, match?: number, played?: boolean }} src @returns {{ href: string, text: string } | null}
 */
function gameReplay(src) {
  const m = src.m;
  // A game ends on its verdict, or with the match conceded while it was being played.
  const ended = m.verdict?.game_over || (m.verdict?.match_over && src.played);
  if (!app.room || !ended || !m.table || !(Number(src.match) >= 1)) return null;
  const rack = shotRack(m);
  if (!(rack >= 1)) return null;
  const match = Number(src.match);
  const text = match > 1 ? t("log.replayMatchGame", { match, rack }) : t("log.replayGame", { rack });
  return { href: `#/replay/${rackAddress(app.room, rack, match)}`, text };
}

/**
 * Words a logged event in the current language, with the names it was written with.
 * @param {{ m: Msg, lowest: number | null, match?: number, seats?: import("./lognames.mjs").WrittenSeat[], lag?: Msg | null }} src
 * @returns {import("./verdict.mjs").Described}
 */
function describeSource(src) {
  const m = src.m;
  const n = namesAsWritten(src.seats, names());
  // The reader's own lines say "you": those of their seat written while they sat in it
  // (under the name they sit under now; a line from before they sat down names who did).
  const seat = mySeat();
  const me = seat !== null && !!src.seats?.[seat] && src.seats[seat]?.name === app.view?.seats?.[seat]?.name ? seat : null;
  switch (m.t) {
    case "shot_result":
      return forLog(describeShot(/** @type {any} */ (m), n, src.lowest, me), m.verdict);
    case "ruling":
      return forLog(describeRuling(/** @type {any} */ (m), n, breakDrawn(src.lag), me), m.verdict);
    case "lag_result":
      return describeLag(/** @type {any} */ (m), n, me);
    case "sits": // the page's own lines (`logRenames`), not server events
    case "leaves":
    case "rematch":
      return { headline: t(`ev.${m.t}`, { name: seatName(m.who.name, m.who.computer) }), rules: [], tone: "neutral", details: [] };
    case "presence": // a seated player's connection lost, or back
      return { headline: t(m.connected ? "ev.back" : "ev.dropped", { name: n[m.seat] }), rules: [], tone: "neutral", details: [] };
    case "rematch_begins": // the page's own line too
      return { headline: t("ev.rematchBegins"), rules: [], tone: "neutral", details: [] };
    case "renamed": // the page's own line (`logRename`), not a server event
      return { headline: t("ev.renamed", { was: String(m.was), name: String(m.name ?? n[m.seat]) }), rules: [], tone: "neutral", details: [] };
    case "warning": {
      const w = describeWarning({ kind: m.kind, seat: m.seat, seconds: app.view?.settings?.clock_warning }, n, app.table?.turn ?? null, mySeat());
      return { headline: w.text, rules: [w.rule], tone: m.kind === "clock" ? "neutral" : "foul", details: [] };
    }
    default:
      return { headline: String(m.t), rules: [], tone: "neutral", details: [] };
  }
}

/**
 * Logs an event (and keeps it, to word it again in another language).
 * @param {Msg} m @param {{ lowest?: number | null, aside?: boolean, quiet?: boolean }} [opts]
 */
export function logEvent(m, opts = {}) {
  // One line per event, however it reached this table (live, a snapshot's past, a replay).
  if (typeof m.seq === "number" && app.logSources.some((s) => s.m.seq === m.seq && s.m.t === m.t && s.m.seat === m.seat)) return;
  const src = { m, lowest: opts.lowest ?? null, aside: !!opts.aside, match: app.view?.match, played: app.rackShots.rack === m.table?.rack, seats: seatsOf(app.view), lag: app.lastLag };
  app.logSources.push(src);
  if (app.logSources.length > 60) app.logSources.shift();
  log(describeSource(src), { aside: src.aside, quiet: opts.quiet, link: gameReplay(src) });
}

/**
 * The snapshot `view` seats or unseats a player (the log says who sat down or got up), or
 * renames a seated one (the same player under another name: a
 * guest who made an account mid-match): the log says so once, with both names as they
 * are now; the lines before keep the name they were written with, as a reload words
 * them. `before`: the view it follows.
 * @param {Msg} view @param {Msg | null} before @param {number} seq the snapshot's
 */
export function logRenames(view, before, seq) {
  // Who sat down or got up (two may come with one snapshot: told apart by their seat), and
  // who asked for a rematch (whoever watches was not told).
  for (const { kind, seat, who } of seatingBetween(view, before)) logEvent({ t: kind, seq, seat, who }, { aside: true });
  for (const { seat, who } of rematchAsked(view, before)) logEvent({ t: "rematch", seq, seat, who }, { aside: true });
  const renamed = renamesBetween(view, before);
  for (const { seat, was, name } of renamed) logEvent({ t: "renamed", seq, seat, was, name }, { aside: true });
  if (renamed.length) rewordLog(); // the warning shown names the player anew
}

/** Words the whole log again (a change of language, a player's new name). */
export function rewordLog() {
  $("log").replaceChildren();
  for (const src of app.logSources) log(describeSource(src), { aside: src.aside, quiet: true, link: gameReplay(src) });
  // In a rematch the last match's end does not head the new one (it came back as the
  // headline when a player was renamed, and for whoever came to watch), only the log keeps it.
  const last = [...app.logSources].reverse().find((x) => !x.aside);
  if (app.view?.status !== "finished" && (last?.match ?? Infinity) < Number(app.view?.match ?? 0)) app.lastVerdict = null;
  $("chat-log").replaceChildren();
  const chat = app.chatLines;
  app.chatLines = [];
  const unread = app.unread;
  for (const c of chat) {
    app.chatLines.push(c);
    addChat(c);
  }
  app.unread = unread;
  renderBadge(); // lines worded again were read before: the badge counts as it did
  if (app.warning) {
    const w = describeWarning(app.warning, names(), null, mySeat());
    app.warning = { ...app.warning, text: w.text, rule: w.rule };
  }
}

/**
 * A late joiner, or a reload, missed what was said and decided before it came: the room's
 * replay document (`GET /replay/<room>`) has every event, so the log, the chat, the last
 * verdict and the last shot are rebuilt from it, up to the snapshot's `seq`.
 * @param {string} room @param {number} seq @param {() => void} refresh redraws the table's widgets
 * @param {number | null} [rolling] the `seq` of a shot still rolling on the table, left to its replay
 */
export async function restoreHistory(room, seq, refresh, rolling = null) {
  let doc;
  try {
    // A private room's replay needs its code, or the token of a player who sat in it.
    const query = app.code ? `?code=${encodeURIComponent(app.code)}` : "";
    const token = session.token();
    const res = await fetch(`/replay/${encodeURIComponent(room)}${query}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
    if (!res.ok) return;
    doc = /** @type {Msg} */ (decode(new Uint8Array(await res.arrayBuffer())));
  } catch {
    return;
  }
  if (app.room !== room) return;
  absorbHistory(/** @type {Msg[]} */ (doc.events ?? []), seq, refresh, rolling);
}

/**
 * The events of a snapshot's `recent` in order: the log, the chat and the last verdict,
 * and the snapshots that changed who sat (each line named as it was written).
 * @param {Msg} recent @returns {Msg[]}
 */
export function recentEvents(recent) {
  /** @type {Map<number, Msg>} */
  const bySeq = new Map();
  for (const e of [...(recent.seating ?? []), ...(recent.log ?? []), ...(recent.chat ?? []), ...(recent.verdict ? [recent.verdict] : [])]) bySeq.set(e.seq, e);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * Rebuilds the log, the chat, the last verdict and the last shot from past events, up
 * to the snapshot's `seq` (what is already shown is kept). The shot still rolling when
 * the snapshot was taken (`rolling`) is left out: its replay logs it as it ends, and its
 * verdict shown before would give the shot away.
 * @param {Msg[]} events @param {number} seq @param {() => void} refresh redraws the table's widgets
 * @param {number | null} [rolling] the `seq` of a shot still rolling on the table
 */
export function absorbHistory(events, seq, refresh, rolling = null) {
  const already = new Set(app.logSources.map((s) => s.m.seq));
  const chatSeen = new Set(app.chatLines.map((c) => c.seq));
  /** @type {Msg | null} */
  let table = null;
  /** @type {{ m: Msg, lowest: number | null, aside: boolean, match?: number, played?: boolean, seats?: import("./lognames.mjs").WrittenSeat[], lag?: Msg | null }[]} */
  const sources = [];
  // The names each line was written with: the seats of the latest snapshot before it (a
  // replay document has them, a snapshot's `recent` those that changed who sat; before
  // any, the names as they are now).
  /** @type {Msg | null} */
  let seen = null;
  // Which match each event was in: the room's snapshots say (a replay document has them,
  // and a snapshot's `recent` those where a match began); before any, it is counted back
  // from that snapshot (the page's view now): a match's end after an event puts it in the
  // match before, the current match's own end aside.
  const ends = events.map((e, i) => (e.t === "match_over" && typeof e.seq === "number" && e.seq <= seq ? i : -1)).filter((i) => i >= 0);
  const finished = app.view?.status === "finished";
  /** @type {number | null} */
  let snapped = null;
  const matchAt = (/** @type {number} */ i) => {
    if (snapped !== null) return snapped;
    const now = Number(app.view?.match ?? 0);
    const after = ends.filter((k) => k > i).length;
    return now - (finished ? Math.max(0, after - 1) : after);
  };
  /** @type {Msg[]} */
  const chat = [];
  let lastShot = null;
  /** The lag result before each line (a lag choice's was drawn for, or lagged). @type {Msg | null} */
  let lag = null;
  let rackShots = { rack: 0, count: 0 };
  for (const [i, e] of events.entries()) {
    if (typeof e.seq !== "number" || e.seq > seq || e.seq === rolling) continue;
    const lowest = table?.lowest ?? null;
    if (e.t === "snapshot") {
      table = e.view.table;
      if (typeof e.view.match === "number") snapped = e.view.match;
      if (!already.has(e.seq)) {
        // Who sat down or got up; not the page's own player sitting down as it came in.
        const sat = seatingBetween(e.view, seen).filter((c) => e.seq !== seq || c.seat !== app.seat);
        for (const c of sat) sources.push({ m: { t: c.kind, seq: e.seq, seat: c.seat, who: c.who }, lowest: null, aside: true, seats: seatsOf(e.view) });
        for (const r of renamesBetween(e.view, seen)) sources.push({ m: { t: "renamed", seq: e.seq, ...r }, lowest: null, aside: true, seats: seatsOf(e.view) });
      }
      seen = e.view;
    } else if ((e.t === "shot_result" || e.t === "ruling" || e.t === "lag_result") && e.table) table = e.table;
    if (e.t === "lag_result") {
      lag = e;
      if (!app.lastLag || e.seq > app.lastLag.seq) app.lastLag = e;
    }
    if (e.t === "shot_result") {
      lastShot = e;
      const rack = shotRack(e);
      rackShots = rack === rackShots.rack ? { rack, count: rackShots.count + 1 } : { rack, count: 0 };
    }
    if (already.has(e.seq)) continue;
    const seats = seatsOf(seen ?? app.view);
    if (e.t === "shot_result" || e.t === "ruling" || e.t === "lag_result") sources.push({ m: e, lowest, aside: false, match: matchAt(i), played: rackShots.rack === e.table?.rack, seats, lag });
    else if (e.t === "warning" || (e.t === "presence" && e.seat !== null && e.seat !== app.seat)) sources.push({ m: e, lowest: null, aside: true, seats });
    else if (e.t === "chat" && !chatSeen.has(e.seq)) chat.push(e);
  }
  app.logSources = [...sources, ...app.logSources].slice(-60);
  app.chatLines = [...chat, ...app.chatLines].slice(-100);
  if (lastShot && !app.lastShot && lastShot.traj?.length) app.lastShot = lastShot;
  if (rackShots.rack === app.table?.rack && app.rackShots.rack !== rackShots.rack) app.rackShots = rackShots;
  const hadVerdict = !!app.lastVerdict;
  rewordLog();
  if (hadVerdict || sources.some((x) => !x.aside)) refresh();
}
