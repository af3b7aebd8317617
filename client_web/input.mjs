// The player's hands on the table, one gesture for each thing:
//
// - Aim: press and drag anywhere on the table (a tap points the cue at the spot).
// - Shoot: pull back from the cue ball (or grab the stick and draw it back) and let go —
//   with the mouse, with or without ball in hand. With a finger the table only aims: the
//   shot is the same pull-back on the power strip at the screen edge (`strip.mjs`), so a
//   swipe across the table never shoots.
// - Ball in hand: drag the cue ball by its handle, set off to the side so the finger
//   never hides the ball; an illegal spot is shown and never sent.
// - A quick swipe (a flick, as one scrolls a page) changes nothing; a gesture the browser
//   takes over (pointercancel) is undone.
// - Keys work whenever no text field has the focus: a click on the table focuses it.

import { DEG, angleBetween, angleTo, checkPlacement, clampToBed, distance } from "./aim.mjs";
import { toast } from "./dom.mjs";
import { num, t } from "./i18n/index.mjs";
import { app, ballInHand, canShoot, cuePos, handled, lowestPos, objectBalls, touchFirst } from "./state.mjs";
import { BALL_RADIUS, TABLE } from "./table.mjs";

/** @typedef {import("./aim.mjs").Vec} Vec */

const R = TABLE.ballRadius;
/** A press that moves less than this (CSS px) before it is let go is a click, not a stroke. */
const CLICK_PX = 4;
/** Pulling the cue this far back (m) is full power. */
const PULL_FULL = 0.55;
/**
 * A touch gesture shorter than FLICK_MS that travels further than FLICK_PX, faster than
 * FLICK_SPEED (px/ms), is a flick — someone scrolling — not an aim.
 */
const FLICK_MS = 350;
const FLICK_PX = 40;
const FLICK_SPEED = 0.5;

/**
 * Where the ball-in-hand handle sits on screen: beside the cue ball, square to the aim so
 * it is on neither the aim line nor the cue stick, on the side toward the bottom of the
 * screen (toward the player) unless that leaves the canvas or covers a ball (then the
 * other side, then a diagonal); further out for a finger.
 * @param {import("./render.mjs").View} view @param {Vec} cue @param {boolean} touch
 * @param {number} angle the aim (radians, world)
 * @param {{ x: number, y: number }[]} [others] the object balls (world), kept clear
 * @returns {Vec} CSS pixels in the canvas
 */
export function handleSpot(view, cue, touch, angle, others = objectBalls()) {
  const [sx, sy] = view.toScreen(cue[0], cue[1]);
  const [ax, ay] = view.toScreen(cue[0] + Math.cos(angle) * 0.1, cue[1] + Math.sin(angle) * 0.1);
  const len = Math.hypot(ax - sx, ay - sy) || 1;
  const d = touch ? 58 : 36;
  const [ux, uy] = [(ax - sx) / len, (ay - sy) / len];
  // Square to the aim on screen, the side that points down first.
  let px = -uy;
  let py = ux;
  if (py < 0 || (py === 0 && px < 0)) [px, py] = [-px, -py];
  // Wholly on the canvas: one cut by its edge (at a phone's right edge, where the power
  // strip stands beside it) is partly out of sight and of a finger's reach.
  const m = handleRadius(touch) + 2;
  const inside = (/** @type {number} */ x, /** @type {number} */ y) => x > m && x < view.cssWidth - m && y > m && y < view.cssHeight - m;
  // Never over a ball, where the handle would hide it and a press meant for the ball
  // would pick up the cue ball: square to the aim first (either side), then the
  // diagonals behind it, then the ones ahead (the cue stick lies straight behind).
  const clear = handleRadius(touch) + BALL_RADIUS * view.scale + 2;
  const free = (/** @type {number} */ x, /** @type {number} */ y) =>
    others.every((b) => {
      const [bx, by] = view.toScreen(b.x, b.y);
      return Math.hypot(bx - x, by - y) > clear;
    });
  const r = Math.SQRT1_2;
  const choices = [
    [px, py],
    [-px, -py],
    [r * (px - ux), r * (py - uy)],
    [r * (-px - ux), r * (-py - uy)],
    [r * (px + ux), r * (py + uy)],
    [r * (-px + ux), r * (-py + uy)],
  ];
  for (const [cx, cy] of choices) {
    if (inside(sx + cx * d, sy + cy * d) && free(sx + cx * d, sy + cy * d)) return [sx + cx * d, sy + cy * d];
  }
  if (!inside(sx + px * d, sy + py * d)) [px, py] = [-px, -py];
  return [sx + px * d, sy + py * d];
}
/** The handle's radius on screen (px). @param {boolean} touch */
export function handleRadius(touch) {
  return touch ? 22 : 14;
}

