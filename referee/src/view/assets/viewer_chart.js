// The replay viewer's time scale: one axis shared by the step slider (its turn ticks and
// fault marks), the chart of the final scores and the CPU chart of console.js, all placed
// from the slider thumb's centre so that a turn sits at the same pixel on each; the chart
// of the final scores (money + houses' worth) per seat, a stopped seat's curve dashed from
// its fault on.
"use strict";
(function () {
  const V = window.viewer, T = V.T, steps = V.steps, $ = V.$, el = V.el, C = V.colour;
  const slider = $("step-slider"), THUMB = 14; // px, as viewer.css draws the thumb
  const last = Math.max(1, steps.length - 1);

  // The x of step i in the coordinates of `node` (an svg whose viewBox is its CSS size),
  // and back: the step under an x.
  V.axis = function (node) {
    const r = slider.getBoundingClientRect(), n = node.getBoundingClientRect();
    const a = r.left + THUMB / 2 - n.left, b = (r.width - THUMB) / last;
    return { X: (i) => a + b * i, step: (x) => Math.max(0, Math.min(steps.length - 1, Math.round((x - a) / b))) };
  };
  // The x of step i inside the slider's box.
  const along = (i) => THUMB / 2 + ((slider.getBoundingClientRect().width - THUMB) * i) / last + "px";

  function ticks() {
    const marks = $("fault-marks"), turns = $("turn-ticks");
    marks.textContent = ""; turns.textContent = "";
    steps.forEach((st, i) => {
      if (!st.faults || !st.faults.length) return;
      const m = el("span", { title: V.label(i) + "\n" + st.faults.map((f) => V.who(f.seat) + " " + f.kind + ": " + f.message).join("\n"), "data-step": String(i) });
      m.style.left = along(i); m.addEventListener("click", () => V.go(i));
      marks.append(m);
    });
    V.turnStarts.forEach(({ turn, step }) => {
      const t = el("span", { "data-turn": String(turn), "data-step": String(step) }, String(turn));
      t.style.left = along(step); turns.append(t);
    });
  }

  const svg = $("chart"), NS = "http://www.w3.org/2000/svg";
  const sv = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; return e; };
  let cursorLine = null, axis = null;
  function chart() {
    const W = svg.clientWidth || 1000, H = svg.clientHeight || 170, TOP = 10, B = 20;
    svg.textContent = "";
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    axis = V.axis(svg);
    const X = axis.X, L = X(0), R = X(steps.length - 1);
    let max = 10, min = 0;
    steps.forEach((st) => st.final.forEach((v) => { max = Math.max(max, v); min = Math.min(min, v); }));
    const Y = (v) => TOP + ((H - TOP - B) * (max - v)) / (max - min || 1);
    const unit = Math.pow(10, Math.floor(Math.log10(max - min || 1)));
    const tick = (max - min) / unit > 5 ? unit * 2 : unit / ((max - min) / unit < 2 ? 2 : 1);
    for (let v = Math.ceil(min / tick) * tick; v <= max; v += tick) {
      svg.append(sv("line", { x1: L, x2: R, y1: Y(v), y2: Y(v), stroke: "#eee" }));
      svg.append(sv("text", { x: L - 8, y: Y(v) + 4, "text-anchor": "end" }, String(v)));
    }
    V.turnStarts.forEach(({ turn, step }) => {
      svg.append(sv("line", { x1: X(step), x2: X(step), y1: TOP, y2: H - B, stroke: "#e6e2d9", class: "turn", "data-turn": String(turn) }));
      svg.append(sv("text", { x: X(step), y: H - 6, "text-anchor": "middle" }, (turn === 1 ? "turn " : "") + turn));
    });
    [0, 1, 2].forEach((s) => {
      const stop = T.seats[s].stopped_at;
      const upTo = stop === undefined ? steps.length - 1 : stop;
      const path = (from, to) => steps.slice(from, to + 1).map((st, k) => (k ? "L" : "M") + X(from + k).toFixed(1) + " " + Y(st.final[s]).toFixed(1)).join(" ");
      svg.append(sv("path", { d: path(0, upTo), fill: "none", stroke: C.seat[s], "stroke-width": 2.4, "stroke-linejoin": "round", class: "seat-line", "data-seat": String(s) }));
      if (upTo < steps.length - 1) svg.append(sv("path", { d: path(upTo, steps.length - 1), fill: "none", stroke: C.seat[s], "stroke-width": 1.6, "stroke-dasharray": "4 4", opacity: 0.6 }));
    });
    // End labels, pushed apart so that close scores stay readable.
    const ends = [0, 1, 2].map((s) => ({ s, v: steps[steps.length - 1].final[s] })).sort((a, b) => b.v - a.v);
    let y = -Infinity;
    ends.forEach((e) => {
      y = Math.max(Y(e.v) - 5, y + 14, TOP + 10);
      svg.append(sv("text", { x: R - 4, y, "text-anchor": "end", style: "fill:" + C.seat[e.s] + ";font-weight:700;paint-order:stroke;stroke:#fff;stroke-width:3px" }, V.LETTER[e.s] + " " + T.seats[e.s].name + " " + e.v));
    });
    cursorLine = sv("line", { y1: TOP, y2: H - B, stroke: C.ink, "stroke-width": 1, "stroke-dasharray": "3 3", class: "cursor" });
    svg.append(cursorLine);
    cursor(V.current);
  }
  function cursor(i) { if (cursorLine && axis) { cursorLine.setAttribute("x1", axis.X(i)); cursorLine.setAttribute("x2", axis.X(i)); } }
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    if (axis) V.go(axis.step((e.clientX - r.left) * (svg.viewBox.baseVal.width / r.width)));
  });
  V.onStep.push(cursor);
  V.onLayout.push(() => { ticks(); chart(); });
})();
