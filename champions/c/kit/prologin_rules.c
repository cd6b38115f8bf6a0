/* prologin_rules.c -- the board's rules that `distance`, `route_possible` and
 * `construction_possible` answer (docs/rules.md, rules 19 to 21 and section 6), computed
 * from the cached `etat`, so that these calls cost no round trip (2009's cost: a function
 * call inside the process; a champion such as 2009's `groopy` asks them 484,309 times in
 * one callback).
 *
 * Owns: rule 21 for every cell at once (which empty cells would, as an obstacle, cut every
 * road off from the outside of the map), computed once per change of the cached board by
 * one depth-first search with low-links, as the referee's engine does (engine/src/
 * blocking.rs: its module comment proves it); the 25x25 breadth-first search of
 * `distance`; the checks in the order of section 6. prologin_kit.c includes this file
 * after its cache (`kinds`, `owners`, `dirty`, `refresh`) and before the API functions.
 *
 * Built with -DPROLOGIN_CHECK_RULES (`make CFLAGS='-O2 -DPROLOGIN_CHECK_RULES'`), every
 * answer is also asked of the referee and a difference stops the champion, naming the
 * call and both answers: how the tests hold these rules equal to the referee's.
 */

#define KIND_AT(i) (kinds[i] - '0')
#define OWNER_AT(i) (owners[i] - '0')

/* Rule 21's answer for the cached board: one flag per cell, valid while `rules_board`
 * equals the cache's generation `board_generation`. */
static unsigned char blocking[CELLS];
static unsigned long rules_board = (unsigned long)-1;

/* The padded grid of the search: the map plus one cell of padding all around, which
 * stands for the outside `S`. */
#define GRID_W (TAILLE_CARTE + 2)
#define GRID_N (GRID_W * GRID_W)
#define NODE_T GRID_N
#define NODE_S (GRID_N + 1)
#define WALL 0xffff
#define ROAD_PENDING 0xfffe
#define S_TIME 1

static unsigned short disc[GRID_N + 2], low_link[GRID_N + 2];
static int road_list[CELLS], s_list[4 * TAILLE_CARTE], t_list[4 * CELLS];
static int stack_node[GRID_N + 2], stack_state[GRID_N + 2], path[GRID_N + 2];

static int grid_to_cell(int p) { return (p / GRID_W - 1) * TAILLE_CARTE + p % GRID_W - 1; }

/* Whether (x, y) is a road on the border of the map. */
static int border_road(int x, int y) {
  return KIND_AT(CELL(x, y)) == ROUTE &&
         (x == 0 || y == 0 || x == TAILLE_CARTE - 1 || y == TAILLE_CARTE - 1);
}

/* Fills `blocking` for the cached board (engine/src/blocking.rs, on the whole map). */
static void compute_blocking(void) {
  static const int offsets[4] = {-GRID_W, -1, 1, GRID_W};
  int x, y, i, n_roads = 0, n_s = 0, n_t = 0, depth = 0, n_path = 0, t_found = 0;
  int v, state;
  unsigned short time = S_TIME;
  memset(blocking, 0, sizeof blocking);
  for (y = 0; y < TAILLE_CARTE; y++)
    for (x = 0; x < TAILLE_CARTE; x++)
      if (border_road(x, y)) return; /* every road is reachable through it */
  for (i = 0; i < GRID_N + 2; i++) disc[i] = S_TIME;
  for (y = 0; y < TAILLE_CARTE; y++)
    for (x = 0; x < TAILLE_CARTE; x++) {
      int p = (y + 1) * GRID_W + x + 1, kind = KIND_AT(CELL(x, y));
      if (kind == VIDE) disc[p] = 0;
      else if (kind == ROUTE) disc[p] = ROAD_PENDING, road_list[n_roads++] = p;
      else disc[p] = WALL;
    }
  if (n_roads == 0) return; /* rule 21 already broken: nothing breaks it more */
  for (i = 0; i < TAILLE_CARTE; i++) {
    int edge[4] = {GRID_W + 1 + i, TAILLE_CARTE * GRID_W + 1 + i, (i + 1) * GRID_W + 1,
                   (i + 1) * GRID_W + TAILLE_CARTE};
    int k;
    for (k = 0; k < 4; k++)
      if (disc[edge[k]] == 0) s_list[n_s++] = edge[k];
  }
  for (i = 0; i < n_roads; i++) {
    int k;
    for (k = 0; k < 4; k++)
      if (disc[road_list[i] + offsets[k]] == 0) t_list[n_t++] = road_list[i] + offsets[k];
  }
  disc[NODE_S] = low_link[NODE_S] = S_TIME;
  v = NODE_S;
  state = 0;
  for (;;) {
    int child = -1;
    if (v < GRID_N) {
      while (state != 0) {
        int dir = __builtin_ctz((unsigned)state), q = v + offsets[dir];
        state &= state - 1;
        if (disc[q] == 0 || disc[q] == ROAD_PENDING) {
          child = q;
          break;
        }
      }
    } else {
      const int *list = v == NODE_T ? t_list : s_list;
      int len = v == NODE_T ? n_t : n_s;
      while (state < len) {
        int q = list[state++];
        if (disc[q] == 0) {
          child = q;
          break;
        }
        if (disc[q] < low_link[v]) low_link[v] = disc[q];
      }
    }
    if (child >= 0) {
      stack_node[depth] = v;
      stack_state[depth++] = state;
      time++;
      if (disc[child] == ROAD_PENDING) {
        /* The first road seen: `T` is discovered, and every road becomes its alias. */
        t_found = 1;
        for (i = 0; i < n_roads; i++) disc[road_list[i]] = time;
        disc[NODE_T] = low_link[NODE_T] = time;
        for (i = 0; i < depth; i++) path[n_path++] = stack_node[i];
        v = NODE_T;
        state = 0;
      } else {
        unsigned short low_q = time;
        int mask = 0, dir;
        disc[child] = time;
        for (dir = 0; dir < 4; dir++) {
          unsigned short dn = disc[child + offsets[dir]];
          if (dn == 0 || dn == ROAD_PENDING) mask |= 1 << dir;
          else if (dn < low_q) low_q = dn;
        }
        low_link[child] = low_q;
        v = child;
        state = mask;
      }
    } else {
      int p;
      if (depth == 0) break;
      p = stack_node[--depth];
      if (low_link[v] < low_link[p]) low_link[p] = low_link[v];
      if (p == NODE_S && t_found) break; /* the subtree holding `T` is finished */
      v = p;
      state = stack_state[depth];
    }
  }
  if (!t_found) return;
  /* `path` is S, c1, ..., cm, and `T` is the child of cm. */
  for (i = 1; i < n_path; i++) {
    int c = path[i], w = i + 1 < n_path ? path[i + 1] : NODE_T;
    if (low_link[w] >= disc[c]) blocking[grid_to_cell(c)] = 1;
  }
}

