// sample: a Go champion that plays sensibly: roads and houses near the town hall, a bid
// on a good monument, the monument placed among its own houses (a bad one among the
// others'). Random choices are seeded from PROLOGIN_SEED: a match replays identically.

package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
)

const centre = TAILLE_CARTE / 2 // the town hall's road, (50, 50)

var state int64 = 1

// rand is Park-Miller: the same sequence in every kit's sample.
func rand(n int) int {
	state = state * 48271 % 2147483647
	return int(state % int64(n))
}

type cellT struct{ x, y, gain int }

func (c cellT) near() int  { return abs(c.x-centre) + abs(c.y-centre) }
func (c cellT) index() int { return c.y*TAILLE_CARTE + c.x }
func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// candidates: empty cells with a road among their 4 (or 8) neighbours, row after row.
func candidates(diagonals bool) []cellT {
	var found []cellT
	for y := 0; y < TAILLE_CARTE; y++ {
		for x := 0; x < TAILLE_CARTE; x++ {
			if TypeCase(x, y) != VIDE {
				continue
			}
			road := false
			for dy := -1; dy <= 1 && !road; dy++ {
				for dx := -1; dx <= 1 && !road; dx++ {
					if (dx == 0 && dy == 0) || (!diagonals && dx != 0 && dy != 0) {
						continue
					}
					road = TypeCase(x+dx, y+dy) == ROUTE
				}
			}
			if road {
				found = append(found, cellT{x: x, y: y})
			}
		}
	}
	return found
}

// sortBy sorts cells by key, then nearness to the town hall, then position.
func sortBy(cells []cellT, key func(cellT) int) {
	sort.SliceStable(cells, func(i, j int) bool {
		a, b := cells[i], cells[j]
		if key(a) != key(b) {
			return key(a) < key(b)
		}
		if a.near() != b.near() {
			return a.near() < b.near()
		}
		return a.index() < b.index()
	})
}

func InitGame() {
	seed := os.Getenv("PROLOGIN_SEED")
	if seed == "" {
		seed = "1"
	}
	if len(seed) > 9 {
		seed = seed[len(seed)-9:]
	}
	s, _ := strconv.ParseInt(seed, 10, 64)
	state = s%2147483646 + 1
	fmt.Println("sample (Go): first player", Commence())
}

func Jouer() {
	if MonTour() == 0 {
		return
	}
	roads := candidates(false)
	sortBy(roads, func(cellT) int { return 0 })
	if len(roads) > 0 && CoutAchatRoute() <= Finances(0) {
		n := len(roads)
		if n > 4 {
			n = 4
		}
		c := roads[rand(n)]
		ConstruireRoute(c.x, c.y)
	}
	for built := 0; built < 2 && CoutAchatMaison() <= Finances(0); built++ {
		houses := candidates(true)
		sortBy(houses, func(c cellT) int { return -ValeurCase(c.x, c.y) })
		ok := false
		for k := 0; k < len(houses) && k < 3 && !ok; k++ {
			ok = ConstruireMaison(houses[k].x, houses[k].y) == SUCCES
		}
		if !ok {
			break
		}
	}
}

func Enchere() {
	m := MonumentEnCours()
	if m == PAS_DE_MONUMENT || PrestigeMonument(m) <= 0 {
		return
	}
	bid := PrestigeMonument(m) - 1 + rand(2)
	if f := Finances(0); f < bid {
		bid = f
	}
	if bid > 0 {
		Encherir(bid)
	}
}

func Placement() {
	m := MonumentEnCours()
	r := PorteeMonument(m)
	sign := 1
	if PrestigeMonument(m) < 0 {
		sign = -1
	}
	cells := candidates(true)
	// Our houses in range count for a good monument, the others' for a bad one.
	for k := range cells {
		c := &cells[k]
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if TypeCase(c.x+dx, c.y+dy) != MAISON {
					continue
				}
				if Appartenance(c.x+dx, c.y+dy) == 0 {
					c.gain += sign
				} else {
					c.gain -= sign
				}
			}
		}
	}
	sortBy(cells, func(c cellT) int { return -c.gain })
	for k := 0; k < len(cells) && k < 10; k++ {
		if ConstruireMonument(cells[k].x, cells[k].y) == SUCCES {
			return
		}
	}
}

func EndGame() {
	fmt.Println("sample (Go) end: money", Finances(0), "houses", Score(0))
}
