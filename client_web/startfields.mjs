// When a tournament starts, as its organiser picks it: day, month, year, hour and minutes
// in selects worded and ordered by the page's language through Intl. A native
// `<input type="datetime-local">` speaks the browser's locale whatever the page says (an
// American browser showed a Croatian page "12/05/2026, 10:17 AM"), and nothing tells it
// otherwise. Selects stay the browser's own controls: a phone opens its own picker for
// each, a screen reader hears each by its name, and no date that does not exist can be
// picked. The time is the browser's local time, as the input's was.
//
// The pure part (a language's order of the fields, its names of the months, its clock)
// is tested in `tests/startfields.test.mjs`; `startFields` draws it into the page.

import { dateLocale, t } from "./i18n/index.mjs";

/** Minutes offered: every five (a tournament starts on the hour, or near it). */
export const MINUTE_STEP = 5;
/** Years offered, this one first. */
const YEARS = 3;
/** A date to ask Intl how a language writes one (any day past the 12th, any hour past noon). */
const SAMPLE = new Date(2026, 11, 24, 20, 30);

/** @typedef {"day" | "month" | "year" | "hour" | "minute" | "period"} Part */
/** @typedef {{ year: number, month: number, day: number, hour: number, minute: number }} Moment month 1-12, hour 0-23 */

/**
 * The date's fields in the order `language` writes a date: ["day", "month", "year"]
 * (Croatian, Russian) or ["month", "day", "year"] (English).
 * @param {string} language @returns {Part[]}
 */
export function dateOrder(language) {
  const parts = new Intl.DateTimeFormat(language, { day: "numeric", month: "long", year: "numeric" }).formatToParts(SAMPLE);
  return /** @type {Part[]} */ (parts.map((p) => p.type).filter((type) => type === "day" || type === "month" || type === "year"));
}

/**
 * How `language` tells the time: the order of the hour, the minutes and (on a 12-hour
 * clock) the half of the day, what stands between the hour and the minutes, and whether
 * its clock has 12 hours.
 * @param {string} language @returns {{ order: Part[], separator: string, twelve: boolean }}
 */
export function clockOf(language) {
  const format = new Intl.DateTimeFormat(language, { hour: "numeric", minute: "2-digit" });
  const parts = format.formatToParts(SAMPLE);
  const order = /** @type {Part[]} */ (parts.flatMap((p) => (p.type === "hour" || p.type === "minute" ? [p.type] : p.type === "dayPeriod" ? ["period"] : [])));
  const hour = parts.findIndex((p) => p.type === "hour");
  const between = parts[hour + 1];
  const separator = between?.type === "literal" && parts[hour + 2]?.type === "minute" ? between.value : ":";
  return { order, separator, twelve: order.includes("period") };
}

/** The months as `language` names them on their own, January first. @param {string} language */
export function monthNames(language) {
  const format = new Intl.DateTimeFormat(language, { month: "long" });
  return Array.from({ length: 12 }, (_, i) => format.format(new Date(2026, i, 1)));
}

/** The two halves of the day as `language` names them on a 12-hour clock ("AM", "PM"). @param {string} language */
export function periodNames(language) {
  const format = new Intl.DateTimeFormat(language, { hour: "numeric", hour12: true });
  return [9, 21].map((h) => format.formatToParts(new Date(2026, 0, 1, h)).find((p) => p.type === "dayPeriod")?.value ?? (h < 12 ? "AM" : "PM"));
}

/** Days in a month (1-12) of a year. @param {number} year @param {number} month */
export function daysIn(year, month) {
  return new Date(year, month, 0).getDate();
}

/** A local date's fields. @param {Date} date @returns {Moment} */
export function momentOf(date) {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate(), hour: date.getHours(), minute: date.getMinutes() };
}

/** The local time of a moment, in epoch ms. @param {Moment} m */
export function timeOf(m) {
  return new Date(m.year, m.month - 1, m.day, m.hour, m.minute).getTime();
}

/** An hour from `now`, on the next whole five minutes: what the form starts with. @param {number} now epoch ms */
export function suggestedStart(now) {
  const step = MINUTE_STEP * 60_000;
  const later = new Date(Math.ceil((now + 3_600_000) / step) * step);
  later.setSeconds(0, 0);
  return momentOf(later);
}

/**
 * Each field's choices as [value, words], worded in `language`: the hour on its clock
 * (a 12-hour clock's hours are 12, 1 … 11, the half of the day apart).
 * @param {string} language @param {Moment} m the moment shown (its month's days, its year kept)
 * @param {number} thisYear @returns {Record<Part, [string, string][]>}
 */
