# ocaml.mk -- build rule of the OCaml kit. A champion's Makefile sets KIT (the kit folder)
# and includes this file; `make` then builds the native executable `champion` from every
# .ml file of the champion's folder (prologin.ml holds the callbacks; other modules are
# linked in dependency order) with the kit's api.ml and main.ml. Intermediate files go to
# _build/. The flags, OCAMLFLAGS, are -g by default: a crash's backtrace (main.ml records it)
# names the line that raised the exception; `make OCAMLFLAGS=-O3` changes them.
#
# The board's rules (`distance`, `route_possible`, `construction_possible`) are the C
# kit's, prologin_rules_lib.c, compiled in with the kit's bindings rules_stubs.c: KIT_C
# is the C kit ($PROLOGIN_KITS/c, else, when it is unset, the repository's champions/c/kit
# beside this kit); `make KIT_C=DIR` names it.
.DELETE_ON_ERROR:

OCAMLOPT ?= ocamlopt
OCAMLDEP ?= ocamldep
OCAMLFLAGS ?= -g
CALLBACKS := init_game jouer enchere placement end_game
SRCS := $(wildcard *.ml)
CC ?= cc
KIT_C ?= $(firstword $(patsubst %/prologin_rules_lib.c,%,$(wildcard $(if $(PROLOGIN_KITS),$(PROLOGIN_KITS)/c,$(KIT)/../../c/kit)/prologin_rules_lib.c)))
ifeq ($(KIT_C),)
$(error no C kit at $(if $(PROLOGIN_KITS),$(PROLOGIN_KITS)/c,$(KIT)/../../c/kit) (the OCaml kit's rules are the C kit's prologin_rules_lib.c): export PROLOGIN_KITS=<repository>/kits)
endif
KIT_SRCS := $(KIT)/constants.ml $(KIT)/api.ml $(KIT)/main.ml
RULES_SRCS := $(KIT)/rules_stubs.c $(KIT_C)/prologin_rules_lib.c $(KIT_C)/prologin_rules.c \
  $(KIT_C)/prologin.h

champion: $(SRCS) $(KIT_SRCS) $(RULES_SRCS) $(KIT)/ocaml.mk
	@rm -f champion
	@test -f prologin.ml || { echo "ocaml.mk: no prologin.ml in $(CURDIR)" >&2; exit 1; }
	@rm -rf _build && mkdir _build
	@cp $(KIT_SRCS) $(SRCS) _build/
	$(CC) -O2 -I$(KIT_C) -c -o _build/prologin_rules_lib.o $(KIT_C)/prologin_rules_lib.c
	$(CC) -O2 -I$$($(OCAMLOPT) -where) -c -o _build/rules_stubs.o $(KIT)/rules_stubs.c
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
	  $(OCAMLOPT) $(OCAMLFLAGS) -o ../champion unix.cmxa rules_stubs.o prologin_rules_lib.o \
	    constants.cmx api.cmx \
	    $$(echo $$mods | sed 's/\.ml/.cmx/g') callbacks.cmx main.cmx

clean:
	rm -rf champion _build

.PHONY: clean
