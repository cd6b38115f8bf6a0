/* ticket_kit.c -- the Ticket to Ride C kit's client: the API of TicketToRide.h over
 * protocol-ticket-to-ride.md.
 *
 * Owns: the private protocol descriptors (taken before main(): the real stdin/stdout; fd 0
 * is then /dev/null and fd 1 is stderr, so the contestant's output cannot corrupt the
 * protocol), where the match is (the callback we are in, whether our turn is over and its
 * `fin` still to send, our seat, the moves of the match already fetched, the others' moves
 * not yet given by getMove, the code once the match is over), and the board as the first
 * `game` and `routes` answers gave it.
 *
 * The referee, or a game server (REFEREE_SERVER), is not trusted: every count and index
 * of its answers is checked before it is used, and the board's counts are read once, so
 * a buffer a contestant sized from waitForT2RGame() is never written past; an answer that
 * disagrees stops the kit with an error naming it.
 */
#define _POSIX_C_SOURCE 200809L
#include "TicketToRide.h"
#include "referee_connect.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static FILE *proto_in;
static FILE *proto_out;
static char *line;
static size_t line_cap;
static char callback[32];  /* the callback we are in ("" before the first) */
static int turn_over;      /* our `jouer` is over; its `fin` is sent by the next call */
static int me = -1;        /* our seat */
static long seen;          /* moves of the match already fetched */
static int final_code = 0; /* WINNING_MOVE or LOSING_MOVE once over */
static int over;

/* The board's bounds: far above every board of the game (36 cities, 100 routes), so that
 * a hostile count cannot make the kit allocate without end. */
#define MAX_SEATS 5
#define MAX_CITIES 1000
#define MAX_ROUTES 10000
#define MAX_LENGTH 100

/* A route as `routes` gives it; the owner changes, the rest never does. */
typedef struct {
  int from, to, length, twin, owner;
  t_color colour;
} route_t;

static int seats = -1;    /* from the first `game` answer */
static int cities = -1;
static int nb_routes = -1;
static route_t *board;    /* the first `routes` answer: nb_routes routes */
static route_t *fresh;    /* the latest `routes` answer, checked against `board` */
static int nb_tracks = -1; /* tracks of `board`: a double route counts once */

#define QUEUE 4096
static t_move queue[QUEUE];
static int q_head, q_len;

static const char *colors[] = {"none", "purple", "white", "blue",  "yellow",
                               "orange", "black", "red",  "green", "locomotive"};

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "ticket_to_ride kit (C): ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(2);
}

__attribute__((constructor)) static void take_protocol(void) {
  /* A game server's socket when REFEREE_SERVER names one, else stdin and stdout. */
  int in = referee_connect("ticket-to-ride"), out, null = open("/dev/null", O_RDONLY);
  if (in >= 0) out = dup(in);
  else in = dup(0), out = dup(1);
  if (in < 0 || out < 0 || null < 0) die("cannot take the protocol's descriptors");
  proto_in = fdopen(in, "r");
  proto_out = fdopen(out, "w");
  dup2(null, 0);
  close(null);
  dup2(2, 1);
  setvbuf(stdout, NULL, _IOLBF, 0);
}

static int read_line(void) {
  ssize_t n = getline(&line, &line_cap, proto_in);
  if (n < 0) return 0;
  while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
  return 1;
}

static void send_line(const char *text) {
  fprintf(proto_out, "%s\n", text);
  if (fflush(proto_out) != 0) die("writing to the referee: %s", strerror(errno));
}

const char *ask(const char *request) {
  send_line(request);
  if (!read_line()) die("the referee closed the protocol while we waited for `%s`", request);
  return line;
}

/* Ends the current callback and waits for the next one; exits at the end of input. */
static void next_callback(void) {
  if (callback[0]) send_line("fin");
  callback[0] = '\0';
  turn_over = 0;
  if (!read_line()) exit(0);
  snprintf(callback, sizeof callback, "%s", line);
}

static int color_of(const char *word) {
  int c;
  char shown[REFEREE_PRINTABLE];
  if (strcmp(word, "grey") == 0) return MULTICOLOR;
  for (c = 0; c < 10; c++)
    if (strcmp(word, colors[c]) == 0) return c;
  die("unknown colour `%s`", referee_printable(word, shown));
}

