/* clientAPI.h -- the names the subject's clientAPI.h gives every game's client: the
 * return code of a move and the sizes of a move's text and of a message. Included by
 * TicketToRide.h; a program written for the subject finds them where it looks. */
#ifndef CLIENT_API_H
#define CLIENT_API_H

#include <stdio.h>

/* The most characters of a move's text, and of a message. */
#define MAX_GET_MOVE 128
#define MAX_MESSAGE 1024

/* What a move did: the match goes on, or it ended (won or lost). */
typedef enum { NORMAL_MOVE = 0, WINNING_MOVE = 1, LOSING_MOVE = -1 } t_return_code;

#endif
