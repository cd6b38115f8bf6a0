# pascal.mk -- build rule of the Pascal kit. A champion's Makefile sets KIT (the kit
# folder) and includes this file; `make` then builds the executable `champion` from the
# champion's unit prologin (prologin.pas, which may use other units of its folder) with
# the kit's api.pas and champion.pas. Intermediate files go to _build/. The compiler's
# warnings and errors are shown (its banner and notes are not). Set FPCFLAGS to change
# the optimisation and debugging flags: `make FPCFLAGS=-O1`; keep -gl, which makes a
# crash's backtrace name the source line (-g alone shows only addresses).
#
# The 2009 form: a prologin.pas that is a `library` (as the 2009 generator gave it: `uses
# prolo_interface;`, `procedure jouer(); cdecl; export;`, `exports ...`) is copied to
# _build/prologin2009.pas with its `library` line made the header of a unit declaring the
# callbacks it defines (the other lines unchanged, so the compiler's line numbers hold),
# and built with the kit's champion2009.pas.
#
# The board's rules (`distance`, `route_possible`, `construction_possible`) are the C
# kit's, prologin_rules_lib.c, compiled into _build and linked in (api.pas gives it the
# two functions of the C library it uses: the champion is static, without it): KIT_C is
# the C kit ($PROLOGIN_KITS/c, else, when it is unset, the repository's champions/c/kit
# beside this kit); `make KIT_C=DIR` names it.
.DELETE_ON_ERROR:

FPC ?= fpc
CC ?= cc
KIT_C ?= $(firstword $(patsubst %/prologin_rules_lib.c,%,$(wildcard $(if $(PROLOGIN_KITS),$(PROLOGIN_KITS)/c,$(KIT)/../../c/kit)/prologin_rules_lib.c)))
ifeq ($(KIT_C),)
$(error no C kit at $(if $(PROLOGIN_KITS),$(PROLOGIN_KITS)/c,$(KIT)/../../c/kit) (the Pascal kit's rules are the C kit's prologin_rules_lib.c): export PROLOGIN_KITS=<repository>/kits)
endif
RULES_SRCS := $(KIT_C)/prologin_rules_lib.c $(KIT_C)/prologin_rules.c $(KIT_C)/prologin.h
FPCFLAGS ?= -O2 -gl
KIT_SRCS := $(KIT)/api.pas $(KIT)/constants.inc $(KIT)/champion.pas \
	$(KIT)/prolo_interface.pas $(KIT)/champion2009.pas
CALLBACKS := init_game jouer enchere placement end_game
LIBRARY_LINE := ^[[:space:]]*library[[:space:]]

champion: $(wildcard *.pas *.pp *.inc) $(KIT_SRCS) $(RULES_SRCS) $(KIT)/pascal.mk
	@rm -f champion
	@test -f prologin.pas || { echo "pascal.mk: no prologin.pas in $(CURDIR)" >&2; exit 1; }
	@mkdir -p _build
	$(CC) -O2 -fno-stack-protector -I$(KIT_C) -c -o _build/prologin_rules_lib.o $(KIT_C)/prologin_rules_lib.c
	@if grep -qiE '$(LIBRARY_LINE)' prologin.pas; then \
	  echo "pascal.mk: prologin.pas is a 2009 library: built with the 2009 API (prolo_interface), as _build/prologin2009.pas"; \
	  decls=; for cb in $(CALLBACKS); do \
	    if grep -qiE "^[[:space:]]*procedure[[:space:]]+$$cb[[:space:]]*[(;]" prologin.pas; then decls="$$decls procedure $$cb; cdecl;"; fi; \
	  done; \
	  sed -E "0,/$(LIBRARY_LINE)/I s/$(LIBRARY_LINE)+[^;]*;/unit prologin2009; interface$$decls implementation/I" prologin.pas >_build/prologin2009.pas && \
	  echo "$(FPC) $(FPCFLAGS) ... $(KIT)/champion2009.pas" && \
	  $(FPC) $(FPCFLAGS) -v0we -l- -B -FU_build -Fo_build -Fu$(KIT) -Fi$(KIT) -Fu. -Fi. -Fu_build -FE. -ochampion $(KIT)/champion2009.pas; \
	else \
	  echo "$(FPC) $(FPCFLAGS) -v0we -l- -B -FU_build -Fo_build -Fu$(KIT) -Fi$(KIT) -Fu. -Fi. -FE. -ochampion $(KIT)/champion.pas"; \
	  $(FPC) $(FPCFLAGS) -v0we -l- -B -FU_build -Fo_build -Fu$(KIT) -Fi$(KIT) -Fu. -Fi. -FE. -ochampion $(KIT)/champion.pas; \
	fi

clean:
	rm -rf champion _build

.PHONY: clean
