// `/overlay/<room>`: a transparent strip for streaming software (an OBS browser source,
// say) that follows one table live: the players' names and ratings, the score and the
// race, the game in play, whose shot it is, the shot clock and the balls still on the
// table. It watches as a spectator over its own connection, with a session of its own
// kept in memory, so a player streaming their own match from the same browser keeps
// their seat.
//
// `overlayModel` is the whole of what is shown, as a value (tested without a browser);
// the page only draws it. `OverlayFeed` keeps it in step with the table a spectator sees:
// a shot's outcome shows when the shot has rolled out on screen, not when the server
// decided it (which would give the shot away on stream, and start the shot clock early).
// `?lang=` picks the language; `?theme=light` the text colour; `?rate=` the playback
// speed the viewers' tables use (2 by default, as theirs); `?code=` a private table's
// invite code.
//
// `/overlay/tv` follows the TV channel instead of one table: the table `/tv` shows, chosen
// by the same rules from the same lobby list (`tv.mjs`), so a stream of the channel
// carries the strip of whatever match is on it; with nothing live it says so. (`?linger=`
// as on `/tv`: seconds on a finished match before it moves on.)

import { isDecider, lagTimes, roomName } from "./formats.mjs";
import { readKept } from "./kept.mjs";
import { Connection, defaultUrl } from "./net.mjs";
import { BALL_COLOURS } from "./table.mjs";
import { initLanguage, num, seatName, t } from "./i18n/index.mjs";
import { PLAY_MESSAGES, TvDirector, lingerFrom } from "./tv.mjs";
import { describeRuling, describeShot } from "./verdict.mjs";

/** The overlay's address that follows the TV channel (no room id is this short). */
export const TV_ROOM = "tv";

/** @typedef {Record<string, any>} Msg */

/**
 * What the overlay shows.
 * @typedef {object} OverlayModel
 * @property {"waiting" | "lag" | "playing" | "finished" | "gone" | "none" | "idle"} status "none": no such table; "idle": the TV has no live table (`/overlay/tv`)
 * @property {{ name: string, rating: number | null, provisional: boolean, score: number, toAct: boolean, away: boolean, computer: boolean, fouls: number }[]} seats
 * `fouls`: the player's fouls in a row in this game (R13: a third loses it), 0 once the match is over
 * @property {number} race
 * @property {number} rack 0 before the first break is decided
 * @property {boolean} decider each player is a game from the match: this game decides it
 * @property {string | null} chooser who is choosing who breaks, after the lag
 * @property {number[]} balls object balls on the table, lowest first (none once the match is
 * over: an unfinished game's balls said nothing of a match conceded or forfeited)
 * @property {number | null} clock whole seconds left on the shot clock — in the lag, on the lag's
 * time or the lag winner's choice; null without one or while it is paused
 * @property {number | null} winner the match winner's seat once the match is over
 * @property {"race" | "concede" | "forfeit" | null} ended how the match ended, when the strip saw it end (a conceded 0 : 0 "win" looked like a fault on stream)
 * @property {boolean} draw the first break is drawn for, not lagged: the room draws, or nobody
 * lagged in time (O6)
 * @property {string} title the table's own name as the lobby says it ("Zagreb Open · Losers' bracket, round 1"), or ""
 * @property {{ text: string, foul: boolean } | null} [call] the referee's call on the last shot or
 * ruling (a game conceded, a shot clock run out), while it is news
 * @property {number | null} [scored] the seat that has just won a game, for a moment (its score is lit)
 */

/**
 * The overlay's content from the room's last view, the latest table view of any event
 * and the server's clock.
 * @param {Msg | null} view the room view of the last snapshot @param {Msg | null} table the newest table view
 * @param {number} now the server's clock, epoch ms
 * @param {number} [cap] the most the turn's clock may show (s): the server starts it when
 * the shot has played out at its own speed, the viewers' tables a little sooner
 * @param {(string | null)[] | null} [kept] a tournament match's players by seat
 * (`kept.mjs`): who an empty seat is kept for, or who sat in it, as the table says
 * @param {boolean} [drawn] this match's first break was drawn for after a lag nobody played in time
 * @returns {OverlayModel}
 */
