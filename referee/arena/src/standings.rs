//! Pure: a match as one row of results, and the standings (points, places, faults, times,
//! head-to-head) accumulated from rows in any order, for games of any number of seats (as
//! many places counted as a match has seats). Integer sums only, so the result does not
//! depend on the order rows arrive in. It knows no game: a game gives its rows, its seats
//! and its points table.

use jail::fault::FaultKind;
use std::collections::BTreeMap;

/// One played match, as `matches.csv` stores it (see docs/results.md): one entry per seat
/// in each per-seat field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRow {
    pub id: u64,
    pub seed: u64,
    /// Champion names in seats 0, 1, ..., k - 1.
    pub champions: Vec<String>,
    /// The final score of each seat (the game's own measure: money and houses' worth in the
    /// 2009 game, 1 for the winner and 0 for the loser of the Amazons).
    pub scores: Vec<i32>,
    pub points: Vec<u32>,
    /// The fault that stopped each seat, if any.
    pub faults: Vec<Option<FaultKind>>,
    /// Callbacks played by each seat.
    pub calls: Vec<u64>,
    /// CPU time of each seat over its callbacks, microseconds (timing: varies run to run).
    pub cpu_us: Vec<u64>,
    /// Largest CPU time of one callback of each seat, microseconds (timing).
    pub max_cpu_us: Vec<u64>,
    /// Wall time of the whole match, milliseconds (timing).
    pub duration_ms: u64,
    /// The game's digest of the final state.
    pub digest: String,
    /// The one-line command that plays this match again.
    pub reproduce: String,
}

impl MatchRow {
    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.champions.len()
    }
}

/// Callbacks played, CPU time and largest callback of each seat of a match (the per-seat
/// columns of [`MatchRow`] that count time).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatTimes {
    pub calls: Vec<u64>,
    pub cpu_us: Vec<u64>,
    pub max_cpu_us: Vec<u64>,
}

impl SeatTimes {
    /// The times of `seats` seats, from the seat and CPU time (µs) of every callback played.
    pub fn of(seats: usize, callbacks: impl IntoIterator<Item = (usize, u64)>) -> SeatTimes {
        let mut times = SeatTimes {
            calls: vec![0; seats],
            cpu_us: vec![0; seats],
            max_cpu_us: vec![0; seats],
        };
        for (s, cpu) in callbacks {
            times.calls[s] += 1;
            times.cpu_us[s] += cpu;
            times.max_cpu_us[s] = times.max_cpu_us[s].max(cpu);
        }
        times
    }
}

/// Points of a place, by how many other seats scored at least as much (index 0: none); a
/// place beyond the table earns 0. One table serves every number of seats: tied seats
/// share the points of the lowest place they tie for, whatever the count.
pub type PointsTable = &'static [u32];

/// Rule 26 of the 2009 game: 3 if no other seat has a score >= its own, 1 if exactly one
/// has, 0 if two have (so tied seats share the lower points).
pub const RULE_26: PointsTable = &[3, 1, 0];

/// A two-seat game: 1 for the winner, 0 for the loser (and for both of a tie).
pub const WIN_LOSS: PointsTable = &[1, 0];

/// Four places: 7, 3, 1, 0, each place worth one more than all the places below it
/// together, as in 3/1/0 (`docs/results.md`, "Points of four places").
pub const PLACES_4: PointsTable = &[7, 3, 1, 0];

/// Points of every seat from the final scores, by `table`, for any number of seats.
///
/// ```
/// use arena::standings::{points_with, RULE_26, WIN_LOSS};
/// assert_eq!(points_with(RULE_26, &[50, 40, 30]), [3, 1, 0]);
/// assert_eq!(points_with(RULE_26, &[50, 50, 30]), [1, 1, 0]);
/// assert_eq!(points_with(RULE_26, &[50, 30, 30]), [3, 0, 0]);
/// assert_eq!(points_with(RULE_26, &[7, 7, 7]), [0, 0, 0]);
/// assert_eq!(points_with(WIN_LOSS, &[0, 1]), [0, 1]);
/// assert_eq!(points_with(WIN_LOSS, &[0, 0]), [0, 0]);
/// // Five seats: two tie for second place and share the third place's points.
/// assert_eq!(points_with(&[10, 6, 4, 3], &[9, 5, 5, 1, 0]), [10, 4, 4, 3, 0]);
/// ```
pub fn points_with(table: PointsTable, scores: &[i32]) -> Vec<u32> {
    (0..scores.len())
        .map(|s| table.get(at_least(scores, s)).copied().unwrap_or(0))
        .collect()
}

