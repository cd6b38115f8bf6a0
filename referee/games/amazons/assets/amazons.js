// The Amazons' board and panels on the frame's `viewer` (frame.js: navigation, keys, the
// step in the URL, the result; chart.js: the mobility chart): the boards the referee
// computed by replaying the record with the amazons crate (referee/src/view/amazons_html.rs).
// No rule lives here. Step 0 is the start, step n the board after move n (as
// `referee --game amazons show --step n`). A game still being played grows (`V.onGrow`, the
// game server's site): its moves, isolation and faults listed again.
"use strict";
(function () {
  const V = window.viewer, $ = V.$, el = V.el;
  let D = JSON.parse(document.getElementById("amazons").textContent);
  let last = D.moves.length;
  const COLOUR = ["White", "Black"];
  const CELL = { W: "White amazon", B: "Black amazon", x: "arrow", ".": "empty" };
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

  // Information: the isolation and the result.
  let iso;
  const isoP = el("p", { id: "isolated" });
  const moveP = el("p", { id: "move-now" });
  const resultP = el("p", { id: "result" });
  $("info").append(moveP, isoP, resultP);
  const moves = $("moves");
  let entries;
  // The parts made from the moves so far: again each time the game grows.
  function list() {
    iso = D.isolated_after;
    isoP.textContent = iso === null || iso === undefined
      ? "The amazons were never isolated from each other."
      : "The amazons were isolated from each other after move " + iso + ": from then on each player only fills their own region.";
    resultP.textContent = V.F.result === undefined ? "Result: the game is being played." : "Result: " + V.F.result;
    faults();
    moveList();
  }

  // Faults, with the step where each happened.
  function faults() {
    $("faults").textContent = "";
    $("faults-box").hidden = !D.faults.length;
    D.faults.forEach((f) => {
      const li = el("li", { "data-step": String(f.step) }, "⚠ step " + f.step + ": " + seatName(f.seat) + ", " + f.kind + ": " + f.message);
      li.addEventListener("click", () => V.go(f.step));
      $("faults").append(li);
    });
  }

  // The move list: the start, then one row per pair of moves; the isolation and the faults
  // as rows after the move where they happened.
  // Each row is numbered by its moves ("29–30"), as the header's "Move 30" counts them.
  function moveList() {
    moves.textContent = "";
    entries = new Array(last + 1);
    moves.append(el("span", { class: "n head" }, "moves"), el("span", { class: "head" }, COLOUR[0]), el("span", { class: "head" }, COLOUR[1]));
    entries[0] = el("div", { class: "start", "data-step": "0" }, "start");
    moves.append(entries[0]);
    // The notes after move n (its pair's row when n is White's: they read after the pair).
    const notes = (n) => {
      if (n === iso) moves.append(el("div", { class: "iso-row", "data-step": String(n) }, "◆ isolated after move " + n + " (" + COLOUR[mover(n)] + "'s)"));
      D.faults.filter((f) => f.step === n).forEach((f) =>
        moves.append(el("div", { class: "iso-row fault-row", "data-step": String(n) }, "⚠ after move " + n + ": " + f.kind + " of " + seatName(f.seat))));
    };
    if (iso === 0) moves.append(el("div", { class: "iso-row" }, "◆ isolated from the start"));
    D.faults.filter((f) => f.step === 0).forEach((f) =>
      moves.append(el("div", { class: "iso-row fault-row" }, "⚠ " + f.kind + " of " + seatName(f.seat))));
    for (let n = 1; n <= last; n += 2) {
      moves.append(el("span", { class: "n" }, n + 1 <= last ? n + "\u2013" + (n + 1) : String(n)));
      for (const m of [n, n + 1]) {
        if (m > last) { moves.append(el("span")); continue; }
        entries[m] = el("span", { class: "mv" + (m === iso ? " iso-at" : ""), "data-step": String(m), title: "move " + m + ", " + COLOUR[mover(m)] }, D.moves[m - 1]);
        moves.append(entries[m]);
      }
      notes(n);
      if (n + 1 <= last) notes(n + 1);
    }
    entries.forEach((e, n) => e.addEventListener("click", () => V.go(n)));
  }
  list();
  V.onGrow.push((data) => { D = data; last = D.moves.length; list(); });

  // Legend.
  [["W", "White amazon (disc)"], ["B", "Black amazon (square)"], ["x", "arrow (hatched)"]].forEach(([c, text]) => {
    const s = el("span"), i = el("i", { class: "sq", "data-cell": c });
    i.style.cssText = "display:inline-block;width:14px;height:14px;border-radius:" + (c === "W" ? "50%" : "2px") +
      ";background:" + (c === "W" ? "#fdfcf8;border:2px solid #23211e" : c === "B" ? "#23211e" : "repeating-linear-gradient(45deg,#5d4b3a 0 3px,#7d6753 3px 6px)");
    s.append(i, text);
    $("legend").append(s);
  });
  // The move's squares: each its own line style (dotted, solid, dashed) besides its colour,
  // so that they read under colour blindness and in greyscale; the board draws the same.
  [["from", "moved from (dotted)"], ["to", "moved to (solid)"], ["arrow", "arrow shot (dashed)"]].forEach(([mark, text]) => {
    const s = el("span", { class: "mark-key" }), i = el("i", { class: "mark", "data-mark": mark });
    s.append(i, text);
    $("legend").append(s);
  });

  // Showing a step.
  function show(n) {
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
    entries.forEach((e, k) => e.classList.toggle("now", k === n));
    // Keep the move in view inside the list only (scrollIntoView would scroll the window).
    const now = entries[n], top = now.offsetTop, bottom = top + now.offsetHeight;
    if (top < moves.scrollTop) moves.scrollTop = top - 4;
    else if (bottom > moves.scrollTop + moves.clientHeight) moves.scrollTop = bottom - moves.clientHeight + 4;
    const isolated = iso !== null && iso !== undefined && n >= iso;
    moveP.textContent = n === 0
      ? "The start position; " + seatName(0) + " moves first."
      : "Move " + n + ": " + seatName(mover(n)) + " moved " + squareName(marks[0]) + " to " + squareName(marks[1]) + " and shot an arrow to " + squareName(marks[2]) + ".";
    isoP.classList.toggle("iso-now", isolated);
    // Spoiler-free (frame.js): nothing after move n, the isolation once it happened, the
    // result at the end.
    const future = (e, step) => e.classList.toggle("future", V.spoilerFree && step > n);
    future(isoP, isolated ? 0 : last + 1);
    future(resultP, n === last ? 0 : last + 1);
    V.hideAfter(moves.querySelectorAll("[data-step]"), n);
    V.hideAfter(document.querySelectorAll("#faults li"), n);
    if (D.faults.length) future($("faults-box"), Math.min(...D.faults.map((f) => f.step)));
    cards.forEach((k, s) => {
      const toMove = n < last && n % 2 === s;
      k.card.classList.toggle("to-move", toMove);
      k.card.classList.toggle("won", n === last && D.winner === s);
      k.state.textContent = n === last ? (D.winner === s ? "winner" : "") : toMove ? "to move" : "";
    });
    document.querySelectorAll("#faults li").forEach((li) => li.classList.toggle("now", Number(li.dataset.step) === n));
  }
  V.onStep.push(show);
})();
