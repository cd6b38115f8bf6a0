// Little Town's board and panels on the frame's `viewer` (frame.js: navigation, keys, the
// step in the URL, the result; chart.js: the gold chart): the states the referee computed
// by replaying the record with the town crate (referee/src/view/town_html.rs). No rule
// lives here. Step 0 is the start, step n the match after move n (as `referee --game
// little-town show --step n`). A game still being played grows (`V.onGrow`, the game
// server's site): its moves, faults and eliminations listed again.
"use strict";
(function () {
  const V = window.viewer, $ = V.$, el = V.el;
  let D = JSON.parse(document.getElementById("town").textContent);
  let last = D.actions.length;
  const W = D.width, H = D.height;
  const RES = ["corn", "fish", "wood", "stone", "gold"];
  const WHAT = { "-1": ["", "not a position"], 0: ["", "free"], 1: ["C", "corn mine"], 2: ["F", "fish mine"],
    3: ["W", "wood mine"], 4: ["S", "stone mine"], 5: ["f", "farm"], 6: ["s", "sawmill"],
    7: ["p", "pontoon"], 8: ["q", "quarry"], 9: ["c", "cathedral"], 10: ["k", "castle"],
    11: ["w", "watchtower"], 12: ["m", "market"] };
  const STATUS = ["", "eliminated", "excluded"];
  const colourVar = (s) => "var(--p" + s + ")";
  const seatName = (s) => D.seats[s] + " (" + D.colours[s] + ")";

  // The board: row 0 at the top.
  const board = $("board"), squares = [];
  board.style.gridTemplateColumns = "repeat(" + W + ", 1fr)";
  board.style.gridTemplateRows = "repeat(" + H + ", 1fr)";
  for (let i = 0; i < W * H; i++) {
    const sq = el("div", { class: "sq", "data-index": String(i), "data-square": (i % W) + "," + Math.floor(i / W) });
    const piece = el("span", { class: "piece" }), worker = el("span", { class: "worker" });
    sq.append(piece, worker);
    board.append(sq);
    squares.push({ sq, piece, worker });
  }

  // Seats: colour, name, stock and status.
  const cards = D.seats.map((name, s) => {
    const card = el("div", { class: "seat", id: "seat-" + s });
    const tok = el("span", { class: "tok" });
    tok.style.background = colourVar(s);
    const who = el("div"), stock = el("div", { class: "stock" }), powers = el("div", { class: "powers" });
    who.append(el("div", { class: "name" }, name), el("div", { class: "colour" }, D.colours[s] + " · seat " + s), stock, powers);
    const state = el("span", { class: "state" });
    card.append(tok, who, state);
    $("seats").append(card);
    return { card, stock, powers, state };
  });

  const moveP = el("p", { id: "move-now" }), resultP = el("p", { id: "result" });
  $("info").append(moveP, resultP);
  const moves = $("moves");
  let entries;
  // The parts made from the moves so far: again each time the game grows.
  function list() {
    resultP.textContent = V.F.result === undefined ? "Result: the game is being played." : "Result: " + V.F.result;
    // Faults and eliminations, with the step where each happened, in the order they did.
    const notes = [...(V.F.marks || [])].sort((a, b) => a.step - b.step);
    $("faults").textContent = "";
    $("faults-box").hidden = !notes.length;
    notes.forEach((m) => {
      const li = el("li", { "data-step": String(m.step) }, (m.kind === "fault" ? "⚠ " : "◆ ") + m.text);
      li.addEventListener("click", () => V.go(m.step));
      $("faults").append(li);
    });
    // The move list.
    moves.textContent = "";
    entries = [el("div", { "data-step": "0" }, "start")];
    D.actions.forEach(([seat, text], i) => entries.push(el("div", { "data-step": String(i + 1) }, (i + 1) + ". " + D.colours[seat] + " " + text)));
    entries.forEach((e, n) => { moves.append(e); e.addEventListener("click", () => V.go(n)); });
  }
  list();
  V.onGrow.push((data) => { D = data; last = D.actions.length; list(); });

  // Legend.
  [["C", "corn"], ["F", "fish"], ["W", "wood"], ["S", "stone"], ["f s p q", "farm, sawmill, pontoon, quarry"], ["●", "a worker, in its player's colour and shape (white ●, orange ■, pink ◆, violet ▲), a building framed in its owner's colour and line (solid, dashed, dotted, double)"]]
    .forEach(([k, text]) => $("legend").append(el("span", {}, k + " " + text)));

  function show(n) {
    const st = D.states[n];
    for (let i = 0; i < W * H; i++) {
      const { sq, piece, worker } = squares[i], c = st.content[i];
      sq.dataset.content = String(c);
      piece.textContent = WHAT[c][0];
      sq.style.setProperty("--owner", st.owner[i] >= 0 ? colourVar(st.owner[i]) : "transparent");
      sq.dataset.owner = String(st.owner[i]);
      const w = st.worker[i];
      worker.hidden = w < 0;
      if (w >= 0) worker.style.setProperty("--who", colourVar(w));
      sq.dataset.worker = String(w);
      sq.title = sq.dataset.square + ": " + WHAT[c][1] + (st.owner[i] >= 0 ? " of " + seatName(st.owner[i]) : "") + (w >= 0 ? ", worker of " + seatName(w) : "");
    }
    const next = n < last ? D.actions[n][0] : -1;
    cards.forEach((k, s) => {
      const p = st.players[s];
      k.stock.textContent = RES.map((r, i) => r + " " + p[i]).join(" · ");
      // The gold its buildings' powers paid at the round's end this move brought (rule 22).
      k.powers.hidden = !st.powers.length;
      k.powers.textContent = st.powers.length ? "+" + st.powers[s] + " gold from its powers at round " + (D.states[n - 1].round) + "'s end" : "";
      k.card.classList.toggle("out", p[5] > 0);
      k.card.classList.toggle("to-play", s === next);
      k.state.textContent = STATUS[p[5]] || (s === next ? "to play" : "");
    });
    moveP.textContent = n === 0
      ? "The setup: mines and buildings drawn; round 1."
      : "Move " + n + " (round " + st.round + "): " + seatName(D.actions[n - 1][0]) + " " + D.actions[n - 1][1] + ".";
    entries.forEach((e, k) => e.classList.toggle("now", k === n));
    document.querySelectorAll("#faults li").forEach((li) => li.classList.toggle("now", Number(li.dataset.step) === n));
    // Spoiler-free (frame.js): no move, fault or elimination after move n, the result at
    // the end only.
    V.hideAfter(entries, n);
    $("faults-box").classList.toggle("future", V.hideAfter(document.querySelectorAll("#faults li"), n));
    resultP.classList.toggle("future", V.spoilerFree && n < last);
  }
  V.onStep.push(show);
})();
