//! Pure: the paired gauntlet of a candidate against a baseline (docs/results.md,
//! "`referee gauntlet`"), for games of any number of seats, knowing no game.
//!
//! - **Pairs.** Pair `k` is two matches on the same seed, with the same opponents in the
//!   same seats: match `2k` with the candidate in seat `k % seats`, match `2k + 1` with the
//!   baseline there instead. Pairs `seats * b` to `seats * b + seats - 1` share the seed
//!   `derive(seed, MATCH_STREAM, b)` and put the tested champion in each seat once; block
//!   `b` plays the opponents' combination `b % C(m, seats - 1)` (colex order) in the
//!   remaining seats in their order, rotated with the tested seat.
//! - **Running order.** Matches start pair by pair, but which of the two matches of pair
//!   `k` starts first is bit 0 of `derive(seed, ORDER_STREAM, k)`. Had the candidate's
//!   always gone first, its match would more often land on the first worker, and so on
//!   its CPU (with pinning): a program could tell its role from its CPU three times in
//!   four. The results do not depend on the order.
//! - **Paired differences.** Each pair gives `d = candidate's points - baseline's points`
//!   (and the same of final scores). The setup's luck and the opponents' cancel in `d`.
//! - **The test.** Two one-sided sequential probability ratio tests on the mean of `d`,
//!   under a normal model whose variance is the sample variance of the differences (the
//!   generalised SPRT of chess engine testing), each at `alpha / 2`: H0 `mean = 0` against
//!   H1 `mean = +min_diff` (better) and against `mean = -min_diff` (worse). With `n` pairs of
//!   mean `x` and variance `s2`, the log-likelihood ratio of `mean = delta` to `mean = 0` is
//!   `n * (delta * x - delta^2 / 2) / s2`. Bounds `A = ln((1 - beta) / (alpha / 2))` and
//!   `B = ln(beta / (1 - alpha / 2))`: better once the ratio for `+min_diff` reaches `A`,
//!   worse once that for `-min_diff` does, no difference once both are at or below `B`.
//!   Nothing is decided before [`MIN_PAIRS`] pairs, and pairs are taken in pair order only,
//!   so the decision does not depend on which match finished first.
//! - **The variance floor.** `s2` is at least `min_diff * spread`, where `spread` is the
//!   largest difference a pair can show (the game's most points less its fewest: 3 in
//!   2009, 1 for the Amazons). Differences are whole points, and a candidate better by
//!   `min_diff` may gain them rarely: `spread` points in one pair of `spread / min_diff`,
//!   the rest identical. Such a difference has variance about `min_diff * spread`, and
//!   identical pairs (`s2 = 0`) are its likeliest start; with a smaller `s2` a run of ten
//!   identical pairs said "no difference" one time in two (2009, `min_diff` 0.2). With
//!   the floor, `n` identical pairs say so only once `n >= 2 * spread * |B| / min_diff`,
//!   when such a run has a probability of `(1 - min_diff / spread)^n <= e^(2B) =
//!   (beta / (1 - alpha / 2))^2`, about `beta^2`; and the floor keeps zero variance from
//!   dividing by zero.

use crate::schedule::Pairing;
use crate::seeds::{derive, MATCH_STREAM, ORDER_STREAM};

/// Pairs needed before any decision (and the fewest `--max-pairs`).
pub const MIN_PAIRS: usize = 10;
/// The most pairs a gauntlet plays (`--max-pairs`).
pub const MAX_PAIRS: u64 = 1_000_000;

/// The largest difference of points one pair can show under the points table `points`:
/// its most points less its fewest.
pub fn spread(points: &[u32]) -> f64 {
    let most = points.iter().max().copied().unwrap_or(0);
    let fewest = points.iter().min().copied().unwrap_or(0);
    f64::from(most - fewest)
}

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    /// Probability of saying better or worse when there is no difference (half each way).
    pub alpha: f64,
    /// Probability of saying no difference when the difference is `min_diff`.
    pub beta: f64,
    /// The difference worth finding, in points a match.
    pub min_diff: f64,
}

/// What the test says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Better,
    Worse,
    NoDifference,
    /// Not yet (or never, at the cap).
    Undecided,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Better => "better",
            Verdict::Worse => "worse",
            Verdict::NoDifference => "no difference",
            Verdict::Undecided => "undecided",
        }
    }
}

/// Mean, variance and 95% interval (normal) of differences.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    pub n: usize,
    pub mean: f64,
    /// Sample variance (`n - 1`), 0 below two values.
    pub variance: f64,
    pub low: f64,
    pub high: f64,
}

