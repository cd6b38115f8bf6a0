//! Pure: how sure a tournament's leaderboard is (docs/results.md, "How sure is the
//! leaderboard?"), beside the official points and never instead of them. Knows no game:
//! only the standings' match outcomes and the game's points table.
//!
//! - **Mean points per match with a 95% bootstrap interval.** The matches, in id order (so
//!   that neither `--jobs` nor sharding changes anything), are resampled with replacement
//!   [`RESAMPLES`] times; in each resample every champion's mean points per match is its
//!   points over its matches drawn (a match drawn twice counts twice). The interval is the
//!   percentile interval of those means: the 25th and 975th of the 1000 sorted (0-based
//!   indices `m * 25 / 1000` and `ceil(m * 975 / 1000) - 1` of the `m` resamples in which
//!   the champion played at all).
//! - **The probability that two neighbours are in the right order**: the share of the
//!   resamples in which the upper one of two neighbours of the ranking has strictly more
//!   mean points than the lower one (a resample missing either counts as not).
//! - **Points by seat** (seat fairness): the mean points of each seat, with its interval
//!   from the same resamples.
//! - **A Weng-Lin rating** (`skillratings`' `weng_lin_multi_team`: the Bayesian
//!   Bradley-Terry model of Weng and Lin 2011, which OpenSkill implements; every seat is a
//!   team of one, ranked by its place, ties sharing it), starting from 25 ± 25/3 with
//!   beta 25/6, updated match by match in id order: its mean `mu` and its uncertainty
//!   `sigma`.
//!
//! The resampling stream is `draw::Stream::new(derive(seed, BOOTSTRAP_STREAM, 0))` with
//! the tournament seed (the PCG-64 stream `rand_pcg` gave before, bit for bit); a match is drawn as `(next_u64() * n) >> 64` (128-bit
//! product) among the `n`. So the same matches give the same numbers, byte for byte.

use crate::seeds::{derive, BOOTSTRAP_STREAM};
use crate::standings::{place_of, points_with, Standings};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::collections::BTreeMap;

/// Bootstrap resamples.
pub const RESAMPLES: usize = 1000;

/// A mean with its 95% bootstrap interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

/// A Weng-Lin rating: its mean and its uncertainty (one standard deviation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        let r = WengLinRating::new();
        Rating {
            mu: r.rating,
            sigma: r.uncertainty,
        }
    }
}

/// What is known of one champion.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sureness {
    /// Mean points per match and its interval; `None` before its first match.
    pub mean_points: Option<Interval>,
    /// The share of resamples in which it has more mean points than the next champion of
    /// the ranking; `None` for the last one (or one that has not played).
    pub ahead_of_next: Option<f64>,
    pub rating: Rating,
}

/// How sure the leaderboard is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Confidence {
    /// By champion name.
    pub champions: BTreeMap<String, Sureness>,
    /// Mean points of each seat over the matches, with its interval (`None` without any
    /// match).
    pub seats: Vec<Option<Interval>>,
}

impl Confidence {
    /// What is known of `name` (the default if it is not in the standings).
    pub fn of(&self, name: &str) -> Sureness {
        self.champions.get(name).copied().unwrap_or_default()
    }
}

/// The percentile interval of `values` around `mean`, `None` if there are none.
fn interval(mean: f64, mut values: Vec<f64>) -> Option<Interval> {
    let m = values.len();
    if m == 0 {
        return None;
    }
    values.sort_by(f64::total_cmp);
    Some(Interval {
        mean,
        low: values[m * 25 / 1000],
        high: values[(m * 975).div_ceil(1000) - 1],
    })
}

/// The confidence of `standings`, resampled from the tournament seed `seed`.
pub fn compute(standings: &Standings, seed: u64) -> Confidence {
    let names = &standings.names;
    // The matches in id order: for each, (champion, points) by seat.
    let matches: Vec<Vec<(usize, u32)>> = standings
        .outcomes
        .values()
        .map(|seats| {
            let scores: Vec<i32> = seats.iter().map(|&(_, s)| s).collect();
            let points = points_with(standings.table, &scores);
            seats.iter().map(|&(c, _)| c).zip(points).collect()
        })
        .collect();
    let seat_count = matches.iter().map(Vec::len).max().unwrap_or(0);
    let n = matches.len();

    // The observed means.
    let mut sums = vec![0u64; names.len()];
    let mut counts = vec![0u64; names.len()];
    let mut seat_sums = vec![0u64; seat_count];
    for m in &matches {
        for (s, &(c, p)) in m.iter().enumerate() {
            sums[c] += u64::from(p);
            counts[c] += 1;
            seat_sums[s] += u64::from(p);
        }
    }

    // The ranking's neighbours, as indices in `names` (None: has not played).
    let ranked: Vec<Option<usize>> = standings
        .ranked()
        .iter()
        .map(|(_, name, _)| names.iter().position(|n| n == name))
        .collect();

    let mut means: Vec<Vec<f64>> = vec![Vec::with_capacity(RESAMPLES); names.len()];
    let mut seat_means: Vec<Vec<f64>> = vec![Vec::with_capacity(RESAMPLES); seat_count];
    let mut ahead = vec![0u64; ranked.len().saturating_sub(1)];
    if n > 0 {
        let mut rng = draw::Stream::new(derive(seed, BOOTSTRAP_STREAM, 0));
        let mut sum = vec![0u64; names.len()];
        let mut count = vec![0u64; names.len()];
        let mut seat_sum = vec![0u64; seat_count];
        for _ in 0..RESAMPLES {
            sum.fill(0);
            count.fill(0);
            seat_sum.fill(0);
            for _ in 0..n {
                let i = ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize;
                for (s, &(c, p)) in matches[i].iter().enumerate() {
                    sum[c] += u64::from(p);
                    count[c] += 1;
                    seat_sum[s] += u64::from(p);
                }
            }
            let mean = |c: usize| (count[c] > 0).then(|| sum[c] as f64 / count[c] as f64);
            for (c, sample) in means.iter_mut().enumerate() {
                if let Some(m) = mean(c) {
                    sample.push(m);
                }
            }
            for (sample, &sum) in seat_means.iter_mut().zip(&seat_sum) {
                sample.push(sum as f64 / n as f64);
            }
            for (k, pair) in ranked.windows(2).enumerate() {
                if let [Some(upper), Some(lower)] = *pair {
                    if let (Some(u), Some(l)) = (mean(upper), mean(lower)) {
                        if u > l {
                            ahead[k] += 1;
                        }
                    }
                }
            }
        }
    }

    let ratings = ratings(standings);
    let mut champions = BTreeMap::new();
    for (k, (_, name, _)) in standings.ranked().into_iter().enumerate() {
        let index = ranked[k];
        let mean_points = index.and_then(|c| {
            let mean = sums[c] as f64 / counts[c].max(1) as f64;
            interval(mean, std::mem::take(&mut means[c]))
        });
        let ahead_of_next = match (index, ranked.get(k + 1)) {
            (Some(_), Some(Some(_))) => Some(ahead[k] as f64 / RESAMPLES as f64),
            _ => None,
        };
        champions.insert(
            name.to_string(),
            Sureness {
                mean_points,
                ahead_of_next,
                rating: index.map_or_else(Rating::default, |c| ratings[c]),
            },
        );
    }
    let seats = (0..seat_count)
        .map(|s| {
            interval(
                seat_sums[s] as f64 / n as f64,
                std::mem::take(&mut seat_means[s]),
            )
        })
        .collect();
    Confidence { champions, seats }
}

