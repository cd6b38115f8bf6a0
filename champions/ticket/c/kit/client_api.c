/* client_api.c -- the calls of the subject's client library below TicketToRide.h
 * (clientAPI.h's connectToCGS, waitForGame, getGameData, getCGSMove, sendCGSMove,
 * printCGSGame, sendCGSComment, closeCGSConnection, dispError, dispDebug and its
 * `debug`), for a program that calls them directly: each one is TicketToRide.h's call
 * that does the same, its strings in the subject's server's forms (a move "1 city1 city2
 * color locomotives", "2", "3 color", "4", "5 keep1 keep2 keep3"; the answers and the
 * others' moves as the subject's TicketToRideAPI.c reads them).
 *
 * Owns nothing of the match (ticket_kit.c does): only those forms. What a program writes
 * with them goes to stderr, the match's console, never to the referee.
 */
#include "TicketToRide.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The subject's debug level: a program sets it (`extern int debug; debug = 2;`) for
 * dispDebug's messages of that level and below. */
int debug = 0;

void dispError(const char *fct, const char *msg, ...) {
  va_list args;
  fprintf(stderr, "[%s] ", fct);
  va_start(args, msg);
  vfprintf(stderr, msg, args);
  va_end(args);
  fputc('\n', stderr);
  exit(EXIT_FAILURE);
}

void dispDebug(const char *fct, int level, const char *msg, ...) {
  va_list args;
  if (debug < level) return;
  fprintf(stderr, "[%s] ", fct);
  va_start(args, msg);
  vfprintf(stderr, msg, args);
  va_end(args);
  fputc('\n', stderr);
}

void connectToCGS(const char *fct, const char *serverName, unsigned int port, char *name) {
  dispDebug(fct, 2, "connectToCGS: already in the match (%s:%u)", serverName, port);
  connectToServer((char *)serverName, port, name);
}

void closeCGSConnection(const char *fct) {
  dispDebug(fct, 2, "closeCGSConnection");
  closeConnection();
}

/* The game's name, and its data as the server sends it: "nbCities nbTracks". */
void waitForGame(const char *fct, const char *training, char *gameName, char *data) {
  int nbCities, nbTracks;
  waitForT2RGame((char *)training, gameName, &nbCities, &nbTracks);
  sprintf(data, "%d %d", nbCities, nbTracks);
  dispDebug(fct, 1, "game %s: %s", gameName, data);
}

/* The data of GET_GAME_DATA: 5 ints a track, the 5 face-up cards, the 4 first cards;
 * at most `ndata` characters (the end cut off past them, as the subject's library
 * stops). Returns 0 when this program plays first. */
int getGameData(const char *fct, char *data, size_t ndata) {
  int nbCities, nbTracks, i, *tracks, seat;
  size_t used = 0;
  t_color faceUp[5], cards[4];
  char gameName[64];
  waitForT2RGame(NULL, gameName, &nbCities, &nbTracks);
  tracks = calloc((size_t)nbTracks * 5 + 1, sizeof *tracks);
  if (!tracks) dispError(fct, "out of memory for %d tracks", nbTracks);
  seat = getMap(tracks, faceUp, cards);
  if (ndata > 0) data[0] = '\0';
#define PUT(...)                                                                         \
  do {                                                                                   \
    if (used < ndata) {                                                                  \
      int n = snprintf(data + used, ndata - used, __VA_ARGS__);                          \
      used = n < 0 ? ndata : used + (size_t)n;                                           \
    }                                                                                    \
  } while (0)
  for (i = 0; i < nbTracks * 5; i++) PUT("%d ", tracks[i]);
  for (i = 0; i < 5; i++) PUT("%d ", faceUp[i]);
  for (i = 0; i < 4; i++) PUT(i < 3 ? "%d " : "%d", cards[i]);
#undef PUT
  free(tracks);
  dispDebug(fct, 2, "game data: %d tracks, player %d", nbTracks, seat);
  return seat == 0 ? 0 : 1;
}

/* Another player's move, as the server tells it: `move` "1 city1 city2 color
 * locomotives", "2", "3 color", "4" or "5 k1 k2 k3" (as many 1s as tickets kept, the
 * others' choice being hidden), and `msg` what the subject's getMove reads in it:
 * "replay" after "2", "replay card faceUp0 ... faceUp4" after "3". */
