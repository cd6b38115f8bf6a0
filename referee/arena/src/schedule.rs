//! Pure: who plays whom, in which seats, with which seed, for games of any number of seats
//! from 2 to [`MAX_SEATS`], with no special case for any count. A match id maps to its
//! pairing in O(k log n) (round-robin) or O(n) (groups) without any table, so a schedule of
//! millions of matches costs no memory; a shard is a filter on ids.

use crate::seeds::{derive, GROUP_STREAM, MATCH_STREAM};
use serde::{Deserialize, Serialize};

/// Most seats of a match the runner schedules (the games coming have up to 5).
pub const MAX_SEATS: usize = 8;

/// How champions are drawn into matches, for matches of `k` seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Format {
    /// Every set of `k` distinct champions plays `rounds` matches. Match `id` is round
    /// `id / C(n,k)` of set `id % C(n,k)` (sets in colex order, [`unrank`]), so a partial
    /// run covers the sets evenly.
    ///
    /// Seats: rounds go by blocks of `k`. A block plays the `k` rotations of one seat order
    /// of the set (a Latin square: each champion once in each seat), so with `rounds` a
    /// multiple of `k` every champion sits in every seat equally often. The rotation of
    /// round `r` is `(sum of the set's indices + r) % k`, which spreads the seats of a
    /// partial block over the sets. The seat orders of successive blocks are the set's
    /// cyclic orders in turn (see [`seat_order`]): the ascending order, then its mirror
    /// (so with a multiple of `2k` rounds each champion also sits just before each of its
    /// two neighbours as often as just after it), then the others, `(k-1)!` in all, so
    /// that `k!` rounds play every seat order once. All `k!` orders would be the plain
    /// choice, but from 5 seats they are 120 to 40,320 matches per set: the blocks give
    /// seat balance every `k` rounds instead, and every order only in the long run. With
    /// two seats this is a colour swap every other round, with three seats the three
    /// rotations of the ascending order, then of its mirror.
    ///
    /// Deals: with [`Deal::Fresh`] (what a new run plays) every match draws its own seed;
    /// with [`Deal::Rotated`] (`--deal rotated`, and every run started before the choice)
    /// the `k` matches of a block of a set share one seed (the same setup), like chess's
    /// game pairs: each champion plays the same game from each seat, which cancels most of
    /// the luck of the setup between them (a last block of fewer than `k` rounds shares it
    /// too), but a champion that remembers a match across the jail (the machine's page
    /// cache is such a memory, and no jail closes a timing channel) knows the setup of the
    /// block's next matches, hidden cards included.
    RoundRobin {
        rounds: u64,
        /// Absent in a run started before the choice: such a run played rotated deals.
        #[serde(default = "Deal::before_choice")]
        deal: Deal,
    },
    /// Each champion plays `matches` matches. Round `r` shuffles the field (seed
    /// `derive(seed, GROUP_STREAM, r)`); the rounds' orders are laid end to end and cut into
    /// groups of `k` in that order (the seat order). A group that straddles two rounds
    /// never holds a champion twice (the later round's head is fixed by swaps, which needs
    /// a field that is a multiple of `k` or at least `3k - 3`). When `n * matches` is not a
    /// multiple of `k` the last group takes champions of an extra round, who then play
    /// `matches + 1` matches.
    Groups { matches: u64 },
}

/// Whether the rotations of a round-robin block replay one deal (`--deal`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Deal {
    /// Every match draws its own seed: nothing a champion remembers of one match tells it
    /// the setup of another. A new run's default.
    #[default]
    Fresh,
    /// The `k` matches of a block share one seed (the same setup from every seat): less
    /// luck in the leaderboard, but safe only where a champion cannot carry memory from
    /// one match to the next (one machine per champion, or caches dropped between
    /// matches).
    Rotated,
}

impl Deal {
    /// The deal of a run whose `tournament.json` does not say: every run before the
    /// choice played rotated deals.
    pub fn before_choice() -> Deal {
        Deal::Rotated
    }

    /// `fresh` or `rotated`, as `--deal` takes it.
    pub fn name(&self) -> &'static str {
        match self {
            Deal::Fresh => "fresh",
            Deal::Rotated => "rotated",
        }
    }
}

