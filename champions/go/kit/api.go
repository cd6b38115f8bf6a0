// The API of "La loi du plus riche" (Prologin 2009 final), Go kit: the 26 functions with
// the 2009 names in Go's form (construire_route -> ConstruireRoute), the constants
// (constants.go) with their 2009 names. The champion is package main and defines the five
// callbacks InitGame, Jouer, Enchere, Placement, EndGame (all five: Go has no optional
// functions; the template has them empty). Rules and error codes: docs/rules.md section 6.
//
// Owns: the protocol streams, the state cache (one `etat` per callback and after each
// successful action) and the local argument checks. main.go runs the loop; Distance,
// RoutePossible and ConstructionPossible are the C kit's rules (rules.go), answered from
// the cached board without a round trip.

package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

var (
	protoIn   *bufio.Reader
	protoOut  *bufio.Writer
	callback  = "(none)"
	dirty     = true
	figures   [16]int
	kinds     []byte
	owners    []byte
	monuments []byte
	values    []byte
)

// kitFail: the conversation with the referee broke down; say so and exit at once.
func kitFail(format string, args ...interface{}) {
	os.Stdout.Sync()
	fmt.Fprintf(os.Stderr, "prologin kit (Go): error in %s: %s\n", callback, fmt.Sprintf(format, args...))
	os.Exit(2)
}

func kitSend(text string) {
	if _, err := protoOut.WriteString(text); err != nil {
		kitFail("writing to the referee: %v", err)
	}
	if err := protoOut.Flush(); err != nil {
		kitFail("writing to the referee: %v", err)
	}
}

// kitReadLine returns the next line without its end, and false at end of file.
func kitReadLine() ([]byte, bool) {
	line, err := protoIn.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// Longer than the buffer: gather the rest.
		full := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = protoIn.ReadSlice('\n')
			full = append(full, line...)
		}
		line = full
	}
	if err != nil && len(line) == 0 {
		return nil, false
	}
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
	}
	if n > 0 && line[n-1] == '\r' {
		n--
	}
	return line[:n], true
}

func kitExpect(what string) []byte {
	line, ok := kitReadLine()
	if !ok {
		kitFail("the referee closed the connection while we waited for `%s`", what)
	}
	return line
}

func kitParse(field []byte, what string) int {
	v, err := strconv.ParseInt(string(field), 10, 32)
	if err != nil {
		kitFail("unparsable answer `%.60s` to `%s`: expected an integer", field, what)
	}
	return int(v)
}

func kitAsk(request string) int {
	kitSend(request + "\n")
	return kitParse(kitExpect(request), request)
}

func kitAct(request string) int {
	r := kitAsk(request)
	if r == SUCCES {
		dirty = true
	}
	return r
}

func kitRefresh() {
	kitSend("etat\n")
	line := kitExpect("etat")
	field, start := 0, 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) && line[i] != ' ' {
			continue
		}
		if field < 16 {
			figures[field] = kitParse(line[start:i], "etat")
		} else if field < 20 {
			if i-start != 10000 {
				kitFail("unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters")
			}
			s := append([]byte(nil), line[start:i]...)
			switch field {
			case 16:
				kinds = s
			case 17:
				owners = s
			case 18:
				monuments = s
			default:
				values = s
			}
		}
		field++
		start = i + 1
	}
	if field != 20 {
		kitFail("unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters")
	}
	kitRulesBoard()
	dirty = false
}

func figure(i int) int {
	if dirty {
		kitRefresh()
	}
	return figures[i]
}

func cell(x, y int) int {
	if x < 0 || x >= TAILLE_CARTE || y < 0 || y >= TAILLE_CARTE {
		return -1
	}
	if dirty {
		kitRefresh()
	}
	return y*TAILLE_CARTE + x
}

// Information functions.

func TypeCase(x, y int) int {
	if i := cell(x, y); i >= 0 {
		return int(kinds[i]) - '0'
	}
	return HORS_TERRAIN
}

