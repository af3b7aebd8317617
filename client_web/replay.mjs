// Stepping through a whole match from `GET /replay/<room>`: every room event in order.
// Opened on one rack (`/replay/<room>/<rack>`, the link the end-of-rack dialog shares; a
// rematch's `/replay/<room>/<match>/<rack>`) it shows that rack's events alone and plays
// them by itself; the scrubber jumps anywhere.
// Stepping forward onto a shot animates it; stepping back or jumping shows the table as
// it stood after that event, taken from the events' own table views. A private room's
// replay needs its invite code or the session token of a player who sat in it: both are
// sent when known (the server answers 404 to anyone else, as for no room at all).

import { decode } from "@msgpack/msgpack";

import { h, toast } from "./dom.mjs";
import { fitName } from "./seatname.mjs";
import { session } from "./net.mjs";
import { tableName } from "./formats.mjs";
import { ShotPlayback, normaliseTracks, restingBalls } from "./playback.mjs";
import { lastPlay, matchBounds, rackAddress, rackBounds } from "./racks.mjs";
import { Renderer } from "./render.mjs";
import { askFrame } from "./framepace.mjs";
import { lagFrames, lagPlayback, lagRest, lagTags } from "./lagballs.mjs";
import { decodeTracks } from "./trajectory.mjs";
import { num, seatName, t, wordAs } from "./i18n/index.mjs";
import { describeLag, describeRuling, describeShot, describeSnapshot, describeWarning, withRules } from "./verdict.mjs";

/** @typedef {Record<string, any>} Msg */
/** @typedef {import("./playback.mjs").BallFrame} BallFrame */

/**
 * The event a shared link opens on: `?at=N`, from 1 as the list numbers the events, if it
 * is one of the `count` shown; else null (a bad or stale number opens at the start).
 * @param {string} search @param {number} count @returns {number | null}
 */
