// The application: lobby, table, replay, practice, TV. Wires the connection's messages to
// what is drawn and shown, and the player's mouse, touch and keys to what is sent.
// The room's events are played out in order by `playing.mjs`; the stroke's controls live
// in `stroke.mjs`, the table's buttons and dialogs in `tablecontrols.mjs`, its log in
// `roomlog.mjs`. What stays here: the connection, routes, joining and leaving, the shot
// and placement requests, and the drawing loop.

import { DEG, aimPreview, toDegrees } from "./aim.mjs";
import { rewordCreateForm, wireCreateForm } from "./create.mjs";
import { RAISED, powerFromSpeed } from "./controls.mjs";
import { roomName } from "./formats.mjs";
import { $, toast } from "./dom.mjs";
import { renderBadge } from "./chat.mjs";
import { placeOnTable, renderClock, renderLagLeft, renderSeats, renderTableUi as renderHud, replayCallsBack, setPanel } from "./hud.mjs";
import { LANGUAGES, initLanguage, keepLang, lang, onLanguage, seatName, setLanguage, t } from "./i18n/index.mjs";
import { attachTableInput, handleRadius, handleSpot } from "./input.mjs";
import { renderNextMatch, renderQuick, renderRooms, wireJoinCode, wireQuick } from "./lobby.mjs";
import { accountChangedElsewhere, initAccounts } from "./account.mjs";
import { lagTags } from "./lagballs.mjs";
import { askNameOnce, lobbyNameReady, madeUp, makeUpName, needsName, showMe, showOwnName } from "./askname.mjs";
import { NAME_PATTERN, boundNameField, nameTaken, tidyName } from "./namerule.mjs";
import { Connection, ServerError, defaultUrl, session } from "./net.mjs";
import { restingView, roomPlayer } from "./playing.mjs";
import { PracticeTable, practiceRoute } from "./practice.mjs";
import { Renderer, reduceMotion } from "./render.mjs";
import { ReplayViewer, offerWayBack, replayShown } from "./replay.mjs";
import { rewordLog } from "./roomlog.mjs";
import { PLAY_MESSAGES, TvDirector, lingerFrom } from "./tv.mjs";
import { installRuleMarks, installTips } from "./tip.mjs";
import { Sound } from "./sound.mjs";
import { attachStrip } from "./strip.mjs";
import { aimAid, app, ballInHand, canShoot, cuePos, forgetRoom, mySeat, names, objectBalls, othersAim, pushOutArmed, status, touchFirst } from "./state.mjs";
import { aimChanged, defaultAim, enableTip, sendAim, setElevation, setPower, setTip, shotSpeed, spin, wireStroke } from "./stroke.mjs";
import { inHand } from "./inhand.mjs";
import { keysToLobby, keysToTable, lagAim, wireTableControls } from "./tablecontrols.mjs";
import { CONNECTED_TAB, parseHash } from "./route.mjs";
import { showConn } from "./connstatus.mjs";
import { DrawTimes, FramePacer } from "./framepace.mjs";

initLanguage();

/** @typedef {import("./aim.mjs").Vec} Vec */
/** @typedef {import("./playback.mjs").BallFrame} BallFrame */
/** @typedef {import("./state.mjs").Msg} Msg */

const conn = new Connection({
  url: defaultUrl(),
  heartbeat: 4, // (a dead connection found in seconds, the player seen away: net.mjs `beat`)
  name: () => currentName(),
  onMessage: (m) => {
    onMessage(m);
    pacer.wake();
  },
  onState: (s) => showConn(s, conn),
  onWelcome: (w) => onWelcome(w),
  onNameTaken: (code) => {
    /** @type {HTMLInputElement} */ ($("name")).value = "";
    toast(new ServerError(code, ""));
  },
});

