// Drives an Amazons replay page (referee/src/view/assets/amazons.*) in headless Chromium
// through the Chrome DevTools Protocol over a pipe (--remote-debugging-pipe), as viewer.mjs
// does for the 2009 page: no npm package needed.
//
//   node tests/browser/amazons.mjs PAGE.html[#step=N] [ACTION...] [--screenshot OUT.png] [--size WxH]
//
// ACTION is `key:NAME` (a real key press: ArrowLeft, ArrowRight, Home, End...), `hash:TEXT`
// (sets location.hash, as a user editing the address) or `click:SELECTOR`.
// Prints one JSON line: {"states": [the page's state when ready, then after each action],
// "errors": [console errors and uncaught exceptions]}. A state is {"step", "last", "hash",
// "cells": 100 characters read from the board's squares (a1, b1, .. j10: W, B, x or .),
// "marks": {"from", "to", "arrow"} square names, "banner": its text or null, "names": the
// seats' names as shown, "scripts": the number of script elements}.
// Exit code 1 on any failure of the driver itself.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const shot = option("--screenshot");
const [width, height] = (option("--size") || "1366x768").split("x").map(Number);
const rest = args.filter((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1].startsWith("--")));
const page = rest[0];
const actions = rest.slice(1);
if (!page) { console.error("usage: amazons.mjs PAGE.html[#step=N] [key:K|hash:H|click:SEL]... [--screenshot OUT.png] [--size WxH]"); process.exit(2); }
const browser = process.env.CHROMIUM || "/usr/bin/chromium";
const profile = mkdtempSync(join(tmpdir(), "amazons-chromium-"));

const chrome = spawn(browser, [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-extensions", "--hide-scrollbars", "--mute-audio",
  "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank",
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"], detached: true });
let stderr = "";
chrome.stderr.on("data", (d) => { stderr += d; });

const errors = [];
let nextId = 1, buffer = "";
const pending = new Map();
chrome.stdio[4].on("data", (chunk) => {
  buffer += chunk.toString("utf8");
  let end;
  while ((end = buffer.indexOf("\0")) >= 0) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    const waiter = message.id && pending.get(message.id);
    if (waiter) {
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(waiter.method + ": " + JSON.stringify(message.error)));
      else waiter.resolve(message.result);
    } else if (message.method === "Runtime.exceptionThrown") {
      const d = message.params.exceptionDetails;
      errors.push("exception: " + ((d.exception && d.exception.description) || d.text));
    } else if (message.method === "Runtime.consoleAPICalled" && ["error", "assert"].includes(message.params.type)) {
      errors.push("console." + message.params.type + ": " + message.params.args.map((a) => a.value ?? a.description).join(" "));
    } else if (message.method === "Log.entryAdded" && message.params.entry.level === "error") {
      errors.push("log: " + message.params.entry.text);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  const message = { id, method, params };
  if (sessionId) message.sessionId = sessionId;
  chrome.stdio[3].write(JSON.stringify(message) + "\0");
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
  };
})()`;

const KEYS = { ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, Home: 36, End: 35, PageUp: 33, PageDown: 34 };

async function main() {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const s = (method, params) => send(method, params, sessionId);
  const evaluate = async (expression) => (await s("Runtime.evaluate", { expression, returnByValue: true })).result.value;
  await s("Runtime.enable");
  await s("Log.enable");
  await s("Page.enable");
  await s("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
  const [file, hash] = page.split("#");
  await s("Page.navigate", { url: pathToFileURL(resolve(file)).href + (hash ? "#" + hash : "") });
  const deadline = Date.now() + 30000;
  while ((await evaluate("document.documentElement && document.documentElement.dataset.ready")) !== "1") {
    if (Date.now() > deadline) throw new Error("the page never became ready" + (errors.length ? ": " + errors.join("; ") : ""));
    await sleep(20);
  }
  await s("Page.bringToFront");
  const states = [await evaluate(STATE)];
  for (const action of actions) {
    const [kind, ...value] = action.split(":");
    const arg = value.join(":");
    if (kind === "key") {
      const code = KEYS[arg];
      if (!code) throw new Error("unknown key " + arg);
      for (const type of ["keyDown", "keyUp"])
        await s("Input.dispatchKeyEvent", { type, key: arg, code: arg, windowsVirtualKeyCode: code, nativeVirtualKeyCode: code });
    } else if (kind === "hash") {
      await evaluate("location.hash = " + JSON.stringify(arg));
    } else if (kind === "click") {
      await evaluate("document.querySelector(" + JSON.stringify(arg) + ").click()");
    } else throw new Error("unknown action " + action);
    // Let the events (hashchange is asynchronous) run.
    await sleep(60);
    states.push(await evaluate(STATE));
  }
  if (shot) {
    const { data } = await s("Page.captureScreenshot", { format: "png" });
    writeFileSync(shot, Buffer.from(data, "base64"));
  }
  console.log(JSON.stringify({ states, errors }));
  closing = true;
  await Promise.race([send("Browser.close"), sleep(3000)]);
}

let closing = false;
const watchdog = setTimeout(() => { console.error("amazons.mjs: timed out"); finish(1); }, 60000);
function finish(c) {
  clearTimeout(watchdog);
  // Chromium's helpers share its process group (detached: a group of its own).
  if (chrome.exitCode === null) { try { process.kill(-chrome.pid, "SIGKILL"); } catch {} }
  try { rmSync(profile, { recursive: true, force: true }); } catch {}
  process.exit(c);
}
chrome.on("exit", (c) => { if (pending.size && !closing) { console.error("chromium exited (" + c + "):\n" + stderr.slice(-2000)); finish(1); } });
main().then(() => finish(0), (e) => { console.error("amazons.mjs: " + e.message + "\n" + stderr.slice(-2000)); finish(1); });
