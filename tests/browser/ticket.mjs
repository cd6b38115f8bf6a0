// Drives a Ticket to Ride replay page (referee/games/ticket/assets/*) in headless
// Chromium (cdp.mjs: the DevTools protocol over a pipe, no npm package needed).
//
//   node tests/browser/ticket.mjs PAGE.html[#step=N] [ACTION...] [--screenshot OUT.png] [--size WxH]
//
// ACTION is `key:NAME` (a real key press), `hash:TEXT` (sets location.hash) or
// `click:SELECTOR`. Prints one JSON line: {"states": [the page's state when ready, then
// after each action], "errors": [console errors and uncaught exceptions]}. A state is
// {"step", "last", "label", "banner": its text or null, "cities": the city names drawn,
// "routes": the route lines drawn, "owners": each route line's owner (-1: none),
// "owner_marks": the dashes of the owner's mark along each route (null: unclaimed),
// "swatches": the dashes of each seat panel's swatch, "row_text": the face-up cards' texts, "row":
// the face-up cards' colours, "seats": each seat panel's {name, stats, hand, tickets: the
// tickets listed, done: those marked completed, longest}, "moves": the moves listed,
// "console": the console's callbacks of the step, "slider_marks": the classes of the marks
// above the slider, "chart_lines": the curves of the first chart, "chart_dashes": the dash
// of each, "swatch_colours", "swatch_inks": each seat swatch's colour and its mark's ink,
// "mark_inks": the ink of the owner's mark along each route (null: unclaimed), "edge_inks":
// the colour of the edge under each route (null: unclaimed), "board": the board's colour,
// "console_colours": [seat, bar colour] of each callback in the console, "cpu_dots": [seat,
// colour, shape: tag, corners, hollow] of each dot of the CPU chart, "footer": the footer's
// text, "spoiler_free": the mode, "moves_shown", "faults_shown": the moves and faults
// listed and visible, "fault_steps": each fault's step}.
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
if (!page) { console.error("usage: ticket.mjs PAGE.html[#step=N] [key:K|hash:H|click:SEL]... [--screenshot OUT.png] [--size WxH]"); process.exit(2); }

const STATE = `(() => {
  const visible = (e) => getComputedStyle(e).visibility !== "hidden";
  const banner = document.getElementById("banner");
  const lines = [...document.querySelectorAll("#ttr-board line.route")];
  return {
    step: Number(document.documentElement.dataset.step),
    last: Number(document.getElementById("step-slider").max),
    label: document.getElementById("step-label").textContent,
    banner: banner.hidden ? null : banner.textContent,
    cities: [...document.querySelectorAll("#ttr-board .city text")].map((t) => t.textContent),
    routes: lines.length,
    owners: lines.map((l) => Number(l.dataset.owner)),
    owner_marks: [...document.querySelectorAll("#ttr-board line.owner-mark")]
      .map((m) => (m.getAttribute("visibility") === "visible" ? m.getAttribute("stroke-dasharray") : null)),
    swatches: [...document.querySelectorAll("#seats .seat .swatch .owner-mark")].map((m) => m.getAttribute("stroke-dasharray")),
    row: [...document.querySelectorAll("#row .card")].map((c) => c.title),
    row_text: [...document.querySelectorAll("#row .card")].map((c) => c.textContent),
    seats: [...document.querySelectorAll("#seats .seat")].map((s) => ({
      name: s.querySelector(".name").textContent,
      stats: s.querySelector(".stats").textContent,
      hand: s.querySelector(".hand").textContent,
      tickets: s.querySelectorAll(".tickets li").length,
      done: s.querySelectorAll(".tickets li.done").length,
      longest: s.querySelector(".longest").textContent })),
    moves: document.querySelectorAll("#moves li").length,
    spoiler_free: document.body.classList.contains("spoiler-free"),
    moves_shown: [...document.querySelectorAll("#moves li")].filter(visible).length,
    faults_shown: [...document.querySelectorAll("#faults li")].filter(visible).length,
    fault_steps: [...document.querySelectorAll("#faults li")].map((li) => Number(li.dataset.step)),
    console: document.querySelectorAll("#console .call").length,
    slider_marks: [...document.querySelectorAll("#fault-marks span")].map((m) => m.className),
    chart_lines: document.querySelectorAll("#chart path.seat-line").length,
    chart_dashes: [...document.querySelectorAll("#chart path.seat-line")].map((p) => p.getAttribute("stroke-dasharray") || ""),
    swatch_colours: [...document.querySelectorAll("#seats .seat .swatch line:first-child")].map((l) => getComputedStyle(l).stroke),
    swatch_inks: [...document.querySelectorAll("#seats .seat .swatch .owner-mark")].map((m) => getComputedStyle(m).stroke),
    mark_inks: [...document.querySelectorAll("#ttr-board line.owner-mark")]
      .map((m) => (m.getAttribute("visibility") === "visible" ? getComputedStyle(m).stroke : null)),
    edge_inks: [...document.querySelectorAll("#ttr-board line.route-edge")]
      .map((m) => (m.getAttribute("visibility") === "visible" ? getComputedStyle(m).stroke : null)),
    board: getComputedStyle(document.getElementById("ttr-board")).backgroundColor,
    console_colours: [...document.querySelectorAll("#console .call")]
      .map((c) => [Number(c.dataset.seat), getComputedStyle(c).borderLeftColor]),
    cpu_dots: [...document.querySelectorAll("#cpu-wrap .cpu")].map((d) => [Number(d.dataset.seat),
      getComputedStyle(d).fill === "none" ? getComputedStyle(d).stroke : getComputedStyle(d).fill,
      d.tagName + (d.getAttribute("points") ? d.getAttribute("points").split(" ").length / 2 : "") + (getComputedStyle(d).fill === "none" ? " hollow" : "")]),
    footer: document.getElementById("footer") ? document.getElementById("footer").textContent : null,
  };
})()`;

withBrowser({ name: "ticket", width, height }, async (tab) => {
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
    else throw new Error("unknown action " + action);
    await sleep(60);
    states.push(await tab.evaluate(STATE));
  }
  if (shot) await tab.screenshot(shot);
  await print({ states, errors: tab.errors });
});
