// Drives a replay page (referee/src/view/assets/viewer.*) in headless Chromium through the
// Chrome DevTools Protocol over a pipe (--remote-debugging-pipe): no npm package needed.
//
//   node tests/browser/viewer.mjs PAGE.html [--last] [--screenshot OUT.png] [--size 1280x1000]
//
// Prints one JSON line: {"ready_ms": load time in the page (performance.now() from the
// navigation start to the viewer's ready marker), "steps", "step", "scores": the final
// scores shown on the page, "console": the console panel's callbacks, "cpu_dots" and
// "budget_line": the CPU chart's}. With --last it presses the End key (the "last step" shortcut)
// and checks that the page moved to the last step. Exit code 1 on any failure.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const page = args.find((a) => !a.startsWith("--") && !/^\d+x\d+$/.test(a) && !a.endsWith(".png"));
const flag = (name) => args.includes(name);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
if (!page) { console.error("usage: viewer.mjs PAGE.html [--last] [--screenshot OUT.png] [--size WxH]"); process.exit(2); }
const [width, height] = (option("--size") || "1280x1000").split("x").map(Number);
const browser = process.env.CHROMIUM || "/usr/bin/chromium";
const profile = mkdtempSync(join(tmpdir(), "viewer-chromium-"));

const chrome = spawn(browser, [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-extensions", "--hide-scrollbars", "--mute-audio",
  "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank",
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"], detached: true });
let stderr = "";
chrome.stderr.on("data", (d) => { stderr += d; });

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

async function main() {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const s = (method, params) => send(method, params, sessionId);
  const evaluate = async (expression) => (await s("Runtime.evaluate", { expression, returnByValue: true })).result.value;
  await s("Page.enable");
  await s("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
  const [file, hash] = page.split("#");
  await s("Page.navigate", { url: pathToFileURL(resolve(file)).href + (hash ? "#" + hash : "") });
  const deadline = Date.now() + 30000;
  while ((await evaluate("document.documentElement && document.documentElement.dataset.ready")) !== "1") {
    if (Date.now() > deadline) throw new Error("the viewer never became ready");
    await sleep(20);
  }
  const readyMs = await evaluate("window.viewerReadyMs");
  const steps = await evaluate("Number(document.getElementById('step-slider').max) + 1");
  if (flag("--last")) {
    await s("Page.bringToFront");
    for (const type of ["keyDown", "keyUp"])
      await s("Input.dispatchKeyEvent", { type, key: "End", code: "End", windowsVirtualKeyCode: 35, nativeVirtualKeyCode: 35 });
    const deadline = Date.now() + 5000;
    while (Number(await evaluate("document.documentElement.dataset.step")) !== steps - 1) {
      if (Date.now() > deadline) throw new Error("the End key did not move the viewer to the last step");
      await sleep(20);
    }
  }
  const step = Number(await evaluate("document.documentElement.dataset.step"));
  const scores = await evaluate("[0, 1, 2].map((s) => Number(document.getElementById('final-' + s).textContent))");
  // The console panel of the step (referee/src/view/assets/console.js): each callback's
  // seat, head, stderr text as shown, notes, and elements inside the text (none: text only).
  const consolePanel = await evaluate(`[...document.querySelectorAll("#console .call")].map((c) => ({
    seat: Number(c.dataset.seat), head: c.querySelector(".head").textContent,
    text: c.querySelector("pre") ? c.querySelector("pre").textContent : null,
    notes: [...c.querySelectorAll(".note")].map((n) => n.textContent),
    elements: c.querySelector("pre") ? c.querySelector("pre").children.length : 0 }))`);
  const cpuDots = await evaluate("document.querySelectorAll('#cpu-chart circle.cpu').length");
  const budgetLine = await evaluate("!!document.querySelector('#cpu-chart path.budget')");
  const shot = option("--screenshot");
  if (shot) {
    await sleep(100);
    const { data } = await s("Page.captureScreenshot", { format: "png" });
    writeFileSync(shot, Buffer.from(data, "base64"));
  }
  console.log(JSON.stringify({ ready_ms: readyMs, steps, step, scores, console: consolePanel, cpu_dots: cpuDots, budget_line: budgetLine }));
  closing = true;
  await Promise.race([send("Browser.close"), sleep(3000)]);
}

let code = 0, closing = false;
const watchdog = setTimeout(() => { console.error("viewer.mjs: timed out"); finish(1); }, 60000);
function finish(c) {
  clearTimeout(watchdog);
  // Chromium's helpers share its process group (detached: a group of its own).
  if (chrome.exitCode === null) { try { process.kill(-chrome.pid, "SIGKILL"); } catch {} }
  try { rmSync(profile, { recursive: true, force: true }); } catch {}
  process.exit(c);
}
chrome.on("exit", (c) => { if (pending.size && !closing) { console.error("chromium exited (" + c + "):\n" + stderr.slice(-2000)); finish(1); } });
main().then(() => finish(code), (e) => { console.error("viewer.mjs: " + e.message + "\n" + stderr.slice(-2000)); finish(1); });
