// The API of "La loi du plus riche" (Prologin 2009 final), JavaScript (Node) kit.
//
// Same names and values as the 2009 API; the rules, and every function with its error
// codes in the order they are checked, are in docs/rules.md (rule N, section 6). run.js
// makes every function and constant a global before it runs the champion's prologin.js,
// whose top-level functions init_game, jouer, enchere, placement, end_game are the
// callbacks. `require(<kit>/api.js)` gives the same functions as a module.
//
// Owns: the protocol streams (fds 3 and 4, set up by the launcher), the state cache (one
// `etat` per callback and after each successful action) and the local argument checks.
"use strict";

const fs = require("fs");
const { constants: C, prestige: PRESTIGE, portee: PORTEE } = require("./constants.js");
const CALLBACKS = ["init_game", "jouer", "enchere", "placement", "end_game"];

// Protocol descriptors: the launcher moves the referee's pipes there (protocol.md 8).
let fdIn = 3;
let fdOut = 4;
let callback = "(none)";

// Input buffer for line reading.
const chunk = Buffer.alloc(65536);
let pending = "";

// The cache (protocol.md section 4).
let dirty = true;
let figures = new Array(16).fill(0);
let kinds = "";
let owners = "";
let monuments = "";
let values = "";

/** The conversation with the referee broke down: say so and exit at once. */
function fail(message) {
  try {
    fs.writeSync(2, `prologin kit (JavaScript): error in ${callback}: ${message}\n`);
  } finally {
    process.exit(2);
  }
}

function send(text) {
  const data = Buffer.from(text, "latin1");
  let off = 0;
  while (off < data.length) {
    try {
      off += fs.writeSync(fdOut, data, off, data.length - off);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      fail(`writing to the referee: ${e.message}`);
    }
  }
}