/* The next integer of `*text` into `*value`, `*text` moved past it; 0 when the next word
 * is not an integer that fits an int. */
static int next_int(const char **text, int *value) {
  char *end;
  long v;
  errno = 0;
  v = strtol(*text, &end, 10);
  if (end == *text || errno || v < INT_MIN || v > INT_MAX || (*end && *end != ' ')) return 0;
  *text = end;
  *value = (int)v;
  return 1;
}

/* The next integer of the answer to `request` (`text`), which must lie in [lo, hi];
 * `what` names it in the error. */
static int bounded(const char **text, const char *request, const char *what, int lo, int hi) {
  int v;
  if (!next_int(text, &v)) die("the answer to `%s` lacks %s (a number)", request, what);
  if (v < lo || v > hi) die("the answer to `%s` gives %s %d (%d to %d)", request, what, v, lo, hi);
  return v;
}

/* The match's counts and our seat, from `game`: asked once, the first answer is kept. */
static void read_game(void) {
  const char *r = ask("game");
  int tickets, wagons;
  seats = bounded(&r, "game", "seats", 1, MAX_SEATS);
  if (!next_int(&r, &me) || me < 0 || me >= seats)
    die("the answer to `game` gives us seat %d of %d", me, seats);
  cities = bounded(&r, "game", "cities", 1, MAX_CITIES);
  if (!next_int(&r, &nb_routes) || nb_routes < 0 || nb_routes > MAX_ROUTES)
    die("the answer to `game` gives %d routes (0 to %d)", nb_routes, MAX_ROUTES);
  tickets = bounded(&r, "game", "tickets", 0, INT_MAX);
  wagons = bounded(&r, "game", "wagons", 0, INT_MAX);
  (void)tickets, (void)wagons;
}

static void started(void) {
  if (!callback[0] && me < 0) next_callback();
  if (me < 0) read_game();
}

/* Asks `routes` and checks it into `into` (nb_routes routes): cities, colours and owners
 * in range, every twin another route whose twin is this one. */
static void read_routes(route_t *into) {
  const char *r = ask("routes");
  int i, count = 0;
  for (const char *p = r; *p;) {
    while (*p == ' ') p++;
    if (*p) count++;
    while (*p && *p != ' ') p++;
  }
  if (count % 6 != 0 || count / 6 != nb_routes)
    die("the answer to `routes` lists %d routes, not the %d of `game`", count / 6, nb_routes);
  for (i = 0; i < nb_routes; i++) {
    route_t *t = &into[i];
    char colour[16];
    int used;
    t->from = bounded(&r, "routes", "a city", 0, cities - 1);
    t->to = bounded(&r, "routes", "a city", 0, cities - 1);
    t->length = bounded(&r, "routes", "a length", 1, MAX_LENGTH);
    if (sscanf(r, " %15s%n", colour, &used) != 1) die("the answer to `routes` lacks a colour");
    r += used;
    t->colour = color_of(colour);
    if (t->colour == NONE) die("the answer to `routes` gives route %d no colour", i);
    t->twin = bounded(&r, "routes", "a twin", -1, INT_MAX);
    t->owner = bounded(&r, "routes", "an owner", -1, seats - 1);
  }
  for (i = 0; i < nb_routes; i++) {
    int twin = into[i].twin;
    if (twin == i) die("the answer to `routes` makes route %d its own twin", i);
    if (twin >= nb_routes || (twin >= 0 && into[twin].twin != i))
      die("the answer to `routes`: route %d names route %d as its twin, which does not name "
          "it back (%d routes)", i, twin, nb_routes);
  }
}

/* A route is a track unless it is the second of a double route: the one rule of the
 * tracks' count (waitForT2RGame) and of the tracks given (getMap). */
static int is_track(const route_t *routes, int i) {
  return routes[i].twin < 0 || routes[i].twin > i;
}

