// The table view's own controls: the lag, ready, invite, sitting down, leaving, conceding,
// a stalemate, a rematch, the shoot-or-pass and who-breaks choices, the last shot again,
// the chat, and the sheet that holds the log and the menu on a phone. Each sends one
// request; what changes comes back as the room's events.

import { DEG, aimPreview } from "./aim.mjs";
import { powerFromSpeed } from "./controls.mjs";
import { $, toast } from "./dom.mjs";
import { inviteLink, placeResult, setPanel } from "./hud.mjs";
import { keptStake } from "./kept.mjs";
import { lagSpot } from "./lagballs.mjs";
import { keepLang, num, t, wordAs } from "./i18n/index.mjs";
import { ShotPlayback, normaliseTracks } from "./playback.mjs";
import { describeReach } from "./reach.mjs";
import { shotSounds } from "./sound.mjs";
import { aimAid, app, canShoot, mySeat, names, status, touchFirst } from "./state.mjs";
import { decodeTracks } from "./trajectory.mjs";

/** @typedef {import("./state.mjs").Msg} Msg */

/** The lag stroke's spread: each lag's speed varies by up to this fraction, as a hand does. */
const LAG_SPREAD = 0.01;

/**
 * What the controls need from the page around them.
 * @typedef {object} TableControlDeps
 * @property {(msg: Msg) => Promise<Msg | null>} act sends a request, shows its refusal
 * @property {() => Promise<void>} shoot plays the stroke set up
 * @property {() => boolean} skipAnim jumps the running animation to its end
 * @property {ReturnType<typeof import("./playing.mjs").roomPlayer>["startAnim"]} startAnim
 * @property {() => void} clearRoom forgets the room left
 * @property {import("./sound.mjs").Sound} sound
 * @property {() => void} refresh redraws the table's widgets
 */

/**
 * Wires the table view's controls.
 * @param {TableControlDeps} deps
 */
/**
 * The keys to the table when nothing else has them: once the table is shown (the lobby's
 * button pressed to get there has gone) and when a dialog over it closes, the focus was
 * left on the page's body — no ring in sight, the next Tab at the logo, six presses from
 * the table, and Space on a control tabbed to by mistake muting the sound instead of
 * shooting. Not on a touch screen (a focused canvas there can scroll the page).
 */
export function keysToTable() {
  const at = document.activeElement;
  if (app.route !== "table" || touchFirst() || (at && at !== document.body)) return;
  $("table").focus({ preventScroll: true });
}

/**
 * Back in the lobby from a table, a replay or practice, the focus was on the page's body
 * (the button pressed had gone with its view): the next Tab started again at the logo,
 * and a screen reader said nothing of where the page now was. The lobby's heading takes
 * it, as a page's would, unless something in the lobby already has it.
 * @param {string} from the route before
 */
export function keysToLobby(from) {
  const at = document.activeElement;
  if (app.route !== "lobby" || from === "lobby" || (at && at !== document.body && at.closest("#lobby"))) return;
  $("lobby-title").focus({ preventScroll: true });
}

