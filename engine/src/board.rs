//! The 100x100 map: cell kinds, owners, monuments, and the cell values they make (rules 1-8).

use crate::blocking::Blocking;
use crate::monument::MONUMENTS;
use crate::player::Seat;
use serde::{Deserialize, Serialize};
use std::cell::OnceCell;
use std::sync::Arc;

/// Width and height of the map, as a `usize`.
pub const SIZE: usize = 100;
/// Number of cells.
pub const CELLS: usize = SIZE * SIZE;

/// What stands on a cell; the discriminants are the API's constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    Vide = 0,
    Maison = 1,
    Reservation = 2,
    Monument = 3,
    Route = 4,
}

/// The owner of a house or reservation; `None` is the town hall (`MAIRIE`).
pub type Owner = Option<Seat>;

/// One cell of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// What stands on the cell (`type_case`).
    pub kind: Kind,
    /// The player owning the house or reservation; `None` for everything else.
    pub owner: Owner,
    /// The monument id on a `Monument` cell.
    pub monument: Option<u8>,
}

impl Cell {
    /// An empty cell.
    pub const EMPTY: Cell = Cell {
        kind: Kind::Vide,
        owner: None,
        monument: None,
    };
    /// A road.
    pub const ROAD: Cell = Cell {
        kind: Kind::Route,
        owner: None,
        monument: None,
    };
}

/// A position on the map, checked to be on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// The column, `0..100` (rule 1).
    pub x: u8,
    /// The row, `0..100`.
    pub y: u8,
}

impl Pos {
    /// The position `(x, y)` if it is on the map.
    #[inline]
    pub fn new(x: i32, y: i32) -> Option<Pos> {
        let on = |v: i32| (0..SIZE as i32).contains(&v);
        (on(x) && on(y)).then_some(Pos {
            x: x as u8,
            y: y as u8,
        })
    }

    /// Index into row-major cell arrays: `y * 100 + x`.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.y) * SIZE + usize::from(self.x)
    }

    /// The position of a row-major index.
    pub fn from_index(i: usize) -> Pos {
        Pos {
            x: (i % SIZE) as u8,
            y: (i / SIZE) as u8,
        }
    }

    /// Whether the cell lies on the edge of the map.
    pub fn is_border(self) -> bool {
        self.x == 0 || self.y == 0 || self.x as usize == SIZE - 1 || self.y as usize == SIZE - 1
    }

    /// The on-map 4-neighbours: up, left, right, down.
    pub fn neighbours4(self) -> impl Iterator<Item = Pos> {
        NEIGHBOURS4.into_iter().filter_map(move |d| self.step(d))
    }

    /// The on-map 8-neighbours, row by row from the top-left one.
    pub fn neighbours8(self) -> impl Iterator<Item = Pos> {
        NEIGHBOURS8.into_iter().filter_map(move |d| self.step(d))
    }

    /// The position one step `(dx, dy)` away, if it is on the map (a coordinate below 0
    /// wraps to 255, off the map too).
    fn step(self, (dx, dy): (i8, i8)) -> Option<Pos> {
        let (x, y) = (
            self.x.wrapping_add_signed(dx),
            self.y.wrapping_add_signed(dy),
        );
        (usize::from(x) < SIZE && usize::from(y) < SIZE).then_some(Pos { x, y })
    }
}

/// The steps to the 4-neighbours, in the order [`Pos::neighbours4`] gives them.
const NEIGHBOURS4: [(i8, i8); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
/// The steps to the 8-neighbours, in the order [`Pos::neighbours8`] gives them.
const NEIGHBOURS8: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// A rectangle of cells, inclusive bounds; empty when `x0 > x1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Extent {
    pub(crate) x0: u8,
    pub(crate) x1: u8,
    pub(crate) y0: u8,
    pub(crate) y1: u8,
}

impl Extent {
    const EMPTY: Extent = Extent {
        x0: u8::MAX,
        x1: 0,
        y0: u8::MAX,
        y1: 0,
    };

    pub(crate) fn is_empty(self) -> bool {
        self.x0 > self.x1
    }

    /// Whether `pos` lies on the outline of the rectangle (the only cells whose emptying
    /// can shrink it).
    fn on_edge(self, pos: Pos) -> bool {
        !self.is_empty()
            && (pos.x == self.x0 || pos.x == self.x1 || pos.y == self.y0 || pos.y == self.y1)
    }

    fn include(&mut self, pos: Pos) {
        self.x0 = self.x0.min(pos.x);
        self.x1 = self.x1.max(pos.x);
        self.y0 = self.y0.min(pos.y);
        self.y1 = self.y1.max(pos.y);
    }
}