export function momentOf(search, count) {
  const raw = new URLSearchParams(search).get("at");
  if (raw === null || !/^[1-9][0-9]{0,5}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= count ? n : null;
}

/** `search` without its `key` parameter ("" when nothing is left). @param {string} search @param {string} key */
function searchWithout(search, key) {
  const params = new URLSearchParams(search);
  params.delete(key);
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}

/**
 * A table's link that finds it closed: its match over, its players gone. A bare "not
 * open: closed, or private" sent a player who had played there to the lobby; where the
 * reader may see the table's replay (a private one's with its code or a seat's token),
 * that is said and the replay shown instead. Whether it was.
 * @param {string} room @param {string | null} code
 * @returns {Promise<boolean>}
 */
export async function replayShown(room, code) {
  const token = session.token();
  const query = code ? `?code=${encodeURIComponent(code)}` : "";
  const stop = new AbortController();
  try {
    const res = await fetch(`/replay/${encodeURIComponent(room)}${query}`, { headers: token ? { Authorization: `Bearer ${token}` } : undefined, signal: stop.signal });
    stop.abort(); // (only whether there is one: the viewer reads it)
    if (!res.ok) return false;
  } catch {
    return false;
  }
  toast(t("room.closedReplay"), "info");
  location.hash = `#/replay/${encodeURIComponent(room)}${code ? `/${code}` : ""}`;
  return true;
}

/** How long autoplay rests after a shot has played out, at the default speed (ms). */
const REST_MS = 900;
/** The replay's default speed: twice real time. */
const DEFAULT_RATE = 2;

/**
 * How many times faster than real time shots play out: the address's `?rate=` (0.25 to
 * 16), else the default. A faster replay rests less after each shot; a slower one no more.
 */
function playbackRate() {
  return Math.min(16, Math.max(0.25, Number(new URLSearchParams(location.search).get("rate")) || DEFAULT_RATE));
}

/** @param {string} id @returns {HTMLElement} */
function el(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error(`missing element #${id}`);
  return e;
}

/**
 * The event as its line words it: a game's last shot or ruling says the game was won, as
 * the `game_over` and `match_over` lines after it say the game and then the match (not
 * "wins the match" before "wins game 2").
 * @param {Msg} e @returns {Msg}
 */
function gameOnly(e) {
  return e.verdict?.match_over && e.verdict?.game_over ? { ...e, verdict: { ...e.verdict, match_over: false } } : e;
}

/**
 * The score after a game or the match, named in seat order as the scoreboard has it
 * ("Bob wins game 3! Ana 2 – 1 Bob"): the winner's first read "Bob wins game 3! 1–2" as
 * Bob leading. @param {Msg} e @param {string[]} names @returns {string}
 */
function scoreLine(e, names) {
  return t("result.score", { a: names[0], sa: num(e.score[0]), sb: num(e.score[1]), b: names[1] });
}

/**
 * One line for any room event.
 * @param {Msg} e @param {string[]} names @param {number | null} [lowest] the lowest ball before a shot
 * @param {Msg | null} [before] the room's view in the snapshot before this one (a snapshot says what changed)
 * @returns {{ text: string, tone: string }}
 */
export function describeEvent(e, names, lowest = null, before = null) {
  switch (e.t) {
    case "snapshot":
      return { text: describeSnapshot(e.view, before), tone: "neutral" };
    case "shot_result": {
      const d = describeShot(/** @type {any} */ (gameOnly(e)), names, lowest);
      return { text: withRules(d.headline, d.rules), tone: d.tone };
    }
    case "ruling": {
      const d = describeRuling(/** @type {any} */ (gameOnly(e)), names);
      return { text: withRules(d.headline, d.rules), tone: d.tone };
    }
    case "placed":
      return { text: t("ev.placed", { name: names[e.seat] }), tone: "neutral" };
    case "chat":
      // A spectator's line says so, as at the table (a record's older lines have no seat).
      return { text: `${e.seat === null ? t("chat.watching", { name: e.name }) : e.name}: ${e.text}`, tone: "neutral" };
    case "warning": {
      const w = describeWarning(/** @type {{ kind: string, seat: number | null }} */ (e), names);
      return { text: withRules(w.text, [w.rule]), tone: "foul" };
    }
    case "game_over":
      // Who won the game and the score: how, the line before said (the winning shot's, or
      // the concession's), and the game's end was read twice ("…: the 9 on the break (G5)",
      // then "The 9 went down on a legal shot").
      return {
        text: `${e.winner === null ? t("result.rackNobody", { rack: e.rack }) : t("result.rack", { name: names[e.winner], rack: e.rack })} ${scoreLine(e, names)}`,
        tone: "win",
      };
    case "match_over":
      return {
        text: `${e.winner === null ? t("result.matchNobody") : t("result.match", { name: names[e.winner] })} ${scoreLine(e, names)}`,
        tone: "win",
      };
    case "presence":
      return { text: e.seat === null ? t("ev.spectators", { n: e.spectators }) : t(e.connected ? "ev.back" : "ev.dropped", { name: names[e.seat] }), tone: "neutral" };
    case "lag_result": {
      const d = describeLag(/** @type {any} */ (e), names);
      return { text: withRules([d.headline, ...d.details.map((l) => l.text)].join(". "), d.rules), tone: "neutral" };
    }
    default:
      return { text: String(e.t), tone: "neutral" };
  }
}

/**
 * The table after event `i` of `events`, from the last event that carries one. A game's
 * last shot shows the balls where they stopped — the 9 down, the winning position — on
 * its line and on the game's and the match's result lines after it; the next rack (the
 * shot's own table: the server racks at once) from the event after those. It showed the
 * new rack on the winning shot's own line, as if the shot had never been played.
 * @param {readonly Msg[]} events @param {number} i @returns {Msg | null}
 */
export function tableAfter(events, i) {
  /** @type {Msg | null} */
  let table = null;
  /** @type {Msg | null} the next game's rack, shown from the next event with a table or a placement */
  let next = null;
  for (let k = 0; k <= i; k++) {
    const e = events[k];
    const moves = e.t === "snapshot" || e.t === "placed" || ((e.t === "shot_result" || e.t === "ruling" || e.t === "lag_result") && e.table);
    if (next && moves) [table, next] = [next, null];
    if (e.t === "snapshot") table = e.view.table;
    else if ((e.t === "shot_result" || e.t === "ruling") && e.table && e.verdict?.game_over) {
      // The balls as the game left them (a shot's where they stopped; a concession's,
      // a forfeit's or a time-out's where they lay), with the score and the next rack's
      // lowest ball (what the next event is described by).
      const balls = e.t === "shot_result" && e.final ? e.final : (table?.balls ?? e.table.balls);
      table = { ...e.table, balls };
      next = e.table;
    } else if ((e.t === "shot_result" || e.t === "ruling" || e.t === "lag_result") && e.table) table = e.table;
    else if (e.t === "placed" && table) table = Object.assign({}, table, { balls: [e.pos, ...table.balls.slice(1)] });
  }
  return table;
}

/**
 * The lag whose balls still stand on the table at event `i`: the latest lag result at or
 * before it, unless a table has been set since (live, the two balls stay where they
 * stopped until the winner's choice brings the rack; the replay emptied the table at the
 * next event, "waiting for Bob to choose who breaks"). @param {readonly Msg[]} events
 * @param {number} i @returns {Msg | null}
 */
export function lagShownAt(events, i) {
  for (let k = i; k >= 0; k--) {
    const e = events[k];
    if (e.t === "lag_result") return e.lags?.length ? e : null;
    if ((e.t === "snapshot" && e.view?.table) || e.t === "placed" || ((e.t === "shot_result" || e.t === "ruling") && e.table)) return null;
  }
  return null;
}

/**
 * Play or Pause on the one button, both words in it (worded by the page's catalogue pass)
 * and the other one hidden: it keeps the wider one's width, so the row of buttons does not
 * wrap anew at every press.
 * @param {boolean} playing
 */
function playLabel(playing) {
  const b = el("r-play");
  const [play, pause] = b.children;
  play.classList.toggle("off", playing);
  pause.classList.toggle("off", !playing);
  b.setAttribute("aria-pressed", String(playing));
}

/**
 * The replay's way back to its table. A player or spectator who came from a table (its
 * result's replay) goes back to it. A tab of its own that the table's log opened (one page
 * long, never connected, opened from the game's page — not the bracket's) closes, which
 * shows the table's tab again; a tab the browser will not let a script close says where
 * the table is.
 * @param {string | null} room the table this page is at @param {boolean} connected
 */
export function offerWayBack(room, connected) {
  const back = /** @type {HTMLAnchorElement} */ (document.getElementById("r-back"));
  const from = document.referrer ? new URL(document.referrer) : null;
  const ownTab = !room && !connected && history.length === 1 && from?.origin === location.origin && from.pathname === location.pathname;
  back.hidden = !room && !ownTab;
  wordAs(back, "replay.back");
  if (room) back.href = `#/room/${encodeURIComponent(room)}`;
  back.onclick = ownTab
    ? (e) => {
        e.preventDefault();
        window.close();
        setTimeout(() => window.closed || wordAs(back, "replay.tableElsewhere"), 150);
      }
    : null;
}

export class ReplayViewer {
  constructor() {
    this.renderer = new Renderer(/** @type {HTMLCanvasElement} */ (el("r-table")));
    /** The scene last drawn on the canvas (JSON; "" while a shot plays out). */
    this.drawn = "";
    /** @type {Msg[]} */
    this.events = [];
    this.index = -1;
    /** @type {string[]} */
    this.names = [t("v.playerN", { n: 1 }), t("v.playerN", { n: 2 })];
    /** The players' names as the replay document gives them, and each seat's computer level or null. @type {string[]} */
    this.players = [];
    /** @type {(number | null)[]} */
    this.computer = [];
    /** @type {Msg | null} */
    this.table = null;
    /** A shot or a lag playing; a lag's playbacks each with its seat. @type {{ playbacks: ShotPlayback[], start: number, last: number, seats?: number[] } | null} */
    this.anim = null;
    /** A lag's balls where they stopped, each with its seat, while its result is shown. @type {import("./lagballs.mjs").LagBall[] | null} */
    this.lagRest = null;
    /** The name tags last drawn (a lag's). @type {{ x: number, y: number, text: string, colour: string }[]} */
    this.labels = [];
    /** @type {string} */
    this.room = "";
    /** @type {Msg} */
    this.settings = {};
    /** the server kept only the start of this match */
    this.truncated = false;
    /** The rack shown (null: the whole match) and its events' first and last index. */
    /** @type {number | null} */
    this.rack = null;
    /** The room's match that rack is of, or shown whole (1: the first; a rematch is the next); null: the whole record. */
    /** @type {number | null} */
    this.match = null;
    this.lo = 0;
    this.hi = -1;
    /** Autoplay: steps on by itself, a pause after each shot has played out. */
    this.playing = false;
    this.restUntil = 0;
    el("r-next").addEventListener("click", () => this.step(1));
    el("r-prev").addEventListener("click", () => this.step(-1));
    el("r-first").addEventListener("click", () => this.go(this.lo));
    el("r-last").addEventListener("click", () => this.go(lastPlay(this.events, this.lo, this.hi)));
    el("r-play").addEventListener("click", () => this.setPlaying(!this.playing));
    el("r-copy").addEventListener("click", () => void this.copyMoment());
    el("r-scrub").addEventListener("input", (e) => {
      this.setPlaying(false);
      this.go(Number(/** @type {HTMLInputElement} */ (e.target).value));
    });
    document.addEventListener("keydown", (ev) => this.key(ev));
  }

  /**
   * The replay's keys, as its buttons (a player's arrow keys did nothing there): ←/→ a
   * step back or on, Home/End the first and the last, Space plays or pauses — not in a
   * field (the position slider has its own arrows), nor Space on a button (it presses it).
   * @param {KeyboardEvent} ev
   */
  key(ev) {
    if (el("replay-view").hidden || ev.altKey || ev.ctrlKey || ev.metaKey || ev.defaultPrevented) return;
    const at = ev.target instanceof Element ? ev.target : null;
    if (at?.closest("input, select, textarea, dialog[open]") || (ev.key === " " && at?.closest("button, a, summary"))) return;
    /** @type {Record<string, () => void>} */
    const keys = {
      ArrowRight: () => this.step(1),
      ArrowLeft: () => this.step(-1),
      Home: () => this.go(this.lo),
      End: () => this.go(lastPlay(this.events, this.lo, this.hi)),
      " ": () => this.setPlaying(!this.playing),
    };
    const act = keys[ev.key];
    if (!act) return;
    ev.preventDefault();
    act();
  }

  /** @param {boolean} on */
  setPlaying(on) {
    this.playing = on && this.index < this.hi;
    this.restUntil = 0;
    playLabel(this.playing);
  }

  /**
   * @param {string} room @param {string | null} [code] the invite code, for a private room
   * @param {number | null} [rack] one rack only, played by itself
   * @param {number | null} [match] the room's match that rack is of (a rematch's racks count
   * from 1 again), or without a rack the match shown whole; null: the room's whole record
   */
  async open(room, code = null, rack = null, match = null) {
    if (room === this.room && this.events.length && rack === this.rack && match === this.match) return;
    const query = code ? `?code=${encodeURIComponent(code)}` : "";
    const token = session.token();
    const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
    const res = await fetch(`/replay/${encodeURIComponent(room)}${query}`, { headers });
    if (!res.ok) throw new Error(res.status === 404 ? t("replay.none", { id: room }) : t("replay.failed", { status: res.status }));
    const doc = /** @type {Msg} */ (decode(new Uint8Array(await res.arrayBuffer())));
    this.room = room;
    this.events = doc.events ?? [];
    this.players = Array.isArray(doc.players) ? doc.players.map((/** @type {unknown} */ p) => String(p)) : [];
    this.computer = Array.isArray(doc.computer) ? doc.computer : [];
    if (this.players.length === 2) this.names = this.players.map((p, i) => seatName(p, this.computer[i]));
    this.settings = doc.settings ?? {};
    this.truncated = !!doc.truncated;
    let bounds = rack !== null ? rackBounds(this.events, rack, match ?? 1) : match !== null ? matchBounds(this.events, match) : [0, this.events.length - 1];
    // A game (or match) not played (yet): said, and the room's whole record shown instead
    // of an empty viewer with nothing to step through.
    const missing = bounds ? null : new Error(rack !== null ? t("replay.noRack", { rack }) : t("replay.noMatch", { match: match ?? 0 }));
    if (!bounds) [rack, match, bounds] = [null, null, [0, this.events.length - 1]];
    this.rack = rack;
    this.match = match;
    [this.lo, this.hi] = bounds;
    const scrub = /** @type {HTMLInputElement} */ (el("r-scrub"));
    scrub.min = String(this.lo);
    scrub.max = String(this.hi);
    const share = /** @type {HTMLAnchorElement} */ (el("r-share"));
    const whole = `${location.origin}/#/replay/${encodeURIComponent(room)}`;
    share.href = rack !== null ? `${location.origin}/replay/${rackAddress(room, rack, match ?? 1)}` : match !== null ? `${whole}/${match}/all` : whole;
    el("r-copied").textContent = "";
    this.render();
    // A link to a moment (`?at=N`, N as the list numbers it) opens on that event and waits
    // there; the address forgets it at once, so the lobby or the next replay opened from
    // this page does not jump too.
    const at = momentOf(location.search, this.hi - this.lo + 1);
    if (at !== null) history.replaceState(null, "", `${location.pathname}${searchWithout(location.search, "at")}${location.hash}`);
    this.go(at === null ? this.lo : this.lo + at - 1);
    // A shared rack plays by itself; a whole match, or a moment, waits for its viewer.
    this.setPlaying(rack !== null && at === null);
    if (missing) throw missing;
  }

  /** The address of the event shown: the link to share with `?at=` its number in the
   * list (the query the page keeps across the rack page's redirect), as a string. */
  momentLink() {
    const base = new URL(/** @type {HTMLAnchorElement} */ (el("r-share")).href);
    base.searchParams.set("at", String(this.index - this.lo + 1));
    return base.href;
  }

  /** Copies `momentLink` and says so; where the clipboard is refused (a plain-http
   * address), the link is shown to be copied by hand. */
  async copyMoment() {
    const link = this.momentLink();
    const said = el("r-copied");
    try {
      await navigator.clipboard.writeText(link);
      said.textContent = t("replay.copied", { n: this.index - this.lo + 1 });
    } catch {
      said.textContent = link;
    }
  }

  /** Writes the list of events (again, after a change of language). */
  render() {
    if (!this.events.length) return;
    const log = el("r-log");
    log.replaceChildren();
    this.events.forEach((e, i) => {
      if (i < this.lo || i > this.hi) return;
      const names = this.namesAt(i);
      const d = describeEvent(e, names, this.tableAt(i - 1)?.lowest ?? null, this.viewBefore(i));
      const li = document.createElement("li");
      li.className = d.tone;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small";
      b.textContent = String(i - this.lo + 1);
      b.setAttribute("aria-label", t("replay.goTo", { n: i - this.lo + 1 }));
      b.addEventListener("click", () => this.go(i));
      li.append(b, " ", d.text);
      // The line itself goes there too (the button is what keys and screen readers use).
      li.addEventListener("click", (ev) => {
        if (ev.target !== b) this.go(i);
      });
      log.append(li);
    });
    this.header();
    playLabel(this.playing);
    if (this.index >= 0) this.go(this.index);
  }

  /** The replay's line over the table: the table, its race, the game shown — in a whole
   * match's replay the game of the event shown (it never said which game one was in). */
  header() {
    const cut = this.truncated ? ` · ${t("replay.truncated")}` : "";
    const match = this.match ?? 1;
    const now = this.rack === null && this.match !== null ? Number(this.tableAt(this.index)?.rack ?? 0) || null : null;
    const rack = this.rack ?? now;
    const which = rack !== null ? ` · ${match > 1 || now !== null ? t("replay.matchRack", { match, rack }) : t("replay.rack", { rack })}` : this.match !== null ? ` · ${t("replay.match", { match })}` : "";
    const line = `${t("replay.title", { name: tableName({ name: this.settings?.name, settings: this.settings, computer: this.computer, players: this.players }), race: this.settings?.race_to ?? "?" })}${which}${cut}`;
    if (el("r-line").textContent !== line) el("r-line").textContent = line;
  }

  /** Seat names as of event `i` (the latest snapshot before it); a seat empty then is named
   * after who sits there next (a tournament's match opened on one player: the other read
   * "Player 2", the replay's players being whoever sat at the end). @param {number} i */
  namesAt(i) {
    const seated = (/** @type {Msg | undefined} */ e, /** @type {number} */ s) => {
      const seat = e?.t === "snapshot" ? e.view.seats?.[s] : null;
      return seat ? seatName(seat.name, seat.computer) : null;
    };
    const next = (/** @type {number} */ s) => {
      for (let k = i + 1; k < this.events.length; k++) {
        const name = seated(this.events[k], s);
        if (name) return name;
      }
      return this.names[s];
    };
    for (let k = i; k >= 0; k--) {
      if (this.events[k]?.t === "snapshot") return [0, 1].map((s) => seated(this.events[k], s) || next(s));
    }
    return this.names;
  }

  /** The room's view in the last snapshot before event `i` (null: none). @param {number} i */
  viewBefore(i) {
    for (let k = i - 1; k >= 0; k--) if (this.events[k]?.t === "snapshot") return this.events[k].view;
    return null;
  }

  /** The table after event `i` (`tableAfter`). @param {number} i */
  tableAt(i) {
    return tableAfter(this.events, i);
  }

  /** @param {number} d */
  step(d) {
    const next = this.index + d;
    if (next < this.lo || next > this.hi) return;
    this.go(next, d > 0);
  }

  /** @param {number} i @param {boolean} [animate] */
  go(i, animate = false) {
    if (!this.events.length) return;
    this.index = Math.max(this.lo, Math.min(this.hi, i));
    /** @type {HTMLInputElement} */ (el("r-scrub")).value = String(this.index);
    // Nowhere to go: the buttons say so (Next at the end did nothing, looking ready).
    const atStart = this.index <= this.lo;
    const atEnd = this.index >= this.hi;
    /** @type {HTMLButtonElement} */ (el("r-first")).disabled = atStart;
    /** @type {HTMLButtonElement} */ (el("r-prev")).disabled = atStart;
    /** @type {HTMLButtonElement} */ (el("r-next")).disabled = atEnd;
    /** @type {HTMLButtonElement} */ (el("r-last")).disabled = this.index >= lastPlay(this.events, this.lo, this.hi);
    const e = this.events[this.index];
    this.names = this.namesAt(this.index);
    this.header();
    this.anim = null;
    // A lag's result shows its balls where they stopped, named, as the table did live.
    const lag = lagShownAt(this.events, this.index);
    this.lagRest = lag ? lagRest(lag) : null;
    if (animate && e.t === "shot_result") {
      this.table = this.tableAt(this.index - 1);
      this.anim = { playbacks: [new ShotPlayback(normaliseTracks(decodeTracks(e.traj)), e.duration, e.final)], start: performance.now(), last: 0 };
    } else if (animate && e.t === "lag_result" && e.lags?.length) {
      this.table = null;
      this.anim = {
        playbacks: e.lags.map(lagPlayback),
        seats: e.lags.map((/** @type {Msg} */ l) => l.seat),
        start: performance.now(),
        last: 0,
      };
    }
    if (!this.anim) this.table = this.tableAt(this.index);
    const d = describeEvent(e, this.names, this.tableAt(this.index - 1)?.lowest ?? null, this.viewBefore(this.index));
    el("r-pos").textContent = t("replay.pos", { i: this.index - this.lo + 1, n: this.hi - this.lo + 1, text: d.text });
    const tb = this.tableAt(this.index);
    for (const s of [0, 1]) {
      // The score apart from the name, as the table's scoreboard has it ("Bot 2" and 1, not "Bot 2 1").
      const name = h("span", { class: "name", text: this.names[s] });
      el(`r-seat${s}`).replaceChildren(name, h("span", { class: "score", text: num(tb?.score?.[s] ?? 0) }));
      fitName(name, `r-seat${s}-name`, num(tb?.score?.[s] ?? 0)); // whole, as at the table
    }
    for (const [k, li] of [...el("r-log").children].entries()) {
      li.toggleAttribute("aria-current", k + this.lo === this.index);
      if (k + this.lo === this.index) keepInView(li);
    }
    askFrame(); // (drawn at once: a replay at rest is looked at only four times a second)
  }

  /** Draws one frame (called from the page's animation loop). */
  frame() {
    this.renderer.resize();
    /** @type {BallFrame[]} */
    let balls;
    const a = this.anim;
    if (a) {
      const rate = playbackRate();
      const t = ((performance.now() - a.start) / 1000) * rate;
      const dt = Math.max(0, Math.min(0.1 * rate, t - a.last));
      a.last = t;
      // A lag's balls carry their seats, named as they roll as at the table (they rolled
      // unnamed, two white balls, and were named only once they had stopped).
      balls = a.playbacks.flatMap((p, k) => p.frame(t).map((b) => (a.seats ? { ...b, seat: a.seats[k] } : b)));
      for (const b of balls) if (b.wx || b.wy || b.wz) this.renderer.spin(b.n, b.wx, b.wy, b.wz, dt);
      if (a.playbacks.every((p) => p.done(t))) {
        this.anim = null;
        this.table = this.tableAt(this.index);
      }
    } else if (this.lagRest) {
      const rest = lagFrames(this.lagRest);
      this.labels = lagTags(rest, this.names);
      this.paint(rest, { lowest: null, labels: this.labels });
      this.autoplay();
      return;
    } else {
      balls = restingBalls(this.table?.balls ?? []);
      this.autoplay();
    }
    this.labels = a?.seats ? lagTags(balls, this.names) : [];
    // (The ball to hit is ringed, still: nobody is to shoot.)
    this.paint(balls, { lowest: this.anim ? null : (this.table?.lowest ?? null), labels: this.labels, calm: true }, !!a);
  }

  /**
   * Draws the scene unless the canvas shows it already: a replay paused, or resting
   * between shots, costs no drawing (it was drawn twenty times a second, unchanged).
   * @param {BallFrame[]} balls @param {import("./render.mjs").Overlay} overlay
   * @param {boolean} [moving] a shot playing out: every frame is new
   */
  paint(balls, overlay, moving = false) {
    const scene = moving ? "" : JSON.stringify([balls, overlay]);
    if (!moving && !this.renderer.blank && scene === this.drawn) return;
    this.drawn = scene;
    this.renderer.draw(balls, overlay);
  }

  /** Autoplay's next step, once the last one has played out and rested a moment. */
  autoplay() {
    if (!this.playing) return;
    const now = performance.now();
    if (!this.restUntil) {
      this.restUntil = now + REST_MS * Math.min(1, DEFAULT_RATE / playbackRate());
      return;
    }
    if (now < this.restUntil) return;
    this.restUntil = 0;
    if (this.index >= this.hi) {
      this.setPlaying(false);
      return;
    }
    this.step(1);
  }
}

/**
 * Keeps the current entry of the replay's list in view where the list scrolls in its own
 * panel (a wide screen); on a phone the panel is part of the page, and following the
 * entry would pull the page away from the table while it plays.
 * @param {Element} li
 */
function keepInView(li) {
  const panel = li.closest(".replay-panel");
  if (!(panel instanceof HTMLElement) || getComputedStyle(panel).overflowY === "visible") return;
  li.scrollIntoView({ block: "nearest" });
}
