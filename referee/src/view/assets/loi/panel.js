// The replay viewer's side panel: a card per seat (money, houses' worth, final score, last
// bid; the step's actions with repeated refusals grouped; Phase II bids and sales pending
// until the auction; its faults, and greyed once a fault has stopped it) and the step's
// explanation (the auction's bids, its tie and the order that broke it, a lost monument
// and why, what the step changed on the board). Every figure comes from the timeline.
"use strict";
(function () {
  const V = window.viewer, T = V.T, steps = V.steps, $ = V.$, el = V.el, C = V.colour;
  const SHOWN = 200; // action entries shown per step; the rest are counted

  const cards = T.seats.map((seat) => {
    const s = seat.seat;
    const card = el("div", { class: "player", id: "player-" + s, "data-seat": String(s) });
    card.style.setProperty("--c", C.seat[s]);
    card.style.setProperty("--on-c", C.onSeat[s]);
    const h = el("h2");
    h.append(V.board.icon((g, k) => V.board.house(g, s, 0, 0, k, false)), el("span", {}, seat.name),
      el("span", { class: "seat" }, V.LETTER[s] + " · seat " + s));
    h.title = seat.path;
    const won = el("span", { class: "won", hidden: "" }, "auction won");
    h.append(won);
    const stats = el("div", { class: "stats" });
    const cell = (name, id, title) => {
      const d = el("div", { title });
      const b = el("b", { id: id + "-" + s }, "0");
      d.append(b, el("span", {}, name)); stats.append(d); return b;
    };
    const money = cell("money", "money", "finances: roubles in hand");
    // The rule book's words (docs/rules.md): houses' worth, final score.
    const score = cell("houses' worth", "score", "houses' worth: what its houses are worth (the API's score)");
    const fin = cell("final score", "final", "final score: money + houses' worth");
    const bid = cell("bid", "bid", "its bid in the last resolved auction");
    const pending = el("div", { class: "pending", id: "pending-" + s, hidden: "" });
    const actions = el("ul", { class: "actions", id: "actions-" + s });
    const note = el("div", { class: "none", id: "note-" + s });
    const stopped = el("div", { class: "stopped-note", id: "stopped-" + s, hidden: "" });
    const faults = el("div", { class: "faults", id: "faults-" + s });
    card.append(h, stats, pending, actions, note, stopped, faults);
    $("players").append(card);
    return { card, won, money, score, fin, bid, pending, actions, note, stopped, faults };
  });

  function lastAuction(index) {
    for (let s = index; s >= 0; s--) if (steps[s].bids) return steps[s];
    return null;
  }
  function pendingText(p) {
    const parts = [];
    if (p.bid !== undefined) parts.push("bid " + p.bid);
    (p.sales || []).forEach(([x, y, w]) => parts.push("sells (" + x + ", " + y + ") +" + w));
    return "Pending until the auction: " + parts.join(" · ");
  }
  function actionItems(list, st) {
    const entries = (st.actions || []).map(([call, code, n]) => ({ call, code, n: n || 1 }));
    (st.refused || []).forEach(([fn, code, n]) => entries.push({ call: fn, code, n, counted: true }));
    entries.slice(0, SHOWN).forEach((a) => {
      const li = el("li", { class: a.code === 0 ? "ok" : "err" });
      if (a.n > 1) li.append(el("span", { class: "times" }, a.n + " × "));
      li.append(a.call + (a.counted ? " (arguments not listed)" : "") + " ");
      li.append(el("span", { class: "code" }, "→ " + V.codeName(a.code)));
      if (a.n > 1 && !a.counted) li.title = a.n + " refusals in a row" + (a.call.includes(" … ") ? "; the first call's arguments, then the last one's" : ", every call the same");
      list.append(li);
    });
    if (entries.length > SHOWN) list.append(el("li", { class: "more" }, "… and " + (entries.length - SHOWN) + " more entries"));
    const sum = (xs) => xs.reduce((a, b) => a + b, 0);
    return { done: sum((st.actions || []).filter((a) => a[1] === 0).map(() => 1)),
      refused: sum((st.actions || []).filter((a) => a[1] !== 0).map((a) => a[2] || 1)) + sum((st.refused || []).map((r) => r[2])) };
  }

  function panel(index) {
    const st = steps[index], auction = lastAuction(index), pending = V.pendingAt(index);
    cards.forEach((k, s) => {
      k.money.textContent = st.money[s]; k.score.textContent = st.score[s];
      k.fin.textContent = st.final[s]; k.fin.dataset.value = st.final[s];
      k.bid.textContent = auction ? auction.bids[s] : "-";
      k.won.hidden = !(auction && auction.winner === s);
      // Which auction: its turn and its monument.
      if (auction && auction.winner === s) {
        k.won.textContent = "won the auction of turn " + auction.turn +
          (auction.monument !== undefined ? " (monument " + auction.monument + " " + T.monuments[auction.monument].name + ")" : "");
      }
      k.pending.hidden = !pending[s];
      k.pending.textContent = pending[s] ? pendingText(pending[s]) : "";
      k.actions.textContent = ""; k.note.textContent = "";
      if (st.kind === "callback" && st.seat === s) {
        const n = actionItems(k.actions, st);
        k.note.textContent = n.done + " action(s) done, " + n.refused + " refused, " + (st.info || 0) + " information request(s) in " + st.callback;
      }
      const stopped = V.isStopped(s, index);
      k.card.classList.toggle("stopped", stopped);
      k.card.dataset.stopped = String(stopped);
      k.stopped.hidden = !stopped;
      k.stopped.textContent = stopped ? "Stopped by its fault at step " + (T.seats[s].stopped_at + 1) + ": it plays no more." : "";
      const faults = [];
      for (let j = 0; j <= index; j++) (steps[j].faults || []).forEach((f) => { if (f.seat === s) faults.push(f); });
      k.faults.textContent = faults.map((f) => "⚠ " + f.kind + ": " + f.message).join("\n");
    });
    info(index);
  }

  function info(index) {
    const st = steps[index], box = $("stage-info");
    box.textContent = "";
    const say = (cls, text) => box.append(el("p", { class: cls }, text));
    const mon = (m) => "monument " + m + " " + T.monuments[m].name;
    if (st.bids) {
      const w = st.winner;
      say("auction explain", "Auction" + (st.monument !== undefined ? " of " + mon(st.monument) : "") + " resolved: bids " +
        [0, 1, 2].map((s) => V.LETTER[s] + " " + st.bids[s]).join(" · ") + "; " + V.who(w) + " wins and pays " + st.bids[w] + ".");
      if (st.tie) {
        say("tie explain", "Tie at " + st.tie.bid + " between " + st.tie.seats.map(V.who).join(" and ") +
          ". The next turn's order is " + st.tie.order.map((s) => V.LETTER[s]).join(", ") + "; of the tied seats, " +
          V.who(w) + " plays last in it, so it wins (rule 23).");
      }
      say("quiet", "Phase II sales are applied first, then the winner pays its bid (rule 12).");
    } else if (st.phase === 2 && st.kind === "callback") {
      say("quiet", "Phase II: bids and sales stay secret and take effect when the auction is resolved (rule 12).");
    }
    if (st.lost) {
      say("lost explain", "M" + mon(st.lost.monument).slice(1) + " is lost: " + V.who(st.lost.seat) + " won its auction, but " + st.lost.reason + " (rule 25).");
    }
    // The result once the match is over (a game still being played has none yet).
    if (st.phase === 0 && st.callback === "end_game" && T.result) {
      say("final", "Final scores: " + [0, 1, 2].map((s) => V.LETTER[s] + " " + T.result.final_scores[s]).join(" · ") +
        "; points " + [0, 1, 2].map((s) => V.LETTER[s] + " " + T.result.points[s]).join(" · ") + ".");
    }
    const m = V.board.marks(), refused = (st.targets || []).filter((t) => t[2] !== 0).length;
    const marks = [];
    if (m.changed) marks.push(m.changed + " cell(s) changed");
    if ((st.targets || []).length) marks.push((st.targets.length + (st.targets_more || 0)) + " cell(s) aimed at" + (refused ? " (" + refused + " refused)" : ""));
    if (marks.length) say("marks", marks.join(" · ") + " in this step (outlined and crossed on the board).");
    if ((st.refused || []).length) {
      say("quiet", T.full_log ? "Refused actions past the step's first entries are counted, not listed."
        : "The record counts refused actions without their arguments; play with --full-log to see them and their cells.");
    }
    const now = st.monument;
    $("monument-now").textContent = now === undefined ? "no monument drawn yet" :
      "monument in play: " + now + " " + T.monuments[now].name + " (" + (T.monuments[now].prestige > 0 ? "+" : "") + T.monuments[now].prestige + ", range " + T.monuments[now].range + ")";
  }
  V.onStep.push(panel);
})();
