/* A Little Town champion in C: it builds the dearest building it can afford, on the
 * first free position that legal() offers; otherwise it collects where the most mines
 * neighbour a free position (no building activated). */
#include "prologin.h"

#include <stdio.h>
#include <string.h>

static etat_t state;

void init_game(void)
{
    printf("builder in seat %d\n", moi());
}

/* Mines neighbouring (x, y). */
static int mines_near(int x, int y)
{
    int xs[8], ys[8], n = voisins(x, y, xs, ys), mines = 0;
    for (int i = 0; i < n; i++) {
        int c = state.content[ys[i] * state.width + xs[i]];
        mines += c >= CORN && c <= STONE;
    }
    return mines;
}

void jouer(void)
{
    static const char *kinds[] = {"quarry", "pontoon", "sawmill", "farm"};
    char **actions;
    int n = legal(&actions);
    etat(&state);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < n; i++) {
            const char *kind = strrchr(actions[i], ' ');
            if (strncmp(actions[i], "build", 5) == 0 && kind && strcmp(kind + 1, kinds[k]) == 0) {
                agir(actions[i]);
                return;
            }
        }
    int best_x = -1, best_y = -1, best = -1;
    for (int y = 0; y < state.height; y++)
        for (int x = 0; x < state.width; x++) {
            int i = y * state.width + x;
            if (state.content[i] != FREE || state.worker[i] != -1)
                continue;
            int mines = mines_near(x, y);
            if (mines > best) {
                best = mines;
                best_x = x;
                best_y = y;
            }
        }
    collect(best_x, best_y);
}

void end_game(void)
{
    printf("builder: gold %d\n", state.player[state.me].gold);
}
