// The replay page's time scale: one axis shared by the step slider (its group ticks and
// marks: faults, the game's notes), the charts of the game's per-seat series and the CPU
// chart of console.js, all placed from the slider thumb's centre so that a step sits at
// the same pixel on each; one chart per series (a seat's curve in its colour, dashed from
// the fault that stopped it, its end labelled with its mark, name and value).
"use strict";
(function () {
  // The steps are read at each use (V.count): the page of a game still being played grows.
  const V = window.viewer, F = V.F, $ = V.$, el = V.el;
  const slider = $("step-slider"), THUMB = 14; // px, as frame.css draws the thumb
  const last = () => Math.max(1, V.count - 1);
  const ink = getComputedStyle(document.documentElement).getPropertyValue("--ink").trim() || "#23211e";

  // The x of step i in the coordinates of `node` (an svg whose viewBox is its CSS size),
  // and back: the step under an x.
  V.axis = function (node) {
    const r = slider.getBoundingClientRect(), n = node.getBoundingClientRect();
    const a = r.left + THUMB / 2 - n.left, b = (r.width - THUMB) / last();
    return { X: (i) => a + b * i, step: (x) => Math.max(0, Math.min(V.count - 1, Math.round((x - a) / b))) };
  };
  // The x of step i inside the slider's box.
  const along = (i) => THUMB / 2 + ((slider.getBoundingClientRect().width - THUMB) * i) / last() + "px";

  function ticks() {
    const marks = $("fault-marks"), groups = $("turn-ticks");
    marks.textContent = ""; groups.textContent = "";
    F.marks.forEach((mark) => {
      const m = el("span", { class: mark.kind, title: mark.text, "data-step": String(mark.step) });
      m.style.left = along(mark.step); m.addEventListener("click", () => V.go(mark.step));
      marks.append(m);
    });
    F.groups.forEach(({ label, step }) => {
      const t = el("span", { "data-turn": label, "data-step": String(step) }, label);
      t.style.left = along(step); groups.append(t);
    });
  }

  const NS = "http://www.w3.org/2000/svg";
  const sv = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; return e; };
  const charts = [...document.querySelectorAll("svg.series-chart")].map((svg) => {
    const chart = { svg, cursor: null, axis: null };
    svg.addEventListener("click", (e) => {
      const r = svg.getBoundingClientRect();
      if (chart.axis) V.go(chart.axis.step((e.clientX - r.left) * (svg.viewBox.baseVal.width / r.width)));
    });
    return chart;
  });
  function draw(chart) {
    const svg = chart.svg, series = F.series[Number(svg.dataset.series)], values = series.values, count = V.count;
    const W = svg.clientWidth || 1000, H = svg.clientHeight || 170, TOP = 10, B = 20;
    svg.textContent = "";
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    chart.axis = V.axis(svg);
    const X = chart.axis.X, L = X(0), R = X(count - 1);
    let max = 10, min = 0;
    values.forEach((seat) => seat.forEach((v) => { max = Math.max(max, v); min = Math.min(min, v); }));
    const Y = (v) => TOP + ((H - TOP - B) * (max - v)) / (max - min || 1);
    const unit = Math.pow(10, Math.floor(Math.log10(max - min || 1)));
    const tick = (max - min) / unit > 5 ? unit * 2 : unit / ((max - min) / unit < 2 ? 2 : 1);
    for (let v = Math.ceil(min / tick) * tick; v <= max; v += tick) {
      svg.append(sv("line", { x1: L, x2: R, y1: Y(v), y2: Y(v), stroke: "#eee" }));
      svg.append(sv("text", { x: L - 8, y: Y(v) + 4, "text-anchor": "end" }, String(v)));
    }
    F.groups.forEach(({ label, step }, k) => {
      svg.append(sv("line", { x1: X(step), x2: X(step), y1: TOP, y2: H - B, stroke: "#e6e2d9", class: "turn", "data-turn": label }));
      svg.append(sv("text", { x: X(step), y: H - 6, "text-anchor": "middle" }, (k === 0 ? F.group_name + " " : "") + label));
    });
    values.forEach((seat, s) => {
      const stop = F.seats[s].stopped_at;
      const upTo = stop === undefined ? count - 1 : stop;
      const path = (from, to) => seat.slice(from, to + 1).map((v, k) => (k ? "L" : "M") + X(from + k).toFixed(1) + " " + Y(v).toFixed(1)).join(" ");
      svg.append(sv("path", { d: path(0, upTo), fill: "none", stroke: V.seatColour[s], "stroke-width": 2.4, "stroke-linejoin": "round", class: "seat-line", "data-seat": String(s) }));
      if (upTo < count - 1) svg.append(sv("path", { d: path(upTo, count - 1), fill: "none", stroke: V.seatColour[s], "stroke-width": 1.6, "stroke-dasharray": "4 4", opacity: 0.6 }));
    });
    // End labels, pushed apart so that close values stay readable.
    const ends = values.map((seat, s) => ({ s, v: seat[count - 1] })).sort((a, b) => b.v - a.v);
    let y = -Infinity;
    ends.forEach((e) => {
      y = Math.max(Y(e.v) - 5, y + 14, TOP + 10);
      svg.append(sv("text", { x: R - 4, y, "text-anchor": "end", style: "fill:" + V.seatColour[e.s] + ";font-weight:700;paint-order:stroke;stroke:#fff;stroke-width:3px" }, F.seats[e.s].mark + " " + F.seats[e.s].name + " " + e.v));
    });
    svg.append(sv("text", { x: L + 4, y: TOP + 2, class: "caption", "dominant-baseline": "hanging" }, series.title));
    chart.cursor = sv("line", { y1: TOP, y2: H - B, stroke: ink, "stroke-width": 1, "stroke-dasharray": "3 3", class: "cursor" });
    svg.append(chart.cursor);
    cursor(chart, V.current);
  }
  function cursor(chart, i) { if (chart.cursor && chart.axis) { chart.cursor.setAttribute("x1", chart.axis.X(i)); chart.cursor.setAttribute("x2", chart.axis.X(i)); } }
  V.onStep.push((i) => charts.forEach((c) => cursor(c, i)));
  V.onLayout.push(() => { ticks(); charts.forEach(draw); });
})();