initAccounts({ reconnect: () => conn.reconnectNow(), welcome: () => app.welcome, live: () => conn.started && !conn.replaced && !watchingAsNobody });
// In a tab not yet connected (opened at a replay) the account's buttons wait for its hello:
// an account is not changed while its player is seated, and only the hello says whether.
// A tab watching the TV as nobody goes to the lobby first, to say hello as the player.
document.querySelector(".account-bar")?.addEventListener("click", (e) => {
  const button = /** @type {HTMLElement} */ (e.target).closest("button");
  if ((conn.started && !watchingAsNobody) || !button) return;
  e.stopPropagation();
  const before = app.welcome;
  if (watchingAsNobody) location.hash = "#/";
  else connect();
  const again = () => void (app.welcome && app.welcome !== before ? button.click() : setTimeout(again, 100));
  again();
}, true);

app.serverNow = () => conn.serverNow();

const renderer = new Renderer(/** @type {HTMLCanvasElement} */ ($("table")));
const pacer = new FramePacer(frame);
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
      if (app.room) await act({ t: "leave" });
      clearRoom();
    },
    showing: (room) => {
      const info = room ? app.rooms.get(room) : null;
      $("tv-banner").textContent = room ? t("tv.following", { name: (info?.name && roomName(info.name, info.settings)) || info?.players?.map((/** @type {string} */ p, /** @type {number} */ i) => seatName(p, info.computer?.[i])).join(" – ") || room }) : t("tv.nothing");
      app.tvRoom = room;
      // Between tables the table's words and seats are the channel's, not the last table's.
      document.documentElement.classList.toggle("tv-idle", !room);
      renderTableUi();
    },
  },
  lingerFrom(location.search),
);

/** The room's events, played out at the table in order. */
const player = roomPlayer({
  renderer,
  sound,
  tv,
  showTable: (room) => {
    if (app.followLink) return void ((app.followLink = false), onRoute());
    if (parseHash().kind === "replay") return; // a replay being watched stays; the seat waits behind it
    if (!tv.active && parseHash().id !== room) history.replaceState(null, "", `#/room/${room}`);
    show("table");
  },
  refresh: () => renderTableUi(),
  sitReady: () => void conn.request({ t: "ready", ready: true }).catch(() => {}),
});
const { pump, skipAnim } = player;

// --- helpers ----------------------------------------------------------------------------

function currentName() {
  const input = /** @type {HTMLInputElement} */ ($("name"));
  const v = tidyName(input.value);
  if (nameTaken(v, session.name())) return v;
  const stored = session.name();
  if (NAME_PATTERN.test(stored)) return stored;
  const fresh = makeUpName();
  session.setName(fresh);
  input.value = fresh;
  return fresh;
}

/**
 * Makes sure the server knows the name typed in the lobby before sitting down with it:
 * the name is said in `hello`, so a changed name means saying hello again.
 */
async function ensureName() {
  const v = tidyName(/** @type {HTMLInputElement} */ ($("name")).value);
  if (!nameTaken(v, session.name()) || !app.welcome || app.welcome.account || app.welcome.name === v || app.room) return;
  session.setName(v);
  await conn.reconnectNow();
}

/** Runs a request and shows its refusal, if any. @param {Msg} msg @returns {Promise<Msg | null>} */
async function act(msg) {
  try {
    return await conn.request(msg);
  } catch (err) {
    toast(msg.t === "shot" && err instanceof ServerError && err.code === "offline" ? t("err.offlineShot") : err); // (it was not played: said)
    return null;
  }
}
/** The cue ball in hand put down (`inhand.mjs`). */
const cueInHand = inHand(act);

/**
 * Says hello, once. A tab opened at a replay (a log's link, a shared one) plays it from
 * its record over HTTP and says nothing until it goes anywhere else: a hello as this
 * browser's player took their seat from the tab they were playing in ("Playing in
 * another tab"). A tab that had said hello (reloaded at a replay) says it at once, its
 * seat restored behind the replay (`CONNECTED_TAB`, kept for the tab alone).
 * A tab opened at the TV watches as nobody — a session of its own, kept in memory, as the
 * stream overlay's — for the same reason: opened beside a match, it took the seat and
 * showed the player's own table. It says hello as the player once it goes to the game.
 */
