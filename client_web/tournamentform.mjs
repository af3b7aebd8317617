// The organiser's form (/tournament/new): the tournament's settings, checked and worded in
// the page's language before anything is sent (`POST /api/tournaments`), then its page.
// Part of the tournament pages (`tournament.mjs`, which hands it the way this browser
// is known to the API).

import { $ } from "./dom.mjs";
import { SHOT_CLOCKS, tournamentClock } from "./formats.mjs";
import { keepLang, num, t, wordAs } from "./i18n/index.mjs";
import { startFields, suggestedStart } from "./startfields.mjs";

/**
 * Who this browser is to the tournaments' API (`tournament.mjs`): its token, if any, and
 * that token as a request's headers.
 * @typedef {{ token: () => string | null, authorization: () => Record<string, string> }} TournamentApi
 */

/** @type {TournamentApi} */
let session = { token: () => null, authorization: () => ({}) };
/** The start's fields, once drawn. @type {ReturnType<typeof startFields> | null} */
let starts = null;

/** @param {string} elementId */
function input(elementId) {
  return /** @type {HTMLInputElement} */ (document.getElementById(elementId));
}

/**
 * What is wrong with the organiser's form, as [the field, the catalogue key of why], or
 * null: the server's own limits (`POST /api/tournaments`), checked before asking it.
 * @param {Record<string, any>} body @returns {[string, string] | null}
 */
function formProblem(body) {
  const within = (/** @type {unknown} */ v, /** @type {number} */ lo, /** @type {number} */ hi) => Number.isInteger(v) && Number(v) >= lo && Number(v) <= hi;
  if (!body.name || body.name.length > 48) return ["tc-name", "tour.create.err.bad_name"];
  if (!within(body.cap, 2, 64)) return ["tc-cap", "tour.create.err.cap"];
  if (!(body.starts_at > Date.now())) return ["tc-starts", "tour.create.err.past"];
  for (const side of ["winners", "losers", "final"]) {
    if (side === "losers" && body.format === "single") continue;
    if (!within(body.races[side], 1, 21)) return [`tc-${side}`, "tour.create.err.race"];
  }
  return null;
}

/**
 * The organiser's form: create the tournament, then open its page.
 * @param {TournamentApi} api who this browser is to the API
 */
export function startCreating(api) {
  session = api;
  $("tour-create").hidden = false;
  document.title = t("tour.create.title");
  const held = session.token();
  $("tour-create-form").hidden = !held;
  $("tc-session").hidden = !!held;
  starts = startFields($("tc-starts-fields"), $("tc-starts-said"), suggestedStart(Date.now()));
  const clock = /** @type {HTMLSelectElement} */ ($("tc-clock"));
  clock.replaceChildren(...["", ...SHOT_CLOCKS.map(String)].map((value) => new Option("", value)));
  clock.addEventListener("change", wordClockChoices);
  wordClockChoices();
  // A single elimination has no losers' bracket: its race is not asked for (the field
  // hidden, and disabled so that it is neither checked nor in the way).
  const format = /** @type {HTMLSelectElement} */ ($("tc-format"));
  const losersRace = () => {
    const single = format.value === "single";
    const two = Number(input("tc-cap").value) === 2;
    input("tc-losers").disabled = single;
    /** @type {HTMLElement} */ (input("tc-losers").closest("label")).hidden = single;
    // Nor a winners' bracket to name: its race is that of every round before the final
    // (none for two places: their one match is the final).
    const winners = /** @type {HTMLElement} */ (input("tc-winners").closest("label")?.querySelector("span"));
    winners.dataset.i18n = single ? "tour.side.rounds" : "tour.side.winners";
    winners.textContent = t(winners.dataset.i18n);
    /** @type {HTMLElement} */ (input("tc-winners").closest("label")).hidden = single && two;
    // Two places, said what they make, in either format (the format's change is not silent).
    const note = $("tc-cap-note");
    note.hidden = !two;
    if (two) wordAs(note, single ? "tour.create.twoSingle" : "tour.create.twoDouble");
  };
  format.addEventListener("change", () => {
    format.dataset.chosen = "yes";
    losersRace();
  });
  losersRace();
  // Two places make one match: as a double elimination a grand final would follow it
  // between the same two. Until the organiser picks a format, two places are a single
  // elimination, and more a double one.
  input("tc-cap").addEventListener("input", () => {
    const single = Number(input("tc-cap").value) === 2;
    if (!format.dataset.chosen && (format.value === "single") !== single) format.value = single ? "single" : "double";
    losersRace();
  });
  const bots = input("tc-bots");
  bots.addEventListener("change", () => {
    /** @type {HTMLSelectElement} */ ($("tc-bot-level")).disabled = !bots.checked;
  });
  const form = $("tour-create-form");
  form.addEventListener("input", () => {
    $("tc-answer").textContent = "";
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void create();
  });
}

