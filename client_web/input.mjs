// The player's hands on the table: press and drag to aim, drag the cue ball with ball in
// hand (an illegal spot is shown and never sent), pull back from the cue ball to shoot;
// and the same from the keyboard.

import { angleTo, checkPlacement, clampToBed, distance } from "./aim.mjs";
import { toast } from "./dom.mjs";
import { app, ballInHand, canShoot, cuePos, objectBalls } from "./state.mjs";
import { TABLE } from "./table.mjs";

/** @typedef {import("./aim.mjs").Vec} Vec */

const R = TABLE.ballRadius;
const DEG = 180 / Math.PI;
/** Pulling the cue this far back (m) is full power. */
const PULL_FULL = 0.55;

/** The signed smallest turn from angle `a` to angle `b` (radians). @param {number} a @param {number} b */
function angleBetween(a, b) {
  return Math.atan2(Math.sin(b - a), Math.cos(b - a));
}

/**
 * @typedef {object} TableActions what the input may ask the application to do
 * @property {() => void} shoot
 * @property {(pos: Vec) => void} place
 * @property {(power: number) => void} setPower
 * @property {() => void} aimChanged
 * @property {() => void} refresh redraw the widgets after a change of state
 */

/**
 * Listens to pointer and keys on the table canvas.
 * @param {HTMLCanvasElement} canvas
 * @param {() => import("./render.mjs").View} view the current world↔screen mapping
 * @param {TableActions} actions
 */
export function attachTableInput(canvas, view, actions) {
  /** @param {PointerEvent} e @returns {Vec} */
  function worldOf(e) {
    const r = canvas.getBoundingClientRect();
    return view().toWorld(e.clientX - r.left, e.clientY - r.top);
  }

  canvas.addEventListener("pointerdown", (e) => {
    if (!canShoot()) return;
    const w = worldOf(e);
    const cue = cuePos();
    if (!cue) return;
    const d = distance(w, cue);
    const bih = ballInHand();
    const behind = behindCue(w, cue);
    if (bih && d < 2.5 * R) {
      app.drag = { kind: "place", id: e.pointerId };
      dragPlace(w);
    } else if (!bih && d < 2.5 * R) {
      // From the cue ball itself: the pull-back distance is the power.
      app.drag = { kind: "power", id: e.pointerId, from: null };
      app.powerBeforeDrag = app.aim.power;
      dragPower(w);
    } else if (onCueStick(behind, view().scale)) {
      // Grabbing the cue stick: pulling it further back adds power from where it was.
      app.drag = { kind: "power", id: e.pointerId, from: behind.along };
      app.powerBeforeDrag = app.aim.power;
    } else {
      app.drag = { kind: "aim", id: e.pointerId };
      app.aim.angle = angleTo(cue, w);
      actions.aimChanged();
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
      if (app.placing?.ok !== wasOk) actions.refresh();
    } else if (drag.kind === "power") dragPower(w);
    else {
      const cue = cuePos();
      if (cue && distance(w, cue) > R) {
        const pointer = angleTo(cue, w);
        if (e.shiftKey) {
          // Fine aim: with Shift held the cue turns a tenth as far as the pointer.
          drag.fine ??= { aim: app.aim.angle, pointer };
          app.aim.angle = drag.fine.aim + angleBetween(drag.fine.pointer, pointer) / 10;
        } else {
          drag.fine = null;
          app.aim.angle = pointer;
        }
        actions.aimChanged();
      }
    }
  });

  /** @param {PointerEvent} e */
  function endDrag(e) {
    const drag = app.drag;
    if (!drag || drag.id !== e.pointerId) return;
    app.drag = null;
    actions.aimChanged(); // spectators see the cue ball back where it lies
    if (drag.kind === "place" && app.placing) {
      const p = app.placing;
      app.placing = null;
      if (p.ok) actions.place(p.pos);
      else toast(`${p.message} The cue ball stays where it was.`);
    } else if (drag.kind === "power") {
      const pulled = drag.from === null || drag.from === undefined || (drag.pulled ?? 0) > 0.01;
      if (e.type === "pointerup" && pulled && app.aim.power >= 0.03) actions.shoot();
      else actions.setPower(app.powerBeforeDrag);
    }
    actions.refresh();
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
    actions.aimChanged();
  }

  /** Pulling back, opposite the aim, sets the power. @param {Vec} w */
  function dragPower(w) {
    const cue = cuePos();
    const drag = app.drag;
    if (!cue || !drag) return;
    const { along } = behindCue(w, cue);
    if (drag.from === null || drag.from === undefined) {
      actions.setPower(Math.min(1, Math.max(0, (along - R) / PULL_FULL)));
    } else {
      drag.pulled = Math.max(drag.pulled ?? 0, along - drag.from);
      actions.setPower(Math.min(1, Math.max(0.01, app.powerBeforeDrag + (along - drag.from) / PULL_FULL)));
    }
  }

  /**
   * Where a table point lies relative to the cue behind the cue ball: how far behind
   * (along the line opposite the aim) and how far to the side of that line.
   * @param {Vec} w @param {Vec} cue
   */
  function behindCue(w, cue) {
    const ux = Math.cos(app.aim.angle);
    const uy = Math.sin(app.aim.angle);
    const dx = w[0] - cue[0];
    const dy = w[1] - cue[1];
    return { along: -(dx * ux + dy * uy), side: Math.abs(dx * uy - dy * ux) };
  }

  /**
   * Whether a point is on the drawn cue stick (as `render.mjs` draws it: its tip
   * 1.4 + 5·power radii behind the ball, about 1.4 m long), with a finger's width of slack.
   * @param {{ along: number, side: number }} p @param {number} scale pixels per metre
   */
  function onCueStick(p, scale) {
    const tip = R * (1.4 + 5 * app.aim.power);
    const slack = Math.max(1.5 * R, 14 / scale);
    return p.along > tip - R && p.along < tip + 1.4 && p.side < slack;
  }


  canvas.addEventListener("keydown", (e) => {
    if (!canShoot()) return;
    const fine = e.shiftKey ? 0.05 : e.altKey ? 5 : 0.5;
    const bih = ballInHand();
    const cue = cuePos();
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      app.aim.angle += ((e.key === "ArrowLeft" ? 1 : -1) * fine) / DEG;
      actions.aimChanged();
    } else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      actions.setPower(Math.min(1, Math.max(0.01, app.aim.power + (e.key === "ArrowUp" ? 0.02 : -0.02))));
    } else if (e.key === " " || e.key === "Enter") {
      actions.shoot();
    } else if (bih && cue && ["w", "a", "s", "d"].includes(e.key.toLowerCase())) {
      // Ball in hand from the keyboard: WASD moves the cue ball 1 cm (Shift: 1 mm) in the
      // direction it has on screen, whichever way the table is turned.
      const step = e.shiftKey ? 0.001 : 0.01;
      const k = e.key.toLowerCase();
      const [sx, sy] = k === "d" ? [1, 0] : k === "a" ? [-1, 0] : k === "w" ? [0, -1] : [0, 1];
      const [dx, dy] = view().screenDirToWorld(sx * step, sy * step);
      const pos = clampToBed([cue[0] + dx, cue[1] + dy], bih === "kitchen");
      const check = checkPlacement(pos, objectBalls(), bih === "kitchen");
      if (check.ok) actions.place(pos);
      else toast(check.message);
    } else {
      return;
    }
    e.preventDefault();
  });
}
