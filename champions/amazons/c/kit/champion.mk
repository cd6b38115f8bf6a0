# champion.mk -- the build rule of the Amazons C kit. A champion's Makefile sets KIT (this
# folder) and includes this file; `make` then builds the executable `champion` from every
# .c file of the champion's folder plus the kit's runtime (which provides main()).
CC ?= cc
CFLAGS ?= -O2 -Wall -Wextra
LDLIBS ?= -lm

OBJS := $(patsubst %.c,%.o,$(wildcard *.c)) prologin_kit.o
HEADERS := $(sort $(wildcard $(KIT)/*.h *.h))

champion: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

prologin_kit.o: $(KIT)/prologin_kit.c $(KIT)/prologin.h
	$(CC) $(CFLAGS) -I$(KIT) -c -o $@ $<

%.o: %.c $(HEADERS)
	$(CC) $(CFLAGS) -I$(KIT) -c -o $@ $<

clean:
	rm -f champion *.o

.PHONY: clean