function connect() {
  $("conn").hidden = false; // (nothing to say of a connection before there is one)
  if (!conn.started && parseHash().kind === "tv" && !sessionStorage.getItem(CONNECTED_TAB)) {
    /** @type {string | null} */
    let token = null;
    watchingAsNobody = true;
    // (nobody has nothing to say in a room's chat: it reads it)
    document.querySelector("#chat-form .row")?.toggleAttribute("hidden", true);
    // (named as the stream overlay is: the player's own name may be an account's)
    void conn.helloAs({ token: () => token, setToken: (v) => (token = v) }, "overlay");
    return;
  }
  sessionStorage.setItem(CONNECTED_TAB, "1");
  if (watchingAsNobody && parseHash().kind !== "tv") {
    watchingAsNobody = false;
    document.querySelector("#chat-form .row")?.toggleAttribute("hidden", false);
    void conn.helloAs(session);
    return;
  }
  conn.startOnce();
}
/** This tab watches the TV under a session of its own (`connect`). */
let watchingAsNobody = false;

// --- routing ----------------------------------------------------------------------------

/** @param {"lobby" | "table" | "replay" | "practice"} route */
function show(route) {
  const from = app.route;
  app.route = route;
  $("practice-view").hidden = route !== "practice";
  if (route === "practice") practice.renderPanel();
  $("lobby").hidden = route !== "lobby";
  $("table-view").hidden = route !== "table";
  $("replay-view").hidden = route !== "replay";
  document.documentElement.dataset.route = route;
  if (route === "table") {
    renderer.resize();
    setTimeout(keysToTable, 0);
  } else if (route === "lobby") setTimeout(() => keysToLobby(from), 0);
  showMe();
  renderNextMatch();
}

/**
 * Sits down at a table if a seat is free, else watches it: an invite link and a room link
 * both seat a friend (a seat taken meanwhile answers `room_full`: then watch); a link's
 * table closed since shows its replay (`byLink`). @param {string} room @param {string | null} code @param {boolean} play try for a seat @param {boolean} [byLink]
 */
async function joinTable(room, code, play, byLink = false) {
  if (play) await ensureName();
  for (const role of play ? ["player", "spectator"] : ["spectator"]) {
    try {
      return await conn.request({ t: "join", room, code, role });
    } catch (err) {
      if (err instanceof ServerError && err.code === "room_full" && role === "player") continue;
      // Closed since (its match over): its replay, where the reader may see one.
      if (err instanceof ServerError && err.code === "no_such_room" && byLink && (await replayShown(room, code))) return { replay: true };
      toast(err);
      return null;
    }
  }
  return null;
}

