// Small DOM helpers shared by the views.

import { ServerError } from "./net.mjs";

/** @template {HTMLElement} T @param {string} id @returns {T} */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing element #${id}`);
  return /** @type {T} */ (el);
}

/** @param {string} tag @param {Record<string, string>} [attrs] @param {(Node | string)[]} [children] */
export function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const c of children) el.append(c);
  return el;
}

/** @param {unknown} err */
export function toast(err) {
  const el = $("toast");
  el.textContent = err instanceof ServerError ? err.msg || err.code : String(err instanceof Error ? err.message : err);
  el.hidden = false;
  clearTimeout(/** @type {any} */ (el).timer);
  /** @type {any} */ (el).timer = setTimeout(() => (el.hidden = true), 4000);
}
