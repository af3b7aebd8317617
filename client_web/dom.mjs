// Small DOM helpers shared by the views.

import { t } from "./i18n/index.mjs";
import { ServerError } from "./net.mjs";

/** @template {HTMLElement} T @param {string} id @returns {T} */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing element #${id}`);
  return /** @type {T} */ (el);
}

/**
 * A name that may wrap after each of its hyphens: a line may not break between a hyphen and
 * a digit (a minus sign), so "Игрок-6446" too narrow for its room broke as "Игрок-644 / 6".
 * @param {string} name @returns {(Node | string)[]}
 */
export function hyphenBreaks(name) {
  // (No lookbehind in the pattern: Safari before 16.4 cannot read one, and nothing would load.)
  return name.split("-").flatMap((part, i, all) => [...(i ? [document.createElement("wbr")] : []), i < all.length - 1 ? `${part}-` : part]);
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

/** @param {unknown} err @param {"error" | "info"} [kind] */
export function toast(err, kind = "error") {
  const el = $("toast");
  el.className = `toast ${kind}`;
  el.textContent = err instanceof ServerError ? errorText(err.code) : String(err instanceof Error ? err.message : err);
  el.hidden = false;
  clearTimeout(/** @type {any} */ (el).timer);
  /** @type {any} */ (el).timer = setTimeout(() => (el.hidden = true), 4000);
}

/** A server error code in the reader's language (the code itself stays a code). @param {string} code */
export function errorText(code) {
  const key = `err.${code}`;
  const text = t(key);
  return text === key ? t("err.unknown", { code }) : text;
}
