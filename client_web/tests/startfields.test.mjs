// The tournament's start as its organiser picks it: each language's order of a date's
// fields, its months and its clock, through Intl, whatever the browser's own locale.

import assert from "node:assert/strict";
import { test } from "node:test";

import { dateLocale, setLanguage } from "../i18n/index.mjs";
import { choices, clockOf, dateOrder, daysIn, momentFrom, monthNames, periodNames, suggestedStart, valuesOf } from "../startfields.mjs";

test("the date's fields come in the order each language writes a date", () => {
  assert.deepEqual(dateOrder("hr"), ["day", "month", "year"]);
  assert.deepEqual(dateOrder("ru"), ["day", "month", "year"]);
  assert.deepEqual(dateOrder("en"), ["month", "day", "year"]);
});

test("the time is told on each language's clock", () => {
  assert.deepEqual(clockOf("hr"), { order: ["hour", "minute"], separator: ":", twelve: false });
  assert.deepEqual(clockOf("ru"), { order: ["hour", "minute"], separator: ":", twelve: false });
  assert.deepEqual(clockOf("en"), { order: ["hour", "minute", "period"], separator: ":", twelve: true });
  assert.deepEqual(periodNames("en"), ["AM", "PM"]);
});

test("an English reader in Britain gets the day first on a 24-hour clock; the language stays the page's", () => {
  setLanguage("en", false);
  assert.equal(dateLocale(["en-GB", "hr"]), "en-GB");
  assert.deepEqual(dateOrder(dateLocale(["en-GB"])), ["day", "month", "year"]);
  assert.equal(clockOf(dateLocale(["en-GB"])).twelve, false);
  assert.equal(dateLocale(["en-US"]), "en-US");
  // A region of another language than the page's is not taken: the page's own then.
  assert.equal(dateLocale(["hr-HR", "de-DE"]), "en");
  assert.equal(dateLocale([]), "en");
  setLanguage("hr", false);
  assert.equal(dateLocale(["en-GB", "hr-HR"]), "hr-HR");
  assert.equal(dateLocale(["en-GB"]), "hr");
  setLanguage("en", false);
});

test("the months are named on their own, as a picked month reads", () => {
  assert.equal(monthNames("hr")[11], "prosinac");
  assert.equal(monthNames("ru")[0], "январь");
  assert.equal(monthNames("en")[4], "May");
});

test("a month offers only its own days", () => {
  assert.equal(daysIn(2028, 2), 29);
  assert.equal(daysIn(2027, 2), 28);
  assert.equal(daysIn(2027, 4), 30);
  const april = choices("hr", { year: 2027, month: 4, day: 30, hour: 20, minute: 30 }, 2026);
  assert.equal(april.day.length, 30);
  assert.deepEqual(april.year.map(([v]) => v), ["2026", "2027", "2028"]);
  // A 31st read back in a 30-day month is its last day.
  assert.equal(momentFrom({ year: "2027", month: "4", day: "31", hour: "9", minute: "0", period: "am" }, false).day, 30);
});

test("the hours of a 12-hour clock, and back to the day's 24", () => {
  const en = choices("en", { year: 2027, month: 1, day: 1, hour: 0, minute: 0 }, 2027);
  assert.deepEqual(en.hour.map(([v]) => v), ["12", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"]);
  assert.deepEqual(en.period, [["am", "AM"], ["pm", "PM"]]);
  const hr = choices("hr", { year: 2027, month: 1, day: 1, hour: 0, minute: 0 }, 2027);
  assert.equal(hr.hour[8][1], "08");
  assert.deepEqual(hr.period, []);
  for (const hour of [0, 1, 11, 12, 13, 20, 23]) {
    const moment = { year: 2027, month: 6, day: 15, hour, minute: 30 };
    assert.deepEqual(momentFrom(valuesOf(moment, true), true), moment, `12-hour ${hour}`);
    assert.deepEqual(momentFrom(valuesOf(moment, false), false), moment, `24-hour ${hour}`);
  }
  assert.deepEqual([valuesOf({ year: 2027, month: 1, day: 1, hour: 0, minute: 0 }, true).hour, valuesOf({ year: 2027, month: 1, day: 1, hour: 12, minute: 0 }, true).period], ["12", "pm"]);
});

test("the form starts an hour ahead, on the next five minutes", () => {
  const now = new Date(2027, 5, 15, 10, 17, 42).getTime();
  assert.deepEqual(suggestedStart(now), { year: 2027, month: 6, day: 15, hour: 11, minute: 20 });
  assert.equal(suggestedStart(new Date(2027, 5, 15, 10, 20).getTime()).minute, 20);
});
