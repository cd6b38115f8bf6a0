# haskell.mk -- build rule of the Haskell kit. A champion's Makefile sets KIT (the kit
# folder) and includes this file; `make` then builds the native executable `champion`
# from the champion's module Prologin (Prologin.hs, which may import other modules of its
# folder) with the kit's Api.hs and Main.hs. Intermediate files go to _build/. Set
# GHCFLAGS to change the compiler's flags: `make GHCFLAGS=-O0`.
#
# The 2009 form: a folder with `prologin.hs` and no `Prologin.hs` (the 2009 skeleton: its
# own constants and `foreign import ccall` of each function, `foreign export ccall` of
# each callback) is built from a copy, _build/Prologin.hs (same lines: compiler messages
# name it; a Latin-1 file, as 2009's were, converted to UTF-8), linked with the kit's Exports2009.hs, which gives the C symbols it imports.
#
# The board's rules (`distance`, `route_possible`, `construction_possible`) are the C
# kit's, prologin_rules_lib.c, compiled in: KIT_C is the C kit ($PROLOGIN_KITS/c, else,
# when it is unset, the repository's champions/c/kit beside this kit); `make KIT_C=DIR`
# names it.
.DELETE_ON_ERROR:

GHC ?= ghc
CC ?= cc
GHCFLAGS ?= -O
CALLBACKS := init_game jouer enchere placement end_game
SRCS := $(wildcard *.hs)
KIT_C ?= $(firstword $(patsubst %/prologin_rules_lib.c,%,$(wildcard $(if $(PROLOGIN_KITS),$(PROLOGIN_KITS)/c,$(KIT)/../../c/kit)/prologin_rules_lib.c)))
ifeq ($(KIT_C),)
$(error no C kit at $(if $(PROLOGIN_KITS),$(PROLOGIN_KITS)/c,$(KIT)/../../c/kit) (the Haskell kit's rules are the C kit's prologin_rules_lib.c): export PROLOGIN_KITS=<repository>/kits)
endif
RULES_C := $(KIT_C)/prologin_rules_lib.c
KIT_SRCS := $(KIT)/Constants.hs $(KIT)/Api.hs $(KIT)/Main.hs $(KIT)/Exports2009.hs \
  $(RULES_C) $(KIT_C)/prologin_rules.c $(KIT_C)/prologin.h
FORM_2009 := $(if $(wildcard Prologin.hs),,$(wildcard prologin.hs))
GHC_RUN := $(GHC) $(GHCFLAGS) -v0 -outputdir _build -i -i$(KIT) -i. -i_build

champion: $(SRCS) $(KIT_SRCS) $(KIT)/haskell.mk
	@rm -f champion
	@test -f Prologin.hs$(if $(FORM_2009), -o -f prologin.hs) || { echo "haskell.mk: no Prologin.hs in $(CURDIR)" >&2; exit 1; }
	@mkdir -p _build
ifneq ($(FORM_2009),)
	@echo "haskell.mk: prologin.hs is a 2009 champion: built with the 2009 API (its foreign imports), as _build/Prologin.hs"
	@if iconv -f UTF-8 -t UTF-8 prologin.hs >/dev/null 2>&1; then cp prologin.hs _build/Prologin.hs; \
	else echo "haskell.mk: prologin.hs is not UTF-8: read as Latin-1"; \
	  iconv -f ISO-8859-1 -t UTF-8 prologin.hs >_build/Prologin.hs; fi
	$(GHC_RUN) --make -no-link _build/Prologin.hs
else
	$(GHC_RUN) --make -no-link Prologin.hs
endif
	@$(GHC) -v0 --show-iface _build/Prologin.hi | \
	  awk '/^exports:/ { e = 1; next } /^[^ ]/ { e = 0 } e { print $$1 }' > _build/Prologin.exports
	@{ echo "module Callbacks where"; echo "import qualified Prologin"; \
	  $(if $(FORM_2009),echo "import Exports2009 ()";) \
	  for c in $(CALLBACKS); do \
	    echo "$$c :: IO ()"; \
	    if grep -qx "$$c" _build/Prologin.exports; then \
	      echo "$$c = Prologin.$$c"; else echo "$$c = return ()"; fi; \
	  done; } > _build/Callbacks.hs
	$(CC) -O2 -I$(KIT_C) -c -o _build/prologin_rules_lib.o $(RULES_C)
	$(GHC_RUN) --make $(KIT)/Main.hs _build/prologin_rules_lib.o -o champion

clean:
	rm -rf champion _build

.PHONY: clean