/// The estimate of `diffs`.
pub fn estimate(diffs: &[f64]) -> Estimate {
    let n = diffs.len();
    if n == 0 {
        return Estimate::default();
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let variance = if n > 1 {
        diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let half = 1.96 * (variance / n as f64).sqrt();
    Estimate {
        n,
        mean,
        variance,
        low: mean - half,
        high: mean + half,
    }
}

impl Sprt {
    /// What is wrong with these parameters for a game whose pairs differ by at most
    /// `spread` points (see [`spread`]), if anything: the command line refuses such
    /// values, but a `gauntlet.json` may have been edited.
    pub fn problem(&self, spread: f64) -> Option<String> {
        let probability = |p: f64| p > 0.0 && p < 0.5;
        if !probability(self.alpha) {
            Some(format!(
                "alpha {} is not a probability above 0 and below 0.5",
                self.alpha
            ))
        } else if !probability(self.beta) {
            Some(format!(
                "beta {} is not a probability above 0 and below 0.5",
                self.beta
            ))
        } else if !(self.min_diff > 0.0 && self.min_diff <= spread) {
            Some(format!(
                "min_diff {} is not a difference above 0 and at most {spread} points a match",
                self.min_diff
            ))
        } else {
            None
        }
    }

    /// The bounds `(A, B)` of the log-likelihood ratios.
    pub fn bounds(&self) -> (f64, f64) {
        let a = self.alpha / 2.0;
        (((1.0 - self.beta) / a).ln(), (self.beta / (1.0 - a)).ln())
    }

    /// The log-likelihood ratios `(better, worse)` of `estimate`, for pairs that differ by
    /// at most `spread` points (the variance floor, module doc).
    pub fn llr(&self, e: &Estimate, spread: f64) -> (f64, f64) {
        let s2 = e.variance.max(self.min_diff * spread);
        let llr = |delta: f64| e.n as f64 * (delta * e.mean - delta * delta / 2.0) / s2;
        (llr(self.min_diff), llr(-self.min_diff))
    }

    /// The verdict on the first `diffs.len()` pairs, which differ by at most `spread`.
    pub fn verdict(&self, diffs: &[f64], spread: f64) -> Verdict {
        if diffs.len() < MIN_PAIRS {
            return Verdict::Undecided;
        }
        let (a, b) = self.bounds();
        let (better, worse) = self.llr(&estimate(diffs), spread);
        if better >= a {
            Verdict::Better
        } else if worse >= a {
            Verdict::Worse
        } else if better <= b && worse <= b {
            Verdict::NoDifference
        } else {
            Verdict::Undecided
        }
    }

    /// The first decision on the pairs in order, and how many pairs it took (all of them
    /// if undecided).
    pub fn first_decision(&self, diffs: &[f64], spread: f64) -> (Verdict, usize) {
        for n in MIN_PAIRS..=diffs.len() {
            let v = self.verdict(&diffs[..n], spread);
            if v != Verdict::Undecided {
                return (v, n);
            }
        }
        (Verdict::Undecided, diffs.len())
    }
}

/// The matches of a gauntlet: champion 0 is the candidate, 1 the baseline, `2..` the
/// opponents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub seed: u64,
    pub seats: usize,
    pub opponents: usize,
}

/// Combination `index % C(m, k)` of `k` among `m`, colex order ([`crate::schedule::unrank`]:
/// the same as before it served any `k`, for one and two opponents a match).
fn combination(index: u64, m: usize, k: usize) -> Vec<usize> {
    let count = crate::schedule::choose(m as u64, k);
    crate::schedule::unrank(index % count, m as u64, k)
}

impl Plan {
    /// Whether there are enough opponents for a match.
    pub fn is_playable(&self) -> bool {
        self.opponents + 1 >= self.seats
    }

    /// The id of the `i`-th match to start (module doc, "Running order").
    pub fn running(&self, i: u64) -> u64 {
        let pair = i / 2;
        let baseline_first = derive(self.seed, ORDER_STREAM, pair) & 1;
        2 * pair + ((i % 2) ^ baseline_first)
    }

    /// The seat of the tested champion in pair `k`.
    pub fn seat(&self, pair: u64) -> usize {
        (pair % self.seats as u64) as usize
    }

    /// Match `id`: pair `id / 2`, the candidate's (even) or the baseline's (odd).
    pub fn pairing(&self, id: u64) -> Pairing {
        let pair = id / 2;
        let block = pair / self.seats as u64;
        let tested = (id % 2) as usize;
        let others = combination(block, self.opponents, self.seats - 1);
        let seat = self.seat(pair);
        let mut seats = vec![0; self.seats];
        seats[seat] = tested;
        for (j, o) in others.iter().enumerate() {
            seats[(seat + 1 + j) % self.seats] = 2 + o;
        }
        Pairing {
            id,
            seed: derive(self.seed, MATCH_STREAM, block),
            seats,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_shares_seed_opponents_and_seats() {
        for (seats, opponents) in [(3, 2), (3, 4), (2, 1), (2, 3), (5, 4), (5, 6), (8, 9)] {
            let plan = Plan {
                seed: 5,
                seats,
                opponents,
            };
            for pair in 0..30 {
                let (c, b) = (plan.pairing(2 * pair), plan.pairing(2 * pair + 1));
                assert_eq!(c.seed, b.seed);
                let seat = plan.seat(pair);
                assert_eq!((c.seats[seat], b.seats[seat]), (0, 1));
                for s in (0..seats).filter(|&s| s != seat) {
                    assert_eq!(c.seats[s], b.seats[s]);
                    assert!(c.seats[s] >= 2 && c.seats[s] < 2 + opponents);
                }
                let mut distinct = c.seats.clone();
                distinct.sort();
                distinct.dedup();
                assert_eq!(distinct.len(), seats);
            }
        }
    }

    /// The opponents of block `b` are combination `b % C(m, k)` in colex order: for one
    /// opponent a seat, `b % m`; for two, the pairs (0, 1), (0, 2), (1, 2), (0, 3)...
    #[test]
    fn opponents_go_through_the_combinations_in_colex_order() {
        assert_eq!(combination(7, 3, 1), [1]);
        let pairs: Vec<Vec<usize>> = (0..7).map(|b| combination(b, 4, 2)).collect();
        assert_eq!(
            pairs,
            [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3], [0, 1]].map(Vec::from)
        );
        assert_eq!(combination(0, 9, 7), [0, 1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn each_pair_starts_in_an_order_drawn_from_the_seed() {
        let plan = Plan {
            seed: 11,
            seats: 3,
            opponents: 2,
        };
        let order: Vec<u64> = (0..200).map(|i| plan.running(i)).collect();
        let mut ids = order.clone();
        ids.sort();
        assert_eq!(ids, (0..200).collect::<Vec<_>>());
        let baseline_first = (0..100u64)
            .filter(|&k| {
                assert_eq!(order[2 * k as usize] / 2, k, "pair {k} out of place");
                order[2 * k as usize] == 2 * k + 1
            })
            .count();
        assert!((30..=70).contains(&baseline_first), "{baseline_first}");
        let other = Plan { seed: 12, ..plan };
        assert_ne!(
            order,
            (0..200).map(|i| other.running(i)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn clear_differences_are_found_and_none_is_none() {
        let sprt = Sprt {
            alpha: 0.05,
            beta: 0.05,
            min_diff: 0.3,
        };
        let better: Vec<f64> = (0..100).map(|i| [3.0, 2.0, 0.0][i % 3]).collect();
        assert_eq!(sprt.first_decision(&better, 3.0).0, Verdict::Better);
        let worse: Vec<f64> = better.iter().map(|d| -d).collect();
        assert_eq!(sprt.first_decision(&worse, 3.0).0, Verdict::Worse);
        // Identical pairs: no difference once 2 * 3 * |B| / 0.3 = 59.4 of them are in.
        assert_eq!(
            sprt.first_decision(&[0.0; 100], 3.0),
            (Verdict::NoDifference, 60)
        );
        let e = estimate(&[1.0, 3.0]);
        assert_eq!((e.mean, e.variance), (2.0, 2.0));
    }

    #[test]
    fn the_spread_is_the_most_points_less_the_fewest() {
        assert_eq!(spread(&[3, 1, 0]), 3.0);
        assert_eq!(spread(&[1, 0]), 1.0);
        assert_eq!(spread(&[5, 2]), 3.0);
        assert_eq!(spread(&[]), 0.0);
    }

    #[test]
    fn parameters_outside_their_ranges_are_named() {
        let good = Sprt {
            alpha: 0.05,
            beta: 0.05,
            min_diff: 0.2,
        };
        assert_eq!(good.problem(3.0), None);
        assert_eq!(
            Sprt {
                min_diff: 3.0,
                ..good
            }
            .problem(3.0),
            None
        );
        for (bad, field) in [
            (Sprt { alpha: 0.0, ..good }, "alpha 0 "),
            (Sprt { alpha: 0.5, ..good }, "alpha 0.5 "),
            (Sprt { beta: 0.0, ..good }, "beta 0 "),
            (Sprt { beta: 0.5, ..good }, "beta 0.5 "),
            (
                Sprt {
                    min_diff: 0.0,
                    ..good
                },
                "min_diff 0 ",
            ),
            (
                Sprt {
                    min_diff: 3.5,
                    ..good
                },
                "min_diff 3.5 ",
            ),
            (
                Sprt {
                    min_diff: f64::NAN,
                    ..good
                },
                "min_diff NaN ",
            ),
        ] {
            let problem = bad.problem(3.0).unwrap_or_default();
            assert!(problem.starts_with(field), "{problem}");
        }
    }
}
