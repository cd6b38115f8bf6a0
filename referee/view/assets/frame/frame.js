// The replay page's frame, the same for every game (referee/src/view/frame.rs): the steps
// and their labels, navigation (buttons, the slider, keys, play by step or by group, the
// step in the URL: #step=N, numbered as the game's `show --step N`), the result at the last
// step. It defines `window.viewer`, on which the game's board and panels register: `onStep`
// (after each move), `onLayout` (after the window, its pixel ratio or the mode changed),
// `key` (a key and its description, listed in the footer), `onGrow` (the page of a game still
// being played grows: `grow`, called by live.js). Spoiler-free mode (the checkbox, S,
// `&spoiler-free` in the URL) hides the future: `V.spoilerFree`, the body's class
// `spoiler-free` (a game's `.spoiler` elements hidden), `onMode` after a change, and a
// sentence saying which mode is on. No rule of any game lives here.
"use strict";
(function () {
  const F = JSON.parse(document.getElementById("frame").textContent);
  let count = F.steps.length;
  const css = getComputedStyle(document.documentElement);
  const V = (window.viewer = {
    F, count,
    $: (id) => document.getElementById(id),
    // Each seat's colour: the page's CSS custom properties --p0, --p1...
    seatColour: F.seats.map((_, s) => css.getPropertyValue("--p" + s).trim()),
    current: 0,
    onStep: [],
    onLayout: [],
    onMode: [],
    spoilerFree: false,
    onGrow: [],
    keys: {}, // key -> [fn, description shown in the footer, its keys]
    keysExtra: "", // what the game adds to the footer's list (mouse gestures)
  });
  // Spoiler-free: an element of what happened at a step (a move listed, a fault) is hidden
  // (`.future`) when that step comes after step n; in the whole-match mode, never. True
  // when every one is hidden (a box of them then hides its heading too).
  V.hideAfter = (elements, n) => {
    let all = true;
    elements.forEach((e) => {
      const later = V.spoilerFree && Number(e.dataset.step) > n;
      e.classList.toggle("future", later);
      all = all && later;
    });
    return all;
  };
  V.el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  V.label = (i) => F.steps[i].label;
  V.isStopped = (seat, index) => F.seats[seat].stopped_at !== undefined && index >= F.seats[seat].stopped_at;

  // The step in the URL: #step=N (F.first..), #last; `&spoiler-free` after it turns the
  // mode on.
  const SPOILER_FREE = "&spoiler-free";
  const hashOf = () => location.hash.replace(/^#/, "");
  V.fromHash = function () {
    const hash = hashOf().replace(SPOILER_FREE, "");
    if (hash === "last") return count - 1;
    const m = /^step=(\d+)$/.exec(hash);
    return m ? Math.max(F.first, Math.min(count - 1 + F.first, Number(m[1]))) - F.first : null;
  };
  function toHash(index) {
    const want = "#step=" + (index + F.first) + (V.spoilerFree ? SPOILER_FREE : "");
    if (location.hash === want) return;
    try { history.replaceState(null, "", want); } catch (e) { location.replace(want); }
  }
  window.addEventListener("hashchange", () => {
    const on = hashOf().endsWith(SPOILER_FREE);
    if (on !== V.spoilerFree) V.setSpoilerFree(on);
    const i = V.fromHash(); if (i !== null && i !== V.current) V.go(i);
  });

  // Spoiler-free: the future hidden (the charts up to the step shown, the marks after it,
  // the result until the last step, what the game marks `.spoiler`), the mode said.
  V.setSpoilerFree = function (on) {
    V.spoilerFree = !!on;
    document.body.classList.toggle("spoiler-free", V.spoilerFree);
    const box = V.$("spoiler-free");
    if (box) box.checked = V.spoilerFree;
    V.$("mode").textContent = V.spoilerFree
      ? "Spoiler-free: nothing after this step is shown"
      : "Whole match shown: the charts' ends, every mark";
    toHash(V.current);
    V.onMode.forEach((f) => f(V.spoilerFree));
    V.onStep.forEach((f) => f(V.current));
  };

  // The result, at the last step (a game may show its own: `V.banner = false`).
  V.banner = F.result !== undefined;
  function banner(index) {
    const box = V.$("banner");
    if (!V.banner || !box) return;
    box.hidden = index !== count - 1;
    box.textContent = index === count - 1 ? F.result : "";
  }

  V.go = function (index) {
    index = Math.max(0, Math.min(count - 1, Number(index) || 0));
    V.current = index;
    V.$("step-label").textContent = "Step " + (index + F.first) + "/" + (count - 1 + F.first) + " · " + V.label(index);
    document.documentElement.dataset.step = String(index);
    toHash(index);
    banner(index);
    V.onStep.forEach((f) => f(index));
    document.dispatchEvent(new CustomEvent("viewer:step", { detail: index }));
  };
  window.viewerGo = (index) => V.go(index);

  // Groups (the 2009 turns): the next group's first step, or this group's (the previous
  // one's when already there). Without groups, ten steps.
  const groupOf = (i) => F.steps[i].group;
  V.groupStart = function (index, dir) {
    if (!F.groups.length) return index + 10 * dir;
    const k = groupOf(index);
    if (dir > 0) { for (let i = index + 1; i < count; i++) if (groupOf(i) > k) return i; return count - 1; }
    let i = index; while (i > 0 && groupOf(i - 1) === k) i--;
    if (i === index && i > 0) { const k2 = groupOf(i - 1); while (i > 0 && groupOf(i - 1) === k2) i--; }
    return i;
  };

  // Play, by step or by group, every `speed` ms.
  let timer = null;
  V.playing = () => timer !== null;
  V.stop = function () {
    if (timer) { clearInterval(timer); timer = null; }
    V.$("btn-play").textContent = "Play";
  };
  V.play = function () {
    if (timer) { V.stop(); return; }
    if (V.current === count - 1) V.go(0);
    V.$("btn-play").textContent = "Pause";
    timer = setInterval(() => {
      if (V.current >= count - 1) { V.stop(); return; }
      V.go(V.$("play-by").value === "turn" ? V.groupStart(V.current, 1) : V.current + 1);
    }, Number(V.$("speed").value));
  };
  const restart = () => { if (timer) { V.stop(); V.play(); } };
  // After a choice in a dropdown the keys go back to the page (the arrows step again).
  const chosen = (e) => { restart(); e.target.blur(); };
  V.$("speed").addEventListener("change", chosen);
  V.$("play-by").addEventListener("change", chosen);
  V.$("spoiler-free").addEventListener("change", (e) => { V.setSpoilerFree(e.target.checked); e.target.blur(); });

  const slider = V.$("step-slider");
  slider.max = String(count - 1);

  // A game still being played: its frame and its board's data so far replace the ones
  // shown; a viewer at the last step follows the game, one elsewhere stays where it is.
  V.grow = function (frame, data) {
    const following = V.current === count - 1;
    Object.assign(F, frame);
    count = V.count = F.steps.length;
    slider.max = String(count - 1);
    V.banner = F.result !== undefined;
    V.onGrow.forEach((f) => f(data));
    if (V.layout) V.layout();
    V.go(following ? count - 1 : V.current);
  };
  slider.addEventListener("input", () => V.go(Number(slider.value)));
  V.onStep.push((i) => { slider.value = String(i); });
  const click = (id, f) => { const b = V.$(id); if (b) b.addEventListener("click", f); };
  click("btn-first", () => V.go(0));
  click("btn-last", () => V.go(count - 1));
  click("btn-prev", () => V.go(V.current - 1));
  click("btn-next", () => V.go(V.current + 1));
  click("btn-prev-turn", () => V.go(V.groupStart(V.current, -1)));
  click("btn-next-turn", () => V.go(V.groupStart(V.current, 1)));
  click("btn-play", () => V.play());

  // Keys: the game adds its own; the footer lists them all.
  V.key = function (keys, description, f) { keys.forEach((k, n) => { V.keys[k] = [f, n === 0 ? description : null, keys]; }); };
  V.key(["ArrowLeft"], "previous step", () => V.go(V.current - 1));
  V.key(["ArrowRight"], "next step", () => V.go(V.current + 1));
  if (F.groups.length) {
    V.key(["ArrowUp", "PageUp"], "previous " + F.group_name, () => V.go(V.groupStart(V.current, -1)));
    V.key(["ArrowDown", "PageDown"], "next " + F.group_name, () => V.go(V.groupStart(V.current, 1)));
  } else {
    V.key(["ArrowUp"], "previous step", () => V.go(V.current - 1));
    V.key(["ArrowDown"], "next step", () => V.go(V.current + 1));
    V.key(["PageUp"], "ten steps back", () => V.go(V.groupStart(V.current, -1)));
    V.key(["PageDown"], "ten steps on", () => V.go(V.groupStart(V.current, 1)));
  }
  V.key(["Home"], "first step", () => V.go(0));
  V.key(["End"], "last step", () => V.go(count - 1));
  V.key([" "], "play / pause", () => V.play());
  V.key(["s"], "spoiler-free on / off", () => V.setSpoilerFree(!V.spoilerFree));
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
    const seen = new Set();
    for (const name in V.keys) {
      const [, description, all] = V.keys[name];
      if (!description || seen.has(all)) continue;
      seen.add(all);
      parts.push(all.map((k) => (shown[k] || (k.length === 1 ? k.toUpperCase() : k.replace("Arrow", "")))).join(" / ") + " " + description);
    }
    return "Keys: " + parts.join(" · ") + V.keysExtra;
  };
})();
