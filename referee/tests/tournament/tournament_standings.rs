//! Points and ranks recomputed from `matches.csv` rows on crafted ties (rule 26 and the
//! leaderboard's tie-break rule), and the schedule's completeness and seat balance.

use referee::export::matches_csv::{header, parse_line};
use referee::schedule::{Deal, Format, Schedule, Shard};
use referee::standings::Standings;
use std::collections::BTreeMap;

/// A `matches.csv` row with the given champions and scores, placed by their scores (other
/// columns filler).
fn line(id: u64, champions: [&str; 3], scores: [i32; 3]) -> String {
    let places = referee::standings::places_of(&scores);
    format!(
        "{id},{id},0,{},{},{},{},{},{},{},{},{},0,0,0,,,,1,1,1,5,5,5,5,5,5,9,00,referee match x,{}\n",
        champions[0],
        champions[1],
        champions[2],
        places[0],
        places[1],
        places[2],
        scores[0],
        scores[1],
        scores[2],
        referee::export::RESULTS_SCHEMA
    )
}

/// The same row with a fault in the seats given (`timeout`, `crash`, ...).
fn line_with_faults(id: u64, champions: [&str; 3], faults: [&str; 3]) -> String {
    line(id, champions, [10, 10, 10]).replacen(
        "0,0,0,,,,",
        &format!("0,0,0,{},{},{},", faults[0], faults[1], faults[2]),
        1,
    )
}

fn standings(lines: &[String]) -> Standings {
    let mut standings = Standings::default();
    for l in lines {
        let (row, _) = parse_line(l.as_bytes(), 3).unwrap();
        standings.add(&row);
    }
    standings
}

#[test]
fn crafted_ties_give_rule_26_points_and_places() {
    let s = standings(&[
        line(0, ["a", "b", "c"], [50, 50, 30]), // two tied first: 1, 1, 0
        line(1, ["a", "b", "c"], [10, 30, 30]), // two tied second... and first: 0, 1, 1
        line(2, ["a", "b", "c"], [7, 7, 7]),    // all tied: 0 each
        line(3, ["a", "b", "c"], [60, 20, 20]), // two tied last: 3, 0, 0
    ]);
    let points: BTreeMap<&str, u64> = s
        .lines
        .iter()
        .map(|(n, l)| (n.as_str(), l.points))
        .collect();
    assert_eq!(points, BTreeMap::from([("a", 4), ("b", 2), ("c", 1)]));
    let a = &s.lines["a"];
    assert_eq!(a.places, [3, 0, 1]);
    assert_eq!(a.ties, 2);
    let c = &s.lines["c"];
    assert_eq!(c.places, [2, 1, 1]);
    assert_eq!(c.ties, 3);
    let ranked: Vec<(usize, &str)> = s.ranked().into_iter().map(|(r, n, _)| (r, n)).collect();
    assert_eq!(ranked, [(1, "a"), (2, "b"), (3, "c")]);
    let v = s.versus[&("b".to_string(), "c".to_string())];
    assert_eq!((v.met, v.ahead, v.tied, v.behind), (4, 1, 3, 0));
}

#[test]
fn equal_points_are_broken_by_firsts_then_mean_score_then_shared() {
    // x and y: 3 points each; x has one first (3+0), y two seconds (1+1)... plus one more.
    let s = standings(&[
        line(0, ["x", "y", "z"], [30, 20, 10]), // x 3, y 1, z 0
        line(1, ["x", "y", "z"], [0, 20, 30]),  // z 3, y 1, x 0
        line(2, ["y", "w", "v"], [20, 10, 0]),  // y 3
    ]);
    // x: 3 points, 1 first; y: 5 points; z: 3 points, 1 first, mean 20 > x's mean 15.
    let ranked: Vec<(usize, &str)> = s.ranked().into_iter().map(|(r, n, _)| (r, n)).collect();
    assert_eq!(ranked[..3], [(1, "y"), (2, "z"), (3, "x")]);
    // Identical records share a rank and are listed by name.
    let s = standings(&[
        line(0, ["p", "q", "r"], [10, 10, 10]),
        line(1, ["q", "p", "r"], [10, 10, 10]),
    ]);
    let ranked: Vec<(usize, &str)> = s.ranked().into_iter().map(|(r, n, _)| (r, n)).collect();
    assert_eq!(ranked, [(1, "p"), (1, "q"), (1, "r")]);
}

