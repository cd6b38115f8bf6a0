// Ticket to Ride's board and panels on the frame's `viewer` (frame.js: navigation, keys,
// the step in the URL, the result; chart.js: the points and cards charts): the states the
// referee computed by replaying the record with the ticket crate
// (referee/src/view/ticket_html.rs). No rule lives here. Step 0 is the start, step n the
// state after move n. A game still being played (the server's site) hides every hand and
// ticket (`D.hidden`: only their counts are in the data) and grows (`V.onGrow`).
"use strict";
(function () {
  const V = window.viewer, $ = V.$, el = V.el;
  let D = JSON.parse(document.getElementById("ticket").textContent);
  // Each seat's colour, and the ink of its mark along its routes: the page's CSS (ticket.css).
  // The edge of its routes on the board (a light colour on the light board stands out by it).
  const SEAT = V.seatColour, INK = (s) => "var(--on-p" + s + ")", EDGE = (s) => "var(--edge-p" + s + ")";
  const NAMES = ["Red", "Blue", "Green", "Yellow", "Black"];
  // Each seat's mark along the routes it claimed, a line of its ink inside its colour: the
  // seats differ by it where colours do not (colour blindness, greyscale). Seat 0's is solid.
  const MARK = ["none", "1 5", "8 4", "8 3 1 3", "3 3"];
  const CARD = { purple: "#9b59b6", white: "#f4f4f4", blue: "#3a7bd5", yellow: "#f1c40f", orange: "#e67e22",
    black: "#2b2b2b", red: "#e74c3c", green: "#27ae60", locomotive: "#b0b0b0", grey: "#9e9e9e", none: "transparent" };
  // Each card's letters, so that a card reads without its colour (greyscale, colour blindness).
  const SHORT = { purple: "Pu", white: "Wh", blue: "Bu", yellow: "Ye", orange: "Or", black: "Bk", red: "Re",
    green: "Gr", locomotive: "L" };
  const COLOURS = ["purple", "white", "blue", "yellow", "orange", "black", "red", "green", "locomotive"];
  const city = (i) => D.cities[i][0];
  const seatName = (s) => D.seats[s] + " (" + NAMES[s] + ")";

  // The board: the cities' coordinates fitted into the view box, routes as segments of
  // their length (a double route's two tracks side by side).
  const NS = "http://www.w3.org/2000/svg", svg = $("ttr-board");
  const xs = D.cities.map((c) => c[1]), ys = D.cities.map((c) => c[2]);
  const pad = 40, minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  svg.setAttribute("viewBox", [minX, minY, Math.max(...xs) - minX + pad, Math.max(...ys) - minY + pad].join(" "));
  const node = (tag, attrs) => {
    const n = document.createElementNS(NS, tag);
    for (const k in attrs) n.setAttribute(k, attrs[k]);
    return n;
  };
  // Under every route, the edge of its owner's colour (hidden while it has none).
  const edgeLayer = node("g", { class: "edges" });
  svg.append(edgeLayer);
  const edges = [];
  const lines = D.routes.map(([a, b, length, colour, twin], r) => {
    let [x1, y1, x2, y2] = [D.cities[a][1], D.cities[a][2], D.cities[b][1], D.cities[b][2]];
    if (twin >= 0) {
      const dx = x2 - x1, dy = y2 - y1, d = Math.hypot(dx, dy) || 1, o = (r < twin ? -1 : 1) * 5;
      x1 += -dy / d * o; x2 += -dy / d * o; y1 += dx / d * o; y2 += dx / d * o;
    }
    const seg = Math.hypot(x2 - x1, y2 - y1) / length;
    const line = node("line", { x1, y1, x2, y2, class: "route", "data-route": r, stroke: CARD[colour],
      "stroke-width": 6, "stroke-dasharray": (seg - 3) + " 3" });
    const title = node("title", {});
    title.textContent = city(a) + " - " + city(b) + ": " + length + " " + colour;
    line.append(title);
    svg.append(line);
    const edge = node("line", { x1, y1, x2, y2, class: "route-edge", "data-route": r, "stroke-width": 12,
      "pointer-events": "none", visibility: "hidden" });
    edgeLayer.append(edge);
    edges.push(edge);
    return line;
  });
  const marks = lines.map((line) => {
    const mark = node("line", { class: "owner-mark", "pointer-events": "none", visibility: "hidden" });
    ["x1", "y1", "x2", "y2"].forEach((k) => mark.setAttribute(k, line.getAttribute(k)));
    svg.append(mark);
    return mark;
  });
  // A seat's swatch: its colour with its mark, as on the board.
  const swatch = (s) => {
    const box = node("svg", { class: "swatch", viewBox: "0 0 36 10", "aria-hidden": "true" });
    box.append(node("line", { x1: 0, y1: 5, x2: 36, y2: 5, stroke: SEAT[s], "stroke-width": 9 }),
      node("line", { x1: 0, y1: 5, x2: 36, y2: 5, class: "owner-mark", "stroke-dasharray": MARK[s],
        style: "stroke: " + INK(s) }));
    return box;
  };
  D.cities.forEach(([name, x, y], i) => {
    const g = node("g", { class: "city", "data-city": i });
    const label = node("text", { x: x + 8, y: y - 8 });
    label.textContent = name;
    g.append(node("circle", { cx: x, cy: y, r: 6 }), label);
    svg.append(g);
  });

  const card = (colour, count) => {
    const text = (count === undefined ? "" : count + " ") + SHORT[colour];
    const c = el("span", { class: "card", title: colour }, text);
    c.style.background = CARD[colour];
    c.style.color = colour === "black" || colour === "blue" || colour === "purple" ? "#fff" : "#000";
    return c;
  };

  // Seats.
  const cards = D.seats.map((name, s) => {
    const box = el("div", { class: "seat", id: "seat-" + s });
    box.style.setProperty("--c", SEAT[s]);
    const head = el("div", { class: "name" }, seatName(s) + " ");
    head.append(swatch(s));
    const stats = el("div", { class: "stats" }), hand = el("div", { class: "hand" });
    const tickets = el("ul", { class: "tickets" }), longest = el("div", { class: "longest" });
    box.append(head, stats, hand, tickets, longest);
    $("seats").append(box);
    return { box, stats, hand, tickets, longest };
  });

  // Faults, and the moves listed: those of the data not yet listed.
  function list() {
    $("faults-box").hidden = !D.faults.length;
    $("faults").textContent = "";
    D.faults.forEach(([seat, step, kind, message]) => {
      const li = el("li", { "data-step": String(step) }, "⚠ step " + step + ": " + seatName(seat) + ", " + kind + ": " + message);
      li.addEventListener("click", () => V.go(step));
      $("faults").append(li);
    });
    const listed = entries.length;
    D.moves.slice(listed).forEach(([seat, text], k) => {
      const i = listed + k;
      const li = el("li", { "data-step": String(i + 1) }, NAMES[seat] + " " + text);
      li.style.borderLeft = "4px solid " + SEAT[seat];
      li.addEventListener("click", () => V.go(i + 1));
      $("moves").append(li);
      entries.push(li);
    });
  }
  const entries = [];
  list();
  V.onGrow.push((data) => { D = data; list(); });

  const shown = $("show-hidden");
  if (D.hidden) {
    shown.checked = false;
    shown.parentElement.hidden = true;
  }
  let now = 0;
  shown.addEventListener("change", () => show(now));

  function show(n) {
    now = n;
    const S = D.states[n], moved = n > 0 ? D.moves[n - 1] : null;
    // The route claimed by this move: the one whose owner it changed.
    const movedRoute = n > 0 ? S.owners.findIndex((o, r) => o >= 0 && D.states[n - 1].owners[r] !== o) : -1;
    lines.forEach((line, r) => {
      const o = S.owners[r];
      line.classList.toggle("claimed", o >= 0);
      line.classList.toggle("moved", r === movedRoute);
      line.setAttribute("stroke", o >= 0 ? SEAT[o] : CARD[D.routes[r][3]]);
      line.setAttribute("stroke-width", o >= 0 ? 9 : 6);
      line.dataset.owner = String(o);
      marks[r].setAttribute("visibility", o >= 0 ? "visible" : "hidden");
      marks[r].setAttribute("stroke-dasharray", o >= 0 ? MARK[o] : "none");
      marks[r].style.stroke = o >= 0 ? INK(o) : "";
      edges[r].setAttribute("visibility", o >= 0 ? "visible" : "hidden");
      edges[r].style.stroke = o >= 0 ? EDGE(o) : "";
    });
    $("row").textContent = "";
    S.row.forEach((c) => $("row").append(card(c)));
    $("piles").textContent = "pile " + S.pile + " · discard " + S.discard + " · tickets " + S.deck;
    $("move-now").textContent = moved ? "Move " + n + ": " + seatName(moved[0]) + " " + moved[1] : "The start: " + seatName(0) + " moves first.";
    const best = Math.max(...S.seats.map((s) => (s.out ? 0 : s.longest)));
    S.seats.forEach((s, i) => {
      const k = cards[i], total = s.cards;
      k.box.classList.toggle("to-move", n < D.moves.length && S.turn === i);
      k.box.classList.toggle("out", s.out);
      k.stats.textContent = s.wagons + " wagons · " + s.points + " points from routes · " + total + " cards · " + s.held + " tickets" + (s.out ? " · out" : "");
      k.hand.textContent = "";
      k.tickets.textContent = "";
      if (shown.checked) {
        s.hand.forEach((count, c) => { if (count > 0) k.hand.append(card(COLOURS[c], count)); });
        s.tickets.forEach(([a, b, points, done]) => {
          k.tickets.append(el("li", { class: done ? "done" : "open" }, city(a) + " - " + city(b) + " (" + points + ")"));
        });
      } else {
        k.hand.textContent = total + " cards (hidden" + (D.hidden ? " while the game is played)" : ")");
      }
      k.longest.textContent = "longest path: " + s.longest + (best > 0 && s.longest === best && !s.out ? " (the longest)" : "");
      k.longest.classList.toggle("best", best > 0 && s.longest === best && !s.out);
    });
    entries.forEach((e, i) => e.classList.toggle("now", i + 1 === n));
    const cur = entries[n - 1];
    if (cur) {
      const list = $("moves"), top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 20) list.scrollTop = top - 40;
    }
    document.querySelectorAll("#faults li").forEach((li) => li.classList.toggle("now", Number(li.dataset.step) === n));
    // Spoiler-free (frame.js): no move or fault after move n.
    V.hideAfter(entries, n);
    $("faults-box").classList.toggle("future", V.hideAfter(document.querySelectorAll("#faults li"), n));
  }
  V.onStep.push(show);
})();