export function wireTableControls({ act, shoot, skipAnim, startAnim, clearRoom, sound, refresh }) {
  // (`close` does not bubble: heard on its way down; the focus goes back after the close)
  document.addEventListener("close", () => setTimeout(keysToTable, 0), true);
  /** @type {HTMLInputElement} */ ($("pushout")).addEventListener("change", (e) => {
    app.aim.pushOut = /** @type {HTMLInputElement} */ (e.target).checked;
    app.aimDirty = true; // the opponent hears it with the aim
    refresh(); // the prompt says what a push-out is at once, not at the next aim
  });
  // The same choice from the table (a phone's sheet is closed while aiming).
  $("push-chip").addEventListener("click", () => {
    app.aim.pushOut = !app.aim.pushOut;
    /** @type {HTMLInputElement} */ ($("pushout")).checked = app.aim.pushOut;
    app.aimDirty = true;
    refresh();
  });
  $("shoot").addEventListener("click", () => shoot());
  $("extend").addEventListener("click", () => {
    closeMenu();
    act({ t: "extend" });
  });
  $("extend-chip").addEventListener("click", () => act({ t: "extend" }));
  $("skip").addEventListener("click", () => skipAnim());

  const lagPower = /** @type {HTMLInputElement} */ ($("lag-power"));
  const lagAngle = /** @type {HTMLInputElement} */ ($("lag-angle"));
  const lagOut = () => {
    const speed = Number(lagPower.value) / 100;
    $("lag-out").textContent = t("unit.speed", { v: num(speed, 2) });
    $("lag-reach").textContent = describeReach(speed, { short: true });
    $("lag-angle-out").textContent = `${num(Number(lagAngle.value) / 10, 1)}°`;
  };
  lagPower.addEventListener("input", lagOut);
  lagAngle.addEventListener("input", lagOut);
  lagOut();
  $("lag-shoot").addEventListener("click", async () => {
    if (app.lagSent) return;
    sound.unlock();
    app.lagSent = true;
    refresh();
    // A hand never strikes twice alike: the speed varies by up to ±1 %, so two players at
    // the same setting (the default) do not tie; the lag is still theirs to judge.
    const chosen = Number(lagPower.value) / 100;
    // Kept to 0.01 mm/s: rounded to whole mm/s, two defaults drew the same speed, and tied,
    // about one lag in thirty-five; now only speeds within 0.07 mm/s tie (0.1 mm at rest).
    const speed = Math.round(Math.min(12, chosen * (1 + (Math.random() * 2 - 1) * LAG_SPREAD)) * 1e5) / 1e5;
    const ok = await act({ t: "lag", speed, angle: lagAngleOf(lagAngle), tip: [0, 0] });
    if (ok && app.view && app.seat !== null && app.view.status === "lag") app.view.lagged = [...(app.view.lagged ?? []), app.seat];
    if (!ok) app.lagSent = false;
    refresh();
  });

  $("ready").addEventListener("click", () => {
    const mine = app.view?.seats?.[mySeat() ?? 0];
    sound.unlock();
    app.heldStart = !!mine?.ready; // (held by hand: not made ready again behind their back)
    act({ t: "ready", ready: !mine?.ready });
  });
  $("invite-copy").addEventListener("click", async () => {
    const input = /** @type {HTMLInputElement} */ ($("invite-link"));
    input.value = inviteLink();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
    }
    toast(t("invite.copied"), "info");
  });
  // An empty seat, seen by a spectator: sit down in it.
  for (const i of [0, 1]) {
    $(`seat${i}`).addEventListener("click", async (e) => {
      if (!(/** @type {HTMLElement} */ (e.target).closest("[data-sit]")) || !app.room) return;
      const seat = Number(/** @type {HTMLElement} */ (e.target).closest("[data-sit]")?.getAttribute("data-sit"));
      sound.unlock();
      await act({ t: "sit", seat, code: app.code, invite: app.linkInvite });
    });
  }
  const leaveDlg = /** @type {HTMLDialogElement} */ ($("leave-dialog"));
  const leave = async () => {
    // A tournament's player goes back to its bracket, where they read what the match
    // they left (or conceded by leaving) did to their standing; anyone else (a spectator
    // too) to the lobby.
    const tournament = mySeat() !== null ? app.view?.settings?.tournament : null;
    await act({ t: "leave" });
    clearRoom();
    if (tournament) location.assign(keepLang(`/tournament/${encodeURIComponent(tournament)}`));
    else location.hash = "#/";
  };
  $("leave").addEventListener("click", () => {
    closeMenu();
    if (mySeat() !== null && status() === "playing") {
      sayStake("leave-stake");
      leaveDlg.showModal();
    }
    else leave();
  });
  $("leave-cancel").addEventListener("click", () => leaveDlg.close());
  $("leave-confirm").addEventListener("click", () => {
    leaveDlg.close();
    leave();
  });
  $("stalemate-chip").addEventListener("click", () => act({ t: "stalemate", action: "accept" }));
  $("stalemate").addEventListener("click", () => {
    closeMenu();
    const by = app.table?.stalemate_proposed_by;
    act({ t: "stalemate", action: by !== null && by !== undefined && by !== mySeat() ? "accept" : "propose" });
  });
  const concedeDlg = /** @type {HTMLDialogElement} */ ($("concede-dialog"));
  // The menu opens upward where below it would leave what can be seen (the panel's foot on
  // a short screen), if it fits above — within the phone's sheet, which clips what rises
  // above its top —, and is brought into view if it still does not fit.
  const more = /** @type {HTMLDetailsElement} */ ($("more"));
  more.addEventListener("toggle", () => {
    const menu = /** @type {HTMLElement} */ (more.querySelector(".more-menu"));
    menu.classList.remove("up");
    menu.style.left = "";
    if (!more.open) return;
    const below = menu.getBoundingClientRect();
    const room = more.getBoundingClientRect();
    const panel = /** @type {HTMLElement} */ (more.closest(".panel") ?? document.body);
    const seen = panel.getBoundingClientRect();
    const [top, bottom] = [Math.max(0, seen.top), Math.min(window.innerHeight, seen.bottom)];
    if (below.bottom > bottom && room.top - below.height - 6 >= top) menu.classList.add("up");
    // Past the panel's right edge (after "Rematch", the button is far from the left) it
    // is moved left to fit: brought into view, it scrolled the whole panel sideways.
    const right = seen.left + panel.clientLeft + panel.clientWidth;
    if (below.right > right) menu.style.left = `${Math.max(seen.left - room.left, right - below.right)}px`;
    menu.scrollIntoView({ block: "nearest" });
  });
  // As any menu: a click or tap elsewhere, or Esc, closes it (left open it would cover the
  // controls when the turn comes).
  document.addEventListener("pointerdown", (e) => {
    if (more.open && !more.contains(/** @type {Node} */ (e.target))) closeMenu();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && more.open) {
      // This Esc closes the menu and does nothing else (not the skip of a shot playing).
      e.preventDefault();
      const inside = more.contains(document.activeElement);
      closeMenu();
      if (inside) /** @type {HTMLElement} */ (more.querySelector("summary")).focus();
    }
  }, true);
  $("concede").addEventListener("click", () => {
    closeMenu();
    // The game that would give the opponent the match (a race to 1, or the opponent on the
    // hill) is the match: one choice, said so (both buttons did the same thing).
    const seat = mySeat();
    const race = Number(app.view?.settings?.race_to ?? 0);
    const last = seat !== null && Number(app.table?.score?.[1 - seat] ?? 0) + 1 >= race;
    $("concede-game").hidden = last;
    wordAs($("concede-text"), last ? "concede.textLast" : "concede.text");
    sayStake("concede-stake");
    concedeDlg.showModal();
  });
  $("concede-cancel").addEventListener("click", () => concedeDlg.close());
  $("concede-game").addEventListener("click", () => {
    concedeDlg.close();
    act({ t: "concede", what: "game" });
  });
  $("concede-match").addEventListener("click", () => {
    concedeDlg.close();
    act({ t: "concede", what: "match" });
  });
  // A rematch's lag is played on the table: the phone's sheet (where the menu's Rematch
  // is) makes way for it.
  const rematch = () => {
    closeMenu();
    setPanel(false);
    return act({ t: "rematch" }).then(refresh);
  };
  $("rematch").addEventListener("click", rematch);
  $("over-rematch").addEventListener("click", rematch);
  $("result-rematch").addEventListener("click", () => {
    /** @type {HTMLDialogElement} */ ($("result-dialog")).close();
    rematch();
  });
  $("result-close").addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("result-dialog")).close());
  $("result-dialog").addEventListener("close", () => refresh()); // the table's own rematch card
  // Between two games on a phone the result leaves the table and the strip free: a touch
  // on either is play.
  addEventListener("resize", placeResult);
  for (const id of ["table", "strip"]) {
    $(id).addEventListener("pointerdown", () => {
      const result = /** @type {HTMLDialogElement} */ ($("result-dialog"));
      if (result.open && result.classList.contains("between")) result.close();
    }, true);
  }
  $("choose-shoot").addEventListener("click", () => choose("shoot", act, refresh));
  $("choose-pass").addEventListener("click", () => choose("pass", act, refresh));
  /** @type {HTMLDialogElement} */ ($("choice-dialog")).addEventListener("cancel", (e) => e.preventDefault());
  $("lag-break").addEventListener("click", () => chooseBreaker("break", act, refresh));
  $("lag-give").addEventListener("click", () => chooseBreaker("give", act, refresh));
  /** @type {HTMLDialogElement} */ ($("lag-dialog")).addEventListener("cancel", (e) => e.preventDefault());
  $("replay-last").addEventListener("click", () => {
    closeMenu();
    setPanel(false); // the replay plays on the table, not behind the phone's sheet
    const m = app.lastShot;
    if (!m || app.anim) return;
    const tracks = normaliseTracks(decodeTracks(m.traj));
    const pb = new ShotPlayback(tracks, m.duration, m.final);
    const shooter = Number(m.shooter); // every shot_result names its shooter's seat
    startAnim([pb], 0, 0.6, t("prompt.replayAnim", { name: names()[shooter] }), () => {}, shotSounds(tracks), null, shooter);
    refresh();
  });
  $("chat-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($("chat-input"));
    const text = input.value.trim();
    if (!text) return;
    // Cleared once sent, unless the player has typed on meanwhile (their next line).
    if ((await act({ t: "chat", text })) && input.value.trim() === text) input.value = "";
  });

  // The log, chat and menu: a sheet over the table on narrow screens.
  $("panel-toggle").addEventListener("click", () => {
    setPanel(!app.panelOpen);
    if (app.panelOpen) openAtWhatMatters();
  });
}

