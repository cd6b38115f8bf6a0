# go.mk -- the Go kit's build rules. A champion's Makefile sets KIT (the kit folder) and
# includes this file; `make` then builds the executable `champion` from every .go file of
# the champion's folder with the kit's (package main), in a scratch folder (Go builds one
# folder at a time). A failed build leaves no `champion` (never a stale one).
GO ?= go
GOFLAGS_BUILD ?= -trimpath
SRCS := $(wildcard *.go)
KIT_SRCS := $(wildcard $(KIT)/*.go)

champion: $(SRCS) $(KIT_SRCS)
	@rm -f champion
	@tmp=$$(mktemp -d) && cp $(KIT_SRCS) $(SRCS) "$$tmp" && \
	  (cd "$$tmp" && GO111MODULE=off GOPATH="$$tmp/gopath" GOCACHE="$${GOCACHE:-$${HOME:-$$tmp}/.cache/go-build}" $(GO) build $(GOFLAGS_BUILD) -o champion .) && \
	  mv "$$tmp/champion" champion; status=$$?; rm -rf "$$tmp"; exit $$status

clean:
	rm -f champion

.PHONY: clean
