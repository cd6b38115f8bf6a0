/* prologin_kit.c -- the Amazons C kit's runtime: main(), the protocol loop of
 * protocol-amazons.md, and the API of prologin.h.
 *
 * Owns: the private protocol descriptors (the real stdin/stdout; fd 0 is then /dev/null
 * and fd 1 is stderr, so the contestant's output cannot corrupt the protocol), the board
 * cache filled by one `etat` request (stale at each callback start and after a successful
 * `deplacer`), what the kit knows without asking (mon_tour, numero_coup from the arrows on
 * the board, couleur asked once), and the default (empty) callbacks, weak symbols that
 * the contestant's definitions override.
 */
#define _POSIX_C_SOURCE 200809L
#include "prologin.h"
#include "referee_connect.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CELLS (TAILLE * TAILLE)

/* Default callbacks: a callback the contestant does not write does nothing. */
__attribute__((weak)) void init_game(void) {}
__attribute__((weak)) void jouer(void) {}
__attribute__((weak)) void end_game(void) {}

static FILE *proto_in;  /* the referee's lines */
static FILE *proto_out; /* our requests */
static char *line;      /* last line read */
static size_t line_cap;
static const char *current_callback = "(none)";

/* The cache: the `etat` digits, whether they are stale, the colour (-1: not asked yet),
 * and whether this `jouer` has moved. */
static int dirty = 1;
static char board[CELLS];
static int colour = -1;
static int moved = 0;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "amazons kit (C): error in %s: ", current_callback);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(2);
}

/* Reads one line into `line`, without its '\n'. Returns 0 at end of file. */
static int read_line(void) {
  ssize_t n = getline(&line, &line_cap, proto_in);
  if (n < 0) {
    if (ferror(proto_in)) die("reading from the referee: %s", strerror(errno));
    return 0;
  }
  if (n > 0 && line[n - 1] == '\n') line[--n] = '\0';
  if (n > 0 && line[n - 1] == '\r') line[--n] = '\0';
  return 1;
}

static void send_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void send_line(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(proto_out, fmt, ap);
  va_end(ap);
  fputc('\n', proto_out);
  if (fflush(proto_out) != 0) die("writing to the referee: %s", strerror(errno));
}

/* Reads the integer answer to a request already sent. */
static int read_answer(const char *request) {
  char *end;
  long v;
  if (!read_line()) die("the referee closed the connection while we waited for `%s`", request);
  errno = 0;
  v = strtol(line, &end, 10);
  if (end == line || *end != '\0' || errno != 0 || v < -2147483647L - 1 || v > 2147483647L)
    die("unparsable answer `%.60s` to `%s`: expected an integer", line, request);
  return (int)v;
}

/* Sends `etat` and fills the cache. */
static void refresh(void) {
  int i;
  send_line("etat");
  if (!read_line()) die("the referee closed the connection while we waited for `etat`");
  if (strlen(line) != CELLS) die("unparsable answer to `etat`: expected %d digits", CELLS);
  for (i = 0; i < CELLS; i++) {
    if (line[i] < '0' || line[i] > '3') die("unparsable answer to `etat`: `%c`", line[i]);
    board[i] = (char)(line[i] - '0');
  }
  dirty = 0;
}

int case_(int x, int y) {
  if (x < 0 || x >= TAILLE || y < 0 || y >= TAILLE) return HORS_PLATEAU;
  if (dirty) refresh();
  return board[y * TAILLE + x];
}

int couleur(void) {
  if (colour < 0) {
    send_line("couleur");
    colour = read_answer("couleur");
  }
  return colour;
}

/* Every move shoots one arrow: the moves played are the arrows on the board. */
int numero_coup(void) {
  int i, n = 0;
  if (dirty) refresh();
  for (i = 0; i < CELLS; i++) n += board[i] == FLECHE;
  return n;
}

int mon_tour(void) { return strcmp(current_callback, "jouer") == 0 && !moved; }

int deplacer(int x1, int y1, int x2, int y2, int x3, int y3) {
  int r;
  send_line("deplacer %d %d %d %d %d %d", x1, y1, x2, y2, x3, y3);
  r = read_answer("deplacer");
  if (r == SUCCES) dirty = 1, moved = 1;
  return r;
}

/* Moves the protocol to private descriptors: fd 0 becomes /dev/null, fd 1 stderr. Runs
 * as a constructor, so that even output of other constructors is safe. */
__attribute__((constructor(101))) static void take_protocol_fds(void) {
  int in, out, null;
  if (proto_in) return;
  /* A game server's socket when REFEREE_SERVER names one, else stdin and stdout. */
  in = referee_connect("amazons");
  if (in >= 0) out = dup(in);
  else in = dup(0), out = dup(1);
  if (in < 0 || out < 0) die("dup: %s", strerror(errno));
  fcntl(in, F_SETFD, FD_CLOEXEC);
  fcntl(out, F_SETFD, FD_CLOEXEC);
  fflush(stdout);
  proto_in = fdopen(in, "r");
  proto_out = fdopen(out, "w");
  if (!proto_in || !proto_out) die("fdopen: %s", strerror(errno));
  null = open("/dev/null", O_RDONLY);
  if (null >= 0) {
    dup2(null, 0);
    if (null != 0) close(null);
  }
  if (dup2(2, 1) < 0) die("dup2: %s", strerror(errno));
  setvbuf(stdout, NULL, _IOLBF, 0);
}

static const struct {
  const char *name;
  void (*run)(void);
} CALLBACKS[] = {{"init_game", init_game}, {"jouer", jouer}, {"end_game", end_game}};

int main(void) {
  int ended = 0;
  take_protocol_fds(); /* no-op when the constructor ran */
  while (read_line()) {
    size_t i, n = sizeof CALLBACKS / sizeof CALLBACKS[0];
    for (i = 0; i < n && strcmp(line, CALLBACKS[i].name) != 0; i++) {}
    if (i == n) die("unknown callback `%.60s` from the referee", line);
    current_callback = CALLBACKS[i].name;
    ended = i == n - 1;
    dirty = 1;
    moved = 0;
    CALLBACKS[i].run();
    fflush(stdout);
    send_line("fin");
  }
  if (!ended) {
    fprintf(stderr, "amazons kit (C): the referee closed the connection before end_game\n");
    return 1;
  }
  return 0;
}
