# cs.mk -- the C# kit's build rules. A champion's Makefile sets KIT (the kit folder) and
# includes this file; `make` then compiles every .cs file of the champion's folder with
# the kit's (Api, Api2009, Constants, FdStream, Main) into champion.exe, which the
# launcher `champion` runs with `mono`. A failed compile leaves no champion.exe (never a
# stale one).
MCS ?= mcs
MCSFLAGS ?= -optimize+ -debug -nowarn:0169,0649
SRCS := $(wildcard *.cs)
KIT_SRCS := $(wildcard $(KIT)/*.cs)

champion.exe: $(SRCS) $(KIT_SRCS)
	@rm -f champion.exe champion.exe.mdb
	$(MCS) $(MCSFLAGS) -out:$@ $(KIT_SRCS) $(SRCS) || { rm -f $@; exit 1; }

clean:
	rm -f champion.exe champion.exe.mdb

.PHONY: clean
