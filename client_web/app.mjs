// The application: lobby, table, replay. Wires the connection's messages to what is
// drawn and shown, and the player's mouse, touch and keys to what is sent.
//
// Room events are applied strictly in order through a queue; a shot's animation holds
// the queue, so a verdict, a warning or the next placement is shown only once the balls
// have stopped on screen, exactly where the server says they stopped.

import { aimPreview, angleTo } from "./aim.mjs";
import { MAX_SPEED, SpinSelector, describeTip, maxSpeedAt, powerFromSpeed, speedFromPower } from "./controls.mjs";
import { $, toast } from "./dom.mjs";
import { attachTableInput } from "./input.mjs";
import { addChat, log, renderClock, renderSeats, renderTableUi as renderHud, showResult } from "./hud.mjs";
import { renderQuick, renderRooms } from "./lobby.mjs";
import { Connection, NAME_PATTERN, defaultUrl, session } from "./net.mjs";
import { ShotPlayback, normaliseTracks, restingBalls } from "./playback.mjs";
import { describeReach } from "./reach.mjs";
import { Renderer } from "./render.mjs";
import { ReplayViewer } from "./replay.mjs";
import { app, ballInHand, canShoot, cuePos, mySeat, names, objectBalls, status } from "./state.mjs";
import { decodeTracks } from "./trajectory.mjs";
import { describeLag, describeRuling, describeShot } from "./verdict.mjs";

/** @typedef {import("./aim.mjs").Vec} Vec */
/** @typedef {import("./playback.mjs").BallFrame} BallFrame */
/** @typedef {import("./state.mjs").Msg} Msg */

const DEG = 180 / Math.PI;
/** Playback speed (`?rate=4` fast-forwards every animation; for watching long matches and for tests). */
export const PLAYBACK_RATE = Math.min(16, Math.max(0.25, Number(new URLSearchParams(location.search).get("rate")) || 1));



const conn = new Connection({
  url: defaultUrl(),
  name: () => currentName(),
  onMessage: (m) => onMessage(m),
  onState: (s) => showConn(s),
  onWelcome: (w) => onWelcome(w),
});

app.serverNow = () => conn.serverNow();

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
  if (s === "offline" && conn.replaced) {
    el.textContent = "Playing in another tab";
    toast("This seat is now played from another tab or window. Reload this page to play here.");
  }
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
    await replay.open(r.id, app.room === r.id ? app.code : null).catch((e) => toast(e));
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
    const code = app.code ? { code: app.code } : {}; // a private room needs it again
    conn.request({ t: "join", room, role: role === "player" ? "spectator" : role, ...code }).catch(() => {
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
    case "spectators":
      // The spectator count (no seq, paced by the server): in order with the events.
      if (m.room === app.room) {
        app.queue.push(m);
        pump();
      }
      return;
    case "notice":
      // The room's server stopped or failed: another takes the table over ("moving"), then
      // it runs again ("back", after its snapshot). Requests meanwhile get `room_moving`.
      if (m.room === app.room) {
        toast(m.msg);
        log(m.msg, "neutral", [], true);
      }
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
      if (app.view) {
        app.view.table = m.table;
        if (m.action === "lag_choice") {
          app.view.status = "playing";
          app.view.lag_choice = null;
        }
      }
      if (m.action === "lag_choice") renderer.newRack();
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
      // R3/O6: the winner now chooses who breaks (the snapshot that follows says so too).
      app.view.lag_choice = m.winner;
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

/** @param {number} p */
function setPower(p) {
  app.aim.power = p;
  const input = /** @type {HTMLInputElement} */ ($("power"));
  input.value = String(Math.max(1, Math.round(p * 100)));
  const speed = shotSpeed();
  $("power-out").textContent = `${speed.toFixed(2)} m/s`;
  $("power-reach").textContent = describeReach(speed, { short: true });
  input.setAttribute(
    "aria-valuetext",
    `${speed.toFixed(2)} of at most ${maxSpeedAt(app.aim.elevation).toFixed(2)} m/s, carries ${describeReach(speed)}`,
  );
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
  $("elev-out").textContent = `${degrees}°`;
  $("speed-max").textContent = `max ${top.toFixed(2)} m/s`;
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
      else overlay.aim = { cue: c, angle: app.aim.angle, power: app.aim.power, speed: shotSpeed(), height: app.aim.height, elevation: app.aim.elevation, preview: aimPreview(c, app.aim.angle, objectBalls()) };
    } else if (app.remoteAim && cue && performance.now() - app.remoteAimAt < 5000 && t.turn === app.remoteAim.seat) {
      const c = /** @type {Vec} */ ([cue.x, cue.y]);
      const ang = app.remoteAim.angle / DEG;
      const ra = app.remoteAim;
      overlay.aim = { cue: c, angle: ang, power: powerFromSpeed(ra.speed, ra.elevation), speed: ra.speed, height: ra.tip?.[1] ?? 0, elevation: ra.elevation, preview: aimPreview(c, ang, objectBalls()), remote: true };
    }
  }
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
});

/** Brings the table view's widgets in line with the state. */
function renderTableUi() {
  renderHud();
  spin.setEnabled(canShoot());
  invalidate();
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

  $("rooms").addEventListener("click", async (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest("button[data-join]");
    const room = button?.closest("tr[data-room]")?.getAttribute("data-room");
    const role = button?.getAttribute("data-join");
    if (!room || (role !== "player" && role !== "spectator")) return;
    if (role === "player") await ensureName();
    act({ t: "join", room, role });
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
    // The protocol's InviteCode: 4–32 letters and digits (the server issues 20).
    if (!/^[A-Z0-9]{4,32}$/.test(code)) return toast("An invite code is 4–32 letters and digits.");
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
  /** @type {HTMLInputElement} */ ($("pushout")).addEventListener("change", (e) => {
    app.aim.pushOut = /** @type {HTMLInputElement} */ (e.target).checked;
  });
  $("shoot").addEventListener("click", () => shoot());
  $("extend").addEventListener("click", () => act({ t: "extend" }));

  const lagPower = /** @type {HTMLInputElement} */ ($("lag-power"));
  const lagAngle = /** @type {HTMLInputElement} */ ($("lag-angle"));
  const lagOut = () => {
    const speed = Number(lagPower.value) / 100;
    $("lag-out").textContent = `${speed.toFixed(2)} m/s`;
    $("lag-reach").textContent = describeReach(speed, { short: true });
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
  $("lag-break").addEventListener("click", () => chooseBreaker("break"));
  $("lag-give").addEventListener("click", () => chooseBreaker("give"));
  /** @type {HTMLDialogElement} */ ($("lag-dialog")).addEventListener("cancel", (e) => e.preventDefault());
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