/// The map. Values (`valeur_case`) are kept up to date as monuments are built; the set of
/// cells where an obstacle would break rule 21 is computed once per board and cached.
///
/// Cloning is cheap: cells and values are shared (`Arc`) between copies until one of them
/// writes (`Arc::make_mut`), so the three Phase II views of rule 12 cost three reference
/// counts, and a full copy of the cells only for a view where a house is sold.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(
    into = "crate::snapshot::BoardText",
    try_from = "crate::snapshot::BoardText"
)]
pub struct Board {
    cells: Arc<[Cell]>,
    values: Arc<[i8]>,
    /// The roads, one bit per cell, padded by an empty ring: bit `x + 1` of word `y + 1`
    /// is the cell `(x, y)` (kept with `cells` by [`Board::set`]), so that the 3x3 window
    /// around any cell is three words shifted right by `x`, with no test for the map's
    /// edges.
    roads: Arc<[u128; SIZE + 2]>,
    /// The smallest rectangle holding every non-empty cell (grown as cells are built,
    /// shrunk when a cell on its outline is emptied). Rule 21 restricts its search to it
    /// (see `blocking.rs`).
    extent: Extent,
    blocking: OnceCell<Blocking>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.cells == other.cells
    }
}
impl Eq for Board {}

impl Default for Board {
    /// The board of rule 1: empty but for a road at (50, 50).
    fn default() -> Board {
        let mut board = Board::empty();
        board.set(Pos { x: 50, y: 50 }, Cell::ROAD);
        board
    }
}

impl Board {
    /// A board with no road at all (for test setups).
    pub fn empty() -> Board {
        Board {
            cells: vec![Cell::EMPTY; CELLS].into(),
            values: vec![0; CELLS].into(),
            roads: Arc::new([0; SIZE + 2]),
            extent: Extent::EMPTY,
            blocking: OnceCell::new(),
        }
    }

