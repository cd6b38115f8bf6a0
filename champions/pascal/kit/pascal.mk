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
.DELETE_ON_ERROR:

FPC ?= fpc
FPCFLAGS ?= -O2 -gl
KIT_SRCS := $(KIT)/api.pas $(KIT)/constants.inc $(KIT)/champion.pas \
	$(KIT)/prolo_interface.pas $(KIT)/champion2009.pas
CALLBACKS := init_game jouer enchere placement end_game
LIBRARY_LINE := ^[[:space:]]*library[[:space:]]

champion: $(wildcard *.pas *.pp *.inc) $(KIT_SRCS) $(KIT)/pascal.mk
	@rm -f champion
	@test -f prologin.pas || { echo "pascal.mk: no prologin.pas in $(CURDIR)" >&2; exit 1; }
	@mkdir -p _build
	@if grep -qiE '$(LIBRARY_LINE)' prologin.pas; then \
	  echo "pascal.mk: prologin.pas is a 2009 library: built with the 2009 API (prolo_interface), as _build/prologin2009.pas"; \
	  decls=; for cb in $(CALLBACKS); do \
	    if grep -qiE "^[[:space:]]*procedure[[:space:]]+$$cb[[:space:]]*[(;]" prologin.pas; then decls="$$decls procedure $$cb; cdecl;"; fi; \
	  done; \
	  sed -E "0,/$(LIBRARY_LINE)/I s/$(LIBRARY_LINE)+[^;]*;/unit prologin2009; interface$$decls implementation/I" prologin.pas >_build/prologin2009.pas && \
	  echo "$(FPC) $(FPCFLAGS) ... $(KIT)/champion2009.pas" && \
	  $(FPC) $(FPCFLAGS) -v0we -l- -B -FU_build -Fu$(KIT) -Fi$(KIT) -Fu. -Fi. -Fu_build -FE. -ochampion $(KIT)/champion2009.pas; \
	else \
	  echo "$(FPC) $(FPCFLAGS) -v0we -l- -B -FU_build -Fu$(KIT) -Fi$(KIT) -Fu. -Fi. -FE. -ochampion $(KIT)/champion.pas"; \
	  $(FPC) $(FPCFLAGS) -v0we -l- -B -FU_build -Fu$(KIT) -Fi$(KIT) -Fu. -Fi. -FE. -ochampion $(KIT)/champion.pas; \
	fi

clean:
	rm -rf champion _build

.PHONY: clean
