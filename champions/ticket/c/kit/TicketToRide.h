/* TicketToRide.h -- the Ticket to Ride C kit: the subject's client API (its types and
 * functions, as its section 2 names them) over protocol-ticket-to-ride.md.
 *
 * A champion is a program with its own main(), written as the subject asks: connect,
 * wait for a game, get the map, then in a loop play your moves and get the others'
 * (getMove) until a move does not return NORMAL_MOVE; close. The referee starts the
 * program already in its match: connectToServer does nothing, closeConnection ends the
 * match's callbacks. printf() goes to stderr (the match's log), never to the referee.
 * A move the rules refuse is a fault that loses the match (there are no error codes):
 * look first (getMap, getHand, getRoutes, isMyTurn).
 */
#ifndef TICKET_TO_RIDE_H
#define TICKET_TO_RIDE_H

/* The colours of cards and routes; a grey route is MULTICOLOR. */
typedef enum {
  NONE = 0,
  PURPLE = 1,
  WHITE = 2,
  BLUE = 3,
  YELLOW = 4,
  ORANGE = 5,
  BLACK = 6,
  RED = 7,
  GREEN = 8,
  MULTICOLOR = 9 /* the locomotive */
} t_color;

/* The five moves. */
typedef enum {
  CLAIM_ROUTE = 1,
  DRAW_BLIND_CARD = 2,
  DRAW_CARD = 3,
  DRAW_OBJECTIVES = 4,
  CHOOSE_OBJECTIVES = 5
} t_typeMove;

/* t_return_code (what a move did: the match goes on, or it ended, won or lost), as the
 * subject's clientAPI.h defines it. */
#include "clientAPI.h"

/* A destination ticket. */
typedef struct {
  int city1, city2, score;
} t_objective;

typedef struct {
  int city1, city2;
  t_color color; /* the cards paid besides the locomotives (MULTICOLOR: locomotives only) */
  int nbLocomotives;
} t_claimRouteMove;
/* This kit's earlier name of it. */
typedef t_claimRouteMove t_claimRoute;

typedef struct {
  t_color card;      /* the card taken */
  t_color faceUp[5]; /* the face-up cards now */
} t_drawCard;

typedef struct {
  t_color card; /* the card drawn (NONE when another player drew it: it is hidden) */
} t_drawBlindCard;

typedef struct {
  t_objective objectives[3]; /* the tickets drawn (zeros when another player drew them) */
} t_drawObjectives;

typedef struct {
  int nbObjectives; /* how many were kept */
  int chosen[3];    /* which (only for your own move) */
} t_chooseObjectives;

/* A move, of one of the five kinds. */
typedef struct {
  t_typeMove type;
  int player; /* the seat that played it */
  union {
    t_claimRouteMove claimRoute;
    t_drawCard drawCard;
    t_drawBlindCard drawBlindCard;
    t_drawObjectives drawObjectives;
    t_chooseObjectives chooseObjectives;
  };
} t_move;

/* The connection: does nothing (the referee started this program in its match). */
void connectToServer(char *serverName, unsigned int port, char *name);
/* Ends the current callback and every later one until the referee closes; then exits. */
void closeConnection(void);
/* The match: its name (at most 50 characters), the numbers of cities and of tracks. */
void waitForT2RGame(char *gameType, char *gameName, int *nbCities, int *nbTracks);
/* The tracks (5 ints each: city1, city2, length, color1, color2 (NONE for a single
 * track); give 5 * nbTracks ints), the 5 face-up cards and the first 4 cards of your
 * hand; returns your player number (0 plays first). */
int getMap(int *tracks, t_color faceUp[5], t_color cards[4]);
/* The next move of another player, and in *replay 1 if that player plays again. */
t_return_code getMove(t_move *move, int *replay);
/* Your moves. */
t_return_code claimRoute(int city1, int city2, int color, int nbLocomotives);
t_return_code drawBlindCard(t_color *card);
t_return_code drawCard(t_color card, t_color faceUp[5]);
t_return_code drawObjectives(t_objective objectives[3]);
t_return_code chooseObjectives(int objectiveCards[3]);
/* On stderr: the routes and their owners and your hand; a city's name. */
void printMap(void);
void printCity(int city);
/* A comment for whoever watches: written on stderr (the match's console). */
void sendComment(char *comment);

/* What this kit adds: */
/* 1 when the referee waits for your move (every move of the others given by getMove). */
int isMyTurn(void);
/* Your cards: hand[c] for each t_color c from PURPLE to MULTICOLOR (hand[0] unused). */
void getHand(int hand[10]);
/* The number of routes (a double track is two), and route i: its cities, length, colour
 * (MULTICOLOR: grey), twin (-1: none) and owner (-1: none). */
int getNbRoutes(void);
void getRoute(int i, int *city1, int *city2, int *length, t_color *color, int *twin,
              int *owner);
/* The 5 face-up cards (NONE for an empty place). */
void getFaceUp(t_color faceUp[5]);
/* Your tickets: how many, at most `max` written into objectives. */
int getObjectives(t_objective *objectives, int max);
/* Your wagons left, and the number of players. */
int getWagons(void);
int getNbPlayers(void);
/* Sends a line of the protocol (a question) and returns its answer (valid until the
 * next call). */
const char *ask(const char *line);

#endif