/// The last tie-break: equal on points, firsts and mean score, fewer faults ranks better,
/// whatever their kind.
#[test]
fn equal_records_are_broken_by_fewer_faults() {
    let s = standings(&[
        line_with_faults(0, ["p", "q", "r"], ["timeout", "", ""]),
        line_with_faults(1, ["q", "p", "r"], ["", "", "crash"]),
        line_with_faults(2, ["r", "q", "p"], ["", "", "memory"]),
    ]);
    assert_eq!(s.lines["p"].faults, [1, 0, 1, 0, 0]);
    let ranked: Vec<(usize, &str)> = s.ranked().into_iter().map(|(r, n, _)| (r, n)).collect();
    assert_eq!(ranked, [(1, "q"), (2, "r"), (3, "p")]);
}

#[test]
fn the_header_names_every_column_once() {
    let text = String::from_utf8(header(3)).unwrap();
    let columns: Vec<&str> = text.trim_end().split(',').collect();
    let mut unique = columns.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), columns.len());
    assert_eq!(
        columns.len(),
        line(0, ["a", "b", "c"], [0, 0, 0]).split(',').count()
    );
}

#[test]
fn round_robin_is_complete_and_seat_balanced() {
    for n in 3..=9usize {
        for rounds in [1u64, 3, 6] {
            let s = Schedule::new(
                5,
                n,
                Format::RoundRobin {
                    rounds,
                    deal: Deal::Rotated,
                },
            )
            .unwrap();
            let sets = (n * (n - 1) * (n - 2) / 6) as u64;
            assert_eq!(s.len(), sets * rounds);
            let mut per_set: BTreeMap<[usize; 3], u64> = BTreeMap::new();
            let mut seats = vec![[0u64; 3]; n];
            let mut order: BTreeMap<(usize, usize), u64> = BTreeMap::new();
            let mut seeds: BTreeMap<([usize; 3], u64), u64> = BTreeMap::new();
            for p in s.iter() {
                assert_eq!(p, s.pairing(p.id));
                // One seed per set of three and block of three rounds.
                let block = p.id / sets / 3;
                let mut set: [usize; 3] = p.seats.clone().try_into().unwrap();
                set.sort();
                let first = *seeds.entry((set, block)).or_insert(p.seed);
                assert_eq!(first, p.seed, "{n} {rounds} {p:?}");
                let mut set: [usize; 3] = p.seats.clone().try_into().unwrap();
                set.sort();
                *per_set.entry(set).or_default() += 1;
                for (seat, &c) in p.seats.iter().enumerate() {
                    seats[c][seat] += 1;
                }
                *order.entry((p.seats[0], p.seats[1])).or_default() += 1;
            }
            assert_eq!(per_set.len() as u64, sets);
            assert!(per_set.values().all(|&m| m == rounds));
            let distinct: std::collections::HashSet<u64> = seeds.values().copied().collect();
            assert_eq!(distinct.len(), seeds.len(), "blocks never share a seed");
            let per_champion = (n as u64 - 1) * (n as u64 - 2) / 2 * rounds;
            for counts in &seats {
                assert_eq!(counts.iter().sum::<u64>(), per_champion);
                if rounds % 3 == 0 {
                    assert!(counts.iter().all(|&c| c == per_champion / 3), "{counts:?}");
                } else {
                    let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
                    assert!(hi - lo <= 2, "{n} {counts:?}");
                }
            }
            if rounds == 6 {
                // Who sits just before whom is balanced too.
                assert!(order
                    .iter()
                    .all(|((a, b), _)| order.get(&(*b, *a)) == order.get(&(*a, *b))));
            }
        }
    }
}

/// Variance reduction (docs/results.md, "Same setups in every seat"): in a three-seat
/// round-robin each set of three champions plays the three rotations of its seats on one
/// seed in every block of three rounds, so each champion plays that setup from each seat
/// once; blocks and sets have seeds of their own.
#[test]
fn three_seat_round_robin_plays_the_three_rotations_on_one_seed() {
    for n in 3..=8usize {
        let s = Schedule::new(
            11,
            n,
            Format::RoundRobin {
                rounds: 6,
                deal: Deal::Rotated,
            },
        )
        .unwrap();
        let mut blocks: BTreeMap<u64, Vec<Vec<usize>>> = BTreeMap::new();
        for p in s.iter() {
            assert_eq!(p.seed, s.seed_of(p.id));
            blocks.entry(p.seed).or_default().push(p.seats.clone());
        }
        let sets = (n * (n - 1) * (n - 2) / 6) as u64;
        assert_eq!(blocks.len() as u64, sets * 2, "one seed per set and block");
        for games in blocks.values() {
            assert_eq!(games.len(), 3);
            // The three are rotations of one another: each champion in each seat once.
            for seat in 0..3 {
                let mut in_seat: Vec<usize> = games.iter().map(|g| g[seat]).collect();
                in_seat.sort();
                let mut set = games[0].clone();
                set.sort();
                assert_eq!(in_seat, set, "{games:?}");
            }
            let rotation = |g: &Vec<usize>| vec![g[1], g[2], g[0]];
            assert!(
                games.iter().all(|g| games.contains(&rotation(g))),
                "{games:?}"
            );
        }
    }
}

