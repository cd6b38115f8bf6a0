/* prologin_kit.c -- the C kit's runtime: main(), the protocol loop of protocol.md, and
 * what the API functions of prologin.h stand on.
 *
 * Owns: the private protocol descriptors (the real stdin/stdout; fd 0 is then /dev/null
 * and fd 1 is stderr, so the contestant's output cannot corrupt the protocol), the state
 * cache filled by one `etat` request (dirty at each callback start and after each
 * successful action), the board's rules answered from it (prologin_rules.c), the
 * primitives the API functions use (`figure`, `send_line`, `read_answer`, `act_answer`),
 * and the default (empty) callbacks, which are weak symbols that the contestant's
 * definitions override. The API functions themselves, with their
 * local argument checks, are generated into prologin_api.c (included below).
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

#define CELLS (TAILLE_CARTE * TAILLE_CARTE)
#define NB_FIGURES 16

/* Default callbacks: a callback the contestant does not write does nothing. */
__attribute__((weak)) void init_game(void) {}
__attribute__((weak)) void jouer(void) {}
__attribute__((weak)) void enchere(void) {}
__attribute__((weak)) void placement(void) {}
__attribute__((weak)) void end_game(void) {}

static FILE *proto_in;  /* the referee's lines */
static FILE *proto_out; /* our requests */
static char *line;      /* last line read (grows to hold `etat`) */
static size_t line_cap;
static const char *current_callback = "(none)";

/* The cached state, see protocol.md section 4. */
static int dirty = 1;
static int figures[NB_FIGURES];
/* The four strings as received: a cell's answer is its character minus the string's offset. */
static char kinds[CELLS], owners[CELLS], monuments[CELLS], values[CELLS];
/* Counts the fills of the cache: what the rules computed for one board stay valid while
 * it is unchanged (prologin_rules.c). */
static unsigned long board_generation;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "prologin kit (C): error in %s: ", current_callback);
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

static int parse_int(const char *s, const char *what) {
  char *end;
  long v;
  errno = 0;
  v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno != 0 || v < -2147483647L - 1 || v > 2147483647L)
    die("unparsable answer `%.60s` to `%s`: expected an integer", s, what);
  return (int)v;
}

/* Reads the answer to a request already sent. */
static int read_answer(const char *request) {
  if (!read_line()) die("the referee closed the connection while we waited for `%s`", request);
  return parse_int(line, request);
}

/* Reads the answer to an action already sent: a success makes the cache stale. */
static int act_answer(const char *request) {
  int r = read_answer(request);
  if (r == SUCCES) dirty = 1;
  return r;
}

/* Sends `etat` and fills the cache. */
static void refresh(void) {
  char *p, *end;
  int i;
  char *strings[4];
  send_line("etat");
  if (!read_line()) die("the referee closed the connection while we waited for `etat`");
  p = line;
  for (i = 0; i < NB_FIGURES; i++) {
    long v;
    errno = 0;
    v = strtol(p, &end, 10);
    if (end == p || *end != ' ' || errno != 0)
      die("unparsable answer to `etat`: field %d is not an integer", i + 1);
    figures[i] = (int)v;
    p = end + 1;
  }
  for (i = 0; i < 4; i++) {
    strings[i] = p;
    if (strlen(p) < CELLS || (p[CELLS] != (i == 3 ? '\0' : ' ')))
      die("unparsable answer to `etat`: field %d is not %d characters", NB_FIGURES + i + 1,
          CELLS);
    p += CELLS + (i < 3);
  }
  memcpy(kinds, strings[0], CELLS);
  memcpy(owners, strings[1], CELLS);
  memcpy(monuments, strings[2], CELLS);
  memcpy(values, strings[3], CELLS);
  board_generation++;
  dirty = 0;
}

static int figure(int f) {
  if (dirty) refresh();
  return figures[f];
}

#define ON_MAP(x, y) ((x) >= 0 && (x) < TAILLE_CARTE && (y) >= 0 && (y) < TAILLE_CARTE)
#define CELL(x, y) ((y) * TAILLE_CARTE + (x))

/* The board's rules, answered from the cache. */
#include "prologin_rules.c"

#ifdef PROLOGIN_CHECK_RULES
/* Stops the champion when a rule answered locally differs from the referee's answer. */
static int checked_rule(const char *request, int local) {
  int asked = read_answer(request);
  if (asked != local)
    die("`%s`: the kit's rules answer %d, the referee %d", request, local, asked);
  return local;
}
#endif

/* The API functions, generated from the description of the API (champions/api). */
#include "prologin_api.c"

/* Moves the protocol to private descriptors: fd 0 becomes /dev/null, fd 1 stderr. Runs
 * as a constructor, before C++ static initialisers, so that even their output is safe. */
__attribute__((constructor(101))) static void take_protocol_fds(void) {
  if (proto_in) return;
  /* A game server's socket when REFEREE_SERVER names one, else stdin and stdout. */
  int in = referee_connect("loi"), out, null;
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
  fflush(stdout);
  if (dup2(2, 1) < 0) die("dup2: %s", strerror(errno));
  setvbuf(stdout, NULL, _IOLBF, 0);
}

static const struct {
  const char *name;
  void (*run)(void);
} CALLBACKS[] = {
    {"init_game", init_game}, {"jouer", jouer},       {"enchere", enchere},
    {"placement", placement}, {"end_game", end_game},
};

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
    CALLBACKS[i].run();
    fflush(stdout);
    send_line("fin");
  }
  if (!ended) {
    fprintf(stderr, "prologin kit (C): the referee closed the connection before end_game\n");
    return 1;
  }
  return 0;
}
