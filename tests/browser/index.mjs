// Drives a tournament's index.html, its champions' pages and the replay pages they link to
// (referee/src/view/index/) in headless Chromium (cdp.mjs: the DevTools protocol over a
// pipe, no npm package needed), as a person would: clicks, typing, the back button.
//
//   node tests/browser/index.mjs PAGE.html[#hash] [ACTION...] [--screenshot OUT.png] [--size WxH]
//
// ACTION is `click:SELECTOR` (a mouse click that stays on the page: a column's title),
// `follow:SELECTOR` (a click on a link to another page, which must become ready),
// `type:SELECTOR=TEXT` (typed into a field), `check:SELECTOR` (a checkbox clicked),
// `back` (the browser's back button).
// Prints one JSON line: {"states": [the page's state when ready, then after each action],
// "errors": [console errors, uncaught exceptions, failed loads]}. A state is {"url" (the
// file path, then the hash), "page" (index, champion, or replay with its "step"),
// "ready_ms" (performance.now() from the navigation's start to the page's ready marker),
// "h2", "first_table" and its "first_table_top", "leaderboard": its rows' cells,
// "leaderboard_shown": its column titles not hidden, "leaderboard_right": its right edge
// (to compare with "viewport", the window's width), "matrix": the pairwise matrix's links
// ({text, title, href}), "filter" and "against": the filters' texts,
// "rows": the visible rows of table#matches ({id, cells: texts, first: the first cell's
// first element {tag, cls, text, href}, links: [{cls, href, text}], winners: the indexes of the cells marked as the winner}),
// "total_rows",
// "shown", "sorted": the column sorted by and its direction, "nav": the replay's
// #match-nav links, "faults": the page's fault links, "images" and "scripts": how many
// elements of each the page has, "text": what the page shows as text, "console": the
// replay's console lines}. Hrefs are absolute file:// URLs.
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
if (!page) { console.error("usage: index.mjs PAGE.html [click:SEL|follow:SEL|type:SEL=TEXT|check:SEL|back]... [--screenshot OUT.png] [--size WxH]"); process.exit(2); }

const STATE = `(() => {
  const d = document.documentElement;
  const link = (a) => ({ cls: a.className, href: a.href, text: a.textContent });
  const table = document.getElementById("matches");
  const rows = table ? [...table.tBodies[0].rows] : [];
  const first = document.querySelector("table");
  const sorted = [...document.querySelectorAll("#matches th[aria-sort]")].map((th) => th.textContent + " " + th.getAttribute("aria-sort"));
  const lb = document.getElementById("leaderboard");
  const visible = (el) => getComputedStyle(el).display !== "none";
  const field = (id) => document.getElementById(id) ? document.getElementById(id).value : null;
  return {
    url: decodeURIComponent(location.pathname) + location.hash,
    page: d.dataset.page || (d.dataset.step !== undefined ? "replay" : ""),
    step: d.dataset.step === undefined ? null : Number(d.dataset.step),
    title: document.title,
    ready_ms: window.indexReadyMs ?? window.viewerReadyMs ?? null,
    h2: [...document.querySelectorAll("h2")].map((h) => h.textContent),
    first_table: first ? first.id : null,
    first_table_top: first ? first.getBoundingClientRect().top : null,
    leaderboard: lb ? [...lb.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)) : [],
    leaderboard_links: lb ? [...lb.querySelectorAll("a")].map(link) : [],
    leaderboard_shown: lb ? [...lb.tHead.rows[0].cells].filter(visible).map((c) => c.textContent) : [],
    leaderboard_right: lb ? lb.getBoundingClientRect().right : null,
    viewport: window.innerWidth,
    matrix: [...document.querySelectorAll("#pairwise-matrix a.versus")].map((a) => ({ text: a.textContent, title: a.title, href: a.href })),
    filter: field("filter"),
    against: field("against"),
    rows: rows.filter((r) => !r.hidden).map((r) => {
      const el = r.cells[0] && r.cells[0].firstElementChild;
      return { id: Number(r.dataset.id), cells: [...r.cells].map((c) => c.textContent),
        first: el ? { tag: el.tagName, cls: el.className, text: el.textContent, href: el.href || null } : null,
        winners: [...r.querySelectorAll(".winner")].map((w) => w.closest("td").cellIndex),
        links: [...r.querySelectorAll("a")].map(link) };
    }),
    total_rows: rows.length,
    shown: document.getElementById("shown") ? document.getElementById("shown").textContent : null,
    sorted,
    nav: [...document.querySelectorAll("#match-nav a")].map((a) => ({ id: a.id, href: a.href, text: a.textContent })),
    faults: [...document.querySelectorAll("a.fault")].map(link),
    images: document.querySelectorAll("img").length,
    scripts: document.scripts.length,
    text: document.body.innerText,
    console: [...document.querySelectorAll("#console pre")].map((p) => p.textContent),
  };
})()`;

withBrowser({ name: "index", width, height }, async (tab) => {
  const [file, hash] = page.split("#");
  await tab.navigate(pathToFileURL(resolve(file)).href + (hash ? "#" + hash : ""));
  const states = [await tab.evaluate(STATE)];
  for (const action of actions) {
    const [kind, ...value] = action.split(":");
    const arg = value.join(":");
    if (kind === "click") await tab.click(arg);
    else if (kind === "follow") await tab.click(arg, true);
    else if (kind === "check") await tab.click(arg);
    else if (kind === "type") {
      const at = arg.indexOf("=");
      await tab.type(arg.slice(0, at), arg.slice(at + 1));
      await sleep(60);
    } else if (kind === "back") {
      await tab.evaluate("window.__before = true");
      await tab.evaluate("history.back()");
      await tab.until("window.__before === undefined", "the previous page");
      await tab.ready("back");
    } else throw new Error("unknown action " + action);
    states.push(await tab.evaluate(STATE));
  }
  if (shot) await tab.screenshot(shot);
  await print({ states, errors: tab.errors });
});
