# champion.mk -- shared rules of the C and C++ kits. A champion's Makefile sets KIT (the
# kit folder) and includes this file; `make` then builds the executable `champion` from
# every .c (and .cc/.cpp) file of the champion's folder plus the kit's runtime.
KIT_C ?= $(KIT)
# Every compile first removes the old `champion`, so a build that fails leaves no
# executable behind (never a stale one that would play instead of the new code).
.DELETE_ON_ERROR:

CC ?= cc
CXX ?= c++
CFLAGS ?= -O2 -Wall -Wextra
CXXFLAGS ?= -O2 -Wall -Wextra
LDLIBS ?= -lm

C_SRCS := $(wildcard *.c)
CXX_SRCS := $(wildcard *.cc *.cpp)
OBJS := $(C_SRCS:.c=.o) $(patsubst %.cpp,%.o,$(CXX_SRCS:.cc=.o)) prologin_kit.o
LINKER := $(if $(CXX_SRCS),$(CXX),$(CC))
# Every source sees both kit folders (a C++ champion's .c files include prologin.h too).
INCLUDES := -I$(KIT) $(if $(filter $(KIT),$(KIT_C)),,-I$(KIT_C))
HEADERS := $(sort $(wildcard $(KIT)/*.h $(KIT)/*.hh $(KIT_C)/*.h *.h *.hh))

champion: $(OBJS)
	$(LINKER) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

prologin_kit.o: $(KIT_C)/prologin_kit.c $(KIT_C)/prologin_api.c $(KIT_C)/prologin.h
	@rm -f champion
	$(CC) $(CFLAGS) -I$(KIT_C) -c -o $@ $<

%.o: %.c $(HEADERS)
	@rm -f champion
	$(CC) $(CFLAGS) $(INCLUDES) -c -o $@ $<

%.o: %.cc $(HEADERS)
	@rm -f champion
	$(CXX) $(CXXFLAGS) $(INCLUDES) -c -o $@ $<

%.o: %.cpp $(HEADERS)
	@rm -f champion
	$(CXX) $(CXXFLAGS) $(INCLUDES) -c -o $@ $<

clean:
	rm -f champion *.o

.PHONY: clean
