//! Pure: who plays whom, in which seats, with which seed, for games of two or three seats.
//! A match id maps to its pairing in O(log n) (round-robin) or O(n) (groups) without any
//! table, so a schedule of millions of matches costs no memory; a shard is a filter on ids.

use crate::seeds::{derive, GROUP_STREAM, MATCH_STREAM};
use serde::{Deserialize, Serialize};

/// How champions are drawn into matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Format {
    /// Every set of three distinct champions plays `rounds` matches (every pair, in a
    /// two-seat game: see [`Schedule::for_seats`]). Match `id` is round
    /// `id / C(n,3)` of combination `id % C(n,3)` (combinations in colex order), so a
    /// partial run covers the combinations evenly. Seats: within each block of three rounds
    /// the combination plays the three rotations of one seat order (ascending champion
    /// index, then its mirror in the next block), so with `rounds` a multiple of 3 every
    /// champion sits in every seat equally often, and with a multiple of 6 also before and
    /// after each opponent equally often. The rotation of round `r` of `{a, b, c}` is
    /// `(a + b + c + r) % 3`, which keeps every champion within 2 matches of an even seat
    /// split for any number of rounds. The three matches of a block of three rounds of a
    /// combination share one seed (the same setup and monuments), like chess's game pairs:
    /// each champion plays the same game from each seat, which cancels most of the luck of
    /// the setup between them (a last block of fewer than three rounds shares it too).
    RoundRobin { rounds: u64 },
    /// Each champion plays `matches` matches. Round `r` shuffles the field (seed
    /// `derive(seed, GROUP_STREAM, r)`); the rounds' orders are laid end to end and cut into
    /// groups of three in that order (the seat order). A group that straddles two rounds
    /// never holds a champion twice (the later round's head is fixed by swaps). When
    /// `n * matches` is not a multiple of 3 the last group takes one or two champions of an
    /// extra round, who then play `matches + 1` matches.
    Groups { matches: u64 },
}

impl Format {
    /// `round-robin` or `groups`.
    pub fn name(&self) -> &'static str {
        match self {
            Format::RoundRobin { .. } => "round-robin",
            Format::Groups { .. } => "groups",
        }
    }
}

/// A deterministic slice of a schedule: ids with `id % count == index - 1` (1-based, like
/// `--shard 2/8`, Slurm's `--array=1-8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Parse `i/n` with `1 <= i <= n`; `None` for anything else.
    ///
    /// ```
    /// use referee::schedule::Shard;
    /// let shard = Shard::parse("2/3").unwrap();
    /// assert!(shard.contains(1) && shard.contains(4) && !shard.contains(0));
    /// assert!(Shard::parse("0/3").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<Shard> {
        let (i, n) = text.split_once('/')?;
        let index: u64 = i.trim().parse().ok()?;
        let count: u64 = n.trim().parse().ok()?;
        (index != 0 && index <= count).then_some(Shard { index, count })
    }

    /// Whether match `id` belongs to this shard.
    pub fn contains(&self, id: u64) -> bool {
        id % self.count == self.index - 1
    }

    /// How many of the ids `0..total` belong to this shard.
    pub fn len_of(&self, total: u64) -> u64 {
        let first = self.index - 1;
        if total <= first {
            0
        } else {
            (total - first - 1) / self.count + 1
        }
    }
}

/// One match of a schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub id: u64,
    /// `derive(tournament seed, MATCH_STREAM, id)`.
    pub seed: u64,
    /// Champion indices in seats 0, 1(, 2).
    pub seats: Vec<usize>,
}

/// Every match of a tournament, as a function of the match id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    seed: u64,
    champions: usize,
    /// Seats of a match: 3 (the 2009 game) or 2.
    seats: usize,
    format: Format,
}

/// Most matches in one tournament (what a bad `--rounds` or `--matches` would otherwise
/// start: 18446744073709551615 rounds were accepted and overflowed).
pub const MAX_MATCHES: u64 = 10_000_000;