t_return_code getCGSMove(const char *fct, char *move, char *msg) {
  t_move m;
  int replay = 0;
  t_return_code code = getMove(&m, &replay);
  move[0] = msg[0] = '\0';
  switch (m.type) {
  case CLAIM_ROUTE:
    sprintf(move, "1 %d %d %d %d", m.claimRoute.city1, m.claimRoute.city2, m.claimRoute.color,
            m.claimRoute.nbLocomotives);
    break;
  case DRAW_BLIND_CARD:
    sprintf(move, "2");
    sprintf(msg, "%d", replay);
    break;
  case DRAW_CARD:
    sprintf(move, "3 %d", m.drawCard.card);
    sprintf(msg, "%d %d %d %d %d %d %d", replay, m.drawCard.card, m.drawCard.faceUp[0],
            m.drawCard.faceUp[1], m.drawCard.faceUp[2], m.drawCard.faceUp[3],
            m.drawCard.faceUp[4]);
    break;
  case DRAW_OBJECTIVES:
    sprintf(move, "4");
    break;
  case CHOOSE_OBJECTIVES:
    sprintf(move, "5 %d %d %d", m.chooseObjectives.nbObjectives > 0,
            m.chooseObjectives.nbObjectives > 1, m.chooseObjectives.nbObjectives > 2);
    break;
  }
  dispDebug(fct, 1, "their move: %s (%s)", move, msg);
  return code;
}

/* Plays `move` in the server's form and writes its answer as the server does: the card
 * drawn after "2", the face-up cards after "3", the three tickets' 9 numbers after "4",
 * nothing otherwise. A move that is no move of the form stops the program, naming it. */
t_return_code sendCGSMove(const char *fct, char *move, char *answer) {
  int type, a, b, c, d, n;
  t_return_code code;
  t_color card, faceUp[5];
  t_objective tickets[3];
  int keep[3];
  char ignored[8];
  if (answer) answer[0] = '\0';
  if (sscanf(move, "%d%n", &type, &n) != 1) dispError(fct, "no move in `%s`", move);
  move += n;
  dispDebug(fct, 1, "our move: %d%s", type, move);
  switch (type) {
  case CLAIM_ROUTE:
    if (sscanf(move, "%d %d %d %d %1s", &a, &b, &c, &d, ignored) != 4)
      dispError(fct, "a claim is `1 city1 city2 color locomotives`, not `1%s`", move);
    return claimRoute(a, b, c, d);
  case DRAW_BLIND_CARD:
    code = drawBlindCard(&card);
    if (answer) sprintf(answer, "%d", card);
    return code;
  case DRAW_CARD:
    if (sscanf(move, "%d %1s", &a, ignored) != 1)
      dispError(fct, "a face-up card is `3 color`, not `3%s`", move);
    code = drawCard((t_color)a, faceUp);
    if (answer)
      sprintf(answer, "%d %d %d %d %d", faceUp[0], faceUp[1], faceUp[2], faceUp[3], faceUp[4]);
    return code;
  case DRAW_OBJECTIVES:
    code = drawObjectives(tickets);
    if (answer)
      sprintf(answer, "%d %d %d %d %d %d %d %d %d", tickets[0].city1, tickets[0].city2,
              tickets[0].score, tickets[1].city1, tickets[1].city2, tickets[1].score,
              tickets[2].city1, tickets[2].city2, tickets[2].score);
    return code;
  case CHOOSE_OBJECTIVES:
    if (sscanf(move, "%d %d %d %1s", &keep[0], &keep[1], &keep[2], ignored) != 3)
      dispError(fct, "a choice is `5 keep1 keep2 keep3`, not `5%s`", move);
    return chooseObjectives(keep);
  default:
    dispError(fct, "no move of type %d (1 to 5)", type);
  }
  return LOSING_MOVE; /* not reached: dispError exits */
}

void printCGSGame(const char *fct) {
  dispDebug(fct, 2, "printCGSGame");
  printMap();
}

/* A comment of at most 100 characters, as the subject's library allows. */
void sendCGSComment(const char *fct, const char *comment) {
  if (strlen(comment) > 100) dispError(fct, "The Comment is more than 100 characters.");
  sendComment((char *)comment);
}
