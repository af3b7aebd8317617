// What a player may do at the table once their match is over, besides the result
// dialog: play again (a rematch, asked of the opponent), or — a tournament's match being
// one match with no rematch — go back to its bracket, where their next match is or where
// they see how far they came. On a desktop these sit with the table's actions; on a phone
// the sheet is closed, so they stand on the table itself (`#over-controls`) once the
// result is dismissed or after a reload, which shows none. A tournament's table links
// its bracket from the menu all along.

import { $ } from "./dom.mjs";
import { keepLang, t } from "./i18n/index.mjs";
import { app, names, tournamentMatch } from "./state.mjs";

/**
 * The card says no words of its own: the status box beside or above the table says how
 * the match ended (the card said it a second time, "Match over." twice on a phone).
 * @param {{me: number | null, player: boolean, over: boolean}} at the reader's seat,
 *   whether they play here, and whether the match is over
 */
export function renderMatchOver({ me, player, over }) {
  const tournament = tournamentMatch() ? app.view?.settings?.tournament ?? null : null;
  $("rematch").hidden = !(player && over) || tournamentMatch();
  const back = /** @type {HTMLAnchorElement} */ ($("tournament-back"));
  back.hidden = !(player && over && tournament);
  const bracket = tournament ? keepLang(`/tournament/${encodeURIComponent(tournament)}`) : "";
  if (tournament) back.href = bracket;
  // The way out beside them (it was in the menu only, under "Leave table", once the
  // result was closed).
  $("panel-lobby").hidden = !(player && over);
  // While it is played too, for players and spectators alike, from the menu: in a tab of
  // its own (the bracket's page says no hello, and the table stays as it is here).
  const menu = /** @type {HTMLAnchorElement} */ ($("more-tournament"));
  menu.hidden = !tournament;
  if (tournament) menu.href = bracket;
  const rematchAsked = (app.view?.rematch ?? []).includes(me);
  const otherAsked = me !== null && (app.view?.rematch ?? []).includes(1 - me);
  // The opponent has left the finished match's table: there is nobody to play again.
  const gone = me !== null && !app.view?.seats[1 - me];
  $("rematch").textContent = gone ? t("result.opponentLeft") : rematchAsked ? t("result.rematchAsked") : otherAsked ? t("result.rematchWanted", { name: names()[1 - (me ?? 0)] }) : t("result.rematch");
  const rematchOff = rematchAsked || gone;
  /** @type {HTMLButtonElement} */ ($("rematch")).disabled = rematchOff;
  for (const id of ["rematch", "over-rematch", "result-rematch"]) $(id).classList.toggle("asked", rematchAsked && !gone);
  // The result dialog's own Rematch says the same while it is open.
  const resultRematch = /** @type {HTMLButtonElement} */ ($("result-rematch"));
  if (!resultRematch.hidden) {
    resultRematch.textContent = $("rematch").textContent;
    resultRematch.disabled = rematchOff;
  }
  const card = $("over-controls");
  card.hidden = ($("rematch").hidden && back.hidden) || /** @type {HTMLDialogElement} */ ($("result-dialog")).open;
  if (card.hidden) return;
  const again = /** @type {HTMLButtonElement} */ ($("over-rematch"));
  again.hidden = $("rematch").hidden;
  again.textContent = $("rematch").textContent;
  again.disabled = rematchOff;
  const overBack = /** @type {HTMLAnchorElement} */ ($("over-tournament"));
  overBack.hidden = back.hidden;
  overBack.href = back.href;
}
