// Drives a Little Town replay page (referee/games/town/assets/*) in headless Chromium
// (cdp.mjs: the DevTools protocol over a pipe, no npm package needed).
//
//   node tests/browser/town.mjs PAGE.html[#step=N] [ACTION...] [--screenshot OUT.png] [--size WxH]
//
// ACTION is `key:NAME` (a real key press: ArrowLeft, ArrowRight, Home, End...), `hash:TEXT`
// (sets location.hash) or `click:SELECTOR`.
// Prints one JSON line: {"states": [the page's state when ready, then after each action],
// "errors": [console errors and uncaught exceptions]}. A state is {"step", "last",
// "content": each position's content code as the board shows it, "workers": the seat whose
// worker stands on each position (-1 none), "worker_colours": the colour of each worker
// shown, "worker_shapes": each shown worker's shape (its corners, clip and turn),
// "frames": [owner, border style] of each building owned, "seats": each seat card's {name, stock, state, out, powers: the gold its powers paid at this step, shown, or ""}, "faults": the lines of the
// faults and eliminations panel, "slider_marks": the classes of the marks above the slider,
// "chart_lines": the seats' curves on the gold chart, "seat_colours": each seat
// card's token colour, "console_colours": [seat, bar colour] of each callback in the
// console, "cpu_dots": [seat, fill, shape: tag and corners] of each dot of the CPU chart, "label": the step's label,
// "footer": the footer's text, "spoiler_free": the mode, "moves_shown", "faults_shown":
// the moves and the faults and eliminations listed and visible, "fault_steps": the step
// of each, "result_shown": whether the result is visible, "result": its text}.
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
if (!page) { console.error("usage: town.mjs PAGE.html[#step=N] [key:K|hash:H|click:SEL|until:EXPR]... [--screenshot OUT.png] [--size WxH]"); process.exit(2); }

const STATE = `(() => {
  const visible = (e) => getComputedStyle(e).visibility !== "hidden";
  const squares = [...document.querySelectorAll("#board .sq")].sort((a, b) => a.dataset.index - b.dataset.index);
  return {
    step: Number(document.documentElement.dataset.step),
    last: Number(document.getElementById("step-slider").max),
    label: document.getElementById("step-label").textContent,
    content: squares.map((s) => Number(s.dataset.content)),
    workers: squares.map((s) => Number(s.dataset.worker)),
    worker_colours: squares.filter((s) => !s.querySelector(".worker").hidden)
      .map((s) => getComputedStyle(s.querySelector(".worker")).backgroundColor),
    worker_shapes: squares.filter((s) => !s.querySelector(".worker").hidden).map((s) => {
      const c = getComputedStyle(s.querySelector(".worker"));
      return [c.borderRadius, c.clipPath, c.transform].join(" ");
    }),
    frames: squares.filter((s) => Number(s.dataset.owner) >= 0)
      .map((s) => [Number(s.dataset.owner), getComputedStyle(s).borderTopStyle]),
    seats: [...document.querySelectorAll("#seats .seat")].map((c) => ({
      name: c.querySelector(".name").textContent, stock: c.querySelector(".stock").textContent,
      state: c.querySelector(".state").textContent, out: c.classList.contains("out"),
      powers: c.querySelector(".powers").hidden ? "" : c.querySelector(".powers").textContent })),
    faults: [...document.querySelectorAll("#faults li")].map((li) => li.textContent),
    spoiler_free: document.body.classList.contains("spoiler-free"),
    moves_shown: [...document.querySelectorAll("#moves [data-step]:not([data-step='0'])")].filter(visible).length,
    faults_shown: [...document.querySelectorAll("#faults li")].filter(visible).length,
    fault_steps: [...document.querySelectorAll("#faults li")].map((li) => Number(li.dataset.step)),
    result_shown: visible(document.getElementById("result")),
    result: document.getElementById("result").textContent,
    slider_marks: [...document.querySelectorAll("#fault-marks span")].map((m) => m.className),
    chart_lines: document.querySelectorAll("#chart path.seat-line").length,
    seat_colours: [...document.querySelectorAll("#seats .seat .tok")].map((t) => getComputedStyle(t).backgroundColor),
    console_colours: [...document.querySelectorAll("#console .call")]
      .map((c) => [Number(c.dataset.seat), getComputedStyle(c).borderLeftColor]),
    cpu_dots: [...document.querySelectorAll("#cpu-wrap .cpu")].map((d) => [Number(d.dataset.seat),
      getComputedStyle(d).fill, d.tagName + (d.getAttribute("points") ? d.getAttribute("points").split(" ").length / 2 : "")]),
    footer: document.getElementById("footer") ? document.getElementById("footer").textContent : null,
  };
})()`;

withBrowser({ name: "town", width, height }, async (tab) => {
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
