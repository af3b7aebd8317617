// The client's state, in one object, and the questions every part of the page asks of it
// (whose turn, may I shoot, where is the cue ball). Changed by `app.mjs` and the modules it
// wires (`playing.mjs`, `stroke.mjs`, `tablecontrols.mjs`, `roomlog.mjs`).

import { seatName, t } from "./i18n/index.mjs";

/** @typedef {import("./aim.mjs").Vec} Vec */
/** @typedef {import("./playback.mjs").BallFrame} BallFrame */
/** @typedef {import("./playback.mjs").ShotPlayback} ShotPlayback */
/** @typedef {Record<string, any>} Msg */

export const app = {
  /** @type {Msg | null} */ welcome: null,
  /** @type {"lobby" | "table" | "replay" | "practice"} */ route: "lobby",
  /** @type {Map<string, Msg>} */ rooms: new Map(),
  quickWaiting: false,
  /** The quick match waited for is rated. */
  quickRated: false,
  /** the table the TV channel shows, while `#/tv` is open */
  /** @type {string | null} */ tvRoom: null,
  /** The level of the computer a quick match offers while waiting (null: none offered). @type {number | null} */
  computerOffer: null,
  /** @type {string | null} */ room: null,
  /** @type {"player" | "spectator" | null} */ role: null,
  /** @type {number | null} */ seat: null,
  /** @type {string | null} */ code: null,
  /** The room's seat invite (a seated player's, for the share link). @type {string | null} */ invite: null,
  /** The seat invite of the link this page was opened with. @type {string | null} */ linkInvite: null,
  /** The room a link is being followed to (asking the name, joining): followed once. @type {string | null} */ joining: null,
  /** The page came with a link to another table than the seat it was given back (a
   * tournament's next match): followed once that seat's snapshot says if it may be left. */
  followLink: false,
  /** @type {Msg | null} RoomView */ view: null,
  /** A tournament match's players by name, seat 0 then seat 1, when a no-show forfeits, and what losing costs each seat (`kept.mjs`). @type {{ room: string, names: (string | null)[], forfeitAt: number | null, stakes: (import("./kept.mjs").Stake | null)[] } | null} */
  keptNames: null,
  /** Who was last seen in each seat of this room, named when read (`leftName`). @type {{ room: string, names: ({ name: string, computer: number | null } | null)[] } | null} */
  satNames: null,
  /** @type {Msg | null} TableView */ table: null,
  /** @type {Msg[]} */ queue: [],
  /** @type {{ playbacks: ShotPlayback[], t: number, wall: number, hold: number, onDone: () => void, label: string, sounds: import("./sound.mjs").Impact[], heard: number, seats: number[] | null, shooter: number | null } | null} shooter: whose shot plays (a replayed one is not the turn's) */
  anim: null,
  /** @type {BallFrame[]} */ shown: [],
  aim: { angle: 0, power: 0.4, side: 0, height: 0, elevation: 0, pushOut: false, turnKey: "", wasBreak: false, everyday: 0.4 },
  /**
   * The pointer gesture under way. `fine`: Shift-aiming from this aim and pointer angle;
   * `from`: a grab of the cue stick this far behind the ball (null: grabbed the ball);
   * `pulled`: how far back the stick has been drawn since.
   * `touch`: a finger; `start`: where and when it began (a quick swipe is undone);
   * `offset`: from the ball-in-hand handle to the ball (world metres); `follow`: the cue
   * was aimed at the ball to hit, and stays on it as the ball is moved.
   * @type {{ kind: "aim" | "power" | "place", id: number, fine?: { aim: number, pointer: number } | null, from?: number | null, pulled?: number, touch?: boolean, start?: { x: number, y: number, at: number, angle: number, scroll: number }, offset?: Vec, follow?: boolean } | null}
   */
  drag: null,
  /** @type {{ pos: Vec, ok: boolean, message: string } | null} */ placing: null,
  /** @type {Vec | null} placement sent, waiting for `placed` */ placedPending: null,
  /** @type {Vec | null} where the keys have moved the cue ball in hand, not yet sent */ keyPlace: null,
  /** @type {Msg | null} */ remoteAim: null,
  remoteAimAt: 0,
  /** @type {Msg | null} */ lastShot: null,
  shotPending: false,
  /** @type {{ text: string, tone: string, rules: string[], next: number | null } | null} */ lastVerdict: null,
  /** @type {{ m: Msg, lowest: number | null, aside: boolean, match?: number, played?: boolean, seats?: import("./lognames.mjs").WrittenSeat[], lag?: Msg | null }[]} the events the log words, oldest first (worded again on a change of language); `match`: the room's match it was in; `seats`: the players' names it was written with; `lag`: the lag result before it */
  logSources: [],
  /** @type {Msg[]} the chat, oldest first */
  chatLines: [],
  /** the log and chat sheet is open (narrow screens) */
  panelOpen: false,
  /** chat lines arrived while the sheet was closed */
  unread: 0,
  /** my lag shot is on its way or played (until the lag result) */
  lagSent: false,
  /** the player held the start by hand ("Not ready"): not made ready again for them */
  heldStart: false,
  /** The latest `lag_result` (its `method` says if the break was drawn for). @type {Msg | null} */
  lastLag: null,
  /** shots played in the current game (for offering a stalemate only once play has gone on) */
  rackShots: { rack: 0, count: 0 },
  /** Shots this page's player has played here: after a few, the prompt says what to hit,
   * not again how to aim and shoot (`knowsHow`). */
  ownShots: 0,
  /** This page's player has moved a cue ball in hand: until then, ball in hand says how
   * (the handle), however many shots they have played — a first ball in hand comes late. */
  movedInHand: false,
  /** The turn (`turnOf`) in which this page's player last put a cue ball in hand down or
   * aimed: until then a new ball in hand is said before what the aim as it lies would hit. */
  handledIn: "",
  /** @type {number | null} the ball the aim line hits first when it is not the ball to hit */
  wrongBall: null,
  /** the last frame drew the opponent's live cue line (the prompt then gives their aim) */
  othersAimDrawn: false,
  /** the power (0…1) of the shooter's live aim, for the spectators' prompt */
  remoteAimPower: 0,
  /** @type {import("./lagballs.mjs").LagBall[]} where the lag balls stopped, shown until the break */
  lagBalls: [],
  /** the last pointer on the table was a finger */
  touch: false,
  /** @type {{ kind: string, seat: number, text: string, rule: string, seconds?: number } | null} */ warning: null,
  lastAimSent: 0,
  aimDirty: false,
  /** the power before a drag on the cue ball, restored if the drag is called off */
  powerBeforeDrag: 0.4,
  /** grows whenever the table changes hands or state, so a new turn re-aims once */
  tableVersion: 0,
  /** the server's clock (epoch ms); the connection replaces it with its estimate */
  serverNow: () => Date.now(),
};