func ValeurCase(x, y int) int {
	if i := cell(x, y); i >= 0 {
		return int(values[i]) - 64
	}
	return HORS_TERRAIN
}

func Appartenance(x, y int) int {
	if i := cell(x, y); i >= 0 {
		return int(owners[i]) - '0'
	}
	return HORS_TERRAIN
}

func TypeMonument(x, y int) int {
	i := cell(x, y)
	if i < 0 {
		return HORS_TERRAIN
	}
	if monuments[i] == '.' {
		return PAS_DE_MONUMENT
	}
	return int(monuments[i]) - 'a'
}

func PorteeMonument(num_monument int) int {
	if num_monument < 0 || num_monument >= MAX_MONUMENTS {
		return PAS_DE_MONUMENT
	}
	return portee[num_monument]
}

func PrestigeMonument(num_monument int) int {
	if num_monument < 0 || num_monument >= MAX_MONUMENTS {
		return PAS_DE_MONUMENT
	}
	return prestige[num_monument]
}

func NumeroTour() int { return figure(0) }

func Commence() int { return figure(2) }

func MontantEncheres(num_joueur int) int {
	if num_joueur < 0 || num_joueur > 2 {
		return JOUEUR_INCORRECT
	}
	return figure(13 + num_joueur)
}

func VainqueurEncheres() int { return figure(4) }

// Score is the player's houses' worth, money excluded: not the final score (rule 9).
func Score(num_joueur int) int {
	if num_joueur < 0 || num_joueur > 2 {
		return JOUEUR_INCORRECT
	}
	return figure(10 + num_joueur)
}

func Finances(num_joueur int) int {
	if num_joueur < 0 || num_joueur > 2 {
		return JOUEUR_INCORRECT
	}
	return figure(7 + num_joueur)
}

func MonumentEnCours() int { return figure(3) }

func Distance(x1, y1, x2, y2 int) int {
	if dirty {
		kitRefresh()
	}
	return kitRulesDistance(x1, y1, x2, y2)
}

func RoutePossible(x, y int) int {
	if dirty {
		kitRefresh()
	}
	return kitRulesRoutePossible(x, y)
}

func ConstructionPossible(x, y int) int {
	if dirty {
		kitRefresh()
	}
	return kitRulesConstructionPossible(x, y)
}

func CoutAchatMaison() int { return figure(5) }

func CoutAchatRoute() int { return figure(6) }

// MonTour is 1 in your own turn, else 0 (rule 16).
func MonTour() int { return figure(1) }

// Actions.

func ConstruireRoute(x, y int) int {
	return kitAct(fmt.Sprintf("construire_route %d %d", arg(x), arg(y)))
}

func ConstruireMaison(x, y int) int {
	return kitAct(fmt.Sprintf("construire_maison %d %d", arg(x), arg(y)))
}

func ReserverCase(x, y int) int {
	return kitAct(fmt.Sprintf("reserver_case %d %d", arg(x), arg(y)))
}

func DetruireMaison(x, y int) int {
	return kitAct(fmt.Sprintf("detruire_maison %d %d", arg(x), arg(y)))
}

func VendreMaison(x, y int) int {
	return kitAct(fmt.Sprintf("vendre_maison %d %d", arg(x), arg(y)))
}

func Encherir(montant int) int {
	return kitAct(fmt.Sprintf("encherir %d", arg(montant)))
}

func ConstruireMonument(x, y int) int {
	return kitAct(fmt.Sprintf("construire_monument %d %d", arg(x), arg(y)))
}

// arg: an int as the wire's signed 32-bit integer (the API's `int`); clamping keeps every
// answer (a coordinate stays off the map, a bid unaffordable or negative).
func arg(v int) int {
	if v < -2147483648 {
		return -2147483648
	}
	if v > 2147483647 {
		return 2147483647
	}
	return v
}
