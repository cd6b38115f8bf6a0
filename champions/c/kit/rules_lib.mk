# rules_lib.mk -- builds the board's rules (prologin_rules_lib.c) as the shared libraries
# the kits load at run time: `make -f <C kit>/rules_lib.mk`.
# - libprologin_rules.so: the plain C functions (the Python kit, through ctypes);
# - libprologin_rules_jni.so: the same rules with the Java kit's JNI entry points
#   (prologin_rules_jni.c), when a JDK's jni.h is found (JNI_INCLUDE, else the include
#   folder of the JDK whose javac is on PATH); without one it says so and builds the
#   first only;
# - libprologin_rules_pl.so: the same rules as SWI-Prolog foreign predicates
#   (prologin_rules_pl.c), when SWI-Prolog's headers are found (SWIPL_INCLUDE, else the
#   `include` folder of the swipl on PATH);
# - prologin_rules.node: the same rules as a Node-API addon (prologin_rules_node.c), the
#   JavaScript kit's, when Node's headers are found (NODE_INCLUDE, else /usr/include/node);
# - prologin_rules_lua.so: the same rules as a Lua C module (prologin_rules_lua.c), the Lua
#   kit's, when Lua's headers are found (LUA_INCLUDE, else /usr/include/lua5.4: Debian's
#   liblua5.4-dev).
# scripts/build-champions.sh builds them beside this file (where the kits look:
# $PROLOGIN_KITS/c, /kits/c in the jail). Each is written under another name, then
# renamed: a kit loading it meanwhile sees the old file or the new one, never half of one.
KIT_C ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
CC ?= cc
RULES_SRCS := $(KIT_C)/prologin_rules_lib.c $(KIT_C)/prologin_rules.c $(KIT_C)/prologin.h
JAVAC_PATH := $(shell command -v javac 2>/dev/null)
JNI_INCLUDE ?= $(if $(JAVAC_PATH),$(patsubst %/,%,$(dir $(realpath $(JAVAC_PATH))))/../include)
HAVE_JNI := $(if $(JNI_INCLUDE),$(wildcard $(JNI_INCLUDE)/jni.h))
SWIPL_INCLUDE ?= $(shell swipl --dump-runtime-variables 2>/dev/null | sed -n 's/^PLBASE="\(.*\)";$$/\1/p')/include
HAVE_SWIPL := $(wildcard $(SWIPL_INCLUDE)/SWI-Prolog.h)
NODE_INCLUDE ?= /usr/include/node
HAVE_NODE := $(wildcard $(NODE_INCLUDE)/node_api.h)
LUA_INCLUDE ?= /usr/include/lua5.4
HAVE_LUA := $(wildcard $(LUA_INCLUDE)/lua.h)

all: $(KIT_C)/libprologin_rules.so $(if $(HAVE_JNI),$(KIT_C)/libprologin_rules_jni.so,no-jni) \
  $(if $(HAVE_SWIPL),$(KIT_C)/libprologin_rules_pl.so,no-swipl) \
  $(if $(HAVE_NODE),$(KIT_C)/prologin_rules.node,no-node) \
  $(if $(HAVE_LUA),$(KIT_C)/prologin_rules_lua.so,no-lua)

$(KIT_C)/libprologin_rules.so: $(RULES_SRCS)
	$(CC) -O2 -fPIC -shared -o $@.$$$$ $(KIT_C)/prologin_rules_lib.c && mv -f $@.$$$$ $@

$(KIT_C)/libprologin_rules_jni.so: $(RULES_SRCS) $(KIT_C)/prologin_rules_jni.c
	$(CC) -O2 -fPIC -shared -I$(JNI_INCLUDE) -I$(JNI_INCLUDE)/linux -o $@.$$$$ \
	  $(KIT_C)/prologin_rules_jni.c && mv -f $@.$$$$ $@

$(KIT_C)/libprologin_rules_pl.so: $(RULES_SRCS) $(KIT_C)/prologin_rules_pl.c
	$(CC) -O2 -fPIC -shared -I$(SWIPL_INCLUDE) -o $@.$$$$ $(KIT_C)/prologin_rules_pl.c && mv -f $@.$$$$ $@

$(KIT_C)/prologin_rules.node: $(RULES_SRCS) $(KIT_C)/prologin_rules_node.c
	$(CC) -O2 -fPIC -shared -I$(NODE_INCLUDE) -o $@.$$$$ $(KIT_C)/prologin_rules_node.c && mv -f $@.$$$$ $@

$(KIT_C)/prologin_rules_lua.so: $(RULES_SRCS) $(KIT_C)/prologin_rules_lua.c
	$(CC) -O2 -fPIC -shared -I$(LUA_INCLUDE) -o $@.$$$$ $(KIT_C)/prologin_rules_lua.c && mv -f $@.$$$$ $@

no-lua:
	@echo "rules_lib.mk: no lua.h (LUA_INCLUDE unset, none in /usr/include/lua5.4: apt-get install liblua5.4-dev): the Lua kit's rules module is not built; its rule calls stay round trips" >&2

no-node:
	@echo "rules_lib.mk: no node_api.h (NODE_INCLUDE unset, none in /usr/include/node): the JavaScript kit's rules addon is not built; its rule calls stay round trips" >&2

no-swipl:
	@echo "rules_lib.mk: no SWI-Prolog.h (no swipl on PATH, SWIPL_INCLUDE unset): the Prolog kit's rules library is not built; its rule calls stay round trips" >&2

no-jni:
	@echo "rules_lib.mk: no jni.h (no JDK's javac on PATH, JNI_INCLUDE unset): the Java kit's rules library is not built; its rule calls stay round trips" >&2

.PHONY: all no-jni no-swipl no-node no-lua
