# haskell.mk -- build rule of the Haskell kit. A champion's Makefile sets KIT (the kit
# folder) and includes this file; `make` then builds the native executable `champion`
# from the champion's module Prologin (Prologin.hs, which may import other modules of its
# folder) with the kit's Api.hs and Main.hs. Intermediate files go to _build/. Set
# GHCFLAGS to change the compiler's flags: `make GHCFLAGS=-O0`.
.DELETE_ON_ERROR:

GHC ?= ghc
GHCFLAGS ?= -O
CALLBACKS := init_game jouer enchere placement end_game
SRCS := $(wildcard *.hs)
KIT_SRCS := $(KIT)/Constants.hs $(KIT)/Api.hs $(KIT)/Main.hs
GHC_RUN := $(GHC) $(GHCFLAGS) -v0 -outputdir _build -i -i$(KIT) -i. -i_build

champion: $(SRCS) $(KIT_SRCS) $(KIT)/haskell.mk
	@rm -f champion
	@test -f Prologin.hs || { echo "haskell.mk: no Prologin.hs in $(CURDIR)" >&2; exit 1; }
	@mkdir -p _build
	$(GHC_RUN) --make -no-link Prologin.hs
	@$(GHC) -v0 --show-iface _build/Prologin.hi | \
	  awk '/^exports:/ { e = 1; next } /^[^ ]/ { e = 0 } e { print $$1 }' > _build/Prologin.exports
	@{ echo "module Callbacks where"; echo "import qualified Prologin"; \
	  for c in $(CALLBACKS); do \
	    echo "$$c :: IO ()"; \
	    if grep -qx "$$c" _build/Prologin.exports; then \
	      echo "$$c = Prologin.$$c"; else echo "$$c = return ()"; fi; \
	  done; } > _build/Callbacks.hs
	$(GHC_RUN) --make $(KIT)/Main.hs -o champion

clean:
	rm -rf champion _build

.PHONY: clean
