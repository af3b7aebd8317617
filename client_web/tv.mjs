// `/tv`: a channel that always shows a live table, chosen on its own. It ranks the lobby's
// public tables by what makes a table worth watching — people already watching it, a
// close score (hill-hill above all), a rack near its end, its players there — stays on
// the table it chose until that match is over (a channel that hops mid-rack is
// unwatchable), lingers on the result, then moves to the best table live at that moment.
// A table that stands still (no shot, no aim, for `IDLE_SECONDS`: players gone to make
// tea at a table without a shot clock) is left for another live one, if there is one.
// With nothing live it waits and takes the first table that starts.
//
// `interest` and `pickTable` are pure (tested without a browser); `TvDirector` drives the
// page through the callbacks the application gives it.

/** @typedef {Record<string, any>} Info a lobby entry (`protocol` `Info`) */

/** Seconds the channel stays on a finished match before it moves on. */
export const LINGER_SECONDS = 12;
/**
 * How long the channel lingers on a result (ms): `?linger=` seconds from the page's
 * address (1–60; tests shorten it), else `LINGER_SECONDS`.
 * @param {string} search the address's query
 */
export function lingerFrom(search) {
  return Math.min(60, Math.max(1, Number(new URLSearchParams(search).get("linger")) || LINGER_SECONDS)) * 1000;
}

/** Seconds the channel waits, at most, for the end of a match whose table has closed (a
 * tournament's table closes with its match, often before the last shot has played out on
 * the channel) before it moves on without it. */
export const CLOSING_SECONDS = 30;

/** Seconds the table shown may stand still before the channel moves to another live one. */
export const IDLE_SECONDS = 90;

/** A table's messages that are play: what keeps the channel on it (`TvDirector.activity`). */
export const PLAY_MESSAGES = new Set(["shot_result", "ruling", "placed", "lag_result", "aim"]);

/**
 * How worth watching a table is now, or null when it is not live (waiting for players,
 * finished, or empty).
 * @param {Info} info @returns {number | null}
 */
export function interest(info) {
  if (info.status !== "playing" && info.status !== "lag") return null;
  if (!Array.isArray(info.players) || info.players.length < 2) return null;
  // Players whose connection is lost (their seats kept a while, O5): with every person at
  // the table gone nothing will be played — the channel showed such a match forfeiting
  // game after game while the computers played next door; with one gone, play stalls.
  const away = Array.isArray(info.away) ? info.away.filter(Boolean).length : 0;
  const people = info.players.length - computers(info);
  if (people > 0 && away >= people) return null;
  const race = Math.max(1, Number(info.race_to) || 1);
  const [a, b] = (Array.isArray(info.score) ? info.score : [0, 0]).map((x) => Number(x) || 0);
  // People watching: the crowd is the best single sign, with diminishing returns.
  let score = 2 * Math.log2(1 + Math.max(0, Number(info.spectators) || 0));
  // A close match, and one near its end: hill-hill is the best thing on the channel.
  score += 1.5 * (1 - Math.abs(a - b) / race);
  score += 1.5 * (Math.max(a, b) / race);
  if (a === race - 1 && b === race - 1) score += 2;
  // A rack near its end (balls left is only known to newer servers).
  if (info.status === "playing" && typeof info.balls_left === "number") {
    score += (9 - Math.max(0, Math.min(9, info.balls_left))) / 9;
  }
  // A lag is a slow start: show it only when there is nothing better.
  if (info.status === "lag") score -= 1;
  // People before the computers' exhibitions, whatever their score (those are for a
  // channel with nothing else on), and a tournament's match before a friendly one.
  if (exhibition(info)) score -= 20;
  if (away > 0) score -= 40; // below the computers' exhibitions, whatever its score: they play
  if (info.settings?.tournament) score += 1.5;
  return score;
}

