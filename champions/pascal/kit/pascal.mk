# pascal.mk -- build rule of the Pascal kit. A champion's Makefile sets KIT (the kit
# folder) and includes this file; `make` then builds the executable `champion` from the
# champion's unit prologin (prologin.pas, which may use other units of its folder) with
# the kit's api.pas and champion.pas. Intermediate files go to _build/. The compiler's
# warnings and errors are shown (its banner and notes are not). Set FPCFLAGS to change
# the optimisation and debugging flags: `make FPCFLAGS=-O1`; keep -gl, which makes a
# crash's backtrace name the source line (-g alone shows only addresses).
.DELETE_ON_ERROR:

FPC ?= fpc
FPCFLAGS ?= -O2 -gl
KIT_SRCS := $(KIT)/api.pas $(KIT)/constants.inc $(KIT)/champion.pas

champion: $(wildcard *.pas *.pp *.inc) $(KIT_SRCS) $(KIT)/pascal.mk
	@rm -f champion
	@test -f prologin.pas || { echo "pascal.mk: no prologin.pas in $(CURDIR)" >&2; exit 1; }
	@mkdir -p _build
	$(FPC) $(FPCFLAGS) -v0we -l- -B -FU_build -Fu$(KIT) -Fi$(KIT) -Fu. -Fi. -FE. -ochampion $(KIT)/champion.pas

clean:
	rm -rf champion _build

.PHONY: clean
