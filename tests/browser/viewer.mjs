// Drives a replay page (referee/src/view/assets/viewer*.*) in headless Chromium through the
// Chrome DevTools Protocol (cdp.mjs's connection: its own browser, or host.mjs's).
//
//   node tests/browser/viewer.mjs PAGE.html[#step=N] [--size 1280x1000] [--scale 1]
//        [--before EXPR]... [--last] [--press KEY]... [--wait MS] [--resize WxH] [--rescale F]
//        [--align]
//        [--eval EXPR]... [--screenshot OUT.png]
//
// In that order: opens the page at the window size and pixel ratio given, waits for the
// viewer's ready marker, evaluates each --before expression, with --last presses End and checks that the page moved to the
// last step, presses each --press key (`ArrowRight`, `p`, `Space`, `Shift+ArrowLeft`, ...), waits
// --wait ms, with --resize changes the window's size and with --rescale its pixel ratio (as
// moving the window to another screen would), then reports; --align then clicks the step slider at the x of each turn
// on the score chart and reads the step the slider took; the screenshot is taken last.
//
// Prints one JSON line: "ready_ms" (performance.now() from the navigation start to the
// ready marker), "steps", "step" (0-based), "hash", "scores" (the final scores shown),
// "console" (the console panel's callbacks), "cpu_dots", "budget_line", "cards" (each
// seat's card: stopped, pending, actions, note, faults), "info" (the step's explanation,
// one {class, text} per paragraph), "layout" (viewport, board, chart, slider and console boxes,
// canvas backing size, pixel ratio), "palette" (the page's CSS colours), "align" (with
// --align), "evals" (the value of each --eval) and "errors": every exception, console
// error and log error of the page. Exit code 1 on any failure of the driver itself.
// VISION in the environment simulates a colour vision (scripts/screenshot-pages.sh).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { openBrowser, pageErrors } from "./cdp.mjs";

const args = process.argv.slice(2);
const VALUED = ["--size", "--scale", "--before", "--press", "--wait", "--resize", "--rescale", "--eval", "--screenshot"];
let page = null;
const options = {};
for (let i = 0; i < args.length; i++) {
  if (VALUED.includes(args[i])) (options[args[i]] = options[args[i]] || []).push(args[++i]);
  else if (args[i].startsWith("--")) options[args[i]] = [true];
  else page = args[i];
}
const option = (name) => (options[name] ? options[name][options[name].length - 1] : undefined);
const all = (name) => options[name] || [];
if (!page) { console.error("usage: viewer.mjs PAGE.html[#step=N] [--size WxH] [--scale F] [--before EXPR]... [--last] [--press KEY]... [--wait MS] [--resize WxH] [--rescale F] [--align] [--eval EXPR]... [--screenshot OUT.png]"); process.exit(2); }
const [width, height] = (option("--size") || "1280x1000").split("x").map(Number);
const scale = Number(option("--scale") || 1);
// The page's errors: uncaught exceptions, console.error/assert, errors the browser logs.
const errors = [];
const browser = openBrowser("viewer", pageErrors(errors));
const send = browser.send;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Keys as the DevTools protocol wants them; `Shift+` adds the modifier.
const CODES = { ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, End: 35, Home: 36, PageUp: 33, PageDown: 34, Escape: 27, " ": 32 };
async function press(s, name) {
  const shift = name.startsWith("Shift+");
  const key = (shift ? name.slice(6) : name).replace(/^Space$/, " ");
  const code = CODES[key] || key.toUpperCase().charCodeAt(0);
  const text = key.length === 1 ? (shift ? key.toUpperCase() : key) : undefined;
  const codeName = key === " " ? "Space" : key.length === 1 ? "Key" + key.toUpperCase() : key;
  const base = { key: text || key, code: codeName, windowsVirtualKeyCode: code, nativeVirtualKeyCode: code, modifiers: shift ? 8 : 0 };
  await s("Input.dispatchKeyEvent", Object.assign({ type: text ? "keyDown" : "rawKeyDown", text }, base));
  await s("Input.dispatchKeyEvent", Object.assign({ type: "keyUp" }, base));
}

