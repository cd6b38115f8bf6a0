// Drives an Amazons replay page (referee/games/amazons/assets/*) in headless Chromium
// (cdp.mjs: the DevTools protocol over a pipe, no npm package needed).
//
//   node tests/browser/amazons.mjs PAGE.html[#step=N] [ACTION...] [--screenshot OUT.png] [--size WxH]
//
// ACTION is `key:NAME` (a real key press: ArrowLeft, ArrowRight, Home, End...), `hash:TEXT`
// (sets location.hash, as a user editing the address), `click:SELECTOR` or `until:EXPR`
// (waits until the page's EXPR is true, e.g. while it plays).
// Prints one JSON line: {"states": [the page's state when ready, then after each action],
// "errors": [console errors and uncaught exceptions]}. A state is {"step", "last", "hash",
// "cells": 100 characters read from the board's squares (a1, b1, .. j10: W, B, x or .),
// "marks": {"from", "to", "arrow"} square names, "banner": its text or null, "names": the
// seats' names as shown, "scripts": the number of script elements, "console": the console
// panel's callbacks of the step ({seat, head, text, notes, elements}), "console_step",
// "cpu_dots", "budget_line": the CPU chart's dots and whether it draws the budget, "keys":
// the keys the footer lists, "play": the play button's text, "chart_lines": the seats'
// curves on the frame's chart, "chart_ends": their end labels, "slider_marks": the classes
// of the marks above the slider, "window" and "rects" (the console's, the move list's and
// the play button's top, bottom and height), "now_move": the move list's current entry
// ({text, row: its row's label, top, bottom, box_top, box_bottom, seen: whether it is the
// element at its own centre, not hidden under or clipped by another}), "mark_styles" and
// "legend_marks": each move mark's line style on the board and in the legend, "legend",
// "footer", "cpu_legend", "cpu_shapes": the element names of each seat's CPU dots,
// "mode": the sentence saying which mode is on, "spoiler_free", "chart_points" and
// "chart_dashes": each curve's points drawn and dash, "shown": whether the isolation and
// the result are visible, "moves_shown", "marks_shown", "cpu_shown": the moves, slider
// marks and CPU dots visible}.
// Exit code 1 on any failure of the driver itself.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { withBrowser, sleep, print } from "./cdp.mjs";

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const shot = option("--screenshot");
const [width, height] = (option("--size") || "1366x768").split("x").map(Number);
const rest = args.filter((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1].startsWith("--")));
const page = rest[0];
const actions = rest.slice(1);
if (!page) { console.error("usage: amazons.mjs PAGE.html[#step=N] [key:K|hash:H|click:SEL|until:EXPR]... [--screenshot OUT.png] [--size WxH]"); process.exit(2); }

