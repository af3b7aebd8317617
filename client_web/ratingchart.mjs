// A player's rating over their rated games, on their profile: a line with its scale
// (the highest and lowest rating on the left, a faint line at each), the first and last
// game's dates under it and the rating now at its end. A bare line said which way the
// rating went but not from where to where, nor over how long.

import { h } from "./dom.mjs";
import { dateLocale, num, t } from "./i18n/index.mjs";

/** The drawing's own units (the SVG stretches to its box; the words stay HTML). */
const W = 200;
const H = 60;
/** Room above and below the line inside the drawing, so the end dot is whole. */
const PAD = 3;

/**
 * The chart as values: the scale (whole tens around the ratings), each game's point in the
 * drawing's units (x by game, not by time: a rating moves only when a game is rated), and
 * the dates at either end.
 * @param {{ at: number, rating: number }[]} history oldest first, two points at least
 * @returns {{ top: number, bottom: number, points: [number, number][], first: number, last: number, now: number }}
 */
export function chartModel(history) {
  const values = history.map((p) => p.rating);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const bottom = Math.floor(lo / 10) * 10;
  const top = Math.max(Math.ceil(hi / 10) * 10, bottom + 10);
  const y = (/** @type {number} */ v) => PAD + (1 - (v - bottom) / (top - bottom)) * (H - 2 * PAD);
  /** @type {[number, number][]} */
  const points = values.map((v, i) => [PAD + (i / (values.length - 1)) * (W - 2 * PAD), y(v)]);
  return { top, bottom, points, first: history[0].at, last: history[history.length - 1].at, now: values[values.length - 1] };
}

/** @param {string} tag @param {Record<string, string | number>} attrs */
function svgEl(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * The chart, as a figure with its caption.
 * @param {{ at: number, rating: number }[]} history oldest first, two points at least
 * @returns {HTMLElement}
 */
export function ratingChart(history) {
  const m = chartModel(history);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", class: "rc-plot", "aria-hidden": "true" });
  for (const v of [m.top, m.bottom]) {
    const y = PAD + (v === m.top ? 0 : H - 2 * PAD);
    svg.append(svgEl("line", { x1: 0, x2: W, y1: y, y2: y, class: "rc-grid" }));
  }
  svg.append(svgEl("polyline", { points: m.points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "), class: "rc-line" }));
  const [ex, ey] = m.points[m.points.length - 1];
  // The rating now by the line's end: under it when the end is high (over it, it ran into
  // the caption), over it when low.
  const high = ey < H / 2;
  const plot = h("div", { class: "rc-area" }, [svg, h("span", { class: `rc-now${high ? " rc-under" : ""}`, style: `left:${(ex / W) * 100}%;top:${(ey / H) * 100}%`, text: num(m.now, 0) })]);
  // The day and the month in words ("24. studenoga"): the short month ("24. stu") reads as
  // no word, and the time of day says nothing over weeks.
  const day = new Intl.DateTimeFormat(dateLocale(), { day: "numeric", month: "long" });
  const label = t("account.historyLabel", { from: num(history[0].rating, 0), to: num(m.now, 0) });
  return h("figure", { class: "rating-chart", role: "img", "aria-label": label, id: "rating-chart" }, [
    h("figcaption", { text: t("account.historyTitle", { n: history.length }) }),
    h("div", { class: "rc-body" }, [h("div", { class: "rc-y" }, [h("span", { text: num(m.top, 0) }), h("span", { text: num(m.bottom, 0) })]), plot]),
    h("div", { class: "rc-x" }, [h("span", { text: day.format(new Date(m.first)) }), h("span", { text: day.format(new Date(m.last)) })]),
  ]);
}
