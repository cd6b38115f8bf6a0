/* The Little Town C kit's runtime: main(), the protocol loop, the requests. */
#define _GNU_SOURCE
#include "prologin.h"
#include "referee_connect.h"

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

static void fail(const char *message)
{
    fflush(stdout);
    fprintf(stderr, "little-town kit (C): error in %s: %s\n", callback, message);
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

int moi(void)
{
    return atoi(ask("moi"));
}

void etat(etat_t *out)
{
    char *p = ask("etat");
    char *end;
    int *head[] = {&out->width, &out->height, &out->board, &out->round, &out->rounds,
                   &out->players, &out->me, &out->to_play, &out->first, &out->workers,
                   &out->max_buildings, &out->upkeep, &out->food_price};
#define NEXT(dst)                                   \
    do {                                            \
        long v = strtol(p, &end, 10);               \
        if (end == p)                               \
            fail("unparsable answer to `etat`");    \
        p = end;                                    \
        (dst) = (int)v;                             \
    } while (0)
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        NEXT(*head[i]);
    if (out->width > MAX_SIDE || out->height > MAX_SIDE || out->players > MAX_PLAYERS)
        fail("`etat` describes a larger match than this kit holds");
    for (int i = 0; i < out->width * out->height; i++) {
        NEXT(out->content[i]);
        NEXT(out->owner[i]);
        NEXT(out->worker[i]);
    }
    for (int s = 0; s < out->players; s++) {
        player_t *pl = &out->player[s];
        int *f[] = {&pl->corn, &pl->fish, &pl->wood, &pl->stone, &pl->gold,
                    &pl->free_workers, &pl->buildings, &pl->status};
        for (int i = 0; i < 8; i++)
            NEXT(*f[i]);
    }
    for (int k = 0; k < 8; k++)
        out->supply[k] = 0;
    for (int k = 0; k < 4; k++)
        NEXT(out->supply[k]);
    /* Four more kinds in a match with the powers (rule 22). */
    while (*p == ' ')
        p++;
    if (*p != '\0')
        for (int k = 4; k < 8; k++)
            NEXT(out->supply[k]);
#undef NEXT
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