/** What of a lobby entry changes when its table is played (not its count of watchers). @param {Info} info */
function motionOf(info) {
  return JSON.stringify([info.status, info.score, info.rack, info.balls_left, info.players]);
}

/** How many of the table's players are computers. @param {Info} info */
function computers(info) {
  return Array.isArray(info.computer) ? info.computer.filter((level) => level !== null && level !== undefined).length : 0;
}

/** Both seats are computers: a table for a channel with nothing else on. @param {Info} info */
function exhibition(info) {
  return computers(info) === 2;
}

/**
 * The table to show: the current one while its match is live (unless it is the computers'
 * exhibition and people now play: they come first), else the most interesting live table
 * (ties broken by room id, so every viewer's channel agrees), else null.
 * @param {Iterable<Info>} infos @param {string | null} current
 * @returns {string | null}
 */
export function pickTable(infos, current) {
  /** @type {{ room: string, score: number, info: Info } | null} */
  let best = null;
  /** @type {Info | null} */
  let shown = null;
  for (const info of infos) {
    const score = interest(info);
    if (score === null) continue;
    if (info.room === current) shown = info;
    if (!best || score > best.score || (score === best.score && info.room < best.room)) best = { room: info.room, score, info };
  }
  if (shown && (!exhibition(shown) || !best || exhibition(best.info))) return shown.room;
  return best ? best.room : null;
}

/**
 * @typedef {object} TvHost what the channel needs of the page
 * @property {() => Iterable<Info>} rooms the lobby's current list
 * @property {(room: string) => Promise<boolean>} watch join a table as a spectator
 * @property {() => Promise<void>} leave leave the table shown
 * @property {(room: string | null) => void} showing the table now shown (null: none live)
 */

export class TvDirector {
  /** @param {TvHost} host @param {number} [lingerMs] how long a finished match stays on
   * @param {number} [closingMs] how long a closed table's match's end is waited for
   * @param {number} [idleMs] how long the table shown may stand still */
  constructor(host, lingerMs = LINGER_SECONDS * 1000, closingMs = CLOSING_SECONDS * 1000, idleMs = IDLE_SECONDS * 1000) {
    this.host = host;
    this.lingerMs = lingerMs;
    this.closingMs = closingMs;
    this.idleMs = idleMs;
    /** Fires `idleMs` after the table shown last moved (a shot, a ruling, a player aiming,
     * as the message arrives): every page following the channel — `/tv` and its overlay —
     * judges a table still at the same moment, and so moves to the same table. */
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.idleTimer = null;
    /** Tables left for standing still, with what their lobby entry said then (`motionOf`). @type {Map<string, string>} */
    this.stillAt = new Map();
    /** @type {string | null} */
    this.room = null;
    this.active = false;
    this.busy = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.linger = null;
    /** Lingering, a new match at the table shown has begun (`holds`). */
    this.holding = false;
    /** The table shown has closed; its match's end is still to be shown (see `gone`). */
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.closing = null;
  }

  start() {
    this.active = true;
    this.update();
  }