export function overlayModel(view, table, now, cap = Infinity, kept = null, drawn = false) {
  const over = view?.status === "finished" || !!table?.match_over;
  // The lag's winner choosing who breaks is the one to act (there is no turn at the
  // table yet: the choice's time stood under the first plate whoever chose).
  const choosing = view?.lag_choice != null;
  const seats = [0, 1].map((s) => {
    const seat = view?.seats?.[s] ?? null;
    const rating = typeof seat?.rating === "number" ? Math.round(seat.rating) : null;
    // A tournament's empty seat keeps its player's name: before the match, the player
    // it waits for (away); after it, the one who played there and has gone — a
    // tournament's room frees the seat as they leave, with the result still on the strip.
    const absent = seat ? null : (kept?.[s] ?? null);
    return {
      name: seat ? seatName(seat.name, seat.computer) : (absent ?? ""),
      rating,
      provisional: !!seat?.provisional,
      score: Number(table?.score?.[s] ?? 0),
      toAct: view?.status === "lag" ? choosing && view.lag_choice === s : !!table && !table.match_over && table.turn === s,
      away: (!!seat && seat.connected === false) || (!!absent && !over),
      computer: seat?.computer != null,
      fouls: over ? 0 : Number(table?.fouls?.[s] ?? 0),
    };
  });
  const balls = [];
  const onTable = table?.balls ?? [];
  for (let n = 1; n < onTable.length; n++) if (onTable[n]) balls.push(n);
  const clock = table?.clock;
  // In the lag the time is the lag's (O6), then the lag winner's to choose who breaks —
  // never more than the room gives: the server's time starts after the lag's animation,
  // which the strip does not play (it read 35 s of a 30 s choice).
  const lagEnds = view?.status === "lag" ? (choosing ? view.lag_choice_until : view.lag_until) : null;
  const times = lagTimes(view?.settings);
  const left =
    typeof lagEnds === "number"
      ? Math.min((choosing ? times.choice : times.lag) ?? Infinity, Math.max(0, Math.ceil((lagEnds - now) / 1000)))
      : clock && typeof clock.deadline === "number" && !clock.paused
        ? Math.min(cap, Math.max(0, Math.ceil((clock.deadline - now) / 1000)))
        : null;
  return {
    status: view?.status ?? "waiting",
    seats,
    race: Number(view?.settings?.race_to ?? 0),
    rack: Number(table?.rack ?? 0),
    // Both a game from the match: this game decides it (as the table's header says).
    decider: isDecider(Number(view?.settings?.race_to ?? 0), seats.map((s) => s.score), over),
    chooser: view?.status === "lag" && choosing ? seats[view.lag_choice]?.name ?? "" : null,
    balls: table && !over ? balls : [],
    clock: left,
    winner: table?.match_over ? (table.match_winner ?? null) : null,
    ended: table?.match_over ? (table.match_end ?? null) : null,
    draw: view?.settings?.first_break === "draw" || drawn,
    title: view?.settings?.name ? roomName(String(view.settings.name), view.settings) : "",
  };
}

/**
 * The room's events as a spectator's table shows them: each event is taken in order, and
 * a shot's result (its new table, the score, whose turn, the clock) only once the shot
 * has played out at the viewers' playback rate; what came after it waits behind it. A
 * snapshot (a join, a resync) is the room as it is now and replaces whatever waited.
 * Time is given by the caller (ms, any monotonic clock): the feed is a value machine.
 */
/** How long the referee's call on a shot stays on the strip (ms). */
export const CALL_MS = 8000;
/** How long a game's winner's score stays lit on the strip (ms): the broadcast's moment. */
export const SCORED_MS = 4000;

