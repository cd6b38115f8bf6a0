// La loi du plus riche's page, its core, on the frame's `viewer` (frame.js: navigation,
// keys, the step in the URL): the timeline that the referee computed by replaying the match
// through the engine (see referee/src/view/timeline.rs for its format), the palette read
// from the page's CSS, the board rebuilt up to a step. No rule of the game lives here or in
// the other parts (board.js, panel.js, present.js, layout.js), which register on `viewer`.
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("timeline").textContent);
  const steps = T.steps;
  const N = 100;
  const css = getComputedStyle(document.documentElement);
  const prop = (name) => css.getPropertyValue(name).trim();
  const V = Object.assign(window.viewer, {
    T, steps, N,
    // The palette: the page's CSS custom properties, nothing hard-coded here.
    colour: {
      seat: [0, 1, 2].map((s) => prop("--p" + s)), onSeat: [0, 1, 2].map((s) => prop("--on-p" + s)),
      hall: prop("--hall"), onHall: prop("--on-hall"), road: prop("--road"), roadLine: prop("--road-line"), ground: prop("--ground"),
      monument: prop("--monument"), mark: prop("--mark"), refused: prop("--refused"), ink: prop("--ink"),
      muted: prop("--muted"),
    },
    LETTER: ["A", "B", "C"],
    KIND: ["empty", "house", "reservation", "monument", "road"],
    ROMAN: ["", "I", "II", "III"],
    CODES: { 0: "SUCCES", "-2": "PAS_DE_MAISON", "-3": "PAS_DE_MONUMENT", "-4": "FINANCES_DEPASSEES",
      "-5": "BLOCAGE", "-7": "JOUEUR_INCORRECT", "-8": "NON_CONNEXE", "-9": "CASE_OCCUPEE",
      "-10": "ACTION_INTERDITE", "-12": "HORS_TERRAIN" },
  });
  V.codeName = (c) => V.CODES[c] || String(c);
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
  // A game still being played grows (the game server's site): the timeline so far takes
  // this one's place in place (the other parts hold `T` and `steps`), the board rebuilt.
  V.onGrow.push((data) => {
    steps.length = 0;
    data.steps.forEach((s) => steps.push(s));
    Object.assign(T, data, { steps });
    built = -2;
  });
  // The board follows the step, before the parts that draw it.
  V.onStep.push((index) => V.buildTo(index));
  V.keysExtra = " · wheel zoom · drag pan · click a monument: its range";
})();