/** The form worded again in the language just chosen (what `data-i18n` does not mark). */
export function rewordCreating() {
  document.title = t("tour.create.title");
  wordClockChoices();
  starts?.reword();
}

/** The shot clock's choices in the page's language, as the lobby's dialog words them, and
 * what the one chosen means at the tables. */
function wordClockChoices() {
  const clock = /** @type {HTMLSelectElement} */ ($("tc-clock"));
  for (const option of clock.options) option.textContent = option.value ? t("unit.seconds", { s: num(Number(option.value), 0) }) : t("create.clock.off");
  $("tc-clock-help").textContent = clock.value ? tournamentClock(Number(clock.value)) : "";
}

async function create() {
  const answer = $("tc-answer");
  if (!session.token()) return;
  const level = Number(/** @type {HTMLSelectElement} */ ($("tc-bot-level")).value);
  const bots = input("tc-bots").checked;
  /** @type {Record<string, unknown>} */
  const races = { winners: Number(input("tc-winners").value), losers: Number(input("tc-losers").value), final: Number(input("tc-final").value) };
  // Two places in a single elimination: one match, the final; the rounds before it (none,
  // their field hidden) play to the final's race, whatever the hidden field held.
  if (/** @type {HTMLSelectElement} */ ($("tc-format")).value === "single" && Number(input("tc-cap").value) === 2) races.winners = races.final;
  const body = {
    name: input("tc-name").value.trim(),
    format: /** @type {HTMLSelectElement} */ ($("tc-format")).value,
    cap: Number(input("tc-cap").value),
    seeding: /** @type {HTMLSelectElement} */ ($("tc-seeding")).value,
    starts_at: starts ? starts.time() : Number.NaN,
    races,
    bots,
  };
  const clock = /** @type {HTMLSelectElement} */ ($("tc-clock")).value;
  if (clock) body.shot_clock = Number(clock);
  // Each match's first break: drawn by the table (as before the choice), or lagged for.
  const first = /** @type {HTMLSelectElement} */ ($("tc-first")).value;
  if (first === "lag") body.first_break = "lag";
  if (bots && level > 0) body.bot_level = level;
  // Checked here, worded in the page's language (the browser's own bubbles speak the
  // browser's), the field in question focused; the server checks it all again.
  const wrong = formProblem(body);
  if (wrong) {
    answer.textContent = t("tour.create.refused", { why: t(wrong[1]) });
    if (wrong[0] === "tc-starts") starts?.focus();
    else input(wrong[0]).focus();
    return;
  }
  try {
    const response = await fetch("/api/tournaments", {
      method: "POST",
      headers: { ...session.authorization(), "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const made = await response.json();
    if (response.ok) {
      location.assign(keepLang(`/tournament/${encodeURIComponent(made.id)}`));
      return;
    }
    // The server's words are English, for a reader of the raw API: the page words the
    // refusal by its code (the English kept as the tooltip).
    const key = made.code === "bad_name" ? "tour.create.err.bad_name" : "tour.create.err.other";
    answer.textContent = t("tour.create.refused", { why: t(key) });
    answer.title = made.error ?? "";
  } catch {
    answer.textContent = t("tour.unavailable");
  }
}
