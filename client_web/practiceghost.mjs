// The ghost drill's box beside the practice table: the score against the ghost (racks won
// and lost) and how this rack stands, with the button for the next rack. The server keeps
// the score (`server/rooms/practice.py`, `ghost_after`); this only draws it.

import { $ } from "./dom.mjs";
import { num, t } from "./i18n/index.mjs";

/**
 * Draws the ghost drill's score and this rack's standing; hides the box for any other drill.
 * @param {{ won: number, lost: number, rack: "playing" | "won" | "lost" } | null} ghost
 * @param {boolean} mine the reader plays at this table (only they may rack the next one)
 */
export function renderGhost(ghost, mine) {
  const box = $("p-ghost");
  box.hidden = !ghost;
  /** @type {HTMLButtonElement} */ ($("p-ghost-next")).disabled = !mine || !ghost;
  if (!ghost) return;
  $("p-ghost-score").textContent = t("practice.ghost.score", { won: num(ghost.won), lost: num(ghost.lost) });
  const rack = $("p-ghost-rack");
  rack.textContent = t(`practice.ghost.${ghost.rack}`);
  rack.className = `practice-ghost-rack ${ghost.rack === "won" ? "good" : ghost.rack === "lost" ? "foul" : "help"}`;
}