    /// A board from rows of text, top-left at (0, 0), the rest of the map empty:
    /// `.` empty, `R` road, `H` a town-hall house, `A`/`B`/`C` houses of seats 0/1/2,
    /// `a`/`b`/`c` reservations of seats 0/1/2, `0`..`9` monuments 0..9 (use
    /// [`Board::build_monument`] for the others).
    ///
    /// ```
    /// use engine::{Board, Pos, Kind};
    /// let board = Board::from_rows(&["R.", ".A"]);
    /// assert_eq!(board.cell(Pos { x: 1, y: 1 }).kind, Kind::Maison);
    /// ```
    pub fn from_rows(rows: &[&str]) -> Board {
        let mut board = Board::empty();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let pos = Pos::new(x as i32, y as i32).expect("row inside the map");
                let seat = |base: char| Some(Seat(c as u8 - base as u8));
                match c {
                    '.' => {}
                    'R' => board.set(pos, Cell::ROAD),
                    'H' => board.set(
                        pos,
                        Cell {
                            kind: Kind::Maison,
                            owner: None,
                            monument: None,
                        },
                    ),
                    'A'..='C' => board.set(
                        pos,
                        Cell {
                            kind: Kind::Maison,
                            owner: seat('A'),
                            monument: None,
                        },
                    ),
                    'a'..='c' => board.set(
                        pos,
                        Cell {
                            kind: Kind::Reservation,
                            owner: seat('a'),
                            monument: None,
                        },
                    ),
                    '0'..='9' => board.build_monument(pos, c as u8 - b'0'),
                    other => panic!("unknown cell character {other:?} in board rows"),
                }
            }
        }
        board
    }

    /// The cell at `pos`.
    #[inline]
    pub fn cell(&self, pos: Pos) -> Cell {
        self.cells[pos.index()]
    }

    /// `valeur_case`: the sum of the prestiges of the built monuments in range (rule 7).
    pub fn value(&self, pos: Pos) -> i32 {
        i32::from(self.values[pos.index()])
    }

    /// The worth of a house on `pos` (rule 8): `max(value + 1, 0)`.
    pub fn worth(&self, pos: Pos) -> i32 {
        worth_of_value(self.value(pos))
    }

    /// Every cell, row-major.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Replace a cell (no rule is checked). Building a monument goes through
    /// [`Board::build_monument`] so that values follow.
    pub fn set(&mut self, pos: Pos, cell: Cell) {
        let i = pos.index();
        let old = self.cells[i];
        if old == cell {
            return;
        }
        if old.kind != cell.kind {
            if cell.kind != Kind::Vide {
                self.extent.include(pos);
            }
            // A road on an empty cell that already touches a road (as every road built
            // through the API does) keeps the rule 21 answer but for that cell itself: see
            // `Blocking::road_extends_network`. Any other change of kind recomputes it.
            let extends =
                old.kind == Kind::Vide && cell.kind == Kind::Route && self.touches_road(pos, false);
            match self.blocking.get_mut() {
                Some(blocking) if extends => blocking.road_extends_network(pos),
                _ => self.blocking = OnceCell::new(),
            }
        }
        Arc::make_mut(&mut self.cells)[i] = cell;
        if (old.kind == Kind::Route) != (cell.kind == Kind::Route) {
            Arc::make_mut(&mut self.roads)[usize::from(pos.y) + 1] ^= 2 << pos.x;
        }
        if old.kind != Kind::Vide && cell.kind == Kind::Vide && self.extent.on_edge(pos) {
            self.shrink_extent();
        }
    }

    /// Move each side of the extent inwards while its outermost row or column is empty.
    fn shrink_extent(&mut self) {
        let mut e = self.extent;
        let full =
            |x: u8, y: u8| self.cells[usize::from(y) * SIZE + usize::from(x)].kind != Kind::Vide;
        while e.y0 <= e.y1 && !(e.x0..=e.x1).any(|x| full(x, e.y0)) {
            e.y0 += 1;
        }
        if e.y0 > e.y1 {
            self.extent = Extent::EMPTY;
            return;
        }
        while !(e.x0..=e.x1).any(|x| full(x, e.y1)) {
            e.y1 -= 1;
        }
        while !(e.y0..=e.y1).any(|y| full(e.x0, y)) {
            e.x0 += 1;
        }
        while !(e.y0..=e.y1).any(|y| full(e.x1, y)) {
            e.x1 -= 1;
        }
        self.extent = e;
    }

    /// Build monument `id` on `pos` and raise the values of the cells in range (rule 6).
    pub fn build_monument(&mut self, pos: Pos, id: u8) {
        self.set(
            pos,
            Cell {
                kind: Kind::Monument,
                owner: None,
                monument: Some(id),
            },
        );
        let info = &MONUMENTS[usize::from(id)];
        let (cx, cy) = (i32::from(pos.x), i32::from(pos.y));
        let values = Arc::make_mut(&mut self.values);
        for y in cy - info.range..=cy + info.range {
            for x in cx - info.range..=cx + info.range {
                if let Some(p) = Pos::new(x, y) {
                    values[p.index()] += info.prestige as i8;
                }
            }
        }
    }

    /// Whether a road is among the 4-neighbours (roads) or 8-neighbours (buildings) of `pos`.
    #[inline]
    pub fn touches_road(&self, pos: Pos, diagonals: bool) -> bool {
        // The hottest check of `construction_possible` and `route_possible`: the padded
        // words above, at and below `pos` (`roads[y]`, `roads[y + 1]`, `roads[y + 2]`)
        // shifted right by `x` hold the 3x3 window around it in their three low bits, the
        // cell itself the middle one. Only those bits are kept: one shift a word, no branch.
        let (x, y) = (u32::from(pos.x), usize::from(pos.y));
        let window = |word: u128| (word >> x) as u8 & 0b111;
        let rows = &self.roads[y..y + 3];
        let (above, at, below) = (rows[0], rows[1], rows[2]);
        let beside = window(at) & 0b101;
        let above_below = window(above | below) & if diagonals { 0b111 } else { 0b010 };
        beside | above_below != 0
    }

    /// Whether an obstacle on the empty cell `pos` would cut every road from the outside of
    /// the map (rule 21). Cells that are not empty never block: they already are obstacles
    /// or roads.
    #[inline]
    pub fn is_blocking(&self, pos: Pos) -> bool {
        self.blocking().contains(pos)
    }

    /// Whether rule 21 holds now: some road can be reached from outside the map.
    pub fn is_open(&self) -> bool {
        self.blocking().is_open()
    }

    /// The rule 21 answer of this board, computed on first use.
    #[inline]
    fn blocking(&self) -> &Blocking {
        self.blocking.get_or_init(|| Blocking::compute(self))
    }

    /// The sum of the worth of the houses owned by `seat` (`score`, rule 9).
    pub fn houses_worth(&self, seat: Seat) -> i32 {
        self.houses_of(seat).map(|p| self.worth(p)).sum()
    }

    /// The positions of the houses owned by `seat`.
    pub fn houses_of(&self, seat: Seat) -> impl Iterator<Item = Pos> + '_ {
        self.built()
            .filter(move |(_, c)| c.kind == Kind::Maison && c.owner == Some(seat))
            .map(|(p, _)| p)
    }

    /// Every cell where something stands (not `VIDE`), row-major, with its position. Only
    /// the rectangle around the built area is read: on a late-game board a few hundred
    /// cells instead of 10,000.
    ///
    /// ```
    /// use engine::{Board, Kind, Pos};
    /// let built: Vec<_> = Board::default().built().collect();
    /// assert_eq!(built.len(), 1);
    /// assert_eq!(built[0].0, Pos { x: 50, y: 50 });
    /// assert_eq!(built[0].1.kind, Kind::Route);
    /// ```
    pub fn built(&self) -> impl Iterator<Item = (Pos, Cell)> + '_ {
        let e = self.extent;
        // An empty extent has `y0 > y1` (`Extent::EMPTY`): no row.
        (e.y0..=e.y1).flat_map(move |y| {
            let start = usize::from(y) * SIZE;
            let row = &self.cells[start + usize::from(e.x0)..=start + usize::from(e.x1)];
            (e.x0..=e.x1)
                .zip(row)
                .filter(|(_, c)| c.kind != Kind::Vide)
                .map(move |(x, &c)| (Pos { x, y }, c))
        })
    }

    /// The extent found by scanning every cell, to check the maintained one against.
    #[cfg(test)]
    pub(crate) fn scanned_extent(&self) -> Extent {
        let mut extent = Extent::EMPTY;
        for (i, cell) in self.cells.iter().enumerate() {
            if cell.kind != Kind::Vide {
                extent.include(Pos::from_index(i));
            }
        }
        extent
    }

    /// A rectangle holding every non-empty cell (empty if there is none).
    pub(crate) fn extent(&self) -> Extent {
        self.extent
    }

    pub(crate) fn values_raw(&self) -> &[i8] {
        &self.values
    }
}

