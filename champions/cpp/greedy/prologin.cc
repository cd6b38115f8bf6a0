// greedy: a C++ champion that takes the best-looking move each time.
//
// Phase I: houses on the most valuable free cells next to a road, roads toward open
// space. Phase II: bids a share of what the best placement of the monument would gain
// it. Phase III: positive monuments over its own houses, negative ones over rivals'.
#include "prologin.hh"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <vector>

namespace {

const int N = TAILLE_CARTE;

struct Board {
  int kind[N][N];
  int owner[N][N];
  int value[N][N];

  void load() {
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) {
        kind[y][x] = type_case(x, y);
        owner[y][x] = appartenance(x, y);
        value[y][x] = valeur_case(x, y);
      }
  }
  bool on(int x, int y) const { return x >= 0 && x < N && y >= 0 && y < N; }
  bool free_cell(int x, int y) const {
    return on(x, y) && (kind[y][x] == VIDE || (kind[y][x] == RESERVATION && owner[y][x] == 0));
  }
  bool road_near(int x, int y, bool diagonals) const {
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || (!diagonals && dx != 0 && dy != 0)) continue;
        if (on(x + dx, y + dy) && kind[y + dy][x + dx] == ROUTE) return true;
      }
    return false;
  }
  // Free cells around (x, y) that no road touches yet: house spots a road there opens.
  int new_spots(int x, int y) const {
    int n = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if ((dx || dy) && free_cell(x + dx, y + dy) && !road_near(x + dx, y + dy, true)) ++n;
    return n;
  }
};

Board board;

struct Spot {
  int gain, x, y;
  bool operator<(const Spot &o) const { return gain > o.gain; }  // best first
};

// Houses: the most valuable free cells touching a road; ties go to open surroundings.
std::vector<Spot> house_spots() {
  std::vector<Spot> spots;
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      if (board.free_cell(x, y) && board.road_near(x, y, true))
        spots.push_back({board.value[y][x] * 16 + board.new_spots(x, y), x, y});
  std::sort(spots.begin(), spots.end());
  return spots;
}

// Roads: free cells 4-next to a road that open the most new house spots.
std::vector<Spot> road_spots() {
  std::vector<Spot> spots;
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      if (board.free_cell(x, y) && board.road_near(x, y, false)) {
        int gain = board.new_spots(x, y) * 4 + std::max(board.value[y][x], 0);
        spots.push_back({gain, x, y});
      }
  std::sort(spots.begin(), spots.end());
  return spots;
}

// Tries the best spots in order with `build`; returns true on the first success.
template <class Build>
bool build_best(const std::vector<Spot> &spots, Build build, int tries = 12) {
  for (const Spot &s : spots) {
    if (tries-- == 0) break;
    if (build(s.x, s.y) == SUCCES) return true;
  }
  return false;
}

bool build_house() {
  int price = cout_achat_maison();
  if (price == INFINI || price > finances(0)) return false;
  board.load();
  return build_best(house_spots(), construire_maison);
}

bool build_road() {
  if (cout_achat_route() > finances(0)) return false;
  board.load();
  return build_best(road_spots(), construire_route);
}

// What placing monument `m` at each candidate cell is worth to us: our houses' worth
// gained minus half the rivals'.
std::vector<Spot> monument_spots(int m) {
  int prestige = prestige_monument(m), range = portee_monument(m);
  std::vector<Spot> spots;
  board.load();
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x) {
      if (!board.free_cell(x, y) || !board.road_near(x, y, true)) continue;
      int gain = 0;
      for (int yy = std::max(0, y - range); yy <= std::min(N - 1, y + range); ++yy)
        for (int xx = std::max(0, x - range); xx <= std::min(N - 1, x + range); ++xx) {
          if (board.kind[yy][xx] != MAISON) continue;
          int before = std::max(board.value[yy][xx] + 1, 0);
          int after = std::max(board.value[yy][xx] + prestige + 1, 0);
          int owner = board.owner[yy][xx];
          if (owner == 0) gain += 2 * (after - before);
          else if (owner != MAIRIE) gain -= after - before;
        }
      spots.push_back({gain, x, y});
    }
  std::sort(spots.begin(), spots.end());
  return spots;
}

}  // namespace

void init_game() {
  std::cout << "greedy: ready, first player is " << commence() << std::endl;
}

void jouer() {
  if (mon_tour() == false) return;
  build_house();                 // free
  build_road();                  // free
  if (finances(0) >= 2) build_house();  // costs 1, brings a road
  build_road();
  for (int extra = 0; extra < 4 && finances(0) > 6 && build_road(); ++extra) {
  }
}

void enchere() {
  if (!mon_tour()) return;
  int m = monument_en_cours();
  std::vector<Spot> spots = monument_spots(m);
  int best = spots.empty() ? 0 : spots.front().gain / 2;  // gain counts ours twice
  int bid = std::min(std::max(best * 2 / 3, 0), finances(0) / 2);
  encherir(bid);
}

void placement() {
  if (!mon_tour()) return;
  build_best(monument_spots(monument_en_cours()), construire_monument, 30);
}

void end_game() {
  std::printf("greedy: money %d + houses %d; rivals %d+%d, %d+%d\n", finances(0), score(0),
              finances(1), score(1), finances(2), score(2));
}
