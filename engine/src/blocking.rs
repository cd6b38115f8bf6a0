//! Rule 21, answered for every cell at once: which empty cells would, as an obstacle, cut
//! every road off from the outside of the map.
//!
//! Take the graph whose nodes are the empty cells plus two virtual nodes: `S` (the outside,
//! joined to every empty border cell) and `T` (the roads, joined to every empty cell that
//! touches a road). Rule 21 holds while `S` reaches `T` (or a border cell is a road). An
//! obstacle on an empty cell `c` breaks it exactly when every `S`-`T` path goes through `c`,
//! that is when `c` is an articulation point separating `S` from `T`. One depth-first search
//! from `S` with low-links (Tarjan) finds them all: walking up the DFS tree from `T`, a vertex
//! `c` with child `w` on that path separates them iff `low[w] >= disc[c]`. The whole set
//! costs one linear pass per board, so `construction_possible` is O(1) afterwards instead of
//! a flood fill per query.
//!
//! # Making the pass cheap
//!
//! No graph is built: the search walks a padded grid of the cells it looks at, with the
//! neighbours of a cell computed on the fly (`±1`, `±width`), `disc`/`low` as `u16`, and an
//! explicit stack of small frames. `T` is discovered the first time the search steps onto a
//! road cell; from then on every road cell carries `T`'s discovery time, so an edge to a road
//! is an ordinary back edge to `T`. The padding around the grid carries `S`'s discovery time
//! (1) for the same reason: an edge into the padding is an edge to `S`.
//!
//! **Only the box around the built area is searched.** Let `K` be a rectangle holding every
//! non-empty cell (`Board::extent`) and `B` = `K` grown by one cell on each side, clipped to
//! the map. Every cell outside `K` is empty; call `O` the cells outside `B`. Claims:
//!
//! 1. Every cell `d` of `O` reaches the border through `O`: `d` lies beyond one side of `B`
//!    (e.g. `x < B.x0`), and the straight line from `d` away from that side stays beyond it.
//!    So `O ∪ {S}` is connected, and stays connected without any single cell `c` of `O`: if
//!    `c` is on the line of `d`, step sideways to the parallel line (one of the two exists:
//!    the map is 100 wide) which is still beyond that side and misses `c`.
//! 2. No cell `c` of `O` separates `S` from `T`. Take an `S`-`T` path `P` (simple) through
//!    `c` and `v` its last vertex in `O ∪ {S}`; the rest of `P` after `v` lies in `B ∪ {T}`
//!    (the cells touching roads lie in `B`). If `v ≠ c`, `v` reaches `S` avoiding `c` (1).
//!    If `v = c`, the next vertex `w` is a cell of `B` next to `c`, so `w` lies on an
//!    unclipped side of `B`, in the outer ring `B \ K` (all empty). Along that side `w` has
//!    a neighbour `w'` (one of two) that is either outside `B` (so in `O`, and `≠ c`: `c`
//!    faces `w` across the side) or on the same ring, with its own neighbour across the side
//!    in `O` and `≠ c`. Either way `w` reaches `S` without `c`, then `T` along `P`.
//! 3. Contracting `O ∪ {S}` into `S` (connected by 1) preserves, for every cell `c` of `B`,
//!    whether `S` and `T` are connected in the graph without `c`: an `S`-`T` path maps to one
//!    of the contracted graph and back (`O ∪ {S}` minus `c` is still `O ∪ {S}`).
//!
//! So the search runs on the empty cells of `B` only, `S` being joined to every empty cell on
//! the edge of `B` (its neighbour across the edge is either off the map or in `O`): the
//! padding of the grid. Cells outside `B` never block. On a late-game board the box is a few
//! hundred to a few thousand cells instead of 10,000; on a map built out to its edges it is
//! the whole map and the pass is still one linear walk.
//!
//! **Roads built next to the network keep the answer** (`Board::set` does not recompute): a
//! road on an empty cell `r` that already touches a road merges `r` into `T`. For `c ≠ r`,
//! if `S` reached `T` without `c` before, the same path (cut where it meets `r`) reaches the
//! new `T`: non-blocking cells stay non-blocking. If `c` was blocking, the component of `S`
//! without `c` touched no road, so it held neither `r` (which touches a road) nor a
//! neighbour of `r` (it would reach `r`): the component is unchanged and touches no road of
//! the new board either, so `c` is still blocking. Likewise open stays open and closed stays
//! closed, and a border `r` needs no special case (before, `S`-`r`-`T` was a path, so at most
//! `r` itself was blocking). The new answer is the old one with `r` removed.

use crate::board::{Board, Kind, Pos, CELLS, SIZE};