async function main() {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const s = (method, params) => send(method, params, sessionId);
  const evaluate = async (expression) => {
    const r = await s("Runtime.evaluate", { expression, returnByValue: true });
    if (r.exceptionDetails) throw new Error("evaluating " + expression + ": " + ((r.exceptionDetails.exception && r.exceptionDetails.exception.description) || r.exceptionDetails.text));
    return r.result.value;
  };
  const frame = () => evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))");
  await s("Page.enable");
  await s("Runtime.enable");
  await s("Log.enable");
  await s("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: scale, mobile: false });
  // VISION=deuteranopia, protanopia, achromatopsia: the page as that vision sees it.
  if (process.env.VISION) await s("Emulation.setEmulatedVisionDeficiency", { type: process.env.VISION });
  const [file, hash] = page.split("#");
  await s("Page.navigate", { url: pathToFileURL(resolve(file)).href + (hash ? "#" + hash : "") });
  const deadline = Date.now() + 30000;
  const isReady = "document.documentElement && document.documentElement.dataset.ready === '1' && (!document.getElementById('console-data') || document.documentElement.dataset.console === '1')";
  while (!(await evaluate(isReady))) {
    if (Date.now() > deadline) throw new Error("the viewer never became ready");
    await sleep(20);
  }
  const readyMs = await evaluate("window.viewerReadyMs");
  const steps = await evaluate("Number(document.getElementById('step-slider').max) + 1");
  await s("Page.bringToFront");
  for (const expression of all("--before")) await evaluate(expression);
  if (options["--last"]) {
    await press(s, "End");
    const deadline = Date.now() + 5000;
    while (Number(await evaluate("document.documentElement.dataset.step")) !== steps - 1) {
      if (Date.now() > deadline) throw new Error("the End key did not move the viewer to the last step");
      await sleep(20);
    }
  }
  for (const key of all("--press")) { await press(s, key); await frame(); }
  if (option("--wait")) await sleep(Number(option("--wait")));
  if (option("--resize") || option("--rescale")) {
    const [w, h] = (option("--resize") || width + "x" + height).split("x").map(Number);
    const ratio = Number(option("--rescale") || scale);
    // Wait for the page to lay itself out again at the new size and ratio (it checks its
    // pixel ratio every 500 ms): a loaded machine takes its time, a fixed pause would not.
    await evaluate(`window.__laidAgain = 0; document.addEventListener("viewer:layout", () => { window.__laidAgain++; }); 0`);
    await s("Emulation.setDeviceMetricsOverride", { width: w, height: h, deviceScaleFactor: ratio, mobile: false });
    const laid = `window.__laidAgain > 0 && innerWidth === ${w} && innerHeight === ${h} && devicePixelRatio === ${ratio}`;
    for (let waited = 0; !(await evaluate(laid)); waited += 20) {
      if (waited > 20000) throw new Error("viewer.mjs: the page did not lay itself out again after --resize/--rescale");
      await sleep(20);
    }
  }
  await frame();
  const report = await evaluate(`(() => {
    const $ = (id) => document.getElementById(id);
    const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }; };
    const css = getComputedStyle(document.documentElement);
    const palette = {};
    for (const name of ["--p0", "--p1", "--p2", "--hall", "--road", "--road-line", "--ground", "--monument", "--mark", "--refused"]) palette[name] = css.getPropertyValue(name).trim();
    const canvas = $("board");
    return {
      step: Number(document.documentElement.dataset.step), hash: location.hash,
      scores: [0, 1, 2].map((s) => Number($("final-" + s).textContent)),
      console: [...document.querySelectorAll("#console .call")].map((c) => ({
        seat: Number(c.dataset.seat), head: c.querySelector(".head").textContent,
        text: c.querySelector("pre") ? c.querySelector("pre").textContent : null,
        notes: [...c.querySelectorAll(".note")].map((n) => n.textContent),
        elements: c.querySelector("pre") ? c.querySelector("pre").children.length : 0 })),
      cpu_dots: document.querySelectorAll("#cpu-chart .cpu").length,
      budget_line: !!document.querySelector("#cpu-chart path.budget"),
      cards: [0, 1, 2].map((s) => ({
        stopped: $("player-" + s).dataset.stopped === "true",
        stopped_note: $("stopped-" + s).textContent,
        pending: $("pending-" + s).hidden ? null : $("pending-" + s).textContent,
        actions: [...$("actions-" + s).children].map((li) => li.textContent),
        note: $("note-" + s).textContent, faults: $("faults-" + s).textContent })),
      info: [...$("stage-info").children].map((p) => ({ class: p.className, text: p.textContent })),
      presenting: document.body.classList.contains("presenting"),
      banner: $("banner").hidden ? null : $("banner").textContent,
      keys: $("keys").textContent,
      layout: { viewport: [innerWidth, innerHeight], ratio: devicePixelRatio, board: box(canvas), chart: box($("chart")),
        slider: box($("step-slider")), console: box($("console")), canvas: [canvas.width, canvas.height], step_label_px: parseFloat(getComputedStyle($("step-label")).fontSize) },
      palette,
    };
  })()`);
  let align = null;
  if (options["--align"]) {
    const ticks = await evaluate(`[...document.querySelectorAll("#turn-ticks span")].map((t) => { const r = t.getBoundingClientRect(); return { turn: Number(t.dataset.turn), step: Number(t.dataset.step), x: r.left + r.width / 2 }; })`);
    const lines = await evaluate(`[...document.querySelectorAll("#chart line.turn")].map((l) => ({ turn: Number(l.dataset.turn), x: l.getBoundingClientRect().left }))`);
    const dots = await evaluate(`[...document.querySelectorAll("#cpu-chart .cpu")].map((d) => { const r = d.getBoundingClientRect(); return { step: Number(d.dataset.step), x: r.left + r.width / 2 }; })`);
    const clicked = [];
    for (const line of lines) {
      const y = await evaluate("(() => { const r = document.getElementById('step-slider').getBoundingClientRect(); return r.top + r.height / 2; })()");
      await s("Input.dispatchMouseEvent", { type: "mouseMoved", x: line.x, y, button: "none" });
      for (const type of ["mousePressed", "mouseReleased"]) await s("Input.dispatchMouseEvent", { type, x: line.x, y, button: "left", buttons: type === "mousePressed" ? 1 : 0, clickCount: 1 });
      await frame();
      clicked.push({ turn: line.turn, step: Number(await evaluate("document.getElementById('step-slider').value")) });
    }
    align = { ticks, lines, dots, clicked };
  }
  const evals = [];
  for (const expression of all("--eval")) evals.push(await evaluate(expression));
  const shot = option("--screenshot");
  if (shot) {
    await sleep(100);
    const { data } = await s("Page.captureScreenshot", { format: "png" });
    writeFileSync(shot, Buffer.from(data, "base64"));
  }
  await sleep(50); // late errors
  console.log(JSON.stringify(Object.assign({ ready_ms: readyMs, steps }, report, { align, evals, errors })));
  await Promise.race([send("Browser.close").catch(() => {}), sleep(3000)]);
}

const watchdog = setTimeout(() => { console.error("viewer.mjs: timed out"); finish(1); }, 60000);
function finish(c) {
  clearTimeout(watchdog);
  browser.close();
  process.exit(c);
}
main().then(() => finish(0), (e) => { console.error("viewer.mjs: " + e.message + "\n" + browser.stderr()); finish(1); });