/// How many other seats scored at least as much as seat `s`.
fn at_least(scores: &[i32], s: usize) -> usize {
    (0..scores.len())
        .filter(|&o| o != s && scores[o] >= scores[s])
        .count()
}

/// Place of seat `s` (1 for the best): one more than the number of seats strictly ahead;
/// tied seats share the better place ([50, 50, 30] places 1, 1, 3).
pub fn place_of(scores: &[i32], s: usize) -> usize {
    1 + scores.iter().filter(|&&o| o > scores[s]).count()
}

/// One champion's totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub points: u64,
    pub matches: u64,
    /// Matches finished at place 1, 2, ..., k, one count per seat of the game (a shared
    /// place counts for each who shares it, as the better place: [`place_of`]).
    pub places: Vec<u64>,
    /// Matches whose final score equalled another seat's.
    pub ties: u64,
    pub score_sum: i64,
    /// Matches in which it was stopped by a fault, per kind (`FaultKind::ALL` order).
    pub faults: [u64; 5],
    pub calls: u64,
    pub cpu_us: u64,
    pub max_cpu_us: u64,
}

impl Line {
    /// The totals of a champion yet to play a game of `seats` seats.
    pub fn new(seats: usize) -> Line {
        Line {
            places: vec![0; seats],
            ..Line::default()
        }
    }

    /// Mean final score.
    pub fn mean_score(&self) -> f64 {
        self.score_sum as f64 / self.matches.max(1) as f64
    }

    /// Mean CPU time of one callback, microseconds.
    pub fn mean_call_us(&self) -> f64 {
        self.cpu_us as f64 / self.calls.max(1) as f64
    }

    /// Matches finished first (alone or tied).
    pub fn firsts(&self) -> u64 {
        self.places.first().copied().unwrap_or(0)
    }

    pub fn fault_total(&self) -> u64 {
        self.faults.iter().sum()
    }
}

/// Head-to-head of two champions over the matches they met in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Versus {
    pub met: u64,
    pub ahead: u64,
    pub tied: u64,
    pub behind: u64,
}

/// Standings of a tournament, accumulated row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    pub lines: BTreeMap<String, Line>,
    /// `(a, b)` -> how `a` did against `b`.
    pub versus: BTreeMap<(String, String), Versus>,
    /// The game's points of a place.
    pub table: PointsTable,
    /// Seats of a match: the places of each line.
    pub seats: usize,
    /// Every match counted, by id: the champion (an index in `names`) and final score of
    /// each seat. What `confidence.rs` resamples; a map by id, so that its order never
    /// depends on the order rows arrived in.
    pub outcomes: BTreeMap<u64, Vec<(usize, i32)>>,
    /// The champions of `outcomes`, in order of first appearance (which depends on the
    /// order rows arrived in: look names up, never rely on an index's order).
    pub names: Vec<String>,
    /// `names`' indices by name.
    name_index: BTreeMap<String, usize>,
}

/// The 2009 game's standings (three seats, rule 26).
impl Default for Standings {
    fn default() -> Standings {
        Standings::new(RULE_26, 3)
    }
}

impl Standings {
    /// Empty standings of a game of `seats` seats whose places earn `table`.
    pub fn new(table: PointsTable, seats: usize) -> Standings {
        Standings {
            lines: BTreeMap::new(),
            versus: BTreeMap::new(),
            table,
            seats,
            outcomes: BTreeMap::new(),
            names: Vec::new(),
            name_index: BTreeMap::new(),
        }
    }