/// Two-seat games (Amazons): every pair plays `rounds` matches; rounds 2r and 2r+1 of a
/// pair play the same seed with the colours swapped, so with an even number of rounds each
/// champion moves first in exactly half its matches, on the same setups as its opponents;
/// with an odd number, within one of half.
#[test]
fn two_seat_round_robin_swaps_colours_on_the_same_seed() {
    for n in 2..=9usize {
        for rounds in [1u64, 2, 3, 4] {
            let s = Schedule::for_seats(
                2,
                5,
                n,
                Format::RoundRobin {
                    rounds,
                    deal: Deal::Rotated,
                },
            )
            .unwrap();
            let pairs = (n * (n - 1) / 2) as u64;
            assert_eq!(s.len(), pairs * rounds);
            let mut per_pair: BTreeMap<(usize, usize), Vec<(u64, usize)>> = BTreeMap::new();
            let mut first = vec![0u64; n];
            for p in s.iter() {
                assert_eq!(p, s.pairing(p.id));
                assert_eq!(p.seed, s.seed_of(p.id));
                let [a, b] = p.seats[..] else {
                    panic!("two seats: {p:?}")
                };
                assert_ne!(a, b);
                first[a] += 1;
                per_pair
                    .entry((a.min(b), a.max(b)))
                    .or_default()
                    .push((p.seed, a));
            }
            assert_eq!(per_pair.len() as u64, pairs);
            let mut seeds = std::collections::HashSet::new();
            for games in per_pair.values() {
                assert_eq!(games.len() as u64, rounds);
                for swap in games.chunks(2) {
                    if let [(seed1, first1), (seed2, first2)] = swap {
                        assert_eq!(seed1, seed2, "a swapped pair shares its seed");
                        assert_ne!(first1, first2, "and swaps who moves first");
                    }
                    assert!(
                        seeds.insert(swap[0].0),
                        "each block of a pair has its own seed"
                    );
                }
            }
            for (c, &f) in first.iter().enumerate() {
                let played = (n as u64 - 1) * rounds;
                if rounds % 2 == 0 {
                    assert_eq!(2 * f, played, "champion {c} of {n}, {rounds} rounds");
                } else {
                    assert!(
                        (2 * f).abs_diff(played) <= 2,
                        "{c} of {n}: first in {f} of {played}"
                    );
                }
            }
        }
    }
    assert!(Schedule::for_seats(2, 1, 1, Format::round_robin(1)).is_err());
    // Groups are drawn for two seats too: pairs of the shuffled field.
    let groups = Schedule::for_seats(2, 1, 5, Format::Groups { matches: 2 }).unwrap();
    assert_eq!(groups.len(), 5);
    assert!(groups
        .iter()
        .all(|p| p.seats.len() == 2 && p.seats[0] != p.seats[1]));
}

#[test]
fn seeds_depend_on_the_tournament_seed_and_the_match_id_only() {
    let a = Schedule::new(1, 6, Format::round_robin(2)).unwrap();
    let b = Schedule::new(1, 6, Format::round_robin(4)).unwrap();
    let c = Schedule::new(2, 6, Format::round_robin(2)).unwrap();
    for id in 0..a.len() {
        assert_eq!(a.pairing(id), b.pairing(id));
        assert_ne!(a.seed_of(id), c.seed_of(id));
    }
}

#[test]
fn shards_partition_the_schedule() {
    let s = Schedule::new(3, 7, Format::Groups { matches: 5 }).unwrap();
    let mut seen = vec![0; s.len() as usize];
    for i in 1..=4 {
        let shard = Shard::parse(&format!("{i}/4")).unwrap();
        let ids: Vec<u64> = s
            .iter()
            .filter(|p| shard.contains(p.id))
            .map(|p| p.id)
            .collect();
        assert_eq!(ids.len() as u64, shard.len_of(s.len()));
        for id in ids {
            seen[id as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n == 1));
    assert!(Shard::parse("5/4").is_none() && Shard::parse("x").is_none());
}