/**
 * The players' names by seat, as the table words what they did. An empty seat of a
 * tournament's match is its player's (`kept.mjs`): the one it waits for, or the one who
 * played there and has gone — a finished match's seats are freed as its players leave,
 * and "Seat 2 concedes the match" would hide who did.
 * @returns {string[]}
 */
export function names() {
  const seats = app.view?.seats ?? [null, null];
  const kept = app.keptNames?.room === app.room ? app.keptNames.names : [];
  return [0, 1].map((i) => (seats[i] ? seatName(seats[i].name, seats[i].computer) : (kept[i] ?? leftName(i) ?? t("seat.seatN", { n: i + 1 }))));
}

/**
 * Who sat in seat `i` of a finished match and has since left it: the name last seen there,
 * else the lobby's record of who won and who lost (their scores stay by the seat; the
 * table read "Empty seat 2 : 0 Emma"). Null while the match goes on, or when not known.
 * @param {number} i
 */
export function leftName(i) {
  if (status() !== "finished" && !app.table?.match_over) return null;
  const seen = app.satNames?.room === app.room ? app.satNames?.names[i] : null;
  if (seen) return seatName(seen.name, seen.computer);
  const info = app.rooms.get(app.room ?? "");
  const other = app.view?.seats?.[1 - i];
  const ended = [info?.winner, info?.loser].filter((n) => typeof n === "string" && n && n !== other?.name);
  return ended.length === 1 ? ended[0] : null;
}

/** The next shot is a push-out: chosen by the player, and one the rules allow now (R6). */
export function pushOutArmed() {
  return app.aim.pushOut && !!app.table?.push_out_allowed;
}

/** A tournament's match: its seats kept for its players, one match, no rematch. */
export function tournamentMatch() {
  return !!app.view?.settings?.reserved?.length;
}

