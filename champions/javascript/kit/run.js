// Runs a JavaScript champion under the protocol of protocol.md.
//
// Usage (from a champion's launcher, which moves the referee's pipes to fds 3 and 4 and
// points fd 1 at stderr and fd 0 at /dev/null): node run.js path/to/prologin.js
//
// Makes the API's functions and constants globals (and, as in 2009, the functions also
// members of a global object `prologin`: `prologin.construire_route(x, y)`; `print` and
// `printl` write to the log), runs prologin.js (UTF-8, or Latin-1 as 2010's generator
// wrote it) as a script (so its top-level `function jouer() {...}` are globals too;
// `require` works as in a module, relative to the champion's folder), then serves its
// callbacks.
"use strict";

const fs = require("fs");
const path = require("path");
const vm = require("vm");
const { createRequire } = require("module");
const { isUtf8 } = require("buffer");
const api = require("./api.js");

// The log written at once even when it is a pipe (the referee's is a file, written at once
// already): Node writes to a pipe the other end is slow to read asynchronously, and the
// process.exit below would drop what was not written yet.
for (const stream of [process.stdout, process.stderr]) {
  if (stream._handle && typeof stream._handle.setBlocking === "function") stream._handle.setBlocking(true);
}

function main() {
  if (process.argv.length !== 3) {
    fs.writeSync(2, "usage: node run.js path/to/prologin.js (fds 3 and 4: the referee)\n");
    return 2;
  }
  try {
    fs.fstatSync(3);
    fs.fstatSync(4);
  } catch (e) {
    fs.writeSync(2, "prologin kit (JavaScript): fds 3 and 4 must be the referee's pipes: start the champion with its `champion` launcher\n");
    return 2;
  }
  const file = path.resolve(process.argv[2]);
  for (const [name, value] of Object.entries(api)) {
    if (!name.startsWith("_")) globalThis[name] = value;
  }
  globalThis.prologin = Object.fromEntries(Object.entries(api).filter(([n]) => !n.startsWith("_")));
  globalThis.print = (...args) => process.stdout.write(args.join(""));
  globalThis.printl = (...args) => process.stdout.write(args.join("") + "\n");
  globalThis.require = createRequire(file);
  // UTF-8, or else Latin-1: the 2010 generator wrote Latin-1 files, and a contestant's
  // accents in a string would otherwise reach the log as U+FFFD.
  const bytes = fs.readFileSync(file);
  const source = isUtf8(bytes) ? bytes.toString("utf8") : bytes.toString("latin1");
  new vm.Script(source, { filename: file }).runInThisContext();
  return api._serve((name) => globalThis[name]);
}

process.exit(main());