/* Rule 19: empty, or a reservation of yours (owner 0 is you). */
static int buildable(int i) {
  return KIND_AT(i) == VIDE || (KIND_AT(i) == RESERVATION && OWNER_AT(i) == 0);
}

/* Rule 20: a road among the 4 (or, with `diagonals`, 8) neighbours of (x, y). */
static int touches_road(int x, int y, int diagonals) {
  int dx, dy;
  for (dy = -1; dy <= 1; dy++)
    for (dx = -1; dx <= 1; dx++) {
      if ((dx == 0 && dy == 0) || (!diagonals && dx != 0 && dy != 0)) continue;
      if (ON_MAP(x + dx, y + dy) && KIND_AT(CELL(x + dx, y + dy)) == ROUTE) return 1;
    }
  return 0;
}

static int rule_route_possible(int x, int y) {
  if (!ON_MAP(x, y)) return HORS_TERRAIN;
  if (dirty) refresh();
  if (!buildable(CELL(x, y))) return CASE_OCCUPEE;
  if (!touches_road(x, y, 0)) return NON_CONNEXE;
  return SUCCES;
}

static int rule_construction_possible(int x, int y) {
  int i;
  if (!ON_MAP(x, y)) return HORS_TERRAIN;
  if (dirty) refresh();
  i = CELL(x, y);
  if (!buildable(i)) return CASE_OCCUPEE;
  if (rules_board != board_generation) {
    compute_blocking();
    rules_board = board_generation;
  }
  if (KIND_AT(i) == VIDE && blocking[i]) return BLOCAGE;
  if (!touches_road(x, y, 1)) return NON_CONNEXE;
  return SUCCES;
}

/* Whether you may walk on cell i: empty, a road, or a reservation of yours. */
static int passable(int i) {
  int kind = KIND_AT(i);
  return kind == VIDE || kind == ROUTE || (kind == RESERVATION && OWNER_AT(i) == 0);
}

#define REACH MAX_DISTANCE
#define SIDE (2 * REACH + 1)

static int rule_distance(int x1, int y1, int x2, int y2) {
  static int queue[SIDE * SIDE];
  unsigned char seen[SIDE * SIDE];
  unsigned char dist[SIDE * SIDE];
  int head = 0, tail = 0;
  if (!ON_MAP(x1, y1) || !ON_MAP(x2, y2)) return HORS_TERRAIN;
  if (dirty) refresh();
  if (abs(x1 - x2) + abs(y1 - y2) > MAX_DISTANCE || !passable(CELL(x1, y1)) ||
      !passable(CELL(x2, y2)))
    return TROP_LOIN;
  memset(seen, 0, sizeof seen);
  /* Window coordinates: (x - x1 + REACH, y - y1 + REACH). */
  seen[REACH * SIDE + REACH] = 1;
  dist[REACH * SIDE + REACH] = 0;
  queue[tail++] = REACH * SIDE + REACH;
  while (head < tail) {
    static const int dx[4] = {0, -1, 1, 0}, dy[4] = {-1, 0, 0, 1};
    int w = queue[head++], wx = w % SIDE, wy = w / SIDE, k;
    int x = wx - REACH + x1, y = wy - REACH + y1;
    if (x == x2 && y == y2) return dist[w];
    if (dist[w] == MAX_DISTANCE) continue;
    for (k = 0; k < 4; k++) {
      int nx = wx + dx[k], ny = wy + dy[k], q;
      if (nx < 0 || nx >= SIDE || ny < 0 || ny >= SIDE) continue;
      q = ny * SIDE + nx;
      if (seen[q] || !ON_MAP(x + dx[k], y + dy[k]) || !passable(CELL(x + dx[k], y + dy[k])))
        continue;
      seen[q] = 1;
      dist[q] = dist[w] + 1;
      queue[tail++] = q;
    }
  }
  return TROP_LOIN;
}
