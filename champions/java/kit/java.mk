# java.mk -- the Java kit's build rules. A champion's Makefile sets KIT (the kit folder)
# and includes this file; `make` then compiles every .java file of the champion's folder
# with the kit's (Interface, Constants, ProloginMain) into classes/, which the launcher
# `champion` runs with `java`. A failed compile leaves no classes/ (never stale ones).
#
# The 2009 form builds too. Its sources were Latin-1: they are read as ISO-8859-1 when one
# of them is not valid UTF-8 (JAVA_ENCODING, set it to choose). Its mon_tour() returned a
# boolean (`if (mon_tour() == false) return;`) where today's returns 1 or 0: a folder that
# does not build with today's Interface is compiled again with mon_tour() returning
# boolean, which make says; when neither builds, both compilers' errors are shown.
JAVAC ?= javac
JAVACFLAGS ?= -g -Xlint:-options
SRCS := $(wildcard *.java)
KIT_SRCS := $(wildcard $(KIT)/*.java)
JAVA_ENCODING ?= $(shell for f in $(SRCS); do iconv -f UTF-8 -t UTF-8 "$$f" >/dev/null 2>&1 || { echo ISO-8859-1; exit; }; done; echo UTF-8)
COMPILE = $(JAVAC) $(JAVACFLAGS) -encoding $(JAVA_ENCODING) -d classes
# The kit's Interface with mon_tour() returning boolean, as the 2009 API declared it.
TO_2009 = /public static int mon_tour()/,/}/{s/int mon_tour/boolean mon_tour/;s/return figure(1);/return figure(1) != 0;/}

classes/ProloginMain.class: $(SRCS) $(KIT_SRCS)
	@rm -rf classes .java2009
	@echo "$(COMPILE) $(KIT_SRCS) $(SRCS)"
	@if $(COMPILE) $(KIT_SRCS) $(SRCS) 2>.javac.log; then cat .javac.log >&2; rm -f .javac.log; exit 0; fi; \
	rm -rf classes; mkdir .java2009; \
	sed '$(TO_2009)' $(KIT)/Interface.java > .java2009/Interface.java; \
	if $(COMPILE) $(filter-out %/Interface.java,$(KIT_SRCS)) .java2009/Interface.java $(SRCS) 2>.java2009/javac.log; then \
	  echo "java.mk: built with the 2009 API: mon_tour() returns boolean, as in 2009 (today's returns 1 or 0)"; \
	  rm -rf .java2009 .javac.log; exit 0; fi; \
	cat .javac.log >&2; \
	echo "java.mk: with the 2009 API (mon_tour() returning boolean) it does not build either:" >&2; \
	cat .java2009/javac.log >&2; \
	rm -rf classes .java2009 .javac.log; exit 1

clean:
	rm -rf classes .java2009 .javac.log

.PHONY: clean
