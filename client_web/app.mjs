// The application: lobby, table, replay. Wires the connection's messages to what is
// drawn and shown, and the player's mouse, touch and keys to what is sent.
//
// Room events are applied strictly in order through a queue; a shot's animation holds
// the queue, so a verdict, a warning or the next placement is shown only once the balls
// have stopped on screen, exactly where the server says they stopped.

import { aimPreview, angleTo, checkPlacement, clampToBed, distance } from "./aim.mjs";
import { SpinSelector, describeTip, powerFromSpeed, speedFromPower } from "./controls.mjs";
import { Connection, NAME_PATTERN, ServerError, defaultUrl, session } from "./net.mjs";
import { ShotPlayback, normaliseTracks, restingBalls } from "./playback.mjs";
import { Renderer } from "./render.mjs";
import { ReplayViewer } from "./replay.mjs";
import { BALL_COLOURS, TABLE } from "./table.mjs";
import { decodeTracks } from "./trajectory.mjs";
import { describeLag, describeRuling, describeShot } from "./verdict.mjs";

/** @typedef {import("./aim.mjs").Vec} Vec */
/** @typedef {import("./playback.mjs").BallFrame} BallFrame */
/** @typedef {Record<string, any>} Msg */

const R = TABLE.ballRadius;
const DEG = 180 / Math.PI;
/** Playback speed (`?rate=4` fast-forwards every animation; for watching long matches and for tests). */
export const PLAYBACK_RATE = Math.min(16, Math.max(0.25, Number(new URLSearchParams(location.search).get("rate")) || 1));

/** @template {HTMLElement} T @param {string} id @returns {T} */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing element #${id}`);
  return /** @type {T} */ (el);
}

/** @param {string} tag @param {Record<string, string>} [attrs] @param {(Node | string)[]} [children] */
function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const c of children) el.append(c);
  return el;
}

// --- state ----------------------------------------------------------------------------

const app = {
  /** @type {Msg | null} */ welcome: null,
  /** @type {"lobby" | "table" | "replay"} */ route: "lobby",
  /** @type {Map<string, Msg>} */ rooms: new Map(),
  quickWaiting: false,
  /** @type {string | null} */ room: null,
  /** @type {"player" | "spectator" | null} */ role: null,
  /** @type {number | null} */ seat: null,
  /** @type {string | null} */ code: null,
  /** @type {Msg | null} RoomView */ view: null,
  /** @type {Msg | null} TableView */ table: null,
  /** @type {Msg[]} */ queue: [],
  /** @type {{ playbacks: ShotPlayback[], t: number, wall: number, hold: number, onDone: () => void, label: string } | null} */
  anim: null,
  /** @type {BallFrame[]} */ shown: [],
  aim: { angle: 0, power: 0.4, side: 0, height: 0, elevation: 0, pushOut: false, turnKey: "" },
  /** @type {{ kind: "aim" | "power" | "place", id: number } | null} */ drag: null,
  /** @type {{ pos: Vec, ok: boolean, message: string } | null} */ placing: null,
  /** @type {Vec | null} placement sent, waiting for `placed` */ placedPending: null,
  /** @type {Msg | null} */ remoteAim: null,
  remoteAimAt: 0,
  /** @type {Msg | null} */ lastShot: null,
  shotPending: false,
  /** @type {{ text: string, tone: string } | null} */ lastVerdict: null,
  /** @type {Msg | null} */ warning: null,
  lastAimSent: 0,
  aimDirty: false,
  /** the power before a drag on the cue ball, restored if the drag is called off */
  powerBeforeDrag: 0.4,
  /** grows whenever the table changes hands or state, so a new turn re-aims once */
  tableVersion: 0,
};

const conn = new Connection({
  url: defaultUrl(),
  name: () => currentName(),
  onMessage: (m) => onMessage(m),
  onState: (s) => showConn(s),
  onWelcome: (w) => onWelcome(w),
});

const renderer = new Renderer(/** @type {HTMLCanvasElement} */ ($("table")));
/** @type {ReplayViewer | null} */
let replay = null;
const spin = new SpinSelector(/** @type {HTMLCanvasElement} */ ($("spin")), (side, height) => {
  app.aim.side = side;
  app.aim.height = height;
  $("spin-text").textContent = describeTip(side, height);
  aimChanged();
});

// --- helpers ----------------------------------------------------------------------------

function currentName() {
  const input = /** @type {HTMLInputElement} */ ($("name"));
  const v = input.value.trim();
  if (NAME_PATTERN.test(v)) return v;
  const stored = session.name();
  if (NAME_PATTERN.test(stored)) return stored;
  const fresh = `Player-${Math.floor(1000 + Math.random() * 9000)}`;
  session.setName(fresh);
  input.value = fresh;
  return fresh;
}

/** @returns {string[]} */
function names() {
  const seats = app.view?.seats ?? [null, null];
  return [0, 1].map((i) => seats[i]?.name ?? `Seat ${i + 1}`);
}

function mySeat() {
  return app.role === "player" ? app.seat : null;
}

function status() {
  return app.view?.status ?? "waiting";
}

function myTurn() {
  const t = app.table;
  return !!t && status() === "playing" && !t.match_over && t.turn !== null && t.turn === mySeat() && !app.anim;
}

function canShoot() {
  return myTurn() && !app.table?.choice_pending && !app.shotPending;
}

