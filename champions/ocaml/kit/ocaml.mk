# ocaml.mk -- build rule of the OCaml kit. A champion's Makefile sets KIT (the kit folder)
# and includes this file; `make` then builds the native executable `champion` from every
# .ml file of the champion's folder (prologin.ml holds the callbacks; other modules are
# linked in dependency order) with the kit's api.ml and main.ml. Intermediate files go to
# _build/. Set OCAMLFLAGS to change the compiler's flags: `make OCAMLFLAGS=-g`.
.DELETE_ON_ERROR:

OCAMLOPT ?= ocamlopt
OCAMLDEP ?= ocamldep
OCAMLFLAGS ?=
CALLBACKS := init_game jouer enchere placement end_game
SRCS := $(wildcard *.ml)
KIT_SRCS := $(KIT)/constants.ml $(KIT)/api.ml $(KIT)/main.ml

champion: $(SRCS) $(KIT_SRCS) $(KIT)/ocaml.mk
	@rm -f champion
	@test -f prologin.ml || { echo "ocaml.mk: no prologin.ml in $(CURDIR)" >&2; exit 1; }
	@rm -rf _build && mkdir _build
	@cp $(KIT_SRCS) $(SRCS) _build/
	cd _build && $(OCAMLOPT) $(OCAMLFLAGS) -c constants.ml api.ml
	cd _build && mods=$$($(OCAMLDEP) -sort $(SRCS)) && \
	  for m in $$mods; do $(OCAMLOPT) $(OCAMLFLAGS) -c $$m || exit 1; done && \
	  $(OCAMLOPT) -i prologin.ml > prologin.interface && \
	  for c in $(CALLBACKS); do \
	    if grep -q "^val $$c :" prologin.interface; then \
	      echo "let $$c : unit -> unit = Prologin.$$c"; \
	    else echo "let $$c () = ()"; fi; \
	  done > callbacks.ml && \
	  $(OCAMLOPT) $(OCAMLFLAGS) -c callbacks.ml main.ml && \
	  $(OCAMLOPT) $(OCAMLFLAGS) -o ../champion unix.cmxa constants.cmx api.cmx \
	    $$(echo $$mods | sed 's/\.ml/.cmx/g') callbacks.cmx main.cmx

clean:
	rm -rf champion _build

.PHONY: clean