const WORDS: usize = CELLS.div_ceil(64);
/// `disc` of walls (obstacles): never entered, and `min` with it changes nothing.
const WALL: u16 = u16::MAX;
/// `disc` of a road cell before `T` is discovered.
const ROAD_PENDING: u16 = u16::MAX - 1;
/// `disc` of `S`, the root (and of the padding, which stands for `S`).
const S_TIME: u16 = 1;

/// The cached answer of rule 21 for one board.
#[derive(Clone, Debug)]
pub(crate) struct Blocking {
    open: bool,
    /// One bit per cell, row-major; empty when no cell blocks.
    bits: Vec<u64>,
}

impl Blocking {
    #[inline]
    pub(crate) fn contains(&self, pos: Pos) -> bool {
        let i = pos.index();
        self.bits
            .get(i / 64)
            .is_some_and(|word| word >> (i % 64) & 1 != 0)
    }

    pub(crate) fn is_open(&self) -> bool {
        self.open
    }

    /// The answer after a road is built on the empty cell `pos` that already touches a road
    /// (see the module comment): the same, but for `pos` itself.
    pub(crate) fn road_extends_network(&mut self, pos: Pos) {
        let i = pos.index();
        if let Some(word) = self.bits.get_mut(i / 64) {
            *word &= !(1 << (i % 64));
        }
    }

    fn insert(&mut self, i: usize) {
        if self.bits.is_empty() {
            self.bits = vec![0; WORDS];
        }
        self.bits[i / 64] |= 1 << (i % 64);
    }

    fn none(open: bool) -> Blocking {
        Blocking {
            open,
            bits: Vec::new(),
        }
    }