/** @returns {"table" | "kitchen" | null} */
function ballInHand() {
  return canShoot() ? (app.table?.ball_in_hand ?? null) : null;
}

/** @returns {{ n: number, x: number, y: number }[]} */
function objectBalls() {
  /** @type {{ n: number, x: number, y: number }[]} */
  const out = [];
  const balls = app.table?.balls ?? [];
  balls.forEach((/** @type {Vec | null} */ p, /** @type {number} */ n) => {
    if (p && n > 0) out.push({ n, x: p[0], y: p[1] });
  });
  return out;
}

/** @returns {Vec | null} */
function cuePos() {
  if (app.placing && app.drag?.kind === "place") return app.placing.pos;
  if (app.placedPending) return app.placedPending;
  const p = app.table?.balls?.[0];
  return p ? [p[0], p[1]] : null;
}

/** @param {unknown} err */
function toast(err) {
  const el = $("toast");
  el.textContent = err instanceof ServerError ? err.msg || err.code : String(err instanceof Error ? err.message : err);
  el.hidden = false;
  clearTimeout(/** @type {any} */ (el).timer);
  /** @type {any} */ (el).timer = setTimeout(() => (el.hidden = true), 4000);
}

/**
 * Makes sure the server knows the name typed in the lobby before sitting down with it:
 * the name is said in `hello`, so a changed name means saying hello again.
 */
async function ensureName() {
  const v = /** @type {HTMLInputElement} */ ($("name")).value.trim();
  if (!NAME_PATTERN.test(v) || !app.welcome || app.welcome.name === v || app.room) return;
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
  el.textContent = { connecting: "Connecting…", online: "Online", reconnecting: "Reconnecting…", offline: "Offline" }[s];
  if (s === "offline" && conn.fatal) toast("This page cannot talk to the server any more — please reload it.");
}

// --- routing ----------------------------------------------------------------------------

