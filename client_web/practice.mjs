// The practice table: one player, any ball anywhere, undo and redo, the last shot again,
// a shot previewed before it is played, drills, and the position as a link.
//
// The server holds the table (`protocol/practice.py`); this view sends requests and draws
// what comes back. Balls move by dragging them (mouse, pen or finger), tray to table and
// back; or a ball is picked (a click or tap on the cue ball or a tray ball, Enter on a tray
// ball) and put where the next click lands, moved with the arrows, taken off with Delete.
// A click on the cloth or on an object ball points the cue there.

import { DEG, aimPreview, angleBetween, angleTo, checkPlacement, clearLineTo, round6, toDegrees } from "./aim.mjs";
import { BREAK_POWER, DEFAULT_POWER, powerPercent, speedFromPower } from "./controls.mjs";
import { renderGhost } from "./practiceghost.mjs";
import { practiceLink, wireShare } from "./practiceshare.mjs";
import { trayStyle, wireTray } from "./practicetray.mjs";
import { $, h, toast } from "./dom.mjs";
import { attachStrip, drawStrip } from "./strip.mjs";
import { num, t } from "./i18n/index.mjs";
import { ServerError } from "./net.mjs";
import { bannerAction, drillGoal, keptRun, previewWords, runAfterChange, setOutAgain, shotWords, silent, statusWords, tipWords } from "./practicewords.mjs";
import { ShotPlayback, normaliseTracks, restingBalls, sampleTracks } from "./playback.mjs";
import { Renderer } from "./render.mjs";
import { app, touchFirst } from "./state.mjs";
import { BALL_COLOURS, TABLE } from "./table.mjs";
import { decodeTracks } from "./trajectory.mjs";

/** @typedef {import("./net.mjs").Msg} Msg */
/** @typedef {import("./net.mjs").Connection} Connection */
/** @typedef {import("./aim.mjs").Vec} Vec */
/** @typedef {import("./playback.mjs").BallFrame} BallFrame */

const R = TABLE.ballRadius;
/** How fast shots play back: `?rate=N` as at a match table, else twice real time. */
const RATE = Math.min(16, Math.max(0.25, Number(new URLSearchParams(location.search).get("rate")) || 2));
/** A pointer that moves less than this (CSS px) before it lets go clicked, not dragged. */
const CLICK_SLOP = 5;

