// The application: lobby, table, replay. Wires the connection's messages to what is
// drawn and shown, and the player's mouse, touch and keys to what is sent.
//
// Room events are applied strictly in order through a queue; a shot's animation holds
// the queue, so a verdict, a warning or the next placement is shown only once the balls
// have stopped on screen, exactly where the server says they stopped.

import { decode } from "@msgpack/msgpack";

import { aimPreview, angleTo } from "./aim.mjs";
import { celebrate } from "./celebrate.mjs";
import { rewordCreateForm, wireCreateForm } from "./create.mjs";
import {
  BREAK_POWER,
  DEFAULT_POWER,
  MAX_SPEED,
  SpinSelector,
  describeTip,
  drawTipBall,
  maxSpeedAt,
  powerFromSpeed,
  powerPercent,
  speedFromPower,
} from "./controls.mjs";
import { $, toast } from "./dom.mjs";
import { addChat, inviteLink, log, renderBadge, renderClock, renderLagLeft, renderSeats, renderTableUi as renderHud, showResult } from "./hud.mjs";
import { LANGUAGES, initLanguage, lang, num, onLanguage, seatName, setLanguage, t } from "./i18n/index.mjs";
import { attachStrip, attachTableInput, handleRadius, handleSpot } from "./input.mjs";
import { renderQuick, renderRooms } from "./lobby.mjs";
import { initAccounts } from "./account.mjs";
import { Connection, NAME_PATTERN, ServerError, defaultUrl, session } from "./net.mjs";
import { ShotPlayback, normaliseTracks, restingBalls } from "./playback.mjs";
import { PracticeTable, practiceRoute } from "./practice.mjs";
import { describeReach } from "./reach.mjs";
import { Renderer } from "./render.mjs";
import { ReplayViewer } from "./replay.mjs";
import { TvDirector } from "./tv.mjs";
import { Sound, shotSounds } from "./sound.mjs";
import { app, ballInHand, canShoot, cuePos, mySeat, names, objectBalls, status, touchFirst } from "./state.mjs";
import { decodeTracks } from "./trajectory.mjs";
import { describeEnd, describeLag, describeRuling, describeShot, describeWarning, loserOf } from "./verdict.mjs";

initLanguage();

/** @typedef {import("./aim.mjs").Vec} Vec */
/** @typedef {import("./playback.mjs").BallFrame} BallFrame */
/** @typedef {import("./state.mjs").Msg} Msg */

const DEG = 180 / Math.PI;
/**
 * Playback speed: twice real time by default (a shot takes 2–5 s to watch instead of
 * 4–10), `?rate=N` for another (0.25–16; the tests play fast). A tap or Esc skips to the end.
 */
export const PLAYBACK_RATE = Math.min(16, Math.max(0.25, Number(new URLSearchParams(location.search).get("rate")) || 2));
/** The lag stroke's spread: each lag's speed varies by up to this fraction, as a hand does. */
export const LAG_SPREAD = 0.01;
/** Colours that tell the two seats' lag balls apart. */
const SEAT_COLOURS = ["#f2c200", "#7fb4ff"];
const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;



const conn = new Connection({
  url: defaultUrl(),
  name: () => currentName(),
  onMessage: (m) => onMessage(m),
  onState: (s) => showConn(s),
  onWelcome: (w) => onWelcome(w),
  onNameTaken: () => {
    /** @type {HTMLInputElement} */ ($("name")).value = "";
    toast(new ServerError("name_taken", ""));
  },
});

initAccounts({ reconnect: () => conn.reconnectNow(), welcome: () => app.welcome });

app.serverNow = () => conn.serverNow();

const renderer = new Renderer(/** @type {HTMLCanvasElement} */ ($("table")));
const sound = new Sound();
/** The practice table's view (`#/practice`). */
const practice = new PracticeTable(conn, (route) => show(route));
/** @type {ReplayViewer | null} */
let replay = null;

/** The TV channel (`#/tv`): it watches tables as a spectator through the same paths a
 * person clicking in the lobby does. `?linger=` (seconds) shortens its pause on a result. */
const tv = new TvDirector(
  {
    rooms: () => app.rooms.values(),
    watch: async (room) => !!(await joinTable(room, null, false)),
    leave: async () => {
      const dlg = /** @type {HTMLDialogElement} */ ($("result-dialog"));
      if (dlg.open) dlg.close();
      if (app.room) await act({ t: "leave" });
      clearRoom();
    },
    showing: (room) => {
      const info = room ? app.rooms.get(room) : null;
      $("tv-banner").textContent = room ? t("tv.following", { name: info?.name || info?.players?.map((/** @type {string} */ p, /** @type {number} */ i) => seatName(p, info.computer?.[i])).join(" – ") || room }) : t("tv.nothing");
      app.tvRoom = room;
    },
  },
  Math.min(60, Math.max(1, Number(new URLSearchParams(location.search).get("linger")) || 12)) * 1000,
);

/** The page of one rack's replay, to share from the end-of-rack dialog.
 * @param {number} rack @returns {string | null} */
function rackLink(rack) {
  if (!app.room || !(rack >= 1)) return null;
  return `${location.origin}/replay/${encodeURIComponent(app.room)}/${rack}`;
}
/** The cue-tip selectors: in the side panel, and in the pop-up of the edge strip. */
const spins = [$("spin"), $("spin-pop-ball")].map(
  (c) => new SpinSelector(/** @type {HTMLCanvasElement} */ (c), (side, height) => setTip(side, height)),
);
const spin = { set: (/** @type {number} */ s, /** @type {number} */ h) => spins[0].set(s, h) };

/** @param {number} side @param {number} height */
function setTip(side, height) {
  app.aim.side = side;
  app.aim.height = height;
  for (const s of spins) if (s.side !== side || s.height !== height) s.show(side, height);
  $("spin-text").textContent = describeTip(side, height);
  drawTipBall(/** @type {HTMLCanvasElement} */ ($("spin-mini-ball")), side, height);
  $("spin-mini").setAttribute("aria-label", `${t("spin.open")}: ${describeTip(side, height)}`);
  aimChanged();
}

// --- helpers ----------------------------------------------------------------------------

function currentName() {
  const input = /** @type {HTMLInputElement} */ ($("name"));
  const v = input.value.trim();
  if (NAME_PATTERN.test(v)) return v;
  const stored = session.name();
  if (NAME_PATTERN.test(stored)) return stored;
  const fresh = `${t("v.playerN", { n: "" }).trim()}-${Math.floor(1000 + Math.random() * 9000)}`.replace(/[^\p{L}\p{N}_.\-]/gu, "");
  session.setName(fresh);
  input.value = fresh;
  return fresh;
}










/**
 * Makes sure the server knows the name typed in the lobby before sitting down with it:
 * the name is said in `hello`, so a changed name means saying hello again.
 */
async function ensureName() {
  const v = /** @type {HTMLInputElement} */ ($("name")).value.trim();
  if (!NAME_PATTERN.test(v) || !app.welcome || app.welcome.account || app.welcome.name === v || app.room) return;
  session.setName(v);
  await conn.reconnectNow();
}

/** Runs a request and shows its refusal, if any. @param {Msg} msg @returns {Promise<Msg | null>} */
async function act(msg) {
  try {
    return await conn.request(msg);
  } catch (err) {
    toast(err);
    return null;
  }
}

/** @param {string} s */
function showConn(s) {
  const el = $("conn");
  el.className = `conn conn-${s}`;
  el.textContent = t(`conn.${s}`);
  if (s === "offline" && conn.replaced) {
    el.textContent = t("conn.otherTab");
    toast(t("conn.replaced"));
  }
  if (s === "offline" && conn.fatal) toast(t("conn.fatal"));
}