impl Format {
    /// A round-robin of `rounds` rounds that deals every match afresh (a new run's default).
    pub fn round_robin(rounds: u64) -> Format {
        Format::RoundRobin {
            rounds,
            deal: Deal::Fresh,
        }
    }

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
    /// use arena::schedule::Shard;
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
    /// [`Schedule::seed_of`] its id.
    pub seed: u64,
    /// Champion indices in seats 0, 1, ..., k - 1.
    pub seats: Vec<usize>,
}

/// Every match of a tournament, as a function of the match id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    seed: u64,
    champions: usize,
    /// Seats of a match, 2 to [`MAX_SEATS`].
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
    /// A game of fewer than 2 or more than [`MAX_SEATS`] seats.
    Seats(usize),
    /// Fewer champions than a match has seats.
    TooFewChampions { got: usize, seats: usize },
    /// A format of zero rounds or zero matches per champion.
    NoMatches(Format),
    /// Groups of `seats` out of a field that is neither a multiple of `seats` nor at least
    /// `3 * seats - 3` (4 or 5 champions for three seats).
    GroupsNeedMore { got: usize, seats: usize },
    /// More than [`MAX_MATCHES`].
    TooMany {
        total: u128,
        champions: usize,
        format: Format,
    },
}

/// `C(n, k)`, saturating at `u128::MAX`.
fn choose_wide(n: u64, k: usize) -> u128 {
    let mut c: u128 = 1;
    for i in 0..k as u64 {
        // Exact at each step: a product of i + 1 consecutive integers is a multiple of
        // (i + 1)!.
        match c.checked_mul(u128::from(n.saturating_sub(i))) {
            Some(product) => c = product / u128::from(i + 1),
            None => return u128::MAX,
        }
    }
    c
}

/// `C(n, k)`: the sets of `k` champions among `n` (saturating at `u64::MAX`).
///
/// ```
/// assert_eq!(arena::schedule::choose(9, 8), 9);
/// assert_eq!(arena::schedule::choose(5, 2), 10);
/// ```
pub fn choose(n: u64, k: usize) -> u64 {
    u64::try_from(choose_wide(n, k)).unwrap_or(u64::MAX)
}