export class OverlayFeed {
  /** @param {number} rate the viewers' playback rate (2: a shot plays at twice its speed) */
  constructor(rate = 2) {
    this.rate = rate;
    /** @type {Msg | null} */
    this.view = null;
    /** @type {Msg | null} */
    this.table = null;
    this.gone = false;
    /** @type {Msg[]} */
    this.queue = [];
    /** When the shot at the head of the queue has rolled out (ms), once it is the head. */
    this.due = /** @type {number | null} */ (null);
    /** The turn shown (rack and seat) and its player's extensions when it began. */
    this.turn = { key: "", extensions: 0 };
    /** The last lag result seen, with the match it was played in (a draw after a lag nobody
     * played in time is told as a draw). @type {{ match: number, method: string } | null} */
    this.lag = null;
    /** Called with each event as it is shown (the channel moves on once a match's end is). @type {(msg: Msg) => void} */
    this.onShown = () => {};
    /** Whether an event is held back, not shown (the channel's `TvDirector.holds`). @type {(msg: Msg, match: number | undefined) => boolean} */
    this.holds = () => false;
    /** The last shot or ruling shown, when, and the ball to hit before it: the referee's
     * call on it, said on the strip for a while (`callAt`). @type {{ msg: Msg, at: number, lowest: number | null } | null} */
    this.call = null;
    /** The last game won on the strip: by which seat, and when (`scoredAt`). @type {{ seat: number, at: number } | null} */
    this.won = null;
  }

  /** The last shot's call while it is news (`CALL_MS` after it rolled out), else null. @param {number} nowMs */
  callAt(nowMs) {
    return this.call && nowMs - this.call.at < CALL_MS ? this.call : null;
  }

  /** The seat that has just won a game, while its score is lit (`SCORED_MS`), else null. @param {number} nowMs */
  scoredAt(nowMs) {
    return this.won && nowMs - this.won.at < SCORED_MS ? this.won.seat : null;
  }

  /** This match's first break was drawn for although the room lags: nobody lagged in time.
   * Only while its winner chooses: a player who left then sent the room back to waiting
   * and a lag afresh, numbered as the same match. */
  lagDrawn() {
    return this.lag?.method === "draw" && this.lag.match === (this.view?.match ?? 0) && this.view?.lag_choice != null;
  }

  /** A shot is rolling on the viewers' tables: its outcome (and the next turn's clock) waits. */
  rolling() {
    return this.queue.some((msg) => msg.t === "shot_result");
  }

  /** The most the shot clock may show (s): the turn's time and the extensions taken in it. */
  clockCap() {
    const c = this.table?.clock;
    if (!c || typeof c.seconds !== "number") return Infinity;
    const now = c.extensions?.[this.table?.turn ?? 0] ?? 0;
    return c.seconds + (c.extension || c.seconds) * Math.max(0, this.turn.extensions - now);
  }

  /** A new table shown: a shot played or a new turn begins the turn's count afresh. @param {Msg} table @param {boolean} shot */
  newTable(table, shot) {
    this.table = table;
    const key = `${table.rack}:${table.turn}`;
    if (shot || key !== this.turn.key) this.turn = { key, extensions: table.clock?.extensions?.[table.turn ?? 0] ?? 0 };
  }

  /** An event heard. @param {Msg} msg @param {number} nowMs */
  push(msg, nowMs) {
    if (this.holds(msg, this.view?.match)) return;
    if (msg.t === "snapshot") {
      // How the match ended is the match_over's to say, not the room's view: kept through
      // the snapshots that follow it (a player's seat freed as they leave), in that match.
      const ended = this.table?.match_over ? this.table.match_end ?? null : null;
      const match = this.view?.match;
      this.queue = [];
      this.due = null;
      this.call = null;
      this.won = null;
      this.view = msg.view;
      // A page coming in late learns how the first break was decided from the room's log
      // (the lag's result after this match's start, if any).
      let lag = null;
      for (const e of /** @type {Msg[]} */ (msg.recent?.log ?? [])) {
        if (e.t === "match_over") lag = null;
        else if (e.t === "lag_result") lag = e;
      }
      if (lag) this.lag = { match: Number(msg.view.match ?? 0), method: String(lag.method) };
      this.table = null;
      if (msg.view.table) this.newTable(msg.view.table, true);
      const now = /** @type {Msg | null} */ (this.table);
      if (ended && now?.match_over && msg.view.match === match) this.table = { ...now, match_end: ended };
    } else if (msg.t === "room_gone") {
      this.gone = true;
    } else {
      this.queue.push(msg);
    }
    this.tick(nowMs);
  }

