# champion.mk -- shared rules of the C and C++ kits. A champion's Makefile sets KIT (the
# kit folder) and includes this file; `make` then builds the executable `champion` from
# every .c (and .cc/.cpp) file of the champion's folder plus the kit's runtime.
KIT_C ?= $(KIT)
# Every compile first removes the old `champion`, so a build that fails leaves no
# executable behind (never a stale one that would play instead of the new code).
.DELETE_ON_ERROR:

CC ?= cc
CXX ?= c++
LDLIBS ?= -lm

# The default flags optimise (-O2), but the 2009 kits compiled without optimisation, and
# 2009 champions have functions that end without `return`: undefined behaviour that -O2
# turns into a crash (C++) or a different answer (C). So with the default flags a file is
# first compiled with -Werror=return-type; if that is what fails, it is compiled again with
# -O0, as in 2009, with a note. Flags you set (`make CFLAGS=... CXXFLAGS=...`, or in the
# environment) are used as they are.
KIT_OPT_FLAGS := -O2 -Wall -Wextra
KIT_2009_FLAGS := -O0 -Wall -Wextra
ifeq ($(origin CFLAGS),undefined)
CFLAGS := $(KIT_OPT_FLAGS)
KIT_CHECK_C := yes
endif
ifeq ($(origin CXXFLAGS),undefined)
CXXFLAGS := $(KIT_OPT_FLAGS)
KIT_CHECK_CXX := yes
endif

# Compiles $< into $@: $(call kit_compile_plain,COMPILER,FLAGS), or, with the default
# flags, $(call kit_compile_checked,COMPILER,FLAGS,FLAGS VARIABLE) (the -O0 fallback).
KIT_ECHO := $(if $(findstring s,$(firstword -$(MAKEFLAGS))),:,echo)
define kit_compile_plain
	@rm -f champion
	$(1) $(2) $(INCLUDES) -c -o $@ $<
endef
define kit_compile_checked
	@rm -f champion
	@$(KIT_ECHO) "$(1) $(2) $(INCLUDES) -c -o $@ $<"; \
	if $(1) $(2) -Werror=return-type $(INCLUDES) -c -o $@ $< 2>$@.log; then \
	  cat $@.log >&2; \
	elif grep -q 'return-type' $@.log; then \
	  $(KIT_ECHO) "$(1) $(KIT_2009_FLAGS) $(INCLUDES) -c -o $@ $<"; \
	  $(1) $(KIT_2009_FLAGS) $(INCLUDES) -c -o $@ $< || { rm -f $@.log; exit 1; }; \
	  echo "champion.mk: $<: a function can end without a return (above): undefined behaviour that -O2 can turn into a crash or a wrong answer. Compiled with -O0 as the 2009 kits did; add the return to get -O2 or choose the flags: make $(3)='-O2 -Wall'" >&2; \
	else \
	  cat $@.log >&2; rm -f $@.log; exit 1; \
	fi; \
	rm -f $@.log
endef

C_SRCS := $(wildcard *.c)
CXX_SRCS := $(wildcard *.cc *.cpp)
OBJS := $(C_SRCS:.c=.o) $(patsubst %.cpp,%.o,$(CXX_SRCS:.cc=.o)) prologin_kit.o
LINKER := $(if $(CXX_SRCS),$(CXX),$(CC))
# Every source sees both kit folders (a C++ champion's .c files include prologin.h too).
INCLUDES := -I$(KIT) $(if $(filter $(KIT),$(KIT_C)),,-I$(KIT_C))
HEADERS := $(sort $(wildcard $(KIT)/*.h $(KIT)/*.hh $(KIT_C)/*.h *.h *.hh))

champion: $(OBJS)
	$(LINKER) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

prologin_kit.o: $(KIT_C)/prologin_kit.c $(KIT_C)/prologin_api.c $(KIT_C)/prologin_rules.c $(KIT_C)/prologin.h
	@rm -f champion
	$(CC) $(CFLAGS) -I$(KIT_C) -c -o $@ $<

%.o: %.c $(HEADERS)
	$(call kit_compile_$(if $(KIT_CHECK_C),checked,plain),$(CC),$(CFLAGS),CFLAGS)

%.o: %.cc $(HEADERS)
	$(call kit_compile_$(if $(KIT_CHECK_CXX),checked,plain),$(CXX),$(CXXFLAGS),CXXFLAGS)

%.o: %.cpp $(HEADERS)
	$(call kit_compile_$(if $(KIT_CHECK_CXX),checked,plain),$(CXX),$(CXXFLAGS),CXXFLAGS)

clean:
	rm -f champion *.o *.o.log

.PHONY: clean