/** `#/practice` (a new table) or `#/practice/<code>` (a shared position); null otherwise. */
export function practiceRoute() {
  const m = location.hash.match(/^#\/practice(?:\/([A-Za-z0-9_-]{1,200}))?$/);
  return m ? { code: m[1] ?? null } : null;
}

export class PracticeTable {
  /**
   * @param {Connection} conn
   * @param {(route: "practice" | "lobby") => void} show
   */
  constructor(conn, show) {
    this.conn = conn;
    this.show = show;
    this.canvas = /** @type {HTMLCanvasElement} */ ($("p-table"));
    this.renderer = new Renderer(this.canvas);
    /** @type {string | null} the table's id */
    this.room = null;
    /** @type {"player" | "spectator" | null} */
    this.role = null;
    /** @type {Msg | null} the table as last sent (`practice_state.view`) */
    this.view = null;
    /** @type {{ pb: ShotPlayback, t: number, wall: number, done: () => void } | null} */
    this.anim = null;
    /** @type {Msg[]} shots and states waiting behind the shot being shown */
    this.queue = [];
    /** @type {number | null} the ball picked (tray or table), to put, move or remove */
    this.picked = null;
    /** @type {{ ball: number, from: "table" | "tray", start: [number, number], pos: Vec | null, moved: boolean } | null} */
    this.drag = null;
    /** @type {{ start: [number, number] } | null} a press on the cloth that aims */
    this.aiming = null;
    this.angle = 0;
    this.power = DEFAULT_POWER;
    /** The power of everyday shots, kept while a break starts from a break's (as at a match). */
    this.everyday = DEFAULT_POWER;
    /** A break's power: a legal break's at first, then the player's own last break's. */
    this.breakPower = BREAK_POWER;
    this.height = 0;
    /** Side spin: where across the cue ball the tip strikes (−: left, +: right). */
    this.side = 0;
    /** The cue raised (degrees), for a jump or a massé to try out, as at the table. */
    this.elevation = 0;
    this.previewOn = false;
    /** What the banner says first (the last shot's result, a drill's goal): how to word it, so a new language words it again. @type {{ say: () => { text: string, tone: string }, goal: boolean }} */
    this.note = { say: silent, goal: false };
    /** What the preview of the shot as aimed says (the banner's next step while on). */
    this.previewSaid = "";
    /** @type {{ tracks: Map<number, any[]>, key: string } | null} */
    this.preview = null;
    this.previewKey = "";
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.previewTimer = null;
    /** Seconds the previewed shot lasts. */
    this.previewDuration = 0;
    /** @type {number | null} the lowest ball before the shot being shown (for the verdict's words) */
    this.lowestBefore = null;
    /** The last shot played: where the cue ball was and the aim (undone, aimed so again). @type {{ cue: Vec, angle: number } | null} */
    this.lastShot = null;
    this.busy = false;
    this.dirty = true;
    this.wire();
  }

  // --- opening, leaving, messages -----------------------------------------------------------

  /** Opens a table (a fresh rack, or the shared position `code`). Returns false if refused. @param {string | null} code */
  async open(code) {
    this.reset();
    try {
      await this.conn.request({ t: "practice", layout: code, drill: null, rules: false });
      // The link has done its work: the address is the table's own from now on, so a
      // reload takes up this table as it stands, not the linked position again.
      if (code) history.replaceState(null, "", `${location.pathname}${location.search}#/practice`);
      return true;
    } catch (err) {
      toast(err);
      return false;
    }
  }

  /** The player came back (a reconnect): the table's state follows the welcome. @param {string} room */
  resume(room) {
    this.room = room;
    this.role = "player";
    this.renderPanel();
    this.dirty = true;
  }

  /**
   * The player's practice table is there at a welcome (a reload, a reconnect): true if it
   * is taken up again (its state follows the welcome); false if the page was opened with a
   * position's link (`linked`, on its first welcome): the old table is left, and the page
   * opens the link's position, as it would in a browser without a table.
   * @param {string} room @param {string | null} linked
   */
  async comeBack(room, linked) {
    this.resume(room);
    if (!linked) return true;
    await this.leave();
    return false;
  }

  async leave() {
    if (!this.room) return;
    this.reset();
    await this.conn.request({ t: "leave" }).catch(() => {});
  }

  reset() {
    this.room = null;
    this.role = null;
    this.view = null;
    this.anim = null;
    this.queue = [];
    this.picked = null;
    this.drag = null;
    this.preview = null;
    // A table opened afresh starts from a centred cue ball and the everyday power (a spin
    // left from before made the next break a miscue; a break's power kept made it the
    // everyday one), with nothing said of the last table's shots.
    this.side = this.height = 0;
    /** @type {HTMLInputElement} */ ($("p-side")).value = /** @type {HTMLInputElement} */ ($("p-spin")).value = "0";
    this.power = this.everyday = DEFAULT_POWER;
    this.breakPower = BREAK_POWER;
    this.note = { say: silent, goal: false };
    this.previewSaid = "";
  }

  /** Whether `m` is this table's (and handled here). @param {Msg} m */
  claims(m) {
    if (m.t === "practice_state" || m.t === "practice_shot") {
      if (m.room !== this.room) {
        this.room = m.room;
        this.queue = [];
        this.anim = null;
        if (app.room === m.room) {
          // Joined by a room link (`#/room/<id>`) as a match is: the table is this view's.
          this.role = app.role === "player" ? "player" : "spectator";
          app.room = null;
          app.role = null;
        }
      }
      this.queue.push(m);
      this.pump();
      this.show("practice");
      return true;
    }
    if (m.t === "joined" && (m.room === this.room || practiceRoute())) {
      this.room = m.room;
      this.role = m.role;
      return true;
    }
    if (!this.room || m.room !== this.room) return false;
    if (m.t === "room_gone") {
      this.reset();
      toast(t("practice.closed"), "info");
      location.hash = "#/";
      return true;
    }
    if (m.t === "spectators") {
      if (this.view) this.view.spectators = m.count;
      this.renderPanel();
      return true;
    }
    return m.t === "aim";
  }

  pump() {
    while (!this.anim && this.queue.length) {
      const m = /** @type {Msg} */ (this.queue.shift());
      if (m.t === "practice_state") {
        // Undo, retry, a drill, a ball moved: the last shot's result is not this table's
        // (someone arriving to watch, or a resync, changes nothing); a drill says its goal.
        // A drill's goal stays said while its balls are moved about or a shot taken back.
        if (!["join", "resync", "rules"].includes(m.cause)) {
          const drill = m.view.drill;
          this.note = { say: () => ({ text: drillGoal(drill), tone: "" }), goal: true };
        }
        // The cue on the ball to hit stays on it as the cue ball is moved (as at a match's
        // ball in hand); a drill set up (or the ghost's next rack) points it there.
        const was = this.view?.balls?.[0];
        const low = this.view?.lowest != null ? this.view.balls[this.view.lowest] : null;
        const onLowest = m.cause === "put" && !!was && !!low && Math.abs(angleBetween(this.angle, angleTo(was, low))) < 0.5 / DEG; // (the match's tolerance)
        if (["drill", "layout", "open"].includes(m.cause) || (["put", "remove"].includes(m.cause) && setOutAgain(this.view, m.view))) this.runShots = 0; // a run set out afresh
        this.clean = runAfterChange(this.clean !== false, m.cause, this.view, m.view, (this.runShots ?? 0) > 0);
        this.apply(m.view);
        if (m.cause === "drill" || onLowest) this.aimAtLowest();
        // The shot taken back or set up again: aimed as it was played, to practise it again.
        const shot = this.lastShot;
        const cue = m.view.balls?.[0];
        if ((m.cause === "undo" || m.cause === "retry") && shot && cue && cue[0] === shot.cue[0] && cue[1] === shot.cue[1]) this.angle = shot.angle;
      } else this.play(m);
    }
  }

  /** @param {Msg} view */
  apply(view) {
    const first = !this.view;
    const wasBreak = !first && !!this.view?.is_break;
    this.view = view;
    if (first) this.aimAtLowest();
    if (view.is_break && !wasBreak) {
      this.everyday = this.power;
      this.setPower(this.breakPower);
    } else if (!view.is_break && wasBreak) this.setPower(this.everyday);
    this.preview = null;
    this.previewKey = "";
    this.previewSaid = "";
    this.renderPanel();
    this.schedulePreview();
    this.dirty = true;
  }

  /** @param {Msg} m a `practice_shot` */
  play(m) {
    const tracks = normaliseTracks(decodeTracks(m.traj));
    const pb = new ShotPlayback(tracks, m.duration, m.final);
    this.preview = null;
    this.anim = {
      pb,
      t: 0,
      wall: performance.now(),
      done: () => {
        const wasBreak = !!this.view?.is_break;
        this.lowestBefore = this.view?.lowest ?? null; // (a spectator's too: `drillWords`)
        this.apply(m.view);
        // The balls have moved: the cue points at the ball to hit, as a match's next turn
        // (after a break it pointed where the rack had been, at a cushion).
        this.aimAtLowest();
        this.showVerdict(m, wasBreak);
      },
    };
    if (document.visibilityState === "hidden") this.finishAnim();
  }

  finishAnim() {
    const a = this.anim;
    if (!a) return;
    this.anim = null;
    a.done();
    this.pump();
  }

  /** The shot's result, beside the table and (first) in the banner over it.
   * @param {Msg} m @param {boolean} wasBreak the shot was a break */
  showVerdict(m, wasBreak) {
    const lowest = this.lowestBefore ?? null;
    const clean = this.clean !== false;
    this.clean = clean && keptRun(m, lowest); // (`drillWords`)
    this.runShots = (this.runShots ?? 0) + 1;
    this.note = { say: () => shotWords(m, lowest, wasBreak, clean), goal: false };
    this.renderStatus();
  }

  // --- requests -------------------------------------------------------------------------------

  /** Sends a request that changes the table; a refusal is worded in a toast. @param {Msg} msg */
  async send(msg) {
    try {
      return await this.conn.request(msg);
    } catch (err) {
      toast(err);
      this.dirty = true;
      return null;
    }
  }

  /** @param {number} ball @param {Vec} pos */
  put(ball, pos) {
    return this.send({ t: "practice_put", ball, pos: [round6(pos[0]), round6(pos[1])] });
  }

  /** @param {number} ball */
  remove(ball) {
    if (this.picked === ball) this.picked = null;
    return this.send({ t: "practice_remove", ball });
  }

  shotInput() {
    return { angle: toDegrees(this.angle), speed: speedFromPower(this.power, this.elevation), tip: [this.side, this.height], elevation: this.elevation };
  }

  async shoot() {
    if (!this.mine() || this.anim || this.busy || !this.view?.balls?.[0]) return;
    this.busy = true;
    this.lowestBefore = this.view.lowest;
    this.lastShot = { cue: this.view.balls[0], angle: this.angle };
    if (this.view.is_break) this.breakPower = this.power; // the next break (a retry) from it
    this.note = { say: silent, goal: false };
    this.renderStatus();
    await this.send({ t: "shot", ...this.shotInput(), push_out: false });
    this.busy = false;
  }

  schedulePreview() {
    if (this.previewTimer) clearTimeout(this.previewTimer);
    if (!this.previewOn || !this.mine() || !this.view?.balls?.[0]) {
      this.preview = null;
      this.previewSaid = "";
      return;
    }
    this.previewTimer = setTimeout(() => this.askPreview(), 150);
  }

  async askPreview() {
    const input = this.shotInput();
    const key = JSON.stringify([input, this.view?.layout]);
    if (key === this.previewKey) return;
    this.previewKey = key;
    try {
      const m = await this.conn.request({ t: "practice_preview", ...input });
      if (key !== this.previewKey) return;
      this.preview = { tracks: normaliseTracks(decodeTracks(m.traj)), key };
      this.previewDuration = m.duration;
      this.previewSaid = previewWords(m, this.view?.lowest ?? null);
      this.renderStatus();
      this.dirty = true;
    } catch (err) {
      this.previewKey = "";
      // Too many previews too fast is no news: the next change of aim asks again.
      if (!(err instanceof ServerError && err.code === "rate_limited")) toast(err);
    }
  }

  mine() {
    return this.role === "player" && !!this.view;
  }

  /** The cue at the ball to hit, past a ball in the way if it can (as at a match). */
  aimAtLowest() {
    const v = this.view;
    const cue = v?.balls?.[0];
    const low = v?.lowest != null ? v.balls[v.lowest] : null;
    if (!cue || !low) return;
    const others = v.balls.flatMap((/** @type {Vec | null} */ b, /** @type {number} */ n) => (n > 0 && b ? [{ n, x: b[0], y: b[1] }] : []));
    this.angle = clearLineTo(cue, { n: v.lowest, x: low[0], y: low[1] }, others);
  }

  // --- the panel --------------------------------------------------------------------------------

  renderPanel() {
    const v = this.view;
    const mine = this.mine();
    const tray = $("p-tray");
    tray.replaceChildren();
    // A finger taps where a mouse clicks (the label is worded again on a change of language).
    const trayLabel = $("p-tray-label");
    trayLabel.dataset.i18n = touchFirst() ? "practice.trayTouch" : "practice.tray";
    trayLabel.textContent = t(trayLabel.dataset.i18n);
    for (let n = 0; n <= 9; n++) {
      if (v?.balls?.[n]) continue;
      const b = h("button", {
        type: "button",
        class: "tray-ball",
        "data-ball": String(n),
        "aria-pressed": String(this.picked === n),
        "aria-label": n === 0 ? t("practice.cueBall") : t("practice.ballN", { n }),
        style: trayStyle(n),
      }, [h("span", { text: n === 0 ? "" : String(n) })]);
      /** @type {HTMLButtonElement} */ (b).disabled = !mine;
      tray.append(b);
    }
    // Nothing off the table: the tray says so, not how to take a ball from it as well.
    trayLabel.hidden = tray.childElementCount === 0;
    if (tray.childElementCount === 0) tray.append(h("span", { class: "help", text: t("practice.trayEmpty") }));
    /** @type {HTMLButtonElement} */ ($("p-remove")).disabled = !mine || this.picked === null || !v?.balls?.[this.picked];
    /** @type {HTMLButtonElement} */ ($("p-undo")).disabled = !mine || !v?.undo;
    /** @type {HTMLButtonElement} */ ($("p-redo")).disabled = !mine || !v?.redo;
    /** @type {HTMLButtonElement} */ ($("p-retry")).disabled = !mine || !v?.retry;
    /** @type {HTMLButtonElement} */ ($("p-shoot")).disabled = !mine || !v?.balls?.[0];
    for (const id of ["p-rules", "p-preview", "p-drill", "p-power", "p-spin", "p-side", "p-elev"]) /** @type {HTMLInputElement} */ ($(id)).disabled = !mine;
    /** @type {HTMLInputElement} */ ($("p-rules")).checked = !!v?.rules;
    /** @type {HTMLSelectElement} */ ($("p-drill")).value = v?.drill ?? "";
    $("p-drill-help").textContent = drillGoal(v?.drill);
    renderGhost(v?.ghost ?? null, mine);
    /** @type {HTMLInputElement} */ ($("p-link")).value = v ? practiceLink(v.layout) : "";
    $("p-watchers").textContent = v?.spectators ? t("practice.watchers", { n: v.spectators }) : "";
    $("p-power-out").textContent = t("unit.percent", { p: powerPercent(this.power) });
    drawStrip("p-", this.power, $("p-power-out").textContent);
    $("p-strip").classList.toggle("disabled", !mine);
    const words = tipWords(this.height, this.side);
    $("p-spin-out").textContent = words.spin;
    $("p-side-out").textContent = words.side;
    $("p-elev-out").textContent = `${num(this.elevation, 0)}°`;
    this.renderStatus();
  }

  /** The banner over the table: what just happened (its tone on the border), what to do now. */
  renderStatus() {
    const n = { ...this.note.say(), goal: this.note.goal };
    // Beside the table, the last shot's result alone (a drill's goal is the panel's own line).
    const el = $("p-verdict");
    el.textContent = n.goal ? "" : n.text;
    el.className = `practice-verdict ${n.goal ? "" : n.tone}`;
    const said = statusWords(this.view, { player: this.role === "player", picked: this.picked, touch: touchFirst(), note: n.text, goal: n.goal, preview: this.previewSaid });
    const status = $("p-status");
    // Many words (three fouls at once, say) in a smaller type: the box keeps its height.
    status.className = `status ${said.note ? n.tone : ""} ${said.note.length + said.next.length > 150 ? "long" : ""}`;
    const act = bannerAction(this.view, { player: this.role === "player", shot: !!n.text && !n.goal, clean: this.clean !== false });
    status.replaceChildren(...(said.note ? [h("span", { class: "verdict", text: said.note })] : []), ...(said.next ? [h("span", { class: "prompt", text: said.next })] : []), ...(act ? [h("button", { type: "button", class: "status-act", "data-drill": act.drill, text: t(act.label) })] : []));
  }

  // --- drawing ----------------------------------------------------------------------------------

  /** One animation frame (the app calls it while this view is shown). */
  frame() {
    const resized = this.renderer.resize();
    const a = this.anim;
    if (!a && !this.dirty && !resized && !this.drag) return;
    this.dirty = false;
    /** @type {BallFrame[]} */
    let balls;
    if (a) {
      const now = performance.now();
      a.t += (Math.min(250, now - a.wall) / 1000) * RATE;
      a.wall = now;
      balls = a.pb.frame(a.t);
      if (a.pb.done(a.t)) this.finishAnim();
    } else {
      balls = this.resting();
    }
    /** @type {import("./render.mjs").Overlay} */
    const overlay = { lowest: this.view?.rules ? this.view.lowest : null, aim: null, placing: null, kitchenHint: this.view?.in_hand === "kitchen", numbers: !a };
    const cue = balls.find((b) => b.n === 0);
    if (!a && this.mine() && cue && !this.drag) {
      const c = /** @type {Vec} */ ([cue.x, cue.y]);
      const objects = balls.filter((b) => b.n !== 0);
      overlay.aim = { cue: c, angle: this.angle, power: this.power, speed: speedFromPower(this.power, this.elevation), height: this.height, elevation: this.elevation, preview: aimPreview(c, this.angle, objects) };
    }
    if (this.drag?.pos) overlay.placing = { pos: this.drag.pos, ok: true };
    else if (!a && this.picked !== null && this.view?.balls?.[this.picked]) {
      const p = this.view.balls[this.picked];
      overlay.placing = { pos: [p[0], p[1]], ok: true };
    }
    this.renderer.draw(balls, overlay);
    if (!a && this.preview) this.drawPreview();
  }

  /** The balls at rest, the one being dragged where the pointer holds it. @returns {BallFrame[]} */
  resting() {
    const balls = restingBalls(this.view?.balls ?? []);
    const d = this.drag;
    if (!d) return balls;
    const rest = balls.filter((b) => b.n !== d.ball);
    if (d.pos) rest.push({ n: d.ball, x: d.pos[0], y: d.pos[1], wx: 0, wy: 0, wz: 0 });
    return rest;
  }

  /** Every moving ball's path in the previewed shot, and where it stops. */
  drawPreview() {
    const p = this.preview;
    if (!p) return;
    const ctx = this.renderer.ctx;
    const view = this.renderer.view;
    const dpr = this.renderer.dpr;
    const end = this.previewDuration ?? 0;
    const steps = 90;
    ctx.save();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.lineWidth = 1.5;
    ctx.setLineDash([5, 4]);
    /** @type {Map<number, [number, number][]>} */
    const paths = new Map();
    for (let i = 0; i <= steps; i++) {
      for (const b of sampleTracks(p.tracks, (end * i) / steps)) {
        const pts = paths.get(b.n) ?? [];
        pts.push(view.toScreen(b.x, b.y));
        paths.set(b.n, pts);
      }
    }
    for (const [n, pts] of paths) {
      const first = pts[0];
      const last = pts[pts.length - 1];
      if (Math.hypot(last[0] - first[0], last[1] - first[1]) < 1 && pts.length > steps) continue;
      ctx.strokeStyle = n === 0 ? "rgba(255,255,255,0.85)" : BALL_COLOURS[n];
      ctx.beginPath();
      pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.stroke();
      if (pts.length > steps) {
        ctx.beginPath();
        ctx.arc(last[0], last[1], R * view.scale, 0, 2 * Math.PI);
        ctx.stroke();
      }
    }
    ctx.restore();
  }

  // --- input ------------------------------------------------------------------------------------

  /** @param {number} clientX @param {number} clientY @returns {Vec} */
  worldAt(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    return this.renderer.view.toWorld(clientX - r.left, clientY - r.top);
  }

  /** @param {number} clientX @param {number} clientY */
  overTable(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    if (clientX < r.left || clientX > r.right || clientY < r.top || clientY > r.bottom) return false;
    const [x, y] = this.worldAt(clientX, clientY);
    return x > -0.02 && x < TABLE.length + 0.02 && y > -0.02 && y < TABLE.width + 0.02;
  }

  /** The ball under a table point (a little generous for fingers). @param {Vec} pos */
  ballAt(pos) {
    const balls = this.view?.balls ?? [];
    let best = null;
    let bestD = R * 1.6;
    balls.forEach((/** @type {Vec | null} */ p, /** @type {number} */ n) => {
      if (!p) return;
      const d = Math.hypot(p[0] - pos[0], p[1] - pos[1]);
      if (d < bestD) {
        best = n;
        bestD = d;
      }
    });
    return best;
  }

  wire() {
    const c = this.canvas;
    c.addEventListener("pointerdown", (e) => {
      if (!this.mine()) return;
      if (this.anim) {
        this.finishAnim();
        return;
      }
      c.focus();
      c.setPointerCapture(e.pointerId);
      const pos = this.worldAt(e.clientX, e.clientY);
      const ball = this.ballAt(pos);
      if (ball !== null) this.drag = { ball, from: "table", start: [e.clientX, e.clientY], pos: null, moved: false };
      else this.aiming = { start: [e.clientX, e.clientY] };
      e.preventDefault();
    });
    c.addEventListener("pointermove", (e) => this.pointerMove(e));
    c.addEventListener("pointerup", (e) => this.pointerUp(e));
    c.addEventListener("pointercancel", () => {
      this.drag = null;
      this.aiming = null;
      this.dirty = true;
    });
    c.addEventListener("keydown", (e) => this.key(e));
    wireTray($("p-tray"), {
      mine: () => this.mine(),
      grab: (ball, x, y) => {
        this.drag = { ball, from: "tray", start: [x, y], pos: null, moved: false };
      },
      move: (e) => this.pointerMove(e),
      drop: (e) => this.pointerUp(e),
      cancel: () => {
        this.drag = null;
        this.dirty = true;
      },
      pick: (ball) => {
        this.pick(ball);
        c.focus();
      },
    });
    $("p-remove").addEventListener("click", () => this.picked !== null && this.remove(this.picked));
    // Clicked with the mouse these hand the keys back to the table, as the switches below do.
    for (const [id, kind] of [["p-undo", "practice_undo"], ["p-redo", "practice_redo"], ["p-retry", "practice_retry"]]) {
      $(id).addEventListener("click", () => (this.send({ t: kind }), $(id).matches(":focus-visible") || c.focus({ preventScroll: true })));
    }
    $("p-shoot").addEventListener("click", () => {
      // On a phone the button is under the table: the shot played out of sight, its result
      // in the box over the table, off the screen too. The table comes back into view.
      if (this.mine() && document.documentElement.classList.contains("compact")) window.scrollTo({ top: 0, behavior: "smooth" });
      this.shoot();
    });
    // Space or Enter on the power or spin sliders shoots, as on the table (the key help).
    for (const id of ["p-power", "p-spin", "p-side", "p-elev"]) {
      $(id).addEventListener("keydown", (e) => {
        if (e.key !== " " && e.key !== "Enter") return;
        e.preventDefault();
        if (this.mine() && !this.anim) this.shoot();
      });
    }
    attachStrip($("p-strip-track"), {
      shoot: () => this.shoot(),
      setPower: (p) => this.setPower(p),
      canShoot: () => this.mine() && !this.anim && !!this.view?.balls?.[0],
      power: () => this.power,
    });
    $("p-power").addEventListener("input", () => {
      this.power = Number(/** @type {HTMLInputElement} */ ($("p-power")).value) / 100;
      this.changedAim();
    });
    $("p-spin").addEventListener("input", () => {
      this.height = Number(/** @type {HTMLInputElement} */ ($("p-spin")).value) / 100;
      this.changedAim();
    });
    $("p-side").addEventListener("input", () => {
      this.side = Number(/** @type {HTMLInputElement} */ ($("p-side")).value) / 100;
      this.changedAim();
    });
    $("p-elev").addEventListener("input", () => {
      this.elevation = Number(/** @type {HTMLInputElement} */ ($("p-elev")).value);
      this.changedAim();
    });
    $("p-preview").addEventListener("change", () => {
      this.previewOn = /** @type {HTMLInputElement} */ ($("p-preview")).checked;
      this.previewKey = "";
      this.preview = null;
      this.changedAim();
    });
    $("p-rules").addEventListener("change", () => this.send({ t: "practice_rules", on: /** @type {HTMLInputElement} */ ($("p-rules")).checked }));
    $("p-drill").addEventListener("change", () => {
      const drill = /** @type {HTMLSelectElement} */ ($("p-drill")).value;
      if (drill) this.send({ t: "practice_load", drill });
      // On a phone the table, where the drill now is, comes back into view.
      if (drill && document.documentElement.classList.contains("compact")) window.scrollTo({ top: 0, behavior: "smooth" });
    });
    $("p-ghost-next").addEventListener("click", () => this.send({ t: "practice_load", drill: "nine_ghost" }));
    $("p-status").addEventListener("click", (e) => { const drill = /** @type {HTMLElement} */ (e.target).closest("button")?.dataset.drill; if (drill) this.send({ t: "practice_load", drill }); });
    // Set with the mouse, a switch or the drills hands the keys back to the table: Space
    // shoots (as the key help says), not toggles the switch. Set from the keys, focus stays.
    for (const id of ["p-rules", "p-preview", "p-drill"]) {
      $(id).addEventListener("change", () => {
        if (!$(id).matches(":focus-visible")) $("p-table").focus({ preventScroll: true });
      });
    }
    wireShare();
  }

  /** @param {PointerEvent} e */
  pointerMove(e) {
    const d = this.drag;
    if (d) {
      if (!d.moved && Math.hypot(e.clientX - d.start[0], e.clientY - d.start[1]) > CLICK_SLOP) d.moved = true;
      if (d.moved) d.pos = this.overTable(e.clientX, e.clientY) ? this.worldAt(e.clientX, e.clientY) : null;
      this.dirty = true;
      return;
    }
    if (this.aiming) this.aimAt(this.worldAt(e.clientX, e.clientY));
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    const d = this.drag;
    this.drag = null;
    this.dirty = true;
    if (this.aiming) {
      this.aiming = null;
      const pos = this.worldAt(e.clientX, e.clientY);
      if (this.picked !== null) return void this.putPicked(pos);
      this.aimAt(pos);
      return;
    }
    if (!d) return;
    if (!d.moved) {
      // A click on an object ball aims at it, as at a match table; on the cue ball (or on
      // any ball while one is picked) it picks the ball, to be put where the next click lands.
      const at = this.view?.balls?.[d.ball];
      if (d.from === "table" && d.ball !== 0 && this.picked === null && at) return void this.aimAt([at[0], at[1]]);
      return void this.pick(d.ball);
    }
    if (this.overTable(e.clientX, e.clientY)) this.put(d.ball, this.worldAt(e.clientX, e.clientY));
    else if (d.from === "table") this.remove(d.ball);
  }

  /** Picks a ball (or unpicks it). @param {number} ball */
  pick(ball) {
    this.picked = this.picked === ball ? null : ball;
    this.renderPanel();
    this.dirty = true;
  }

  /** @param {Vec} pos */
  async putPicked(pos) {
    const ball = this.picked;
    if (ball === null) return;
    if (await this.put(ball, pos)) this.picked = null;
    this.renderPanel();
  }

  /** A spot where a ball may go (the spots first, then a grid), for the keyboard. @returns {Vec | null} */
  freeSpot() {
    const others = (this.view?.balls ?? [])
      .map((/** @type {Vec | null} */ p, /** @type {number} */ n) => (p ? { n, x: p[0], y: p[1] } : null))
      .filter((/** @type {any} */ b) => b !== null);
    /** @type {Vec[]} */
    const candidates = [[TABLE.length / 2, TABLE.width / 2], TABLE.footSpot, TABLE.headSpot];
    for (let i = 1; i < 12; i++) for (let j = 1; j < 6; j++) candidates.push([(TABLE.length * i) / 12, (TABLE.width * j) / 6]);
    return candidates.find((c) => checkPlacement(c, others, false).ok) ?? null;
  }

  /** @param {Vec} pos */
  aimAt(pos) {
    const cue = this.view?.balls?.[0];
    if (!cue || Math.hypot(pos[0] - cue[0], pos[1] - cue[1]) < 1e-3) return;
    this.angle = angleTo(cue, pos);
    this.changedAim();
  }

  /** The power (kept within 1 %–100 %), on the slider too. @param {number} p */
  setPower(p) {
    this.power = Math.min(1, Math.max(0.01, p));
    /** @type {HTMLInputElement} */ ($("p-power")).value = String(Math.round(this.power * 100));
    this.changedAim();
  }

  changedAim() {
    this.dirty = true;
    this.renderPanel();
    this.schedulePreview();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (!this.mine()) return;
    const k = e.ctrlKey || e.metaKey ? e.key.toLowerCase() : "";
    if (k === "z" || k === "y") {
      this.send({ t: e.shiftKey || k === "y" ? "practice_redo" : "practice_undo" });
    } else if (e.key === "r" || e.key === "R") {
      this.send({ t: "practice_retry" });
    } else if (e.key === "Escape") {
      if (this.anim) this.finishAnim();
      this.picked = null;
      this.renderPanel();
    } else if ((e.key === "Delete" || e.key === "Backspace") && this.picked !== null) {
      this.remove(this.picked);
    } else if ((e.key === " " || e.key === "Enter") && this.picked !== null && !this.view?.balls?.[this.picked]) {
      // A ball picked from the tray with the keyboard goes to a free spot; the arrows move it.
      const spot = this.freeSpot();
      if (spot) this.put(this.picked, spot);
    } else if (e.key === " " || e.key === "Enter") {
      this.shoot();
    } else if (e.key.startsWith("Arrow")) {
      const v = this.view;
      const p = this.picked !== null ? v?.balls?.[this.picked] : null;
      if (this.picked !== null && p) {
        const step = e.shiftKey ? 0.001 : 0.01;
        const dx = e.key === "ArrowRight" ? step : e.key === "ArrowLeft" ? -step : 0;
        const dy = e.key === "ArrowUp" ? step : e.key === "ArrowDown" ? -step : 0;
        this.put(this.picked, [p[0] + dx, p[1] + dy]);
      } else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
        const step = (e.shiftKey ? 0.05 : e.altKey ? 5 : 0.5) / DEG;
        this.angle += e.key === "ArrowLeft" ? step : -step;
        this.changedAim();
      } else {
        this.setPower(this.power + (e.key === "ArrowUp" ? 0.02 : -0.02));
      }
    } else {
      return;
    }
    e.preventDefault();
  }

  // --- for the tests ----------------------------------------------------------------------------

  /** Ball positions as the table holds them now (index = ball number). */
  positions() {
    return (this.view?.balls ?? Array(10).fill(null)).map((/** @type {Vec | null} */ p) => (p ? [p[0], p[1]] : null));
  }

  /** Page coordinates of a table point. @param {number} x @param {number} y */
  screenOf(x, y) {
    const r = this.canvas.getBoundingClientRect();
    const [sx, sy] = this.renderer.view.toScreen(x, y);
    return [r.left + sx, r.top + sy];
  }
}
