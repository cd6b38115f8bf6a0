/* clientAPI.h -- the names the subject's clientAPI.h gives every game's client: the
 * return code of a move, the sizes of a move's text and of a message, and the library's
 * own calls (client_api.c). Included by TicketToRide.h; a program written for the
 * subject finds them where it looks. */
#ifndef CLIENT_API_H
#define CLIENT_API_H

#include <stddef.h>
#include <stdio.h>

/* The most characters of a move's text, and of a message. */
#define MAX_GET_MOVE 128
#define MAX_MESSAGE 1024

/* What a move did: the match goes on, or it ended (won or lost). */
typedef enum { NORMAL_MOVE = 0, WINNING_MOVE = 1, LOSING_MOVE = -1 } t_return_code;

/* The subject's library's calls below TicketToRide.h, at its prototypes (client_api.c):
 * the same calls of TicketToRide.h, with the moves, answers and data as the subject's
 * server's strings. `fct` names the caller in messages; messages go to stderr. */
extern int debug; /* dispDebug prints the messages of this level and below */
void dispError(const char *fct, const char *msg, ...) __attribute__((noreturn));
void dispDebug(const char *fct, int level, const char *msg, ...);
void connectToCGS(const char *fct, const char *serverName, unsigned int port, char *name);
void closeCGSConnection(const char *fct);
/* gameName: at most 50 characters; data: "nbCities nbTracks". */
void waitForGame(const char *fct, const char *training, char *gameName, char *data);
/* data: 5 ints a track, the 5 face-up cards, the 4 first cards; returns 0 if we begin. */
int getGameData(const char *fct, char *data, size_t ndata);
/* move: "1 city1 city2 color locomotives", "2", "3 color", "4" or "5 k1 k2 k3"; msg:
 * "replay" after 2, "replay card faceUp0..4" after 3 (move at least MAX_GET_MOVE, msg
 * MAX_MESSAGE characters). */
t_return_code getCGSMove(const char *fct, char *move, char *msg);
/* answer: the card after 2, the face-up cards after 3, the 9 numbers of the tickets after
 * 4 (at least MAX_MESSAGE characters, or NULL). */
t_return_code sendCGSMove(const char *fct, char *move, char *answer);
void printCGSGame(const char *fct);
void sendCGSComment(const char *fct, const char *comment);

#endif