/** The name in the top bar: playing or watching. */
/**
 * The lobby's name field says the name this connection plays under. An account plays
 * under the account's name whatever is typed (the server decides it at `hello`), so the
 * field shows that name and cannot be edited until the player logs out.
 * @param {Msg} w the `welcome`
 */
function showOwnName(w) {
  const input = /** @type {HTMLInputElement} */ ($("name"));
  const help = $("name-help");
  const account = !!w.account;
  input.readOnly = account;
  if (account) input.value = String(w.name);
  help.setAttribute("data-i18n", account ? "lobby.nameAccount" : "lobby.nameHelp");
  help.textContent = t(account ? "lobby.nameAccount" : "lobby.nameHelp");
}

function showMe() {
  const w = app.welcome;
  if (!w) return;
  $("me").textContent = app.room && app.role === "spectator" ? t("top.watchingAs", { name: w.name }) : app.room ? t("top.playingAs", { name: w.name }) : w.name;
}

// --- routing ----------------------------------------------------------------------------

/**
 * `#/room/<id>` a table (a seat if one is free and the match has not begun, else a
 * spectator's place), `#/play/<id>[/<code>][/<invite>]` an invite (a seat if any is free;
 * the seat invite lets a spectator sit), `#/replay/<id>` a whole match,
 * `#/replay/<id>/<rack>[/<code>]` one rack of it (the page `/replay/<id>/<rack>` leads
 * here), `#/tv` the channel that follows the best live table; anything else the lobby.
 * @returns {{ kind: string, id: string, code: string | null, invite: string | null, rack: number | null }}
 */
