// The stroke being set up: aim, power, cue elevation and the tip's spot on the cue ball,
// their controls in the side panel and on the phone's edge strip, the live aim sent to the
// room (at most ten times a second), and the aim a new turn starts from.

import { clearLineTo, round6, toDegrees } from "./aim.mjs";
import {
  BREAK_POWER,
  DEFAULT_POWER,
  MAX_SPEED,
  SpinSelector,
  describeTip,
  drawTipBall,
  maxSpeedAt,
  powerPercent,
  speedFromPower,
} from "./controls.mjs";
import { $ } from "./dom.mjs";
import { refreshPrompt } from "./hud.mjs";
import { num, t } from "./i18n/index.mjs";
import { askFrame } from "./framepace.mjs";
import { describeReach } from "./reach.mjs";
import { app, canShoot, cuePos, lowestPos, objectBalls, pushOutArmed, turnOf } from "./state.mjs";
import { drawStrip } from "./strip.mjs";

/** @typedef {import("./aim.mjs").Vec} Vec */

/** The cue-tip selectors: in the side panel, and in the pop-up of the edge strip. */
const spins = [$("spin"), $("spin-pop-ball")].map(
  (c) => new SpinSelector(/** @type {HTMLCanvasElement} */ (c), (side, height) => setTip(side, height)),
);
export const spin = { set: (/** @type {number} */ s, /** @type {number} */ h) => spins[0].set(s, h) };

/** Whether the tip selectors take input (only while it is my turn). @param {boolean} enabled */
export function enableTip(enabled) {
  for (const s of spins) s.setEnabled(enabled);
}

/** @param {number} side @param {number} height */
export function setTip(side, height) {
  app.aim.side = side;
  app.aim.height = height;
  for (const s of spins) if (s.side !== side || s.height !== height) s.show(side, height);
  $("spin-text").textContent = describeTip(side, height);
  drawTipBall(/** @type {HTMLCanvasElement} */ ($("spin-mini-ball")), side, height);
  $("spin-mini").setAttribute("aria-label", `${t("spin.open")}: ${describeTip(side, height)}`);
  aimChanged();
}

/** The speed sent: the power within what the cue can give at its elevation (never refused). */
export function shotSpeed() {
  return speedFromPower(app.aim.power, app.aim.elevation);
}

export function aimChanged() {
  app.aimDirty = true;
  askFrame(); // from a button's repeat, a key: nothing else would wake a calm table's frames
}

/**
 * Sends the live aim to the room, at most ten times a second.
 * @param {import("./net.mjs").Connection} conn
 */
export function sendAim(conn) {
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
    // Announced before it is played, as at a real table (R6); said only when true, so a
    // server from before the field (in a cluster being upgraded) still takes the aim.
    ...(pushOutArmed() ? { push_out: true } : {}),
  });
}

/**
 * When a new turn starts for me: the cue points at the ball to hit (past a ball in the
 * way, if it can), and the power is a
 * legal break's on a break, the player's own everyday power otherwise.
 * @param {() => void} refresh redraws the table's widgets
 */
export function defaultAim(refresh) {
  const tb = app.table;
  if (!tb || !canShoot()) return;
  // Each shot played (mine or the other seat's) moves the balls and leaves the last
  // direction stale, so the turn after it starts at the ball to hit; anything else that
  // renews the table (a ruling, a snapshot, the cue ball placed) keeps the player's aim.
  const shot = `${turnOf()}:`;
  const key = `${shot}${app.tableVersion}`;
  if (app.aim.turnKey === key) return;
  const pending = app.aimDirty; // (a change of the player's own not yet sent is still sent)
  const fresh = !app.aim.turnKey.startsWith(shot) || app.aim.wasBreak !== (tb.ball_in_hand === "kitchen");
  app.aim.turnKey = key;
  const cue = cuePos();
  const low = lowestPos();
  // (on a line that meets it first, if one does: a ball in the way is not the aim offered)
  if (cue && low && fresh) app.aim.angle = clearLineTo(cue, { n: Number(tb.lowest), x: low[0], y: low[1] }, objectBalls());
  const isBreak = tb.ball_in_hand === "kitchen";
  if (isBreak && !app.aim.wasBreak) {
    app.aim.everyday = app.aim.power;
    setPower(BREAK_POWER);
  } else if (!isBreak && app.aim.wasBreak) {
    setPower(app.aim.everyday ?? DEFAULT_POWER);
  }
  app.aim.wasBreak = isBreak;
  // Drawn here, not sent (the power set above marked it to be): the turn's starting aim
  // is not the player aiming, and the others read "Alice is aiming: power 87 %" while
  // she was still reading the last game's result.
  app.aimDirty = pending;
  askFrame();
  refresh();
}

/** @param {number} p */
export function setPower(p) {
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
  drawStrip("", p, percent);
  $("strip-speed").textContent = speedText;
  $("strip-track").setAttribute("aria-valuetext", valuetext);
  refreshPrompt();
  aimChanged();
}

/**
 * Raising the cue lowers the fastest speed it can give (13·cos(elevation), the server's
 * limit): the power keeps its place on the slider and its speed drops with the maximum.
 * @param {number} degrees
 */
export function setElevation(degrees) {
  app.aim.elevation = degrees;
  const top = maxSpeedAt(degrees);
  // The sheet's slider and the tip picker's (a phone's) say the same.
  for (const id of ["elevation", "spin-pop-elev"]) /** @type {HTMLInputElement} */ ($(id)).value = String(degrees);
  $("elev-out").textContent = `${num(degrees, 0)}°`;
  $("spin-pop-elev-out").textContent = `${num(degrees, 0)}°`;
  $("speed-max").textContent = t("elev.max", { speed: t("unit.speed", { v: num(top, 2) }) });
  $("speed-max").classList.toggle("lowered", top < MAX_SPEED);
  setPower(app.aim.power);
}

/** Wires the power, elevation and tip controls, and shows their starting values. */
export function wireStroke() {
  const power = /** @type {HTMLInputElement} */ ($("power"));
  power.addEventListener("input", () => setPower(Number(power.value) / 100));
  // Waiting, the slider shows the opponent's power (hud.mjs); taken hold of, it is the
  // player's own again, and keys or a drag go on from that.
  power.addEventListener("focus", () => setPower(app.aim.power));
  setPower(Number(power.value) / 100);
  const elev = /** @type {HTMLInputElement} */ ($("elevation"));
  elev.addEventListener("input", () => setElevation(Number(elev.value)));
  const popElev = /** @type {HTMLInputElement} */ ($("spin-pop-elev"));
  popElev.addEventListener("input", () => setElevation(Number(popElev.value)));
  // Space or Enter on the power or elevation slider shoots, as the key help says of the
  // table (Space scrolled the panel instead), as on the practice table.
  for (const slider of [power, elev]) {
    slider.addEventListener("keydown", (e) => {
      const button = /** @type {HTMLButtonElement} */ ($("shoot"));
      if ((e.key !== " " && e.key !== "Enter") || button.disabled) return;
      e.preventDefault();
      button.click();
    });
  }
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
}