/// Why a schedule cannot be played (its message, in terms of the flags to change, is in
/// `cli/words.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    /// Fewer champions than a match has seats.
    TooFewChampions { got: usize, seats: usize },
    /// Groups are drawn for three-seat games only.
    GroupsNeedThreeSeats,
    /// A format of zero rounds or zero matches per champion.
    NoMatches(Format),
    /// Groups of three out of 4 or 5 champions.
    GroupsNeedSix(usize),
    /// More than [`MAX_MATCHES`].
    TooMany {
        total: u128,
        champions: usize,
        format: Format,
    },
}

impl std::error::Error for ScheduleError {}

/// `C(n, k)` for k <= 3.
fn choose(n: u64, k: u32) -> u64 {
    let n = u128::from(n);
    (match k {
        2 => n * n.saturating_sub(1) / 2,
        3 => n * n.saturating_sub(1) * n.saturating_sub(2) / 6,
        _ => unreachable!("only pairs and triples"),
    }) as u64
}

/// The largest `x` in `lo..=hi` with `choose(x, k) <= value`.
fn largest_below(value: u64, k: u32, mut lo: u64, mut hi: u64) -> u64 {
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if choose(mid, k) <= value {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Combination `index` of 3 among `n` in colex order, ascending.
///
/// ```
/// use referee::schedule::unrank;
/// assert_eq!(unrank(0, 5), [0, 1, 2]);
/// assert_eq!(unrank(3, 5), [1, 2, 3]);
/// assert_eq!(unrank(9, 5), [2, 3, 4]);
/// ```
pub fn unrank(index: u64, n: u64) -> [usize; 3] {
    let c = largest_below(index, 3, 2, n - 1);
    let rest = index - choose(c, 3);
    let b = largest_below(rest, 2, 1, c - 1);
    let a = rest - choose(b, 2);
    [a as usize, b as usize, c as usize]
}

impl Schedule {
    /// A schedule of three-seat matches, or what makes it unplayable.
    pub fn new(seed: u64, champions: usize, format: Format) -> Result<Schedule, ScheduleError> {
        Schedule::for_seats(3, seed, champions, format)
    }

    /// A schedule of `seats`-seat matches (2 or 3). With two seats, a round-robin plays
    /// every pair: rounds `2r` and `2r + 1` of a pair play the same seed with the colours
    /// swapped, so that with an even number of rounds each champion of a pair moves first
    /// as often as the other, on the same setups.
    pub fn for_seats(
        seats: usize,
        seed: u64,
        champions: usize,
        format: Format,
    ) -> Result<Schedule, ScheduleError> {
        assert!(seats == 2 || seats == 3, "games of 2 or 3 seats");
        if champions < seats {
            return Err(ScheduleError::TooFewChampions {
                got: champions,
                seats,
            });
        }
        match format {
            Format::RoundRobin { rounds: 0 } | Format::Groups { matches: 0 } => {
                return Err(ScheduleError::NoMatches(format))
            }
            Format::Groups { .. } if seats != 3 => return Err(ScheduleError::GroupsNeedThreeSeats),
            Format::Groups { .. } if !champions.is_multiple_of(3) && champions < 6 => {
                return Err(ScheduleError::GroupsNeedSix(champions))
            }
            _ => {}
        }
        let n = champions as u128;
        let total = match format {
            Format::RoundRobin { rounds } if seats == 2 => {
                n * n.saturating_sub(1) / 2 * u128::from(rounds)
            }
            Format::RoundRobin { rounds } => {
                n * n.saturating_sub(1) * n.saturating_sub(2) / 6 * u128::from(rounds)
            }
            Format::Groups { matches } => (n * u128::from(matches)).div_ceil(3),
        };
        if total > u128::from(MAX_MATCHES) {
            return Err(ScheduleError::TooMany {
                total,
                champions,
                format,
            });
        }
        Ok(Schedule {
            seed,
            champions,
            seats,
            format,
        })
    }

    /// Number of matches.
    pub fn len(&self) -> u64 {
        let n = self.champions as u64;
        match self.format {
            Format::RoundRobin { rounds } => choose(n, self.seats as u32) * rounds,
            Format::Groups { matches } => (n * matches).div_ceil(3),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The seed of match `id`: `derive(seed, MATCH_STREAM, k)` where `k` is, in a
    /// round-robin, the index of its block of rounds of its set of champions (blocks of two
    /// rounds for two seats, whose colours swap; of three rounds for three seats, the
    /// three rotations of the seats: see [`Format::RoundRobin`]), and the match id in
    /// groups.
    pub fn seed_of(&self, id: u64) -> u64 {
        let block = match self.format {
            Format::RoundRobin { .. } => self.seats as u64,
            Format::Groups { .. } => return derive(self.seed, MATCH_STREAM, id),
        };
        let sets = choose(self.champions as u64, self.seats as u32);
        let (round, set) = (id / sets, id % sets);
        derive(self.seed, MATCH_STREAM, (round / block) * sets + set)
    }

    /// Seats of a match.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// Match `id` (< `len()`).
    pub fn pairing(&self, id: u64) -> Pairing {
        if self.seats == 2 {
            return self.round_robin_pair(id);
        }
        let seats = match self.format {
            Format::RoundRobin { .. } => self.round_robin_seats(id).to_vec(),
            Format::Groups { .. } => {
                let n = self.champions as u64;
                (0..3)
                    .map(|k| {
                        let p = 3 * id + k;
                        self.group_order(p / n)[(p % n) as usize]
                    })
                    .collect()
            }
        };
        Pairing {
            id,
            seed: self.seed_of(id),
            seats,
        }
    }

    /// Match `id` of a two-seat round-robin: pair `id % C(n,2)` (colex order), round
    /// `id / C(n,2)`; rounds `2r` and `2r + 1` share a seed and swap the colours. Who moves
    /// first in round 0 alternates with the pair (`(a + b) % 2`), so that every champion
    /// moves first about as often as not even with one round.
    fn round_robin_pair(&self, id: u64) -> Pairing {
        let n = self.champions as u64;
        let pairs = choose(n, 2);
        let (round, pair) = (id / pairs, id % pairs);
        let b = largest_below(pair, 2, 1, n - 1);
        let a = (pair - choose(b, 2)) as usize;
        let b = b as usize;
        let swap = (round + (a + b) as u64) % 2 == 1;
        Pairing {
            id,
            seed: self.seed_of(id),
            seats: if swap { vec![b, a] } else { vec![a, b] },
        }
    }

    /// Every match in id order, lazily (groups: one round's order cached at a time).
    pub fn iter(&self) -> impl Iterator<Item = Pairing> + Send + '_ {
        let mut cache: Vec<(u64, Vec<usize>)> = Vec::new();
        (0..self.len()).map(move |id| match self.format {
            Format::RoundRobin { .. } => self.pairing(id),
            Format::Groups { .. } => {
                let n = self.champions as u64;
                let seats = (0..3u64).map(|k| {
                    let p = 3 * id + k;
                    let round = p / n;
                    if !cache.iter().any(|(r, _)| *r == round) {
                        if cache.len() == 2 {
                            cache.remove(0);
                        }
                        cache.push((round, self.group_order(round)));
                    }
                    let (_, order) = cache.iter().find(|(r, _)| *r == round).expect("cached");
                    order[(p % n) as usize]
                });
                let seats = seats.collect();
                Pairing {
                    id,
                    seed: self.seed_of(id),
                    seats,
                }
            }
        })
    }

    fn round_robin_seats(&self, id: u64) -> [usize; 3] {
        let combos = choose(self.champions as u64, 3);
        let (round, combo) = (id / combos, id % combos);
        let [a, b, c] = unrank(combo, self.champions as u64);
        let base = if (round / 3) % 2 == 0 {
            [a, b, c]
        } else {
            [a, c, b]
        };
        let r = ((a + b + c) as u64 + round) as usize % 3;
        [base[r], base[(r + 1) % 3], base[(r + 2) % 3]]
    }

    /// The shuffled field of round `round`, as drawn (before fixing its head).
    fn raw_order(&self, round: u64) -> Vec<usize> {
        let round_seed = derive(self.seed, GROUP_STREAM, round);
        let mut order: Vec<usize> = (0..self.champions).collect();
        for i in (1..order.len()).rev() {
            let x = derive(round_seed, 0, i as u64);
            let j = ((u128::from(x) * (i as u128 + 1)) >> 64) as usize;
            order.swap(i, j);
        }
        order
    }

    /// The field of round `round` in play order: the drawn order, with its first one or two
    /// champions swapped with later ones (never the last two) when they already sit in the
    /// group that straddles the previous round.
    fn group_order(&self, round: u64) -> Vec<usize> {
        let n = self.champions;
        let mut order = self.raw_order(round);
        let before = ((n as u64 * round) % 3) as usize;
        if round > 0 && before > 0 {
            let previous = self.raw_order(round - 1);
            let tail = &previous[n - before..];
            for h in 0..3 - before {
                if tail.contains(&order[h]) {
                    let m = (2..=n - 3)
                        .find(|&m| !tail.contains(&order[m]))
                        .expect("at least 6 champions when groups straddle rounds");
                    order.swap(h, m);
                }
            }
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_many_matches_are_refused() {
        let err = Schedule::new(1, 3, Format::RoundRobin { rounds: u64::MAX }).unwrap_err();
        assert!(matches!(err, ScheduleError::TooMany { champions: 3, .. }));
        let err = Schedule::new(1, 100, Format::Groups { matches: u64::MAX }).unwrap_err();
        assert!(matches!(err, ScheduleError::TooMany { champions: 100, .. }));
        // The largest allowed is accepted, one more is not.
        let ok = Schedule::new(
            1,
            3,
            Format::RoundRobin {
                rounds: MAX_MATCHES,
            },
        )
        .unwrap();
        assert_eq!(ok.len(), MAX_MATCHES);
        assert!(Schedule::new(
            1,
            3,
            Format::RoundRobin {
                rounds: MAX_MATCHES + 1
            }
        )
        .is_err());
        let groups = Schedule::new(
            1,
            3,
            Format::Groups {
                matches: MAX_MATCHES,
            },
        )
        .unwrap();
        assert_eq!(groups.len(), MAX_MATCHES);
    }

    #[test]
    fn unrank_enumerates_every_combination_once() {
        for n in 3..12u64 {
            let all: Vec<[usize; 3]> = (0..choose(n, 3)).map(|k| unrank(k, n)).collect();
            let mut sorted = all.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), all.len());
            assert!(all
                .iter()
                .all(|[a, b, c]| a < b && b < c && (*c as u64) < n));
        }
    }

    #[test]
    fn groups_are_balanced_and_distinct() {
        for n in [3usize, 6, 7, 8, 10, 13] {
            for k in 1..8u64 {
                let s = Schedule::new(9, n, Format::Groups { matches: k }).unwrap();
                let mut played = vec![0u64; n];
                for (p, q) in s.iter().zip((0..s.len()).map(|id| s.pairing(id))) {
                    assert_eq!(p, q);
                    let [a, b, c] = p.seats[..] else {
                        panic!("three seats: {p:?}")
                    };
                    assert!(a != b && b != c && a != c, "{n} {k} {p:?}");
                    for &x in &p.seats {
                        played[x] += 1;
                    }
                }
                assert!(played.iter().all(|&m| m == k || m == k + 1), "{played:?}");
                assert_eq!(played.iter().sum::<u64>(), 3 * s.len());
            }
        }
    }

    #[test]
    fn shard_sizes_add_up() {
        for total in 0..20 {
            let sum: u64 = (1..=4)
                .map(|i| Shard { index: i, count: 4 }.len_of(total))
                .sum();
            assert_eq!(sum, total);
        }
    }
}