    pub(crate) fn compute(board: &Board) -> Blocking {
        let cells = board.cells();
        let k = board.extent();
        if k.is_empty() {
            // No road at all: rule 21 is already broken (hand-made setups only).
            return Blocking::none(false);
        }
        let (x0, x1, y0, y1) = (
            usize::from(k.x0),
            usize::from(k.x1),
            usize::from(k.y0),
            usize::from(k.y1),
        );
        // A border road: every road is reachable through it, nothing blocks. Only the part of
        // the border inside `K` can hold one.
        let road = |x: usize, y: usize| cells[y * SIZE + x].kind == Kind::Route;
        let last = SIZE - 1;
        let border_road = (y0 == 0 && (x0..=x1).any(|x| road(x, 0)))
            || (y1 == last && (x0..=x1).any(|x| road(x, last)))
            || (x0 == 0 && (y0..=y1).any(|y| road(0, y)))
            || (x1 == last && (y0..=y1).any(|y| road(last, y)));
        if border_road {
            return Blocking::none(true);
        }
        // `B`: `K` grown by one, clipped; the grid is `B` plus one cell of padding around it.
        let (bx0, bx1) = (x0.saturating_sub(1), (x1 + 1).min(last));
        let (by0, by1) = (y0.saturating_sub(1), (y1 + 1).min(last));
        let width = bx1 - bx0 + 3;
        let height = by1 - by0 + 3;
        let n = width * height;
        let (t, s) = (n, n + 1);
        let to_cell = |p: usize| (p / width + by0 - 1) * SIZE + p % width + bx0 - 1;

        // `disc`: 0 for an empty cell not seen yet, `ROAD_PENDING` for a road until `T` is
        // discovered (`T`'s time after), `WALL` for an obstacle, `S_TIME` for the padding.
        let mut disc = vec![S_TIME; n + 2];
        let mut low = vec![0u16; n + 2];
        let mut roads: Vec<u32> = Vec::new();
        let box_width = bx1 - bx0 + 1;
        for y in by0..=by1 {
            let row = &cells[y * SIZE + bx0..=y * SIZE + bx1];
            let p0 = (y - by0 + 1) * width + 1;
            for (dx, cell) in row.iter().enumerate() {
                disc[p0 + dx] = match cell.kind {
                    Kind::Vide => 0,
                    Kind::Route => {
                        roads.push((p0 + dx) as u32);
                        ROAD_PENDING
                    }
                    _ => WALL,
                };
            }
        }
        if roads.is_empty() {
            return Blocking::none(false);
        }
        // `S`'s neighbours: the empty cells on the edge of `B` (corners twice, harmlessly).
        let edge = (1..=box_width)
            .flat_map(|x| [width + x, (height - 2) * width + x])
            .chain((1..height - 1).flat_map(|y| [y * width + 1, y * width + box_width]));
        let s_list: Vec<u32> = edge.filter(|&p| disc[p] == 0).map(|p| p as u32).collect();
        // `T`'s neighbours: the empty cells touching a road (repeats are harmless).
        let offsets = [width.wrapping_neg(), usize::MAX, 1, width];
        let mut t_list: Vec<u32> = Vec::with_capacity(roads.len() * 2);
        for &r in &roads {
            for off in offsets {
                let q = (r as usize).wrapping_add(off);
                if disc[q] == 0 {
                    t_list.push(q as u32);
                }
            }
        }

        // The iterative DFS from `S`. The node being explored is `v`; `state` is, for a cell,
        // the mask of the directions that were unvisited (or a pending road) when it was
        // entered, and for `T` or `S` the index of the next entry of its list. Back edges of
        // a cell are all taken into `low` when it is entered; a neighbour in the mask that
        // has been visited since is a descendant, which cannot lower `low`. The stack holds
        // the ancestors of `v` with their states.
        let mut stack: Vec<(u32, u32)> = Vec::with_capacity(n + 2);
        let mut path: Vec<u32> = Vec::new();
        let mut time = S_TIME;
        disc[s] = S_TIME;
        low[s] = S_TIME;
        let (mut v, mut state) = (s, 0u32);
        let mut t_found = false;
        loop {
            let mut child = None;
            if v < n {
                while state != 0 {
                    let dir = state.trailing_zeros() as usize;
                    state &= state - 1;
                    let q = v.wrapping_add(offsets[dir & 3]);
                    let dq = disc[q];
                    if dq == 0 || dq == ROAD_PENDING {
                        child = Some(q);
                        break;
                    }
                }
            } else {
                let list = if v == t { &t_list } else { &s_list };
                while let Some(&q) = list.get(state as usize) {
                    state += 1;
                    let dq = disc[q as usize];
                    if dq == 0 {
                        child = Some(q as usize);
                        break;
                    }
                    low[v] = low[v].min(dq);
                }
            }
            if let Some(q) = child {
                stack.push((v as u32, state));
                time += 1;
                if disc[q] == ROAD_PENDING {
                    // The first road seen: discover `T`, whose alias every road becomes.
                    t_found = true;
                    for &r in &roads {
                        disc[r as usize] = time;
                    }
                    disc[t] = time;
                    low[t] = time;
                    path.extend(stack.iter().map(|f| f.0));
                    (v, state) = (t, 0);
                } else {
                    disc[q] = time;
                    let mut low_q = time;
                    let mut mask = 0;
                    for (dir, off) in offsets.into_iter().enumerate() {
                        let dn = disc[q.wrapping_add(off)];
                        if dn == 0 || dn == ROAD_PENDING {
                            mask |= 1 << dir;
                        } else {
                            low_q = low_q.min(dn);
                        }
                    }
                    low[q] = low_q;
                    (v, state) = (q, mask);
                }
            } else {
                // `v` is finished.
                let Some((p, p_state)) = stack.pop() else {
                    break;
                };
                let p = p as usize;
                low[p] = low[p].min(low[v]);
                if p == s && t_found {
                    // The subtree holding `T` is finished: the lows on the path to `T` are
                    // final, the other children of `S` do not matter.
                    break;
                }
                (v, state) = (p, p_state);
            }
        }
        if !t_found {
            // Rule 21 is already broken (only in hand-made setups): nothing can break it more.
            return Blocking::none(false);
        }
        // `path` is `S`, c1, ..., cm, and `T` is the child of cm.
        let mut blocking = Blocking::none(true);
        for i in 1..path.len() {
            let c = path[i] as usize;
            let w = path.get(i + 1).map_or(t, |&w| w as usize);
            if low[w] >= disc[c] {
                blocking.insert(to_cell(c));
            }
        }
        blocking
    }
}

#[cfg(test)]
mod tests {
    //! The fast pass against a flood fill per cell, on boards placed anywhere on the map (so
    //! that the box of the search is clipped or not) and after sequences of changes, where
    //! roads built next to the network keep the cached answer.

    use super::*;
    use crate::board::Cell;
    use crate::player::Seat;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// The empty cells of a shortest walk from outside the map to a road that avoids
    /// `without`, or `None` if there is none (a flood fill).
    fn witness(board: &Board, without: Option<usize>) -> Option<Vec<usize>> {
        let cells = board.cells();
        let mut from = vec![usize::MAX; CELLS];
        let mut todo = std::collections::VecDeque::new();
        let walk = |from: &[usize], mut i: usize| {
            let mut walk = Vec::new();
            while i != CELLS {
                walk.push(i);
                i = from[i];
            }
            walk
        };
        for i in 0..CELLS {
            if Pos::from_index(i).is_border() && Some(i) != without {
                match cells[i].kind {
                    Kind::Route => return Some(Vec::new()),
                    Kind::Vide => {
                        from[i] = CELLS;
                        todo.push_back(i);
                    }
                    _ => {}
                }
            }
        }
        while let Some(i) = todo.pop_front() {
            for q in Pos::from_index(i).neighbours4() {
                let j = q.index();
                if from[j] != usize::MAX || Some(j) == without {
                    continue;
                }
                match cells[j].kind {
                    Kind::Route => return Some(walk(&from, i)),
                    Kind::Vide => {
                        from[j] = i;
                        todo.push_back(j);
                    }
                    _ => {}
                }
            }
        }
        None
    }