export function choices(language, m, thisYear) {
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  const range = (/** @type {number} */ from, /** @type {number} */ count, step = 1) => Array.from({ length: count }, (_, i) => from + i * step);
  const { twelve } = clockOf(language);
  const years = range(Math.min(thisYear, m.year), Math.max(YEARS, m.year - thisYear + 1));
  return {
    day: range(1, daysIn(m.year, m.month)).map((d) => [String(d), String(d)]),
    month: monthNames(language).map((name, i) => [String(i + 1), name]),
    year: years.map((y) => [String(y), String(y)]),
    hour: twelve ? [12, ...range(1, 11)].map((h) => [String(h), String(h)]) : range(0, 24).map((h) => [String(h), two(h)]),
    minute: range(0, 60 / MINUTE_STEP, MINUTE_STEP).map((n) => [String(n), two(n)]),
    period: twelve ? periodNames(language).map((name, i) => [i ? "pm" : "am", name]) : [],
  };
}

/**
 * The fields' values for a moment, on `language`'s clock. @param {Moment} m @param {boolean} twelve
 * @returns {Record<Part, string>}
 */
export function valuesOf(m, twelve) {
  const minute = Math.min(55, Math.round(m.minute / MINUTE_STEP) * MINUTE_STEP);
  return {
    year: String(m.year),
    month: String(m.month),
    day: String(m.day),
    hour: String(twelve ? m.hour % 12 || 12 : m.hour),
    minute: String(minute),
    period: m.hour < 12 ? "am" : "pm",
  };
}

/**
 * The moment the fields say. @param {Record<Part, string>} v @param {boolean} twelve @returns {Moment}
 */
export function momentFrom(v, twelve) {
  const year = Number(v.year);
  const month = Number(v.month);
  const hour = twelve ? (Number(v.hour) % 12) + (v.period === "pm" ? 12 : 0) : Number(v.hour);
  return { year, month, day: Math.min(Number(v.day), daysIn(year, month)), hour, minute: Number(v.minute) };
}

/** The moment in words, in full (the weekday too), in the page's language (its reader's
 * region's way), with the reader's time zone, as the tournament's pages then show it to
 * readers elsewhere ("… u 20:30 CET"). @param {Moment} m */
function inWords(m) {
  const format = { weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" };
  return new Intl.DateTimeFormat(dateLocale(), /** @type {Intl.DateTimeFormatOptions} */ (format)).format(new Date(timeOf(m)));
}

/**
 * Draws the start's fields into `box` (`#tc-starts-fields`, within the group labelled
 * "Starts"), the moment in words into `said`; worded again by `reword` in the page's
 * language of the moment, keeping the time picked.
 * @param {HTMLElement} box @param {HTMLElement} said @param {Moment} initial
 * @returns {{ time: () => number, reword: () => void, focus: () => void }}
 */
export function startFields(box, said, initial) {
  let moment = initial;
  /** @type {Partial<Record<Part, HTMLSelectElement>>} */
  let fields = {};
  let twelve = false;
  const select = (/** @type {Part} */ part, /** @type {[string, string][]} */ offered, /** @type {string} */ value) => {
    const field = document.createElement("select");
    field.id = `tc-start-${part}`;
    field.setAttribute("aria-label", t(`tour.create.${part}`));
    field.append(...offered.map(([v, words]) => new Option(words, v, false, v === value)));
    field.addEventListener("change", changed);
    fields[part] = field;
    return field;
  };
  const draw = () => {
    // The page's language in the reader's region: an en-GB reader's day before the month,
    // on a 24-hour clock.
    const language = dateLocale();
    const clock = clockOf(language);
    twelve = clock.twelve;
    const offered = choices(language, moment, new Date().getFullYear());
    const values = valuesOf(moment, twelve);
    fields = {};
    const date = document.createElement("span");
    date.className = "tour-date";
    date.append(...dateOrder(language).map((part) => select(part, offered[part], values[part])));
    const time = document.createElement("span");
    time.className = "tour-time";
    for (const part of clock.order) {
      if (part === "minute") {
        // "20 : 30": the separator is the page's, not a field (each field has its name).
        const separator = document.createElement("span");
        separator.textContent = clock.separator.trim() || ":";
        separator.setAttribute("aria-hidden", "true");
        time.append(separator);
      }
      time.append(select(part, offered[part], values[part]));
    }
    box.replaceChildren(date, time);
    said.textContent = inWords(moment);
  };
  function changed() {
    const read = /** @type {Record<Part, string>} */ (Object.fromEntries(Object.entries(fields).map(([part, field]) => [part, field.value])));
    moment = momentFrom(read, twelve);
    // Another month or year has another count of days: the days offered afresh in place
    // (a 31st becomes the 30th), the field being changed keeping the focus.
    const day = fields.day;
    if (day && day.options.length !== daysIn(moment.year, moment.month)) {
      const days = choices(dateLocale(), moment, new Date().getFullYear()).day;
      day.replaceChildren(...days.map(([v, words]) => new Option(words, v, false, v === String(moment.day))));
    }
    said.textContent = inWords(moment);
  }
  draw();
  return {
    time: () => timeOf(moment),
    reword: draw,
    focus: () => box.querySelector("select")?.focus(),
  };
}
