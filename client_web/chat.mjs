// The room's chat as the table view shows it: its log in the panel, a message heard
// where the chat cannot be seen popped over the table, and the count of unread messages
// on a phone's closed sheet. Reads the state; changes nothing but the page (and the count).

import { $, h } from "./dom.mjs";
import { t } from "./i18n/index.mjs";
import { app } from "./state.mjs";

/** @typedef {import("./state.mjs").Msg} Msg */

/** Whether the chat's log is read to its newest line (`keepNewestInSight`). */
let readToEnd = true;
/** @type {Element | null} */
let watchedLog = null;

/**
 * The chat's log stays on its newest line as the panel gives it less room (a turn's
 * controls coming in shrink it): the line that had just come was left below the box.
 * A reader scrolled back up to older lines is left there. @param {HTMLElement} ol
 */
function keepNewestInSight(ol) {
  if (watchedLog === ol || typeof ResizeObserver === "undefined") return;
  watchedLog = ol;
  // Down to the end, the reader reads the newest; scrolled up from there, back. (Judged by
  // the way it moved: a box that shrank after a scroll to its end looked scrolled back.)
  let top = ol.scrollTop;
  ol.addEventListener("scroll", () => {
    if (ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 2) readToEnd = true;
    else if (ol.scrollTop < top - 1) readToEnd = false;
    top = ol.scrollTop;
  });
  new ResizeObserver(() => {
    if (readToEnd) ol.scrollTop = ol.scrollHeight;
  }).observe(ol);
}

/** @param {Msg} m */
export function addChat(m) {
  const who = m.seat === null ? t("chat.watching", { name: m.name }) : m.name;
  const li = h("li", {}, [h("b", { text: `${who}: ` }), m.text]);
  const ol = $("chat-log");
  keepNewestInSight(ol);
  ol.append(li);
  while (ol.children.length > 100) ol.firstChild?.remove();
  if (readToEnd || document.activeElement?.id === "chat-input") ol.scrollTop = ol.scrollHeight;
  // The line pushes the box down: whoever is typing keeps it whole in sight (a phone's
  // sheet, scrolled to the box as it was tapped, had it run 6 px under the screen's edge).
  if (document.activeElement?.id === "chat-input") $("chat-form").scrollIntoView({ block: "nearest" });
  if (!app.panelOpen && document.documentElement.classList.contains("compact")) {
    app.unread++;
    renderBadge();
  }
}

/**
 * A chat message heard live where the chat cannot be seen: on a wide screen whose side
 * panel is scrolled to the controls (a laptop's), the message is shown over the table for
 * a few seconds, so a player mid-turn does not miss it; on a phone whose sheet is closed,
 * one line over the sheet's bar, beside the count on its toggle (the count alone went
 * unnoticed). The reader's own messages, and those while typing, are in sight.
 * @param {Msg} m
 */
export function popChat(m) {
  const phone = document.documentElement.classList.contains("compact");
  if (phone && app.panelOpen) return; // (the open sheet shows the chat)
  const own = app.role === "player" ? m.seat !== null && m.seat === app.seat : m.seat === null && m.name === app.welcome?.name;
  if (own || document.activeElement?.id === "chat-input") return;
  const log = $("chat-log").getBoundingClientRect();
  const panel = /** @type {HTMLElement} */ ($("chat-log").closest(".panel") ?? document.body).getBoundingClientRect();
  const bottom = Math.min(panel.bottom, window.innerHeight);
  if (!phone && log.height > 0 && log.bottom > panel.top && log.top < bottom - 20) return;
  const who = m.seat === null ? t("chat.watching", { name: m.name }) : m.name;
  // Its own element, low over the table and polite: an error's toast (at the top, an
  // alert) is neither covered nor overwritten by it.
  const pop = $("chat-pop");
  pop.textContent = `${who}: ${m.text}`;
  pop.hidden = false;
  clearTimeout(/** @type {any} */ (pop).timer);
  /** @type {any} */ (pop).timer = setTimeout(() => (pop.hidden = true), 5000);
}

export function renderBadge() {
  const b = $("panel-badge");
  b.hidden = app.unread === 0;
  b.textContent = String(app.unread);
}