  /** Takes every event whose time has come. @param {number} nowMs */
  tick(nowMs) {
    while (this.queue.length) {
      const head = this.queue[0];
      if (head.t === "shot_result" && Number(head.duration) > 0) {
        this.due ??= nowMs + (Number(head.duration) * 1000) / this.rate;
        if (nowMs < this.due) return;
      }
      this.queue.shift();
      this.due = null;
      this.take(head, nowMs);
    }
  }

  /** @param {Msg} msg @param {number} nowMs */
  take(msg, nowMs) {
    // A ruling that decided something (a game conceded, a foul on the shot clock) is called
    // as a shot is; a choice (shoot or pass) is the table's to show, and keeps the call.
    if (msg.t === "shot_result" || (msg.t === "ruling" && CALLED_RULINGS.has(String(msg.action)))) this.call = { msg, at: nowMs, lowest: this.table?.lowest ?? null };
    if (msg.t === "game_over" && typeof msg.winner === "number") this.won = { seat: msg.winner, at: nowMs };
    if (msg.t === "lag_result") this.lag = { match: Number(this.view?.match ?? 0), method: String(msg.method) };
    if ((msg.t === "shot_result" || msg.t === "ruling" || msg.t === "lag_result") && msg.table) {
      this.newTable(msg.table, msg.t !== "ruling");
    } else if ((msg.t === "game_over" || msg.t === "match_over") && this.table) {
      // (how a match ended is the message's to say; the table view does not carry it)
      this.table = { ...this.table, score: msg.score, ...(msg.t === "match_over" ? { match_over: true, match_winner: msg.winner, match_end: msg.reason } : {}) };
    }
    this.onShown(msg);
  }
}

/** Rulings the strip calls (`describeRuling`): what ended a game or cost a foul. */
const CALLED_RULINGS = new Set(["concede_game", "concede_match", "clock_expired", "forfeit"]);

/** The room this page follows, from its address (`/overlay/<room>`), or null. */
export function roomOfPath(path) {
  const m = String(path).match(/^\/overlay\/([A-Za-z0-9_-]{1,32})$/);
  return m ? m[1] : null;
}

/** @param {string} tag @param {string} cls @param {string} [text] */
function el(tag, cls, text = "") {
  const e = document.createElement(tag);
  e.className = cls;
  if (text) e.textContent = text;
  return e;
}

