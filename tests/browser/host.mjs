// One headless Chromium shared by the page drivers of a test binary (referee/tests/common/
// browser_host.rs starts it): starting a browser costs about three times what a tab in a
// running one does (referee/BENCHMARKS.md, "The suite's own time").
//
//   node tests/browser/host.mjs
//
// Starts Chromium (cdp.mjs), listens on TMPDIR/cdp.sock (in a folder only its user may
// enter: the browser runs with --no-sandbox, and whoever talks to it drives it), prints that
// path as one line once it listens, and ends, Chromium with it, when its stdin closes (the
// test binary exited, or was killed). Each connection is a driver (cdp.mjs with CDP_SOCKET
// set) that sees the protocol as with a browser of its own: its tabs open in a browser
// context of their own (no cookie, storage or cache shared with another test), its request
// ids are its own, it gets the events of its own sessions only, and its Browser.close
// closes that context, which goes too when the driver ends for any reason.
import { chmodSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openBrowser } from "./cdp.mjs";

const path = join(tmpdir(), "cdp.sock");
// Session id -> the connection whose tab it is.
const sessions = new Map();
const browser = openBrowser("host", (message) => {
  const owner = message.sessionId && sessions.get(message.sessionId);
  if (owner && !owner.destroyed) owner.write(JSON.stringify(message) + "\0");
}, { shared: null, onGone: (why) => { console.error("host.mjs: " + why); end(1); } });

function end(code) {
  browser.close();
  try { rmSync(path, { force: true }); } catch {}
  process.exit(code);
}

const server = createServer((connection) => {
  const context = browser.send("Target.createBrowserContext");
  const mine = new Set();
  let buffer = "";
  const reply = (message) => { if (!connection.destroyed) connection.write(JSON.stringify(message) + "\0"); };
  // Each request once the context exists, in the order sent.
  const forward = async ({ id, method, params = {}, sessionId }) => {
    try {
      const { browserContextId } = await context;
      if (method === "Browser.close") {
        await browser.send("Target.disposeBrowserContext", { browserContextId }).catch(() => {});
        return reply({ id, result: {} });
      }
      if (method === "Target.createTarget") params = { ...params, browserContextId };
      const result = await browser.send(method, params, sessionId);
      if (method === "Target.attachToTarget" && result.sessionId) {
        sessions.set(result.sessionId, connection);
        mine.add(result.sessionId);
      }
      reply({ id, result });
    } catch (e) {
      reply({ id, error: e.cdp || { code: -32000, message: e.message } });
    }
  };
  connection.on("data", (chunk) => {
    buffer += chunk.toString("utf8");
    let at;
    while ((at = buffer.indexOf("\0")) >= 0) {
      let message;
      try { message = JSON.parse(buffer.slice(0, at)); } catch { connection.destroy(); return; }
      buffer = buffer.slice(at + 1);
      // Sent in order: each awaits the same context first.
      forward(message);
    }
  });
  connection.on("error", () => {});
  connection.on("close", () => {
    for (const session of mine) sessions.delete(session);
    context.then(({ browserContextId }) => browser.send("Target.disposeBrowserContext", { browserContextId })).catch(() => {});
  });
});

// Chromium gone (it crashed, or was killed): the host ends, its drivers' connections with
// it; browser_host.rs starts a new one for the next page.
browser.send("Browser.getVersion").then(() => {
  server.listen(path, async () => {
    chmodSync(path, 0o600);
    process.stdout.write(path + "\n");
  });
}, (e) => { console.error("host.mjs: " + e.message); end(1); });
process.stdin.on("end", () => end(0));
process.stdin.on("error", () => end(0));
process.stdin.resume();