/* The board: read once, from the first `game` and `routes` answers. */
static void read_board(void) {
  int i;
  started();
  if (board) return;
  board = malloc(((size_t)nb_routes + 1) * sizeof *board);
  fresh = malloc(((size_t)nb_routes + 1) * sizeof *fresh);
  if (!board || !fresh) die("out of memory");
  read_routes(board);
  nb_tracks = 0;
  for (i = 0; i < nb_routes; i++) nb_tracks += is_track(board, i);
}

/* The routes now (their owners change): asked again, and stopped on any difference from
 * the board but the owners. */
static const route_t *routes_now(void) {
  int i;
  read_board();
  read_routes(fresh);
  for (i = 0; i < nb_routes; i++) {
    const route_t *a = &board[i], *b = &fresh[i];
    if (a->from != b->from || a->to != b->to || a->length != b->length ||
        a->colour != b->colour || a->twin != b->twin)
      die("the answer to `routes` disagrees with its first about route %d", i);
  }
  return fresh;
}

static void to_end(void) {
  while (strcmp(callback, "end_game") != 0) next_callback();
  {
    const char *r = ask("result");
    int i, place = 0, score;
    for (i = 0; i <= me; i++) {
      int used;
      if (sscanf(r, "%d %d%n", &place, &score, &used) != 2) die("unparsable `result`");
      r += used;
    }
    final_code = place == 1 ? WINNING_MOVE : LOSING_MOVE;
  }
  over = 1;
}

static void fetch_moves(void) {
  char request[48], *copy, *item, *save = NULL;
  snprintf(request, sizeof request, "moves %ld", seen);
  copy = strdup(ask(request));
  if (!copy) die("out of memory");
  item = strtok_r(copy, ";", &save);
  seen = strtol(item ? item : "0", NULL, 10);
  while ((item = strtok_r(NULL, ";", &save)) != NULL) {
    t_move m;
    char kind[16] = "", w1[16] = "";
    int seat, a = 0, b = 0, n = 0;
    memset(&m, 0, sizeof m);
    char shown[REFEREE_PRINTABLE];
    if (sscanf(item, "%d %15s %15s %d %d", &seat, kind, w1, &a, &b) < 2)
      die("bad move `%s`", referee_printable(item, shown));
    if (seat < 0 || seat >= seats)
      die("the answer to `moves` names seat %d of %d", seat, seats);
    if (seat == me || strcmp(kind, "leave") == 0) continue;
    m.player = seat;
    if (strcmp(kind, "blind") == 0) {
      m.type = DRAW_BLIND_CARD;
    } else if (strcmp(kind, "take") == 0) {
      m.type = DRAW_CARD;
      m.drawCard.card = color_of(w1);
    } else if (strcmp(kind, "tickets") == 0) {
      m.type = DRAW_OBJECTIVES;
    } else if (strcmp(kind, "keep") == 0) {
      m.type = CHOOSE_OBJECTIVES;
      m.chooseObjectives.nbObjectives = atoi(w1);
    } else if (strcmp(kind, "claim") == 0) {
      char colour[16];
      if (sscanf(item, "%d %15s %d %d %15s %d", &seat, kind, &a, &b, colour, &n) != 6)
        die("bad move `%s`", referee_printable(item, shown));
      if (a < 0 || a >= cities || b < 0 || b >= cities || n < 0 || n > MAX_LENGTH)
        die("the answer to `moves` claims a route of cities %d and %d (0 to %d) with %d "
            "locomotives", a, b, cities - 1, n);
      m.type = CLAIM_ROUTE;
      m.claimRoute.city1 = a;
      m.claimRoute.city2 = b;
      m.claimRoute.color = color_of(colour);
      m.claimRoute.nbLocomotives = n;
    } else {
      die("unknown move `%s`", referee_printable(item, shown));
    }
    if (q_len == QUEUE) die("too many moves at once");
    queue[(q_head + q_len++) % QUEUE] = m;
  }
  free(copy);
}

static void read_row(t_color face_up[5]) {
  char words[5][16];
  int i;
  if (sscanf(ask("row"), "%15s %15s %15s %15s %15s", words[0], words[1], words[2], words[3],
             words[4]) != 5)
    die("unparsable answer to `row`");
  for (i = 0; i < 5; i++) face_up[i] = color_of(words[i]);
}

void getFaceUp(t_color faceUp[5]) {
  started();
  read_row(faceUp);
}

