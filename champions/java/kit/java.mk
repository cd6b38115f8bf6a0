# java.mk -- the Java kit's build rules. A champion's Makefile sets KIT (the kit folder)
# and includes this file; `make` then compiles every .java file of the champion's folder
# with the kit's (Interface, Constants, ProloginMain) into classes/, which the launcher
# `champion` runs with `java`. A failed compile leaves no classes/ (never stale ones).
JAVAC ?= javac
JAVACFLAGS ?= -g -encoding UTF-8 -Xlint:-options
SRCS := $(wildcard *.java)
KIT_SRCS := $(wildcard $(KIT)/*.java)

classes/ProloginMain.class: $(SRCS) $(KIT_SRCS)
	@rm -rf classes
	$(JAVAC) $(JAVACFLAGS) -d classes $(KIT_SRCS) $(SRCS) || { rm -rf classes; exit 1; }

clean:
	rm -rf classes

.PHONY: clean
