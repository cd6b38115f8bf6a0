/* The Little Town C kit's runtime: main(), the protocol loop, the requests.
 *
 * The referee, or a game server (REFEREE_SERVER), is not trusted: every size, seat and
 * kind of its answers is checked against what etat_t holds before it is written, and an
 * answer out of range stops the kit with an error naming it. */
#define _GNU_SOURCE
#include "prologin.h"
#include "referee_connect.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static FILE *proto_in;
static FILE *proto_out;
static const char *callback = "(none)";
static int acted;
static char *answer;
static size_t answer_size;

static void fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "little-town kit (C): error in %s: ", callback);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    _exit(2);
}

static void send_line(const char *line)
{
    if (fprintf(proto_out, "%s\n", line) < 0 || fflush(proto_out) != 0)
        fail("writing to the referee");
}

/* Sends `request` and returns its answer (the kit's buffer, until the next request). */
static char *ask(const char *request)
{
    send_line(request);
    ssize_t n = getline(&answer, &answer_size, proto_in);
    if (n < 0)
        fail("the referee closed the connection while we waited for an answer");
    while (n > 0 && (answer[n - 1] == '\n' || answer[n - 1] == '\r'))
        answer[--n] = '\0';
    return answer;
}

/* An answer's integers, read one at a time: `read` counts them for the errors. */
typedef struct {
    const char *request, *p;
    int read;
} numbers_t;

/* The next integer of the answer; stops the kit if there is none or it fits no int. */
static int next_number(numbers_t *n)
{
    char *end;
    errno = 0;
    long v = strtol(n->p, &end, 10);
    if (end == n->p || errno || v < INT_MIN || v > INT_MAX || (*end && *end != ' ')) {
        while (*n->p == ' ')
            n->p++;
        if (!*n->p)
            fail("`%s` ends early (%d numbers)", n->request, n->read);
        fail("`%s` holds a word that is not a number after %d numbers", n->request, n->read);
    }
    n->p = end;
    n->read++;
    return (int)v;
}

/* The next integer, which must lie in [lo, hi]: `what` names it in the error. */
static int next_in(numbers_t *n, const char *what, int lo, int hi)
{
    int v = next_number(n);
    if (v < lo || v > hi)
        fail("`%s` gives %s %d (%d to %d)", n->request, what, v, lo, hi);
    return v;
}

/* A seat of the answer: -1 for none when `none` is set, else 0 to players - 1. */
static int next_seat(numbers_t *n, const char *what, int none, int players)
{
    int v = next_number(n);
    if (v < (none ? -1 : 0) || v >= players)
        fail("`%s` gives %s seat %d of %d", n->request, what, v, players);
    return v;
}

int moi(void)
{
    numbers_t n = {"moi", ask("moi"), 0};
    return next_in(&n, "our seat", 0, MAX_PLAYERS - 1);
}

void etat(etat_t *out)
{
    numbers_t n = {"etat", ask("etat"), 0};
    int width = next_number(&n), height = next_number(&n);
    if (width < 1 || width > MAX_SIDE || height < 1 || height > MAX_SIDE)
        fail("`etat` gives a board of %d by %d: this kit holds 1 to %d a side", width, height,
             MAX_SIDE);
    out->width = width;
    out->height = height;
    out->board = next_in(&n, "the board's kind", 0, 4);
    out->round = next_number(&n);
    out->rounds = next_number(&n);
    out->players = next_in(&n, "the number of players as", 1, MAX_PLAYERS);
    out->me = next_seat(&n, "us", 0, out->players);
    out->to_play = next_seat(&n, "the turn to", 1, out->players);
    out->first = next_seat(&n, "the first player as", 1, out->players);
    out->workers = next_number(&n);
    out->max_buildings = next_number(&n);
    out->upkeep = next_number(&n);
    out->food_price = next_number(&n);
    for (int i = 0; i < width * height; i++) {
        out->content[i] = next_in(&n, "a position's content", INVALID, MARKET);
        out->owner[i] = next_seat(&n, "a building's owner as", 1, out->players);
        out->worker[i] = next_seat(&n, "a worker's owner as", 1, out->players);
    }
    for (int s = 0; s < out->players; s++) {
        player_t *pl = &out->player[s];
        int *f[] = {&pl->corn, &pl->fish, &pl->wood, &pl->stone, &pl->gold,
                    &pl->free_workers, &pl->buildings};
        for (int i = 0; i < 7; i++)
            *f[i] = next_number(&n);
        pl->status = next_in(&n, "a player's status", IN, EXCLUDED);
    }
    for (int k = 0; k < 8; k++)
        out->supply[k] = 0;
    for (int k = 0; k < 4; k++)
        out->supply[k] = next_number(&n);
    /* Four more kinds in a match with the powers (rule 22). */
    while (*n.p == ' ')
        n.p++;
    if (*n.p != '\0')
        for (int k = 4; k < 8; k++)
            out->supply[k] = next_number(&n);
    if (*n.p != '\0')
        fail("`etat` holds more than its %d numbers", n.read);
}