const STATE = `(() => {
  const squares = [...document.querySelectorAll("#board .sq")].sort((a, b) => a.dataset.index - b.dataset.index);
  const marks = {};
  squares.forEach((s) => { if (s.dataset.mark) marks[s.dataset.mark] = s.dataset.square; });
  const banner = document.getElementById("banner");
  return {
    step: Number(document.documentElement.dataset.step),
    last: Number(document.getElementById("step-slider").max),
    slider: Number(document.getElementById("step-slider").value),
    hash: location.hash,
    cells: squares.map((s) => s.querySelector(".piece").textContent || ".").join(""),
    count: squares.length,
    marks,
    banner: banner.hidden ? null : banner.textContent,
    label: document.getElementById("step-label").textContent,
    names: [...document.querySelectorAll("#seats .name")].map((n) => n.textContent),
    scripts: document.scripts.length,
    console: [...document.querySelectorAll("#console .call")].map((c) => ({
      seat: Number(c.dataset.seat), head: c.querySelector(".head").textContent,
      text: c.querySelector("pre") ? c.querySelector("pre").textContent : null,
      notes: [...c.querySelectorAll(".note")].map((n) => n.textContent),
      elements: c.querySelector("pre") ? c.querySelector("pre").children.length : 0 })),
    console_step: Number(document.getElementById("console").dataset.step),
    cpu_dots: document.querySelectorAll("#cpu-chart .cpu").length,
    budget_line: !!document.querySelector("#cpu-chart path.budget"),
    keys: document.getElementById("keys").textContent,
    play: document.getElementById("btn-play").textContent,
    chart_lines: document.querySelectorAll("#chart path.seat-line").length,
    chart_ends: [...document.querySelectorAll("#chart text[style]")].map((t) => t.textContent),
    slider_marks: [...document.querySelectorAll("#fault-marks span")].map((m) => m.className),
    window: { width: innerWidth, height: innerHeight },
    rects: Object.fromEntries(["console", "moves", "btn-play"].map((id) => {
      const e = document.getElementById(id);
      const r = e ? e.getBoundingClientRect() : null;
      return [id, r ? { top: r.top, bottom: r.bottom, height: r.height } : null];
    })),
    now_move: (() => {
      const now = document.querySelector("#moves .now");
      if (!now) return null;
      const r = now.getBoundingClientRect(), box = document.getElementById("moves").getBoundingClientRect();
      let row = now.previousElementSibling;
      while (row && !row.classList.contains("n")) row = row.previousElementSibling;
      const seen = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      return { text: now.textContent, row: row ? row.textContent : null, top: r.top, bottom: r.bottom,
        seen: !!seen && (seen === now || now.contains(seen)),
        box_top: box.top, box_bottom: box.bottom };
    })(),
    mark_styles: Object.fromEntries([...document.querySelectorAll("#board .sq[data-mark]")].map((s) =>
      [s.dataset.mark, getComputedStyle(s, "::before").borderTopStyle])),
    legend_marks: Object.fromEntries([...document.querySelectorAll("#legend i.mark")].map((i) =>
      [i.dataset.mark, getComputedStyle(i).borderTopStyle])),
    legend: document.getElementById("legend").textContent,
    footer: document.getElementById("footer").textContent,
    cpu_legend: [...document.querySelectorAll("#cpu-chart text")].map((t) => t.textContent).filter((t) => t.startsWith("CPU per callback")),
    cpu_shapes: [0, 1].map((s) => [...new Set([...document.querySelectorAll("#cpu-chart .cpu[data-seat='" + s + "']")].map((d) => d.tagName))]),
    mode: document.getElementById("mode") ? document.getElementById("mode").textContent : null,
    spoiler_free: document.body.classList.contains("spoiler-free"),
    chart_points: [...document.querySelectorAll("#chart path.seat-line")].map((p) => p.getAttribute("d").split(/[ML]/).length - 1),
    chart_dashes: [...document.querySelectorAll("#chart path.seat-line")].map((p) => p.getAttribute("stroke-dasharray") || ""),
    shown: Object.fromEntries(["isolated", "result"].map((id) => [id, !!document.getElementById(id) && getComputedStyle(document.getElementById(id)).visibility !== "hidden"])),
    moves_shown: [...document.querySelectorAll("#moves .mv")].filter((m) => getComputedStyle(m).visibility !== "hidden").length,
    marks_shown: [...document.querySelectorAll("#fault-marks span")].filter((m) => !m.hidden).length,
    cpu_shown: [...document.querySelectorAll("#cpu-chart .cpu")].filter((d) => d.style.visibility !== "hidden").length,
  };
})()`;

withBrowser({ name: "amazons", width, height }, async (tab) => {
  const [file, hash] = page.split("#");
  await tab.navigate(pathToFileURL(resolve(file)).href + (hash ? "#" + hash : ""));
  await tab.send("Page.bringToFront");
  const states = [await tab.evaluate(STATE)];
  for (const action of actions) {
    const [kind, ...value] = action.split(":");
    const arg = value.join(":");
    if (kind === "key") await tab.key(arg);
    else if (kind === "hash") await tab.evaluate("location.hash = " + JSON.stringify(arg));
    else if (kind === "click") await tab.evaluate("document.querySelector(" + JSON.stringify(arg) + ").click()");
    else if (kind === "until") await tab.until(arg, arg);
    else throw new Error("unknown action " + action);
    // Let the events (hashchange is asynchronous) run.
    await sleep(60);
    states.push(await tab.evaluate(STATE));
  }
  if (shot) await tab.screenshot(shot);
  await print({ states, errors: tab.errors });
});