/** The next line from the referee, without its `\n`; null at end of file. */
function readLine() {
  for (;;) {
    const nl = pending.indexOf("\n");
    if (nl >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      return line.endsWith("\r") ? line.slice(0, -1) : line;
    }
    let n;
    try {
      n = fs.readSync(fdIn, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      fail(`reading from the referee: ${e.message}`);
    }
    if (n === 0) {
      if (pending === "") return null;
      const line = pending;
      pending = "";
      return line;
    }
    pending += chunk.toString("latin1", 0, n);
  }
}

function expectLine(what) {
  const line = readLine();
  if (line === null) fail(`the referee closed the connection while we waited for \`${what}\``);
  return line;
}

/** An argument as the wire's signed 32-bit integer (the API's `int`). Fractions are cut
 * and values beyond the range clamped, which keeps every answer: a coordinate stays off
 * the map, a bid stays unaffordable or negative. */
function int(v) {
  const n = Math.trunc(Number(v));
  if (Number.isNaN(n)) return 0;
  return n < -2147483648 ? -2147483648 : n > 2147483647 ? 2147483647 : n;
}

/** Sends the request `name args...` in the canonical form and returns its answer. */
function ask(name, ...args) {
  send(args.length ? `${name} ${args.map(int).join(" ")}\n` : `${name}\n`);
  const line = expectLine(name);
  if (!/^-?[0-9]+$/.test(line)) {
    fail(`unparsable answer \`${line.slice(0, 60)}\` to \`${name}\`: expected an integer`);
  }
  return parseInt(line, 10);
}

function act(name, ...args) {
  const r = ask(name, ...args);
  if (r === C.SUCCES) dirty = true;
  return r;
}

function refresh() {
  send("etat\n");
  const fields = expectLine("etat").split(" ");
  if (fields.length !== 20 || fields.slice(16).some((f) => f.length !== 10000)) {
    fail("unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters");
  }
  const nums = fields.slice(0, 16);
  if (!nums.every((f) => /^-?[0-9]+$/.test(f))) {
    fail("unparsable answer to `etat`: a figure is not an integer");
  }
  figures = nums.map((f) => parseInt(f, 10));
  [kinds, owners, monuments, values] = fields.slice(16);
  dirty = false;
  if (rules) {
    rules.board(kinds, owners);
    rulesFresh = false;
  }
}

// The board's rules (rules 19 to 21): the C kit's, one implementation for every kit
// (c/kit/prologin_rules_lib.c), as the Node-API addon prologin_rules.node
// (c/kit/prologin_rules_node.c), which scripts/build-champions.sh builds in the C kit:
// $PROLOGIN_KITS/c (/kits/c in the jail), or the file PROLOGIN_RULES_LIB names. The board
// is given to it at each fill of the cache; the first construction_possible or
// route_possible after that fetches every cell's two answers at once, so that a call is
// an array read. Without the addon, each of the three calls is a round trip, said once.
let rules = null;
let rulesFresh = false;
const construction = new Int8Array(10000);
const route = new Int8Array(10000);

function loadRules() {
  const kits = process.env.PROLOGIN_KITS;
  const path =
    process.env.PROLOGIN_RULES_LIB ||
    (kits ? `${kits}/c/prologin_rules.node` : `${__dirname}/../../c/kit/prologin_rules.node`);
  try {
    const addon = { exports: {} };
    process.dlopen(addon, path);
    rules = addon.exports;
  } catch (e) {
    fs.writeSync(
      2,
      `prologin kit (JavaScript): no rules library (${e.message}): construction_possible, ` +
        "route_possible and distance ask the referee, a round trip each (build it: scripts/build-champions.sh)\n",
    );
  }
}

/** construction_possible (`table` construction) or route_possible (route) of (x, y). */
function ruleCell(table, x, y) {
  const i = cell(x, y);
  if (i < 0) return C.HORS_TERRAIN;
  if (!rulesFresh) {
    rules.tables(construction, route);
    rulesFresh = true;
  }
  return table[i];
}

function figure(i) {
  if (dirty) refresh();
  return figures[i];
}

/** The index of cell (x, y) in the cached strings, or -1 off the map. */
function cell(x, y) {
  x = int(x);
  y = int(y);
  if (x < 0 || x >= 100 || y < 0 || y >= 100) return -1;
  if (dirty) refresh();
  return y * 100 + x;
}

function player(n) {
  n = int(n);
  return n >= 0 && n <= 2 ? n : -1;
}

const api = {
  // Information functions.
  type_case(x, y) {
    const i = cell(x, y);
    return i < 0 ? C.HORS_TERRAIN : kinds.charCodeAt(i) - 48;
  },
  valeur_case(x, y) {
    const i = cell(x, y);
    return i < 0 ? C.HORS_TERRAIN : values.charCodeAt(i) - 64;
  },
  appartenance(x, y) {
    const i = cell(x, y);
    return i < 0 ? C.HORS_TERRAIN : owners.charCodeAt(i) - 48;
  },
  type_monument(x, y) {
    const i = cell(x, y);
    if (i < 0) return C.HORS_TERRAIN;
    const c = monuments.charCodeAt(i);
    return c === 46 ? C.PAS_DE_MONUMENT : c - 97; // '.' or 'a' + id
  },
  portee_monument(num_monument) {
    const m = int(num_monument);
    return m >= 0 && m < C.MAX_MONUMENTS ? PORTEE[m] : C.PAS_DE_MONUMENT;
  },
  prestige_monument(num_monument) {
    const m = int(num_monument);
    return m >= 0 && m < C.MAX_MONUMENTS ? PRESTIGE[m] : C.PAS_DE_MONUMENT;
  },
  numero_tour() {
    return figure(0);
  },
  commence() {
    return figure(2);
  },
  montant_encheres(num_joueur) {
    const p = player(num_joueur);
    return p < 0 ? C.JOUEUR_INCORRECT : figure(13 + p);
  },
  vainqueur_encheres() {
    return figure(4);
  },
  /** The player's houses' worth, money excluded: not the final score (rule 9). */
  score(num_joueur) {
    const p = player(num_joueur);
    return p < 0 ? C.JOUEUR_INCORRECT : figure(10 + p);
  },
  finances(num_joueur) {
    const p = player(num_joueur);
    return p < 0 ? C.JOUEUR_INCORRECT : figure(7 + p);
  },
  monument_en_cours() {
    return figure(3);
  },
  distance(x1, y1, x2, y2) {
    if (!rules) return ask("distance", x1, y1, x2, y2);
    if (dirty) refresh();
    return rules.distance(int(x1), int(y1), int(x2), int(y2));
  },
  route_possible(x, y) {
    if (!rules) return ask("route_possible", x, y);
    return ruleCell(route, x, y);
  },
  construction_possible(x, y) {
    if (!rules) return ask("construction_possible", x, y);
    return ruleCell(construction, x, y);
  },
  cout_achat_maison() {
    return figure(5);
  },
  cout_achat_route() {
    return figure(6);
  },
  /** 1 in your own turn, else 0 (rule 16). */
  mon_tour() {
    return figure(1);
  },

  // Actions.
  construire_route(x, y) {
    return act("construire_route", x, y);
  },
  construire_maison(x, y) {
    return act("construire_maison", x, y);
  },
  reserver_case(x, y) {
    return act("reserver_case", x, y);
  },
  detruire_maison(x, y) {
    return act("detruire_maison", x, y);
  },
  vendre_maison(x, y) {
    return act("vendre_maison", x, y);
  },
  encherir(montant) {
    return act("encherir", montant);
  },
  construire_monument(x, y) {
    return act("construire_monument", x, y);
  },
};

/** Runs the protocol loop; `find(name)` gives the champion's callback or undefined.
 * Returns the exit status. */
function serve(find) {
  loadRules();
  let ended = false;
  for (;;) {
    const name = readLine();
    if (name === null) break;
    if (!CALLBACKS.includes(name)) fail(`unknown callback \`${name.slice(0, 60)}\` from the referee`);
    callback = name;
    ended = name === "end_game";
    dirty = true;
    const f = find(name);
    if (typeof f === "function") f();
    send("fin\n");
  }
  if (!ended) {
    fs.writeSync(2, "prologin kit (JavaScript): the referee closed the connection before end_game\n");
    return 1;
  }
  return 0;
}

module.exports = Object.assign({}, C, api, {
  _serve: serve,
  _connect(input, output) {
    fdIn = input;
    fdOut = output;
  },
});
