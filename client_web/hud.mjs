// What the table view shows besides the balls: the scoreboard, the clock, the banner,
// the verdict and prompt under the table, the panels that fit the moment, the log, chat
// and results. Reads the state; changes nothing but the page.

import { describeTip } from "./controls.mjs";
import { $, h } from "./dom.mjs";
import { app, canShoot, mySeat, names, status } from "./state.mjs";
import { BALL_COLOURS } from "./table.mjs";

/** @typedef {import("./state.mjs").Msg} Msg */
/** @typedef {import("./aim.mjs").Vec} Vec */

/**
 * Adds a line to the log and, unless `aside`, makes it the verdict shown under the table.
 * @param {string} text @param {string} tone @param {string[]} details @param {boolean} [aside]
 */
export function log(text, tone, details, aside = false) {
  if (!aside) app.lastVerdict = { text, tone };
  const li = h("li", { class: tone }, [text]);
  for (const d of details) li.append(h("span", { class: "detail", text: d }));
  const ol = $("log");
  ol.prepend(li);
  while (ol.children.length > 60) ol.lastChild?.remove();
}

/** @param {Msg} m */
export function addChat(m) {
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
export function showResult(title, text, match) {
  const dlg = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  $("result-title").textContent = title;
  $("result-text").textContent = text;
  $("result-rematch").hidden = !(match && mySeat() !== null);
  clearTimeout(resultTimer);
  if (!match) resultTimer = setTimeout(() => dlg.open && dlg.close(), 5000);
  if (!dlg.open) dlg.showModal();
}

export function renderSeats() {
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
      const left = s.grace_until ? Math.max(0, Math.round((s.grace_until - app.serverNow()) / 1000)) : null;
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
export function renderRackBalls() {
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

export function renderClock() {
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
  const left = Math.max(0, (c.deadline - app.serverNow()) / 1000);
  const s = Math.ceil(left);
  el.textContent = `⏱ ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  el.classList.toggle("low", left <= 10);
  el.setAttribute("aria-label", `Shot clock: ${s} seconds left`);
}

/** What the player should do now, in one sentence. */
export function prompt() {
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
    const chooser = app.view.lag_choice ?? null;
    if (chooser !== null && me !== null && chooser === me) return `You won the lag: break, or let ${n[1 - me]} break (R3).`;
    if (chooser !== null) return `${n[chooser]} won the lag and chooses who breaks (R3).`;
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
    return `Your shot — ${low}. Drag on the table to aim; pull the cue back and let go, or press Shoot.`;
  }
  if (t.choice_pending) return `${who} chooses: shoot or pass (R6).`;
  const ra = app.remoteAim;
  if (ra && ra.seat === t.turn && performance.now() - app.remoteAimAt < 5000) {
    return `${who} is aiming: ${ra.speed.toFixed(1)} m/s, ${describeTip(ra.tip[0], ra.tip[1])}${ra.elevation ? `, cue raised ${Math.round(ra.elevation)}°` : ""}.`;
  }
  return `${who} to shoot${t.ball_in_hand ? " with ball in hand" : ""} — ${low}.`;
}

export function renderTableUi() {
  if (!app.view) return;
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

  // R3/O6: the lag winner chooses who breaks.
  const lagDlg = /** @type {HTMLDialogElement} */ ($("lag-dialog"));
  const chooseBreak = st === "lag" && me !== null && app.view.lag_choice === me && !app.anim;
  if (chooseBreak) $("lag-give").textContent = `Let ${names()[1 - me]} break`;
  if (chooseBreak && !lagDlg.open) lagDlg.show();
  if (!chooseBreak && lagDlg.open) lagDlg.close();

  // A description of the table for screen readers.
  const balls = (t?.balls ?? []).map((/** @type {Vec | null} */ p, /** @type {number} */ n) => (p && n > 0 ? String(n) : null)).filter(Boolean);
  $("table-desc").textContent = `${prompt()} Balls on the table: ${balls.join(", ") || "none"}.`;
  $("table").setAttribute("aria-label", `Pool table. ${prompt()}`);
}
