// The connection's state in the top bar ("Online", "Reconnecting…"), and what to do
// when another tab took the seat over or the server cannot be reached for good.

import { $, toast } from "./dom.mjs";
import { t } from "./i18n/index.mjs";

/** @param {string} s the connection's state @param {{ replaced: boolean, fatal: boolean }} conn */
export function showConn(s, conn) {
  const el = $("conn");
  el.className = `conn conn-${s}`;
  el.textContent = t(`conn.${s}`);
  // Lost and coming back: said over the page, not only in the top bar (a phone held
  // sideways has none, and a player whose network went away saw nothing amiss).
  const lost = $("conn-lost");
  lost.hidden = s !== "reconnecting";
  lost.textContent = t("conn.lost");
  // Another tab took over: this one plays again only when asked to (each retaking the seat
  // by itself, two tabs would take it back and forth).
  $("play-here").hidden = !(s === "offline" && conn.replaced);
  if (s === "offline" && conn.replaced) {
    el.textContent = t("conn.otherTab");
    toast(t("conn.replaced"));
  }
  if (s === "offline" && conn.fatal) toast(t("conn.fatal"));
}