/** Draws the model into `#overlay`. @param {OverlayModel} m */
function draw(m) {
  const root = /** @type {HTMLElement} */ (document.getElementById("overlay"));
  root.dataset.status = m.status;
  if (m.status === "none" || m.status === "idle") {
    // A wrong address (or a table that never was), or a channel with nothing live: said
    // plainly, no empty strip.
    root.replaceChildren(el("div", "ov-bar ov-none", t(m.status === "none" ? "overlay.none" : "overlay.tvNothing")));
    return;
  }
  const bar = el("div", "ov-bar");
  for (const s of [0, 1]) {
    const seat = m.seats[s];
    const plate = el("div", `ov-seat ov-seat${s}${seat.toAct ? " ov-turn" : ""}${m.winner === s ? " ov-winner" : ""}`);
    const name = el("span", "ov-name", seat.name || t("overlay.empty"));
    plate.append(name);
    if (seat.computer) plate.append(el("span", "ov-tag", t("overlay.computer")));
    if (seat.rating !== null) plate.append(el("span", "ov-rating", seat.provisional ? `${num(seat.rating)}?` : num(seat.rating)));
    if (seat.away) plate.append(el("span", "ov-tag", t("overlay.away")));
    // Fouls in a row (R13), as the table's tag says them: the second is the warning.
    if (seat.fouls > 0) plate.append(el("span", `ov-tag ov-fouls${seat.fouls >= 2 ? " ov-warn" : ""}`, seat.fouls === 1 ? t("tag.oneFoul") : t("tag.fouls", { n: seat.fouls })));
    const score = el("span", `ov-score${m.scored === s ? " ov-scored" : ""}`, num(seat.score));
    score.dataset.seat = String(s);
    if (s === 0) bar.append(plate, score);
    else bar.append(score, plate);
    if (s === 0) {
      const mid = el("div", "ov-mid");
      mid.append(el("span", "ov-race", t("overlay.race", { race: m.race })));
      const line =
        m.status === "gone"
          ? t("overlay.gone")
          : m.winner !== null
            ? t(m.ended === "concede" ? "overlay.conceded" : m.ended === "forfeit" ? "overlay.forfeit" : "overlay.matchOver")
            : m.status === "waiting"
              ? t("overlay.waiting")
              : m.status === "lag"
                ? m.chooser
                  ? t(m.draw ? "overlay.drawChooses" : "overlay.chooses", { name: m.chooser })
                  : t(m.draw ? "overlay.draw" : "overlay.lag")
                : t(m.decider ? "overlay.rackDecider" : "overlay.rack", { rack: m.rack });
      mid.append(el("span", "ov-line", line));
      bar.append(mid);
    }
  }
  const foot = el("div", "ov-foot");
  const balls = el("div", "ov-balls");
  balls.setAttribute("aria-label", t("overlay.ballsLeft", { n: m.balls.length }));
  for (const n of m.balls) {
    const b = el("span", `ov-ball${n === 9 ? " ov-nine" : ""}${n > 8 ? " ov-stripe" : ""}`, String(n));
    b.style.setProperty("--ball", BALL_COLOURS[n]);
    balls.append(b);
  }
  foot.append(balls);
  if (m.clock !== null) {
    // Under the plate of the player whose time it is (the right one's at the right end).
    const clock = el("span", `ov-clock${m.clock <= 10 ? " ov-urgent" : ""}${m.seats[1].toAct ? " ov-clock1" : ""}`, t("overlay.clock", { s: m.clock }));
    foot.append(clock);
  }
  // A named table (a tournament's match, its round) says so over the strip, in a line
  // that never widens it.
  const call = m.call ? [el("div", `ov-call${m.call.foul ? " ov-foul" : ""}`, m.call.text)] : [];
  root.replaceChildren(...(m.title ? [el("div", "ov-title", m.title)] : []), bar, foot, ...call);
}

