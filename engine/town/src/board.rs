//! The board's geometry (rules 3 to 5): which positions of the `width` x `height` grid are
//! valid and which are each one's neighbours, for the five kinds of board; and the spread
//! of a set of mines (rule 7).

/// The kind of board: the `board` option, `-c` of the original program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Every position valid; neighbours by 8-connexity (the base version).
    Rectangle,
    /// Neighbours at one or two steps along the four cardinal directions.
    Cardinal,
    /// Neighbours at one or two steps along the four diagonals.
    Diagonal,
    /// The rectangle's neighbours, each edge joined to the opposite one.
    Torus,
    /// The rectangle with every position of odd `x` and odd `y` invalid (one in four).
    Infernal,
}

impl Shape {
    /// The option's words, in the order of the original's `-c` (0 is the rectangle).
    pub const NAMES: &'static [&'static str] =
        &["rectangle", "cardinal", "diagonal", "torus", "infernal"];

    /// The shape named `name` (one of [`Shape::NAMES`]).
    pub fn named(name: &str) -> Option<Shape> {
        let all = [
            Shape::Rectangle,
            Shape::Cardinal,
            Shape::Diagonal,
            Shape::Torus,
            Shape::Infernal,
        ];
        Shape::NAMES.iter().position(|n| *n == name).map(|i| all[i])
    }

    /// The steps to a neighbour.
    fn steps(self) -> &'static [(i32, i32)] {
        const EIGHT: &[(i32, i32)] = &[
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ];
        match self {
            Shape::Rectangle | Shape::Torus | Shape::Infernal => EIGHT,
            Shape::Cardinal => &[
                (0, -2),
                (0, -1),
                (-2, 0),
                (-1, 0),
                (1, 0),
                (2, 0),
                (0, 1),
                (0, 2),
            ],
            Shape::Diagonal => &[
                (-2, -2),
                (2, -2),
                (-1, -1),
                (1, -1),
                (-1, 1),
                (1, 1),
                (-2, 2),
                (2, 2),
            ],
        }
    }
}

/// A position's index on the grid: `y * width + x`.
pub type Pos = u16;

/// The board's geometry: the grid, its valid positions and their neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    shape: Shape,
    width: u16,
    height: u16,
    valid: Vec<bool>,
    neighbours: Vec<Vec<Pos>>,
}

impl Grid {
    /// The grid of `shape`, `width` x `height` (each at least 1).
    pub fn new(shape: Shape, width: u16, height: u16) -> Grid {
        let (w, h) = (i32::from(width), i32::from(height));
        let is_valid = |x: i32, y: i32| !(shape == Shape::Infernal && x % 2 == 1 && y % 2 == 1);
        let valid: Vec<bool> = (0..h)
            .flat_map(|y| (0..w).map(move |x| is_valid(x, y)))
            .collect();
        let neighbours = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                if !is_valid(x, y) {
                    return Vec::new();
                }
                let mut found: Vec<Pos> = Vec::new();
                for &(dx, dy) in shape.steps() {
                    let (mut nx, mut ny) = (x + dx, y + dy);
                    if shape == Shape::Torus {
                        (nx, ny) = (nx.rem_euclid(w), ny.rem_euclid(h));
                    }
                    let inside = (0..w).contains(&nx) && (0..h).contains(&ny);
                    let n = (ny * w + nx) as Pos;
                    if inside && is_valid(nx, ny) && (nx, ny) != (x, y) && !found.contains(&n) {
                        found.push(n);
                    }
                }
                found.sort_unstable();
                found
            })
            .collect();
        Grid {
            shape,
            width,
            height,
            valid,
            neighbours,
        }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    pub fn width(&self) -> u16 {
        self.width
    }

    pub fn height(&self) -> u16 {
        self.height
    }

    /// The position at `(x, y)`, if it is on the grid.
    pub fn at(&self, x: u16, y: u16) -> Option<Pos> {
        (x < self.width && y < self.height).then(|| y * self.width + x)
    }

    /// The coordinates of `pos`.
    pub fn xy(&self, pos: Pos) -> (u16, u16) {
        (pos % self.width, pos / self.width)
    }

    /// Every position of the grid, valid or not.
    pub fn len(&self) -> usize {
        self.valid.len()
    }

    /// Whether the grid has no position at all.
    pub fn is_empty(&self) -> bool {
        self.valid.is_empty()
    }

    /// Whether `pos` is a valid position (rule 3).
    pub fn is_valid(&self, pos: Pos) -> bool {
        self.valid.get(usize::from(pos)).copied().unwrap_or(false)
    }

    /// The valid positions, in index order.
    pub fn positions(&self) -> Vec<Pos> {
        (0..self.len() as Pos)
            .filter(|&p| self.valid[usize::from(p)])
            .collect()
    }

    /// The neighbours of `pos` (none for an invalid one), in index order.
    pub fn neighbours(&self, pos: Pos) -> &[Pos] {
        self.neighbours
            .get(usize::from(pos))
            .map_or(&[], Vec::as_slice)
    }

    /// The spread of `mines` (rule 7): the sum of the squared sizes of the groups of mines
    /// joined by neighbouring mines.
    ///
    /// ```
    /// use town::board::{Grid, Shape};
    /// let grid = Grid::new(Shape::Rectangle, 4, 4);
    /// // Two touching mines (one group of 2) and one apart: 4 + 1.
    /// assert_eq!(grid.spread(&[0, 1, 15]), 5);
    /// ```
    pub fn spread(&self, mines: &[Pos]) -> u64 {
        let mut seen = vec![false; self.len()];
        let is_mine = |p: Pos| mines.contains(&p);
        let mut total = 0;
        for &start in mines {
            if std::mem::replace(&mut seen[usize::from(start)], true) {
                continue;
            }
            let (mut size, mut todo) = (0u64, vec![start]);
            while let Some(p) = todo.pop() {
                size += 1;
                for &n in self.neighbours(p) {
                    if is_mine(n) && !std::mem::replace(&mut seen[usize::from(n)], true) {
                        todo.push(n);
                    }
                }
            }
            total += size * size;
        }
        total
    }
}