function parseHash() {
  const m = location.hash.match(/^#\/(room|replay)\/([A-Za-z0-9_-]{1,32})$/);
  return m ? { kind: m[1], id: m[2] } : { kind: "lobby", id: "" };
}

/** @param {"lobby" | "table" | "replay"} route */
function show(route) {
  app.route = route;
  $("lobby").hidden = route !== "lobby";
  $("table-view").hidden = route !== "table";
  $("replay-view").hidden = route !== "replay";
  if (route === "table") renderer.resize();
}

async function onRoute() {
  const r = parseHash();
  if (r.kind === "replay") {
    show("replay");
    replay ??= new ReplayViewer();
    await replay.open(r.id).catch((e) => toast(e));
    return;
  }
  if (r.kind === "room") {
    show("table");
    if (app.room !== r.id && conn.welcomed) {
      const joined = await act({ t: "join", room: r.id, role: "spectator" });
      if (!joined) location.hash = "#/";
    }
    return;
  }
  show("lobby");
  if (app.room && conn.welcomed) {
    // Leaving the table view by navigation leaves the room (a running match is conceded
    // only through the explicit Leave button, which asks first).
    if (app.role === "spectator" || status() !== "playing") {
      await act({ t: "leave" });
      clearRoom();
    } else {
      toast("You are playing a match: use Leave table to leave it (that concedes the match, O4).");
      location.hash = `#/room/${app.room}`;
    }
  }
}

function clearRoom() {
  app.room = null;
  app.role = null;
  app.seat = null;
  app.code = null;
  app.view = null;
  app.table = null;
  app.queue = [];
  app.anim = null;
  app.lastShot = null;
  app.warning = null;
  app.lastVerdict = null;
  $("log").replaceChildren();
  $("chat-log").replaceChildren();
}

// --- connection events ----------------------------------------------------------------

/** @param {Msg} w */
function onWelcome(w) {
  app.welcome = w;
  $("me").textContent = `Playing as ${w.name}`;
  conn.request({ t: "lobby", on: true }).then((m) => {
    app.rooms.clear();
    for (const info of m.rooms) app.rooms.set(info.room, info);
    renderRooms();
  }, toast);
  if (w.room) {
    app.room = w.room; // the seat is restored; its snapshot follows at once
    if (parseHash().id !== w.room) location.hash = `#/room/${w.room}`;
    show("table");
  } else if (app.room) {
    // Reconnected as a spectator (sessions seat players only): join again.
    const room = app.room;
    const role = app.role ?? "spectator";
    app.room = null;
    conn.request({ t: "join", room, role: role === "player" ? "spectator" : role }).catch(() => {
      clearRoom();
      location.hash = "#/";
    });
  } else {
    onRoute();
  }
}

/** @param {Msg} m */
function onMessage(m) {
  switch (m.t) {
    case "rooms":
      return;
    case "room":
      app.rooms.set(m.info.room, m.info);
      renderRooms();
      return;
    case "room_gone":
      app.rooms.delete(m.room);
      renderRooms();
      return;
    case "joined":
      app.room = m.room;
      app.role = m.role;
      app.seat = m.seat ?? null;
      app.code = m.code ?? null;
      app.quickWaiting = false;
      renderQuick();
      if (parseHash().id !== m.room) location.hash = `#/room/${m.room}`;
      show("table");
      return;
    case "aim":
      if (m.room === app.room && m.seat !== mySeat()) {
        app.remoteAim = m;
        app.remoteAimAt = performance.now();
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
      if (app.view) app.view.table = m.table;
      const d = describeRuling(/** @type {any} */ (m), names());
      log(d.headline, d.tone, d.details);
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
      return addChat(m);
    case "warning":
      app.warning = m;
      // The banner carries it; the verdict under the table stays the shot's.
      log(m.msg, m.kind === "clock" ? "neutral" : "foul", [], true);
      return;
    case "game_over":
      if (app.view && app.table) app.table = { ...app.table, score: m.score };
      showResult(`${names()[m.winner] ?? "Nobody"} wins rack ${m.rack}`, `${m.reason}. Score ${m.score[0]}–${m.score[1]}.`, false);
      return;
    case "match_over":
      if (app.view) app.view.status = "finished";
      showResult(
        m.winner === null ? "Match over" : `${names()[m.winner]} wins the match`,
        `${m.reason}. Final score ${names()[0]} ${m.score[0]} – ${m.score[1]} ${names()[1]}.`,
        true,
      );
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
  app.room = v.room;
  app.view = v;
  app.table = v.table;
  app.code = v.code ?? app.code;
  app.placedPending = null;
  app.shotPending = false;
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
  }
  if (v.table) {
    for (const seat of v.table.warned ?? []) {
      app.warning = { kind: "three_fouls", seat, msg: `${names()[seat]} is on two consecutive fouls: a third loses the game (R13)` };
    }
  }
  if (v.inflight) applyShot({ ...v.inflight.result, _replayed: true }, v.inflight.offset);
  if (parseHash().id !== v.room) location.hash = `#/room/${v.room}`;
  show("table");
}

/** @param {Msg} m @param {number} offset */
function applyShot(m, offset) {
  app.lastShot = m;
  app.remoteAim = null;
  app.shotPending = false;
  app.placing = null;
  app.placedPending = null;
  const tracks = normaliseTracks(decodeTracks(m.traj));
  const pb = new ShotPlayback(tracks, m.duration, m.final);
  const changed = JSON.stringify(m.final) !== JSON.stringify(m.table.balls);
  const shooter = names()[m.shooter];
  startAnim([pb], offset, changed ? 0.9 : 0, `${shooter} shoots…`, () => {
    app.tableVersion++;
    app.table = m.table;
    if (app.view) app.view.table = m.table;
    if (m.verdict.new_rack) renderer.newRack();
    const d = describeShot(/** @type {any} */ (m), names());
    log(d.headline, d.tone, d.details);
    if (!m.table.warned?.length && app.warning?.kind === "three_fouls") app.warning = null;
  });
}

/** @param {Msg} m */
function applyLag(m) {
  const done = () => {
    app.tableVersion++;
    if (m.table) {
      app.table = m.table;
      if (app.view) {
        app.view.table = m.table;
        app.view.status = "playing";
      }
      renderer.newRack();
    } else if (app.view) {
      app.view.lagged = [];
    }
    log(describeLag(/** @type {any} */ (m), names()), "neutral", []);
  };
  if (!m.lags?.length) return done();
  const pbs = m.lags.map((/** @type {Msg} */ l) => new ShotPlayback(normaliseTracks(decodeTracks(l.traj)), l.duration, null));
  startAnim(pbs, 0, 0.8, "The lag…", done);
}

/**
 * @param {ShotPlayback[]} playbacks @param {number} offset @param {number} hold
 * @param {string} label @param {() => void} onDone
 */
function startAnim(playbacks, offset, hold, label, onDone) {
  if (document.visibilityState === "hidden") {
    // Nobody is watching this tab: show the outcome at once instead of queueing replays.
    onDone();
    return;
  }
  app.anim = { playbacks, t: offset, wall: performance.now(), hold, onDone, label };
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
  /** @type {BallFrame[]} */
  const balls = [];
  for (const pb of a.playbacks) balls.push(...pb.frame(t));
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

function shotSpeed() {
  return speedFromPower(app.aim.power);
}

/** Degrees in (−180, 180], as the protocol wants them. @param {number} rad */
function toDegrees(rad) {
  let d = rad * DEG;
  d = ((d % 360) + 540) % 360 - 180;
  return Math.round(d * 1e4) / 1e4;
}

async function shoot() {
  if (!canShoot()) return;
  if (app.placedPending) return toast("Wait: the cue ball placement is on its way.");
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

/** Points the cue at the lowest ball when a new turn starts for me. */
function defaultAim() {
  const t = app.table;
  if (!t || !canShoot()) return;
  const key = `${t.rack}:${t.turn}:${app.tableVersion}`;
  if (app.aim.turnKey === key) return;
  app.aim.turnKey = key;
  const cue = cuePos();
  const low = t.lowest != null ? t.balls[t.lowest] : null;
  if (cue && low) app.aim.angle = angleTo(cue, low);
  aimChanged();
}

// --- pointer and keys on the table --------------------------------------------------

const canvas = /** @type {HTMLCanvasElement} */ ($("table"));

/** @param {PointerEvent} e @returns {Vec} */
function worldOf(e) {
  const r = canvas.getBoundingClientRect();
  return renderer.view.toWorld(e.clientX - r.left, e.clientY - r.top);
}

canvas.addEventListener("pointerdown", (e) => {
  if (!canShoot()) return;
  const w = worldOf(e);
  const cue = cuePos();
  if (!cue) return;
  const d = distance(w, cue);
  const bih = ballInHand();
  if (bih && d < 2.5 * R) {
    app.drag = { kind: "place", id: e.pointerId };
    dragPlace(w);
  } else if (!bih && d < 2.5 * R) {
    app.drag = { kind: "power", id: e.pointerId };
    app.powerBeforeDrag = app.aim.power;
    dragPower(w);
  } else {
    app.drag = { kind: "aim", id: e.pointerId };
    app.aim.angle = angleTo(cue, w);
    aimChanged();
  }
  canvas.setPointerCapture(e.pointerId);
  e.preventDefault();
});

canvas.addEventListener("pointermove", (e) => {
  const drag = app.drag;
  if (!drag || drag.id !== e.pointerId) return;
  const w = worldOf(e);
  if (drag.kind === "place") {
    const wasOk = app.placing?.ok;
    dragPlace(w);
    if (app.placing?.ok !== wasOk) renderTableUi();
  } else if (drag.kind === "power") dragPower(w);
  else {
    const cue = cuePos();
    if (cue && distance(w, cue) > R) {
      app.aim.angle = angleTo(cue, w);
      aimChanged();
    }
  }
});

/** @param {PointerEvent} e */
function endDrag(e) {
  const drag = app.drag;
  if (!drag || drag.id !== e.pointerId) return;
  app.drag = null;
  aimChanged(); // spectators see the cue ball back where it lies
  invalidate();
  if (drag.kind === "place" && app.placing) {
    const p = app.placing;
    app.placing = null;
    if (p.ok) place(p.pos);
    else toast(`${p.message} The cue ball stays where it was.`);
  } else if (drag.kind === "power") {
    if (e.type === "pointerup" && app.aim.power >= 0.03) shoot();
    else setPower(app.powerBeforeDrag);
  }
  renderTableUi();
}
canvas.addEventListener("pointerup", endDrag);
canvas.addEventListener("pointercancel", endDrag);

/** @param {Vec} w */
function dragPlace(w) {
  const kitchen = ballInHand() === "kitchen";
  const pos = clampToBed(w, kitchen);
  // The kitchen clamp would hide the problem: check where the pointer really is.
  const check = checkPlacement(kitchen ? clampToBed(w, false) : pos, objectBalls(), kitchen);
  app.placing = { pos: check.ok ? pos : clampToBed(w, false), ok: check.ok, message: check.message };
  aimChanged();
}

/** Pulling back from the cue ball, opposite the aim, sets the power. @param {Vec} w */
function dragPower(w) {
  const cue = cuePos();
  if (!cue) return;
  const ux = Math.cos(app.aim.angle);
  const uy = Math.sin(app.aim.angle);
  const back = -((w[0] - cue[0]) * ux + (w[1] - cue[1]) * uy) - R;
  setPower(Math.min(1, Math.max(0, back / 0.55)));
}

/** @param {number} p */
function setPower(p) {
  app.aim.power = p;
  const input = /** @type {HTMLInputElement} */ ($("power"));
  input.value = String(Math.max(1, Math.round(p * 100)));
  $("power-out").textContent = `${shotSpeed().toFixed(1)} m/s`;
  aimChanged();
}

canvas.addEventListener("keydown", (e) => {
  if (!canShoot()) return;
  const fine = e.shiftKey ? 0.05 : e.altKey ? 5 : 0.5;
  const bih = ballInHand();
  const cue = cuePos();
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    app.aim.angle += ((e.key === "ArrowLeft" ? 1 : -1) * fine) / DEG;
    aimChanged();
  } else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
    setPower(Math.min(1, Math.max(0.01, app.aim.power + (e.key === "ArrowUp" ? 0.02 : -0.02))));
  } else if (e.key === " " || e.key === "Enter") {
    shoot();
  } else if (bih && cue && ["w", "a", "s", "d"].includes(e.key.toLowerCase())) {
    // Ball in hand from the keyboard: WASD moves the cue ball 1 cm (Shift: 1 mm).
    const step = e.shiftKey ? 0.001 : 0.01;
    const k = e.key.toLowerCase();
    const dx = k === "d" ? step : k === "a" ? -step : 0;
    const dy = k === "w" ? step : k === "s" ? -step : 0;
    const pos = clampToBed([cue[0] + dx, cue[1] + dy], bih === "kitchen");
    const check = checkPlacement(pos, objectBalls(), bih === "kitchen");
    if (check.ok) place(pos);
    else toast(check.message);
  } else {
    return;
  }
  e.preventDefault();
});

// --- drawing loop -------------------------------------------------------------------------

/**
 * The balls at rest as they should be drawn now: the table's positions, with the cue
 * ball where it is being dragged (by me, or live by the shooter I am watching).
 * @returns {BallFrame[]}
 */
function restingView() {
  const balls = restingBalls(app.table?.balls ?? []);
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
/** Draw times (ms) of the last frames, for `window.ninepool.frameStats()`. */
const drawTimes = /** @type {number[]} */ ([]);

function frame() {
  requestAnimationFrame(frame);
  if (app.route === "replay" && replay) {
    replay.frame();
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
  const overlay = { lowest: null, aim: null, placing: null, kitchenHint: false };
  const t = app.table;
  if (!app.anim && t && status() === "playing") {
    overlay.lowest = t.lowest;
    const cue = balls.find((b) => b.n === 0);
    if (canShoot() && cue) {
      const c = /** @type {Vec} */ ([cue.x, cue.y]);
      overlay.kitchenHint = ballInHand() === "kitchen";
      if (app.drag?.kind === "place" && app.placing) overlay.placing = app.placing;
      else overlay.aim = { cue: c, angle: app.aim.angle, power: app.aim.power, elevation: app.aim.elevation, preview: aimPreview(c, app.aim.angle, objectBalls()) };
    } else if (app.remoteAim && cue && performance.now() - app.remoteAimAt < 5000 && t.turn === app.remoteAim.seat) {
      const c = /** @type {Vec} */ ([cue.x, cue.y]);
      const ang = app.remoteAim.angle / DEG;
      overlay.aim = { cue: c, angle: ang, power: powerFromSpeed(app.remoteAim.speed), elevation: app.remoteAim.elevation, preview: aimPreview(c, ang, objectBalls()), remote: true };
    }
  }
  const t0 = performance.now();
  renderer.draw(balls, overlay);
  drawTimes.push(performance.now() - t0);
  if (drawTimes.length > 600) drawTimes.shift();
  renderClock();
}

// --- the table UI -------------------------------------------------------------------------

/**
 * Adds a line to the log and, unless `aside`, makes it the verdict shown under the table.
 * @param {string} text @param {string} tone @param {string[]} details @param {boolean} [aside]
 */
function log(text, tone, details, aside = false) {
  if (!aside) app.lastVerdict = { text, tone };
  const li = h("li", { class: tone }, [text]);
  for (const d of details) li.append(h("span", { class: "detail", text: d }));
  const ol = $("log");
  ol.prepend(li);
  while (ol.children.length > 60) ol.lastChild?.remove();
}

/** @param {Msg} m */
function addChat(m) {
  const who = m.seat === null ? `${m.name} (watching)` : m.name;
  const li = h("li", {}, [h("b", { text: `${who}: ` }), m.text]);
  const ol = $("chat-log");
  ol.append(li);
  while (ol.children.length > 100) ol.firstChild?.remove();
  ol.scrollTop = ol.scrollHeight;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let resultTimer;

/**
 * Shows a game or match result. A rack result closes by itself after a few seconds so
 * play goes on; the match result stays until dismissed (it offers the rematch).
 * @param {string} title @param {string} text @param {boolean} match
 */
function showResult(title, text, match) {
  const dlg = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  $("result-title").textContent = title;
  $("result-text").textContent = text;
  $("result-rematch").hidden = !(match && mySeat() !== null);
  clearTimeout(resultTimer);
  if (!match) resultTimer = setTimeout(() => dlg.open && dlg.close(), 5000);
  if (!dlg.open) dlg.showModal();
}

function renderSeats() {
  const v = app.view;
  const t = app.table;
  const n = names();
  for (const i of [0, 1]) {
    const el = $(`seat${i}`);
    const s = v?.seats?.[i];
    const tags = [];
    const isTurn = !!t && status() === "playing" && t.turn === i && !t.match_over;
    if (isTurn) tags.push(h("span", { class: "tag turn", text: app.anim ? "shooting" : t.choice_pending ? "to choose" : "to shoot" }));
    if (isTurn && t.ball_in_hand && !app.anim) tags.push(h("span", { class: "tag bih", text: t.ball_in_hand === "kitchen" ? "ball in hand (kitchen)" : "ball in hand" }));
    const fouls = t?.fouls?.[i] ?? 0;
    if (fouls > 0) tags.push(h("span", { class: "tag foul", text: `${fouls} foul${fouls > 1 ? "s" : ""}${(t?.warned ?? []).includes(i) ? " — warned" : ""}` }));
    if (t && t.breaker === i && status() === "playing") tags.push(h("span", { class: "tag", text: "breaker" }));
    if (s && !s.connected) {
      const left = s.grace_until ? Math.max(0, Math.round((s.grace_until - conn.serverNow()) / 1000)) : null;
      tags.push(h("span", { class: "tag off", text: left !== null ? `away — ${left}s to return` : "away" }));
    }
    if (s && status() === "waiting") tags.push(h("span", { class: "tag", text: s.ready ? "ready" : "not ready" }));
    if (i === mySeat()) tags.push(h("span", { class: "tag", text: "you" }));
    const score = t?.score?.[i] ?? 0;
    el.replaceChildren(
      h("span", { class: `dot${!s ? " empty" : !s.connected ? " off" : ""}`, role: "img", "aria-label": s ? (s.connected ? "connected" : "disconnected") : "empty seat" }),
      h("div", { class: "who" }, [h("span", { class: "name", text: s ? n[i] : "Empty seat" }), h("div", { class: "tags" }, tags)]),
      h("span", { class: "score", "aria-label": `${s ? n[i] : "seat"} score`, text: String(score) }),
    );
    el.classList.toggle("turn", isTurn);
    el.setAttribute("aria-label", `${s ? n[i] : "Empty seat"}: ${score} games${isTurn ? ", to shoot" : ""}`);
  }
  const race = v?.settings?.race_to ?? 0;
  const rack = t?.rack ?? 0;
  const name = v?.settings?.name ? `${v.settings.name} · ` : "";
  $("match-line").textContent = `${name}Race to ${race}${rack ? ` · Rack ${rack}` : ""}`;
  $("spectators").textContent = v ? `· ${v.spectators} watching` : "";
  renderRackBalls();
}

/** The nine object balls, dimmed once down, the lowest one ringed. */
function renderRackBalls() {
  const t = app.table;
  const box = $("rack-balls");
  box.replaceChildren();
  if (!t || status() !== "playing") return;
  const on = [];
  for (let n = 1; n <= 9; n++) {
    const here = !!t.balls?.[n];
    if (here) on.push(n);
    const colour = BALL_COLOURS[n];
    const style = n === 9 ? `background: linear-gradient(#fff 0 22%, ${colour} 22% 78%, #fff 78%)` : `background: ${colour}`;
    box.append(
      h("span", { class: `mini-ball${here ? "" : " gone"}${n === t.lowest ? " lowest" : ""}`, style, "aria-hidden": "true" }, [
        h("span", { text: String(n) }),
      ]),
    );
  }
  box.setAttribute("aria-label", `Balls on the table: ${on.join(", ") || "none"}`);
}

function renderClock() {
  const el = $("clock");
  const c = app.table?.clock;
  if (!c || status() !== "playing") {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  if (c.deadline === null || c.paused || app.anim) {
    el.textContent = `⏱ ${c.seconds}s`;
    el.classList.remove("low");
    return;
  }
  const left = Math.max(0, (c.deadline - conn.serverNow()) / 1000);
  const s = Math.ceil(left);
  el.textContent = `⏱ ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  el.classList.toggle("low", left <= 10);
  el.setAttribute("aria-label", `Shot clock: ${s} seconds left`);
}

/** What the player should do now, in one sentence. */
function prompt() {
  const t = app.table;
  const n = names();
  const st = status();
  if (!app.view) return "Joining the table…";
  if (st === "waiting") {
    const seats = app.view.seats;
    if (!seats[0] || !seats[1]) return "Waiting for an opponent to sit down.";
    return "Waiting for both players to be ready.";
  }
  if (st === "lag") {
    const me = mySeat();
    if (me !== null && !(app.view.lagged ?? []).includes(me)) return "Lag for the break: play your lag shot.";
    return "The lag: waiting for both players.";
  }
  if (!t) return "";
  if (t.match_over || st === "finished") return "The match is over.";
  if (app.anim) return app.anim.label;
  const who = t.turn === null ? "" : n[t.turn];
  const low = t.lowest != null ? `hit the ${t.lowest} first` : "";
  if (t.turn === mySeat()) {
    if (app.drag?.kind === "place" && app.placing) {
      return app.placing.ok ? "Release to place the cue ball here." : `Not here: ${app.placing.message}`;
    }
    if (t.choice_pending) return "Your opponent pushed out: shoot or pass it back (R6).";
    if (app.shotPending) return "Shooting…";
    if (t.ball_in_hand === "kitchen") return `Your break: move the cue ball anywhere behind the head string if you like, then ${low}, hard (power 85 % or more).`;
    if (t.ball_in_hand) return `Ball in hand: drag the cue ball anywhere, then aim — ${low}.`;
    return `Your shot — ${low}. Drag on the table to aim; pull back from the cue ball or press Shoot.`;
  }
  if (t.choice_pending) return `${who} chooses: shoot or pass (R6).`;
  const ra = app.remoteAim;
  if (ra && ra.seat === t.turn && performance.now() - app.remoteAimAt < 5000) {
    return `${who} is aiming: ${ra.speed.toFixed(1)} m/s, ${describeTip(ra.tip[0], ra.tip[1])}${ra.elevation ? `, cue raised ${Math.round(ra.elevation)}°` : ""}.`;
  }
  return `${who} to shoot${t.ball_in_hand ? " with ball in hand" : ""} — ${low}.`;
}

function renderTableUi() {
  if (!app.view) return;
  invalidate();
  renderSeats();
  const t = app.table;
  const st = status();
  const me = mySeat();
  const player = me !== null;
  const playing = st === "playing" && !!t && !t.match_over;
  const lagging = st === "lag" && player && !(app.view.lagged ?? []).includes(me);

  // The verdict of the last shot and what to do now.
  const statusEl = $("status");
  const v = app.lastVerdict;
  statusEl.replaceChildren();
  if (v && !app.anim) statusEl.append(h("div", { text: v.text }));
  statusEl.append(h("div", { class: "prompt", text: prompt() }));
  statusEl.className = `status ${v && !app.anim ? v.tone : ""}`;

  // The banner: the R13 warning stays up while the player is on two fouls.
  const banner = $("banner");
  const w = app.warning;
  const warnedNow = t && w && w.kind === "three_fouls" ? (t.warned ?? []).includes(w.seat) || (t.fouls?.[w.seat] ?? 0) >= 2 : !!w;
  if (w && warnedNow && (w.kind === "three_fouls" || w.kind === "stalemate")) {
    banner.hidden = false;
    banner.className = `banner ${w.kind === "stalemate" ? "stalemate" : ""}`;
    banner.textContent = w.kind === "three_fouls" ? `⚠ ${w.msg}` : `⚠ ${w.msg}`;
  } else if (t?.stalemate_warning) {
    banner.hidden = false;
    banner.className = "banner stalemate";
    banner.textContent = "⚠ Stalemate warning (R14): three more innings each without a ball pocketed and the rack is replayed.";
  } else {
    banner.hidden = true;
  }

  // Panels.
  $("shot-controls").hidden = !(player && playing);
  $("shot-controls").classList.toggle("disabled", !canShoot());
  $("lag-controls").hidden = !lagging;
  $("wait-controls").hidden = !(st === "waiting" && player);
  /** @type {HTMLButtonElement} */ ($("shoot")).disabled = !canShoot();
  /** @type {HTMLButtonElement} */ ($("lag-shoot")).disabled = !lagging || !!app.anim;
  spin.setEnabled(canShoot());
  $("pushout-wrap").hidden = !(canShoot() && t?.push_out_allowed);
  $("pushout-help").hidden = $("pushout-wrap").hidden;
  const clock = t?.clock;
  $("extend").hidden = !(canShoot() && clock && (clock.extensions?.[me ?? 0] ?? 0) > 0);
  if (st === "waiting" && player) {
    const mine = app.view.seats[me];
    const code = app.code ? ` Invite code: ${app.code}.` : "";
    $("wait-text").textContent = `${prompt()}${code} Table id: ${app.room}.`;
    $("ready").textContent = mine?.ready ? "Not ready" : "I'm ready";
    $("ready").setAttribute("aria-pressed", String(!!mine?.ready));
  }
  const proposedBy = t?.stalemate_proposed_by;
  const stale = $("stalemate");
  // R14: only once the rack is broken, and only until the warning is in force.
  stale.hidden = !(player && playing && t.ball_in_hand !== "kitchen" && !t.stalemate_warning);
  stale.textContent = proposedBy !== null && proposedBy !== undefined && proposedBy !== me ? "Accept stalemate" : "Propose stalemate";
  /** @type {HTMLButtonElement} */ (stale).disabled = proposedBy === me;
  $("concede").hidden = !(player && playing);
  $("rematch").hidden = !(player && (st === "finished" || !!t?.match_over));
  const rematchAsked = (app.view.rematch ?? []).includes(me);
  const otherAsked = me !== null && (app.view.rematch ?? []).includes(1 - me);
  $("rematch").textContent = rematchAsked ? "Rematch asked — waiting…" : otherAsked ? `Rematch (${names()[1 - (me ?? 0)]} wants one)` : "Rematch";
  /** @type {HTMLButtonElement} */ ($("rematch")).disabled = rematchAsked;
  /** @type {HTMLButtonElement} */ ($("replay-last")).disabled = !app.lastShot || !!app.anim;
  $("chat-form").hidden = false;

  // The push-out choice.
  const dlg = /** @type {HTMLDialogElement} */ ($("choice-dialog"));
  const choose = !!t && t.choice_pending && t.turn === me && !app.anim && playing;
  if (choose && !dlg.open) dlg.show();
  if (!choose && dlg.open) dlg.close();

  // A description of the table for screen readers.
  const balls = (t?.balls ?? []).map((/** @type {Vec | null} */ p, /** @type {number} */ n) => (p && n > 0 ? String(n) : null)).filter(Boolean);
  $("table-desc").textContent = `${prompt()} Balls on the table: ${balls.join(", ") || "none"}.`;
  canvas.setAttribute("aria-label", `Pool table. ${prompt()}`);
}

// --- lobby UI -----------------------------------------------------------------------------

function renderRooms() {
  const body = $("rooms");
  body.replaceChildren();
  const rooms = [...app.rooms.values()].sort((a, b) => (a.status === "waiting" ? -1 : 1) - (b.status === "waiting" ? -1 : 1));
  for (const r of rooms) {
    const actions = h("td");
    if (r.players.length < 2 && r.status === "waiting") {
      const join = h("button", { type: "button", class: "primary", text: "Join", "aria-label": `Join ${r.name || r.room}` });
      join.addEventListener("click", async () => {
        await ensureName();
        act({ t: "join", room: r.room, role: "player" });
      });
      actions.append(join);
    }
    const watch = h("button", { type: "button", text: "Watch", "aria-label": `Watch ${r.name || r.room}` });
    watch.addEventListener("click", () => act({ t: "join", room: r.room, role: "spectator" }));
    actions.append(watch);
    if (r.status !== "waiting") {
      actions.append(h("a", { class: "button", href: `#/replay/${r.room}`, text: "Replay", "aria-label": `Replay ${r.name || r.room}` }));
    }
    body.append(
      h("tr", { "data-room": r.room }, [
        h("td", { text: r.name || r.room }),
        h("td", { text: r.players.join(" vs ") || "—" }),
        h("td", { text: `${r.score[0]}–${r.score[1]} (race to ${r.race_to})` }),
        h("td", {}, [h("span", { class: `status-pill status-${r.status}`, text: `${r.status}${r.spectators ? ` · ${r.spectators} 👁` : ""}` })]),
        actions,
      ]),
    );
  }
  $("rooms-empty").hidden = rooms.length > 0;
  $("room-count").textContent = rooms.length ? `(${rooms.length})` : "";
}

function renderQuick() {
  $("quick").textContent = app.quickWaiting ? "Cancel search" : "Quick match";
  $("quick-status").textContent = app.quickWaiting ? "Looking for an opponent…" : "";
}

// --- wiring -------------------------------------------------------------------------------

function wire() {
  const nameInput = /** @type {HTMLInputElement} */ ($("name"));
  nameInput.value = session.name() || currentName();
  nameInput.addEventListener("change", () => {
    const v = nameInput.value.trim();
    if (NAME_PATTERN.test(v)) session.setName(v);
    else toast("A name is 1–24 letters, digits, spaces, dots, dashes or underscores.");
  });

  $("quick").addEventListener("click", async () => {
    const on = !app.quickWaiting;
    const race = Number(/** @type {HTMLSelectElement} */ ($("quick-race")).value);
    if (on) await ensureName();
    const ok = await act(on ? { t: "quick", on: true, race_to: race } : { t: "quick", on: false });
    if (ok && ok.t === "ok") app.quickWaiting = on;
    renderQuick();
  });

  $("create-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    await ensureName();
    const val = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value;
    const clock = val("c-clock");
    act({
      t: "create",
      settings: {
        name: val("c-name").trim(),
        race_to: Number(val("c-race")),
        break_order: val("c-break"),
        shot_clock: clock ? Number(clock) : null,
        extensions: Number(val("c-ext")),
        first_break: val("c-first"),
        private: /** @type {HTMLInputElement} */ ($("c-private")).checked,
        forfeit: val("c-forfeit"),
        stalemate_innings: Number(val("c-stale")),
      },
    });
  });

  const joinCode = async (/** @type {"player" | "spectator"} */ role) => {
    const code = /** @type {HTMLInputElement} */ ($("join-code")).value.trim().toUpperCase();
    if (!/^[A-Z0-9]{4,12}$/.test(code)) return toast("An invite code is 4–12 letters and digits.");
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
  elev.addEventListener("input", () => {
    app.aim.elevation = Number(elev.value);
    $("elev-out").textContent = `${elev.value}°`;
    aimChanged();
  });
  $("spin-reset").addEventListener("click", () => spin.set(0, 0));
  /** @type {HTMLInputElement} */ ($("pushout")).addEventListener("change", (e) => {
    app.aim.pushOut = /** @type {HTMLInputElement} */ (e.target).checked;
  });
  $("shoot").addEventListener("click", () => shoot());
  $("extend").addEventListener("click", () => act({ t: "extend" }));

  const lagPower = /** @type {HTMLInputElement} */ ($("lag-power"));
  const lagAngle = /** @type {HTMLInputElement} */ ($("lag-angle"));
  const lagOut = () => {
    $("lag-out").textContent = `${(Number(lagPower.value) / 100).toFixed(2)} m/s`;
    $("lag-angle-out").textContent = `${(Number(lagAngle.value) / 10).toFixed(1)}°`;
  };
  lagPower.addEventListener("input", lagOut);
  lagAngle.addEventListener("input", lagOut);
  lagOut();
  $("lag-shoot").addEventListener("click", async () => {
    /** @type {HTMLButtonElement} */ ($("lag-shoot")).disabled = true;
    const ok = await act({ t: "lag", speed: Number(lagPower.value) / 100, angle: Number(lagAngle.value) / 10, tip: [0, 0] });
    if (ok && app.view && app.seat !== null) app.view.lagged = [...(app.view.lagged ?? []), app.seat];
    renderTableUi();
  });

  $("ready").addEventListener("click", () => {
    const mine = app.view?.seats?.[mySeat() ?? 0];
    act({ t: "ready", ready: !mine?.ready });
  });
  $("leave").addEventListener("click", async () => {
    if (mySeat() !== null && status() === "playing" && !confirm("Leaving a match in progress concedes it (O4). Leave?")) return;
    await act({ t: "leave" });
    clearRoom();
    location.hash = "#/";
  });
  $("stalemate").addEventListener("click", () => {
    const by = app.table?.stalemate_proposed_by;
    act({ t: "stalemate", action: by !== null && by !== undefined && by !== mySeat() ? "accept" : "propose" });
  });
  const concedeDlg = /** @type {HTMLDialogElement} */ ($("concede-dialog"));
  $("concede").addEventListener("click", () => concedeDlg.showModal());
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
  $("replay-last").addEventListener("click", () => {
    const m = app.lastShot;
    if (!m || app.anim) return;
    const pb = new ShotPlayback(normaliseTracks(decodeTracks(m.traj)), m.duration, m.final);
    startAnim([pb], 0, 0.6, "Replay of the last shot", () => {});
    renderTableUi();
  });
  $("chat-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($("chat-input"));
    const text = input.value.trim();
    if (!text) return;
    if (await act({ t: "chat", text })) input.value = "";
  });

  window.addEventListener("hashchange", () => onRoute());
  window.addEventListener("resize", () => renderer.resize());
  // Keep the live things (clock, grace countdown) fresh between events.
  setInterval(() => {
    if (app.route === "table") renderSeats();
  }, 1000);
  setInterval(() => {
    if (conn.welcomed) conn.request({ t: "ping" }).catch(() => {});
  }, 20000);
}

/** @param {"shoot" | "pass"} choice */
async function choose(choice) {
  /** @type {HTMLDialogElement} */ ($("choice-dialog")).close();
  const ok = await act({ t: "choose", choice });
  if (!ok) renderTableUi();
}

// --- test and debugging hooks (read-only views of the state) ------------------------------

/** @type {any} */ (window).ninepool = {
  app,
  conn,
  /** Ball positions as drawn now (index = ball number, null = not on the table). */
  positions() {
    /** @type {(Vec | null)[]} */
    const out = Array(10).fill(null);
    for (const b of app.anim ? app.shown : restingView()) out[b.n] = [b.x, b.y];
    return out;
  },
  /** Page coordinates of a table point, for driving the real mouse in tests. @param {number} x @param {number} y */
  screenOf(x, y) {
    const r = canvas.getBoundingClientRect();
    const [sx, sy] = renderer.view.toScreen(x, y);
    return [r.left + sx, r.top + sy];
  },
  animating() {
    return !!app.anim || app.queue.length > 0;
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
show("lobby");
conn.start();
requestAnimationFrame(frame);
