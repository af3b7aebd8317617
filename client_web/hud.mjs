// What the table view shows besides the balls: the scoreboard, the clock, the banner,
// the verdict above the table (its prompt is `prompt.mjs`), the panels that fit the
// moment, the log and the results (the chat is `chat.mjs`). Reads the state; changes
// nothing but the page.

import { ratingText } from "./account.mjs";
import { powerPercent, speedFromPower } from "./controls.mjs";
import { $, h, hyphenBreaks } from "./dom.mjs";
import { RATED_QUICK_NAME, describeFormat, isDecider, lagTimes, roomName } from "./formats.mjs";
import { keepLang, lang, list, minutesAndSeconds, num, t, wordAs } from "./i18n/index.mjs";
import { app, breakDrawn, canShoot, leftName, mySeat, names, onTv, othersAim, status, touchFirst, tournamentMatch } from "./state.mjs";
import { BALL_COLOURS, TABLE } from "./table.mjs";
import { forfeitIn, keptName } from "./kept.mjs";
import { renderRatingLine } from "./ratingchange.mjs";
import { describeLag, describeWarning, withRules } from "./verdict.mjs";
import { drawStrip } from "./strip.mjs";
import { describeReach } from "./reach.mjs";
import { ruleTipAttrs, tipAttrs } from "./tip.mjs";
import { fitName } from "./seatname.mjs";
import { renderBadge } from "./chat.mjs";
import { renderMatchOver } from "./matchover.mjs";
import { prompt } from "./prompt.mjs";

/** @typedef {import("./state.mjs").Msg} Msg */
/** @typedef {import("./aim.mjs").Vec} Vec */
/** @typedef {import("./verdict.mjs").Line} Line */

/**
 * Rule ids in small print after the plain words, each rule's name in the reader's words
 * on hover ("R8: wrong ball first"). @param {string[]} rules
 */
function rulePrint(rules) {
  const ids = rules.flatMap((r) => (r ? r.split(/,\s*/) : []));
  return ids.length ? [" ", h("small", { class: "rule", text: ids.join(", "), ...ruleTipAttrs(ids) })] : [];
}

/**
 * Adds a line to the log and, unless `aside`, makes it the verdict shown above the table;
 * screen readers hear it through the live region unless `quiet` (a log rebuilt); `link`
 * (the replay of a game the line ends) follows its words.
 * @param {import("./verdict.mjs").Described} d
 * @param {{ aside?: boolean, quiet?: boolean, link?: { href: string, text: string } | null }} [opts]
 */
export function log(d, opts = {}) {
  const { headline: text, tone, details, rules } = d;
  if (!opts.aside) app.lastVerdict = { text, tone, rules, next: d.next ?? null };
  const li = h("li", { class: tone }, [text, ...rulePrint(rules)]);
  for (const x of details) li.append(h("span", { class: "detail" }, [x.text, ...rulePrint([x.rule])]));
  // (in a tab of its own, as the result's: in the page itself it took a player away from
  // the table while their shot clock ran)
  if (opts.link) li.append(" ", h("a", { class: "log-replay", href: opts.link.href, target: "_blank", rel: "noopener", text: opts.link.text }));
  const ol = $("log");
  ol.prepend(li);
  while (ol.children.length > 60) ol.lastChild?.remove();
  if (!opts.quiet) announce(withRules(text, rules));
}