    /// Standings where `champions` all appear, even before they play.
    pub fn with_champions<'a>(
        table: PointsTable,
        seats: usize,
        champions: impl IntoIterator<Item = &'a str>,
    ) -> Standings {
        let mut standings = Standings::new(table, seats);
        for name in champions {
            standings.line(name);
        }
        standings
    }

    /// The line of `name`, added (with a place count per seat) if new.
    fn line(&mut self, name: &str) -> &mut Line {
        let seats = self.seats;
        self.lines
            .entry(name.to_string())
            .or_insert_with(|| Line::new(seats))
    }

    /// Count one match. Points are recomputed from the scores by the game's table (rule 26
    /// for the 2009 game), whatever the row says.
    pub fn add(&mut self, row: &MatchRow) {
        let seats = row.seats();
        let points = points_with(self.table, &row.scores);
        let outcome = (0..seats)
            .map(|s| (self.name_index(&row.champions[s]), row.scores[s]))
            .collect();
        self.outcomes.insert(row.id, outcome);
        for (s, points) in points.into_iter().enumerate() {
            let line = self.line(&row.champions[s]);
            line.points += u64::from(points);
            line.matches += 1;
            // A row of more seats than the game's (never written, but counted whole).
            if line.places.len() < seats {
                line.places.resize(seats, 0);
            }
            line.places[place_of(&row.scores, s) - 1] += 1;
            if (0..seats).any(|o| o != s && row.scores[o] == row.scores[s]) {
                line.ties += 1;
            }
            line.score_sum += i64::from(row.scores[s]);
            if let Some(kind) = row.faults[s] {
                let k = FaultKind::ALL
                    .iter()
                    .position(|&x| x == kind)
                    .expect("a kind");
                line.faults[k] += 1;
            }
            line.calls += row.calls[s];
            line.cpu_us += row.cpu_us[s];
            line.max_cpu_us = line.max_cpu_us.max(row.max_cpu_us[s]);
            for o in (0..seats).filter(|&o| o != s) {
                let key = (row.champions[s].clone(), row.champions[o].clone());
                let versus = self.versus.entry(key).or_default();
                versus.met += 1;
                match row.scores[s].cmp(&row.scores[o]) {
                    std::cmp::Ordering::Greater => versus.ahead += 1,
                    std::cmp::Ordering::Equal => versus.tied += 1,
                    std::cmp::Ordering::Less => versus.behind += 1,
                }
            }
        }
    }

    /// The index of `name` in `names`, added if new.
    fn name_index(&mut self, name: &str) -> usize {
        if let Some(&i) = self.name_index.get(name) {
            return i;
        }
        self.names.push(name.to_string());
        self.name_index
            .insert(name.to_string(), self.names.len() - 1);
        self.names.len() - 1
    }

    /// The leaderboard: `(rank, name, line)`, best first.
    ///
    /// Order: more points, then more first places, then a higher mean final score, then
    /// fewer faults; champions equal on all four share a rank (the next rank skips, as in
    /// 1, 2, 2, 4) and are listed by name.
    pub fn ranked(&self) -> Vec<(usize, &str, &Line)> {
        let mut lines: Vec<(&str, &Line)> =
            self.lines.iter().map(|(n, l)| (n.as_str(), l)).collect();
        lines.sort_by(|(an, a), (bn, b)| compare(a, b).then_with(|| an.cmp(bn)));
        let mut ranked = Vec::with_capacity(lines.len());
        for (i, (name, line)) in lines.iter().enumerate() {
            let rank = match ranked.last() {
                Some(&(rank, _, previous)) if compare(previous, line).is_eq() => rank,
                _ => i + 1,
            };
            ranked.push((rank, *name, *line));
        }
        ranked
    }
}

/// Leaderboard order of two lines (`Less` = `a` ranks better).
fn compare(a: &Line, b: &Line) -> std::cmp::Ordering {
    // Mean scores compared exactly: a.sum / a.n vs b.sum / b.n.
    let mean = |l: &Line| (i128::from(l.score_sum), i128::from(l.matches.max(1)));
    let ((sa, na), (sb, nb)) = (mean(a), mean(b));
    b.points
        .cmp(&a.points)
        .then(b.firsts().cmp(&a.firsts()))
        .then((sb * na).cmp(&(sa * nb)))
        .then(a.fault_total().cmp(&b.fault_total()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls, CPU sums and the largest callback, per seat, counted by hand.
    #[test]
    fn seat_times_count_every_callback() {
        let times = SeatTimes::of(3, [(0, 5), (2, 7), (0, 3), (0, 9), (2, 1)]);
        assert_eq!(times.calls, [3, 0, 2]);
        assert_eq!(times.cpu_us, [17, 0, 8]);
        assert_eq!(times.max_cpu_us, [9, 0, 7]);
    }

    #[test]
    fn places_share_the_better_place() {
        assert_eq!([0, 1, 2].map(|s| place_of(&[50, 50, 30], s)), [1, 1, 3]);
        assert_eq!([0, 1, 2].map(|s| place_of(&[10, 50, 10], s)), [2, 1, 2]);
        assert_eq!([0, 1].map(|s| place_of(&[0, 1], s)), [2, 1]);
    }
}
