// A headless Chromium driven through the Chrome DevTools Protocol over a pipe
// (--remote-debugging-pipe): no npm package needed. Shared by the page drivers
// (amazons.mjs, index.mjs, viewer.mjs, ...): start the browser, open one tab, evaluate, press
// keys, click like a mouse, type, wait, take screenshots, and collect the page's console
// errors, uncaught exceptions and failed loads. A watchdog ends everything after `timeoutMs`.
// With CDP_SOCKET in the environment, the browser is the one host.mjs shares (the tests'
// page drivers: one Chromium a test binary) and the tab opens in a browser context of its
// own; without it, each driver starts its own (the screenshot scripts).
// VISION in the environment simulates a colour vision (screenshots: scripts/screenshot-pages.sh).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Prints `value` as one JSON line; resolves once it is written (a pipe takes it in parts:
// exiting before would cut it).
export const print = (value) => new Promise((r) => process.stdout.write(JSON.stringify(value) + "\n", r));

// Chromium makes its singleton socket at TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket,
// and a Unix socket's path holds at most 107 bytes: with a longer TMPDIR it dies with
// "Socket path too long" (and leaves that folder behind). The profile of a browser, in a
// TMPDIR short enough, or a message naming the problem and the fix and exit code 1 before
// any browser starts.
export const CHROMIUM_TMPDIR_MAX = 107 - "/org.chromium.Chromium.XXXXXX/SingletonSocket".length;
export function chromiumProfile(name) {
  const dir = tmpdir();
  const length = Buffer.byteLength(dir);
  if (length > CHROMIUM_TMPDIR_MAX) {
    console.error(name + ": TMPDIR is too long for Chromium (" + length + " bytes, at most " + CHROMIUM_TMPDIR_MAX +
      "): Chromium makes its socket at TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket and a socket's path " +
      "holds 107 bytes. Set TMPDIR to a shorter folder (e.g. TMPDIR=/tmp). TMPDIR is " + dir);
    process.exit(1);
  }
  return mkdtempSync(join(dir, name + "-chromium-"));
}

// The browser every driver and host.mjs start: one set of flags (sRGB: the palette's
// screenshots compare pixels).
const CHROMIUM_FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-extensions", "--hide-scrollbars", "--mute-audio", "--force-color-profile=srgb",
];

