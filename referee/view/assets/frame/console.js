// The console of the replay page: what each champion wrote on stderr in the callbacks of
// the current step (like a CodinGame console), each callback's CPU and wall time against
// its budget (each output open at its end), and a chart of the CPU of every callback, per
// seat, against the budget line (in spoiler-free mode, up to the step shown).
// Its data is the JSON of referee/src/view/console_page.rs; champion text is only ever set
// with textContent (never as markup). The frame (frame.js) tells the step with a
// "viewer:step" event, and a new layout with "viewer:layout"; the chart's x scale is the
// frame's (viewer.axis, chart.js), the one of the step slider and the series charts.
"use strict";
(function () {
  const C = JSON.parse(document.getElementById("console-data").textContent);
  const $ = (id) => document.getElementById(id);
  const css = getComputedStyle(document.documentElement);
  const SEAT = C.names.map((_, s) => css.getPropertyValue("--p" + s).trim());
  // Each seat's mark besides its colour (the page's letters or colour names), and the
  // shape of its dots on the chart.
  const MARK = C.marks || [];
  const SHAPE = C.shapes && C.shapes.length ? C.shapes : ["square", "diamond", "triangle", "disc", "ring"];
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const ms = (us) => (us < 1000 ? us + " µs" : us < 10000 ? (us / 1000).toFixed(1) + " ms" : Math.round(us / 1000) + " ms");
  const steps = C.steps.length;

  function cost(c) {
    const cpu = "CPU " + ms(c.cpu_us) + (c.cpu_budget_us ? " of " + ms(c.cpu_budget_us) : "");
    const wall = "wall " + ms(c.wall_us) + (c.wall_budget_us ? " of " + ms(c.wall_budget_us) : "");
    return cpu + " · " + wall;
  }
  function output(box, out) {
    if (!out) return;
    if (out.text !== "" || out.bytes > 0) box.append(el("pre", { class: "stderr" }, out.text));
    else box.append(el("div", { class: "quiet" }, "no output"));
    (out.notes || []).forEach((n) => box.append(el("div", { class: "note" }, n)));
  }
  function entry(seat, title, c, out) {
    const box = el("div", { class: "call", "data-seat": String(seat) });
    box.style.setProperty("--c", SEAT[seat] || "#888");
    const head = el("div", { class: "head" });
    head.append(el("b", {}, C.names[seat] + " (" + (MARK[seat] ? MARK[seat] + ", " : "") + "seat " + seat + ")"), el("span", {}, title));
    if (c) {
      const over = c.cpu_budget_us && c.cpu_us > 0.8 * c.cpu_budget_us;
      head.append(el("span", { class: over ? "cost over" : "cost" }, cost(c)));
    }
    box.append(head);
    output(box, out);
    return box;
  }
  function render(index) {
    const pane = $("console");
    pane.textContent = "";
    pane.dataset.step = String(index);
    pane.append(el("h3", {}, "Console: stderr of the step's callbacks"));
    if (C.note) pane.append(el("div", { class: "note" }, C.note));
    const [a, b] = C.steps[index] || [0, 0];
    if (a === b) pane.append(el("div", { class: "quiet" }, "no callback in this step"));
    for (let i = a; i < b; i++) {
      const c = C.calls[i];
      pane.append(entry(c.seat, c.callback, c, c.stderr));
    }
    if (index === steps - 1) {
      C.after.forEach((out, seat) => { if (out) pane.append(entry(seat, "after its last callback", null, out)); });
    }
    // Each output opens at its end, as a terminal shows it: the last lines written (a
    // crash's traceback, the reason) in view, the earlier ones a scroll up.
    pane.querySelectorAll("pre.stderr").forEach((pre) => { pre.scrollTop = pre.scrollHeight; });
  }

  // The chart: one dot per callback at its step (the x scale of the score chart above),
  // CPU on a log scale, the budget as a dashed line; a seat's dots in its colour and shape.
  const svg = $("cpu-chart"), NS = "http://www.w3.org/2000/svg";
  const sv = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; return e; };
  let cursorLine = null, X = null, chartX = null;
  function chart() {
    const W = svg.clientWidth || 1000, H = 150, L = 40, R = 12, TOP = 10, B = 18;
    svg.textContent = "";
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    const axis = window.viewer && window.viewer.axis ? window.viewer.axis(svg) : null;
    X = axis ? axis.X : (i) => L + ((W - L - R) * i) / Math.max(1, steps - 1);
    chartX = axis ? axis.step : (px) => Math.round(((px - L) * Math.max(1, steps - 1)) / (W - L - R));
    let top = 1000;
    C.calls.forEach((c) => { top = Math.max(top, c.cpu_us, c.cpu_budget_us || 0); });
    const lo = Math.log10(10), hi = Math.log10(top * 1.5);
    const Y = (us) => TOP + ((H - TOP - B) * (hi - Math.log10(Math.max(us, 10)))) / (hi - lo);
    for (let us = 10; us <= top * 1.5; us *= 10) {
      svg.append(sv("line", { x1: L, x2: W - R, y1: Y(us), y2: Y(us), stroke: "#eee" }));
      svg.append(sv("text", { x: L - 4, y: Y(us) + 4, "text-anchor": "end" }, us < 1000 ? us + "µs" : us < 1e6 ? us / 1000 + "ms" : us / 1e6 + "s"));
    }
    const budget = C.calls.filter((c) => c.cpu_budget_us);
    if (budget.length) {
      const d = budget.map((c, k) => (k ? "L" : "M") + X(c.step).toFixed(1) + " " + Y(c.cpu_budget_us).toFixed(1)).join(" ");
      svg.append(sv("path", { d, fill: "none", stroke: "#b3261e", "stroke-width": 1.2, "stroke-dasharray": "5 3", class: "budget" }));
      svg.append(sv("text", { x: W - R - 2, y: Y(budget[budget.length - 1].cpu_budget_us) - 3, "text-anchor": "end", style: "fill:#b3261e" }, "CPU budget"));
    }
    C.calls.forEach((c) => {
      const x = X(c.step), y = Y(c.cpu_us), r = 3;
      const kind = SHAPE[c.seat];
      const shape = kind === "diamond" ? ["polygon", { points: [x, y - r, x + r, y, x, y + r, x - r, y].join(" ") }]
        : kind === "triangle" ? ["polygon", { points: [x, y - r, x + r, y + r, x - r, y + r].join(" ") }]
        : kind === "disc" ? ["circle", { cx: x, cy: y, r: r - 0.5 }]
        : kind === "ring" ? ["circle", { cx: x, cy: y, r: r - 1, fill: "none", stroke: SEAT[c.seat] || "#888", "stroke-width": 1.5 }]
        : ["rect", { x: x - r + 0.5, y: y - r + 0.5, width: 2 * r - 1, height: 2 * r - 1 }];
      const dot = sv(shape[0], Object.assign({ fill: SEAT[c.seat] || "#888", class: "cpu", "data-step": String(c.step), "data-seat": String(c.seat) }, shape[1]));
      dot.append(sv("title", {}, C.names[c.seat] + " (seat " + c.seat + "), " + c.callback + ": " + cost(c)));
      svg.append(dot);
    });
    svg.append(sv("text", { x: X(0) + 4, y: H - 4 }, "CPU per callback (log scale): " + C.names.map((_, s) => (MARK[s] || "seat " + s) + " " + SHAPE[s]).join(", ")));
    cursorLine = sv("line", { y1: TOP, y2: H - B, stroke: "#23211e", "stroke-width": 1, "stroke-dasharray": "3 3" });
    svg.append(cursorLine);
  }
  function cursor(i) {
    if (cursorLine && X) { cursorLine.setAttribute("x1", X(i)); cursorLine.setAttribute("x2", X(i)); }
    // Spoiler-free (frame.js): no dot of a callback after the step shown.
    const hide = window.viewer && window.viewer.spoilerFree;
    svg.querySelectorAll(".cpu").forEach((d) => { d.style.visibility = hide && Number(d.dataset.step) > i ? "hidden" : ""; });
  }
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    if (chartX && window.viewerGo) window.viewerGo(chartX((e.clientX - r.left) * (svg.viewBox.baseVal.width / r.width)));
  });

  document.addEventListener("viewer:step", (e) => { render(e.detail); cursor(e.detail); });
  document.addEventListener("viewer:layout", () => { chart(); cursor(Number(document.documentElement.dataset.step || 0)); });
  chart();
  const now = Number(document.documentElement.dataset.step || 0);
  render(now); cursor(now);
  document.documentElement.dataset.console = "1";
})();
