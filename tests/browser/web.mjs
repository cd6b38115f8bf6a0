// Drives the game server's web site (`referee serve --web`, referee/src/serve/web/) in
// headless Chromium (cdp.mjs), step by step as a test says, while the test plays games:
//
//   node tests/browser/web.mjs [--size WxH]
//
// reads one command a line on stdin, a JSON array, and prints one JSON line for each:
//   ["open", URL]          navigates, waits for the page's data-ready; prints {"ok": URL}
//   ["until", EXPR, WHAT]  evaluates EXPR until it is truthy (60 s at most); {"ok": value}
//   ["eval", EXPR]         {"ok": value}
//   ["size", W, H]         the window's size
//   ["shot", PATH]         a screenshot (PNG)
//   ["errors"]             {"ok": [console errors and uncaught exceptions so far]}
// Exit code 1 on any failure (a WHAT that never happened names itself on stderr).
import { createInterface } from "node:readline";
import { withBrowser, print } from "./cdp.mjs";

const args = process.argv.slice(2);
const size = args.indexOf("--size") >= 0 ? args[args.indexOf("--size") + 1] : "1366x768";
const [width, height] = size.split("x").map(Number);

withBrowser({ name: "web", width, height, timeoutMs: 600000 }, async (tab) => {
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const [command, a, b] = JSON.parse(line);
    let ok;
    if (command === "open") { await tab.navigate(a); ok = a; }
    else if (command === "until") ok = await tab.until(a, b, 60000);
    else if (command === "eval") ok = await tab.evaluate(a);
    else if (command === "size") {
      await tab.send("Emulation.setDeviceMetricsOverride", { width: a, height: b, deviceScaleFactor: 1, mobile: false });
      ok = [a, b];
    } else if (command === "shot") { await tab.screenshot(a); ok = a; }
    else if (command === "errors") ok = tab.errors;
    else throw new Error("unknown command " + line);
    await print({ ok: ok === undefined ? null : ok });
  }
});
