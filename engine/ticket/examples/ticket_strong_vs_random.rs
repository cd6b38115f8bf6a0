//! Prints how often `strong` beats `random` over 100 matches on a board (`usa` by default,
//! or the board given as the first argument), 50 with each seat, and the 95% interval of
//! that rate (Wilson's), with how the matches ended: `cargo run -p ticket --release
//! --example ticket_strong_vs_random [board] [matches]`.

use game::Options;
use ticket::bots::{play, Player};
use ticket::{End, OPTIONS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let board = args.first().map_or("usa", String::as_str);
    let matches: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(100);
    let options = Options::parse(OPTIONS, &[format!("board={board}")]).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let (mut wins, mut ends, mut margin) = (0u64, Vec::new(), 0i64);
    for seed in 0..matches {
        let strong = (seed % 2) as usize;
        let mut players = vec![
            Player::by_name("random", seed).unwrap(),
            Player::by_name("random", seed).unwrap(),
        ];
        players[strong] = Player::by_name("strong", seed).unwrap();
        let played = play(&mut players, &options, seed, 100_000).expect("a match ends");
        assert!(played.refused.is_empty(), "{:?}", played.refused);
        if played.ranking.places[strong] == 1 {
            wins += 1;
        }
        margin += played.ranking.scores[strong] - played.ranking.scores[1 - strong];
        ends.push(played.state.end());
    }
    let n = matches as f64;
    let p = wins as f64 / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    println!(
        "strong beat random in {wins} of {matches} matches on `{board}` ({:.0}%, 95% interval {:.1}% to {:.1}%); mean score margin {:+.1}",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half),
        margin as f64 / n
    );
    let count = |f: fn(&Option<End>) -> bool| ends.iter().filter(|e| f(e)).count();
    println!(
        "ended: last round {}, cards out {}, tickets out {}",
        count(|e| *e == Some(End::Counted)),
        count(|e| matches!(e, Some(End::CardsOut { .. }))),
        count(|e| matches!(e, Some(End::TicketsOut { .. }))),
    );
}
