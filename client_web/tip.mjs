// Words that explain a mark ("512?"), reachable by a finger as well as a mouse.
//
// A `title` shows only on hover, and a phone never hovers: there the question mark of a
// provisional rating explained nothing. An element marked by `tipAttrs` keeps its title for
// the mouse and also opens its words in one shared bubble on a tap, a click, Enter or
// Space, and follows it as the page scrolls; the next tap elsewhere or Esc closes it. The words live in
// the element's own attribute, so a view that redraws the element every second (the
// seats at a table) needs nothing more: one listener on the document serves them all.
// The rule marks in small print ("R3, O6") are such marks: their words are the rules' names.

import { onLanguage, t } from "./i18n/index.mjs";

/**
 * The attributes that make an element explain itself. `key` names the mark for good (a
 * seat, a player on a list): a view drawn anew puts another element in its place, and the
 * open bubble follows the one with its key, not the first with the same words.
 * @param {string} text @param {string} [key]
 */
export function tipAttrs(text, key = text) {
  return { "data-tip": text, "data-tip-key": key, title: text, tabindex: "0", role: "button", "aria-expanded": "false" };
}

/** @type {HTMLElement | null} */
let bubble = null;
/** @type {HTMLElement | null} */
let anchor = null;

/** Follows the page while a bubble is open: its element may be drawn anew or go (only
 * then is the layout read again: the clocks rewrite their text every frame). Made with
 * the first bubble: `tipAttrs` is read where there is no page (node's tests). */
/** @type {MutationObserver | null} */
let watcher = null;

function hideTip() {
  if (bubble) bubble.hidden = true;
  anchor?.setAttribute("aria-expanded", "false");
  anchor = null;
  watcher?.disconnect();
}

/** Opens the bubble for the element. @param {HTMLElement} el */
function showTip(el) {
  if (!bubble) {
    bubble = document.createElement("div");
    bubble.id = "tip";
    bubble.className = "tip";
    // Read out when it opens, as the title would have been on hover.
    bubble.setAttribute("role", "status");
    document.body.append(bubble);
  }
  hideTip();
  anchor = el;
  bubble.textContent = el.dataset.tip ?? "";
  bubble.hidden = false;
  el.setAttribute("aria-expanded", "true");
  watcher ??= new MutationObserver(() => {
    if (anchor && !anchor.isConnected) requestAnimationFrame(place);
  });
  watcher.observe(document.body, { childList: true, subtree: true });
  place();
}

/** The element now standing for the open bubble's: itself, the same words drawn anew
 * (the seats are drawn every second), or none (the list it was in is gone). */
function current() {
  if (!anchor || anchor.isConnected) return anchor;
  const key = anchor.dataset.tipKey;
  // (one on the screen: the lobby's list, out of sight behind a table, has the same marks)
  return [...document.querySelectorAll("[data-tip]")].find((e) => e instanceof HTMLElement && e.dataset.tipKey === key && e.getClientRects().length > 0) ?? null;
}

/** Keeps the open bubble beside its element as the page scrolls or resizes. */
function place() {
  if (!bubble || !anchor) return;
  const now = current();
  if (!now || now.getClientRects().length === 0) return hideTip(); // gone, or out of sight
  anchor = /** @type {HTMLElement} */ (now);
  anchor.setAttribute("aria-expanded", "true");
  const at = anchor.getBoundingClientRect();
  const size = bubble.getBoundingClientRect();
  const margin = 8;
  // Under the element or, without room, over it; inside the screen.
  const left = Math.min(Math.max(margin, at.left + at.width / 2 - size.width / 2), window.innerWidth - size.width - margin);
  const below = at.bottom + 6;
  const top = below + size.height + margin <= window.innerHeight ? below : Math.max(margin, at.top - 6 - size.height);
  bubble.style.left = `${Math.round(left)}px`;
  bubble.style.top = `${Math.round(top)}px`;
}

/** Listens once, on the document, for every explained element of the page. */
export function installTips() {
  document.addEventListener("click", (e) => {
    const el = /** @type {HTMLElement | null} */ (e.target instanceof Element ? e.target.closest("[data-tip]") : null);
    // A second tap on the mark closes its words, drawn anew since or not.
    if (el && el !== current()) showTip(el);
    else hideTip();
  });
  // (before the page's own keys: an Esc that closes the words does nothing else)
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && anchor) {
      hideTip();
      e.preventDefault();
      return;
    }
    const el = /** @type {HTMLElement | null} */ (e.target instanceof HTMLElement && e.target.matches("[data-tip]") ? e.target : null);
    if (el && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      if (el === current()) hideTip();
      else showTip(el);
    }
  }, true);
  addEventListener("scroll", place, { passive: true, capture: true });
  addEventListener("resize", place);
}

/**
 * The words of a rule mark: each id with the rule's name from the catalogue ("R3: who
 * breaks; O6: the lag"), "" when none is named.
 * @param {readonly string[]} ids
 */
export function ruleWords(ids) {
  return ids.filter((id) => t(`rule.${id}`) !== `rule.${id}`).map((id) => `${id}: ${t(`rule.${id}`)}`).join("; ");
}

/**
 * The attributes of a rule mark: its words for the mouse and for a finger (a phone read
 * "R3, O6" and "O4" as codes it could not look up), but no stop for the keys — a log has
 * one on every line, and the same words are in each line's title.
 * @param {readonly string[]} ids
 * @returns {Record<string, string>}
 */
export function ruleTipAttrs(ids) {
  const words = ruleWords(ids);
  if (!words) return {};
  return { "data-tip": words, "data-tip-key": `rule:${ids.join(",")}`, title: words };
}

/** Explains the page's own rule marks (its HTML's `small.rule`: the concession's "O4", the
 * lag's "O6"…) in the language shown, now and after every change of language. A mark in a
 * control (the push-out's check box, its chip) keeps to a title: a click there is the
 * control's (it armed the push-out and closed the words it had opened). */
export function installRuleMarks() {
  const explain = () => {
    for (const mark of document.querySelectorAll("small.rule")) {
      const attrs = ruleTipAttrs((mark.textContent ?? "").split(/,\s*/).filter(Boolean));
      const inControl = !!mark.closest("label, button, summary, a");
      for (const [k, v] of Object.entries(attrs)) if (!inControl || k === "title") mark.setAttribute(k, v);
    }
  };
  explain();
  onLanguage(explain);
}
