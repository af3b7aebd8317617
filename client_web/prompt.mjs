// What the player (or a watcher) should do now, in one sentence: the line under the
// verdict above the table, from the waiting room through the lag to every shot.

import { RAISED, describeTipWords, powerPercent } from "./controls.mjs";
import { clause, list, num, t } from "./i18n/index.mjs";
import { keptName } from "./kept.mjs";
import { app, breakDrawn, canShoot, knowsHow, mySeat, names, onTv, othersAim, pushOutArmed, status, touchFirst, tournamentMatch, turnOf } from "./state.mjs";

/** The ball to hit first, as a number. */
function lowestText() {
  const low = app.table?.lowest;
  return low != null ? num(low) : "";
}

/**
 * What the player should do now, in one sentence. @param {boolean} [underVerdict] said
 * in the status box, under the last verdict shown whole
 */
export function prompt(underVerdict = false) {
  const tb = app.table;
  const n = names();
  const st = status();
  const me = mySeat();
  if (!app.view) return t("prompt.joining");
  if (st === "waiting") {
    const seats = app.view.seats;
    if ((!seats[0] || !seats[1]) && tournamentMatch()) {
      // A tournament's match: the seats are its players'; nobody is invited.
      const away = [0, 1].filter((i) => !seats[i]).map((i) => keptName(i));
      if (away.some((x) => !x)) return t(me === null ? "prompt.keptWatch" : "prompt.keptAnyone");
      return t(me === null ? "prompt.keptWatchNames" : "prompt.kept", { name: list(/** @type {string[]} */ (away)), n: away.length });
    }
    if (!seats[0] || !seats[1]) return me === null ? t(app.linkInvite ? "invite.offer" : "prompt.noOpponentWatch") : t("prompt.noOpponent");
    if (me !== null) {
      if (!seats[me]?.ready) return t("prompt.pressReady");
      return t("prompt.waitOther", { name: n[1 - me] });
    }
    return t("prompt.waitReady");
  }
  if (st === "lag") {
    const chooser = app.view.lag_choice ?? null;
    // The first break decided by the draw: its winner won the draw, not a lag.
    if (chooser !== null && me !== null && chooser === me) return t(breakDrawn() ? "prompt.drawWon" : "prompt.lagWon", { name: n[1 - me] });
    if (chooser !== null) return t("prompt.lagChooses", { name: n[chooser] });
    if (app.anim) return app.anim.label;
    if (me !== null && !(app.view.lagged ?? []).includes(me) && !app.lagSent) {
      // The opponent's lag is in: this one is awaited (and, timed, lost if not played).
      if (!(app.view.lagged ?? []).includes(1 - me)) return t("prompt.lagYou");
      return t(app.view.lag_until ? "prompt.lagOtherTimed" : "prompt.lagOther", { name: n[1 - me] });
    }
    if (me !== null) return t("lag.sent");
    // Watching: the lag played is said (its ball stays hidden until both are in).
    const done = app.view.lagged ?? [];
    return done.length === 1 ? t("prompt.lagWaitOne", { name: n[done[0]], other: n[1 - done[0]] }) : t("prompt.lagWait");
  }
  if (!tb) return "";
  if (tb.match_over || st === "finished") return t("prompt.over");
  // The TV is watched, not driven: its shots play out without a word about skipping them.
  if (app.anim) return onTv() ? app.anim.label : `${app.anim.label} ${t(touchFirst() ? "prompt.skipTouch" : "prompt.skip")}`;
  const who = tb.turn === null ? "" : n[tb.turn];
  const ball = lowestText();
  if (tb.turn === me) {
    if (app.drag?.kind === "place" && app.placing) {
      return app.placing.ok ? t("prompt.placeHere") : t("prompt.notHere", { why: clause(app.placing.message) });
    }
    if (tb.choice_pending) return t("prompt.choose");
    if (app.shotPending) return t("prompt.shooting");
    // Armed, the push-out is what this shot is: its rule, where the player reads (no ball
    // need be hit first, so no line is a foul for the ball it meets).
    if (pushOutArmed()) return t("pushout.help");
    // Ball in hand is said before what the aim would hit: how to move it until the player
    // has once; after that until they put the ball down or aim this turn (a second one in
    // a match opened on the last shot's line called a foul, the ball untouched).
    if (tb.ball_in_hand === "table" && (!app.movedInHand || app.handledIn !== turnOf()) && ball) return t(app.movedInHand ? "prompt.bihShort" : "prompt.bih", { ball });
    // A raised cue: the ball may leave the cloth, which the line on it does not follow (a
    // jump over the ball in the way was called a foul on the ball it clears).
    if (canShoot() && app.aim.elevation >= RAISED && ball) return t("prompt.raised", { ball, deg: num(app.aim.elevation, 0) });
    // (a push-out offered, the line is no foul if played as one: said with the warning)
    if (app.wrongBall !== null && canShoot()) return t(tb.push_out_allowed ? "prompt.wrongBallPush" : "prompt.wrongBall", { hit: num(app.wrongBall), ball });
    // Offered (the shot after a legal break), the push-out is said: a button alone named it.
    if (tb.push_out_allowed && canShoot() && ball) return t("prompt.pushOffer", { ball });
    const touch = touchFirst();
    if (tb.ball_in_hand === "kitchen") return t(touch ? "prompt.breakTouch" : "prompt.break", { p: t("unit.percent", { p: powerPercent(app.aim.power) }) });
    if (tb.ball_in_hand) return t(app.movedInHand ? "prompt.bihShort" : "prompt.bih", { ball });
    if (!ball) return t("prompt.yoursNoBall");
    // Under a verdict that ends "— your shot", the prompt does not say it again.
    const head = t(underVerdict && app.lastVerdict?.next === me ? "prompt.yoursNamed" : "prompt.yoursShort", { ball });
    return knowsHow() ? head : `${head} ${t(touch ? "prompt.aimHowTouch" : "prompt.aimHow")}`;
  }
  if (tb.choice_pending) return t("prompt.otherChooses", { name: who });
  const ra = othersAim();
  if (ra) {
    const p = t("unit.percent", { p: powerPercent(app.remoteAimPower) });
    const tip = describeTipWords(ra.tip[0], ra.tip[1]);
    if (ra.push_out) return t(mySeat() !== null ? "prompt.otherPushes" : "prompt.pushWatched", { name: who, p });
    return ra.elevation
      ? t("prompt.otherAimsRaised", { name: who, p, tip, deg: Math.round(ra.elevation) })
      : t("prompt.otherAims", { name: who, p, tip });
  }
  // Under a verdict that says whose shot it is, shown whole: "— Bot 2 to shoot" and then
  // "Bot 2 to shoot — …" read as a stutter. (The table's label for screen readers, with
  // no verdict beside it, names them.)
  if (underVerdict && app.lastVerdict?.next === tb.turn) return t("prompt.otherNamed", { ball });
  // (behind the head string is the break's: "to shoot with ball in hand" read as a foul's)
  return t(tb.ball_in_hand === "kitchen" ? "prompt.otherBreaks" : tb.ball_in_hand ? "prompt.otherBih" : "prompt.other", { name: who, ball });
}