/// The Weng-Lin rating of every champion of `standings.names`, after its matches in id
/// order.
fn ratings(standings: &Standings) -> Vec<Rating> {
    let config = WengLinConfig::new();
    let mut ratings = vec![WengLinRating::new(); standings.names.len()];
    for seats in standings.outcomes.values() {
        let scores: Vec<i32> = seats.iter().map(|&(_, s)| s).collect();
        let teams: Vec<[WengLinRating; 1]> = seats.iter().map(|&(c, _)| [ratings[c]]).collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .enumerate()
            .map(|(s, team)| (&team[..], MultiTeamOutcome::new(place_of(&scores, s))))
            .collect();
        let updated = weng_lin_multi_team(&ranked, &config);
        for (&(c, _), team) in seats.iter().zip(updated) {
            ratings[c] = team[0];
        }
    }
    ratings
        .into_iter()
        .map(|r| Rating {
            mu: r.rating,
            sigma: r.uncertainty,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::{MatchRow, WIN_LOSS};

    fn row(id: u64, champions: &[&str], scores: &[i32]) -> MatchRow {
        let seats = champions.len();
        MatchRow {
            id,
            seed: id,
            champions: champions.iter().map(|c| c.to_string()).collect(),
            scores: scores.to_vec(),
            points: vec![0; seats],
            faults: vec![None; seats],
            calls: vec![0; seats],
            cpu_us: vec![0; seats],
            max_cpu_us: vec![0; seats],
            duration_ms: 0,
            digest: String::new(),
            reproduce: String::new(),
        }
    }

    /// Rows in any order give the same numbers.
    #[test]
    fn order_of_rows_does_not_matter() {
        let rows: Vec<MatchRow> = (0..30)
            .map(|i| {
                let s = (i * 7 % 5) as i32;
                row(i, &["a", "b", "c"], &[s, 3 - s % 2, (i % 4) as i32])
            })
            .collect();
        let mut forward = Standings::default();
        rows.iter().for_each(|r| forward.add(r));
        let mut backward = Standings::default();
        rows.iter().rev().for_each(|r| backward.add(r));
        assert_eq!(compute(&forward, 9), compute(&backward, 9));
        assert_ne!(compute(&forward, 9), compute(&forward, 10));
    }

    /// A champion absent from a resample (it played one match of twenty) has no mean
    /// there: its interval comes from the resamples it played in, where it always has its
    /// 3 points, never from an empty one (0 / 0).
    #[test]
    fn a_resample_without_a_champion_leaves_it_out() {
        let mut standings = Standings::default();
        for i in 0..19 {
            standings.add(&row(i, &["a", "b", "c"], &[3, 2, 1]));
        }
        standings.add(&row(19, &["rare", "b", "c"], &[3, 2, 1]));
        let rare = compute(&standings, 4).of("rare").mean_points.unwrap();
        assert_eq!((rare.mean, rare.low, rare.high), (3.0, 3.0, 3.0));
    }

    /// A champion that always wins is surely ahead; its interval is a point.
    #[test]
    fn a_sure_winner() {
        let mut standings = Standings::new(WIN_LOSS, 2);
        for i in 0..20 {
            standings.add(&row(i, &["strong", "weak"], &[1, 0]));
        }
        let c = compute(&standings, 1);
        let strong = c.of("strong");
        let interval = strong.mean_points.unwrap();
        assert_eq!(
            (interval.mean, interval.low, interval.high),
            (1.0, 1.0, 1.0)
        );
        assert_eq!(strong.ahead_of_next, Some(1.0));
        assert_eq!(c.of("weak").ahead_of_next, None);
        assert!(strong.rating.mu > 25.0 && c.of("weak").rating.mu < 25.0);
        assert!(strong.rating.sigma < 25.0 / 3.0);
        assert_eq!(c.seats[0].unwrap().mean, 1.0);
    }
}
