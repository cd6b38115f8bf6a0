// The replay viewer's board: the canvas sized to the window and its pixel ratio, each
// owner told apart by colour, shape and letter (seat 0 square A, seat 1 diamond B, seat 2
// triangle C, town hall square H), roads by a centre line, the step's changed cells and action targets marked,
// Phase II sales pending, monument ranges (toggled, pinned or hovered), zoom and pan, the
// tooltip (with a house's worth), the legend and the heat map's. Everything drawn comes from the timeline.
"use strict";
(function () {
  const V = window.viewer, T = V.T, N = V.N, $ = V.$, C = V.colour;
  const { kind, owner, mon, value, worth } = V.cells;
  const canvas = $("board"), ctx = canvas.getContext("2d");
  let size = 480, dpr = window.devicePixelRatio || 1, margin = 20;
  V.board = { canvas };

  // What to show.
  function cityView() {
    const b = T.bounds, pad = 3;
    const x0 = b[0] - pad, y0 = b[1] - pad, x1 = b[2] + pad, y1 = b[3] + pad;
    const w = Math.min(N, Math.max(x1 - x0 + 1, y1 - y0 + 1, 16));
    const cx = (x0 + x1 + 1) / 2, cy = (y0 + y1 + 1) / 2;
    return clampView({ x0: Math.round(cx - w / 2), y0: Math.round(cy - w / 2), w });
  }
  function clampView(v) {
    const w = Math.max(8, Math.min(N, v.w));
    return { w, x0: Math.max(0, Math.min(N - w, v.x0)), y0: Math.max(0, Math.min(N - w, v.y0)) };
  }
  let view = cityView(), heat = false, ranges = false, pinned = null, hover = null;
  const cellPx = () => (size - margin) / view.w;
  function toCell(px, py) {
    const c = cellPx();
    const x = Math.floor((px - margin) / c) + view.x0, y = Math.floor((py - margin) / c) + view.y0;
    return px >= margin && py >= margin && x < view.x0 + view.w && y < view.y0 + view.w && x < N && y < N ? { x, y } : null;
  }
  // A cell's rectangle in CSS pixels of the page (for tests and the tooltip).
  V.board.cellRect = function (x, y) {
    const r = canvas.getBoundingClientRect(), c = cellPx();
    return { left: r.left + margin + (x - view.x0) * c, top: r.top + margin + (y - view.y0) * c, size: c };
  };

  function heatColour(v) {
    if (v === 0) return C.ground;
    if (v > 0) { const t = Math.min(v / 12, 1); return "hsl(" + (48 - 40 * t) + ",90%," + (84 - 40 * t) + "%)"; }
    const t = Math.min(-v / 3, 1); return "hsl(205,70%," + (84 - 32 * t) + "%)";
  }
  V.board.heatColour = heatColour;

  // A house or reservation of `who` (0-2 a seat, 3 the town hall) in the box (x, y, c).
  function shape(g, who, x, y, c) {
    g.beginPath();
    if (who === 1) { g.moveTo(x + c / 2, y); g.lineTo(x + c, y + c / 2); g.lineTo(x + c / 2, y + c); g.lineTo(x, y + c / 2); }
    else if (who === 2) { g.moveTo(x + c / 2, y); g.lineTo(x + c, y + c); g.lineTo(x, y + c); }
    else g.rect(x, y, c, c);
    g.closePath();
  }
  function house(g, who, px, py, c, reserved) {
    const inset = c * 0.08, s = c - 2 * inset, fill = who < 3 ? C.seat[who] : C.hall;
    shape(g, who, px + inset, py + inset, s);
    if (reserved) {
      g.lineWidth = Math.max(1.5, c * 0.14); g.strokeStyle = fill; g.stroke();
    } else {
      g.fillStyle = fill; g.fill();
      if (c >= 6) { g.lineWidth = 1; g.strokeStyle = C.road; g.stroke(); }
    }
    if (c >= 12) {
      const letter = who < 3 ? V.LETTER[who] : "H";
      g.fillStyle = reserved ? fill : who < 3 ? C.onSeat[who] : C.onHall;
      g.font = "700 " + Math.round(c * (who === 2 ? 0.42 : 0.52)) + "px system-ui,sans-serif";
      g.textAlign = "center"; g.textBaseline = "middle";
      g.fillText(reserved ? letter.toLowerCase() : letter, px + c / 2, py + c * (who === 2 ? 0.64 : 0.53));
    }
  }
  V.board.house = house;
  function monument(g, id, px, py, c) {
    g.fillStyle = C.monument;
    g.beginPath(); g.arc(px + c / 2, py + c / 2, c * 0.47, 0, 2 * Math.PI); g.fill();
    if (c >= 9 && id >= 0) {
      g.fillStyle = "#fff"; g.font = "600 " + Math.round(Math.min(14, c * 0.55)) + "px system-ui,sans-serif";
      g.textAlign = "center"; g.textBaseline = "middle"; g.fillText(String(id), px + c / 2, py + c / 2 + 0.5);
    }
  }
  V.board.monument = monument;
  // A road: its fill, and a centre line in --road-line towards each neighbouring road (a dot
  // alone), so that a road reads by its shape too, not only by being the darkest colour.
  // `links` holds up, right, down, left.
  function road(g, px, py, c, links) {
    g.fillStyle = C.road; g.fillRect(px, py, c, c);
    if (c < 5) return;
    const mx = px + c / 2, my = py + c / 2, w = Math.max(1, c * 0.16);
    g.strokeStyle = C.roadLine; g.fillStyle = C.roadLine; g.lineWidth = w; g.lineCap = "round";
    g.beginPath();
    [[0, -1], [1, 0], [0, 1], [-1, 0]].forEach(([dx, dy], i) => {
      if (links[i]) { g.moveTo(mx, my); g.lineTo(mx + dx * c / 2, my + dy * c / 2); }
    });
    g.stroke(); g.lineCap = "butt";
    g.beginPath(); g.arc(mx, my, w / 2, 0, 2 * Math.PI); g.fill();
  }
  V.board.road = road;
  const isRoad = (x, y) => x >= 0 && y >= 0 && x < N && y < N && kind[y * N + x] === 4;

  // The marks of the current step.
  let changed = new Set(), targets = new Map(), sold = new Map();
  function marks(index) {
    const st = V.steps[index];
    changed = new Set((st.cells || []).map((c) => c[1] * N + c[0]));
    targets = new Map((st.targets || []).map((t) => [t[1] * N + t[0], t[2]]));
    sold = new Map();
    const pending = V.pendingAt(index);
    for (const s in pending) (pending[s].sales || []).forEach(([x, y, w]) => sold.set(y * N + x, { seat: Number(s), worth: w }));
  }
  V.board.marks = () => ({ changed: changed.size, targets: targets.size, sold: sold.size });

  function rangeOf(x, y) {
    const m = T.monuments[mon[y * N + x]];
    return { x0: Math.max(0, x - m.range), y0: Math.max(0, y - m.range), x1: Math.min(N - 1, x + m.range), y1: Math.min(N - 1, y + m.range), prestige: m.prestige };
  }
  function drawRange(x, y, strong) {
    const c = cellPx(), r = rangeOf(x, y);
    const rx = margin + (r.x0 - view.x0) * c, ry = margin + (r.y0 - view.y0) * c;
    const w = (r.x1 - r.x0 + 1) * c, h = (r.y1 - r.y0 + 1) * c;
    ctx.fillStyle = r.prestige >= 0 ? "rgba(15,138,110," + (strong ? 0.2 : 0.1) + ")" : "rgba(192,0,0," + (strong ? 0.18 : 0.09) + ")";
    ctx.fillRect(rx, ry, w, h);
    ctx.strokeStyle = r.prestige >= 0 ? C.monument : C.refused; ctx.lineWidth = strong ? 2.5 : 1.5;
    ctx.setLineDash(r.prestige >= 0 ? [] : [5, 3]); ctx.strokeRect(rx, ry, w, h); ctx.setLineDash([]);
  }

  function draw() {
    const c = cellPx();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size, size);
    ctx.fillStyle = C.ground; ctx.fillRect(0, 0, size, size);
    const xEnd = Math.min(N, view.x0 + view.w), yEnd = Math.min(N, view.y0 + view.w);
    for (let y = view.y0; y < yEnd; y++) {
      for (let x = view.x0; x < xEnd; x++) {
        const i = y * N + x, k = kind[i], o = owner[i];
        const px = margin + (x - view.x0) * c, py = margin + (y - view.y0) * c;
        if (heat && value[i] !== 0) { ctx.fillStyle = heatColour(value[i]); ctx.fillRect(px, py, c, c); }
        if (k === 4) road(ctx, px, py, c, [isRoad(x, y - 1), isRoad(x + 1, y), isRoad(x, y + 1), isRoad(x - 1, y)]);
        else if (k === 1 || k === 2) house(ctx, o, px, py, c, k === 2);
        else if (k === 3) monument(ctx, mon[i], px, py, c);
        if (heat && c >= 16 && value[i] !== 0 && k === 0) {
          ctx.fillStyle = C.ink; ctx.font = Math.round(c * 0.4) + "px system-ui,sans-serif";
          ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.fillText(String(value[i]), px + c / 2, py + c / 2 + 0.5);
        }
      }
    }
    if (c >= 5) { // grid
      ctx.strokeStyle = "rgba(0,0,0,.07)"; ctx.lineWidth = 1; ctx.beginPath();
      for (let j = 0; j <= view.w; j++) {
        const p = Math.round(margin + j * c) + 0.5;
        ctx.moveTo(p, margin); ctx.lineTo(p, size); ctx.moveTo(margin, p); ctx.lineTo(size, p);
      }
      ctx.stroke();
    }
    // Monument ranges: all of them (R), the pinned one, the hovered one.
    if (ranges) for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) if (kind[y * N + x] === 3 && mon[y * N + x] >= 0) drawRange(x, y, false);
    if (pinned && kind[pinned.y * N + pinned.x] === 3) drawRange(pinned.x, pinned.y, true);
    if (hover && kind[hover.y * N + hover.x] === 3 && mon[hover.y * N + hover.x] >= 0) drawRange(hover.x, hover.y, true);
    // Pending sales: hatched.
    ctx.lineWidth = Math.max(1, c * 0.08); ctx.strokeStyle = C.ink;
    sold.forEach((_, i) => {
      const x = i % N, y = Math.floor(i / N); if (!visible(x, y)) return;
      const px = margin + (x - view.x0) * c, py = margin + (y - view.y0) * c;
      ctx.beginPath();
      for (let t = 0.25; t < 2; t += 0.5) { ctx.moveTo(px + Math.min(t, 1) * c, py + Math.max(0, t - 1) * c); ctx.lineTo(px + Math.max(0, t - 1) * c, py + Math.min(t, 1) * c); }
      ctx.stroke();
    });
    // Cells changed in this step: an outline; targets: a dashed outline, a cross if refused.
    ctx.strokeStyle = C.mark; ctx.lineWidth = Math.max(2, c * 0.14);
    changed.forEach((i) => {
      const x = i % N, y = Math.floor(i / N); if (!visible(x, y)) return;
      ctx.strokeRect(margin + (x - view.x0) * c + ctx.lineWidth / 2, margin + (y - view.y0) * c + ctx.lineWidth / 2, c - ctx.lineWidth, c - ctx.lineWidth);
    });
    targets.forEach((code, i) => {
      const x = i % N, y = Math.floor(i / N); if (!visible(x, y)) return;
      const px = margin + (x - view.x0) * c, py = margin + (y - view.y0) * c;
      if (code === 0) {
        if (changed.has(i)) return;
        ctx.strokeStyle = C.mark; ctx.lineWidth = Math.max(1.5, c * 0.1); ctx.setLineDash([3, 2]);
        ctx.strokeRect(px + 1, py + 1, c - 2, c - 2); ctx.setLineDash([]);
        return;
      }
      const a = c * 0.2, lw = Math.max(2, c * 0.14);
      ctx.lineCap = "round";
      for (const [colour, width] of [["#fff", lw + 2], [C.refused, lw]]) {
        ctx.strokeStyle = colour; ctx.lineWidth = width; ctx.beginPath();
        ctx.moveTo(px + a, py + a); ctx.lineTo(px + c - a, py + c - a); ctx.moveTo(px + c - a, py + a); ctx.lineTo(px + a, py + c - a);
        ctx.stroke();
      }
      ctx.lineCap = "butt";
    });
    // Row and column labels.
    ctx.fillStyle = C.ground; ctx.fillRect(0, 0, size, margin); ctx.fillRect(0, 0, margin, size);
    ctx.fillStyle = C.muted; ctx.font = Math.round(margin * 0.5) + "px system-ui,sans-serif";
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    const every = c >= 18 ? 1 : c >= 9 ? 2 : c >= 4 ? 5 : 10;
    for (let j = 0; j < view.w; j++) {
      if ((view.x0 + j) % every === 0) ctx.fillText(String(view.x0 + j), margin + (j + 0.5) * c, margin / 2);
      if ((view.y0 + j) % every === 0) ctx.fillText(String(view.y0 + j), margin / 2, margin + (j + 0.5) * c);
    }
    if (hover) { ctx.strokeStyle = C.ink; ctx.lineWidth = 1.5; ctx.strokeRect(margin + (hover.x - view.x0) * c, margin + (hover.y - view.y0) * c, c, c); }
  }
  const visible = (x, y) => x >= view.x0 && y >= view.y0 && x < view.x0 + view.w && y < view.y0 + view.w;
  V.board.draw = draw;

  // The tooltip: the cell, its owner, its value and a house's worth, and what the step did there.
  function describe(x, y) {
    const i = y * N + x, k = kind[i], o = owner[i];
    const lines = ["(" + x + ", " + y + ") " + V.KIND[k]];
    if (k === 1 || k === 2) lines.push("owner: " + (o < 3 ? V.who(o) : "town hall (H)"));
    if (k === 1) lines.push("worth: " + worth[i] + (worth[i] === 1 ? " rouble" : " roubles"));
    if (k === 3) {
      const m = T.monuments[mon[i]];
      lines.push("monument " + mon[i] + ": " + m.name, "prestige " + (m.prestige > 0 ? "+" : "") + m.prestige + ", range " + m.range);
    }
    lines.push("value: " + value[i]);
    if (changed.has(i)) lines.push("changed in this step");
    if (targets.has(i)) lines.push("aimed at in this step: " + (targets.get(i) === 0 ? "done" : "refused, " + V.codeName(targets.get(i))));
    if (sold.has(i)) lines.push("sold by " + V.who(sold.get(i).seat) + ": +" + sold.get(i).worth + " when the auction is resolved");
    return lines.join("\n");
  }
  V.board.describe = describe;
  const tip = $("tooltip");
  let drag = null;
  canvas.addEventListener("mousedown", (e) => {
    drag = { x: e.clientX, y: e.clientY, x0: view.x0, y0: view.y0, moved: false };
  });
  window.addEventListener("mouseup", () => { if (drag && drag.moved) canvas.classList.remove("panning"); setTimeout(() => { drag = null; }, 0); });
  canvas.addEventListener("mousemove", (e) => {
    const r = canvas.getBoundingClientRect();
    if (drag && (e.buttons & 1)) {
      const c = cellPx(), dx = Math.round((e.clientX - drag.x) / c), dy = Math.round((e.clientY - drag.y) / c);
      if (dx || dy || drag.moved) {
        drag.moved = true; canvas.classList.add("panning");
        view = clampView({ w: view.w, x0: drag.x0 - dx, y0: drag.y0 - dy }); tip.hidden = true; draw(); return;
      }
    }
    const cell = toCell(e.clientX - r.left, e.clientY - r.top);
    hover = cell;
    if (cell) {
      tip.hidden = false; tip.textContent = describe(cell.x, cell.y);
      const left = e.clientX - r.left + 14, top = e.clientY - r.top + 14;
      tip.style.left = Math.max(0, Math.min(left, size - tip.offsetWidth - 4)) + "px";
      tip.style.top = Math.max(0, Math.min(top, size - tip.offsetHeight - 4)) + "px";
    } else tip.hidden = true;
    draw();
  });
  canvas.addEventListener("mouseleave", () => { hover = null; tip.hidden = true; draw(); });
  canvas.addEventListener("click", (e) => {
    if (drag && drag.moved) return;
    const r = canvas.getBoundingClientRect(), cell = toCell(e.clientX - r.left, e.clientY - r.top);
    if (!cell || kind[cell.y * N + cell.x] !== 3) return;
    pinned = pinned && pinned.x === cell.x && pinned.y === cell.y ? null : cell;
    draw();
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    const cell = toCell(e.clientX - r.left, e.clientY - r.top) || { x: view.x0 + view.w / 2, y: view.y0 + view.w / 2 };
    const w = Math.round(view.w * (e.deltaY > 0 ? 1.2 : 1 / 1.2));
    const fx = (cell.x - view.x0) / view.w, fy = (cell.y - view.y0) / view.w;
    setView(clampView({ w, x0: Math.round(cell.x - fx * w), y0: Math.round(cell.y - fy * w) }));
  }, { passive: false });
  function setView(v) {
    view = v;
    $("btn-zoom").textContent = view.w === N ? "City" : "Whole map";
    canvas.classList.toggle("pannable", view.w < N);
    draw();
  }
  V.board.view = () => Object.assign({}, view);
  const pan = (dx, dy) => () => { const d = Math.max(1, Math.round(view.w / 8)); setView(clampView({ w: view.w, x0: view.x0 + dx * d, y0: view.y0 + dy * d })); };
  const toggleZoom = () => setView(view.w === N ? cityView() : { x0: 0, y0: 0, w: N });
  const toggleHeat = () => { heat = !heat; $("btn-heat").setAttribute("aria-pressed", String(heat)); heatLegend(); draw(); };
  const toggleRanges = () => { ranges = !ranges; $("btn-ranges").setAttribute("aria-pressed", String(ranges)); draw(); };
  $("btn-zoom").addEventListener("click", toggleZoom);
  $("btn-heat").addEventListener("click", toggleHeat);
  $("btn-ranges").addEventListener("click", toggleRanges);
  V.key(["z"], "zoom", toggleZoom);
  V.key(["v"], "cell values", toggleHeat);
  V.key(["r"], "monument ranges", toggleRanges);
  V.key(["Shift+ArrowLeft", "Shift+ArrowRight", "Shift+ArrowUp", "Shift+ArrowDown"], "pan", pan(-1, 0));
  V.keys["Shift+ArrowRight"][0] = pan(1, 0);
  V.keys["Shift+ArrowUp"][0] = pan(0, -1);
  V.keys["Shift+ArrowDown"][0] = pan(0, 1);

  // The legend: each owner's mark, the other kinds, the step's marks.
  function icon(paint) {
    const k = 16, c = V.el("canvas", { width: String(k * 2), height: String(k * 2), class: "swatch" });
    c.style.width = k + "px"; c.style.height = k + "px";
    const g = c.getContext("2d"); g.scale(2, 2); paint(g, k); return c;
  }
  V.board.icon = icon;
  const legend = $("legend");
  const entry = (paint, text) => { const s = V.el("span"); s.append(icon(paint), text); legend.append(s); return s; };
  T.seats.forEach((seat) => entry((g, k) => house(g, seat.seat, 0, 0, k, false), V.who(seat.seat)));
  entry((g, k) => house(g, 3, 0, 0, k, false), "town-hall house");
  entry((g, k) => road(g, 0, 0, k, [false, true, false, true]), "road");
  entry((g, k) => monument(g, -1, 0, 0, k), "monument");
  entry((g, k) => house(g, 0, 0, 0, k, true), "reservation (a b c)");
  entry((g, k) => { g.strokeStyle = C.mark; g.lineWidth = 2.5; g.strokeRect(1.5, 1.5, k - 3, k - 3); }, "changed in this step");
  entry((g, k) => { g.strokeStyle = C.refused; g.lineWidth = 2.5; g.beginPath(); g.moveTo(3, 3); g.lineTo(k - 3, k - 3); g.moveTo(k - 3, 3); g.lineTo(3, k - 3); g.stroke(); }, "action refused there");
  entry((g, k) => { g.strokeStyle = C.ink; g.lineWidth = 1.3; g.beginPath(); for (let t = 4; t < 2 * k; t += 8) { g.moveTo(Math.min(t, k), Math.max(0, t - k)); g.lineTo(Math.max(0, t - k), Math.min(t, k)); } g.stroke(); }, "sold, pending");

  // The heat map's legend: one swatch per value on the board now.
  function heatLegend() {
    const box = $("heat-legend");
    box.hidden = !heat; box.textContent = "";
    if (!heat) return;
    let lo = 0, hi = 0;
    for (let i = 0; i < N * N; i++) { lo = Math.min(lo, value[i]); hi = Math.max(hi, value[i]); }
    box.append(V.el("span", {}, "value "));
    const every = hi - lo > 16 ? 2 : 1;
    for (let v = lo; v <= hi; v++) {
      const sw = V.el("i", { title: "value " + v, "data-value": String(v) });
      sw.style.background = heatColour(v); sw.style.outline = "1px solid " + C.ink;
      box.append(sw);
      if (v === lo || v === hi || v === 0 || (v - lo) % (4 * every) === 0) box.append(V.el("span", {}, (v > 0 ? "+" : "") + v));
    }
    box.dataset.range = lo + " " + hi;
  }

  // Size: the board fills what the header, the controls and the score chart leave.
  // (Drawn once the layout is done.)
  let laidOut = false;
  V.board.resize = function (px) {
    size = Math.max(200, Math.floor(px));
    dpr = window.devicePixelRatio || 1;
    margin = Math.max(16, Math.round(size * 0.032));
    if (canvas.width !== Math.round(size * dpr)) { canvas.width = Math.round(size * dpr); canvas.height = Math.round(size * dpr); }
    canvas.style.width = size + "px"; canvas.style.height = size + "px";
    $("board-pane").style.width = size + 2 + "px";
  };
  V.onLayout.push(() => { laidOut = true; draw(); });
  V.onStep.push((index) => { marks(index); if (heat) heatLegend(); if (laidOut) draw(); });
})();