/** The table left: nothing of it stays in the state (the page's own parts are the caller's). */
export function forgetRoom() {
  app.room = null;
  app.followLink = false;
  app.role = null;
  app.seat = null;
  app.code = null;
  app.invite = null;
  app.linkInvite = null;
  app.heldStart = false;
  app.view = null;
  app.table = null;
  app.queue = [];
  app.anim = null;
  app.lastShot = null;
  app.rackShots = { rack: 0, count: 0 };
  app.warning = null;
  app.lastVerdict = null;
  app.logSources = [];
  app.chatLines = [];
  app.lagBalls = [];
  app.lagSent = false;
  app.lastLag = null;
  app.unread = 0;
}

/** The turn now, named as the aim's `turnKey` names it (stroke.mjs): the rack, the
 * shooter and the shots of the rack — not a ruling or a snapshot within the turn. */
export function turnOf() {
  const tb = app.table;
  return tb ? `${tb.rack}:${tb.turn}:${app.rackShots.rack}.${app.rackShots.count}` : "";
}

/** The player put the cue ball down or aimed, this turn (see `handledIn`). */
export function handled() {
  app.handledIn = turnOf();
}

export function mySeat() {
  return app.role === "player" ? app.seat : null;
}

/** The name this page is seated under at a table whose match is not over, else null: a
 * login to another account would leave that seat empty. */
export function seatedAs() {
  const seat = mySeat();
  return app.room && seat !== null && status() !== "finished" ? names()[seat] : null;
}

/** The player has shot often enough here to be told what to hit, not how. */
export function knowsHow() {
  return app.ownShots >= 3;
}

export function status() {
  return app.view?.status ?? "waiting";
}

/** The first break of the match in play was drawn for, not lagged: the room draws, or
 * nobody played the lag in time (O6). @param {Msg | null} [lag] the lag result to go by */
export function breakDrawn(lag = app.lastLag) {
  return app.view?.settings?.first_break === "draw" || lag?.method === "draw";
}

export function myTurn() {
  const t = app.table;
  return !!t && status() === "playing" && !t.match_over && t.turn !== null && t.turn === mySeat() && !app.anim;
}

export function canShoot() {
  return myTurn() && !app.table?.choice_pending && !app.shotPending;
}

/** @returns {"table" | "kitchen" | null} */
export function ballInHand() {
  return canShoot() ? (app.table?.ball_in_hand ?? null) : null;
}

/**
 * The rack a shot was played in: the shot that ends a rack comes with the next rack's
 * table (the server numbers the game it ended so, `game_over`'s rack).
 * @param {Record<string, any>} shot a `shot_result` @returns {number}
 */
export function shotRack(shot) {
  return shot.table.rack - (shot.verdict?.new_rack ? 1 : 0);
}

/** @returns {{ n: number, x: number, y: number }[]} */
export function objectBalls() {
  /** @type {{ n: number, x: number, y: number }[]} */
  const out = [];
  const balls = app.table?.balls ?? [];
  balls.forEach((/** @type {Vec | null} */ p, /** @type {number} */ n) => {
    if (p && n > 0) out.push({ n, x: p[0], y: p[1] });
  });
  return out;
}

/** Where the ball to hit first lies, if any. @returns {Vec | null} */
export function lowestPos() {
  const tb = app.table;
  return tb && tb.lowest != null ? tb.balls?.[tb.lowest] ?? null : null;
}

/** @returns {Vec | null} */
export function cuePos() {
  if (app.placing && app.drag?.kind === "place") return app.placing.pos;
  if (app.keyPlace) return app.keyPlace;
  if (app.placedPending) return app.placedPending;
  const p = app.table?.balls?.[0];
  return p ? [p[0], p[1]] : null;
}

/**
 * What the room lets the clients draw while a player aims: its `aim_aid` setting, the
 * same for the shooter and for everyone watching.
 * @returns {"full" | "ghost" | "none"}
 */
export function aimAid() {
  return app.view?.settings?.aim_aid ?? "full";
}

/** The aim the player to shoot is sending, while it is fresh (the prompt, the strip and
 * the table all show it). */
export function othersAim() {
  const ra = app.remoteAim;
  return ra && ra.seat === app.table?.turn && performance.now() - app.remoteAimAt < 5000 ? ra : null;
}

/** Whether the page is the TV channel (`#/tv`), which follows tables by itself. */
export function onTv() {
  return /^#\/tv\/?$/.test(location.hash);
}

/** Whether the page is used with a finger: a coarse pointer, or the last touch on the table. */
export function touchFirst() {
  return app.touch || (typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches);
}