/**
 * @typedef {object} TableActions what the input may ask the application to do
 * @property {() => void} shoot
 * @property {(pos: Vec) => Promise<boolean>} place put the cue ball in hand down (false: refused)
 * @property {(pos: Vec) => void} nudge the keys moved the cue ball in hand (put down once they rest)
 * @property {() => void} dropNudge forget where the keys moved it (a drag takes over)
 * @property {(power: number) => void} setPower
 * @property {() => void} aimChanged
 * @property {() => void} refresh redraw the widgets after a change of state
 * @property {() => boolean} skip jump the running animation to its end (false: nothing running)
 */

/**
 * Listens to pointer and keys on the table canvas.
 * @param {HTMLCanvasElement} canvas
 * @param {() => import("./render.mjs").View} view the current world↔screen mapping
 * @param {TableActions} actions
 */
export function attachTableInput(canvas, view, actions) {
  // Which kind of input came last: a focus ring is for the keyboard.
  document.addEventListener("pointerdown", () => (document.documentElement.dataset.input = "pointer"), true);
  document.addEventListener("keydown", () => (document.documentElement.dataset.input = "keys"), true);
  /** @param {PointerEvent} e @returns {Vec} */
  function local(e) {
    const r = canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }
  /** @param {PointerEvent} e @returns {Vec} */
  function worldOf(e) {
    const [x, y] = local(e);
    return view().toWorld(x, y);
  }

  canvas.addEventListener("pointerdown", (e) => {
    // Keys go to the table after a click on it (preventDefault below would keep the focus away).
    canvas.focus({ preventScroll: true });
    // The handle is hit where the last frame drew it, for the input that frame assumed.
    const drawnForTouch = touchFirst();
    app.touch = e.pointerType === "touch";
    if (actions.skip()) {
      e.preventDefault();
      return;
    }
    if (!canShoot()) return;
    const w = worldOf(e);
    const cue = cuePos();
    if (!cue) return;
    const touch = e.pointerType !== "mouse";
    const [px, py] = local(e);
    const bih = ballInHand();
    const start = { x: e.clientX, y: e.clientY, at: performance.now(), angle: app.aim.angle, scroll: window.scrollY };
    const d = distance(w, cue);
    const behind = behindCue(w, cue);
    const handle = bih ? handleSpot(view(), cue, drawnForTouch, app.aim.angle) : null;
    if (handle && Math.hypot(px - handle[0], py - handle[1]) <= handleRadius(drawnForTouch) + 6) {
      // The handle carries the ball at its offset, so the ball stays in sight.
      const [hx, hy] = view().toWorld(handle[0], handle[1]);
      actions.dropNudge(); // (the drag starts where the keys left the ball, and puts it down)
      app.drag = { kind: "place", id: e.pointerId, touch, start, offset: [hx - cue[0], hy - cue[1]], follow: aimedAtLowest(cue) };
      dragPlace(w);
    } else if (!touch && d < 2.5 * R) {
      // From the cue ball itself: the pull-back distance is the power.
      app.drag = { kind: "power", id: e.pointerId, from: null, touch, start };
      app.powerBeforeDrag = app.aim.power;
      dragPower(w);
    } else if (!touch && onCueStick(behind, view().scale) && !onObjectBall(w)) {
      // Grabbing the cue stick: pulling it further back adds power from where it was.
      app.drag = { kind: "power", id: e.pointerId, from: behind.along, touch, start };
      app.powerBeforeDrag = app.aim.power;
    } else {
      app.drag = { kind: "aim", id: e.pointerId, touch, start };
      if (d > R) app.aim.angle = angleTo(cue, w);
      handled();
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
    const cancelled = e.type === "pointercancel";
    const start = drag.start;
    const took = start ? Math.max(1, performance.now() - start.at) : Infinity;
    const moved = start ? Math.hypot(e.clientX - start.x, e.clientY - start.y) : 0;
    const flick = !!start && !!drag.touch && took < FLICK_MS && moved > FLICK_PX && moved / took > FLICK_SPEED;
    if (drag.kind === "place" && app.placing) {
      const p = app.placing;
      app.placing = null;
      // (a ball that stays where it was keeps the aim it had there)
      if ((cancelled || flick || !p.ok) && drag.follow && start) app.aim.angle = start.angle;
      if (cancelled || flick) {
        /* the ball stays where it was */
      } else if (p.ok) actions.place(p.pos);
      else toast(t("place.stays", { why: p.message }));
    } else if (drag.kind === "power") {
      // A stroke is a pull: a press and release that did not move (a click on the cue
      // ball, meant to aim or to see it) never shoots, however far behind it it landed.
      const pulled = drag.from === null || drag.from === undefined ? moved >= CLICK_PX : (drag.pulled ?? 0) > 0.01;
      if (!cancelled && !flick && pulled && app.aim.power >= 0.03) actions.shoot();
      else actions.setPower(app.powerBeforeDrag);
    } else if (drag.kind === "aim" && start && (cancelled || flick)) {
      // A swipe, as one scrolls a page: the aim stays, and a scrollable page scrolls.
      app.aim.angle = start.angle;
      if (flick) window.scrollBy({ top: start.y - e.clientY, behavior: "smooth" });
    }
    actions.refresh();
  }
  canvas.addEventListener("pointerup", endDrag);
  canvas.addEventListener("pointercancel", endDrag);

  /** @param {Vec} w the pointer */
  function dragPlace(w) {
    const kitchen = ballInHand() === "kitchen";
    const off = app.drag?.offset ?? [0, 0];
    const at = /** @type {Vec} */ ([w[0] - off[0], w[1] - off[1]]);
    const pos = clampToBed(at, kitchen);
    // The kitchen clamp would hide the problem: check where the pointer really is.
    const check = checkPlacement(kitchen ? clampToBed(at, false) : pos, objectBalls(), kitchen);
    const message = check.ok ? "" : t(check.key, { ball: num(check.ball ?? 0) });
    app.placing = { pos: check.ok ? pos : clampToBed(at, false), ok: check.ok, message };
    // A cue aimed at the ball to hit stays on it as the ball moves (the break's aim at the
    // 1 was left pointing past the rack); one aimed elsewhere keeps its direction.
    const low = lowestPos();
    if (app.drag?.follow && low) app.aim.angle = angleTo(app.placing.pos, low);
    actions.aimChanged();
  }

  /** Whether the cue points at the ball to hit (within half a degree). @param {Vec} cue */
  function aimedAtLowest(cue) {
    const low = lowestPos();
    return !!low && Math.abs(angleBetween(app.aim.angle, angleTo(cue, low))) < 0.5 / DEG;
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
   * Whether a point is on an object ball (with a little slack): a press there aims at
   * it even where the cue stick is drawn across it — a new turn often leaves the stick
   * lying over the very ball to hit, and a click on it grabbed the stick and aimed nowhere.
   * @param {Vec} w
   */
  function onObjectBall(w) {
    return objectBalls().some((b) => Math.hypot(b.x - w[0], b.y - w[1]) < 1.2 * R);
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

  // Keys: on the table, and anywhere on the page that is not a field or a control with keys
  // of its own (a click on the table used to leave the focus on the page body).
  /** When a key that types a character (and is no key of the table's) was last pressed. */
  let typedAt = -Infinity;
  document.addEventListener("keydown", (e) => {
    if (app.route !== "table" || e.defaultPrevented || e.ctrlKey || e.metaKey) return;
    const target = /** @type {HTMLElement | null} */ (e.target);
    const free = !target || target === document.body || target === canvas;
    if (!free) return;
    if (document.querySelector("dialog[open]:modal")) return;
    // Someone typing a chat message whose click missed the message box: the space between
    // two words, or the Enter that ends it, is no shot (it played one, a foul), nor its
    // letters a move of the cue ball in hand.
    // (the key where W, A, S and D are on a Latin keyboard, whatever it types: on a Russian
    // layout the same keys type ц, ф, ы, в)
    const wasd = !!ballInHand() && WASD.has(e.code);
    if (e.key.length === 1 && e.key !== " " && !wasd) typedAt = e.timeStamp;
    if ((e.key === " " || e.key === "Enter") && e.timeStamp - typedAt < TYPING_MS) {
      e.preventDefault();
      if (canShoot() && !app.anim) toast(t("keys.typing"));
      return;
    }
    if ((e.key === "Escape" || e.key === " " || e.key === "Enter") && actions.skip()) {
      e.preventDefault();
      return;
    }
    // The lag's stroke, as a shot's: Space (or Enter) on the table plays it, its card's
    // button (reached by three Tabs, past its speed and angle).
    const lag = document.getElementById("lag-shoot");
    if ((e.key === " " || e.key === "Enter") && lag instanceof HTMLButtonElement && lag.getClientRects().length > 0 && !lag.disabled) {
      e.preventDefault();
      if (!e.repeat) lag.click();
      return;
    }
    if (!canShoot()) return;
    const fine = e.shiftKey ? 0.05 : e.altKey ? 5 : 0.5;
    const bih = ballInHand();
    const cue = cuePos();
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      app.aim.angle += ((e.key === "ArrowLeft" ? 1 : -1) * fine) / DEG;
      handled();
      actions.aimChanged();
    } else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      actions.setPower(Math.min(1, Math.max(0.01, app.aim.power + (e.key === "ArrowUp" ? 0.02 : -0.02))));
    } else if (e.key === " " || e.key === "Enter") {
      if (e.repeat) return;
      actions.shoot(); // (from where the keys put the ball, if they moved it: `inhand.mjs`)
    } else if (bih && cue && wasd) {
      // Ball in hand from the keyboard: WASD moves the cue ball 1 cm a press (Shift: 1 mm;
      // a key held down 3 cm a repeat, across the table in a few seconds — not Alt, whose
      // D and S are the browser's) in the direction it has on screen, whichever way the
      // table is turned (not while typing: the a in "Hvala" moved it). The ball moves on
      // this screen at once and is put down once the keys rest (`inhand.mjs`).
      if (e.timeStamp - typedAt < TYPING_MS) return;
      const step = e.shiftKey ? 0.001 : e.repeat ? 0.03 : 0.01;
      const [sx, sy] = e.code === "KeyD" ? [1, 0] : e.code === "KeyA" ? [-1, 0] : e.code === "KeyW" ? [0, -1] : [0, 1];
      const [dx, dy] = view().screenDirToWorld(sx * step, sy * step);
      const pos = clampToBed([cue[0] + dx, cue[1] + dy], bih === "kitchen");
      const check = checkPlacement(pos, objectBalls(), bih === "kitchen");
      if (check.ok) {
        actions.nudge(pos);
        actions.refresh();
      } else toast(t(check.key, { ball: num(check.ball ?? 0) }));
    } else {
      return;
    }
    e.preventDefault();
  });
  attachFineAim(view, actions);
}

/** How long after a typed character Space and Enter are taken for typing, not a shot. */
const TYPING_MS = 1500;
/** The keys that move the cue ball in hand (by place on the keyboard, `KeyboardEvent.code`). */
const WASD = new Set(["KeyW", "KeyA", "KeyS", "KeyD"]);


/** Degrees the cue turns at each press of a fine-aim button (the keyboard's Shift step is 0.05°). */
const FINE_STEP = 0.1;

/**
 * Fine aim for a finger, which has no Shift key: the strip's two buttons turn the cue a
 * tenth of a degree a press, on and on while held, the way each one's arrow shows on the
 * screen (the table may be drawn turned).
 * @param {() => import("./render.mjs").View} view @param {TableActions} actions
 */
function attachFineAim(view, actions) {
  for (const [id, turn] of /** @type {const} */ ([["aim-anticlockwise", 1], ["aim-clockwise", -1]])) {
    const button = document.getElementById(id);
    if (!button) continue;
    let timer = 0;
    const stop = () => {
      clearTimeout(timer);
      timer = 0;
    };
    const nudge = () => {
      if (!canShoot()) return stop();
      app.aim.angle += (turn * onScreen(view()) * FINE_STEP) / DEG;
      handled();
      actions.aimChanged();
    };
    /** @param {number} delay */
    const again = (delay) => {
      timer = window.setTimeout(() => {
        nudge();
        if (timer) again(60);
      }, delay);
    };
    button.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      stop();
      nudge();
      again(400);
    });
    for (const kind of ["pointerup", "pointercancel", "pointerleave"]) button.addEventListener(kind, stop);
    // Enter or Space on the focused button (a click with no pointer behind it).
    button.addEventListener("click", (e) => e.detail === 0 && nudge());
  }
}

/**
 * +1 when the table is drawn as seen from above (a turn that raises the angle looks
 * anticlockwise on the screen), −1 when drawn mirrored. @param {import("./render.mjs").View} v
 */
function onScreen(v) {
  const [ox, oy] = v.toScreen(0, 0);
  const [xx, xy] = v.toScreen(1, 0);
  const [yx, yy] = v.toScreen(0, 1);
  // Screen y grows downward: a table drawn as seen from above gives a negative cross product.
  return (xx - ox) * (yy - oy) - (xy - oy) * (yx - ox) < 0 ? 1 : -1;
}