function parseHash() {
  if (/^#\/tv\/?$/.test(location.hash)) return { kind: "tv", id: "", code: null, invite: null, rack: null };
  const rack = location.hash.match(/^#\/replay\/([A-Za-z0-9_-]{1,32})\/([1-9][0-9]{0,2})(?:\/([A-Z0-9]{4,32}))?$/);
  if (rack) return { kind: "replay", id: rack[1], code: rack[3] ?? null, invite: null, rack: Number(rack[2]) };
  const m = location.hash.match(/^#\/(room|replay|play)\/([A-Za-z0-9_-]{1,32})(?:\/([A-Z0-9]{4,32}))?(?:\/([a-z0-9]{1,64}))?$/);
  return m ? { kind: m[1], id: m[2], code: m[3] ?? null, invite: m[4] ?? null, rack: null } : { kind: "lobby", id: "", code: null, invite: null, rack: null };
}

/** @param {"lobby" | "table" | "replay" | "practice"} route */
function show(route) {
  app.route = route;
  $("practice-view").hidden = route !== "practice";
  if (route === "practice") practice.renderPanel();
  $("lobby").hidden = route !== "lobby";
  $("table-view").hidden = route !== "table";
  $("replay-view").hidden = route !== "replay";
  document.documentElement.dataset.route = route;
  if (route === "table") renderer.resize();
  showMe();
}

/**
 * Sits down at a table if a seat is free, else watches it: an invite link and a room link
 * both seat a friend (a seat taken meanwhile answers `room_full`: then watch).
 * @param {string} room @param {string | null} code @param {boolean} play try for a seat
 */
async function joinTable(room, code, play) {
  if (play) {
    await ensureName();
    try {
      return await conn.request({ t: "join", room, code, role: "player" });
    } catch (err) {
      if (!(err instanceof ServerError) || err.code !== "room_full") {
        toast(err);
        return null;
      }
    }
  }
  return act({ t: "join", room, code, role: "spectator" });
}

async function onRoute() {
  const pr = practiceRoute();
  if (pr) {
    show("practice");
    if (conn.welcomed && !practice.room && !app.room) {
      await ensureName();
      if (!(await practice.open(pr.code))) location.hash = "#/";
    }
    return;
  }
  if (practice.room) await practice.leave();
  const r = parseHash();
  if (r.kind !== "tv" && tv.active) await tv.stop();
  $("tv-banner").hidden = r.kind !== "tv";
  if (r.kind === "replay") {
    show("replay");
    replay ??= new ReplayViewer();
    await replay.open(r.id, r.code ?? (app.room === r.id ? app.code : null), r.rack).catch((e) => toast(e));
    return;
  }
  if (r.kind === "tv") {
    // The TV takes its own seat in the stands: a table being watched is left first (a
    // player in a running match is sent back to it, as on the way to the lobby).
    if (!(await leaveByNavigation())) return;
    show("table");
    if (conn.welcomed && !tv.active) tv.start();
    return;
  }
  if (r.kind === "room" || r.kind === "play") {
    show("table");
    if (app.room !== r.id && conn.welcomed) {
      // Another table's link (the next match of a tournament): the table this page is at
      // is left first, unless its match is running (its player is sent back to it).
      if (app.room && !(await leaveByNavigation())) return;
      // A room link seats the one who opens it while the table waits for a player.
      const info = app.rooms.get(r.id);
      const free = r.kind === "play" || (!!info && info.status === "waiting" && info.players.length < 2);
      app.linkInvite = r.invite;
      const joined = await joinTable(r.id, r.code, free);
      if (!joined) location.hash = "#/";
    } else if (r.kind === "play" && app.room === r.id) {
      history.replaceState(null, "", `#/room/${r.id}`);
    }
    return;
  }
  show("lobby");
  await leaveByNavigation();
}

/**
 * Leaving the table view by navigation leaves the room; a running match is conceded only
 * through the explicit Leave button, which asks first, so its player is sent back to it.
 * Whether the way is clear (no room, or the room left).
 * @returns {Promise<boolean>}
 */
async function leaveByNavigation() {
  if (!app.room || !conn.welcomed || tv.active) return true;
  if (app.role === "spectator" || status() !== "playing") {
    await act({ t: "leave" });
    clearRoom();
    return true;
  }
  toast(t("leave.navigate"));
  location.hash = `#/room/${app.room}`;
  return false;
}

/**
 * Whether a win is cheered (confetti, fanfare) on this screen: for the winner and for
 * spectators, never on the screen of the player who lost. @param {number | null} winner
 */
function cheers(winner) {
  return winner !== null && !(app.role === "player" && app.seat !== null && app.seat !== winner);
}

function clearRoom() {
  app.room = null;
  app.role = null;
  app.seat = null;
  app.code = null;
  app.invite = null;
  app.linkInvite = null;
  app.view = null;
  app.table = null;
  app.queue = [];
  app.anim = null;
  app.lastShot = null;
  app.warning = null;
  app.lastVerdict = null;
  app.logSources = [];
  app.chatLines = [];
  app.lagBalls = [];
  app.lagSent = false;
  app.unread = 0;
  $("log").replaceChildren();
  $("chat-log").replaceChildren();
  renderBadge();
  showMe();
}

// --- the log -------------------------------------------------------------------------------

/**
 * Words a logged event in the current language.
 * @param {{ m: Msg, lowest: number | null }} src @returns {import("./verdict.mjs").Described}
 */
function describeSource(src) {
  const m = src.m;
  const n = names();
  switch (m.t) {
    case "shot_result":
      return describeShot(/** @type {any} */ (m), n, src.lowest);
    case "ruling":
      return describeRuling(/** @type {any} */ (m), n);
    case "lag_result":
      return describeLag(/** @type {any} */ (m), n);
    case "warning": {
      const w = describeWarning({ kind: m.kind, seat: m.seat, seconds: app.view?.settings?.clock_warning }, n, app.table?.turn ?? null);
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
function logEvent(m, opts = {}) {
  const src = { m, lowest: opts.lowest ?? null, aside: !!opts.aside };
  app.logSources.push(src);
  if (app.logSources.length > 60) app.logSources.shift();
  log(describeSource(src), { aside: src.aside, quiet: opts.quiet });
}

/** Words the whole log again (a change of language). */
function rewordLog() {
  $("log").replaceChildren();
  for (const src of app.logSources) log(describeSource(src), { aside: src.aside, quiet: true });
  $("chat-log").replaceChildren();
  const chat = app.chatLines;
  app.chatLines = [];
  const unread = app.unread;
  for (const c of chat) {
    app.chatLines.push(c);
    addChat(c);
  }
  app.unread = unread;
  if (app.warning) {
    const w = describeWarning(app.warning, names());
    app.warning = { ...app.warning, text: w.text, rule: w.rule };
  }
}

/**
 * A late joiner, or a reload, missed what was said and decided before it came: the room's
 * replay document (`GET /replay/<room>`) has every event, so the log, the chat, the last
 * verdict and the last shot are rebuilt from it, up to the snapshot's `seq`.
 * @param {string} room @param {number} seq
 */
async function restoreHistory(room, seq) {
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
  absorbHistory(/** @type {Msg[]} */ (doc.events ?? []), seq);
}

/**
 * The events of a snapshot's `recent` in order: the log, the chat and the last verdict.
 * @param {Msg} recent @returns {Msg[]}
 */
function recentEvents(recent) {
  /** @type {Map<number, Msg>} */
  const bySeq = new Map();
  for (const e of [...(recent.log ?? []), ...(recent.chat ?? []), ...(recent.verdict ? [recent.verdict] : [])]) bySeq.set(e.seq, e);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * Rebuilds the log, the chat, the last verdict and the last shot from past events, up
 * to the snapshot's `seq` (what is already shown is kept).
 * @param {Msg[]} events @param {number} seq
 */
function absorbHistory(events, seq) {
  const already = new Set(app.logSources.map((s) => s.m.seq));
  const chatSeen = new Set(app.chatLines.map((c) => c.seq));
  /** @type {Msg | null} */
  let table = null;
  /** @type {{ m: Msg, lowest: number | null, aside: boolean }[]} */
  const sources = [];
  /** @type {Msg[]} */
  const chat = [];
  let lastShot = null;
  let rackShots = { rack: 0, count: 0 };
  for (const e of events) {
    if (typeof e.seq !== "number" || e.seq > seq) continue;
    const lowest = table?.lowest ?? null;
    if (e.t === "snapshot") table = e.view.table;
    else if ((e.t === "shot_result" || e.t === "ruling" || e.t === "lag_result") && e.table) table = e.table;
    if (e.t === "shot_result") {
      lastShot = e;
      rackShots = e.table.rack === rackShots.rack ? { rack: rackShots.rack, count: rackShots.count + 1 } : { rack: e.table.rack, count: 0 };
    }
    if (already.has(e.seq)) continue;
    if (e.t === "shot_result" || e.t === "ruling" || e.t === "lag_result") sources.push({ m: e, lowest, aside: false });
    else if (e.t === "warning") sources.push({ m: e, lowest: null, aside: true });
    else if (e.t === "chat" && !chatSeen.has(e.seq)) chat.push(e);
  }
  app.logSources = [...sources, ...app.logSources].slice(-60);
  app.chatLines = [...chat, ...app.chatLines].slice(-100);
  if (lastShot && !app.lastShot && lastShot.traj?.length) app.lastShot = lastShot;
  if (rackShots.rack === app.table?.rack && app.rackShots.rack !== rackShots.rack) app.rackShots = rackShots;
  const hadVerdict = !!app.lastVerdict;
  rewordLog();
  if (hadVerdict || sources.some((x) => !x.aside)) renderTableUi();
}

// --- connection events ----------------------------------------------------------------

/** @param {Msg} w */
async function onWelcome(w) {
  app.welcome = w;
  showMe();
  showOwnName(w);
  try {
    const m = await conn.request({ t: "lobby", on: true });
    app.rooms.clear();
    for (const info of m.rooms) app.rooms.set(info.room, info);
    renderRooms();
    tv.update();
  } catch (err) {
    toast(err);
  }
  if (w.room && practiceRoute()) {
    practice.resume(w.room); // the practice table is back; its state follows at once
    show("practice");
  } else if (w.room) {
    app.room = w.room; // the seat is restored; its snapshot follows at once
    if (parseHash().id !== w.room) location.hash = `#/room/${w.room}`;
    show("table");
  } else if (app.room) {
    // Reconnected as a spectator (sessions seat players only): join again.
    const room = app.room;
    const role = app.role ?? "spectator";
    app.room = null;
    conn.request({ t: "join", room, code: app.code, role: role === "player" ? "spectator" : role }).catch(() => {
      clearRoom();
      location.hash = "#/";
    });
  } else {
    if (practice.room) practice.reset(); // the practice table closed while away
    onRoute();
  }
}

/** @param {Msg} m */
function onMessage(m) {
  if (practice.claims(m)) return;
  switch (m.t) {
    case "rooms":
      return;
    case "room":
      app.rooms.set(m.info.room, m.info);
      renderRooms();
      tv.update();
      return;
    case "room_gone":
      app.rooms.delete(m.room);
      renderRooms();
      tv.update();
      return;
    case "computer_offer":
      // Nobody took the quick match yet: a computer would play now (the wait goes on).
      app.computerOffer = m.level;
      renderQuick();
      return;
    case "joined":
      app.room = m.room;
      app.role = m.role;
      app.seat = m.seat ?? null;
      app.code = m.code ?? app.code;
      app.invite = m.invite ?? null;
      app.quickWaiting = false;
      app.computerOffer = null;
      renderQuick();
      if (!tv.active && (parseHash().id !== m.room || parseHash().kind !== "room")) history.replaceState(null, "", `#/room/${m.room}`);
      show("table");
      // Sitting down is being ready: the match starts as soon as both seats are filled
      // (as a quick match does); "Not ready" holds it back.
      if (m.role === "player") conn.request({ t: "ready", ready: true }).catch(() => {});
      return;
    case "notice":
      // The room's server is changing hands (no room event: nothing at the table changes).
      if (m.room === app.room) toast(t(m.kind === "back" ? "notice.back" : "notice.moving"), "info");
      return;
    case "spectators":
      // The spectator count (no seq, paced by the server): in order with the events.
      if (m.room === app.room) {
        app.queue.push(m);
        pump();
      }
      return;
    case "aim":
      if (m.room === app.room && m.seat !== mySeat()) {
        app.remoteAim = m;
        app.remoteAimAt = performance.now();
        app.remoteAimPower = powerFromSpeed(m.speed, m.elevation);
        if (!app.anim) renderTableUi();
      }
      return;
    default:
      if (typeof m.seq === "number") {
        if (m.room && app.room && m.room !== app.room) return;
        if (m.t === "snapshot" && m.reset) {
          // A fresh snapshot (join, resync, reconnect) replaces whatever was still waiting.
          app.queue = [];
          app.anim = null;
        }
        app.queue.push(m);
        pump();
      }
  }
}

function pump() {
  while (!app.anim && app.queue.length) {
    const m = /** @type {Msg} */ (app.queue.shift());
    try {
      applyEvent(m);
    } catch (err) {
      toast(err);
    }
  }
  renderTableUi();
}

/** @param {Msg} m */
function applyEvent(m) {
  switch (m.t) {
    case "snapshot":
      return applySnapshot(m);
    case "shot_result":
      return applyShot(m, 0);
    case "ruling": {
      app.tableVersion++;
      app.table = m.table;
      // A new turn, or more time: a clock warning given before is over.
      if (app.warning?.kind === "clock") app.warning = null;
      if (app.view) {
        app.view.table = m.table;
        if (m.action === "lag_choice") {
          app.view.status = "playing";
          app.view.lag_choice = null;
        }
      }
      if (m.action === "lag_choice") {
        renderer.newRack();
        app.lagBalls = [];
      }
      logEvent(m);
      return;
    }
    case "placed":
      if (app.table) {
        const balls = [...app.table.balls];
        balls[0] = m.pos;
        app.table = { ...app.table, balls };
        if (app.view) app.view.table = app.table;
      }
      if (m.seat === mySeat()) app.placedPending = null;
      return;
    case "chat":
      app.chatLines.push(m);
      if (app.chatLines.length > 100) app.chatLines.shift();
      return addChat(m);
    case "warning": {
      const seconds = app.view?.settings?.clock_warning;
      const w = describeWarning({ kind: m.kind, seat: m.seat, seconds }, names(), app.table?.turn ?? null);
      app.warning = { kind: m.kind, seat: m.seat ?? app.table?.turn ?? 0, text: w.text, rule: w.rule, seconds };
      // The banner carries it; the verdict above the table stays the shot's.
      logEvent(m, { aside: true });
      return;
    }
    case "game_over": {
      if (app.view && app.table) app.table = { ...app.table, score: m.score };
      const n = names();
      const mine = app.role === "player" && m.winner !== null && app.seat === m.winner;
      const title = m.winner === null ? t("result.rackNobody", { rack: m.rack }) : mine ? t("result.rackYou", { rack: m.rack }) : t("result.rack", { name: n[m.winner], rack: m.rack });
      const breaker = app.table?.breaker;
      const next = m.next_rack && breaker != null ? { at: m.next_rack, breaker: n[breaker] } : null;
      showResult(title, t("result.score", { a: n[0], sa: num(m.score[0]), sb: num(m.score[1]), b: n[1] }), describeEnd(m.reason, 0, loserOf(m.winner, n)), false, rackLink(m.rack), next);
      if (cheers(m.winner)) {
        celebrate(false, sound, reducedMotion());
        heard.push("fanfare");
      }
      return;
    }
    case "match_over": {
      if (app.view) app.view.status = "finished";
      const n = names();
      // A tournament's opponent who never sat down: said so (not "stayed away"), and no
      // replay of a game never played.
      const noShow = m.reason === "forfeit" && m.winner !== null && !app.view?.seats?.[1 - m.winner];
      showResult(
        m.winner === null ? t("result.matchNobody") : app.role === "player" && app.seat === m.winner ? t("result.matchYou") : t("result.match", { name: n[m.winner] }),
        t("result.score", { a: n[0], sa: num(m.score[0]), sb: num(m.score[1]), b: n[1] }),
        noShow ? t("end.noShow") : describeEnd(m.reason, app.view?.settings?.race_to ?? 0, loserOf(m.winner, n)),
        true,
        app.table && !noShow ? rackLink(app.table.rack) : null,
      );
      tv.matchOver();
      if (cheers(m.winner)) {
        celebrate(true, sound, reducedMotion());
        heard.push("fanfare-match");
      }
      return;
    }
    case "spectators":
      if (app.view) app.view.spectators = m.count;
      return;
    case "presence":
      if (app.view) {
        app.view.spectators = m.spectators;
        if (m.seat !== null && app.view.seats[m.seat]) {
          app.view.seats[m.seat] = { ...app.view.seats[m.seat], connected: m.connected, grace_until: m.grace_until };
        }
      }
      return;
    case "lag_result":
      return applyLag(m);
    default:
  }
}

/** @param {Msg} m */
function applySnapshot(m) {
  const v = m.view;
  app.tableVersion++;
  const firstTime = app.room !== v.room || !app.view;
  // A rematch: the finished match's verdict and warnings do not head the new one.
  if (!firstTime && app.view?.status === "finished" && v.status !== "finished") {
    app.lastVerdict = null;
    app.warning = null;
  }
  app.room = v.room;
  app.view = v;
  app.table = v.table;
  app.code = v.code ?? app.code;
  if (m.invite) app.invite = m.invite;
  app.placedPending = null;
  app.shotPending = false;
  if (v.status !== "lag" || v.lag_choice !== null || !(v.lagged ?? []).length) app.lagSent = (v.lagged ?? []).includes(app.seat ?? -1) && v.status === "lag";
  if (v.table) app.lagBalls = [];
  // Which seat is mine: the session's player id decides (after a reload too).
  const me = app.welcome?.player;
  const idx = (v.seats ?? []).findIndex((/** @type {Msg | null} */ s) => s && s.player === me);
  if (idx >= 0) {
    app.role = "player";
    app.seat = idx;
  } else if (app.role === "player") {
    app.role = "spectator";
    app.seat = null;
  } else {
    app.role ??= "spectator";
  }
  if (firstTime) {
    app.warning = null;
    renderer.newRack();
    // The server sends what came before with a newcomer's own snapshot; a room just
    // brought back after a restart does not know it, and its replay is read instead.
    if (m.recent) absorbHistory(recentEvents(m.recent), m.seq);
    else restoreHistory(v.room, m.seq);
  }
  if (v.table) {
    for (const seat of v.table.warned ?? []) {
      const w = describeWarning({ kind: "three_fouls", seat }, names());
      app.warning = { kind: "three_fouls", seat, text: w.text, rule: w.rule };
    }
  }
  if (v.inflight) applyShot({ ...v.inflight.result, _replayed: true }, v.inflight.offset);
  if (!tv.active && parseHash().id !== v.room) history.replaceState(null, "", `#/room/${v.room}`);
  show("table");
}

/** @param {Msg} m @param {number} offset */
function applyShot(m, offset) {
  const lowestBefore = app.table?.lowest ?? null;
  app.lastShot = m;
  app.remoteAim = null;
  app.shotPending = false;
  app.placing = null;
  app.placedPending = null;
  const rack = m.table.rack;
  app.rackShots = app.rackShots.rack === rack ? { rack, count: app.rackShots.count + 1 } : { rack, count: 0 };
  const tracks = normaliseTracks(decodeTracks(m.traj));
  const pb = new ShotPlayback(tracks, m.duration, m.final);
  const changed = JSON.stringify(m.final) !== JSON.stringify(m.table.balls);
  const shooter = names()[m.shooter];
  startAnim([pb], offset, changed ? 0.9 : 0, t("prompt.shoots", { name: shooter }), () => {
    app.tableVersion++;
    app.table = m.table;
    if (app.view) app.view.table = m.table;
    if (m.verdict.new_rack) renderer.newRack();
    logEvent(m, { lowest: lowestBefore });
    if (!m.table.warned?.length && app.warning?.kind === "three_fouls") app.warning = null;
    if (app.warning?.kind === "clock") app.warning = null;
  }, shotSounds(tracks));
}

/** @param {Msg} m */
function applyLag(m) {
  app.lagSent = false;
  const done = () => {
    app.tableVersion++;
    // The lag balls stay where they stopped, named, until the break is chosen.
    app.lagBalls = (m.lags ?? []).filter((/** @type {Msg} */ l) => l.final).map((/** @type {Msg} */ l) => ({ seat: l.seat, pos: l.final }));
    if (m.table) {
      app.table = m.table;
      if (app.view) {
        app.view.table = m.table;
        app.view.status = "playing";
      }
      renderer.newRack();
      app.lagBalls = [];
    } else if (app.view) {
      app.view.lagged = [];
      // R3/O6: the winner now chooses who breaks (the snapshot that follows says so too).
      app.view.lag_choice = m.winner;
    }
    logEvent(m);
  };
  if (!m.lags?.length) return done();
  const pbs = m.lags.map((/** @type {Msg} */ l) => new ShotPlayback(normaliseTracks(decodeTracks(l.traj)), l.duration, null));
  const sounds = m.lags.flatMap((/** @type {Msg} */ l) => shotSounds(normaliseTracks(decodeTracks(l.traj))));
  startAnim(pbs, 0, 0.8, t("prompt.lagAnim"), done, sounds.sort((a, b) => a.t - b.t), m.lags.map((/** @type {Msg} */ l) => l.seat));
}

/**
 * @param {ShotPlayback[]} playbacks @param {number} offset @param {number} hold
 * @param {string} label @param {() => void} onDone
 * @param {import("./sound.mjs").Impact[]} [sounds] impacts to hear as the balls reach them
 * @param {number[] | null} [seats] for the lag: the seat of each playback (its ball is labelled)
 */
function startAnim(playbacks, offset, hold, label, onDone, sounds = [], seats = null) {
  if (document.visibilityState === "hidden") {
    // Nobody is watching this tab: show the outcome at once instead of queueing replays.
    onDone();
    return;
  }
  const heard = sounds.findIndex((s) => s.t >= offset);
  app.anim = { playbacks, t: offset, wall: performance.now(), hold, onDone, label, sounds, heard: heard < 0 ? sounds.length : heard, seats };
}

/** Jumps the running animation to its end (a tap on the table, Esc, the Skip button). */
function skipAnim() {
  const a = app.anim;
  if (!a) return false;
  a.t = Math.max(...a.playbacks.map((p) => p.duration)) + a.hold;
  a.heard = a.sounds.length;
  return true;
}

/** Advances the running animation; returns the balls to draw. */
function animFrame() {
  const a = app.anim;
  if (!a) return null;
  const now = performance.now();
  // Shots still waiting behind this one (a tab that was hidden, a slow device) play faster.
  const behind = app.queue.some((m) => m.t === "shot_result" || m.t === "lag_result");
  const dt = Math.min(0.25, Math.max(0, (now - a.wall) / 1000)) * PLAYBACK_RATE * (behind ? 4 : 1);
  a.wall = now;
  a.t += dt;
  const t = a.t;
  while (a.heard < a.sounds.length && a.sounds[a.heard].t <= t) {
    const e = a.sounds[a.heard++];
    // Impacts the animation has long passed (a skip, a slow frame) are not heard in a burst.
    if (t - e.t < 0.3 * PLAYBACK_RATE) {
      sound.play(e);
      heard.push(e.kind);
    }
  }
  /** @type {BallFrame[]} */
  const balls = [];
  a.playbacks.forEach((pb, i) => {
    const frame = pb.frame(t);
    if (a.seats) for (const b of frame) b.seat = a.seats[i];
    balls.push(...frame);
  });
  for (const b of balls) if (b.wx || b.wy || b.wz) renderer.spin(b.n, b.wx, b.wy, b.wz, dt);
  const end = Math.max(...a.playbacks.map((p) => p.duration)) + a.hold;
  if (t >= end) {
    app.anim = null;
    a.onDone();
    pump();
  }
  return balls;
}

// --- actions ------------------------------------------------------------------------

/** The speed sent: the power within what the cue can give at its elevation (never refused). */
function shotSpeed() {
  return speedFromPower(app.aim.power, app.aim.elevation);
}

/** Degrees in (−180, 180], as the protocol wants them. @param {number} rad */
function toDegrees(rad) {
  let d = rad * DEG;
  d = ((d % 360) + 540) % 360 - 180;
  return Math.round(d * 1e4) / 1e4;
}

async function shoot() {
  if (!canShoot()) return;
  if (app.placedPending) return toast(t("shot.wait"));
  sound.unlock();
  app.shotPending = true;
  renderTableUi();
  const msg = {
    t: "shot",
    angle: toDegrees(app.aim.angle),
    speed: shotSpeed(),
    tip: [app.aim.side, app.aim.height],
    elevation: app.aim.elevation,
    push_out: app.aim.pushOut && !!app.table?.push_out_allowed,
  };
  const ok = await act(msg);
  if (!ok) app.shotPending = false;
  app.aim.pushOut = false;
  /** @type {HTMLInputElement} */ ($("pushout")).checked = false;
  if (ok) {
    // Spin and a raised cue are for one shot: the next starts from a centre-ball, level cue.
    spin.set(0, 0);
    /** @type {HTMLInputElement} */ ($("elevation")).value = "0";
    setElevation(0);
  }
  renderTableUi();
}

/** @param {Vec} pos */
async function place(pos) {
  app.placedPending = pos;
  const ok = await act({ t: "place", pos: [round6(pos[0]), round6(pos[1])] });
  if (!ok) app.placedPending = null;
}

/** @param {number} v */
function round6(v) {
  return Math.round(v * 1e6) / 1e6;
}

function aimChanged() {
  app.aimDirty = true;
}

/** Sends the live aim to the room, at most ten times a second. */
function sendAim() {
  if (!app.aimDirty) return;
  if (!canShoot()) {
    app.aimDirty = false;
    return;
  }
  const now = performance.now();
  if (now - app.lastAimSent < 100) return;
  app.lastAimSent = now;
  app.aimDirty = false;
  const cue = app.drag?.kind === "place" && app.placing ? app.placing.pos : null;
  conn.fire({
    t: "aim",
    angle: toDegrees(app.aim.angle),
    speed: shotSpeed(),
    tip: [app.aim.side, app.aim.height],
    elevation: app.aim.elevation,
    cue: cue ? [round6(cue[0]), round6(cue[1])] : null,
  });
}

/**
 * When a new turn starts for me: the cue points at the ball to hit, and the power is a
 * legal break's on a break, the player's own everyday power otherwise.
 */
function defaultAim() {
  const tb = app.table;
  if (!tb || !canShoot()) return;
  const key = `${tb.rack}:${tb.turn}:${app.tableVersion}`;
  if (app.aim.turnKey === key) return;
  const fresh = !app.aim.turnKey.startsWith(`${tb.rack}:${tb.turn}:`) || app.aim.wasBreak !== (tb.ball_in_hand === "kitchen");
  app.aim.turnKey = key;
  const cue = cuePos();
  const low = tb.lowest != null ? tb.balls[tb.lowest] : null;
  if (cue && low && fresh) app.aim.angle = angleTo(cue, low);
  const isBreak = tb.ball_in_hand === "kitchen";
  if (isBreak && !app.aim.wasBreak) {
    app.aim.everyday = app.aim.power;
    setPower(BREAK_POWER);
  } else if (!isBreak && app.aim.wasBreak) {
    setPower(app.aim.everyday ?? DEFAULT_POWER);
  }
  app.aim.wasBreak = isBreak;
  aimChanged();
  renderTableUi();
}

/** @param {number} p */
function setPower(p) {
  app.aim.power = p;
  const input = /** @type {HTMLInputElement} */ ($("power"));
  input.value = String(Math.max(1, Math.round(p * 100)));
  const speed = shotSpeed();
  const percent = t("unit.percent", { p: powerPercent(p) });
  const speedText = t("unit.speed", { v: num(speed, 2) });
  $("power-out").textContent = percent;
  $("power-speed").textContent = speedText;
  $("power-reach").textContent = describeReach(speed, { short: true });
  const valuetext = t("power.valuetext", {
    p: powerPercent(p),
    speed: speedText,
    max: t("unit.speed", { v: num(maxSpeedAt(app.aim.elevation), 2) }),
    reach: describeReach(speed),
  });
  input.setAttribute("aria-valuetext", valuetext);
  $("strip-out").textContent = percent;
  $("strip-speed").textContent = speedText;
  $("strip-fill").style.height = `${powerPercent(p)}%`;
  $("strip-cue").style.transform = `translateY(${powerPercent(p) * 0.9}%)`;
  const track = $("strip-track");
  track.setAttribute("aria-valuenow", String(powerPercent(p)));
  track.setAttribute("aria-valuetext", valuetext);
  aimChanged();
}

/**
 * Raising the cue lowers the fastest speed it can give (13·cos(elevation), the server's
 * limit): the power keeps its place on the slider and its speed drops with the maximum.
 * @param {number} degrees
 */
function setElevation(degrees) {
  app.aim.elevation = degrees;
  const top = maxSpeedAt(degrees);
  $("elev-out").textContent = `${num(degrees, 0)}°`;
  $("speed-max").textContent = t("elev.max", { speed: t("unit.speed", { v: num(top, 2) }) });
  $("speed-max").classList.toggle("lowered", top < MAX_SPEED);
  setPower(app.aim.power);
}

// --- drawing loop -------------------------------------------------------------------------

/**
 * The balls at rest as they should be drawn now: the table's positions, with the cue
 * ball where it is being dragged (by me, or live by the shooter I am watching).
 * @returns {BallFrame[]}
 */
function restingView() {
  const balls = restingBalls(app.table?.balls ?? []);
  if (!app.table && app.lagBalls.length) {
    for (const l of app.lagBalls) balls.push({ n: 0, x: l.pos[0], y: l.pos[1], wx: 0, wy: 0, wz: 0, seat: l.seat });
    return balls;
  }
  const cue = cuePos();
  const remoteCue = app.remoteAim?.cue;
  const cueBall = balls.find((b) => b.n === 0);
  if (cueBall && cue) {
    cueBall.x = cue[0];
    cueBall.y = cue[1];
  }
  if (cueBall && remoteCue && !canShoot() && performance.now() - app.remoteAimAt < 3000) {
    cueBall.x = remoteCue[0];
    cueBall.y = remoteCue[1];
  }
  return balls;
}

/** Asks for the next frame to be drawn even while nothing moves. */
function invalidate() {
  lastIdleDraw = 0;
}

/** When the table was last drawn while nothing moved (ms). */
let lastIdleDraw = 0;
/** @type {import("./render.mjs").Overlay | null} the overlay last drawn (for the tests' hooks) */
let lastOverlay = null;
/** @type {string[]} what was heard, in order: impact kinds and "fanfare" (for the tests' hooks) */
const heard = [];
/**
 * What the room lets the clients draw while a player aims: its `aim_aid` setting, the
 * same for the shooter and for everyone watching.
 * @returns {"full" | "ghost" | "none"}
 */
function aimAid() {
  return app.view?.settings?.aim_aid ?? "full";
}

/** Draw times (ms) of the last frames, for `window.ninepool.frameStats()`. */
const drawTimes = /** @type {number[]} */ ([]);

function frame() {
  requestAnimationFrame(frame);
  if (app.route === "replay" && replay) {
    replay.frame();
    return;
  }
  if (app.route === "practice") {
    practice.frame();
    return;
  }
  if (app.route !== "table") return;
  const now = performance.now();
  const resized = renderer.resize();
  // At rest only the highlight pulses: 20 frames a second are plenty and spare the battery.
  const still = !app.anim && !app.drag && !app.aimDirty && now - app.remoteAimAt > 300;
  if (still && !resized && now - lastIdleDraw < 50) return;
  lastIdleDraw = now;
  const balls = animFrame() ?? restingView();
  app.shown = balls;
  defaultAim();
  sendAim();
  /** @type {import("./render.mjs").Overlay} */
  const overlay = { lowest: null, aim: null, placing: null, kitchenHint: false, numbers: !app.anim };
  // The lag balls carry their players' names, while they roll and where they stop.
  const n = names();
  const lagged = balls.filter((b) => b.seat !== undefined);
  if (lagged.length) {
    overlay.labels = lagged.map((b) => ({ x: b.x, y: b.y, text: t("lag.ball", { name: n[b.seat ?? 0] }), colour: SEAT_COLOURS[b.seat ?? 0] }));
  }
  const tb = app.table;
  let wrong = null;
  if (!app.anim && tb && status() === "playing") {
    overlay.lowest = tb.lowest;
    const cue = balls.find((b) => b.n === 0);
    if (canShoot() && cue) {
      const c = /** @type {Vec} */ ([cue.x, cue.y]);
      overlay.kitchenHint = ballInHand() === "kitchen";
      if (app.drag?.kind === "place" && app.placing) overlay.placing = app.placing;
      else {
        const preview = aimPreview(c, app.aim.angle, objectBalls());
        // The first ball on the line is not the ball to hit: a foul if played (R8).
        if (preview.kind === "ball" && tb.lowest != null && preview.ball !== tb.lowest) wrong = preview.ball;
        overlay.aim = { cue: c, angle: app.aim.angle, power: app.aim.power, speed: shotSpeed(), height: app.aim.height, elevation: app.aim.elevation, preview, wrong: wrong !== null, aid: aimAid() };
        overlay.tip = { side: app.aim.side, height: app.aim.height };
      }
      if (ballInHand()) {
        const touch = touchFirst();
        const at = app.drag?.kind === "place" && app.placing ? app.placing.pos : c;
        // While the ball is carried, the handle stays where the pointer holds it.
        const off = app.drag?.kind === "place" ? app.drag.offset : null;
        const [hx, hy] = off ? renderer.view.toScreen(at[0] + off[0], at[1] + off[1]) : handleSpot(renderer.view, at, touch, app.aim.angle);
        overlay.handle = { x: hx, y: hy, r: handleRadius(touch) };
      }
    } else if (app.remoteAim && cue && performance.now() - app.remoteAimAt < 5000 && tb.turn === app.remoteAim.seat) {
      const c = /** @type {Vec} */ ([cue.x, cue.y]);
      const ang = app.remoteAim.angle / DEG;
      const ra = app.remoteAim;
      overlay.aim = { cue: c, angle: ang, power: powerFromSpeed(ra.speed, ra.elevation), speed: ra.speed, height: ra.tip?.[1] ?? 0, elevation: ra.elevation, preview: aimPreview(c, ang, objectBalls()), remote: true, aid: aimAid() };
      overlay.tip = { side: ra.tip?.[0] ?? 0, height: ra.tip?.[1] ?? 0 };
    }
  }
  if (wrong !== app.wrongBall) {
    app.wrongBall = wrong;
    renderHud();
  }
  lastOverlay = overlay;
  const t0 = performance.now();
  renderer.draw(balls, overlay);
  drawTimes.push(performance.now() - t0);
  if (drawTimes.length > 600) drawTimes.shift();
  renderClock();
}

attachTableInput(/** @type {HTMLCanvasElement} */ ($("table")), () => renderer.view, {
  shoot,
  place,
  setPower,
  aimChanged,
  refresh: renderTableUi,
  skip: skipAnim,
});
attachStrip($("strip-track"), { shoot, setPower });

/** Brings the table view's widgets in line with the state. */
function renderTableUi() {
  renderHud();
  for (const s of spins) s.setEnabled(canShoot());
  invalidate();
}

// --- wiring -------------------------------------------------------------------------------

function wire() {
  const nameInput = /** @type {HTMLInputElement} */ ($("name"));
  nameInput.value = session.name() || currentName();
  nameInput.addEventListener("change", () => {
    const v = nameInput.value.trim();
    if (NAME_PATTERN.test(v)) session.setName(v);
    else toast(t("lobby.nameBad"));
  });

  $("quick").addEventListener("click", async () => {
    const on = !app.quickWaiting;
    const race = Number(/** @type {HTMLSelectElement} */ ($("quick-race")).value);
    if (on) await ensureName();
    const rated = !!session.accountToken() && /** @type {HTMLInputElement} */ ($("quick-rated")).checked;
    const ok = await act(on ? { t: "quick", on: true, race_to: race, rated } : { t: "quick", on: false });
    if (ok && ok.t === "ok") app.quickWaiting = on;
    if (!app.quickWaiting) app.computerOffer = null;
    renderQuick();
  });

  /** Play the computer: a room of one's own against it, started at once (`joined`). @param {number} level */
  const playComputer = async (level) => {
    await ensureName();
    const race = Number(/** @type {HTMLSelectElement} */ ($("quick-race")).value);
    // Rated only for a player logged in to an account (the server refuses a guest).
    const rated = !!session.accountToken() && /** @type {HTMLInputElement} */ ($("computer-rated")).checked;
    await act({ t: "computer", level, race_to: race, rated });
  };
  $("computer").addEventListener("click", () => playComputer(Number(/** @type {HTMLSelectElement} */ ($("computer-level")).value)));
  $("computer-offer-take").addEventListener("click", () => playComputer(app.computerOffer ?? 1));

  $("rooms").addEventListener("click", async (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest("button[data-join]");
    const room = button?.closest("tr[data-room]")?.getAttribute("data-room");
    const role = button?.getAttribute("data-join");
    if (!room || (role !== "player" && role !== "spectator")) return;
    if (role === "player") await ensureName();
    act({ t: "join", room, role });
  });

  wireCreateForm((settings) => ensureName().then(() => act({ t: "create", settings })));

  const joinCode = async (/** @type {"player" | "spectator"} */ role) => {
    const code = /** @type {HTMLInputElement} */ ($("join-code")).value.trim().toUpperCase();
    // The protocol's InviteCode: 4–32 letters and digits (the server issues 20).
    if (!/^[A-Z0-9]{4,32}$/.test(code)) return toast(t("lobby.codeBad"));
    await ensureName();
    act({ t: "join", code, role });
  };
  $("join-code-form").addEventListener("submit", (e) => {
    e.preventDefault();
    joinCode("player");
  });
  $("join-code-watch").addEventListener("click", () => joinCode("spectator"));
  $("replay-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const id = /** @type {HTMLInputElement} */ ($("replay-id")).value.trim();
    if (id) location.hash = `#/replay/${id}`;
  });

  const power = /** @type {HTMLInputElement} */ ($("power"));
  power.addEventListener("input", () => setPower(Number(power.value) / 100));
  setPower(Number(power.value) / 100);
  const elev = /** @type {HTMLInputElement} */ ($("elevation"));
  elev.addEventListener("input", () => setElevation(Number(elev.value)));
  setElevation(Number(elev.value));
  $("spin-reset").addEventListener("click", () => spin.set(0, 0));
  $("spin-pop-reset").addEventListener("click", () => spin.set(0, 0));
  $("spin-mini").addEventListener("click", () => {
    const pop = $("spin-pop");
    pop.hidden = !pop.hidden;
    if (!pop.hidden) $("spin-pop-ball").focus();
  });
  $("spin-pop-close").addEventListener("click", () => {
    $("spin-pop").hidden = true;
    $("spin-mini").focus();
  });
  setTip(0, 0);
  /** @type {HTMLInputElement} */ ($("pushout")).addEventListener("change", (e) => {
    app.aim.pushOut = /** @type {HTMLInputElement} */ (e.target).checked;
  });
  $("shoot").addEventListener("click", () => shoot());
  $("extend").addEventListener("click", () => {
    closeMenu();
    act({ t: "extend" });
  });
  $("skip").addEventListener("click", () => skipAnim());

  const lagPower = /** @type {HTMLInputElement} */ ($("lag-power"));
  const lagAngle = /** @type {HTMLInputElement} */ ($("lag-angle"));
  const lagOut = () => {
    const speed = Number(lagPower.value) / 100;
    $("lag-out").textContent = t("unit.speed", { v: num(speed, 2) });
    $("lag-reach").textContent = describeReach(speed, { short: true });
    $("lag-angle-out").textContent = `${num(Number(lagAngle.value) / 10, 1)}°`;
  };
  lagPower.addEventListener("input", lagOut);
  lagAngle.addEventListener("input", lagOut);
  lagOut();
  $("lag-shoot").addEventListener("click", async () => {
    if (app.lagSent) return;
    sound.unlock();
    app.lagSent = true;
    renderTableUi();
    // A hand never strikes twice alike: the speed varies by up to ±1 %, so two players at
    // the same setting (the default) do not tie; the lag is still theirs to judge.
    const chosen = Number(lagPower.value) / 100;
    // Kept to 0.01 mm/s: rounded to whole mm/s, two defaults drew the same speed, and tied,
    // about one lag in thirty-five; now only speeds within 0.07 mm/s tie (0.1 mm at rest).
    const speed = Math.round(Math.min(12, chosen * (1 + (Math.random() * 2 - 1) * LAG_SPREAD)) * 1e5) / 1e5;
    const ok = await act({ t: "lag", speed, angle: Number(lagAngle.value) / 10, tip: [0, 0] });
    if (ok && app.view && app.seat !== null && app.view.status === "lag") app.view.lagged = [...(app.view.lagged ?? []), app.seat];
    if (!ok) app.lagSent = false;
    renderTableUi();
  });

  $("ready").addEventListener("click", () => {
    const mine = app.view?.seats?.[mySeat() ?? 0];
    sound.unlock();
    act({ t: "ready", ready: !mine?.ready });
  });
  $("invite-copy").addEventListener("click", async () => {
    const input = /** @type {HTMLInputElement} */ ($("invite-link"));
    input.value = inviteLink();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
    }
    toast(t("invite.copied"), "info");
  });
  // An empty seat, seen by a spectator: sit down in it.
  for (const i of [0, 1]) {
    $(`seat${i}`).addEventListener("click", async (e) => {
      if (!(/** @type {HTMLElement} */ (e.target).closest("[data-sit]")) || !app.room) return;
      const seat = Number(/** @type {HTMLElement} */ (e.target).closest("[data-sit]")?.getAttribute("data-sit"));
      sound.unlock();
      await act({ t: "sit", seat, code: app.code, invite: app.linkInvite });
    });
  }
  const leaveDlg = /** @type {HTMLDialogElement} */ ($("leave-dialog"));
  const leave = async () => {
    await act({ t: "leave" });
    clearRoom();
    location.hash = "#/";
  };
  $("leave").addEventListener("click", () => {
    closeMenu();
    if (mySeat() !== null && status() === "playing") leaveDlg.showModal();
    else leave();
  });
  $("leave-cancel").addEventListener("click", () => leaveDlg.close());
  $("leave-confirm").addEventListener("click", () => {
    leaveDlg.close();
    leave();
  });
  $("stalemate").addEventListener("click", () => {
    closeMenu();
    const by = app.table?.stalemate_proposed_by;
    act({ t: "stalemate", action: by !== null && by !== undefined && by !== mySeat() ? "accept" : "propose" });
  });
  const concedeDlg = /** @type {HTMLDialogElement} */ ($("concede-dialog"));
  // The menu opens upward where below it would leave the window (the panel's foot on a
  // short screen), and is brought into view if it still does not fit.
  const more = /** @type {HTMLDetailsElement} */ ($("more"));
  more.addEventListener("toggle", () => {
    const menu = /** @type {HTMLElement} */ (more.querySelector(".more-menu"));
    menu.classList.remove("up");
    if (!more.open) return;
    const below = menu.getBoundingClientRect();
    const room = more.getBoundingClientRect();
    if (below.bottom > window.innerHeight && room.top - below.height - 6 >= 0) menu.classList.add("up");
    menu.scrollIntoView({ block: "nearest" });
  });
  $("concede").addEventListener("click", () => {
    closeMenu();
    concedeDlg.showModal();
  });
  $("concede-cancel").addEventListener("click", () => concedeDlg.close());
  $("concede-game").addEventListener("click", () => {
    concedeDlg.close();
    act({ t: "concede", what: "game" });
  });
  $("concede-match").addEventListener("click", () => {
    concedeDlg.close();
    act({ t: "concede", what: "match" });
  });
  const rematch = () => act({ t: "rematch" }).then(renderTableUi);
  $("rematch").addEventListener("click", rematch);
  $("result-rematch").addEventListener("click", () => {
    /** @type {HTMLDialogElement} */ ($("result-dialog")).close();
    rematch();
  });
  $("result-close").addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("result-dialog")).close());
  $("choose-shoot").addEventListener("click", () => choose("shoot"));
  $("choose-pass").addEventListener("click", () => choose("pass"));
  /** @type {HTMLDialogElement} */ ($("choice-dialog")).addEventListener("cancel", (e) => e.preventDefault());
  $("lag-break").addEventListener("click", () => chooseBreaker("break"));
  $("lag-give").addEventListener("click", () => chooseBreaker("give"));
  /** @type {HTMLDialogElement} */ ($("lag-dialog")).addEventListener("cancel", (e) => e.preventDefault());
  $("replay-last").addEventListener("click", () => {
    closeMenu();
    const m = app.lastShot;
    if (!m || app.anim) return;
    const tracks = normaliseTracks(decodeTracks(m.traj));
    const pb = new ShotPlayback(tracks, m.duration, m.final);
    startAnim([pb], 0, 0.6, t("prompt.replayAnim"), () => {}, shotSounds(tracks));
    renderTableUi();
  });
  $("chat-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($("chat-input"));
    const text = input.value.trim();
    if (!text) return;
    if (await act({ t: "chat", text })) input.value = "";
  });

  // The log, chat and menu: a sheet over the table on narrow screens.
  $("panel-toggle").addEventListener("click", () => setPanel(!app.panelOpen));

  // Language and sound, in the top bar.
  const langSelect = /** @type {HTMLSelectElement} */ ($("lang"));
  langSelect.replaceChildren(...LANGUAGES.map(([code, name]) => new Option(name, code, false, code === lang())));
  langSelect.value = lang();
  langSelect.addEventListener("change", () => setLanguage(langSelect.value));
  onLanguage(() => {
    langSelect.value = lang();
    reword();
  });
  const mute = $("mute");
  const showMute = () => {
    mute.classList.toggle("muted", sound.muted);
    mute.setAttribute("aria-pressed", String(sound.muted));
  };
  showMute();
  mute.addEventListener("click", () => {
    sound.setMuted(!sound.muted);
    if (!sound.muted) sound.unlock();
    showMute();
  });
  // Browsers start audio only after a gesture on the page.
  document.addEventListener("pointerdown", () => sound.unlock(), { once: true });
  document.addEventListener("keydown", () => sound.unlock(), { once: true });

  const compact = matchMedia("(max-width: 820px), (max-height: 500px)");
  const layout = () => {
    document.documentElement.classList.toggle("compact", compact.matches);
    if (!compact.matches) setPanel(false);
  };
  compact.addEventListener("change", layout);
  layout();

  window.addEventListener("hashchange", () => onRoute());
  window.addEventListener("resize", () => renderer.resize());
  // Keep the live things (clock, grace countdown) fresh between events.
  setInterval(() => {
    if (app.route === "table") {
      renderSeats();
      renderLagLeft();
    }
  }, 1000);
  setInterval(() => {
    if (conn.welcomed) conn.request({ t: "ping" }).catch(() => {});
  }, 20000);
}

/** Opens or closes the log-and-chat sheet (narrow screens). @param {boolean} open */
function setPanel(open) {
  app.panelOpen = open;
  document.documentElement.classList.toggle("panel-open", open);
  $("panel-toggle").setAttribute("aria-expanded", String(open));
  if (open) {
    app.unread = 0;
    renderBadge();
  }
}

function closeMenu() {
  /** @type {HTMLDetailsElement} */ ($("more")).open = false;
}

/** Everything worded again, in the language just chosen. */
function reword() {
  rewordCreateForm();
  showConn(conn.state);
  showMe();
  renderRooms();
  renderQuick();
  setTip(app.aim.side, app.aim.height);
  setElevation(app.aim.elevation);
  const lagPower = /** @type {HTMLInputElement} */ ($("lag-power"));
  lagPower.dispatchEvent(new Event("input"));
  rewordLog();
  replay?.render();
  if (app.view) renderTableUi();
}

/** @param {"shoot" | "pass"} choice */
async function choose(choice) {
  /** @type {HTMLDialogElement} */ ($("choice-dialog")).close();
  const ok = await act({ t: "choose", choice });
  if (!ok) renderTableUi();
}

/**
 * R3/O6: the lag winner breaks the first game or gives the break away.
 * @param {"break" | "give"} choice
 */
async function chooseBreaker(choice) {
  /** @type {HTMLDialogElement} */ ($("lag-dialog")).close();
  const ok = await act({ t: "lag_choice", choice });
  if (!ok) renderTableUi();
}

// --- test and debugging hooks (read-only views of the state) ------------------------------

/** @type {any} */ (window).ninepool = {
  app,
  conn,
  practice,
  /** Ball positions as drawn now (index = ball number, null = not on the table). */
  positions() {
    /** @type {(Vec | null)[]} */
    const out = Array(10).fill(null);
    for (const b of app.anim ? app.shown : restingView()) out[b.n] = [b.x, b.y];
    return out;
  },
  /** Page coordinates of a table point, for driving the real mouse in tests. @param {number} x @param {number} y */
  screenOf(x, y) {
    const r = $("table").getBoundingClientRect();
    const [sx, sy] = renderer.view.toScreen(x, y);
    return [r.left + sx, r.top + sy];
  },
  animating() {
    return !!app.anim || app.queue.length > 0;
  },
  /** The labels, wrong-ball flag and tip dot of the overlay last drawn. */
  overlay() {
    const o = lastOverlay;
    return o ? { labels: o.labels ?? [], wrong: !!o.aim?.wrong, tip: o.tip ?? null, handle: o.handle ?? null, aimParts: [...renderer.aimParts] } : null;
  },
  /** What was heard so far (impact kinds, fanfares), and whether sound is muted. */
  sounds() {
    return { heard: [...heard], muted: sound.muted };
  },
  /** Page coordinates of the ball-in-hand handle (null without ball in hand). */
  handleOf() {
    const cue = cuePos();
    if (!cue || !ballInHand()) return null;
    const r = $("table").getBoundingClientRect();
    const [x, y] = handleSpot(renderer.view, cue, touchFirst(), app.aim.angle);
    return [r.left + x, r.top + y];
  },
  /** Median and 95th percentile of the recent frame draw times (ms). */
  frameStats() {
    const s = [...drawTimes].sort((x, y) => x - y);
    const at = (/** @type {number} */ q) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
    return { frames: s.length, median: at(0.5), p95: at(0.95), max: s[s.length - 1] ?? 0 };
  },
  /** Whether the table is drawn turned a quarter (narrow screens). */
  portrait() {
    return renderer.view.portrait;
  },
};

wire();
reword();
show("lobby");
conn.start();
requestAnimationFrame(frame);