/// The largest `x` in `lo..=hi` with `choose(x, k) <= value`.
fn largest_below(value: u64, k: usize, mut lo: u64, mut hi: u64) -> u64 {
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

/// Combination `index` of `k` among `n` in colex order, ascending.
///
/// ```
/// use arena::schedule::unrank;
/// assert_eq!(unrank(0, 5, 3), [0, 1, 2]);
/// assert_eq!(unrank(3, 5, 3), [1, 2, 3]);
/// assert_eq!(unrank(9, 5, 3), [2, 3, 4]);
/// assert_eq!(unrank(4, 5, 2), [1, 3]);
/// assert_eq!(unrank(0, 8, 8), [0, 1, 2, 3, 4, 5, 6, 7]);
/// ```
pub fn unrank(index: u64, n: u64, k: usize) -> Vec<usize> {
    let mut set = vec![0; k];
    let (mut rest, mut hi) = (index, n.saturating_sub(1));
    for j in (1..=k).rev() {
        let c = largest_below(rest, j, j as u64 - 1, hi);
        rest -= choose(c, j);
        set[j - 1] = c as usize;
        hi = c.saturating_sub(1);
    }
    set
}

/// `n!`.
fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// Seat order `m` (modulo `(k-1)!`) of a set of `k` champions given in ascending order:
/// its first champion first, the others in permutation `m` of theirs. Permutation 0 is
/// the identity and `2q + 1` the mirror of `2q`; `2q` is the `q`-th permutation in which
/// the second champion comes before the third, by the seats of those two (colex) then the
/// order of the others (lexicographic). So every cyclic order of the set comes once in
/// `(k-1)!`, the ascending one first and its mirror next.
///
/// ```
/// use arena::schedule::seat_order;
/// assert_eq!(seat_order(&[4, 7], 0), [4, 7]);
/// assert_eq!(seat_order(&[1, 2, 3], 0), [1, 2, 3]);
/// assert_eq!(seat_order(&[1, 2, 3], 1), [1, 3, 2]);
/// assert_eq!(seat_order(&[0, 1, 2, 3], 1), [0, 3, 2, 1]);
/// ```
pub fn seat_order(set: &[usize], m: u64) -> Vec<usize> {
    let (first, others) = match set.split_first() {
        Some((first, others)) if others.len() >= 2 => (*first, others),
        _ => return set.to_vec(),
    };
    let len = others.len();
    let m = m % factorial(len);
    let rest = factorial(len - 2);
    let (q, mirror) = (m / 2, m % 2 == 1);
    // The seats of the second and third champions, then the others in lexicographic order
    // `q % rest` (factorial number system) in the seats left.
    let pair = unrank(q / rest, len as u64, 2);
    let mut left: Vec<usize> = others[2..].to_vec();
    let mut code = q % rest;
    let mut order = Vec::with_capacity(len);
    for seat in 0..len {
        if seat == pair[0] {
            order.push(others[0]);
        } else if seat == pair[1] {
            order.push(others[1]);
        } else {
            let base = factorial(left.len() - 1);
            let pick = (code / base) as usize;
            code %= base;
            order.push(left.remove(pick));
        }
    }
    if mirror {
        order.reverse();
    }
    let mut seats = vec![first];
    seats.extend(order);
    seats
}

impl Schedule {
    /// A schedule of three-seat matches, or what makes it unplayable.
    pub fn new(seed: u64, champions: usize, format: Format) -> Result<Schedule, ScheduleError> {
        Schedule::for_seats(3, seed, champions, format)
    }

    /// A schedule of `seats`-seat matches (2 to [`MAX_SEATS`]), or what makes it
    /// unplayable. With two seats, a round-robin plays every pair: rounds `2r` and
    /// `2r + 1` of a pair swap the colours, so that with an even number of rounds each
    /// champion of a pair moves first as often as the other (on the same setups with
    /// rotated deals).
    pub fn for_seats(
        seats: usize,
        seed: u64,
        champions: usize,
        format: Format,
    ) -> Result<Schedule, ScheduleError> {
        if !(2..=MAX_SEATS).contains(&seats) {
            return Err(ScheduleError::Seats(seats));
        }
        if champions < seats {
            return Err(ScheduleError::TooFewChampions {
                got: champions,
                seats,
            });
        }
        match format {
            Format::RoundRobin { rounds: 0, .. } | Format::Groups { matches: 0 } => {
                return Err(ScheduleError::NoMatches(format))
            }
            Format::Groups { .. }
                if !champions.is_multiple_of(seats) && champions < 3 * seats - 3 =>
            {
                return Err(ScheduleError::GroupsNeedMore {
                    got: champions,
                    seats,
                })
            }
            _ => {}
        }
        let n = champions as u128;
        let total = match format {
            Format::RoundRobin { rounds, .. } => {
                choose_wide(champions as u64, seats).saturating_mul(u128::from(rounds))
            }
            Format::Groups { matches } => (n * u128::from(matches)).div_ceil(seats as u128),
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
            Format::RoundRobin { rounds, .. } => choose(n, self.seats) * rounds,
            Format::Groups { matches } => (n * matches).div_ceil(self.seats as u64),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The seed of match `id`: `derive(seed, MATCH_STREAM, b)` where `b` is, in a
    /// round-robin of rotated deals, the index of its block of `k` rounds of its set of
    /// champions (the `k` rotations of one seat order: see [`Format::RoundRobin`]), and the
    /// match id otherwise (groups, and a round-robin of fresh deals).
    pub fn seed_of(&self, id: u64) -> u64 {
        let block = match self.format {
            Format::RoundRobin {
                deal: Deal::Rotated,
                ..
            } => self.seats as u64,
            Format::RoundRobin {
                deal: Deal::Fresh, ..
            }
            | Format::Groups { .. } => return derive(self.seed, MATCH_STREAM, id),
        };
        let sets = choose(self.champions as u64, self.seats);
        let (round, set) = (id / sets, id % sets);
        derive(self.seed, MATCH_STREAM, (round / block) * sets + set)
    }

    /// Seats of a match.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// Match `id` (< `len()`).
    pub fn pairing(&self, id: u64) -> Pairing {
        let seats = match self.format {
            Format::RoundRobin { .. } => self.round_robin_seats(id),
            Format::Groups { .. } => {
                let n = self.champions as u64;
                let k = self.seats as u64;
                (0..k)
                    .map(|s| {
                        let p = k * id + s;
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

    /// Every match in id order, lazily (groups: one round's order cached at a time).
    pub fn iter(&self) -> impl Iterator<Item = Pairing> + Send + '_ {
        let mut cache: Vec<(u64, Vec<usize>)> = Vec::new();
        (0..self.len()).map(move |id| match self.format {
            Format::RoundRobin { .. } => self.pairing(id),
            Format::Groups { .. } => {
                let n = self.champions as u64;
                let k = self.seats as u64;
                let seats = (0..k).map(|s| {
                    let p = k * id + s;
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

    /// The seats of round-robin match `id`: its set, its block's seat order, rotated.
    fn round_robin_seats(&self, id: u64) -> Vec<usize> {
        let k = self.seats;
        let sets = choose(self.champions as u64, k);
        let (round, index) = (id / sets, id % sets);
        let set = unrank(index, self.champions as u64, k);
        let base = seat_order(&set, round / k as u64);
        let sum: u64 = set.iter().map(|&c| c as u64).sum();
        let r = ((sum + round) % k as u64) as usize;
        (0..k).map(|s| base[(r + s) % k]).collect()
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

    /// The field of round `round` in play order: the drawn order, with its first champions
    /// (those of the group that straddles the previous round) swapped with later ones
    /// (never the last `k - 1`, which the next round's group may hold) when they already
    /// sit in that group.
    fn group_order(&self, round: u64) -> Vec<usize> {
        let (n, k) = (self.champions, self.seats);
        let mut order = self.raw_order(round);
        let before = ((n as u64 * round) % k as u64) as usize;
        if round > 0 && before > 0 {
            let previous = self.raw_order(round - 1);
            let tail = &previous[n - before..];
            for h in 0..k - before {
                if tail.contains(&order[h]) {
                    let m = (k - 1..=n - k)
                        .find(|&m| !tail.contains(&order[m]))
                        .expect("at least 3k - 3 champions when groups straddle rounds");
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
        let err = Schedule::new(1, 3, Format::round_robin(u64::MAX)).unwrap_err();
        assert!(matches!(err, ScheduleError::TooMany { champions: 3, .. }));
        let err = Schedule::new(1, 100, Format::Groups { matches: u64::MAX }).unwrap_err();
        assert!(matches!(err, ScheduleError::TooMany { champions: 100, .. }));
        // The largest allowed is accepted, one more is not.
        let ok = Schedule::new(1, 3, Format::round_robin(MAX_MATCHES)).unwrap();
        assert_eq!(ok.len(), MAX_MATCHES);
        assert!(Schedule::new(1, 3, Format::round_robin(MAX_MATCHES + 1)).is_err());
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
            for k in 1..=MAX_SEATS.min(n as usize) {
                let all: Vec<Vec<usize>> = (0..choose(n, k)).map(|i| unrank(i, n, k)).collect();
                let mut sorted = all.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), all.len());
                assert!(all.iter().all(|set| set.len() == k
                    && set.windows(2).all(|w| w[0] < w[1])
                    && set.iter().all(|&c| (c as u64) < n)));
            }
        }
    }

    #[test]
    fn groups_are_balanced_and_distinct() {
        for k in 2..=MAX_SEATS {
            for n in k..=3 * k + 1 {
                for m in 1..6u64 {
                    let Ok(s) = Schedule::for_seats(k, 9, n, Format::Groups { matches: m }) else {
                        assert!(!n.is_multiple_of(k) && n < 3 * k - 3, "{k} seats, {n}");
                        continue;
                    };
                    let mut played = vec![0u64; n];
                    for (p, q) in s.iter().zip((0..s.len()).map(|id| s.pairing(id))) {
                        assert_eq!(p, q);
                        let mut distinct = p.seats.clone();
                        distinct.sort();
                        distinct.dedup();
                        assert_eq!(distinct.len(), k, "{n} {m} {p:?}");
                        for &x in &p.seats {
                            played[x] += 1;
                        }
                    }
                    assert!(played.iter().all(|&c| c == m || c == m + 1), "{played:?}");
                    assert_eq!(played.iter().sum::<u64>(), k as u64 * s.len());
                }
            }
        }
    }

    /// Out of 2 to 8 seats, no schedule, and the error says how many seats.
    #[test]
    fn seats_out_of_range_are_refused() {
        for seats in [0, 1, MAX_SEATS + 1] {
            let err = Schedule::for_seats(seats, 1, 20, Format::round_robin(1));
            assert_eq!(err, Err(ScheduleError::Seats(seats)));
        }
        // A huge field of eight-seat sets is refused, not overflowed.
        let err = Schedule::for_seats(8, 1, 1 << 40, Format::round_robin(1));
        assert!(matches!(err, Err(ScheduleError::TooMany { .. })), "{err:?}");
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
