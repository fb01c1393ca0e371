// Charts as SVG: a line over time and bars by category. Each has a text alternative (a table) for screen readers.
import { h, svg } from "./dom.js";

const WIDTH = 340;
const HEIGHT = 180;
const PAD = { left: 40, right: 12, top: 12, bottom: 28 };

function scale(values) {
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || Math.max(1, Math.abs(max) * 0.1);
  return { min: min - span * 0.1, max: max + span * 0.1 };
}

function axis(range, format) {
  const ticks = [range.min, (range.min + range.max) / 2, range.max];
  const y = (v) => PAD.top + (1 - (v - range.min) / (range.max - range.min)) * (HEIGHT - PAD.top - PAD.bottom);
  return {
    y,
    lines: ticks.map((v) => [
      svg("line", { class: "grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v) }),
      svg("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, format(v)),
    ]),
  };
}

/** A line chart of `points` [{label, value}], titled `title`; `format` writes a value. */
export function lineChart(title, points, format = (v) => String(Math.round(v))) {
  if (!points.length) return h("p", { class: "muted" }, "No data yet.");
  const range = scale(points.map((p) => p.value));
  const { y, lines } = axis(range, format);
  const step = points.length > 1 ? (WIDTH - PAD.left - PAD.right) / (points.length - 1) : 0;
  const x = (i) => PAD.left + (points.length > 1 ? i * step : (WIDTH - PAD.left - PAD.right) / 2);
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const labelEvery = Math.ceil(points.length / 5);
  return figure(title, points, format, svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": title },
    lines,
    svg("path", { class: "line", d: path }),
    points.map((p, i) => svg("circle", { class: "point", cx: x(i), cy: y(p.value), r: 3.5 })),
    points.map((p, i) => (i % labelEvery === 0 ? svg("text", { x: x(i), y: HEIGHT - 8, "text-anchor": "middle" }, p.label) : null))));
}

/** A horizontal bar chart of `points` [{label, value}]: a row per label, readable on a phone. */
export function barChart(title, points, format = (v) => String(Math.round(v))) {
  if (!points.length) return h("p", { class: "muted" }, "No data yet.");
  const row = 26;
  const labelWidth = 112;
  const height = points.length * row + 8;
  const max = Math.max(...points.map((p) => p.value), 1);
  const span = WIDTH - labelWidth - 44;
  return figure(title, points, format, svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-label": title },
    points.map((p, i) => {
      const y = 4 + i * row;
      const width = Math.max(2, (p.value / max) * span);
      return [
        svg("text", { x: labelWidth - 8, y: y + 15, "text-anchor": "end" }, p.label.length > 16 ? `${p.label.slice(0, 15)}…` : p.label),
        svg("rect", { class: `bar${i % 2 ? " alt" : ""}`, x: labelWidth, y: y + 3, width, height: row - 10, rx: 3 }),
        svg("text", { x: labelWidth + width + 6, y: y + 15 }, format(p.value)),
      ];
    })));
}

function figure(title, points, format, picture) {
  return h("figure", { class: "chart" },
    h("figcaption", {}, title),
    picture,
    h("table", { class: "visually-hidden" },
      h("tbody", {}, points.map((p) => h("tr", {}, h("th", { scope: "row" }, p.label), h("td", {}, format(p.value)))))));
}