/** Says `text` to screen readers (polite live region). @param {string} text */
export function announce(text) {
  const el = $("announce");
  el.textContent = "";
  // A new text node each time, so the same words twice are still read out.
  setTimeout(() => (el.textContent = text), 30);
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let resultTimer;

/** A game result stays up at least this long, even when the pause between games is
 * over by the time it shows (a tab brought back, a long shot still playing). */
const RESULT_AT_LEAST_MS = 2500;

/**
 * Between two games on a phone held sideways, the result stops short of the strip, whose
 * cue waits at its top for the break (also as the phone turns: `wireTableControls`); on a
 * wide one, where it stands in the column left of the table (`sideways.css`), it starts
 * under the scoreboard: over it, it left a slice of the first seat showing, its score and
 * its border without its name.
 */
export function placeResult() {
  const dlg = $("result-dialog");
  const strip = $("strip");
  const between = dlg.classList.contains("between");
  const beside = between && matchMedia("(orientation: landscape)").matches && !strip.hidden;
  dlg.style.right = beside ? `${Math.max(0, innerWidth - strip.getBoundingClientRect().left)}px` : "";
  // (that column is the prompt's, laid out beside the table rather than above it)
  const column = between && $("status").getBoundingClientRect().right <= $("table").getBoundingClientRect().left;
  dlg.style.top = column ? `${Math.round($("seat0").parentElement?.getBoundingClientRect().bottom ?? 0)}px` : "";
}

/**
 * Shows a game or match result. A game result closes by itself when the pause between
 * games ends (`next.at`, server time: the next break's clock starts then), counting down
 * to it and naming the breaker; from a server that does not say, after five seconds.
 * The match result stays until dismissed (it offers the rematch).
 * @param {string} title @param {{ names: string[], score: number[] } | null} score the racks won, by seat (none: a match never played)
 * @param {string} text @param {boolean} match
 * @param {{ href: string, key: string, args: Record<string, number> } | null} [replay] the rack's replay page (to watch again or share) and its link's words
 * @param {{ at: number, breaker: string, mine: boolean } | null} [next] the next game: when its break is due, who breaks (`mine`: the player reading it)
 */
export function showResult(title, score, text, match, replay = null, next = null) {
  const dlg = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  $("result-title").textContent = title;
  // The names apart from the numbers: "Bot 2 1 : 0 Ana" read as "Bot 21".
  const scoreLine = score ? t("result.score", { a: score.names[0], sa: num(score.score[0]), sb: num(score.score[1]), b: score.names[1] }) : "";
  $("result-score").setAttribute("aria-label", scoreLine);
  $("result-score").replaceChildren(
    ...(score
      ? [h("span", { class: "result-name" }, hyphenBreaks(score.names[0])), h("span", { class: "result-numbers", text: `${num(score.score[0])} : ${num(score.score[1])}` }), h("span", { class: "result-name" }, hyphenBreaks(score.names[1]))]
      : []),
  );
  $("result-text").textContent = text;
  const link = /** @type {HTMLAnchorElement} */ ($("result-replay"));
  link.hidden = !replay;
  if (replay) {
    link.href = new URL(keepLang(replay.href), location.origin).href; // (in the page's `?lang=`, as the log's link)
    wordAs(link, replay.key, replay.args); // worded again as it was on a change of language
  }
  // A match over: the whole match too, every game of it, step by step.
  const whole = /** @type {HTMLAnchorElement} */ ($("result-replay-match"));
  whole.hidden = !(match && app.room && score); // (no score: a match never played)
  // In this page (its language kept, no reload); shared, the address carries it.
  // That match only: after a rematch the room's record holds both.
  if (match && app.room) whole.href = `#/replay/${encodeURIComponent(app.room)}/${app.view?.match || 1}/all`;
  // A tournament's match is one match (its seats kept for its players): no rematch, but
  // the way back to its bracket, where the next match is.
  $("result-rematch").hidden = !(match && mySeat() !== null && !tournamentMatch());
  const tournament = app.view?.settings?.tournament;
  const back = /** @type {HTMLAnchorElement} */ ($("result-tournament"));
  back.hidden = !(match && tournament);
  if (tournament) back.href = keepLang(`/tournament/${encodeURIComponent(tournament)}`);
  dlg.classList.toggle("match", match);
  // Between games play goes on; after the match "Continue" read as playing on.
  wordAs($("result-close"), match ? "result.closeMatch" : "result.close");
  // Between two games on a phone the result stands over the scoreboard, clear of the
  // cloth, and leaves the table to the breaker's finger (a card in the middle took the
  // taps meant for the table, its replay's link among them); a touch on the table closes it.
  const between = !match && !!next && document.documentElement.classList.contains("compact");
  if (dlg.open && dlg.classList.contains("between") !== between) dlg.close(); // opened anew, the other way
  dlg.classList.toggle("between", between);
  // The TV's viewers follow the channel, not the table: a player's ways on (rematch, the
  // tournament, replays, continue) are not theirs, and the channel moves on by itself.
  dlg.classList.toggle("tv", onTv());
  renderRatingLine();
  clearTimeout(resultTimer);
  const line = $("result-next");
  line.hidden = true;
  line.classList.remove("champion");
  if (!match) {
    const closeAt = next ? Math.max(next.at, app.serverNow() + RESULT_AT_LEAST_MS) : app.serverNow() + 5000;
    const tick = () => {
      if (!dlg.open) return;
      const left = closeAt - app.serverNow();
      if (left <= 0) return dlg.close();
      if (next) {
        line.hidden = false;
        const s = num(Math.ceil(left / 1000), 0);
        line.textContent = next.mine ? t("result.nextYou", { s }) : t("result.next", { s, name: next.breaker });
      }
      resultTimer = setTimeout(tick, Math.min(1000, left % 1000 || 1000));
    };
    resultTimer = setTimeout(tick, 0);
  }
  // The sheet over the table (log, chat, menu) gives way to the table and its result.
  if (between && app.panelOpen) setPanel(false);
  placeResult();
  if (!dlg.open) {
    // The table's own questions (leave, concede) are moot once its result is in.
    for (const id of ["leave-dialog", "concede-dialog"]) /** @type {HTMLDialogElement} */ ($(id)).close();
    if (between || app.role === "spectator" || document.querySelector("dialog:modal")) {
      // A notice, not a stop: someone watching (on TV too) may be signing in or reading
      // the leaderboard when a rack ends, and a modal result took the page and the keys
      // from them. It shows over the table, leaves the page usable, takes no focus.
      dlg.classList.toggle("notice", !between);
      const had = /** @type {HTMLElement | null} */ (document.activeElement);
      dlg.show(); // (which focuses the dialog's first button: the focus goes back)
      if (had && had !== document.body) had.focus({ preventScroll: true });
      else /** @type {HTMLElement | null} */ (document.activeElement)?.blur();
    } else {
      dlg.classList.remove("notice");
      dlg.showModal();
      // The keys land on what most want next: the rematch after a match, else Continue
      // (a modal dialog would otherwise focus its first link, the replay).
      const rematch = $("result-rematch");
      (match && !rematch.hidden ? rematch : $("result-close")).focus();
    }
  }
  announce(`${title} ${scoreLine}`);
}

/** The extension button the clock's warning carries (kept: it lives in and out of it). @type {HTMLElement | null} */
let extendChipEl = null;
const extendChip = () => (extendChipEl ??= $("extend-chip"));

export function renderSeats() {
  const v = app.view;
  const tb = app.table;
  const n = names();
  const spectator = app.role === "spectator";
  // A match with extensions gives each seat a fourth line of tags (its extensions left):
  // kept for it from the start on an upright phone, so the table does not shrink the
  // first time a seat has all four.
  // (Extensions are a shot clock's: without one the tag never shows.)
  $("seat0").parentElement?.classList.toggle("extensions", (v?.settings?.extensions ?? 0) > 0 && v?.settings?.shot_clock != null);
  for (const i of [0, 1]) {
    const el = $(`seat${i}`);
    const s = v?.seats?.[i];
    const tags = [];
    // A replayed shot is its shooter's, whoever's turn it is now.
    const replayed = app.anim?.shooter ?? null;
    const isTurn = !!tb && status() === "playing" && (replayed ?? tb.turn) === i && !tb.match_over;
    if (isTurn) tags.push(h("span", { class: "tag turn", text: t(app.anim ? "tag.shooting" : tb.choice_pending ? "tag.toChoose" : i === mySeat() ? "tag.toShootYou" : "tag.toShoot") }));
    if (isTurn && tb.ball_in_hand && !app.anim) tags.push(h("span", { class: "tag bih", text: t(tb.ball_in_hand === "kitchen" ? "tag.bihKitchen" : "tag.bih") }));
    // An empty seat has nobody to warn, a match over nobody to warn of anything.
    const fouls = s && !tb?.match_over && status() !== "finished" ? (tb?.fouls?.[i] ?? 0) : 0;
    if (fouls > 0) {
      // One foul is not yet "in a row" ("1 faul zaredom" read oddly): said so from the second.
      const text = fouls === 1 ? t("tag.oneFoul") : t("tag.fouls", { n: fouls });
      tags.push(h("span", { class: "tag foul", text: (tb?.warned ?? []).includes(i) ? t("tag.warned", { fouls: text }) : text }));
    }
    if (tb && tb.breaker === i && status() === "playing" && tb.ball_in_hand === "kitchen") tags.push(h("span", { class: "tag breaker", text: t("tag.breaker") }));
    if (s && !s.connected) {
      const left = s.grace_until ? Math.max(0, Math.round((s.grace_until - app.serverNow()) / 1000)) : null;
      // On a phone the plate's tags are one short line: the time left whole, not cut off
      // ("away — back within…" hid the one figure its opponent needed).
      const words = document.documentElement.classList.contains("compact") ? "tag.awayShort" : "tag.awayFor";
      tags.push(h("span", { class: "tag off", text: left !== null ? t(words, { time: t("unit.seconds", { s: num(left, 0) }) }) : t("tag.away") }));
    }
    if (s && status() === "waiting") tags.push(h("span", { class: "tag", text: t(s.ready ? "tag.ready" : "tag.notReady") }));
    // O3: each player's extensions left in this rack, for everyone to see.
    const clock = tb?.clock;
    if (s && clock && status() === "playing" && (v?.settings?.extensions ?? 0) > 0) {
      tags.push(h("span", { class: "tag ext", "data-extensions": String(clock.extensions?.[i] ?? 0), text: (clock.extensions?.[i] ?? 0) > 0 ? t("tag.extensions", { n: clock.extensions?.[i] ?? 0 }) : t("tag.noExtensions") }));
    }
    // In its two parts, either side of the words' " · ": an upright phone puts them on two
    // lines ("компьютер · / уровень 4" had wrapped after the dot).
    const parts = s && s.computer != null ? t("tag.computer", { level: s.computer }).split(" · ") : [];
    if (parts.length) tags.push(h("span", { class: "tag computer" }, parts.flatMap((p, k) => [...(k ? [h("span", { class: "sep", text: " · " })] : []), h("span", { text: p })])));
    // First: short, it shares the first line with the next tag (a phone's seat keeps its height).
    if (i === mySeat()) tags.unshift(h("span", { class: "tag you", text: t("tag.you") }));
    const score = tb?.score?.[i] ?? 0;
    // A tournament's empty seat names the player it waits for ("not here yet"); once the
    // match is over, its player, who has gone (their seat freed as they left) or never
    // came (a walkover): named, with no tag that could be wrong.
    // A finished match's player who has left still holds their score, by name.
    const awaited = s ? null : (keptName(i) ?? leftName(i));
    const over = status() === "finished" || !!tb?.match_over;
    if (awaited && !over) tags.push(h("span", { class: "tag off", text: t("seat.notHere") }));
    else if (awaited && !keptName(i)) tags.push(h("span", { class: "tag off", text: t("rooms.left") }));
    /** @type {(Node | string)[]} */
    const who = [h("span", { class: "name", text: s ? n[i] : (awaited ?? t("seat.empty")) }), h("div", { class: "tags" }, tags)];
    if (s && s.rating !== null && s.rating !== undefined) {
      const explained = s.provisional ? tipAttrs(t("account.provisionalHelp"), `seat${i}`) : { title: t("account.rating") };
      who.splice(1, 0, h("span", { class: "rating", ...explained, text: ratingText(s.rating, s.provisional) }));
    }
    // A tournament's match keeps each seat for its player: nobody else is offered it.
    const kept = v?.settings?.reserved?.[i];
    if (!s && spectator && status() === "waiting") {
      if (!kept || kept === app.welcome?.player) {
        who.push(h("button", { type: "button", class: "primary small sit", "data-sit": String(i), text: t("seat.sit") }));
      } else if (!awaited) {
        who.push(h("span", { class: "tag kept", text: t("seat.kept") }));
      }
    }
    el.replaceChildren(
      h("span", { class: `dot${!s ? " empty" : !s.connected ? " off" : ""}`, role: "img", "aria-label": t(!s ? "seat.empty" : s.connected ? "seat.connected" : "seat.disconnected") }),
      h("div", { class: "who" }, who),
      h("span", { class: "score", "aria-hidden": "true", text: num(score) }),
    );
    fitName(/** @type {HTMLElement} */ (el.querySelector(".name")), `seat${i}-name`, num(score));
    el.classList.toggle("turn", isTurn);
    el.setAttribute("aria-label", t(isTurn ? "seat.scoreTurn" : "seat.score", { name: s ? n[i] : (awaited ?? t("seat.empty")), n: score }));
  }
  const race = v?.settings?.race_to ?? 0;
  const rack = tb?.rack ?? 0;
  // Once the match is over its last game's number would read as a game still to play.
  const matchOver = status() === "finished" || !!tb?.match_over;
  // Both a game from the match ("hill-hill"): this game decides it, and the header says so.
  const decider = !!rack && isDecider(race, tb?.score ?? [], matchOver);
  const line = t(matchOver ? "match.lineOver" : decider ? "match.lineDecider" : rack ? "match.lineRack" : "match.line", { race, rack });
  $("match-line").textContent = v?.settings?.name ? t("match.named", { name: roomName(v.settings.name, v.settings), line }) : line;
  // A rated match says so first: the ratings it moves are what its players play for.
  const format = v?.settings ? describeFormat(v.settings) : "";
  const saysRated = v?.settings?.name === RATED_QUICK_NAME; // its name already says so
  $("format-line").textContent = v?.settings?.rated && !saysRated ? `${t("format.rated")} · ${format}` : format;
  $("spectators").textContent = v ? t("spectators", { n: v.spectators }) : "";
  renderRackBalls();
  holdScoreboardHeight();
}

/** The scoreboard's tallest height so far, for this room's match at this window size. */
let held = { key: "", height: 0 };

/** The scoreboard may grow but does not shrink back while a room is shown at one window
 * size: a tag that comes and goes between turns ("to shoot", a computer's level, ball in
 * hand) would otherwise move the table, and the aim point under a finger, each turn. */
function holdScoreboardHeight() {
  const board = $("seat0").parentElement;
  if (!board) return;
  // (a rematch afresh: the finished match's tags held it tall over the sideways lag card)
  const key = `${app.room ?? ""} ${app.view?.match ?? 0} ${window.innerWidth}x${window.innerHeight}`;
  if (key !== held.key) {
    held = { key, height: 0 };
    board.style.minHeight = "";
  }
  const height = board.getBoundingClientRect().height;
  if (height > held.height) {
    held.height = height;
    board.style.minHeight = `${height}px`;
  }
}
// A phone turned on its side lays its scoreboard out anew at once: the height held the
// other way up (a portrait seat's lines of tags) took the table's room, and the power
// strip's, until the seats were next drawn.
addEventListener("resize", holdScoreboardHeight);

/** The nine object balls, dimmed once down, the lowest one ringed. */
export function renderRackBalls() {
  const tb = app.table;
  const box = $("rack-balls");
  box.replaceChildren();
  if (!tb || status() !== "playing") {
    box.removeAttribute("role");
    box.removeAttribute("aria-label");
    return;
  }
  const on = [];
  for (let n = 1; n <= 9; n++) {
    const here = !!tb.balls?.[n];
    if (here) on.push(n);
    const colour = BALL_COLOURS[n];
    const style = n === 9 ? `background: linear-gradient(#fff 0 22%, ${colour} 22% 78%, #fff 78%)` : `background: ${colour}`;
    box.append(
      h("span", { class: `mini-ball${here ? "" : " gone"}${n === tb.lowest ? " lowest" : ""}`, style, "aria-hidden": "true" }, [
        h("span", { text: String(n) }),
      ]),
    );
  }
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", t("table.ballsOn", { balls: on.length ? list(on) : t("table.none") }));
}

/** The turn being timed, and the shooter's extensions when it was first seen. */
let timedTurn = { key: "", extensions: 0 };

/**
 * The most the clock may show: the turn's time plus the extensions taken in it. The
 * server's deadline also holds its estimate of how long the shot before played out, and
 * a shot watched faster (or skipped) would otherwise show "1:03" on a 60-second clock.
 * @param {{ seconds: number, extension?: number, extensions?: number[] }} c
 */
function clockCap(c) {
  const turn = app.table?.turn ?? 0;
  const key = `${app.room}:${app.table?.rack}:${app.rackShots.count}:${turn}`;
  const now = c.extensions?.[turn] ?? 0;
  if (timedTurn.key !== key) timedTurn = { key, extensions: now };
  return c.seconds + (c.extension ?? 0) * Math.max(0, timedTurn.extensions - now);
}

/** Seconds left on a running shot clock (never more than its cap). @param {any} c */
function clockLeft(c) {
  return Math.min(clockCap(c), Math.max(0, (c.deadline - app.serverNow()) / 1000));
}

/** The lag winner's time left to choose who breaks, counting down in the dialog (the
 * winner breaks when it runs out). */
export function renderLagLeft() {
  const el = $("lag-left");
  const until = app.view?.lag_choice_until;
  const open = /** @type {HTMLDialogElement} */ ($("lag-dialog")).open;
  el.hidden = !until || !open;
  if (el.hidden) return;
  el.textContent = t("lagwin.left", { s: num(choiceLeft() ?? 0, 0) });
}

/** Whole seconds left until `until` (epoch ms), never more than `allowed`: the room's time
 * ends after the lag's animation as the server times it, and a page that played it faster
 * (or skipped it) has that on top (it read 61 s on a 60 s clock). */
const secondsTo = (/** @type {number} */ until, /** @type {number} */ allowed) => Math.min(allowed, Math.max(0, Math.ceil((until - app.serverNow()) / 1000)));
/** Seconds left to play the lag (O6: a room with a shot clock times it), while its time
 * runs; null otherwise. */
function lagLeft() {
  const v = app.view;
  const allowed = lagTimes(v?.settings).lag;
  if (status() !== "lag" || !v?.lag_until || allowed === null || v.lag_choice != null || app.anim) return null;
  return secondsTo(v.lag_until, allowed);
}
/** Seconds left to the lag winner to choose who breaks (then they break); null otherwise. */
function choiceLeft() {
  const v = app.view;
  if (status() !== "lag" || v?.lag_choice == null || !v.lag_choice_until || app.anim) return null;
  return secondsTo(v.lag_choice_until, lagTimes(v.settings).choice);
}

export function renderClock() {
  drawClock();
  // The sheet's bar says it too: held sideways, the open sheet covers the scoreboard, and
  // a player reading the log or the menu there let their time run out unseen.
  const el = $("clock");
  const bar = $("panel-clock");
  bar.hidden = el.hidden;
  bar.textContent = el.hidden ? "" : el.textContent;
  bar.classList.toggle("low", el.classList.contains("low"));
}

function drawClock() {
  const el = $("clock");
  const c = app.table?.clock;
  // A tournament's table waiting for a player: when one who has not come forfeits.
  const noShow = status() === "waiting" && tournamentMatch() && (!app.view?.seats?.[0] || !app.view?.seats?.[1]) ? forfeitIn() : null;
  if (noShow !== null) {
    el.hidden = false;
    // The one player not seated is named (bare, the one seated read the clock as theirs).
    const away = [0, 1].filter((i) => !app.view?.seats?.[i]).map(keptName);
    el.textContent = away.length === 1 && away[0] ? t("clock.forfeitName", { name: away[0], time: minutesAndSeconds(noShow) }) : t("clock.forfeit", { time: minutesAndSeconds(noShow) });
    el.classList.toggle("low", noShow <= 30);
    el.removeAttribute("aria-label");
    return;
  }
  const lag = lagLeft();
  const choice = choiceLeft();
  if (lag !== null || choice !== null) {
    // The lag is timed for both players at once: a lag not played in time does not count;
    // its winner's choice is timed for everyone to see (then the winner breaks).
    const left = lag ?? choice ?? 0;
    el.hidden = false;
    el.textContent = t(lag !== null ? "clock.lag" : "clock.choice", { time: minutesAndSeconds(left) });
    el.classList.toggle("low", left <= 10);
    el.setAttribute("aria-label", t(lag !== null ? "clock.lagLabel" : "clock.choiceLabel", { n: left }));
    return;
  }
  if (!c || status() !== "playing") {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  if (typeof c.left === "number" && !app.anim) {
    // Stopped for a shooter who is away: the time they keep for their return.
    el.textContent = t("clock.paused", { time: minutesAndSeconds(Math.ceil(c.left)) });
    el.classList.remove("low");
    el.setAttribute("aria-label", t("clock.pausedLabel", { n: Math.ceil(c.left) }));
    return;
  }
  if (c.deadline === null || c.paused || app.anim) {
    // Read as the running clock reads ("1:00", not "60 s"): the same clock, not started.
    el.textContent = minutesAndSeconds(c.seconds);
    el.classList.remove("low");
    return;
  }
  const left = clockLeft(c);
  const s = Math.ceil(left);
  const time = minutesAndSeconds(s);
  // The clock's warning over the table counts down with it (it said "10 s left" to the end).
  const words = document.querySelector("#banner.clock .clock-words");
  if (words && words.textContent !== clockWords(s)) words.textContent = clockWords(s);
  // Within the room's warning time the clock says whose time is running out.
  const warning = c.warning ?? 10;
  const low = warning > 0 && left <= warning;
  const turn = app.table?.turn;
  const who = low && turn != null ? names()[turn] : "";
  el.textContent = who ? `${time} · ${who}` : time;
  el.classList.toggle("low", low);
  el.setAttribute("aria-label", t("clock.label", { n: s }));
}

/** The clock's warning with `s` seconds left, to the warned shooter or naming them. */
const clockWords = (/** @type {number} */ s) => describeWarning({ kind: "clock", seat: app.warning?.seat ?? app.table?.turn ?? 0, seconds: s }, names(), null, mySeat()).text;

/**
 * What stands over the table keeps the balls and pockets in sight. The push-out chip sits
 * on the near rail, the banner (a warning, the clock's last seconds) at the far end; with
 * a ball under either there and fewer at the other end, it moves there (`far`): a ball
 * near the cushion stays in sight (and in reach of a finger), above all the cue ball the
 * shooter is aiming in the clock's last seconds. A table lying wide (a desktop's) has a
 * side pocket in the middle of each long rail, where the banner stood over one: there it
 * stands between a side pocket and a corner (`wing`, left or `right`), narrower.
 * @param {(x: number, y: number) => number[]} screenOf page coordinates of a table point
 */
export function placeOnTable(screenOf) {
  /** @type {DOMRect[]} what is placed already: the banner never covers the chip */
  const placed = [];
  const holes = TABLE.pockets.map((p) => screenOf(p.hole[0], p.hole[1]));
  for (const [id, places, pocketWeight] of PLACES) {
    const el = $(id);
    el.classList.remove("far", "wing", "right");
    if (el.hidden || !el.offsetParent) continue;
    const covered = () => {
      const r = el.getBoundingClientRect();
      const pad = 14; // a ball's radius on a phone, and a finger's margin
      const under = (/** @type {number[]} */ [x, y]) => x > r.left - pad && x < r.right + pad && y > r.top - pad && y < r.bottom + pad;
      const overlap = placed.some((p) => r.left < p.right && p.left < r.right && r.top < p.bottom && p.top < r.bottom);
      const pockets = holes.filter(under).length * pocketWeight;
      return (overlap ? 100 : 0) + pockets + (app.table?.balls ?? []).reduce((sum, /** @type {Vec | null} */ b, /** @type {number} */ n) => {
        if (!b) return sum;
        return sum + (under(screenOf(b[0], b[1])) ? (n === 0 ? 10 : 1) : 0); // the cue ball above all
      }, 0);
    };
    let best = { classes: /** @type {string[]} */ ([]), cost: Infinity };
    for (const classes of places) {
      el.classList.remove("far", "wing", "right");
      el.classList.add(...classes);
      const cost = covered();
      if (cost < best.cost) best = { classes, cost };
      if (cost === 0) break;
    }
    el.classList.remove("far", "wing", "right");
    el.classList.add(...best.classes);
    placed.push(el.getBoundingClientRect());
  }
}

/** Where each thing over the table may stand, first choice first, and what a pocket under
 * it weighs against an object ball (`placeOnTable`). */
const AROUND = [[], ["far"], ["wing"], ["wing", "right"], ["far", "wing"], ["far", "wing", "right"]];
const PLACES = /** @type {[string, string[][], number][]} */ ([
  ["push-chip", AROUND, 0.5],
  ["banner", AROUND, 1],
]);

/** Whether the status box shows the last verdict whole: one cut to its first lines may
 * have lost whose shot it is, said at its end, and the prompt under it then says it. */
function verdictWhole() {
  const verdict = $("status").querySelector(".verdict");
  return !!verdict && verdict.scrollHeight <= verdict.clientHeight + 1;
}

/** The prompt alone, said again (the break's names the power, which a key or drag moves),
 * as it was said under the verdict: pulling the power strip under "— your shot" had the
 * line under it start "Your shot —" again. */
export function refreshPrompt() {
  const el = $("status").querySelector(".prompt");
  if (el && app.view) el.textContent = prompt(verdictWhole());
}

export function renderTableUi() {
  if (!app.view) {
    // The TV between tables: its words, not the last table's.
    if (onTv()) {
      $("status").className = "status";
      $("status").replaceChildren(h("div", { class: "prompt", text: t("tv.idle") }));
    }
    return;
  }
  renderSeats();
  panelLabel();
  const tb = app.table;
  const st = status();
  const me = mySeat();
  const player = me !== null;
  const playing = st === "playing" && !!tb && !tb.match_over;
  const lagging = st === "lag" && player && app.view.lag_choice == null && !(app.view.lagged ?? []).includes(me) && !app.lagSent;

  // The verdict of the last shot and what to do now (a fixed-height box: nothing moves).
  const statusEl = $("status");
  const v = app.lastVerdict;
  statusEl.replaceChildren();
  statusEl.className = `status ${v && !app.anim ? v.tone : ""}`;
  const verdict = v && !app.anim ? h("div", { class: "verdict" }, [v.text, ...rulePrint(v.rules)]) : null;
  if (verdict) statusEl.append(verdict);
  statusEl.append(h("div", { class: "prompt", text: prompt(verdictWhole()) }));
  // A stalemate warning proposed to this player: the answer under the words that say so
  // (R14; it was only in the closed "More" menu, where nobody looked for it).
  const offered = tb?.stalemate_proposed_by;
  $("stalemate-chip").hidden = !(player && offered !== null && offered !== undefined && offered !== me && !tb?.stalemate_warning && !app.anim);

  // The banner (over the table, not pushing it): the R13 warning while a player is on two fouls.
  const banner = $("banner");
  const w = app.warning;
  // A warning stands while the table says it is in force: the stalemate warning stood over
  // the replayed game, and the games after it.
  const warnedNow =
    tb && w && w.kind === "three_fouls" ? (tb.warned ?? []).includes(w.seat) || (tb.fouls?.[w.seat] ?? 0) >= 2 : w?.kind === "stalemate" ? !!tb?.stalemate_warning : !!w;
  // None of them once the match is over (a match conceded on a player's two fouls).
  const matchDone = !!tb?.match_over || status() === "finished";
  if (matchDone) {
    banner.hidden = true;
  } else if (w && warnedNow && (w.kind === "three_fouls" || w.kind === "stalemate") && !app.anim) {
    banner.hidden = false;
    banner.className = `banner ${w.kind === "stalemate" ? "stalemate" : ""}`;
    banner.replaceChildren(`⚠ ${w.text}`, ...rulePrint([w.rule]));
  } else if (w && w.kind === "clock" && tb && tb.turn === w.seat && tb.clock?.deadline && !app.anim) {
    // O3: the clock warning, naming the player, until the turn ends. The warned shooter
    // has the extension in it (on a phone the menu is two taps away, in the closed sheet).
    banner.hidden = false;
    banner.className = "banner clock";
    banner.replaceChildren(h("span", { class: "clock-words", text: w.text }), ...rulePrint([w.rule]));
    const left = tb.clock.extensions?.[w.seat] ?? 0;
    const chip = extendChip();
    chip.hidden = !(w.seat === mySeat() && canShoot() && left > 0);
    chip.textContent = t("more.extendShort", { s: tb.clock.extension || tb.clock.seconds });
    if (!chip.hidden) banner.append(chip);
  } else if (tb?.stalemate_warning && !app.anim) {
    banner.hidden = false;
    banner.className = "banner stalemate";
    banner.replaceChildren(`⚠ ${t("banner.stalemate")}`, ...rulePrint(["R14"]));
  } else {
    banner.hidden = true;
  }
  // A finger skips by tapping the table, as the prompt says: on a phone the button only
  // covered the balls it was over (the lag's balls come back under it).
  $("skip").hidden = !app.anim || touchFirst() || onTv();
  // Someone watching stops watching; only a player leaves the table.
  const leave = $("leave");
  const leaveKey = app.role === "spectator" ? "more.stopWatching" : "more.leave";
  if (leave.dataset.i18n !== leaveKey || leave.textContent !== t(leaveKey)) {
    leave.dataset.i18n = leaveKey;
    leave.textContent = t(leaveKey);
  }

  // Panels.
  const shooting = player && playing;
  $("shot-controls").hidden = !shooting;
  $("shot-controls").classList.toggle("disabled", !canShoot());
  $("strip").hidden = !shooting;
  $("strip").classList.toggle("disabled", !canShoot());
  // Waiting, the strip (and the slider) show the power the prompt gives, the opponent's
  // as they aim; the player's own comes back with the turn.
  const theirs = !canShoot() ? othersAim() : null;
  const stripPower = theirs ? app.remoteAimPower : app.aim.power;
  if (shooting) {
    const percent = t("unit.percent", { p: powerPercent(stripPower) });
    drawStrip("", stripPower, percent);
    const v = theirs ? theirs.speed : speedFromPower(app.aim.power, app.aim.elevation);
    const speed = t("unit.speed", { v: num(v, 2) });
    $("strip-speed").textContent = speed;
    // The desktop's power slider the same way, unless the player has hold of it (setting
    // their own power ahead of their turn: `stroke.mjs` gives them their own back).
    const slider = /** @type {HTMLInputElement} */ ($("power"));
    if (document.activeElement !== slider) {
      slider.value = String(Math.max(1, Math.round(stripPower * 100)));
      $("power-out").textContent = percent;
      $("power-speed").textContent = speed;
      $("power-reach").textContent = describeReach(v, { short: true });
    }
  }
  if (!canShoot()) $("spin-pop").hidden = true;
  const lagWasHidden = $("lag-controls").hidden;
  $("lag-controls").hidden = !lagging;
  // Played again (level, or neither lag counting): why, on the card itself — held
  // sideways it stands over the column that said it.
  const last = app.lastLag;
  const again = lagging && last && last.method !== "draw" && last.winner === null && last.lags?.length ? describeLag(/** @type {any} */ (last), names(), mySeat()).headline : "";
  $("lag-again").textContent = again;
  $("lag-again").hidden = !again;
  if (lagging && lagWasHidden) focusIfFree($("lag-shoot"));
  $("wait-controls").hidden = !(st === "waiting" && player);
  /** @type {HTMLButtonElement} */ ($("shoot")).disabled = !canShoot();
  /** @type {HTMLButtonElement} */ ($("lag-shoot")).disabled = !lagging || !!app.anim;
  $("pushout-wrap").hidden = !(canShoot() && tb?.push_out_allowed);
  $("pushout-help").hidden = $("pushout-wrap").hidden;
  const chip = $("push-chip");
  chip.hidden = $("pushout-wrap").hidden;
  chip.setAttribute("aria-pressed", String(!chip.hidden && app.aim.pushOut));
  const clock = tb?.clock;
  const extLeft = clock?.extensions?.[me ?? 0] ?? 0;
  $("extend").hidden = !(canShoot() && clock && extLeft > 0);
  if (clock) $("extend").textContent = t("more.extendN", { s: clock.extension || clock.seconds, n: extLeft });

  if (st === "waiting" && player) {
    const mine = app.view.seats[me];
    const free = !app.view.seats[0] || !app.view.seats[1];
    $("invite").hidden = !free || tournamentMatch();
    /** @type {HTMLInputElement} */ ($("invite-link")).value = inviteLink();
    $("ready").textContent = t(mine?.ready ? "wait.notReady" : "wait.ready");
    // Ready, the button takes it back: no longer the thing to press next.
    $("ready").classList.toggle("primary", !mine?.ready);
    $("ready").setAttribute("aria-pressed", String(!!mine?.ready));
    // Alone at the table and ready (sitting down is being ready), there is nothing to hold
    // back yet: "Hold the start" stood there as the card's only button, and was pressed.
    $("ready").hidden = !!mine?.ready && free;
    // (A tournament's player alone, ready, and no invite to send: no card at all.)
    if ($("ready").hidden && $("invite").hidden) $("wait-controls").hidden = true;
  }
  const proposedBy = tb?.stalemate_proposed_by;
  const stale = $("stalemate");
  // R14: an advanced action, offered once the game has gone on a while, until the warning is in force.
  const settled = (tb?.rack ?? 0) !== app.rackShots.rack || app.rackShots.count >= 2;
  const proposedToMe = proposedBy !== null && proposedBy !== undefined && proposedBy !== me;
  // The server says when a proposal is open (R14: three turns in a row without a ball pocketed).
  const open = tb?.stalemate_open ?? settled;
  stale.hidden = !(player && playing && tb.ball_in_hand !== "kitchen" && !tb.stalemate_warning && (open || proposedToMe));
  stale.textContent = t(proposedToMe ? "more.stalemateAccept" : "more.stalemate");
  /** @type {HTMLButtonElement} */ (stale).disabled = proposedBy === me;
  $("concede").hidden = !(player && playing);
  renderMatchOver({ me, player, over: st === "finished" || !!tb?.match_over });
  /** @type {HTMLButtonElement} */ ($("replay-last")).disabled = !app.lastShot || !!app.anim;
  // For a streamer: this table's score strip, a page for OBS (`/overlay/<room>`; on the TV
  // the channel's, `/overlay/tv`, which moves on with it). A private table's carries its
  // invite code (`?code=`), as its invite link does; without it the strip could not watch.
  const overlay = /** @type {HTMLAnchorElement} */ ($("stream-overlay"));
  const secret = !!app.view?.settings?.private;
  overlay.hidden = !app.room || (secret && !app.code);
  if (app.room) overlay.href = onTv() ? `/overlay/tv?lang=${lang()}` : `/overlay/${encodeURIComponent(app.room)}?lang=${lang()}${secret && app.code ? `&code=${encodeURIComponent(app.code)}` : ""}`;
  $("chat-form").hidden = false;

  // The push-out choice.
  const dlg = /** @type {HTMLDialogElement} */ ($("choice-dialog"));
  const choose = !!tb && tb.choice_pending && tb.turn === me && !app.anim && playing;
  if (choose && !dlg.open) {
    dlg.show();
    focusIfFree($("choose-shoot"));
  }
  if (!choose && dlg.open) dlg.close();

  // How to aim and shoot, for the hands in use: no Shift or keys on a phone, and there
  // the cue to pull is the strip at the edge.
  $("power-help").textContent = t(touchFirst() ? "shot.helpTouch" : "shot.help");

  // R3/O6: the lag winner chooses who breaks.
  const lagDlg = /** @type {HTMLDialogElement} */ ($("lag-dialog"));
  const chooseBreak = st === "lag" && me !== null && app.view.lag_choice === me && !app.anim;
  if (chooseBreak) {
    $("lag-give").textContent = t("lagwin.give", { name: names()[1 - me] });
    // The room's fair draw (O6) or a lag decided it: the title says which.
    $("lag-title-text").textContent = t(breakDrawn() ? "lagwin.titleDraw" : "lagwin.title");
    // Where the two balls stopped: on a phone the card covers the status and log that say it.
    const lag = app.lastLag;
    const lines = lag && !breakDrawn() ? describeLag(/** @type {any} */ (lag), names(), me).details.slice(0, 2).map((d) => d.text) : [];
    $("lag-dists").replaceChildren(...lines.flatMap((line, i) => (i ? [h("br"), line] : [line])));
    $("lag-dists").hidden = !lines.length;
  }
  if (chooseBreak && !lagDlg.open) {
    lagDlg.show();
    focusIfFree($("lag-break"));
  }
  if (!chooseBreak && lagDlg.open) lagDlg.close();
  renderLagLeft();

  // A description of the table for screen readers.
  const balls = (tb?.balls ?? []).map((/** @type {Vec | null} */ p, /** @type {number} */ n) => (p && n > 0 ? n : null)).filter((/** @type {number | null} */ b) => b !== null);
  const p = prompt();
  $("table-desc").textContent = t("table.desc", { prompt: p, balls: balls.length ? list(balls) : t("table.none") });
  $("table").setAttribute("aria-label", t("table.label", { prompt: p }));
}

/**
 * The link that seats a friend: the room (and a private room's code) in the address, and
 * the room's seat invite, opened as a player when a seat is free.
 */
export function inviteLink() {
  if (!app.room) return "";
  const base = `${location.origin}${location.pathname}`;
  const code = app.code ? `/${app.code}` : "";
  const invite = app.invite ? `/${app.invite}` : "";
  return `${base}#/play/${app.room}${code}${invite}`;
}

/**
 * Moves the keyboard to the next step's button, unless the reader is typing or working
 * another control (only from the page itself or the table).
 * @param {HTMLElement} el
 */
function focusIfFree(el) {
  const active = document.activeElement;
  if (!active || active === document.body || active.id === "table") el.focus({ preventScroll: true });
}

/** The sheet's handle: open, it covers the table and says how back to it — and that the
 * shot is the reader's (it said only "Back to the table" as their turn began behind it). */
function panelLabel() {
  const label = /** @type {HTMLElement} */ ($("panel-toggle").firstElementChild);
  const key = !app.panelOpen ? "panel.toggle" : canShoot() || (app.table?.choice_pending && app.table.turn === mySeat()) ? "panel.closeTurn" : "panel.close";
  if (label.dataset.i18n === key) return;
  label.dataset.i18n = key;
  label.textContent = t(key);
}

/** Opens or closes the log-and-chat sheet (narrow screens). @param {boolean} open */
export function setPanel(open) {
  app.panelOpen = open;
  document.documentElement.classList.toggle("panel-open", open);
  $("panel-toggle").setAttribute("aria-expanded", String(open));
  panelLabel();
  if (open) {
    app.unread = 0;
    renderBadge();
  }
}

/**
 * A replay opened from the player's own table (between games, the result's "replay of
 * this game") says on its way back when the move at the table is theirs, and the time
 * left on it: a tournament player's break clock ran out unseen while the replay played.
 */
export function replayCallsBack() {
  const back = $("r-back");
  const me = mySeat();
  if (back.hidden || !app.room || me === null) return;
  const v = app.view;
  const st = status();
  const lagging = st === "lag" && (v?.lag_choice == null ? !(v?.lagged ?? []).includes(me) : v.lag_choice === me);
  const mine = lagging || (st === "playing" && app.table?.turn === me && !app.table?.match_over);
  // The time left on that move: the lag's, the choice's, or the shot clock's (not the
  // clock's own words, "Lag: 0:25" or "0:08 · Ana").
  const c = app.table?.clock;
  const left = st === "lag" ? lagLeft() ?? choiceLeft() : !c ? null : c.deadline === null || c.paused ? typeof c.left === "number" ? Math.ceil(c.left) : c.seconds : Math.ceil(clockLeft(c));
  const text = !mine ? t("replay.back") : left === null ? t("replay.backTurn") : t("replay.backTurnTime", { time: minutesAndSeconds(left) });
  if (back.textContent !== text) back.textContent = text;
}
