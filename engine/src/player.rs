//! Seats (absolute player ids) and the relative ids of rule 3.

use serde::{Deserialize, Serialize};

/// An absolute seat, `0..3`, fixed for a whole match. The API never shows it: champions see
/// relative ids (`Seat::relative`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The three seats in order.
    pub const ALL: [Seat; 3] = [Seat(0), Seat(1), Seat(2)];

    /// The seat as an index into per-seat arrays.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The seat `n` places after this one (the rotation of rule 11).
    pub fn after(self, n: u8) -> Seat {
        Seat((self.0 + n % 3) % 3)
    }

    /// This seat's id as seen by `viewer` (rule 3): the viewer is 0, the next seat 1.
    ///
    /// ```
    /// use engine::Seat;
    /// assert_eq!(Seat(0).relative_to(Seat(1)), 2);
    /// assert_eq!(Seat(2).relative_to(Seat(1)), 1);
    /// ```
    pub fn relative_to(self, viewer: Seat) -> i32 {
        i32::from((self.0 + 3 - viewer.0) % 3)
    }

    /// The seat that `viewer` calls `relative`, if `relative` is in `0..3`.
    pub fn from_relative(viewer: Seat, relative: i32) -> Option<Seat> {
        (0..3)
            .contains(&relative)
            .then(|| viewer.after(relative as u8))
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}
