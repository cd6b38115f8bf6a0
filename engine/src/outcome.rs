//! The end of a game: final scores and the 3/1/0 points with the minimum-points tie rule
//! (rule 26).

use serde::{Deserialize, Serialize};

/// Final scores and points of the three seats, absolute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Money plus the worth of the houses (rule 9): what the ranking compares.
    pub final_scores: [i32; 3],
    /// Tournament points of rule 26 (3, 1 or 0, ties sharing the lowest).
    pub points: [u32; 3],
}

impl Outcome {
    /// The outcome of these final scores.
    pub fn from_scores(final_scores: [i32; 3]) -> Outcome {
        Outcome {
            final_scores,
            points: points(final_scores),
        }
    }
}

/// Tournament points (rule 26): 3 when no other player scores as much, 1 when exactly one
/// does, 0 when both do. Tied players so get the smallest points of the places they share.
///
/// ```
/// use engine::outcome::points;
/// assert_eq!(points([10, 5, 1]), [3, 1, 0]);
/// assert_eq!(points([10, 10, 1]), [1, 1, 0]); // two tied first
/// assert_eq!(points([10, 1, 1]), [3, 0, 0]); // two tied last
/// assert_eq!(points([4, 4, 4]), [0, 0, 0]); // all three tied
/// ```
pub fn points(final_scores: [i32; 3]) -> [u32; 3] {
    std::array::from_fn(|i| {
        let at_least = (0..3)
            .filter(|&j| j != i && final_scores[j] >= final_scores[i])
            .count();
        [3, 1, 0][at_least]
    })
}
