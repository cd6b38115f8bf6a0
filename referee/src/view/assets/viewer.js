// The replay viewer's core: the timeline that the referee computed by replaying the match
// through the engine (see referee/src/view/timeline.rs for its format), the palette read
// from the page's CSS, the board rebuilt up to a step, and the navigation: steps, turns,
// play, keys, and the URL (#step=N, numbered from 1 like `referee show --step N`). No rule
// of the game lives here or in the other viewer_*.js parts, which register on `viewer`.
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("timeline").textContent);
  const steps = T.steps;
  const N = 100;
  const css = getComputedStyle(document.documentElement);
  const prop = (name) => css.getPropertyValue(name).trim();
  const V = (window.viewer = {
    T, steps, N,
    $: (id) => document.getElementById(id),
    // The palette: the page's CSS custom properties, nothing hard-coded here.
    colour: {
      seat: [0, 1, 2].map((s) => prop("--p" + s)), onSeat: [0, 1, 2].map((s) => prop("--on-p" + s)),
      hall: prop("--hall"), onHall: prop("--on-hall"), road: prop("--road"), ground: prop("--ground"),
      monument: prop("--monument"), mark: prop("--mark"), refused: prop("--refused"), ink: prop("--ink"),
      muted: prop("--muted"),
    },
    LETTER: ["A", "B", "C"],
    KIND: ["empty", "house", "reservation", "monument", "road"],
    ROMAN: ["", "I", "II", "III"],
    CODES: { 0: "SUCCES", "-2": "PAS_DE_MAISON", "-3": "PAS_DE_MONUMENT", "-4": "FINANCES_DEPASSEES",
      "-5": "BLOCAGE", "-7": "JOUEUR_INCORRECT", "-8": "NON_CONNEXE", "-9": "CASE_OCCUPEE",
      "-10": "ACTION_INTERDITE", "-12": "HORS_TERRAIN" },
    current: 0,
    onStep: [], // fn(index) after each move
    onLayout: [], // fn() after the window, its pixel ratio or the mode changed
    keys: {}, // key -> [fn, description shown in the footer]
  });
  V.codeName = (c) => V.CODES[c] || String(c);
  V.el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  V.who = (s) => T.seats[s].name + " (" + V.LETTER[s] + ", seat " + s + ")";

  // The board up to a step: kind, owner, monument, value, worth per cell.
  const kind = new Int8Array(N * N), owner = new Int8Array(N * N), mon = new Int8Array(N * N),
    value = new Int8Array(N * N), worth = new Int8Array(N * N);
  V.cells = { kind, owner, mon, value, worth };
  let built = -2; // the step the arrays hold (-1: initial)
  function put(c) {
    const i = c[1] * N + c[0];
    kind[i] = c[2]; owner[i] = c[3]; mon[i] = c[4]; value[i] = c[5]; worth[i] = c[6];
  }
  V.buildTo = function (index) {
    if (index < built || built === -2) {
      kind.fill(0); owner.fill(3); mon.fill(-1); value.fill(0); worth.fill(1);
      T.initial.forEach(put);
      built = -1;
    }
    for (let s = built + 1; s <= index; s++) (steps[s].cells || []).forEach(put);
    built = index;
  };

  V.label = function (s) {
    const st = steps[s];
    let when;
    if (st.phase === 0) when = st.callback === "init_game" ? "Start" : "End";
    else when = "Turn " + st.turn + " · phase " + V.ROMAN[st.phase];
    if (st.kind === "callback") return when + " · " + st.callback + " of " + V.who(st.seat);
    if (st.phase === 0) return when + " · after " + st.callback;
    return when + " · " + ["", "end of the builds", "auction resolved", "placement done"][st.phase];
  };

  // Phase II bids and sales waiting for the auction at step `index` (rule 12): those of the
  // callbacks of this Phase II up to `index`, by seat; none once the auction is resolved.
  V.pendingAt = function (index) {
    const out = {};
    const st = steps[index];
    if (st.phase !== 2 || st.kind !== "callback") return out;
    for (let j = index; j >= 0 && steps[j].phase === 2 && steps[j].kind === "callback" && steps[j].turn === st.turn; j--) {
      if (steps[j].pending) out[steps[j].seat] = steps[j].pending;
    }
    return out;
  };
  // The seats a fault has stopped at step `index` (from the step of the fault on).
  V.isStopped = (seat, index) => T.seats[seat].stopped_at !== undefined && index >= T.seats[seat].stopped_at;

  // The step in the URL: #step=N (1..steps), #last.
  V.fromHash = function () {
    const hash = location.hash.replace(/^#/, "");
    if (hash === "last") return steps.length - 1;
    const m = /^step=(\d+)$/.exec(hash);
    return m ? Math.max(1, Math.min(steps.length, Number(m[1]))) - 1 : null;
  };
  function toHash(index) {
    const want = "#step=" + (index + 1);
    if (location.hash === want) return;
    try { history.replaceState(null, "", want); } catch (e) { location.replace(want); }
  }
  window.addEventListener("hashchange", () => { const i = V.fromHash(); if (i !== null && i !== V.current) V.go(i); });

  V.go = function (index) {
    index = Math.max(0, Math.min(steps.length - 1, index));
    V.current = index;
    V.buildTo(index);
    V.$("step-label").textContent = "Step " + (index + 1) + "/" + steps.length + " · " + V.label(index);
    document.documentElement.dataset.step = String(index);
    toHash(index);
    V.onStep.forEach((f) => f(index));
    document.dispatchEvent(new CustomEvent("viewer:step", { detail: index }));
  };
  window.viewerGo = (index) => V.go(index);

  // Turns: 0 is the start, 1..15 the turns, 99 the end.
  const turnOf = (i) => (steps[i].phase === 0 ? (steps[i].callback === "init_game" ? 0 : 99) : steps[i].turn);
  V.turnStart = function (index, dir) {
    const k = turnOf(index);
    if (dir > 0) { for (let i = index + 1; i < steps.length; i++) if (turnOf(i) > k) return i; return steps.length - 1; }
    let i = index; while (i > 0 && turnOf(i - 1) === k) i--;
    if (i === index && i > 0) { const k2 = turnOf(i - 1); while (i > 0 && turnOf(i - 1) === k2) i--; }
    return i;
  };
  // The first step of each turn 1..15, for the ticks of the slider and the chart.
  V.turnStarts = [];
  steps.forEach((st, i) => {
    if (st.phase !== 0 && (i === 0 || turnOf(i - 1) !== st.turn)) V.turnStarts.push({ turn: st.turn, step: i });
  });

  // Play, by step or by turn, every `speed` ms.
  let timer = null;
  V.playing = () => timer !== null;
  V.stop = function () {
    if (timer) { clearInterval(timer); timer = null; }
    V.$("btn-play").textContent = "Play";
  };
  V.play = function () {
    if (timer) { V.stop(); return; }
    if (V.current === steps.length - 1) V.go(0);
    V.$("btn-play").textContent = "Pause";
    timer = setInterval(() => {
      if (V.current >= steps.length - 1) { V.stop(); return; }
      V.go(V.$("play-by").value === "turn" ? V.turnStart(V.current, 1) : V.current + 1);
    }, Number(V.$("speed").value));
  };
  const restart = () => { if (timer) { V.stop(); V.play(); } };
  V.$("speed").addEventListener("change", restart);
  V.$("play-by").addEventListener("change", restart);

  const slider = V.$("step-slider");
  slider.max = String(steps.length - 1);
  slider.addEventListener("input", () => V.go(Number(slider.value)));
  V.onStep.push((i) => { slider.value = String(i); });
  const click = (id, f) => V.$(id).addEventListener("click", f);
  click("btn-first", () => V.go(0));
  click("btn-last", () => V.go(steps.length - 1));
  click("btn-prev", () => V.go(V.current - 1));
  click("btn-next", () => V.go(V.current + 1));
  click("btn-prev-turn", () => V.go(V.turnStart(V.current, -1)));
  click("btn-next-turn", () => V.go(V.turnStart(V.current, 1)));
  click("btn-play", () => V.play());

  // Keys: each part adds its own; the footer lists them all.
  V.key = function (keys, description, f) { keys.forEach((k, n) => { V.keys[k] = [f, n === 0 ? description : null, keys]; }); };
  V.key(["ArrowLeft"], "previous step", () => V.go(V.current - 1));
  V.key(["ArrowRight"], "next step", () => V.go(V.current + 1));
  V.key(["ArrowUp", "PageUp"], "previous turn", () => V.go(V.turnStart(V.current, -1)));
  V.key(["ArrowDown", "PageDown"], "next turn", () => V.go(V.turnStart(V.current, 1)));
  V.key(["Home"], "first step", () => V.go(0));
  V.key(["End"], "last step", () => V.go(steps.length - 1));
  V.key([" "], "play / pause", () => V.play());
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target && e.target.tagName === "SELECT") return;
    const name = e.shiftKey && e.key.startsWith("Arrow") ? "Shift+" + e.key : e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const k = V.keys[name];
    if (k) { e.preventDefault(); k[0](e); }
  });
  V.keysText = function () {
    const shown = { " ": "Space", ArrowLeft: "←", ArrowRight: "→", ArrowUp: "↑", ArrowDown: "↓" };
    const parts = [];
    for (const name in V.keys) {
      const [, description, all] = V.keys[name];
      if (description) parts.push(all.map((k) => (shown[k] || (k.length === 1 ? k.toUpperCase() : k.replace("Arrow", "")))).join(" / ") + " " + description);
    }
    return "Keys: " + parts.join(" · ") + " · wheel zoom · drag pan · click a monument: its range";
  };
})();