async function onRoute() {
  const pr = practiceRoute();
  if (pr) {
    // A table this page is at is left first, as on the way to the lobby (the view waited on it for ever).
    if (tv.active) await tv.stop();
    if (!practice.room && app.room && !(await leaveByNavigation())) return;
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
  if (r.kind !== "tv") document.documentElement.classList.remove("tv-idle");
  $("tv-banner").hidden = r.kind !== "tv";
  if (r.kind === "replay") {
    show("replay");
    replay ??= new ReplayViewer();
    await replay.open(r.id, r.code ?? (app.room === r.id ? app.code : null), r.rack, r.match).catch((e) => toast(e));
    offerWayBack(app.room, conn.started);
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
      // Once per link: a new name says hello again, and that welcome routes here too.
      if (app.joining === r.id) return;
      app.joining = r.id;
      try {
        if (r.kind === "play" && r.invite && needsName(app.welcome)) {
          show("lobby"); // behind the question, not a table not yet joined (empty seats, race to 0)
          await askNameOnce(app.welcome, r.id, r.code);
        }
        if (!(await joinTable(r.id, r.code, free, true))) location.hash = "#/";
      } finally {
        app.joining = null;
      }
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

function clearRoom() {
  // The table's questions and result go with it (the lag winner's choice stayed open over
  // the lobby, its countdown running, and answered nothing).
  for (const id of ["result-dialog", "lag-dialog", "choice-dialog", "concede-dialog", "leave-dialog"]) /** @type {HTMLDialogElement} */ ($(id)).close();
  forgetRoom();
  setPanel(false); // the next table opens on its table, not on the last one's sheet
  $("log").replaceChildren();
  $("chat-log").replaceChildren();
  renderBadge();
  showMe();
}

// --- connection events ----------------------------------------------------------------

/** @param {Msg} w */
async function onWelcome(w) {
  // The address the page came with: the seat's snapshot may rewrite it before the lobby answers.
  const [linked, lr, first] = [location.hash, parseHash(), !app.welcome];
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
  if (w.room && w.room === practice.room && !practiceRoute()) {
    // The page was loaded away from its practice table (the lobby's address): closed, as
    // leaving it would; not taken for a match's table.
    await practice.leave();
    onRoute();
  } else if (w.room && practiceRoute()) {
    if (await practice.comeBack(w.room, first ? (practiceRoute()?.code ?? null) : null)) show("practice");
    else void onRoute(); // the page came with a position's link: that one is opened
  } else if (w.room && first && (lr.kind === "lobby" || lr.kind === "tv") && roomStatus(w.room) === "finished") {
    // A tab opened at the lobby's or the TV's address while the player's match is over:
    // the page asked for, the table left as the result's lobby button leaves it (a
    // running match's player is sent back to it, O5).
    app.room = w.room;
    history.replaceState(null, "", linked || "#/"); // (its snapshot came first, and showed its table)
    void onRoute();
  } else if (w.room) {
    app.room = w.room; // the seat is restored; its snapshot follows at once
    if ((lr.kind === "room" || lr.kind === "play") && lr.id !== w.room) {
      // A link to another table (a tournament's next match), once the seat may be left.
      history.replaceState(null, "", linked);
      if (app.view?.room === w.room) void onRoute();
      else app.followLink = true;
    } else if (lr.kind === "replay") {
      if (first) void onRoute(); // a replay asked for (its own table's, say): shown, the seat behind it
      return; // (a reconnect while watching one: it plays on)
    } else if (parseHash().id !== w.room) location.hash = `#/room/${w.room}`;
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

/** A room's status from its snapshot, or else from the lobby's list (undefined: not known).
 * @param {string} room */
function roomStatus(room) {
  return app.view?.room === room ? app.view.status : app.rooms.get(room)?.status;
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
      tv.gone(m.room);
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
      // Sitting down is being ready (as in a quick match); "Not ready" holds it back.
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
      // Only the shooter's (a late one from the player before was drawn at the next turn); while a shot plays, kept for the turn it leads to (`applyShot` judges it).
      if (m.room === app.room && m.seat !== mySeat() && !(tv.active && tv.linger) && (app.table?.turn == null || app.table.turn === m.seat || !!app.anim)) {
        app.remoteAim = m;
        app.remoteAimAt = performance.now();
        app.remoteAimPower = powerFromSpeed(m.speed, m.elevation);
        if (tv.active) tv.activity();
        if (!app.anim) renderTableUi();
      }
      return;
    default:
      if (typeof m.seq === "number") {
        if (m.room && app.room && m.room !== app.room) return;
        if (tv.active && PLAY_MESSAGES.has(m.t)) tv.activity(); // (as it arrives, as the overlay's)
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

// --- actions ------------------------------------------------------------------------

async function shoot() {
  if (!canShoot()) return;
  // (the ball the keys are moving put down first; a placement on its way waited for)
  if (!(await cueInHand.settled()) || !canShoot()) return;
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
    push_out: pushOutArmed(),
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

// --- drawing loop -------------------------------------------------------------------------

/** Asks for the next frame to be drawn even while nothing moves. */
function invalidate() {
  lastIdleDraw = 0;
  pacer.wake();
}

let lastIdleDraw = 0; // when the table was last drawn while nothing moved (ms)
/** @type {import("./render.mjs").Overlay | null} the overlay last drawn (for the tests' hooks) */
let lastOverlay = null;
const drawTimes = new DrawTimes();
/** When the table last moved or changed, and the scene then drawn (JSON) and whether calm. */
const lastChange = { at: 0, scene: "", calm: false };
/** How long the ball to hit pulses once the table has come to rest or changed (3 pulses). */
const PULSE_MS = 5000;

/** Draws the route's table, if any; returns how long the next frame may wait (framepace.mjs):
 * at rest the ball to hit pulses (20 frames a second), then holds still and the clock counts. */
function frame() {
  if (app.route === "replay" && replay) {
    replay.frame();
    if (app.anim && player.skipAnim()) player.animFrame(); // (the table's shot, played out unseen: the way back reads its table)
    replayCallsBack();
    return replay.anim ? 0 : replay.playing ? 50 : 250;
  }
  if (app.route === "practice") {
    practice.frame();
    return practice.anim || practice.drag ? 0 : 100;
  }
  if (app.route !== "table") return 250;
  const now = performance.now();
  const resized = renderer.resize() || renderer.blank;
  if (resized) placeOnTable(tableScreenOf); // (what stands over the table finds its place again)
  const still = !app.anim && !app.drag && !app.aimDirty && now - app.remoteAimAt > 300;
  if (still && !resized && now - lastIdleDraw < 50) return 50 - (now - lastIdleDraw);
  const forced = lastIdleDraw === 0;
  lastIdleDraw = now;
  const balls = player.animFrame() ?? restingView();
  app.shown = balls;
  defaultAim(renderTableUi);
  sendAim(conn);
  /** @type {import("./render.mjs").Overlay} */
  const overlay = { lowest: null, aim: null, placing: null, kitchenHint: false, numbers: !app.anim };
  // The lag balls carry their players' names, while they roll and where they stop.
  const tags = lagTags(balls, names());
  if (tags.length) overlay.labels = tags;
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
        // The first ball on the line is not the ball to hit: a foul if played (R8), unless
        // the shot is a push-out, which need hit no ball first (R6).
        if (preview.kind === "ball" && tb.lowest != null && preview.ball !== tb.lowest && !pushOutArmed() && app.aim.elevation < RAISED) wrong = preview.ball;
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
    } else if (othersAim() && cue) {
      const ra = /** @type {NonNullable<ReturnType<typeof othersAim>>} */ (othersAim());
      const c = /** @type {Vec} */ ([cue.x, cue.y]);
      const ang = ra.angle / DEG;
      overlay.aim = { cue: c, angle: ang, power: powerFromSpeed(ra.speed, ra.elevation), speed: ra.speed, height: ra.tip?.[1] ?? 0, elevation: ra.elevation, preview: aimPreview(c, ang, objectBalls()), remote: true, aid: aimAid() };
      overlay.tip = { side: ra.tip?.[0] ?? 0, height: ra.tip?.[1] ?? 0 };
    }
  }
  if (!tb && !app.anim) overlay.aim = lagAim(renderer.view); // the player's lag, before it is played
  // The words follow what is drawn: a wrong first ball, and the opponent's cue line, which
  // goes 5 s after their last aim (their power was still given under a table without it).
  const theirs = !!overlay.aim?.remote;
  if (wrong !== app.wrongBall || theirs !== app.othersAimDrawn) {
    Object.assign(app, { wrongBall: wrong, othersAimDrawn: theirs });
    renderTableUi();
  }
  // Anything new pulses the ball to hit again for the player to shoot (for the others, and a
  // reader asking for less motion, it holds still at once); a table at rest is drawn again
  // only when something on it changes (framepace.mjs).
  const scene = still ? JSON.stringify([balls, overlay, !!document.querySelector("dialog[open]")]) : ""; // (a dialog closed: the table is seen anew)
  const changed = !still || scene !== lastChange.scene;
  if (changed) Object.assign(lastChange, { at: now, scene });
  overlay.calm = still && (overlay.lowest == null || !canShoot() || reduceMotion() || now - lastChange.at > PULSE_MS);
  renderClock();
  if (overlay.calm && lastChange.calm && !changed && !forced && !resized) return 250;
  lastChange.calm = overlay.calm;
  lastOverlay = overlay;
  const t0 = performance.now();
  renderer.draw(balls, overlay);
  drawTimes.add(performance.now() - t0);
  return still ? (overlay.calm ? 250 : 50) : 0;
}

attachTableInput(/** @type {HTMLCanvasElement} */ ($("table")), () => renderer.view, {
  shoot,
  place: cueInHand.place,
  nudge: cueInHand.nudge,
  dropNudge: () => void cueInHand.take(),
  setPower,
  aimChanged,
  refresh: renderTableUi,
  skip: skipAnim,
});
attachStrip($("strip-track"), { shoot, setPower });

/** Page coordinates of a table point. @param {number} x @param {number} y */
function tableScreenOf(x, y) {
  const r = $("table").getBoundingClientRect();
  const [sx, sy] = renderer.view.toScreen(x, y);
  return [r.left + sx, r.top + sy];
}

/** Brings the table view's widgets in line with the state. */
function renderTableUi() {
  renderHud();
  placeOnTable(tableScreenOf);
  enableTip(canShoot());
  invalidate();
}

// --- wiring -------------------------------------------------------------------------------

function wire() {
  const nameInput = /** @type {HTMLInputElement} */ ($("name"));
  nameInput.value = session.name() || currentName();
  boundNameField(nameInput);
  // A name made up for a newcomer is there to be replaced: a tap selects it, so typing does.
  nameInput.addEventListener("focus", () => madeUp(nameInput.value) && nameInput.select());
  nameInput.addEventListener("change", () => {
    const v = tidyName(nameInput.value);
    // A new name follows the rule; the one kept from before stays good (`namerule.mjs`).
    if (!nameTaken(v, session.name())) {
      toast(t("account.nameRule"));
      return;
    }
    nameInput.value = v;
    session.setName(v);
    showMe();
  });

  wireQuick(act, ensureName);

  $("rooms").addEventListener("click", async (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest("button[data-join]");
    const room = button?.closest("tr[data-room]")?.getAttribute("data-room");
    const role = button?.getAttribute("data-join");
    if (!room || (role !== "player" && role !== "spectator")) return;
    if (role === "player" && !lobbyNameReady()) return;
    await ensureName(); // (a spectator's name typed is theirs too: they chatted as "Player-2583")
    act({ t: "join", room, role });
  });

  wireCreateForm((settings) => (lobbyNameReady() ? ensureName().then(() => act({ t: "create", settings })) : Promise.resolve(null)));

  wireJoinCode(conn, act, ensureName, joinTable);
  // (the other tab is let go; after a log-in or -out there, the page is this browser's new player)
  $("play-here").addEventListener("click", () => (accountChangedElsewhere() ? location.reload() : conn.start()));
  // A result's replay is a page to share; clicked at the table it opens here, in this tab:
  // a second tab would say hello as the same player and take the seat from this one.
  $("result-replay").addEventListener("click", (e) => {
    const path = new URL(/** @type {HTMLAnchorElement} */ (e.currentTarget).href).pathname;
    const rack = path.match(/^\/replay\/([A-Za-z0-9_-]{1,32})\/((?:[1-9][0-9]{0,3}\/)?[1-9][0-9]{0,2})$/);
    if (!rack || !app.room || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    /** @type {HTMLDialogElement} */ ($("result-dialog")).close();
    location.hash = `#/replay/${rack[1]}/${rack[2]}`;
  });
  $("result-replay-match").addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("result-dialog")).close());
  // Pages of their own (the tournaments, the rules): a `?lang=` this one was opened with goes along.
  for (const link of document.querySelectorAll("a[data-own-page]"))
    link.addEventListener("click", () => link.setAttribute("href", keepLang(String(link.getAttribute("data-own-page")))));
  $("replay-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const id = /** @type {HTMLInputElement} */ ($("replay-id")).value.trim();
    if (id) location.hash = `#/replay/${id}`;
    else toast(t("rooms.replayEmpty"), "info"), $("replay-id").focus(); // (it did nothing, and said nothing)
  });
  wireStroke();
  wireTableControls({ act, shoot, skipAnim, startAnim: player.startAnim, clearRoom, sound, refresh: renderTableUi });

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
  installTips();
  installRuleMarks();
  const compact = matchMedia("(max-width: 820px), (max-height: 500px)");
  const layout = () => {
    document.documentElement.classList.toggle("compact", compact.matches);
    if (!compact.matches) setPanel(false);
  };
  compact.addEventListener("change", layout);
  layout();

  window.addEventListener("hashchange", () => {
    if (parseHash().kind !== "replay") connect();
    void onRoute();
  });
  // Keep the live things (clock, grace countdown) fresh between events.
  setInterval(() => {
    if (app.route === "table") {
      renderSeats();
      renderLagLeft();
    }
  }, 1000);
}

/** Everything worded again, in the language just chosen. */
function reword() {
  rewordCreateForm();
  showConn(conn.state, conn);
  showMe();
  renderRooms();
  renderQuick();
  setTip(app.aim.side, app.aim.height);
  setElevation(app.aim.elevation);
  $("lag-power").dispatchEvent(new Event("input"));
  rewordLog();
  if (app.route === "practice") practice.renderPanel();
  replay?.render();
  if (app.view) renderTableUi();
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
  /** Page coordinates of a table point, for driving the real mouse in tests. */
  screenOf: tableScreenOf,
  animating: () => !!app.anim || app.queue.length > 0,
  /** The lag balls the replay shows at rest (null: none). */
  replayLag: () => replay?.lagRest ?? null,
  replayLabels: () => replay?.labels ?? [], // the name tags the replay last drew (text, where)
  /** The labels, wrong-ball flag, cue line (whose, from where, which way) and tip dot of the overlay last drawn. */
  overlay() {
    const o = lastOverlay;
    return o ? { labels: o.labels ?? [], wrong: !!o.aim?.wrong, aim: o.aim ? { cue: o.aim.cue, angle: o.aim.angle, remote: !!o.aim.remote } : null, tip: o.tip ?? null, handle: o.handle ?? null, aimParts: [...renderer.aimParts], calm: !!o.calm, run: o.aim?.preview.kind === "ball" ? (o.aim.preview.run ?? null) : null } : null;
  },
  /** What was heard so far (impact kinds, fanfares), and whether sound is muted. */
  sounds: () => ({ heard: [...player.heard], muted: sound.muted }),
  /** Page coordinates of the ball-in-hand handle (null without ball in hand). */
  handleOf() { const cue = cuePos(); if (!cue || !ballInHand()) return null;
    const r = $("table").getBoundingClientRect();
    const [x, y] = handleSpot(renderer.view, cue, touchFirst(), app.aim.angle);
    return [r.left + x, r.top + y];
  },
  /** Median and 95th percentile of the recent frame draw times (ms). */
  frameStats: () => drawTimes.stats(),
  /** Whether the table is drawn turned a quarter (narrow screens). */
  portrait: () => renderer.view.portrait,
};

wire();
reword();
show("lobby");
if (parseHash().kind === "replay" && !sessionStorage.getItem(CONNECTED_TAB)) {
  $("conn").hidden = true;
  void onRoute();
} else connect();
pacer.wakeOnInput(window);
document.addEventListener("visibilitychange", invalidate); // a calm table is drawn again on being shown
pacer.wake();