/* Gets to our `jouer`; 0 if the match ended first. */
static int my_turn(void) {
  started();
  while (strcmp(callback, "jouer") != 0 || turn_over) {
    if (over || strcmp(callback, "end_game") == 0) {
      if (!over) to_end();
      return 0;
    }
    next_callback();
  }
  return 1;
}

/* Plays `move` in our turn: its answer copied into `answer` (if given), and our code. */
static t_return_code play(const char *move, char *answer, size_t size) {
  int turn, ended;
  char phase[16];
  if (!my_turn()) return final_code;
  ask(move);
  if (answer) snprintf(answer, size, "%s", line);
  if (sscanf(ask("status"), "%d %15s %*d %d", &turn, phase, &ended) != 3) die("bad `status`");
  if (ended) {
    to_end();
    return final_code;
  }
  turn_over = turn != me;
  return NORMAL_MOVE;
}

void connectToServer(char *serverName, unsigned int port, char *name) {
  (void)serverName;
  (void)port;
  (void)name;
}

void closeConnection(void) {
  for (;;) next_callback();
}

int getNbRoutes(void) {
  started();
  return nb_routes;
}

int getNbPlayers(void) {
  started();
  return seats;
}

void getRoute(int i, int *city1, int *city2, int *length, t_color *color, int *twin,
              int *owner) {
  const route_t *t;
  started();
  if (i < 0 || i >= nb_routes) die("getRoute(%d): no such route (0 to %d)", i, nb_routes - 1);
  t = &routes_now()[i];
  *city1 = t->from;
  *city2 = t->to;
  *length = t->length;
  *color = t->colour;
  *twin = t->twin;
  *owner = t->owner;
}

void waitForT2RGame(char *gameType, char *gameName, int *nbCities, int *nbTracks) {
  (void)gameType;
  read_board();
  if (gameName) snprintf(gameName, 50, "ticket-to-ride-seat-%d", me);
  *nbCities = cities;
  *nbTracks = nb_tracks;
}

int getMap(int *tracks, t_color faceUp[5], t_color cards[4]) {
  int i, n = 0, hand[10], c, k = 0;
  read_board();
  for (i = 0; i < nb_routes; i++) {
    const route_t *t = &board[i];
    if (!is_track(board, i)) continue;
    tracks[n++] = t->from;
    tracks[n++] = t->to;
    tracks[n++] = t->length;
    tracks[n++] = t->colour;
    tracks[n++] = t->twin >= 0 ? board[t->twin].colour : NONE;
  }
  read_row(faceUp);
  getHand(hand);
  for (c = PURPLE; c <= MULTICOLOR && k < 4; c++)
    for (i = 0; i < hand[c] && k < 4; i++) cards[k++] = c;
  while (k < 4) cards[k++] = NONE;
  return me;
}

void getHand(int hand[10]) {
  started();
  hand[0] = 0;
  if (sscanf(ask("hand"), "%d %d %d %d %d %d %d %d %d", &hand[1], &hand[2], &hand[3], &hand[4],
             &hand[5], &hand[6], &hand[7], &hand[8], &hand[9]) != 9)
    die("unparsable answer to `hand`");
}

int getObjectives(t_objective *objectives, int max) {
  const char *r;
  int n, i, used;
  started();
  r = ask("objectives");
  if (sscanf(r, "%d%n", &n, &used) != 1 || n < 0)
    die("unparsable answer to `objectives`");
  r += used;
  for (i = 0; i < n && i < max; i++) {
    if (sscanf(r, "%d %d %d%n", &objectives[i].city1, &objectives[i].city2,
               &objectives[i].score, &used) != 3)
      die("unparsable answer to `objectives`");
    r += used;
  }
  return n;
}

int getWagons(void) {
  const char *r;
  int k, used, v[5];
  started();
  r = ask("seats");
  for (k = 0; k <= me; k++) {
    if (sscanf(r, "%d %d %d %d %d%n", &v[0], &v[1], &v[2], &v[3], &v[4], &used) != 5)
      die("unparsable answer to `seats`");
    r += used;
  }
  return v[2];
}