  /** Something happened at the table shown (a shot, a ruling, a player's aim). */
  activity() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = this.active ? setTimeout(() => void this.stoodStill(), this.idleMs) : null;
  }

  /** Whether the channel left this table standing still, and it has not moved since. @param {Info} info */
  leftStill(info) {
    return this.stillAt.get(info.room) === motionOf(info);
  }

  /** Live tables but those left standing still that have not moved since (two still
   * tables would take turns on the channel); all of them if that leaves none.
   * @param {Info[]} rooms */
  moving(rooms) {
    const moving = rooms.filter((i) => !this.leftStill(i));
    return moving.some((i) => interest(i) !== null) ? moving : rooms;
  }

  /** The table shown has stood still for `idleMs`: another live table, if there is one. */
  async stoodStill() {
    this.idleTimer = null;
    if (!this.active || this.linger || this.closing || !this.room) return;
    if (this.busy) return void this.activity(); // (a move under way: judged again later)
    const was = this.room;
    const rooms = [...this.host.rooms()];
    const shown = rooms.find((i) => i.room === was);
    if (shown) this.stillAt.set(was, motionOf(shown));
    const others = rooms.filter((i) => i.room !== was && !this.leftStill(i));
    const next = pickTable(others, null);
    if (!next) return void this.activity(); // nothing else on: the still table stays, judged again later
    this.busy = true;
    try {
      await this.host.leave();
      this.room = null;
      if (await this.host.watch(next)) this.room = next;
      this.activity();
      this.host.showing(this.room);
    } finally {
      this.busy = false;
    }
  }

  async stop() {
    this.active = false;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.linger) clearTimeout(this.linger);
    if (this.closing) clearTimeout(this.closing);
    this.linger = null;
    this.closing = null;
    if (this.room) await this.host.leave();
    this.room = null;
  }

  /** The lobby changed, or the connection came back: follow the best table. */
  async update() {
    if (!this.active || this.busy || this.linger || this.closing) return;
    const rooms = [...this.host.rooms()];
    for (const room of this.stillAt.keys()) if (!rooms.some((i) => i.room === room)) this.stillAt.delete(room);
    if (this.room) {
      // The list says the match shown has ended (or the table has gone) before its last
      // shot has played out on the channel: it stays on for that end (see `gone`).
      const shown = rooms.find((info) => info.room === this.room);
      if (!shown || shown.status === "finished") return void this.gone(this.room);
    }
    const next = pickTable(this.room ? rooms : this.moving(rooms), this.room);
    if (next === this.room) {
      if (next === null) this.host.showing(null);
      return;
    }
    this.busy = true;
    try {
      if (this.room) await this.host.leave();
      this.room = null;
      if (next && (await this.host.watch(next))) this.room = next;
      this.activity();
      this.host.showing(this.room);
    } finally {
      this.busy = false;
    }
  }

  /**
   * A table left the lobby's list. The one shown goes on being shown until its match's end
   * has played out on the channel (`matchOver`, then the usual linger): its table closing
   * as the winning shot is struck must not cut the shot. Any other: the list changed.
   * @param {string} room
   */
  gone(room) {
    if (!this.active || room !== this.room) return void this.update();
    if (this.linger || this.closing) return;
    this.closing = setTimeout(() => {
      this.closing = null;
      this.matchOver(0); // never ended on the channel (closed mid-match): on at once
    }, this.closingMs);
  }

  /** The table shown could not be joined again (after a reconnect): take the best one now. */
  forget() {
    this.room = null;
    return this.update();
  }

  /**
   * Whether an event of the table shown is held back, not shown: while the channel
   * lingers on a match's result, a new match begun there (the computers' rematch, at
   * 0 : 0 with its lag) and all that follows it. The match's own last events still show.
   * @param {Record<string, any>} m @param {number | undefined} match the match shown
   */
  holds(m, match) {
    if (!this.active || !this.linger) return (this.holding = false);
    if (m.t === "snapshot" && m.view?.match !== match) this.holding = true;
    return this.holding;
  }

  /** The match shown is over: linger on the result, then move on. @param {number} [lingerMs] */
  matchOver(lingerMs = this.lingerMs) {
    if (!this.active || this.linger) return;
    if (this.closing) clearTimeout(this.closing);
    this.closing = null;
    this.linger = setTimeout(async () => {
      this.linger = null;
      this.holding = false;
      const was = this.room;
      if (was) await this.host.leave();
      this.room = null;
      // The finished table may still be listed a moment: never pick it again.
      const rooms = [...this.host.rooms()].filter((i) => i.room !== was);
      this.busy = true;
      try {
        const next = pickTable(this.moving(rooms), null);
        if (next && (await this.host.watch(next))) this.room = next;
        this.activity();
        this.host.showing(this.room);
      } finally {
        this.busy = false;
      }
    }, lingerMs);
  }
}