/**
 * The sheet opens at its top (the shot's spin and cue) for the player to shoot, and at
 * the log and the chat for everyone else: their shot's controls are greyed out, and the
 * log, which is what they opened it for, lay below a scroll. Once the match is over, at
 * its top too: its Rematch and More (to leave) stood under the sheet's bar.
 */
function openAtWhatMatters() {
  const sheet = $("panel");
  const title = /** @type {HTMLElement} */ (sheet.querySelector(".log-title"));
  const below = title.getBoundingClientRect().top - sheet.getBoundingClientRect().top;
  const over = status() === "finished" || !!app.table?.match_over;
  sheet.scrollTop = canShoot() || over ? 0 : sheet.scrollTop + below;
}

/**
 * Says under a question that ends the match (concede, leave) what losing it costs in its
 * tournament — out, or to the losers' bracket — which the question's words, the same at
 * every table, left unsaid. Hidden at a table that is not a tournament's.
 * @param {string} id the paragraph
 */
function sayStake(id) {
  const stake = keptStake(mySeat());
  const el = $(id);
  el.hidden = stake === null;
  if (stake !== null) wordAs(el, `concede.stake.${stake}`);
}

function closeMenu() {
  /** @type {HTMLDetailsElement} */ ($("more")).open = false;
}

/**
 * R6.4: after a push-out, the other player shoots from there or passes the shot back.
 * @param {"shoot" | "pass"} choice @param {(msg: Msg) => Promise<Msg | null>} act @param {() => void} refresh
 */