int isMyTurn(void) {
  if (q_len > 0 || over) return 0;
  started();
  if (strcmp(callback, "jouer") != 0 || turn_over) {
    next_callback();
    if (strcmp(callback, "end_game") == 0) {
      to_end();
      return 0;
    }
    fetch_moves();
  }
  return q_len == 0;
}

t_return_code getMove(t_move *move, int *replay) {
  if (q_len == 0) {
    started();
    if (!over) {
      if (strcmp(callback, "jouer") == 0 && !turn_over)
        die("getMove() on your own turn: play a move (isMyTurn() tells)");
      next_callback();
      if (strcmp(callback, "end_game") == 0)
        to_end();
      else
        fetch_moves();
    }
    if (q_len == 0) {
      memset(move, 0, sizeof *move);
      *replay = 0;
      return over ? final_code : NORMAL_MOVE;
    }
  }
  *move = queue[q_head];
  q_head = (q_head + 1) % QUEUE;
  q_len--;
  if (move->type == DRAW_CARD) read_row(move->drawCard.faceUp);
  *replay = q_len > 0 && queue[q_head].player == move->player;
  return q_len == 0 && over ? final_code : NORMAL_MOVE;
}

t_return_code claimRoute(int city1, int city2, int color, int nbLocomotives) {
  char move[80];
  if (color < PURPLE || color > MULTICOLOR) die("claimRoute: no colour %d", color);
  snprintf(move, sizeof move, "claim %d %d %s %d", city1, city2, colors[color], nbLocomotives);
  return play(move, NULL, 0);
}

t_return_code drawBlindCard(t_color *card) {
  char answer[64];
  t_return_code code = play("blind", answer, sizeof answer);
  int c;
  *card = NONE;
  for (c = PURPLE; c <= MULTICOLOR; c++)
    if (strcmp(answer, colors[c]) == 0) *card = c;
  return code;
}

t_return_code drawCard(t_color card, t_color faceUp[5]) {
  char move[32];
  t_return_code code;
  if (card < PURPLE || card > MULTICOLOR) die("drawCard: no colour %d", card);
  snprintf(move, sizeof move, "take %s", colors[card]);
  code = play(move, NULL, 0);
  if (code == NORMAL_MOVE) read_row(faceUp);
  return code;
}

t_return_code drawObjectives(t_objective objectives[3]) {
  char answer[256], shown[REFEREE_PRINTABLE];
  t_return_code code = play("tickets", answer, sizeof answer);
  if (code == NORMAL_MOVE &&
      sscanf(answer, "%d %d %d, %d %d %d, %d %d %d", &objectives[0].city1, &objectives[0].city2,
             &objectives[0].score, &objectives[1].city1, &objectives[1].city2,
             &objectives[1].score, &objectives[2].city1, &objectives[2].city2,
             &objectives[2].score) != 9)
    die("unparsable answer `%s` to `tickets`", referee_printable(answer, shown));
  return code;
}

t_return_code chooseObjectives(int objectiveCards[3]) {
  char move[32];
  snprintf(move, sizeof move, "keep %d %d %d", !!objectiveCards[0], !!objectiveCards[1],
           !!objectiveCards[2]);
  return play(move, NULL, 0);
}

void printCity(int city) {
  char request[32], shown[REFEREE_PRINTABLE];
  started();
  snprintf(request, sizeof request, "city %d", city);
  fprintf(stderr, "%s\n", referee_printable(ask(request), shown));
}

void printMap(void) {
  int i, hand[10];
  const route_t *routes = routes_now();
  for (i = 0; i < nb_routes; i++) {
    const route_t *t = &routes[i];
    fprintf(stderr, "route %d: %d-%d, %d %s, ", i, t->from, t->to, t->length,
            t->colour == MULTICOLOR ? "grey" : colors[t->colour]);
    if (t->owner < 0)
      fprintf(stderr, "free\n");
    else
      fprintf(stderr, "player %d\n", t->owner);
  }
  getHand(hand);
  fprintf(stderr, "hand:");
  for (i = PURPLE; i <= MULTICOLOR; i++) fprintf(stderr, " %d %s", hand[i], colors[i]);
  fprintf(stderr, "\n");
}

void sendComment(char *comment) { fprintf(stderr, "comment: %s\n", comment); }
