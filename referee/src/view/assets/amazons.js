// The Amazons replay page: shows the boards the referee computed by replaying the record
// with the amazons crate (referee/src/view/amazons_html.rs). No rule lives here.
// Step 0 is the start, step n the board after move n (as `referee --game amazons show --step n`).
// The console (console.js, which runs first) follows the "viewer:step" events; its chart
// moves the page with window.viewerGo.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("amazons").textContent);
  const last = D.moves.length;
  const COLOUR = ["White", "Black"];
  const CELL = { W: "White amazon", B: "Black amazon", x: "arrow", ".": "empty" };
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const squareName = (i) => "abcdefghij"[i % 10] + (Math.floor(i / 10) + 1);
  const seatName = (s) => D.seats[s].name + " (" + COLOUR[s] + ")";
  // Move n (1-based) is White's when n is odd.
  const mover = (n) => (n - 1) % 2;

  // The board: row 10 at the top, so square index 90 (a10) is the first element.
  const board = $("board"), squares = new Array(100);
  for (let row = 9; row >= 0; row--) {
    for (let col = 0; col < 10; col++) {
      const i = row * 10 + col;
      const sq = el("div", { class: "sq" + ((row + col) % 2 === 0 ? " dark" : ""), "data-index": String(i), "data-square": squareName(i) });
      sq.append(el("span", { class: "piece" }));
      board.append(sq);
      squares[i] = sq;
    }
  }
  for (let row = 10; row >= 1; row--) $("ranks").append(el("span", {}, String(row)));
  for (const f of "abcdefghij") $("files").append(el("span", {}, f));

  // The move's path: from -> to (solid), to -> arrow (dashed), in board units.
  const NS = "http://www.w3.org/2000/svg", svg = $("move-line");
  const centre = (i) => [(i % 10) + 0.5, 9 - Math.floor(i / 10) + 0.5];
  function pathLine(a, b, colour, dashed) {
    const [x1, y1] = centre(a), [x2, y2] = centre(b);
    const line = document.createElementNS(NS, "line");
    const attrs = { x1, y1, x2, y2, stroke: colour, "stroke-width": 0.08, "stroke-linecap": "round", opacity: 0.8 };
    if (dashed) attrs["stroke-dasharray"] = "0.18 0.14";
    for (const k in attrs) line.setAttribute(k, attrs[k]);
    svg.append(line);
  }
  const css = getComputedStyle(document.documentElement);
  const tone = (v) => css.getPropertyValue(v).trim();

  // Seats.
  const cards = D.seats.map((seat, s) => {
    const card = el("div", { class: "seat", id: "seat-" + s });
    const tok = el("span", { class: "tok " + "WB"[s] }, "WB"[s]);
    const who = el("div");
    who.append(el("div", { class: "name" }, seat.name), el("div", { class: "colour" }, COLOUR[s] + " · seat " + s));
    who.title = seat.path;
    const state = el("span", { class: "state" });
    card.append(tok, who, state);
    $("seats").append(card);
    return { card, state };
  });

  // The result, in words.
  function result() {
    if (D.winner === null || D.winner === undefined) return "No winner: both champions faulted";
    const w = D.winner, l = 1 - w, lost = D.faults.filter((f) => f.seat === l);
    const why = D.stuck && last % 2 === l ? COLOUR[l] + " cannot move"
      : lost.length ? COLOUR[l] + " faulted (" + lost[0].kind + ")" : COLOUR[l] + " lost";
    return seatName(w) + " wins after " + last + " move" + (last === 1 ? "" : "s") + ": " + why;
  }

  // Information: the isolation and the result.
  const iso = D.isolated_after;
  const isoText = iso === null || iso === undefined
    ? "The amazons were never isolated from each other."
    : "The amazons were isolated from each other after move " + iso + ": from then on each player only fills their own region.";
  const isoP = el("p", { id: "isolated" }, isoText);
  const moveP = el("p", { id: "move-now" });
  const resultP = el("p", { id: "result" }, "Result: " + result());
  $("info").append(moveP, isoP, resultP, el("p", { class: "keys" }, "Keys: ← → move · Home End"));

  // Faults, with the step where each happened.
  if (D.faults.length) {
    $("faults-box").hidden = false;
    D.faults.forEach((f) => {
      const li = el("li", { "data-step": String(f.step) }, "⚠ step " + f.step + ": " + seatName(f.seat) + ", " + f.kind + ": " + f.message);
      li.addEventListener("click", () => go(f.step));
      $("faults").append(li);
    });
  }

  // The move list: the start, then one row per pair of moves; the isolation and the faults
  // as rows after the move where they happened.
  const moves = $("moves"), entries = new Array(last + 1);
  entries[0] = el("div", { class: "start", "data-step": "0" }, "start");
  moves.append(entries[0]);
  // The notes after move n (its pair's row when n is White's: they read after the pair).
  const notes = (n) => {
    if (n === iso) moves.append(el("div", { class: "iso-row", "data-step": String(n) }, "◆ isolated after move " + n + " (" + COLOUR[mover(n)] + "'s)"));
    D.faults.filter((f) => f.step === n).forEach((f) =>
      moves.append(el("div", { class: "iso-row fault-row" }, "⚠ after move " + n + ": " + f.kind + " of " + seatName(f.seat))));
  };
  if (iso === 0) moves.append(el("div", { class: "iso-row" }, "◆ isolated from the start"));
  D.faults.filter((f) => f.step === 0).forEach((f) =>
    moves.append(el("div", { class: "iso-row fault-row" }, "⚠ " + f.kind + " of " + seatName(f.seat))));
  for (let n = 1; n <= last; n += 2) {
    moves.append(el("span", { class: "n" }, String((n + 1) / 2) + "."));
    for (const m of [n, n + 1]) {
      if (m > last) { moves.append(el("span")); continue; }
      entries[m] = el("span", { class: "mv" + (m === iso ? " iso-at" : ""), "data-step": String(m), title: "move " + m + ", " + COLOUR[mover(m)] }, D.moves[m - 1]);
      moves.append(entries[m]);
    }
    notes(n);
    if (n + 1 <= last) notes(n + 1);
  }
  entries.forEach((e, n) => e.addEventListener("click", () => go(n)));

  // Slider marks: the isolation, the faults.
  const slider = $("step-slider");
  slider.max = String(last);
  const pct = (n) => (last ? (100 * n) / last : 0) + "%";
  function mark(n, cls, text, title) {
    const m = el("span", { class: cls, title, "data-step": String(n) }, text);
    m.style.left = pct(n);
    m.addEventListener("click", () => go(n));
    $("marks").append(m);
  }
  if (iso !== null && iso !== undefined) mark(iso, "iso", "◆", isoText);
  D.faults.forEach((f) => mark(f.step, "fault", "●", "step " + f.step + ": fault of " + seatName(f.seat) + " (" + f.kind + ")"));

  // Legend.
  [["W", "White amazon (disc)"], ["B", "Black amazon (square)"], ["x", "arrow (hatched)"]].forEach(([c, text]) => {
    const s = el("span"), i = el("i", { class: "sq", "data-cell": c });
    i.style.cssText = "display:inline-block;width:14px;height:14px;border-radius:" + (c === "W" ? "50%" : "2px") +
      ";background:" + (c === "W" ? "#fdfcf8;border:2px solid #23211e" : c === "B" ? "#23211e" : "repeating-linear-gradient(45deg,#5d4b3a 0 3px,#7d6753 3px 6px)");
    s.append(i, text);
    $("legend").append(s);
  });
  [["--from", "moved from"], ["--to", "moved to"], ["--arrow", "arrow shot"]].forEach(([v, text]) => {
    const s = el("span"), i = el("i");
    i.style.cssText = "border:3px solid var(" + v + ")";
    s.append(i, text);
    $("legend").append(s);
  });

  // Showing a step.
  let current = -1;
  function go(n) {
    n = Math.max(0, Math.min(last, Number(n) || 0));
    if (n === current) return;
    current = n;
    const cells = D.boards[n], marks = n > 0 ? D.marks[n - 1] : null;
    for (let i = 0; i < 100; i++) {
      const sq = squares[i], c = cells[i];
      if (sq.dataset.cell !== c) {
        sq.dataset.cell = c;
        sq.firstChild.textContent = c === "." ? "" : c;
      }
      sq.title = squareName(i) + ": " + CELL[c];
      delete sq.dataset.mark;
    }
    svg.textContent = "";
    if (marks) {
      ["from", "to", "arrow"].forEach((name, k) => { squares[marks[k]].dataset.mark = name; });
      pathLine(marks[0], marks[1], tone("--to"), false);
      pathLine(marks[1], marks[2], tone("--arrow"), true);
    }
    slider.value = String(n);
    entries.forEach((e, k) => e.classList.toggle("now", k === n));
    // Keep the move in view inside the list only (scrollIntoView would scroll the window).
    const now = entries[n], top = now.offsetTop, bottom = top + now.offsetHeight;
    if (top < moves.scrollTop) moves.scrollTop = top - 4;
    else if (bottom > moves.scrollTop + moves.clientHeight) moves.scrollTop = bottom - moves.clientHeight + 4;
    const isolated = iso !== null && iso !== undefined && n >= iso;
    const head = n === 0 ? "Start" : "Move " + n + "/" + last + " · " + COLOUR[mover(n)] + " " + D.moves[n - 1];
    $("step-label").textContent = "Step " + n + "/" + last + " · " + head + (isolated ? " · isolated" : "");
    moveP.textContent = n === 0
      ? "The start position; " + seatName(0) + " moves first."
      : "Move " + n + ": " + seatName(mover(n)) + " moved " + squareName(marks[0]) + " to " + squareName(marks[1]) + " and shot an arrow to " + squareName(marks[2]) + ".";
    isoP.classList.toggle("iso-now", isolated);
    cards.forEach((k, s) => {
      const toMove = n < last && n % 2 === s;
      k.card.classList.toggle("to-move", toMove);
      k.card.classList.toggle("won", n === last && D.winner === s);
      k.state.textContent = n === last ? (D.winner === s ? "winner" : "") : toMove ? "to move" : "";
    });
    document.querySelectorAll("#faults li").forEach((li) => li.classList.toggle("now", Number(li.dataset.step) === n));
    const banner = $("banner");
    banner.hidden = n !== last;
    banner.textContent = n === last ? result() : "";
    document.documentElement.dataset.step = String(n);
    // The console (console.js) shows the step's callbacks.
    document.dispatchEvent(new CustomEvent("viewer:step", { detail: n }));
    const hash = "#step=" + n;
    if (location.hash !== hash) {
      try { history.replaceState(null, "", hash); } catch (e) { location.replace(hash); }
    }
  }
  function fromHash() {
    const h = location.hash.replace(/^#/, "");
    if (h === "last") return last;
    const m = /^step=(\d+)$/.exec(h);
    return m ? Number(m[1]) : null;
  }

  window.viewerGo = (n) => go(n);
  slider.addEventListener("input", () => go(slider.value));
  $("btn-first").onclick = () => go(0);
  $("btn-last").onclick = () => go(last);
  $("btn-prev").onclick = () => go(current - 1);
  $("btn-next").onclick = () => go(current + 1);
  window.addEventListener("hashchange", () => { const n = fromHash(); if (n !== null) go(n); });
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = {
      ArrowLeft: () => go(current - 1), ArrowRight: () => go(current + 1),
      ArrowUp: () => go(current - 1), ArrowDown: () => go(current + 1),
      PageUp: () => go(current - 10), PageDown: () => go(current + 10),
      Home: () => go(0), End: () => go(last),
    };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });

  const start = fromHash();
  go(start === null ? 0 : start);
  $("footer").textContent = "Game of the Amazons · seed " + D.seed + " · " + last + " moves · " + D.sandbox;
  document.documentElement.dataset.ready = "1";
})();