/** Starts the overlay page. */
function start() {
  initLanguage();
  const params = new URLSearchParams(location.search);
  if (params.get("theme") === "light") document.documentElement.dataset.theme = "light";
  const path = roomOfPath(location.pathname);
  const following = path === TV_ROOM;
  /** The table shown: the address's, or the one the channel follows (null: none yet). */
  let room = following ? null : path;
  // A private table's invite code (its players' link gives it): without it the table is
  // not there for the strip, as for anyone.
  const code = following ? null : (params.get("code") ?? "").trim().toUpperCase() || null;
  const rate = Math.min(16, Math.max(0.25, Number(params.get("rate")) || 2));
  /** @type {OverlayFeed} */
  let feed;
  /** The players of the tournament match shown, by seat, read once per room (`kept.mjs`). */
  /** @type {{ room: string | null, names: (string | null)[] | null }} */
  let kept = { room: null, names: null };
  const learnKept = () => {
    const view = feed.view;
    if (!view?.settings?.tournament || kept.room === view.room) return;
    kept = { room: view.room, names: null };
    void readKept(view).then((read) => {
      if (kept.room !== view.room || !read) return;
      kept.names = read.names;
      redraw();
    });
  };
  let missing = !path;
  /** @type {string | null} */
  let token = null;
  /** The lobby's public tables, for the channel. @type {Map<string, Msg>} */
  const rooms = new Map();
  // The channel's callbacks use the connection made just below (called only once it is).
  /** A new table's feed: the channel lingers on its match's end once the strip shows it
   * (after the last shot has rolled out, as on `/tv`), not when the server says it. */
  const freshFeed = () => {
    const f = new OverlayFeed(rate);
    if (following) {
      f.onShown = (msg) => msg.t === "match_over" && tv.matchOver();
      f.holds = (msg, match) => tv.holds(msg, match);
    }
    return f;
  };
  const tv = new TvDirector({
    rooms: () => rooms.values(),
    watch: async (next) => {
      feed = freshFeed();
      room = next;
      try {
        await conn.request({ t: "join", room: next, role: "spectator" });
        return true;
      } catch {
        room = null;
        return false;
      }
    },
    leave: async () => {
      room = null;
      feed = freshFeed();
      await conn.request({ t: "leave" }).catch(() => {});
    },
    showing: () => redraw(),
  }, lingerFrom(location.search));
  feed = freshFeed();
  const conn = new Connection({
    url: defaultUrl(),
    name: () => "overlay",
    session: { token: () => token, setToken: (v) => (token = v) },
    onState: () => {},
    onWelcome: () => {
      if (following) {
        // (Again after a reconnect: the list afresh, and the table shown joined again.)
        conn
          .request({ t: "lobby", on: true })
          .then((reply) => {
            rooms.clear();
            for (const info of reply.rooms ?? []) rooms.set(info.room, info);
            if (!tv.active) return tv.start();
            // The table shown is joined again if it is still listed, else (or if that fails)
            // the channel takes the best table live now.
            const shown = room;
            const forget = () => {
              if (room !== shown) return; // the channel has moved on meanwhile
              room = null;
              feed = freshFeed();
              tv.forget();
            };
            if (shown && rooms.has(shown)) conn.request({ t: "join", room: shown, role: "spectator" }).catch(forget);
            else if (shown) forget();
            else tv.update();
          })
          .catch(() => {});
        return;
      }
      if (!room) return;
      conn.request({ t: "join", room, code, role: "spectator" }).catch(() => {
        // Never joined: no such table. Joined once: it has closed since.
        if (feed.view) feed.gone = true;
        else missing = true;
        redraw();
      });
    },
    onMessage: (msg) => {
      if (following && msg.t === "room") {
        rooms.set(msg.info.room, msg.info);
        tv.update();
        return;
      }
      if (following && msg.t === "room_gone") {
        // As on `/tv`: the table shown stays until its match's end has played out.
        rooms.delete(msg.room);
        tv.gone(msg.room);
        return;
      }
      if (msg.room === undefined || msg.room !== room) return;
      if (following && PLAY_MESSAGES.has(msg.t)) tv.activity(); // (as it arrives, as `/tv`'s)
      feed.push(msg, performance.now());
      redraw();
    },
  });
  const redraw = () => {
    feed.tick(performance.now());
    learnKept();
    const m = overlayModel(feed.view, feed.table, conn.serverNow(), feed.clockCap(), kept.room === feed.view?.room ? kept.names : null, feed.lagDrawn());
    // While a shot rolls the clock is nobody's: the viewers' tables show none running.
    if (feed.rolling()) m.clock = null;
    // The referee's call on the last shot (a foul and who has ball in hand, a ball made),
    // for a while: the viewers saw the turn change with no word of why.
    const call = feed.callAt(performance.now());
    const names = m.seats.map((s) => s.name);
    const said = !call ? null : call.msg.t === "ruling" ? describeRuling(/** @type {any} */ (call.msg), names) : describeShot(/** @type {any} */ (call.msg), names, call.lowest);
    m.call = said ? { text: said.headline, foul: said.tone === "foul" } : null;
    m.scored = feed.scoredAt(performance.now());
    if (following && (!room || !feed.view)) m.status = "idle";
    else if (feed.gone) m.status = "gone";
    else if (missing) m.status = "none";
    draw(m);
    /** @type {any} */ (window).ninepoolOverlay = { ...m, room };
  };
  redraw();
  if (path) conn.start();
  // The shot clock counts down between events, and a shot's outcome waits for its end.
  setInterval(redraw, 250);
}

if (typeof document !== "undefined" && document.getElementById("overlay")) start();
