//! Prints how often `strong` finishes first in four-seat matches against three `random`
//! (200 by default, `strong` in each seat in turn, seed = match number, as the test
//! `strong_finishes_first_in_most_matches_against_three_random` plays them), and the 95%
//! interval of that rate (Wilson's), under the options given (`name=value`, rule 19):
//! `cargo run -p town --release --example strong_vs_random [powers=on] [objectives=on] [matches=N]`.

use game::{Acting, Game, Options, State};
use town::{bots, Town};

fn main() {
    let mut given: Vec<String> = std::env::args().skip(1).collect();
    let matches: u64 = match given.iter().position(|a| a.starts_with("matches=")) {
        Some(i) => given.remove(i)["matches=".len()..]
            .parse()
            .unwrap_or_else(|e| fail(&format!("matches=N: {e}"))),
        None => 200,
    };
    let options = Options::parse(Town.options(), &given).unwrap_or_else(|e| fail(&e));
    let firsts = (0..matches)
        .filter(|&seed| {
            let seat = (seed % 4) as usize;
            first(&options, seed, seat)
        })
        .count() as u64;
    let (n, z) = (matches as f64, 1.96f64);
    let p = firsts as f64 / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    println!(
        "strong first in {firsts} of {matches} four-seat matches against three random ({:.1}%, \
         95% Wilson interval {:.1}% to {:.1}%) with {}",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half),
        if given.is_empty() {
            "the default options".to_string()
        } else {
            given.join(" ")
        }
    );
}

/// Whether `strong`, in seat `seat` of a match of `seed` against three `random`, finishes
/// first (alone or tied).
fn first(options: &Options, seed: u64, seat: usize) -> bool {
    let mut state = Town.start(4, options).unwrap_or_else(|e| fail(&e));
    let mut stream = draw::Stream::new(seed);
    loop {
        match state.acting() {
            Acting::Over => return state.ranking().expect("over").places[seat] == 1,
            Acting::Chance(c) => state.chance(&c.draw(seed, &mut stream)).unwrap(),
            Acting::Seats(seats) => {
                let s = seats[0];
                let action = match s == seat {
                    true => bots::strong(&state.observe(s), &state.legal(s)),
                    false => bots::random(&state, s, &mut stream),
                };
                state
                    .act(s, &action.expect("a seat to play has a legal action"))
                    .unwrap();
            }
        }
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(2)
}
