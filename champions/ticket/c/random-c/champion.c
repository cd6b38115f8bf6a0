/* A Ticket to Ride champion written as the subject's programs are (its own main(): wait
 * for a game, get the map, then play and get the other's moves until a move does not
 * return NORMAL_MOVE), playing as the subject's PLAY_RANDOM (the referee's `random`): it
 * keeps every ticket, claims at random a route it can pay for that touches a city of its
 * tickets or of its routes, and otherwise draws two cards, blind or a face-up one that is
 * no locomotive, one chance in two each. */
#include <stdio.h>
#include <stdlib.h>

#include "TicketToRide.h"

#define MAX_ROUTES 512
#define MAX_CITIES 256

typedef struct {
  int a, b, length, twin, owner;
  t_color color;
} route;

static route routes[MAX_ROUTES];
static int nb_routes, me, players;

static void load_routes(void) {
  int i;
  nb_routes = getNbRoutes();
  if (nb_routes > MAX_ROUTES) nb_routes = MAX_ROUTES;
  for (i = 0; i < nb_routes; i++)
    getRoute(i, &routes[i].a, &routes[i].b, &routes[i].length, &routes[i].color,
             &routes[i].twin, &routes[i].owner);
}

static int claimable(int i) {
  if (routes[i].owner >= 0) return 0;
  if (routes[i].twin >= 0 && routes[routes[i].twin].owner >= 0)
    return routes[routes[i].twin].owner != me && players > 3;
  return 1;
}

/* The payment of route i with the fewest locomotives: its colour and locomotives, or 0. */
static int payment(int i, const int hand[10], int *colour, int *locos) {
  int length = routes[i].length, c = routes[i].color, have, l = hand[MULTICOLOR];
  if (c == MULTICOLOR) {
    int k;
    c = PURPLE;
    for (k = PURPLE; k <= GREEN; k++)
      if (hand[k] > hand[c]) c = k;
  }
  have = hand[c] < length ? hand[c] : length;
  if (have == 0) {
    if (l < length) return 0;
    *colour = routes[i].color;
    *locos = length;
    return 1;
  }
  if (have + l < length) return 0;
  *colour = c;
  *locos = length - have;
  return 1;
}

static t_return_code draw_one(void) {
  t_color row[5], card;
  int faces[5], n = 0, i;
  getFaceUp(row);
  for (i = 0; i < 5; i++)
    if (row[i] != NONE && row[i] != MULTICOLOR) faces[n++] = row[i];
  if (rand() % 2 == 0 || n == 0) return drawBlindCard(&card);
  return drawCard(faces[rand() % n], row);
}

static t_return_code play_turn(void) {
  t_objective objectives[64];
  int hand[10], cities[MAX_CITIES] = {0}, i, n, near[MAX_ROUTES], nb_near = 0;
  int colour = 0, locos = 0, wagons;
  t_return_code code;
  char status[16];
  if (sscanf(ask("status"), "%*d %15s", status) == 1 && status[0] == 'f') {
    int all[3] = {1, 1, 1};
    code = drawObjectives(objectives);
    return code != NORMAL_MOVE ? code : chooseObjectives(all);
  }
  load_routes();
  getHand(hand);
  wagons = getWagons();
  n = getObjectives(objectives, 64);
  for (i = 0; i < n && i < 64; i++) cities[objectives[i].city1] = cities[objectives[i].city2] = 1;
  for (i = 0; i < nb_routes; i++)
    if (routes[i].owner == me) cities[routes[i].a] = cities[routes[i].b] = 1;
  for (i = 0; i < nb_routes; i++)
    if ((cities[routes[i].a] || cities[routes[i].b]) && claimable(i) &&
        routes[i].length <= wagons && payment(i, hand, &colour, &locos))
      near[nb_near++] = i;
  if (nb_near > 0) {
    int r = near[rand() % nb_near];
    payment(r, hand, &colour, &locos);
    return claimRoute(routes[r].a, routes[r].b, colour, locos);
  }
  code = draw_one();
  return code != NORMAL_MOVE ? code : draw_one();
}

int main(void) {
  char name[51];
  int nb_cities, nb_tracks, *tracks, replay;
  t_color face_up[5], cards[4];
  t_return_code code = NORMAL_MOVE;
  t_move move;
  const char *seed = getenv("PROLOGIN_SEED");
  srand(seed ? (unsigned)strtoul(seed, NULL, 10) : 0);
  connectToServer("localhost", 1234, "random.c");
  waitForT2RGame("TRAINING PLAY_RANDOM", name, &nb_cities, &nb_tracks);
  tracks = malloc(sizeof(int) * 5 * (nb_tracks + 1));
  me = getMap(tracks, face_up, cards);
  players = getNbPlayers();
  printf("%s: %d cities, %d tracks, player %d of %d\n", name, nb_cities, nb_tracks, me, players);
  while (code == NORMAL_MOVE) {
    if (isMyTurn())
      code = play_turn();
    else
      code = getMove(&move, &replay);
  }
  sendComment(code == WINNING_MOVE ? "won" : "lost");
  free(tracks);
  closeConnection();
  return 0;
}