async function choose(choice, act, refresh) {
  /** @type {HTMLDialogElement} */ ($("choice-dialog")).close();
  const ok = await act({ t: "choose", choice });
  if (!ok) refresh();
}

/**
 * R3/O6: the lag winner breaks the first game or gives the break away.
 * @param {"break" | "give"} choice @param {(msg: Msg) => Promise<Msg | null>} act @param {() => void} refresh
 */
async function chooseBreaker(choice, act, refresh) {
  /** @type {HTMLDialogElement} */ ($("lag-dialog")).close();
  const ok = await act({ t: "lag_choice", choice });
  if (!ok) refresh();
}

/**
 * The player's own lag before it is played, as the table draws it: the cue behind their
 * ball at its spot, at the lag's speed, and the line the angle sends it along (the card's
 * "Angle" changed nothing that could be seen). Null once played, and for a watcher.
 * The lag's card stands over the half of the table away from the player's ball (`at-top`
 * when the ball is drawn in the lower half): across the table's foot it hid the ball.
 * @param {import("./render.mjs").View} view
 * @returns {import("./render.mjs").Overlay["aim"]}
 */
export function lagAim(view) {
  const me = mySeat();
  if (me !== null) $("lag-controls").classList.toggle("at-top", view.toScreen(...lagSpot(me))[1] > view.cssHeight / 2);
  const v = app.view;
  if (!v || v.status !== "lag" || v.lag_choice != null || me === null || app.role !== "player") return null;
  if ((v.lagged ?? []).includes(me) || app.lagSent || app.anim) return null;
  const speed = Number(/** @type {HTMLInputElement} */ ($("lag-power")).value) / 100;
  const angle = lagAngleOf(/** @type {HTMLInputElement} */ ($("lag-angle"))) / DEG;
  const cue = lagSpot(me);
  return { cue, angle, power: powerFromSpeed(speed), speed, height: 0, elevation: 0, preview: aimPreview(cue, angle, []), aid: aimAid() };
}

/**
 * The lag's angle (degrees, as the protocol has it: anticlockwise seen from above) from its
 * slider, whose right turns the ball to the player's right, clockwise (it turned it left,
 * the way a mathematician's angle grows). @param {HTMLInputElement} slider
 */
function lagAngleOf(slider) {
  return -Number(slider.value) / 10;
}
