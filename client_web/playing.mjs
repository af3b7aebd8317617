// The room's events played out at the table, strictly in order: a queue applies each
// event to the state, and a shot's (or the lag's) animation holds the queue, so a verdict,
// a warning or the next placement shows only once the balls have stopped on screen,
// exactly where the server says they stopped. Results are announced and cheered here.

import { celebrate } from "./celebrate.mjs";
import { toast } from "./dom.mjs";
import { addChat, popChat } from "./chat.mjs";
import { showResult } from "./hud.mjs";
import { t, wordAs } from "./i18n/index.mjs";
import { ShotPlayback, normaliseTracks, restingBalls } from "./playback.mjs";
import { championAfter, keptStake, learnKeptNames } from "./kept.mjs";
import { lagFrames, lagPlayback, lagRest, lagStarts, lagTracks } from "./lagballs.mjs";
import { noteGameOver, noteSnapshot, renderRatingLine } from "./ratingchange.mjs";
import { absorbHistory, logEvent, logRenames, recentEvents, restoreHistory, rewordLog } from "./roomlog.mjs";
import { shotSounds } from "./sound.mjs";
import { rackAddress } from "./racks.mjs";
import { app, canShoot, cuePos, mySeat, names, shotRack } from "./state.mjs";
import { decodeTracks } from "./trajectory.mjs";
import { describeEnd, describeShot, describeWarning, loserOf } from "./verdict.mjs";

/** @typedef {import("./playback.mjs").BallFrame} BallFrame */
/** @typedef {import("./state.mjs").Msg} Msg */

/**
 * Playback speed: twice real time by default (a shot takes 2–5 s to watch instead of
 * 4–10), `?rate=N` for another (0.25–16; the tests play fast). A tap or Esc skips to the end.
 */
const PLAYBACK_RATE = Math.min(16, Math.max(0.25, Number(new URLSearchParams(location.search).get("rate")) || 2));
const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Whether the reader is the player who lost (their result says "You conceded."). @param {number | null} winner */
const lostByMe = (winner) => winner !== null && mySeat() !== null && mySeat() === 1 - winner;

/**
 * Whether a win is cheered (confetti, fanfare) on this screen: for the winner and for
 * spectators, never on the screen of the player who lost. @param {number | null} winner
 */
function cheers(winner) {
  return winner !== null && !(app.role === "player" && app.seat !== null && app.seat !== winner);
}


/** The page of one rack's replay, to share from the end-of-rack dialog, and its link's
 * words ("this game", or by its number when it is an earlier one): none for a rack in
 * which no shot was played (a match conceded before its break).
 * @param {number} rack @param {boolean} earlier @returns {{ href: string, key: string, args: Record<string, number> } | null} */
function rackReplay(rack, earlier) {
  if (!app.room || !(rack >= 1) || app.rackShots.rack !== rack) return null;
  const href = `${location.origin}/replay/${rackAddress(app.room, rack, app.view?.match)}`;
  return earlier ? { href, key: "log.replayGame", args: { rack } } : { href, key: "result.replayRack", args: {} };
}

/**
 * What the table plays out needs from the page around it.
 * @typedef {object} PlayerDeps
 * @property {import("./render.mjs").Renderer} renderer
 * @property {import("./sound.mjs").Sound} sound
 * @property {import("./tv.mjs").TvDirector} tv
 * @property {(room: string) => void} showTable shows the table view of this room (and its address)
 * @property {() => void} refresh redraws the table's widgets
 * @property {() => void} [sitReady] says this page's player is ready (sitting down is being ready)
 */

/**
 * The event queue's player for one page.
 * @param {PlayerDeps} deps
 */
