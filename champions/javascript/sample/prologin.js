// sample: a JavaScript champion that plays sensibly: roads and houses near the town hall,
// a bid on a good monument, the monument placed among its own houses (a bad one among
// the others'). Random choices are seeded from PROLOGIN_SEED: a match replays identically.
// The API's functions and constants are globals (the kit's run.js makes them so).

const CENTRE = TAILLE_CARTE / 2; // the town hall's road, (50, 50)
let state = 1;

/** Park-Miller: the same sequence in every kit's sample. */
function rand(n) {
  state = (state * 48271) % 2147483647;
  return state % n;
}

function near(c) {
  return Math.abs(c.x - CENTRE) + Math.abs(c.y - CENTRE);
}

/** Empty cells with a road among their 4 (or 8) neighbours, row after row. */
function candidates(diagonals) {
  const found = [];
  for (let y = 0; y < TAILLE_CARTE; y++) {
    for (let x = 0; x < TAILLE_CARTE; x++) {
      if (type_case(x, y) !== VIDE) continue;
      let road = false;
      for (let dy = -1; dy <= 1 && !road; dy++) {
        for (let dx = -1; dx <= 1 && !road; dx++) {
          if ((dx === 0 && dy === 0) || (!diagonals && dx !== 0 && dy !== 0)) continue;
          road = type_case(x + dx, y + dy) === ROUTE;
        }
      }
      if (road) found.push({ x, y, i: y * TAILLE_CARTE + x });
    }
  }
  return found;
}

function init_game() {
  const seed = (process.env.PROLOGIN_SEED || "1").slice(-9);
  state = (parseInt(seed, 10) % 2147483646) + 1;
  console.log(`sample (JavaScript): first player ${commence()}`);
}

function jouer() {
  if (!mon_tour()) return;
  const roads = candidates(false).sort((a, b) => near(a) - near(b) || a.i - b.i);
  if (roads.length > 0 && cout_achat_route() <= finances(0)) {
    const c = roads[rand(Math.min(4, roads.length))];
    construire_route(c.x, c.y);
  }
  for (let built = 0; built < 2 && cout_achat_maison() <= finances(0); built++) {
    const houses = candidates(true).sort(
      (a, b) => valeur_case(b.x, b.y) - valeur_case(a.x, a.y) || near(a) - near(b) || a.i - b.i,
    );
    if (!houses.slice(0, 3).some((c) => construire_maison(c.x, c.y) === SUCCES)) break;
  }
}

function enchere() {
  const m = monument_en_cours();
  if (m === PAS_DE_MONUMENT || prestige_monument(m) <= 0) return;
  const bid = Math.min(finances(0), prestige_monument(m) - 1 + rand(2));
  if (bid > 0) encherir(bid);
}

function placement() {
  const m = monument_en_cours();
  const r = portee_monument(m);
  const sign = prestige_monument(m) >= 0 ? 1 : -1;
  // Our houses in range count for a good monument, the others' for a bad one.
  const gain = (c) => {
    let g = 0;
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        if (type_case(c.x + dx, c.y + dy) !== MAISON) continue;
        g += appartenance(c.x + dx, c.y + dy) === 0 ? sign : -sign;
      }
    }
    return g;
  };
  const cells = candidates(true)
    .map((c) => Object.assign(c, { g: gain(c) }))
    .sort((a, b) => b.g - a.g || near(a) - near(b) || a.i - b.i);
  cells.slice(0, 10).some((c) => construire_monument(c.x, c.y) === SUCCES);
}

function end_game() {
  console.log(`sample (JavaScript) end: money ${finances(0)} houses ${score(0)}`);
}
