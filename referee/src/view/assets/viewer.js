// The replay viewer: draws the timeline that the referee computed by replaying the match
// through the engine. No rule of the game lives here: every number shown comes from the
// timeline (see referee/src/view/timeline.rs for its format).
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("timeline").textContent);
  const steps = T.steps;
  const N = 100;
  const KIND = ["empty", "house", "reservation", "monument", "road"];
  const CODES = { 0: "SUCCES", "-2": "PAS_DE_MAISON", "-3": "PAS_DE_MONUMENT", "-4": "FINANCES_DEPASSEES",
    "-5": "BLOCAGE", "-7": "JOUEUR_INCORRECT", "-8": "NON_CONNEXE", "-9": "CASE_OCCUPEE",
    "-10": "ACTION_INTERDITE", "-12": "HORS_TERRAIN" };
  const css = getComputedStyle(document.documentElement);
  const SEAT = [0, 1, 2].map((s) => css.getPropertyValue("--p" + s).trim());
  const HALL = css.getPropertyValue("--hall").trim();
  const ROMAN = ["", "I", "II", "III"];
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  // Board state: kind, owner, monument, value per cell, rebuilt up to the current step.
  const kind = new Int8Array(N * N), owner = new Int8Array(N * N), mon = new Int8Array(N * N),
    value = new Int8Array(N * N);
  let built = -2; // the step the arrays hold (-1: initial)
  function put(c) {
    const i = c[1] * N + c[0];
    kind[i] = c[2]; owner[i] = c[3]; mon[i] = c[4]; value[i] = c[5];
  }
  function buildTo(index) {
    if (index < built || built === -2) {
      kind.fill(0); owner.fill(3); mon.fill(-1); value.fill(0);
      T.initial.forEach(put);
      built = -1;
    }
    for (let s = built + 1; s <= index; s++) (steps[s].cells || []).forEach(put);
    built = index;
  }

  // Labels.
  function label(s) {
    const st = steps[s];
    let when;
    if (st.phase === 0) when = st.callback === "init_game" ? "Start" : "End";
    else when = "Turn " + st.turn + " · phase " + ROMAN[st.phase];
    if (st.kind === "callback") return when + " · " + st.callback + " of " + T.seats[st.seat].name + " (seat " + st.seat + ")";
    if (st.phase === 0) return when + " · after " + st.callback;
    return when + " · " + ["", "end of the builds", "auction resolved", "placement done"][st.phase];
  }
  const codeName = (c) => CODES[c] || String(c);

  // Board drawing.
  const canvas = $("board"), ctx = canvas.getContext("2d");
  const dpr = window.devicePixelRatio || 1;
  const SIZE = 640;
  canvas.width = SIZE * dpr; canvas.height = SIZE * dpr;
  canvas.style.width = SIZE + "px"; canvas.style.height = SIZE + "px";
  ctx.scale(dpr, dpr);
  const MARGIN = 22; // room for the row and column labels
  function cityView() {
    const b = T.bounds, pad = 3;
    let x0 = b[0] - pad, y0 = b[1] - pad, x1 = b[2] + pad, y1 = b[3] + pad;
    let w = Math.max(x1 - x0 + 1, y1 - y0 + 1, 16);
    const cx = (x0 + x1 + 1) / 2, cy = (y0 + y1 + 1) / 2;
    x0 = Math.round(cx - w / 2); y0 = Math.round(cy - w / 2);
    x0 = Math.max(0, Math.min(N - w, x0)); y0 = Math.max(0, Math.min(N - w, y0));
    return { x0: Math.max(0, x0), y0: Math.max(0, y0), w: Math.min(w, N) };
  }
  let view = cityView(), whole = false, heat = false, hover = null, current = 0;
  const cellPx = () => (SIZE - MARGIN) / view.w;
  function toCell(px, py) {
    const c = cellPx();
    const x = Math.floor((px - MARGIN) / c) + view.x0, y = Math.floor((py - MARGIN) / c) + view.y0;
    return x >= view.x0 && y >= view.y0 && x < view.x0 + view.w && y < view.y0 + view.w && x < N && y < N ? { x, y } : null;
  }
  function heatColour(v) {
    if (v === 0) return "#f3f1ec";
    if (v > 0) { const t = Math.min(v / 12, 1); return "hsl(" + (48 - 40 * t) + ",90%," + (82 - 38 * t) + "%)"; }
    const t = Math.min(-v / 3, 1); return "hsl(205,70%," + (82 - 30 * t) + "%)";
  }
  function draw() {
    const c = cellPx();
    ctx.clearRect(0, 0, SIZE, SIZE);
    ctx.fillStyle = "#fbfaf7"; ctx.fillRect(0, 0, SIZE, SIZE);
    const fontPx = Math.max(7, Math.min(14, c * 0.62));
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (let y = view.y0; y < view.y0 + view.w && y < N; y++) {
      for (let x = view.x0; x < view.x0 + view.w && x < N; x++) {
        const i = y * N + x, k = kind[i], o = owner[i];
        const px = MARGIN + (x - view.x0) * c, py = MARGIN + (y - view.y0) * c;
        ctx.fillStyle = heat ? heatColour(value[i]) : "#f3f1ec";
        ctx.fillRect(px, py, c, c);
        const inset = heat ? c * 0.2 : c * 0.06;
        if (k === 4) { ctx.fillStyle = heat ? "rgba(90,84,74,.55)" : "#6f685e"; ctx.fillRect(px, py, c, c); }
        else if (k === 1) {
          ctx.fillStyle = o < 3 ? SEAT[o] : HALL;
          ctx.fillRect(px + inset, py + inset, c - 2 * inset, c - 2 * inset);
        } else if (k === 2) {
          ctx.strokeStyle = o < 3 ? SEAT[o] : HALL; ctx.lineWidth = Math.max(1, c * 0.12);
          ctx.strokeRect(px + c * 0.2, py + c * 0.2, c * 0.6, c * 0.6);
        } else if (k === 3) {
          ctx.fillStyle = "#6d3fa0";
          ctx.beginPath(); ctx.arc(px + c / 2, py + c / 2, c * 0.47, 0, 2 * Math.PI); ctx.fill();
          if (c >= 9) { ctx.fillStyle = "#fff"; ctx.font = "600 " + fontPx + "px system-ui,sans-serif"; ctx.fillText(String(mon[i]), px + c / 2, py + c / 2 + 0.5); }
        }
        if (heat && c >= 16 && value[i] !== 0 && k !== 3) {
          ctx.fillStyle = "#1d1b18"; ctx.font = Math.max(7, c * 0.4) + "px system-ui,sans-serif";
          ctx.fillText(String(value[i]), px + c / 2, py + c / 2 + 0.5);
        }
      }
    }
    if (c >= 5) { // grid
      ctx.strokeStyle = "rgba(0,0,0,.06)"; ctx.lineWidth = 1; ctx.beginPath();
      for (let j = 0; j <= view.w; j++) {
        const p = MARGIN + j * c + 0.5;
        ctx.moveTo(p, MARGIN); ctx.lineTo(p, SIZE); ctx.moveTo(MARGIN, p); ctx.lineTo(SIZE, p);
      }
      ctx.stroke();
    }
    // Row and column labels.
    ctx.fillStyle = "#fbfaf7"; ctx.fillRect(0, 0, SIZE, MARGIN); ctx.fillRect(0, 0, MARGIN, SIZE);
    ctx.fillStyle = "#77726a"; ctx.font = "10px system-ui,sans-serif";
    const every = c >= 18 ? 1 : c >= 9 ? 2 : c >= 4 ? 5 : 10;
    for (let j = 0; j < view.w; j++) {
      const v = view.x0 + j; if (v % every) continue;
      ctx.fillText(String(v), MARGIN + (j + 0.5) * c, MARGIN / 2);
    }
    for (let j = 0; j < view.w; j++) {
      const v = view.y0 + j; if (v % every) continue;
      ctx.fillText(String(v), MARGIN / 2, MARGIN + (j + 0.5) * c);
    }
    // The range of the hovered monument (rule 6, as data: the range is in the timeline).
    if (hover) {
      const i = hover.y * N + hover.x;
      const px = MARGIN + (hover.x - view.x0) * c, py = MARGIN + (hover.y - view.y0) * c;
      if (kind[i] === 3 && mon[i] >= 0) {
        const r = T.monuments[mon[i]].range;
        const x0 = Math.max(0, hover.x - r), y0 = Math.max(0, hover.y - r);
        const x1 = Math.min(N - 1, hover.x + r), y1 = Math.min(N - 1, hover.y + r);
        ctx.fillStyle = T.monuments[mon[i]].prestige >= 0 ? "rgba(109,63,160,.18)" : "rgba(30,110,200,.2)";
        ctx.strokeStyle = "#6d3fa0"; ctx.lineWidth = 2;
        const rx = MARGIN + (x0 - view.x0) * c, ry = MARGIN + (y0 - view.y0) * c;
        ctx.fillRect(rx, ry, (x1 - x0 + 1) * c, (y1 - y0 + 1) * c);
        ctx.strokeRect(rx, ry, (x1 - x0 + 1) * c, (y1 - y0 + 1) * c);
      }
      ctx.strokeStyle = "#111"; ctx.lineWidth = 1.5; ctx.strokeRect(px, py, c, c);
    }
  }
  function describe(x, y) {
    const i = y * N + x, k = kind[i], o = owner[i];
    const lines = ["(" + x + ", " + y + ") " + KIND[k]];
    if (k === 1 || k === 2) lines.push("owner: " + (o < 3 ? T.seats[o].name + " (seat " + o + ")" : "town hall"));
    if (k === 3) {
      const m = T.monuments[mon[i]];
      lines.push("monument " + mon[i] + ": " + m.name, "prestige " + (m.prestige > 0 ? "+" : "") + m.prestige + ", range " + m.range);
    }
    lines.push("value: " + value[i]);
    return lines.join("\n");
  }
  const tip = $("tooltip");
  canvas.addEventListener("mousemove", (e) => {
    const r = canvas.getBoundingClientRect();
    const cell = toCell(e.clientX - r.left, e.clientY - r.top);
    hover = cell;
    if (cell) {
      tip.hidden = false; tip.textContent = describe(cell.x, cell.y);
      const left = e.clientX - r.left + 14, top = e.clientY - r.top + 14;
      tip.style.left = Math.min(left, SIZE - 190) + "px"; tip.style.top = Math.min(top, SIZE - 80) + "px";
    } else tip.hidden = true;
    draw();
  });
  canvas.addEventListener("mouseleave", () => { hover = null; tip.hidden = true; draw(); });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    const cell = toCell(e.clientX - r.left, e.clientY - r.top) || { x: view.x0 + view.w / 2, y: view.y0 + view.w / 2 };
    const w = Math.max(8, Math.min(N, Math.round(view.w * (e.deltaY > 0 ? 1.2 : 1 / 1.2))));
    const fx = (cell.x - view.x0) / view.w, fy = (cell.y - view.y0) / view.w;
    view = { w, x0: Math.max(0, Math.min(N - w, Math.round(cell.x - fx * w))), y0: Math.max(0, Math.min(N - w, Math.round(cell.y - fy * w))) };
    whole = w === N; $("btn-zoom").textContent = whole ? "City" : "Whole map";
    draw();
  }, { passive: false });
  function toggleZoom() {
    whole = !whole; view = whole ? { x0: 0, y0: 0, w: N } : cityView();
    $("btn-zoom").textContent = whole ? "City" : "Whole map"; draw();
  }
  function toggleHeat() {
    heat = !heat; $("btn-heat").setAttribute("aria-pressed", String(heat)); draw();
  }

  // Side panel.
  const cards = T.seats.map((seat) => {
    const s = seat.seat;
    const card = el("div", { class: "player", id: "player-" + s, "data-seat": String(s) });
    card.style.setProperty("--c", SEAT[s]);
    const h = el("h2"); h.append(el("span", {}, seat.name), el("span", { class: "seat" }, " seat " + s + " "));
    h.title = seat.path;
    const stats = el("div", { class: "stats" });
    const cell = (name, id, cls) => {
      const d = el("div", cls ? { class: cls } : {});
      const b = el("b", { id: id + "-" + s }, "0");
      d.append(b, el("span", {}, name)); stats.append(d); return b;
    };
    const money = cell("money", "money"), score = cell("score", "score"), fin = cell("final", "final", "final"), bid = cell("bid", "bid");
    const actions = el("ul", { class: "actions", id: "actions-" + s });
    const note = el("div", { class: "none" });
    const faults = el("div", { class: "faults", id: "faults-" + s });
    card.append(h, stats, actions, note, faults);
    $("players").append(card);
    return { card, money, score, fin, bid, actions, note, faults };
  });
  function lastAuction(index) {
    for (let s = index; s >= 0; s--) if (steps[s].bids) return steps[s];
    return null;
  }
  function panel(index) {
    const st = steps[index], auction = lastAuction(index);
    cards.forEach((k, s) => {
      k.money.textContent = st.money[s]; k.score.textContent = st.score[s];
      k.fin.textContent = st.final[s]; k.fin.dataset.value = st.final[s];
      k.bid.textContent = auction ? auction.bids[s] : "-";
      k.card.classList.toggle("won", !!auction && auction.winner === s);
      k.actions.textContent = ""; k.note.textContent = "";
      if (st.kind === "callback" && st.seat === s) {
        (st.actions || []).forEach(([call, code]) => {
          const li = el("li", { class: code === 0 ? "ok" : "err" }, call + " ");
          li.append(el("span", { class: "code" }, "→ " + codeName(code)));
          k.actions.append(li);
        });
        k.note.textContent = (st.actions ? st.actions.length : 0) + " action(s), " + (st.info || 0) + " information request(s) in " + st.callback;
      } else if (st.kind === "callback") {
        k.note.textContent = "";
      }
      const faults = [];
      for (let j = 0; j <= index; j++) (steps[j].faults || []).forEach((f) => { if (f.seat === s) faults.push(f); });
      k.faults.textContent = faults.map((f) => "⚠ " + f.kind + ": " + f.message).join("\n");
    });
    const info = [];
    if (st.kind === "stage_end" && st.bids) info.push("Auction resolved: bids " + st.bids.join(" / ") + "; " + T.seats[st.winner].name + " (seat " + st.winner + ") wins.");
    if (st.kind === "stage_end" && st.phase === 0 && st.callback === "end_game")
      info.push("Final scores: " + T.result.final_scores.join(" / ") + " · points " + T.result.points.join(" / "));
    if ((st.cells || []).length) info.push((st.cells.length) + " cell(s) changed in this step.");
    info.push("Keys: ← → step · ↑ ↓ turn · Home End · Space play · Z zoom · V values");
    $("stage-info").textContent = info.join("\n");
    $("stage-info").style.whiteSpace = "pre-line";
    const m = st.monument;
    $("monument-now").textContent = m === undefined ? "no monument drawn yet" :
      "monument in play: " + m + " " + T.monuments[m].name + " (" + (T.monuments[m].prestige > 0 ? "+" : "") + T.monuments[m].prestige + ", range " + T.monuments[m].range + ")";
  }

  // Timeline controls.
  const slider = $("step-slider");
  slider.max = String(steps.length - 1);
  const pct = (i) => (steps.length > 1 ? (100 * i) / (steps.length - 1) : 0) + "%";
  steps.forEach((st, i) => {
    if (st.faults && st.faults.length) {
      const m = el("span", { title: label(i) + "\n" + st.faults.map((f) => "seat " + f.seat + " " + f.kind + ": " + f.message).join("\n"), "data-step": String(i) });
      m.style.left = pct(i); m.addEventListener("click", () => go(i));
      $("fault-marks").append(m);
    }
    if (st.kind === "callback" && st.phase === 1 && (i === 0 || steps[i - 1].turn !== st.turn || steps[i - 1].phase === 0)) {
      if (st.turn % (steps.length > 60 ? 1 : 1) === 0) { const t = el("span", {}, String(st.turn)); t.style.left = pct(i); $("turn-ticks").append(t); }
    }
  });
  function go(index) {
    index = Math.max(0, Math.min(steps.length - 1, index));
    current = index; slider.value = String(index);
    buildTo(index); draw(); panel(index);
    $("step-label").textContent = "Step " + (index + 1) + "/" + steps.length + " · " + label(index);
    document.documentElement.dataset.step = String(index);
    cursor(index);
    document.dispatchEvent(new CustomEvent("viewer:step", { detail: index }));
  }
  window.viewerGo = (index) => go(index);
  function turnStart(index, dir) {
    // The first step of the next (dir 1) or current/previous (dir -1) turn.
    const key = (i) => (steps[i].phase === 0 ? (steps[i].callback === "init_game" ? 0 : 99) : steps[i].turn);
    const k = key(index);
    if (dir > 0) { for (let i = index + 1; i < steps.length; i++) if (key(i) > k) return i; return steps.length - 1; }
    let i = index; while (i > 0 && key(i - 1) === k) i--;
    if (i === index && i > 0) { const k2 = key(i - 1); while (i > 0 && key(i - 1) === k2) i--; }
    return i;
  }
  let timer = null;
  function play() {
    if (timer) { clearInterval(timer); timer = null; $("btn-play").textContent = "Play"; return; }
    if (current === steps.length - 1) go(0);
    $("btn-play").textContent = "Pause";
    timer = setInterval(() => { if (current >= steps.length - 1) play(); else go(current + 1); }, 350);
  }
  slider.addEventListener("input", () => go(Number(slider.value)));
  $("btn-first").onclick = () => go(0);
  $("btn-last").onclick = () => go(steps.length - 1);
  $("btn-prev").onclick = () => go(current - 1);
  $("btn-next").onclick = () => go(current + 1);
  $("btn-prev-turn").onclick = () => go(turnStart(current, -1));
  $("btn-next-turn").onclick = () => go(turnStart(current, 1));
  $("btn-play").onclick = play;
  $("btn-zoom").onclick = toggleZoom;
  $("btn-heat").onclick = toggleHeat;
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = {
      ArrowLeft: () => go(current - 1), ArrowRight: () => go(current + 1),
      ArrowUp: () => go(turnStart(current, -1)), ArrowDown: () => go(turnStart(current, 1)),
      PageUp: () => go(turnStart(current, -1)), PageDown: () => go(turnStart(current, 1)),
      Home: () => go(0), End: () => go(steps.length - 1), " ": play,
      z: toggleZoom, Z: toggleZoom, v: toggleHeat, V: toggleHeat,
    };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });

  // The chart of the final scores (money + score) over the steps, ticks at turns.
  const svg = $("chart"), NS = "http://www.w3.org/2000/svg";
  const sv = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; return e; };
  let cursorLine = null, chartX = null;
  function chart() {
    const W = svg.clientWidth || 1000, H = 170, L = 40, R = 12, TOP = 12, B = 24;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    let max = 10, min = 0;
    steps.forEach((st) => st.final.forEach((v) => { max = Math.max(max, v); min = Math.min(min, v); }));
    const X = (i) => L + ((W - L - R) * i) / Math.max(1, steps.length - 1);
    const Y = (v) => TOP + ((H - TOP - B) * (max - v)) / (max - min || 1);
    chartX = (px) => Math.round(((px - L) * Math.max(1, steps.length - 1)) / (W - L - R));
    const step = Math.pow(10, Math.floor(Math.log10(max - min || 1)));
    const tick = (max - min) / step > 5 ? step * 2 : step / ((max - min) / step < 2 ? 2 : 1);
    for (let v = Math.ceil(min / tick) * tick; v <= max; v += tick) {
      svg.append(sv("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: "#eee" }));
      svg.append(sv("text", { x: L - 6, y: Y(v) + 4, "text-anchor": "end" }, String(v)));
    }
    steps.forEach((st, i) => {
      if (st.kind === "callback" && st.phase === 1 && (i === 0 || steps[i - 1].turn !== st.turn || steps[i - 1].phase === 0)) {
        svg.append(sv("line", { x1: X(i), x2: X(i), y1: TOP, y2: H - B, stroke: "#f0eee8" }));
        svg.append(sv("text", { x: X(i), y: H - 8, "text-anchor": "middle" }, (st.turn === 1 ? "turn " : "") + st.turn));
      }
    });
    [0, 1, 2].forEach((s) => {
      const d = steps.map((st, i) => (i ? "L" : "M") + X(i).toFixed(1) + " " + Y(st.final[s]).toFixed(1)).join(" ");
      svg.append(sv("path", { d, fill: "none", stroke: SEAT[s], "stroke-width": 2.2, "stroke-linejoin": "round" }));
    });
    // End labels, pushed apart so that close scores stay readable.
    const ends = [0, 1, 2].map((s) => ({ s, v: steps[steps.length - 1].final[s] })).sort((a, b) => b.v - a.v);
    let y = -Infinity;
    ends.forEach((e) => {
      y = Math.max(Y(e.v) - 5, y + 14);
      svg.append(sv("text", { x: W - R - 4, y, "text-anchor": "end", style: "fill:" + SEAT[e.s] + ";font-weight:600" }, T.seats[e.s].name + " " + e.v));
    });
    cursorLine = sv("line", { y1: TOP, y2: H - B, stroke: "#23211e", "stroke-width": 1, "stroke-dasharray": "3 3" });
    svg.append(cursorLine);
    cursor.X = X;
  }
  function cursor(i) { if (cursorLine && cursor.X) { cursorLine.setAttribute("x1", cursor.X(i)); cursorLine.setAttribute("x2", cursor.X(i)); } }
  svg.addEventListener("click", (e) => { const r = svg.getBoundingClientRect(); if (chartX) go(chartX((e.clientX - r.left) * (svg.viewBox.baseVal.width / r.width))); });

  // Legend and footer.
  const legend = $("legend");
  T.seats.forEach((seat) => { const s = el("span"); const i = el("i"); i.style.background = SEAT[seat.seat]; s.append(i, seat.name + " (seat " + seat.seat + ")"); legend.append(s); });
  [["town-hall house", HALL], ["road", "#6f685e"], ["monument (hover: range)", "#6d3fa0"]].forEach(([n, c]) => {
    const s = el("span"); const i = el("i"); i.style.background = c; s.append(i, n); legend.append(s);
  });
  const s = el("span"); const i = el("i"); i.style.border = "2px solid " + SEAT[0]; s.append(i, "reservation"); legend.append(s);

  chart();
  const hash = location.hash.replace("#", "");
  const m = /^step=(\d+)$/.exec(hash);
  go(hash === "last" ? steps.length - 1 : m ? Number(m[1]) : 0);
  const ready = performance.now();
  $("footer").textContent = "Seed " + T.seed + " · " + steps.length + " steps · " + T.requests + " requests · monument order " +
    T.monument_order.join(",") + " · first player: seat " + T.first_player + " · loaded in " + ready.toFixed(0) + " ms";
  window.viewerReadyMs = ready;
  document.documentElement.dataset.ready = "1";
})();
