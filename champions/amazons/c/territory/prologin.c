/* territory: a C Amazons champion that claims the squares it reaches first.
 *
 * Tries every legal move (amazon move and arrow, about 2,000 at the start) and plays the
 * one whose position scores best: the empty squares its amazons reach in fewer queen
 * moves than the opponent's, minus those the opponent reaches first, weighted 4, plus the
 * queen moves of its amazons minus the opponent's. Deterministic: ties go to the first
 * move found. */
#include "prologin.h"

#include <stdio.h>
#include <string.h>

#define W (TAILLE + 2) /* a padded board: a border of arrows, no bound checks */
#define N (W * W)
#define FAR 99

static const int DIRS[8] = {1, -1, W, -W, W + 1, W - 1, -W + 1, -W - 1};

static int at(int x, int y) { return (y + 1) * W + x + 1; }

/* Queen-move distance from `who`'s amazons to every square (FAR if unreachable). */
static void distances(const char *board, int who, int *dist) {
  int queue[N], head = 0, tail = 0, i, d;
  for (i = 0; i < N; i++) {
    dist[i] = FAR;
    if (board[i] == who) dist[i] = 0, queue[tail++] = i;
  }
  while (head < tail) {
    int from = queue[head++];
    for (d = 0; d < 8; d++)
      for (i = from + DIRS[d]; board[i] == VIDE; i += DIRS[d])
        if (dist[i] == FAR) dist[i] = dist[from] + 1, queue[tail++] = i;
  }
}

static int mobility(const char *board, int who) {
  int i, d, j, n = 0;
  for (i = 0; i < N; i++)
    if (board[i] == who)
      for (d = 0; d < 8; d++)
        for (j = i + DIRS[d]; board[j] == VIDE; j += DIRS[d]) n++;
  return n;
}

static int score(const char *board) {
  int mine[N], theirs[N], i, territory = 0;
  distances(board, MOI, mine);
  distances(board, ADVERSAIRE, theirs);
  for (i = 0; i < N; i++)
    if (board[i] == VIDE) territory += (mine[i] < theirs[i]) - (theirs[i] < mine[i]);
  return 4 * territory + mobility(board, MOI) - mobility(board, ADVERSAIRE);
}

void init_game(void) {
  printf("territory (C): I play %s\n", couleur() == 0 ? "white" : "black");
}

void jouer(void) {
  char board[N];
  int x, y, from, d1, to, d2, arrow, best = -1000000, found = 0, move[3] = {0, 0, 0};
  memset(board, FLECHE, sizeof board);
  for (y = 0; y < TAILLE; y++)
    for (x = 0; x < TAILLE; x++) board[at(x, y)] = (char)case_(x, y);
  for (from = 0; from < N; from++) {
    if (board[from] != MOI) continue;
    board[from] = VIDE;
    for (d1 = 0; d1 < 8; d1++)
      for (to = from + DIRS[d1]; board[to] == VIDE; to += DIRS[d1]) {
        board[to] = MOI;
        for (d2 = 0; d2 < 8; d2++)
          for (arrow = to + DIRS[d2]; board[arrow] == VIDE; arrow += DIRS[d2]) {
            int s;
            board[arrow] = FLECHE;
            s = score(board);
            board[arrow] = VIDE;
            if (!found || s > best) best = s, found = 1, move[0] = from, move[1] = to, move[2] = arrow;
          }
        board[to] = VIDE;
      }
    board[from] = MOI;
  }
  if (!found) return; /* the referee never asks a player without a move */
  if (deplacer(move[0] % W - 1, move[0] / W - 1, move[1] % W - 1, move[1] / W - 1,
               move[2] % W - 1, move[2] / W - 1) != SUCCES)
    printf("territory (C): my move was refused at move %d\n", numero_coup());
}

void end_game(void) { printf("territory (C): game over after %d moves\n", numero_coup()); }
