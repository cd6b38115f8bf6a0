// prologin.hh -- the API of "La loi du plus riche" (Prologin 2009 final), C++ kit.
//
// The header the 2009 C++ skeletons include: write `#include "prologin.hh"` and define
// `void init_game()`, `void jouer()`, `void enchere()`, `void placement()`,
// `void end_game()` in prologin.cc; a callback you do not write does nothing. The API
// and the constants are those of the C kit (prologin.h): same names, `int` arguments and
// results; `mon_tour()` returns 1 or 0, usable as a bool (`if (mon_tour() == false)`).
// The rules, and every function with its error codes in the order they are checked, are
// in docs/rules.md (rule N, section 6).
// The callbacks are declared extern "C" here, so your plain definitions get C linkage and
// the C kit's main() finds them. std::cout and printf go to stderr (the log).
#ifndef PROLOGIN_HH
#define PROLOGIN_HH

#include "prologin.h"

#endif // PROLOGIN_HH
