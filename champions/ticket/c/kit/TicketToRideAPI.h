/* TicketToRideAPI.h -- the subject's name for its client API header: a program written
 * for the subject includes this one unchanged; it is this kit's TicketToRide.h. */
#ifndef TICKET_TO_RIDE_API_H
#define TICKET_TO_RIDE_API_H

#include "TicketToRide.h"

#endif
