/* random: a C champion that plays legal-looking random moves.
 *
 * Seeds itself from PROLOGIN_SEED, so a match replays identically. Builds up to three
 * roads and two houses next to random roads, bids a little, places monuments at random. */
#include "prologin.h"

#include <stdio.h>
#include <stdlib.h>

static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;

static unsigned rnd(unsigned n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (unsigned)(rng_state % n);
}

/* A random VIDE cell with a road among its 4 (eight == 0) or 8 neighbours. Returns 0
 * when there is none. */
static int random_spot(int eight, int *cx, int *cy) {
  int xs[TAILLE_CARTE * TAILLE_CARTE], ys[TAILLE_CARTE * TAILLE_CARTE], n = 0, x, y;
  for (y = 0; y < TAILLE_CARTE; y++)
    for (x = 0; x < TAILLE_CARTE; x++) {
      int dx, dy, near = 0;
      if (type_case(x, y) != VIDE) continue;
      for (dy = -1; dy <= 1 && !near; dy++)
        for (dx = -1; dx <= 1 && !near; dx++) {
          if (!eight && dx != 0 && dy != 0) continue;
          near = type_case(x + dx, y + dy) == ROUTE;
        }
      if (near) xs[n] = x, ys[n] = y, n++;
    }
  if (n == 0) return 0;
  n = (int)rnd((unsigned)n);
  *cx = xs[n], *cy = ys[n];
  return 1;
}

void init_game(void) {
  const char *seed = getenv("PROLOGIN_SEED");
  if (seed) rng_state ^= strtoull(seed, NULL, 10) * 0x2545F4914F6CDD1DULL;
  if (rng_state == 0) rng_state = 1;
  printf("random (C): hello, I start? %s\n", commence() == 0 ? "yes" : "no");
}

void jouer(void) {
  int i, x, y;
  if (mon_tour() == false) return;
  for (i = 0; i < 3; i++)
    if (random_spot(0, &x, &y)) construire_route(x, y);
  for (i = 0; i < 4 && cout_achat_maison() <= finances(0) && cout_achat_maison() != INFINI; i++)
    if (random_spot(1, &x, &y)) construire_maison(x, y);
}

void enchere(void) {
  int money = finances(0);
  if (!mon_tour()) return;
  encherir(money > 0 ? (int)rnd((unsigned)(money < 3 ? money : 3) + 1) : 0);
}

void placement(void) {
  int i, x, y;
  if (!mon_tour()) return;
  for (i = 0; i < 5; i++)
    if (random_spot(1, &x, &y) && construire_monument(x, y) == SUCCES) return;
}

void end_game(void) {
  printf("random (C): final money %d, houses worth %d\n", finances(0), score(0));
}
