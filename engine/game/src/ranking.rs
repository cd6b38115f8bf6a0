//! How a match ended: each seat's place and score.

use serde::{Deserialize, Serialize};

/// Each seat's place (1 is first; seats that tie share a place, and the next place counts
/// them: 1, 1, 3) and score (what the game counts: money, points; 0 where it counts none).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranking {
    pub places: Vec<u8>,
    pub scores: Vec<i64>,
}

impl Ranking {
    /// The ranking of `scores`, the highest first, equal scores tied.
    ///
    /// ```
    /// let r = game::Ranking::by_scores(vec![10, 30, 10, 5]);
    /// assert_eq!(r.places, [2, 1, 2, 4]);
    /// ```
    pub fn by_scores(scores: Vec<i64>) -> Ranking {
        Ranking::by_keys(scores.clone(), scores)
    }

    /// The ranking by `keys`, the greatest first, equal keys tied (a key may be a score
    /// and its tie-breaks, or whether the seat is still in before its score), with
    /// `scores` as the scores shown.
    pub fn by_keys<K: Ord>(keys: Vec<K>, scores: Vec<i64>) -> Ranking {
        let places = keys
            .iter()
            .map(|k| 1 + keys.iter().filter(|other| *other > k).count() as u8)
            .collect();
        Ranking { places, scores }
    }

    /// The seats that placed first.
    pub fn winners(&self) -> Vec<usize> {
        (0..self.places.len())
            .filter(|&s| self.places[s] == 1)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_a_place_and_the_next_counts_them() {
        assert_eq!(Ranking::by_scores(vec![3, 3, 1]).places, [1, 1, 3]);
        assert_eq!(Ranking::by_scores(vec![1, 2, 3]).places, [3, 2, 1]);
        assert_eq!(Ranking::by_scores(vec![7]).places, [1]);
        let r = Ranking::by_keys(vec![(true, 1), (false, 9), (true, 1)], vec![1, 9, 1]);
        assert_eq!(r.places, [1, 3, 1]);
        assert_eq!(r.winners(), [0, 2]);
        assert_eq!(r.scores, [1, 9, 1]);
    }
}
