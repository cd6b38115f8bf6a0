//! The schedules of two- and three-seat tournaments, kept: every match (id, seed, seats)
//! of a set of round-robins and groups, compared with a file written by the referee of
//! 2026-11-29, before schedules carried any number of seats. A change of the schedule that
//! changes what an existing tournament plays (its ids, seats or seeds) fails here, so
//! every tournament started before still resumes and merges. Those are round-robins of
//! rotated deals (what every run before `--deal` played, and `--deal rotated` plays); the
//! round-robins of fresh deals (a new run's default since) follow at the end of the file.
//!
//! `GOLDEN_WRITE=1 cargo test -p referee --test tournament schedule_golden::` writes the file anew (only
//! for a deliberate change of the schedule, with a new results schema).

use referee::schedule::{Deal, Format, Schedule};
use std::fmt::Write as _;

/// Every match of `schedule`, one line each (`id seed champions`), after a title line;
/// `pairing(id)` must give what the iterator gives.
fn listing(text: &mut String, title: &str, schedule: &Schedule) {
    writeln!(text, "# {title}: {} matches", schedule.len()).unwrap();
    for p in schedule.iter() {
        assert_eq!(p, schedule.pairing(p.id), "{title}");
        assert_eq!(p.seed, schedule.seed_of(p.id), "{title}");
        let seats: Vec<String> = p.seats.iter().map(usize::to_string).collect();
        writeln!(text, "{} {} {}", p.id, p.seed, seats.join(",")).unwrap();
    }
}

#[test]
fn two_and_three_seat_schedules_are_those_kept() {
    let mut text = String::new();
    for seats in [2usize, 3] {
        for n in [2usize, 3, 4, 5, 7, 9].into_iter().filter(|&n| n >= seats) {
            for rounds in [1u64, 4, 7] {
                let seed = 1000 * seats as u64 + 10 * n as u64 + rounds;
                let format = Format::RoundRobin {
                    rounds,
                    deal: Deal::Rotated,
                };
                let schedule = Schedule::for_seats(seats, seed, n, format).unwrap();
                let title = format!("{seats} seats, {n} champions, {rounds} rounds, seed {seed}");
                listing(&mut text, &title, &schedule);
            }
        }
    }
    for n in [3usize, 6, 7, 8, 10, 13] {
        for matches in [1u64, 2, 5] {
            let seed = 77 + n as u64 + matches;
            let format = Format::Groups { matches };
            let schedule = Schedule::for_seats(3, seed, n, format).unwrap();
            let title = format!("3 seats, {n} champions, groups of {matches} matches, seed {seed}");
            listing(&mut text, &title, &schedule);
        }
    }
    for seats in [2usize, 3] {
        for n in [3usize, 5] {
            for rounds in [1u64, 4] {
                let seed = 5000 * seats as u64 + 10 * n as u64 + rounds;
                let schedule =
                    Schedule::for_seats(seats, seed, n, Format::round_robin(rounds)).unwrap();
                let title = format!(
                    "{seats} seats, {n} champions, {rounds} rounds, fresh deals, seed {seed}"
                );
                listing(&mut text, &title, &schedule);
            }
        }
    }
    crate::common::assert_golden("schedules.txt", &text);
}
