# go.mk -- the Go kit's build rules. A champion's Makefile sets KIT (the kit folder) and
# includes this file; `make` then builds the executable `champion` from every .go file of
# the champion's folder with the kit's (package main), in a scratch folder (Go builds one
# folder at a time). A failed build leaves no `champion` (never a stale one).
#
# The board's rules (Distance, RoutePossible, ConstructionPossible) are the C kit's,
# prologin_rules_lib.c, copied into the scratch folder's `c/` and compiled in by cgo
# (rules.go): KIT_C is the C kit ($PROLOGIN_KITS/c, else, when it is unset, the
# repository's champions/c/kit beside this kit); `make KIT_C=DIR` names it.
GO ?= go
# No -trimpath: it makes Go build its whole standard library again instead of using the one
# it ships (a build with an empty cache, as in every jail: 6.8 s of CPU, against 0.8 s), and
# outside a module it trims nothing of the champion's own files (they stay
# `_/<scratch>/prologin.go`).
GOFLAGS_BUILD ?=
SRCS := $(wildcard *.go)
KIT_SRCS := $(wildcard $(KIT)/*.go)
KIT_C ?= $(firstword $(patsubst %/prologin_rules_lib.c,%,$(wildcard $(if $(PROLOGIN_KITS),$(PROLOGIN_KITS)/c,$(KIT)/../../c/kit)/prologin_rules_lib.c)))
ifeq ($(KIT_C),)
$(error no C kit at $(if $(PROLOGIN_KITS),$(PROLOGIN_KITS)/c,$(KIT)/../../c/kit) (the Go kit's rules are the C kit's prologin_rules_lib.c): export PROLOGIN_KITS=<repository>/kits)
endif
RULES_SRCS := $(KIT_C)/prologin_rules_lib.c $(KIT_C)/prologin_rules.c $(KIT_C)/prologin.h

champion: $(SRCS) $(KIT_SRCS) $(RULES_SRCS)
	@rm -f champion
	@tmp=$$(mktemp -d) && cp $(KIT_SRCS) $(SRCS) "$$tmp" && mkdir "$$tmp/c" && \
	  cp $(RULES_SRCS) "$$tmp/c" && \
	  (cd "$$tmp" && GO111MODULE=off GOPATH="$$tmp/gopath" GOCACHE="$${GOCACHE:-$${HOME:-$$tmp}/.cache/go-build}" $(GO) build $(GOFLAGS_BUILD) -o champion .) && \
	  mv "$$tmp/champion" champion; status=$$?; rm -rf "$$tmp"; exit $$status

clean:
	rm -f champion

.PHONY: clean
