// The board's rules (rules 19 to 21) of the Go kit: the C kit's (prologin_rules_lib.c,
// one implementation for every kit), called through cgo. go.mk copies the C kit's files
// into the build's folder `c/`; the board is given to them at each fill of the cache.
//
// Owns: the cgo bindings of Distance, RoutePossible and ConstructionPossible.

package main

// #cgo CFLAGS: -O2 -I${SRCDIR}/c
// #include "c/prologin_rules_lib.c"
import "C"

import "unsafe"

// kitRulesBoard gives the rules the board just cached (the kinds and owners of `etat`).
func kitRulesBoard() {
	C.prologin_rules_board((*C.char)(unsafe.Pointer(&kinds[0])), (*C.char)(unsafe.Pointer(&owners[0])))
}

// kitCInt is an argument as C's int: the wire's clamp (arg) fits it.
func kitCInt(v int) C.int { return C.int(arg(v)) }

func kitRulesDistance(x1, y1, x2, y2 int) int {
	return int(C.prologin_rules_distance(kitCInt(x1), kitCInt(y1), kitCInt(x2), kitCInt(y2)))
}

func kitRulesRoutePossible(x, y int) int {
	return int(C.prologin_rules_route_possible(kitCInt(x), kitCInt(y)))
}

func kitRulesConstructionPossible(x, y int) int {
	return int(C.prologin_rules_construction_possible(kitCInt(x), kitCInt(y)))
}
