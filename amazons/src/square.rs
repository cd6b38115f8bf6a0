//! A square of the 10x10 board: its index `row * 10 + column` (0..100, `a1` is 0), and its
//! name (`a1`..`j10`).

use std::fmt;
use std::str::FromStr;

/// Side of the board.
pub const SIZE: u8 = 10;

/// A square; always on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square at `column` (0 = `a`) and `row` (0 = `1`), if on the board.
    pub fn new(column: u8, row: u8) -> Option<Square> {
        (column < SIZE && row < SIZE).then_some(Square(row * SIZE + column))
    }

    /// The square of index `index` (`row * 10 + column`), if on the board.
    pub fn from_index(index: usize) -> Option<Square> {
        (index < usize::from(SIZE * SIZE)).then_some(Square(index as u8))
    }

    /// `row * 10 + column`.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// 0 for `a` .. 9 for `j`.
    pub fn column(self) -> u8 {
        self.0 % SIZE
    }

    /// 0 for row 1 .. 9 for row 10.
    pub fn row(self) -> u8 {
        self.0 / SIZE
    }

    /// The next square in direction `(dc, dr)`, if on the board.
    pub fn step(self, (dc, dr): (i8, i8)) -> Option<Square> {
        let column = self.column().checked_add_signed(dc)?;
        let row = self.row().checked_add_signed(dr)?;
        Square::new(column, row)
    }

    /// Every square, `a1`, `b1`, .. `j10`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SIZE * SIZE).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.column()), self.row() + 1)
    }
}

/// Why a text is not a square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a square: a column a..j then a row 1..10 (e.g. d1)",
            self.0
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// ```
    /// use amazons::Square;
    /// assert_eq!("j10".parse::<Square>().unwrap().index(), 99);
    /// assert!("k1".parse::<Square>().is_err() && "a0".parse::<Square>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let bad = || ParseSquareError(text.to_string());
        let mut chars = text.chars();
        let column = chars.next().ok_or_else(bad)?;
        if !('a'..='j').contains(&column) {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row: u8 = digits.parse().map_err(|_| bad())?;
        if !(1..=SIZE).contains(&row) || digits.starts_with('0') {
            return Err(bad());
        }
        Square::new(column as u8 - b'a', row - 1).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for square in Square::all() {
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
        assert_eq!(Square::new(3, 0).unwrap().to_string(), "d1");
        for bad in ["", "a", "a11", "a01", "A1", "a1 ", "z5", "a-1", "aa"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn steps_stay_on_the_board() {
        let a1 = Square::new(0, 0).unwrap();
        assert_eq!(a1.step((-1, 0)), None);
        assert_eq!(a1.step((1, 1)).unwrap().to_string(), "b2");
        let j10 = Square::new(9, 9).unwrap();
        assert_eq!(j10.step((0, 1)), None);
    }
}