int legal(char ***actions)
{
    static char **list;
    static size_t capacity;
    static char *line;
    /* A copy: the next request reuses the answer's buffer. */
    free(line);
    line = strdup(ask("legal"));
    if (!line)
        fail("out of memory");
    size_t n = 0;
    for (char *p = line; *p;) {
        if (n == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            list = realloc(list, capacity * sizeof *list);
            if (!list)
                fail("out of memory");
        }
        list[n++] = p;
        char *semicolon = strchr(p, ';');
        if (!semicolon)
            break;
        *semicolon = '\0';
        p = semicolon + 1;
    }
    *actions = list;
    return (int)n;
}

int voisins(int x, int y, int xs[8], int ys[8])
{
    char request[64];
    snprintf(request, sizeof request, "voisins %d %d", x, y);
    char *p = ask(request);
    int n = 0, used;
    while (n < 8 && sscanf(p, "%d,%d%n", &xs[n], &ys[n], &used) == 2) {
        if (xs[n] < 0 || xs[n] >= MAX_SIDE || ys[n] < 0 || ys[n] >= MAX_SIDE)
            fail("`voisins` gives the position %d,%d (0 to %d each)", xs[n], ys[n], MAX_SIDE - 1);
        p += used;
        n++;
    }
    return n;
}

int agir(const char *text)
{
    if (strcmp(callback, "jouer") != 0 || acted) {
        fprintf(stderr, "little-town kit (C): `%s` not sent: one action a turn, in jouer\n", text);
        return -1;
    }
    acted = 1;
    send_line(text);
    return 0;
}

int collect(int x, int y)
{
    char text[64];
    snprintf(text, sizeof text, "collect %d,%d", x, y);
    return agir(text);
}

int build(int x, int y, const char *kind)
{
    char text[64];
    snprintf(text, sizeof text, "build %d,%d %s", x, y, kind);
    return agir(text);
}

int main(void)
{
    /* A game server's socket when REFEREE_SERVER names one, else stdin and stdout. */
    int in = referee_connect("little-town"), out;
    if (in >= 0)
        out = dup(in);
    else
        in = dup(0), out = dup(1);
    if (in < 0 || out < 0 || !(proto_in = fdopen(in, "r")) || !(proto_out = fdopen(out, "w")))
        fail("taking the protocol's descriptors");
    /* stdout goes to the log: a champion's printf() never reaches the referee. */
    if (dup2(2, 1) < 0)
        fail("moving stdout to stderr");
    char *line = NULL;
    size_t size = 0;
    int ended = 0;
    ssize_t n;
    while ((n = getline(&line, &size, proto_in)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        acted = 0;
        if (strcmp(line, "init_game") == 0) {
            callback = "init_game";
            init_game();
        } else if (strcmp(line, "jouer") == 0) {
            callback = "jouer";
            jouer();
        } else if (strcmp(line, "end_game") == 0) {
            callback = "end_game";
            ended = 1;
            end_game();
        } else {
            fail("unknown callback from the referee");
        }
        fflush(stdout);
        if (!acted)
            send_line("fin");
    }
    if (!ended) {
        fprintf(stderr, "little-town kit (C): the referee closed the connection before end_game\n");
        return 1;
    }
    return 0;
}
