// The practice table's position as a link: its address, and the button that copies it.
//
// What the copy did is said beside the button, where the player is looking: a toast at the
// top of a phone's screen stood over the table's Undo and Redo for its four seconds.

import { $ } from "./dom.mjs";
import { keepLang, t } from "./i18n/index.mjs";
import { touchFirst } from "./state.mjs";

/** How long the words under the link stay (ms). */
const SAID_MS = 5000;

/**
 * The link that opens this position: `#/practice/<code>`, with the page's `?lang=` when its
 * own address carries one (a Croatian player's link opens in Croatian, as the tournament
 * pages' links do). @param {string} code
 */
export function practiceLink(code) {
  return `${location.origin}${keepLang(`${location.pathname}#/practice/${code}`)}`;
}

/** Wires "Copy link": the link to the clipboard, or selected to be copied by hand. */
export function wireShare() {
  const said = $("p-copied");
  let timer = 0;
  /** @param {string} key */
  // (A live region in the page all along, empty when idle: one that appears with its words
  // already in it is often not read out.)
  const say = (key) => {
    said.textContent = t(key);
    clearTimeout(timer);
    timer = window.setTimeout(() => (said.textContent = ""), SAID_MS);
  };
  $("p-copy").addEventListener("click", async () => {
    const link = /** @type {HTMLInputElement} */ ($("p-link"));
    try {
      await navigator.clipboard.writeText(link.value);
      say("practice.copied");
    } catch {
      link.select();
      say(touchFirst() ? "practice.copyByHandTouch" : "practice.copyByHand");
    }
  });
}
