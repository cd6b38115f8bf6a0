//! Properties over many seeded random games (each seat a uniform choice among its legal
//! moves, one seat in five leaving the match at a random moment): in every state the 110
//! cards, the tickets and the wagons are all accounted for (`TicketState::audit`); every
//! game ends, ranked; and the same seed plays the same game byte for byte.

use game::{Acting, Game, Options, State};
use ticket::{TicketState, TicketToRide, OPTIONS};

/// Games in all, over both boards and 2 to 5 seats: 10,000 took 17 s of CPU (30 s on a
/// busy two-core machine) in the test build, printed by
/// `the_counts_hold_in_every_state_of_10_000_games` with `--nocapture`; kept whole.
const GAMES: u64 = 10_000;

/// One random game from `seed`: every step's action text, answer and digest, and the
/// audit of every state.
fn random_game(board: &str, seats: usize, seed: u64) -> Result<(Vec<String>, TicketState), String> {
    let options = Options::parse(OPTIONS, &[format!("board={board}")])?;
    let mut state = TicketToRide.start(seats, &options)?;
    let mut chance = draw::Stream::new(seed);
    let mut moves = draw::Stream::new(seed ^ 0x7ac);
    let leaver = seed.is_multiple_of(5).then(|| (seed as usize / 5) % seats);
    let mut history = Vec::new();
    for step in 0..100_000 {
        state
            .audit()
            .map_err(|e| format!("{board}, {seats} seats, seed {seed}, step {step}: {e}"))?;
        match state.acting() {
            Acting::Over => {
                let ranking = state.ranking().ok_or("over, no ranking")?;
                if ranking.places.len() != seats || !ranking.places.contains(&1) {
                    return Err(format!("ranked {ranking:?}"));
                }
                history.push(format!("ranking {ranking:?}"));
                return Ok((history, state));
            }
            Acting::Chance(c) => {
                let drawn = c.draw(seed, &mut chance);
                state.chance(&drawn)?;
                history.push(format!("chance {drawn:?} {:016x}", state.digest()));
            }
            Acting::Seats(seats) => {
                let seat = seats[0];
                if leaver == Some(seat) && moves.below_u32(40) == 0 {
                    state.retire(seat);
                    history.push(format!("retire {seat} {:016x}", state.digest()));
                    continue;
                }
                let legal = state.legal(seat);
                let action = *moves.choose(&legal).ok_or("a seat to move has no move")?;
                let answer = state.act(seat, &action);
                let answer = answer.map_err(|e| format!("legal `{action}` refused: {e}"))?;
                let view =
                    serde_json::to_string(&state.observe(seat)).map_err(|e| e.to_string())?;
                history.push(format!(
                    "{seat} {action} {answer} {:016x} {view}",
                    state.digest()
                ));
            }
        }
    }
    Err(format!(
        "{board}, {seats} seats, seed {seed}: not over after 100,000 steps"
    ))
}

#[test]
fn the_counts_hold_in_every_state_of_10_000_games() {
    let started = std::time::Instant::now();
    let configs: Vec<(&str, usize)> = ["usa", "small"]
        .iter()
        .flat_map(|&b| (2..=5).map(move |s| (b, s)))
        .collect();
    for seed in 0..GAMES {
        let (board, seats) = configs[seed as usize % configs.len()];
        random_game(board, seats, seed).unwrap();
    }
    // Not a timed assertion: printed so that the count's cost is seen (`--nocapture`).
    eprintln!("{GAMES} random games in {:.1?}", started.elapsed());
}

#[test]
fn the_same_seed_plays_the_same_game_byte_for_byte() {
    for seed in 0..40 {
        let (board, seats) = (["usa", "small"][seed as usize % 2], 2 + seed as usize % 4);
        let (a, _) = random_game(board, seats, seed).unwrap();
        let (b, _) = random_game(board, seats, seed).unwrap();
        assert_eq!(a, b, "seed {seed}");
        let (c, _) = random_game(board, seats, seed + 1000).unwrap();
        assert_ne!(a, c, "another seed, another game");
    }
}
