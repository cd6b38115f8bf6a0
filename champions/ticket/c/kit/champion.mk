# champion.mk -- the build rule of the Ticket to Ride C kit. A champion's Makefile sets KIT
# (this folder) and includes this file; `make` then builds the executable `champion` from
# every .c file of the champion's folder (one of them has main(), as the subject's
# programs) plus the kit's client (ticket_kit.c) and the subject library's own calls
# (client_api.c).
# Every compile first removes the old `champion`, so a build that fails leaves no
# executable behind (never a stale one that would play instead of the new code).
.DELETE_ON_ERROR:

CC ?= cc
CFLAGS ?= -O2 -Wall -Wextra -std=gnu11
LDLIBS ?= -lm

OBJS := $(patsubst %.c,%.o,$(wildcard *.c)) ticket_kit.o client_api.o
HEADERS := $(sort $(wildcard $(KIT)/*.h *.h))

champion: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

ticket_kit.o: $(KIT)/ticket_kit.c $(wildcard $(KIT)/*.h)
	@rm -f champion
	$(CC) $(CFLAGS) -I$(KIT) -c -o $@ $<

client_api.o: $(KIT)/client_api.c $(wildcard $(KIT)/*.h)
	@rm -f champion
	$(CC) $(CFLAGS) -I$(KIT) -c -o $@ $<

%.o: %.c $(HEADERS)
	@rm -f champion
	$(CC) $(CFLAGS) -I$(KIT) -c -o $@ $<

clean:
	rm -f champion *.o

.PHONY: clean