// A DevTools connection: to a Chromium of its own (started here, in a profile of `name`),
// or with `shared` to host.mjs's (CDP_SOCKET). `onEvent(message)` gets every message that
// is not a reply; when the browser or the host goes away, the requests still waiting fail
// with what it said, and `onGone(why)` is called. `send(method, params, sessionId)` resolves to the result; a protocol
// error rejects with an Error whose `cdp` is the error as sent. `close()` ends the browser
// (or leaves the host, whose context of this connection goes with it).
export function openBrowser(name, onEvent, { shared = process.env.CDP_SOCKET, onGone = () => {} } = {}) {
  let write, stderr = "", close, buffer = "", nextId = 1;
  const pending = new Map();
  const receive = (chunk) => {
    buffer += chunk.toString("utf8");
    let end;
    while ((end = buffer.indexOf("\0")) >= 0) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      const waiter = message.id && pending.get(message.id);
      if (waiter) {
        pending.delete(message.id);
        if (message.error) waiter.reject(Object.assign(new Error(waiter.method + ": " + JSON.stringify(message.error)), { cdp: message.error }));
        else waiter.resolve(message.result);
      } else if (message.method) onEvent(message);
    }
  };
  const gone = (why) => {
    for (const waiter of pending.values()) waiter.reject(new Error(why));
    pending.clear();
    onGone(why);
  };
  if (shared) {
    const socket = createConnection(shared);
    socket.on("data", receive);
    socket.on("error", (e) => gone("the shared browser (CDP_SOCKET=" + shared + "): " + e.message));
    socket.on("close", () => gone("the shared browser (CDP_SOCKET=" + shared + ") went away"));
    write = (text) => socket.write(text);
    close = () => socket.destroy();
  } else {
    const browser = process.env.CHROMIUM || "/usr/bin/chromium";
    const profile = chromiumProfile(name);
    const chrome = spawn(browser, [...CHROMIUM_FLAGS, "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"],
      { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"], detached: true });
    chrome.stderr.on("data", (d) => { stderr += d; });
    chrome.stdio[4].on("data", receive);
    chrome.on("exit", (c) => gone("chromium exited (" + c + "):\n" + stderr.slice(-2000)));
    chrome.stdio[3].on("error", () => {}); // a write after Chromium died: `gone` says why
    write = (text) => chrome.stdio[3].write(text);
    close = () => {
      // Chromium's helpers share its process group (detached: a group of its own).
      if (chrome.exitCode === null) { try { process.kill(-chrome.pid, "SIGKILL"); } catch {} }
      try { rmSync(profile, { recursive: true, force: true }); } catch {}
    };
  }
  return {
    send(method, params = {}, sessionId) {
      const id = nextId++;
      const message = { id, method, params };
      if (sessionId) message.sessionId = sessionId;
      write(JSON.stringify(message) + "\0");
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
    },
    stderr: () => stderr.slice(-2000),
    close,
  };
}

// An event handler that adds to `errors` the page's errors: uncaught exceptions,
// console.error and console.assert, errors the browser logs.
export function pageErrors(errors) {
  return ({ method, params }) => {
    if (method === "Runtime.exceptionThrown") {
      const d = params.exceptionDetails;
      errors.push("exception: " + ((d.exception && d.exception.description) || d.text));
    } else if (method === "Runtime.consoleAPICalled" && ["error", "assert"].includes(params.type)) {
      errors.push("console." + params.type + ": " + params.args.map((a) => a.value ?? a.description).join(" "));
    } else if (method === "Log.entryAdded" && params.entry.level === "error") {
      errors.push("log: " + params.entry.text + (params.entry.url ? " (" + params.entry.url + ")" : ""));
    }
  };
}

const KEYS = { ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, Home: 36, End: 35, PageUp: 33, PageDown: 34, Enter: 13 };

// Runs `body(tab)` in a fresh browser of `width` x `height`, then closes it and exits the
// process: 0 when `body` resolves, 1 (its message on stderr) when it throws.
export function withBrowser({ name, width, height, timeoutMs = 60000 }, body) {
  const errors = [];
  const listeners = [];
  let closing = false;
  const noteError = pageErrors(errors);
  const browser = openBrowser(name, (message) => {
    noteError(message);
    listeners.forEach((l) => l(message));
  });
  const send = browser.send;

  async function open() {
    const { targetId } = await send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    const s = (method, params) => send(method, params, sessionId);
    await s("Runtime.enable");
    await s("Log.enable");
    await s("Page.enable");
    await s("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
    // VISION=deuteranopia, protanopia, achromatopsia (or another of the protocol's types):
    // the page as that vision sees it, Chromium's own simulation.
    if (process.env.VISION) await s("Emulation.setEmulatedVisionDeficiency", { type: process.env.VISION });
    const evaluate = async (expression) => {
      const r = await s("Runtime.evaluate", { expression, returnByValue: true });
      if (r.exceptionDetails) throw new Error("evaluate " + expression.slice(0, 80) + ": " + r.exceptionDetails.text);
      return r.result.value;
    };
    const tab = {
      errors,
      send: s,
      evaluate,
      // Waits until `expression` is truthy (`what` names it in the error).
      async until(expression, what, ms = 30000) {
        const deadline = Date.now() + ms;
        for (;;) {
          let value;
          try { value = await evaluate(expression); } catch { value = undefined; }
          if (value) return value;
          if (Date.now() > deadline) throw new Error(what + " never happened" + (errors.length ? ": " + errors.join("; ") : ""));
          await sleep(20);
        }
      },
      // Loads `url` and waits for the page's ready marker (`data-ready="1"` on <html>).
      async navigate(url) {
        await s("Page.navigate", { url });
        await tab.ready(url);
      },
      async ready(what) {
        await tab.until("document.readyState === 'complete' && document.documentElement.dataset.ready === '1'", "the page " + what + " becoming ready");
      },
      // A key by its name (`ArrowLeft`, `End`) or a letter (`s`), typed as a keyboard would.
      async key(name) {
        const letter = /^[a-z]$/.test(name);
        const code = letter ? name.toUpperCase().charCodeAt(0) : KEYS[name];
        if (!code) throw new Error("unknown key " + name);
        await s("Page.bringToFront");
        for (const type of ["keyDown", "keyUp"])
          await s("Input.dispatchKeyEvent", { type, key: name, code: letter ? "Key" + name.toUpperCase() : name,
            windowsVirtualKeyCode: code, nativeVirtualKeyCode: code, ...(letter && type === "keyDown" ? { text: name } : {}) });
      },
      // A real mouse click in the middle of the first element `selector` matches (scrolled
      // into view first). With `navigates`, waits for the next document to be ready.
      async click(selector, navigates = false) {
        const at = await evaluate(`(() => { const e = document.querySelector(${JSON.stringify(selector)});
          if (!e) return null; e.scrollIntoView({ block: "center" }); const r = e.getBoundingClientRect();
          return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`);
        if (!at) throw new Error("nothing matches " + selector);
        await evaluate("window.__before = true");
        for (const type of ["mousePressed", "mouseReleased"])
          await s("Input.dispatchMouseEvent", { type, x: at.x, y: at.y, button: "left", clickCount: 1 });
        if (navigates) {
          await tab.until("window.__before === undefined", "a new page after clicking " + selector);
          await tab.ready("after clicking " + selector);
        } else await sleep(60);
      },
      // Types `text` into the first element `selector` matches, as a keyboard would.
      async type(selector, text) {
        await evaluate(`document.querySelector(${JSON.stringify(selector)}).focus()`);
        await s("Input.insertText", { text });
      },
      async screenshot(path) {
        const { data } = await s("Page.captureScreenshot", { format: "png" });
        writeFileSync(path, Buffer.from(data, "base64"));
      },
      on(listener) { listeners.push(listener); },
    };
    return tab;
  }

  const watchdog = setTimeout(() => { console.error(name + ": timed out"); finish(1); }, timeoutMs);
  function finish(c) {
    clearTimeout(watchdog);
    browser.close();
    process.exit(c);
  }
  open()
    .then(body)
    .then(async () => { closing = true; await Promise.race([send("Browser.close").catch(() => {}), sleep(3000)]); finish(0); },
      (e) => { if (!closing) console.error(name + ": " + e.message + "\n" + browser.stderr()); finish(1); });
}