/// The worth of a house on a cell of value `value` (rule 8): `max(value + 1, 0)`.
///
/// ```
/// assert_eq!(engine::board::worth_of_value(0), 1);
/// assert_eq!(engine::board::worth_of_value(4), 5);
/// assert_eq!(engine::board::worth_of_value(-3), 0);
/// ```
pub fn worth_of_value(value: i32) -> i32 {
    (value + 1).max(0)
}

#[cfg(test)]
mod tests {
    //! The road bitmap and the built area against plain scans of the cells, along random
    //! sequences of changes (roads built and removed, on the map's edges too).

    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    fn random_cell(rng: &mut Pcg64) -> Cell {
        match rng.gen_range(0..6) {
            0 | 1 => Cell::EMPTY,
            2 | 3 => Cell::ROAD,
            4 => Cell {
                kind: Kind::Maison,
                owner: Some(Seat(rng.gen_range(0..3))),
                monument: None,
            },
            _ => Cell {
                kind: Kind::Reservation,
                owner: Some(Seat(0)),
                monument: None,
            },
        }
    }

    #[test]
    fn touches_road_and_built_agree_with_the_cells() {
        let mut rng = Pcg64::seed_from_u64(21);
        for round in 0..20 {
            let mut board = Board::default();
            // Changes clustered in a corner, on an edge or anywhere, so the map's edges are hit.
            let (cx, cy) = [(0, 0), (99, 50), (50, 99), (rng.gen_range(0..100), 40)][round % 4];
            for _ in 0..400 {
                let x = (cx + rng.gen_range(-6..=6)).clamp(0, 99);
                let y = (cy + rng.gen_range(-6..=6)).clamp(0, 99);
                board.set(Pos::new(x, y).unwrap(), random_cell(&mut rng));
            }
            let is_road = |p: Pos| board.cell(p).kind == Kind::Route;
            for i in 0..CELLS {
                let p = Pos::from_index(i);
                assert_eq!(
                    board.touches_road(p, true),
                    p.neighbours8().any(is_road),
                    "8-neighbours of {p:?}, round {round}"
                );
                assert_eq!(
                    board.touches_road(p, false),
                    p.neighbours4().any(is_road),
                    "4-neighbours of {p:?}, round {round}"
                );
            }
            let scanned: Vec<(Pos, Cell)> = (0..CELLS)
                .map(|i| (Pos::from_index(i), board.cells()[i]))
                .filter(|(_, c)| c.kind != Kind::Vide)
                .collect();
            assert_eq!(board.built().collect::<Vec<_>>(), scanned, "round {round}");
        }
    }

    #[test]
    fn neighbours_are_those_on_the_map_in_order() {
        let corner: Vec<Pos> = Pos { x: 0, y: 0 }.neighbours8().collect();
        assert_eq!(
            corner,
            [Pos { x: 1, y: 0 }, Pos { x: 0, y: 1 }, Pos { x: 1, y: 1 }]
        );
        let middle: Vec<(u8, u8)> = Pos { x: 5, y: 5 }
            .neighbours8()
            .map(|p| (p.x, p.y))
            .collect();
        assert_eq!(
            middle,
            [
                (4, 4),
                (5, 4),
                (6, 4),
                (4, 5),
                (6, 5),
                (4, 6),
                (5, 6),
                (6, 6)
            ]
        );
        let edge: Vec<(u8, u8)> = Pos { x: 99, y: 99 }
            .neighbours4()
            .map(|p| (p.x, p.y))
            .collect();
        assert_eq!(edge, [(99, 98), (98, 99)]);
    }
}