export function roomPlayer({ renderer, sound, tv, showTable, refresh, sitReady = () => {} }) {
  /** @type {string[]} what was heard, in order: impact kinds and "fanfare" (for the tests' hooks) */
  const heard = [];

  function pump() {
    while (!app.anim && app.queue.length) {
      const m = /** @type {Msg} */ (app.queue.shift());
      // The channel lingers on a match's result: a rematch begun there (the computers', at
      // 0 : 0 with its lag) is not shown over it before the channel moves on.
      if (tv.holds(m, app.view?.match)) {
        app.queue = [];
        break;
      }
      try {
        applyEvent(m);
      } catch (err) {
        toast(err);
      }
    }
    refresh();
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
        app.keyPlace = null; // (a new turn, a time-out's ball in hand: not where my keys left it)
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
        addChat(m);
        return popChat(m);
      case "warning": {
        const seconds = app.view?.settings?.clock_warning;
        const w = describeWarning({ kind: m.kind, seat: m.seat, seconds }, names(), app.table?.turn ?? null, mySeat());
        app.warning = { kind: m.kind, seat: m.seat ?? app.table?.turn ?? 0, text: w.text, rule: w.rule, seconds };
        // The banner carries it; the verdict above the table stays the shot's.
        logEvent(m, { aside: true });
        return;
      }
      case "game_over": {
        if (app.view && app.table) app.table = { ...app.table, score: m.score };
        noteGameOver(m.reason);
        const n = names();
        const mine = app.role === "player" && m.winner !== null && app.seat === m.winner;
        const title = m.winner === null ? t("result.rackNobody", { rack: m.rack }) : mine ? t("result.rackYou", { rack: m.rack }) : t("result.rack", { name: n[m.winner], rack: m.rack });
        const breaker = app.table?.breaker;
        const next = m.next_rack && breaker != null ? { at: m.next_rack, breaker: n[breaker], mine: app.role === "player" && app.seat === breaker } : null;
        // The 9 on the break is said as such (the last shot's verdict says it was).
        const how = m.reason === "nine" && (app.lastShot?.verdict?.note_codes ?? []).includes("G5.break") ? "nineBreak" : m.reason;
        // Lost on a third foul: which foul it was too (the card said only "Your third foul
        // in a row", and a player who had not read the log never learnt what it was).
        const last = app.lastShot;
        const third = m.reason === "three_fouls" && last?.verdict?.game_over && last.verdict.foul && shotRack(last) === m.rack ? describeShot(/** @type {any} */ (last), n, null, mySeat()).details[0]?.text : null;
        const end = describeEnd(how, 0, loserOf(m.winner, n), lostByMe(m.winner));
        showResult(title, { names: n, score: m.score }, third ? `${end} ${third}.` : end, false, rackReplay(m.rack, false), next);
        if (cheers(m.winner)) {
          celebrate(false, sound, reducedMotion());
          heard.push("fanfare");
        }
        return;
      }
      case "match_over": {
        if (app.view) app.view.status = "finished";
        // Conceded with a rack under way (a shot played in it): that rack counts as a game
        // conceded (docs/RATINGS.md), as the server reports it.
        if (m.reason === "concede" && app.rackShots.rack === app.table?.rack) noteGameOver("concede", true);
        const n = names();
        // A tournament's opponent who never sat down: said so (not "stayed away"), and no
        // score against an empty seat ("Seat 2") nor replay of a game never played.
        const noShow = m.reason === "forfeit" && m.winner !== null && !app.view?.seats?.[1 - m.winner];
        showResult(
          m.winner === null ? t("result.matchNobody") : app.role === "player" && app.seat === m.winner ? t("result.matchYou") : t("result.match", { name: n[m.winner] }),
          noShow ? null : { names: n, score: m.score },
          noShow ? t("end.noShow") : describeEnd(m.reason, app.view?.settings?.race_to ?? 0, loserOf(m.winner, n), lostByMe(m.winner), true),
          true,
          // The last game played: the one the match ended in, or before a game conceded
          // unplayed (whose replay would be empty), then named ("this game" was not it).
          noShow ? null : rackReplay(app.rackShots.rack, m.reason === "concede" && app.rackShots.rack !== app.table?.rack),
        );
        tv.matchOver();
        // A tournament's player who lost is told what it cost (out, or on in the losers'
        // bracket, or a deciding match for the title): the result said only who won.
        const stake = m.winner !== null && mySeat() !== null && mySeat() !== m.winner ? keptStake(mySeat()) : null;
        const costLine = document.getElementById("result-next");
        if (costLine && stake && stake !== "title") {
          wordAs(costLine, `result.stake.${stake}`);
          costLine.hidden = false;
        }
        // A tournament's last match: its result says who won the tournament, too (this
        // match's winner, named as the score names them).
        const view = app.view;
        if (view?.settings?.tournament && m.winner !== null)
          void championAfter(view).then((champion) => {
            const line = document.getElementById("result-next");
            if (!champion || !line || app.view?.room !== view.room || !(/** @type {HTMLDialogElement} */ (document.getElementById("result-dialog"))).open) return;
            const mine = app.role === "player" && app.seat === m.winner;
            // (worded so that a change of language words it again)
            if (mine) wordAs(line, "result.championYou");
            else wordAs(line, "result.champion", { name: n[m.winner] });
            line.classList.add("champion"); // (the tournament's title, not a footnote in grey)
            line.hidden = false;
          });
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
        // The shooter went or came back: their clock stopped, or runs again from where it stood.
        if (m.clock && app.table) {
          app.table = { ...app.table, clock: m.clock };
          if (app.view) app.view.table = app.table;
        }
        // Nobody aims from a closed page.
        if (!m.connected && m.seat !== null && app.table?.turn === m.seat) app.remoteAim = null;
        // A player's connection lost or back is said in the log, as the replay says it (the
        // one who dropped learns it from the banner of their own page, not from here).
        if (m.seat !== null && m.seat !== mySeat()) logEvent(m, { aside: true });
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
    const rematch = !firstTime && app.view?.status === "finished" && v.status !== "finished";
    if (rematch) {
      app.lastVerdict = null;
      app.warning = null;
      app.rackShots = { rack: 0, count: 0 }; // its result links no game of the last match
      // The finished match's result does not stay over the new one (a spectator's, who
      // had no rematch button to close it with).
      const result = /** @type {HTMLDialogElement} */ (document.getElementById("result-dialog"));
      if (result.open && result.classList.contains("match")) result.close();
    }
    const before = app.view;
    app.room = v.room;
    app.view = v;
    // Who sits where, kept for a finished match's seat that its player leaves (`leftName`).
    const sat = app.satNames && app.satNames.room === v.room ? app.satNames : { room: v.room, names: [null, null] };
    app.satNames = sat;
    for (const [i, seat] of (v.seats ?? []).entries()) if (seat) sat.names[i] = { name: seat.name, computer: seat.computer ?? null };
    if (!firstTime) logRenames(v, before, m.seq);
    // The log marks where the new match starts: under the last one's end it read on.
    if (rematch) logEvent({ t: "rematch_begins" }, { aside: true });
    // Once the players' names are read, what the log said of an empty seat is worded again.
    learnKeptNames(v, () => {
      rewordLog();
      refresh();
    });
    app.table = v.table;
    app.code = v.code ?? app.code;
    if (m.invite) app.invite = m.invite;
    app.placedPending = null;
    app.keyPlace = null;
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
      // A shot still rolling is logged when its replay on this table ends, not before.
      const rolling = v.inflight?.result?.seq ?? null;
      if (m.recent) absorbHistory(recentEvents(m.recent), m.seq, refresh, rolling);
      else restoreHistory(v.room, m.seq, refresh, rolling);
    }
    if (v.table) {
      for (const seat of v.table.warned ?? []) {
        const w = describeWarning({ kind: "three_fouls", seat }, names(), null, mySeat());
        app.warning = { kind: "three_fouls", seat, text: w.text, rule: w.rule };
      }
    }
    if (v.inflight) applyShot({ ...v.inflight.result, _replayed: true }, v.inflight.offset);
    // Back to waiting alone and not ready — a rematch's opponent left before its lag: the
    // card offered "Let's start!" beside an empty seat. Sitting is being ready, as when
    // one sits down, unless the player held the start themselves.
    const mine = app.role === "player" && app.seat !== null ? v.seats?.[app.seat] : null;
    if (v.status === "waiting" && mine && !mine.ready && !app.heldStart && v.seats.some((/** @type {Msg | null} */ s) => !s)) sitReady();
    noteSnapshot();
    // A new rating comes a moment after its game: the open result says it.
    renderRatingLine();
    showTable(v.room);
  }

  /** @param {Msg} m @param {number} offset */
  function applyShot(m, offset) {
    const lowestBefore = app.table?.lowest ?? null;
    app.lastShot = m;
    app.remoteAim = null;
    app.shotPending = false;
    app.placing = null;
    app.keyPlace = null;
    app.placedPending = null;
    const rack = shotRack(m);
    app.rackShots = app.rackShots.rack === rack ? { rack, count: app.rackShots.count + 1 } : { rack, count: 0 };
    const tracks = normaliseTracks(decodeTracks(m.traj));
    const pb = new ShotPlayback(tracks, m.duration, m.final);
    const changed = JSON.stringify(m.final) !== JSON.stringify(m.table.balls);
    const shooter = names()[m.shooter];
    const own = app.role === "player" && app.seat === m.shooter; // "You shoot…", not one's own name
    if (own) app.ownShots++;
    startAnim([pb], offset, changed ? 0.9 : 0, own ? t("prompt.youShoot") : t("prompt.shoots", { name: shooter }), () => {
      app.tableVersion++;
      app.table = m.table;
      // An aim heard while the shot played is the next shooter's (a computer lines up its
      // stroke as soon as it may; the shot's own were cleared as it began): kept for that
      // turn, its time counted from now, when it is drawn.
      if (app.remoteAim?.seat !== m.table.turn) app.remoteAim = null;
      else app.remoteAimAt = performance.now();
      if (app.view) app.view.table = m.table;
      if (m.verdict.new_rack) renderer.newRack();
      logEvent(m, { lowest: lowestBefore });
      if (!m.table.warned?.length && app.warning?.kind === "three_fouls") app.warning = null;
      if (!m.table.stalemate_warning && app.warning?.kind === "stalemate") app.warning = null;
      if (app.warning?.kind === "clock") app.warning = null;
    }, shotSounds(tracks));
  }

  /** @param {Msg} m */
  function applyLag(m) {
    app.lagSent = false;
    app.lastLag = m;
    const done = () => {
      app.tableVersion++;
      // The lag balls stay where they stopped, named, until the break is chosen.
      app.lagBalls = lagRest(m);
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
    const pbs = m.lags.map(lagPlayback);
    const sounds = m.lags.flatMap((/** @type {Msg} */ l) => shotSounds(lagTracks(l)));
    startAnim(pbs, 0, 0.8, t("prompt.lagAnim"), done, sounds.sort((a, b) => a.t - b.t), m.lags.map((/** @type {Msg} */ l) => l.seat));
  }

  /**
   * @param {ShotPlayback[]} playbacks @param {number} offset @param {number} hold
   * @param {string} label @param {() => void} onDone
   * @param {import("./sound.mjs").Impact[]} [sounds] impacts to hear as the balls reach them
   * @param {number[] | null} [seats] for the lag: the seat of each playback (its ball is labelled)
   * @param {number | null} [shooter] the seat whose shot plays, if not the turn's (a replayed shot)
   */
  function startAnim(playbacks, offset, hold, label, onDone, sounds = [], seats = null, shooter = null) {
    if (document.visibilityState === "hidden") {
      // Nobody is watching this tab: show the outcome at once instead of queueing replays.
      onDone();
      return;
    }
    const first = sounds.findIndex((s) => s.t >= offset);
    app.anim = { playbacks, t: offset, wall: performance.now(), hold, onDone, label, sounds, heard: first < 0 ? sounds.length : first, seats, shooter };
  }

  /** Jumps the running animation to its end (a tap on the table, Esc, the Skip button). */
  function skipAnim() {
    const a = app.anim;
    if (!a) return false;
    // What is due now is still heard (the cue's strike, when the shooter skips the shot
    // they have just played before its first frame); the rest is not, in a burst.
    while (a.heard < a.sounds.length && a.sounds[a.heard].t <= a.t) {
      const e = a.sounds[a.heard++];
      sound.play(e);
      heard.push(e.kind);
    }
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

  return { pump, startAnim, skipAnim, animFrame, heard };
}

/**
 * The balls at rest as they should be drawn now: the table's positions, with the cue
 * ball where it is being dragged (by me, or live by the shooter I am watching).
 * @returns {BallFrame[]}
 */
export function restingView() {
  const balls = restingBalls(app.table?.balls ?? []);
  // Before the lag is played (or played again after a tie), its balls wait at their spots.
  if (!app.table && app.view?.status === "lag" && app.view.lag_choice == null) return lagFrames(lagStarts());
  if (!app.table && app.lagBalls.length) return [...balls, ...lagFrames(app.lagBalls)];
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
