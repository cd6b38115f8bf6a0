//! Property tests of k-seat schedules (k from 2 to 8) and of the points of tied seats: every
//! k-set plays its rounds, each block of k rounds is the k rotations of one seat order (on
//! one seed with rotated deals, a seed each with fresh ones), seats balance every k rounds,
//! neighbours every 2k, every seat order comes in k! rounds; groups hold k distinct
//! champions; a points table gives tied seats the points of the lowest place they share,
//! for any number of seats.

use proptest::prelude::*;
use referee::schedule::{seat_order, Deal, Format, Schedule, MAX_SEATS};
use referee::standings::{places_of, points_with, RULE_26, WIN_LOSS};
use std::collections::{BTreeMap, BTreeSet};

/// `C(n, k)`.
fn choose(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |c, i| c * (n - i) as u64 / (i as u64 + 1))
}

fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// A field of `k` to `k + 3` champions for `k` seats, and a multiple of `k` rounds.
fn round_robin() -> impl Strategy<Value = (usize, usize, u64, u64)> {
    (2..=MAX_SEATS).prop_flat_map(|k| (Just(k), k..=k + 3, 1..=3u64, any::<u64>()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every set plays `rounds` matches, each block the rotations of one order on one
    /// seed, every champion in every seat equally often; with 2k rounds, who sits just
    /// before whom is balanced.
    #[test]
    fn round_robins_rotate_every_set_through_every_seat(
        (k, n, blocks, seed) in round_robin(), mirrored in any::<bool>()
    ) {
        let rounds = k as u64 * if mirrored { 2 * blocks } else { blocks };
        let deal = Deal::Rotated;
        let s = Schedule::for_seats(k, seed, n, Format::RoundRobin { rounds, deal }).unwrap();
        prop_assert_eq!(s.len(), choose(n, k) * rounds);
        let mut per_set: BTreeMap<Vec<usize>, u64> = BTreeMap::new();
        let mut blocks_of: BTreeMap<u64, Vec<Vec<usize>>> = BTreeMap::new();
        let mut per_seat = vec![vec![0u64; k]; n];
        let mut before: BTreeMap<(usize, usize, usize), u64> = BTreeMap::new();
        for p in s.iter() {
            prop_assert_eq!(&p, &s.pairing(p.id));
            let mut set = p.seats.clone();
            set.sort();
            set.dedup();
            prop_assert_eq!(set.len(), k);
            *per_set.entry(set).or_default() += 1;
            blocks_of.entry(p.seed).or_default().push(p.seats.clone());
            for (seat, &c) in p.seats.iter().enumerate() {
                per_seat[c][seat] += 1;
                let next = p.seats[(seat + 1) % k];
                *before.entry((seat, c, next)).or_default() += 1;
            }
        }
        prop_assert_eq!(per_set.len() as u64, choose(n, k));
        prop_assert!(per_set.values().all(|&m| m == rounds));
        prop_assert_eq!(blocks_of.len() as u64, choose(n, k) * rounds / k as u64);
        for block in blocks_of.values() {
            prop_assert_eq!(block.len(), k);
            for order in block {
                let mut next = order.clone();
                next.rotate_left(1);
                prop_assert!(block.contains(&next), "{:?}", block);
            }
        }
        let each = choose(n - 1, k - 1) * rounds / k as u64;
        for counts in &per_seat {
            prop_assert!(counts.iter().all(|&c| c == each), "{:?}", counts);
        }
        if mirrored && k > 2 {
            for (&(seat, a, b), &count) in &before {
                prop_assert_eq!(before.get(&(seat, b, a)).copied(), Some(count));
            }
        }
    }

    /// Fresh deals (a new run's default) seat every match as rotated deals do, block by
    /// block, but no two matches share a seed: nothing remembered of one match (the
    /// machine's page cache outlives a jail) tells a champion another's setup. A run
    /// started before the choice, whose `tournament.json` has no `deal`, reads as rotated.
    #[test]
    fn fresh_deals_rotate_the_same_seats_on_a_seed_per_match(
        (k, n, blocks, seed) in round_robin(), old_run in any::<bool>()
    ) {
        let rounds = k as u64 * blocks;
        let fresh = Schedule::for_seats(k, seed, n, Format::round_robin(rounds)).unwrap();
        let rotated = Format::RoundRobin { rounds, deal: Deal::Rotated };
        let rotated = Schedule::for_seats(k, seed, n, rotated).unwrap();
        let mut seeds = BTreeSet::new();
        for (p, q) in fresh.iter().zip(rotated.iter()) {
            prop_assert_eq!(&p.seats, &q.seats);
            prop_assert_eq!(p.seed, fresh.seed_of(p.id));
            prop_assert!(seeds.insert(p.seed), "match {} repeats a seed", p.id);
        }
        prop_assert_eq!(seeds.len() as u64, fresh.len());
        let stored = if old_run {
            serde_json::json!({"kind": "round-robin", "rounds": rounds})
        } else {
            serde_json::json!({"kind": "round-robin", "rounds": rounds, "deal": "rotated"})
        };
        let read: Format = serde_json::from_value(stored).unwrap();
        prop_assert_eq!(read, Format::RoundRobin { rounds, deal: Deal::Rotated });
        let written = serde_json::to_value(Format::round_robin(rounds)).unwrap();
        prop_assert_eq!(&written["deal"], "fresh");
    }

    /// Groups of k: k distinct champions a match, each champion `matches` or one more.
    #[test]
    fn groups_hold_k_distinct_champions(
        k in 2..=MAX_SEATS, extra in 0..12usize, matches in 1..5u64, seed in any::<u64>()
    ) {
        let n = k + extra;
        let s = match Schedule::for_seats(k, seed, n, Format::Groups { matches }) {
            Ok(s) => s,
            Err(_) => {
                prop_assert!(n % k != 0 && n < 3 * k - 3);
                return Ok(());
            }
        };
        let mut played = vec![0u64; n];
        for (p, q) in s.iter().zip((0..s.len()).map(|id| s.pairing(id))) {
            prop_assert_eq!(&p, &q);
            prop_assert_eq!(p.seats.iter().collect::<BTreeSet<_>>().len(), k);
            for &c in &p.seats {
                played[c] += 1;
            }
        }
        prop_assert!(played.iter().all(|&c| c == matches || c == matches + 1));
    }

    /// Points of any number of seats, from the places of the scores: equal scores, equal
    /// points, those of the lowest place the tied seats share; a better score never earns
    /// less; seats permuted, points permuted.
    #[test]
    fn tied_seats_share_the_points_of_their_lowest_place(
        scores in prop::collection::vec(0..4i32, 2..=MAX_SEATS), table in 0..3usize
    ) {
        let table = [RULE_26, WIN_LOSS, &[10, 6, 3, 1][..]][table];
        let places = places_of(&scores);
        let points = points_with(table, &places);
        prop_assert_eq!(points.len(), scores.len());
        for s in 0..scores.len() {
            let lowest = scores.iter().filter(|&&o| o >= scores[s]).count() - 1;
            prop_assert_eq!(points[s], table.get(lowest).copied().unwrap_or(0));
            prop_assert!(usize::from(places[s]) <= lowest + 1);
            for o in 0..scores.len() {
                if scores[o] == scores[s] {
                    prop_assert_eq!(points[o], points[s]);
                }
                if scores[o] > scores[s] {
                    prop_assert!(points[o] >= points[s]);
                }
            }
        }
        let mut turned = places.clone();
        turned.rotate_left(1);
        let mut expected = points.clone();
        expected.rotate_left(1);
        prop_assert_eq!(points_with(table, &turned), expected);
    }
}

/// For 2 to 5 seats, k! rounds play every seat order of every set once.
#[test]
fn k_factorial_rounds_play_every_seat_order_once() {
    for k in 2..=5 {
        let n = k + 1;
        let rounds = factorial(k);
        let s = Schedule::for_seats(k, 7, n, Format::round_robin(rounds)).unwrap();
        let mut orders: BTreeMap<Vec<usize>, u64> = BTreeMap::new();
        for p in s.iter() {
            *orders.entry(p.seats).or_default() += 1;
        }
        assert_eq!(orders.len() as u64, choose(n, k) * rounds, "{k} seats");
        assert!(orders.values().all(|&m| m == 1), "{k} seats");
    }
}

/// The seat orders of a set: `(k-1)!` distinct cyclic orders, the ascending one first and
/// its mirror next, every one starting with the set's first champion.
#[test]
fn seat_orders_are_the_cyclic_orders_ascending_then_mirrored() {
    for k in 2..=MAX_SEATS {
        let set: Vec<usize> = (10..10 + k).collect();
        let count = factorial(k - 1);
        let orders: BTreeSet<Vec<usize>> = (0..count).map(|m| seat_order(&set, m)).collect();
        assert_eq!(orders.len() as u64, count, "{k} seats");
        assert!(orders.iter().all(|o| o[0] == 10 && o.len() == k));
        assert_eq!(seat_order(&set, 0), set);
        if k > 2 {
            let mut mirror = vec![10];
            mirror.extend(set[1..].iter().rev());
            assert_eq!(seat_order(&set, 1), mirror);
        }
        assert_eq!(seat_order(&set, count), set, "the orders cycle");
    }
}
