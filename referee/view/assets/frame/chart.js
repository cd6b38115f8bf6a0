// The replay page's time scale: one axis shared by the step slider (its group ticks and
// marks: faults, the game's notes), the charts of the game's per-seat series and the CPU
// chart of console.js, all placed from the slider thumb's centre so that a step sits at
// the same pixel on each; one chart per series (a seat's curve in its colour and its own
// dash, so that seats differ without colour too, faded from the fault that stopped it; a
// row of labels at the top, each with its seat's line, mark, name and last value). In
// spoiler-free mode the curves stop at the step shown, the labels give that step's values
// and the marks after it are hidden.
"use strict";
(function () {
  // The steps are read at each use (V.count): the page of a game still being played grows.
  const V = window.viewer, F = V.F, $ = V.$, el = V.el;
  const slider = $("step-slider"), THUMB = 14; // px, as frame.css draws the thumb
  const last = () => Math.max(1, V.count - 1);
  const ink = getComputedStyle(document.documentElement).getPropertyValue("--ink").trim() || "#23211e";
  // Each seat's dash (seat 0 solid): curves that differ in greyscale and to every eye.
  const DASH = ["", "9 4", "2 3", "12 3 3 3", "5 2 1 2 1 2"];
  V.dash = (s) => DASH[s % DASH.length];

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
    future(V.current);
    F.groups.forEach(({ label, step }) => {
      const t = el("span", { "data-turn": label, "data-step": String(step) }, label);
      t.style.left = along(step); groups.append(t);
    });
  }

  // Spoiler-free: the marks after step i hidden.
  function future(i) {
    $("fault-marks").querySelectorAll("span").forEach((m) => { m.hidden = V.spoilerFree && Number(m.dataset.step) > i; });
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
    // The series read at each draw: a game still being played replaces them as it grows.
    const svg = chart.svg, series = F.series[Number(svg.dataset.series)], values = series.values, count = V.count;
    const W = svg.clientWidth || 1000, H = svg.clientHeight || 170, B = 20;
    svg.textContent = "";
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    chart.axis = V.axis(svg);
    const X = chart.axis.X, L = X(0), R = X(count - 1);
    // Up to the step shown in spoiler-free mode (its scale too), else to the end.
    const shown = V.spoilerFree ? V.current : count - 1;
    chart.drawnTo = shown;
    // The caption, then the labels: rows at the top right, placed right to left, each
    // after a sample of its seat's line, the lowest value rightmost; a label that would
    // reach the caption starts a row below. The plot starts under the last row: no label
    // sits on a curve or on another label.
    const caption = sv("text", { x: L + 4, y: 4, class: "caption", "dominant-baseline": "hanging" }, series.title);
    svg.append(caption);
    const captionEnd = L + 4 + caption.getComputedTextLength() + 16;
    let x = R - 4, y = 15;
    values.map((seat, s) => ({ s, v: seat[shown] })).sort((a, b) => a.v - b.v || b.s - a.s).forEach((e) => {
      const text = sv("text", { x, y, "text-anchor": "end", class: "end", "data-seat": String(e.s), style: "fill:" + V.seatColour[e.s] + ";font-weight:700;paint-order:stroke;stroke:#fff;stroke-width:3px" }, F.seats[e.s].mark + " " + F.seats[e.s].name + " " + e.v);
      svg.append(text);
      const w = text.getComputedTextLength();
      if (x - w - 30 < captionEnd && x < R - 4) {
        x = R - 4; y += 15;
        text.setAttribute("x", x); text.setAttribute("y", y);
      }
      svg.append(sv("line", { x1: x - w - 28, x2: x - w - 4, y1: y - 4, y2: y - 4, stroke: V.seatColour[e.s], "stroke-width": 2.4, "stroke-dasharray": V.dash(e.s), class: "swatch" }));
      x -= w + 38;
    });
    const TOP = y + 8;
    let max = 10, min = 0;
    values.forEach((seat) => seat.slice(0, shown + 1).forEach((v) => { max = Math.max(max, v); min = Math.min(min, v); }));
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
      const upTo = Math.min(shown, stop === undefined ? count - 1 : stop);
      const path = (from, to) => seat.slice(from, to + 1).map((v, k) => (k ? "L" : "M") + X(from + k).toFixed(1) + " " + Y(v).toFixed(1)).join(" ");
      svg.append(sv("path", { d: path(0, upTo), fill: "none", stroke: V.seatColour[s], "stroke-width": 2.4, "stroke-linejoin": "round", "stroke-dasharray": V.dash(s), class: "seat-line", "data-seat": String(s) }));
      if (upTo < shown) svg.append(sv("path", { d: path(upTo, shown), fill: "none", stroke: V.seatColour[s], "stroke-width": 1.6, "stroke-dasharray": V.dash(s) || "4 4", opacity: 0.45 }));
    });
    chart.cursor = sv("line", { y1: TOP, y2: H - B, stroke: ink, "stroke-width": 1, "stroke-dasharray": "3 3", class: "cursor" });
    svg.append(chart.cursor);
    cursor(chart, V.current);
  }
  function cursor(chart, i) { if (chart.cursor && chart.axis) { chart.cursor.setAttribute("x1", chart.axis.X(i)); chart.cursor.setAttribute("x2", chart.axis.X(i)); } }
  V.onStep.push((i) => {
    future(i);
    charts.forEach((c) => (V.spoilerFree || c.drawnTo !== V.count - 1 ? draw(c) : cursor(c, i)));
  });
  V.onLayout.push(() => { ticks(); charts.forEach(draw); });
})();