    fn check(board: &Board, context: &str) {
        let walk = witness(board, None);
        let open = walk.is_some();
        let mut expected = vec![false; CELLS];
        // Only a cell on every walk can block: test those of one walk.
        for &c in walk.iter().flatten() {
            expected[c] = witness(board, Some(c)).is_none();
        }
        assert_eq!(board.extent(), board.scanned_extent(), "extent: {context}");
        let fresh = Blocking::compute(board);
        assert_eq!(fresh.is_open(), open, "open: {context}");
        assert_eq!(board.is_open(), open, "open (cached): {context}");
        for (i, &expected) in expected.iter().enumerate() {
            let pos = Pos::from_index(i);
            assert_eq!(fresh.contains(pos), expected, "{pos:?}: {context}");
            if board.cells()[i].kind == Kind::Vide {
                assert_eq!(
                    board.is_blocking(pos),
                    expected,
                    "{pos:?} cached: {context}"
                );
            }
        }
    }

    fn obstacle(rng: &mut Pcg64) -> Cell {
        let kind = [Kind::Maison, Kind::Reservation][rng.gen_range(0..2)];
        Cell {
            kind,
            owner: Some(Seat(rng.gen_range(0..3))),
            monument: None,
        }
    }

    /// A random patch of obstacles and a random walk of roads in a `side`-square at a random
    /// place (often touching an edge or a corner of the map).
    fn random_board(rng: &mut Pcg64) -> Board {
        let mut board = Board::empty();
        let side = rng.gen_range(3..25);
        let max = (SIZE - side) as i32;
        let pick = |rng: &mut Pcg64| match rng.gen_range(0..4) {
            0 => 0,
            1 => max,
            _ => rng.gen_range(0..=max),
        };
        let (ox, oy) = (pick(rng), pick(rng));
        let density = rng.gen_range(0.3..0.75);
        for y in 0..side as i32 {
            for x in 0..side as i32 {
                if rng.gen_bool(density) {
                    let cell = obstacle(rng);
                    board.set(Pos::new(ox + x, oy + y).unwrap(), cell);
                }
            }
        }
        let (mut x, mut y) = (rng.gen_range(0..side as i32), rng.gen_range(0..side as i32));
        for _ in 0..rng.gen_range(1..20) {
            board.set(Pos::new(ox + x, oy + y).unwrap(), Cell::ROAD);
            match rng.gen_range(0..4) {
                0 => x = (x + 1).min(side as i32 - 1),
                1 => x = (x - 1).max(0),
                2 => y = (y + 1).min(side as i32 - 1),
                _ => y = (y - 1).max(0),
            }
        }
        board
    }

    #[test]
    fn fast_pass_equals_flood_fills_on_random_boards() {
        let mut rng = Pcg64::seed_from_u64(21);
        let (mut open, mut blocking) = (0, 0);
        for i in 0..500 {
            let board = random_board(&mut rng);
            check(&board, &format!("board {i}"));
            let b = Blocking::compute(&board);
            open += usize::from(b.is_open());
            blocking += usize::from(!b.bits.is_empty());
        }
        assert!(open > 50 && open < 500, "{open} open boards");
        assert!(blocking > 30, "{blocking} boards with blocking cells");
    }

    #[test]
    fn cached_answer_follows_random_changes() {
        let mut rng = Pcg64::seed_from_u64(2009);
        for game in 0..12 {
            let mut board = random_board(&mut rng);
            board.is_open();
            for step in 0..40 {
                // Mostly roads next to a road (the cache is kept), sometimes anything.
                let roads: Vec<usize> = (0..CELLS)
                    .filter(|&i| board.cells()[i].kind == Kind::Route)
                    .collect();
                let r = roads[rng.gen_range(0..roads.len())];
                let near: Vec<Pos> = Pos::from_index(r)
                    .neighbours4()
                    .filter(|&q| board.cell(q).kind == Kind::Vide)
                    .collect();
                match rng.gen_range(0..6) {
                    0..=3 if !near.is_empty() => {
                        board.set(near[rng.gen_range(0..near.len())], Cell::ROAD)
                    }
                    4 if !near.is_empty() => {
                        let cell = obstacle(&mut rng);
                        board.set(near[rng.gen_range(0..near.len())], cell)
                    }
                    _ => {
                        let p = Pos::from_index(rng.gen_range(0..CELLS));
                        if board.cell(p).kind != Kind::Route {
                            board.set(p, Cell::EMPTY);
                        }
                    }
                }
                check(&board, &format!("game {game}, step {step}"));
            }
        }
    }
}
