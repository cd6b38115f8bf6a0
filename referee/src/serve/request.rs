//! What a client asks before a game, checked: its name (`CLIENT_NAME`) and the game it
//! waits for (`WAIT_GAME`: a training game against a built-in champion, or a free game
//! against other clients waiting, with the subject's options `timeout=`, `seed=`,
//! `start=`, `map=`, and ours `seats=`). Pure: every refusal is the error message the
//! client is sent.

use std::time::Duration;

/// Longest name, as the subject's server has it.
pub const MAX_NAME: usize = 20;
/// Default per-turn wall clock (the subject's `timeout`).
pub const DEFAULT_TIMEOUT: u32 = 10;
/// Largest `timeout=`: a remote program is not jailed, so its turns are bounded.
pub const MAX_TIMEOUT: u32 = 120;
/// Seeds fit the six hexadecimal digits a game's name starts with.
pub const MAX_SEED: u64 = 0xFF_FFFF;
/// Seats of a free game unless `seats=` says otherwise.
pub const DEFAULT_SEATS: usize = 2;

/// The name of a `CLIENT_NAME` command, or the error to send.
pub fn client_name(command: &str) -> Result<String, String> {
    let Some(name) = command.strip_prefix("CLIENT_NAME ") else {
        return Err("Bad protocol, should start with CLIENT_NAME <name>".to_string());
    };
    let name = name.trim();
    let valid = !name.is_empty()
        && name.len() <= MAX_NAME
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    match valid {
        true => Ok(name.to_string()),
        false => Err(format!(
            "The name is invalid (1 to {MAX_NAME} characters in [a-zA-Z0-9_])"
        )),
    }
}

/// A game asked with `WAIT_GAME TRAINING <BOT> [options]` (a training game) or
/// `WAIT_GAME [options]` (a free game).
#[derive(Debug, Clone, PartialEq)]
pub struct Training {
    /// Our built-in champion's name (`random`, `do-nothing`, `strong`); `None` for a free
    /// game.
    pub bot: Option<&'static str>,
    /// The seats of the game (`seats=`, free games only; a training game has two).
    pub seats: usize,
    /// Per-turn wall clock of the client.
    pub timeout: Duration,
    /// The match seed, if given.
    pub seed: Option<u64>,
    /// Whether the client plays first, if given (`start=0`: it does).
    pub first: Option<bool>,
    /// Our board name (`usa`, `small`).
    pub board: &'static str,
    /// The player's token (`token=`), which a registered name needs.
    pub token: Option<String>,
}

/// The bots by the subject's name and ours.
const BOTS: [(&str, &str); 6] = [
    ("DO_NOTHING", "do-nothing"),
    ("PLAY_RANDOM", "random"),
    ("NICE_BOT", "strong"),
    ("do-nothing", "do-nothing"),
    ("random", "random"),
    ("strong", "strong"),
];

/// The game of a `WAIT_GAME` command, or the error to send; `seats` is the range of
/// seats the game takes.
pub fn wait_game(
    command: &str,
    seats: std::ops::RangeInclusive<usize>,
) -> Result<Training, String> {
    let Some(rest) = command.strip_prefix("WAIT_GAME") else {
        return Err("Bad protocol, should send 'WAIT_GAME <game>' command".to_string());
    };
    let terms: Vec<&str> = rest.split_whitespace().collect();
    let shown = jail::untrusted::printable(rest.trim()).into_owned();
    let (bot, options) = match terms.as_slice() {
        ["TRAINING", bot, options @ ..] => (Some(*bot), options),
        ["TOURNAMENT", ..] => {
            return Err(
                "Tournaments are not served yet: ask 'TRAINING <BOT> [options]' \
                 (bots DO_NOTHING, PLAY_RANDOM, NICE_BOT)"
                    .to_string(),
            )
        }
        [] => (None, &[][..]),
        [first, ..] if first.contains('=') => (None, terms.as_slice()),
        _ => {
            return Err(format!(
                "The string sent with 'WAIT_GAME' is not valid (should be '{{options}}', \
                 'TRAINING <NAME> {{options}}' or 'TOURNAMENT <NAME> {{options}}', but is \
                 '{shown}' instead)"
            ))
        }
    };
    let bot = match bot {
        None => None,
        Some(bot) => match BOTS.iter().find(|(name, _)| *name == bot) {
            Some(&(_, ours)) => Some(ours),
            None => {
                return Err(format!(
                    "The training player '{}' is not valid (DO_NOTHING, PLAY_RANDOM or \
                     NICE_BOT)",
                    jail::untrusted::printable(bot)
                ))
            }
        },
    };
    let mut training = Training {
        bot,
        seats: DEFAULT_SEATS,
        timeout: Duration::from_secs(DEFAULT_TIMEOUT.into()),
        seed: None,
        first: None,
        board: "usa",
        token: None,
    };
    for option in options {
        let Some((key, value)) = option.split_once('=') else {
            return Err(format!(
                "The option '{}' is not of the form key=value",
                jail::untrusted::printable(option)
            ));
        };
        let bad = |takes: &str| {
            format!(
                "The '{key}' value is invalid ('{}'): {takes}",
                jail::untrusted::printable(option)
            )
        };
        match key {
            "timeout" => match value.parse::<u32>() {
                Ok(t) if (1..=MAX_TIMEOUT).contains(&t) => {
                    training.timeout = Duration::from_secs(t.into())
                }
                _ => return Err(bad(&format!("seconds from 1 to {MAX_TIMEOUT}"))),
            },
            "seed" => match value.parse::<u64>() {
                Ok(s) if s <= MAX_SEED => training.seed = Some(s),
                _ => return Err(bad(&format!("a number from 0 to {MAX_SEED}"))),
            },
            "start" => match value {
                "0" => training.first = Some(true),
                "1" => training.first = Some(false),
                "-1" => training.first = None,
                _ => return Err(bad("'0' (you start), '1' (the bot starts) or '-1'")),
            },
            "map" => match value.to_ascii_lowercase().as_str() {
                "usa" => training.board = "usa",
                "small" => training.board = "small",
                _ => return Err(bad("'USA' or 'small'")),
            },
            "seats" => match value.parse::<usize>() {
                Ok(n) if training.bot.is_none() && seats.contains(&n) => training.seats = n,
                _ if training.bot.is_some() => {
                    return Err(bad("free games only (a training game has two seats)"))
                }
                _ => {
                    return Err(bad(&format!(
                        "a number of seats from {} to {}",
                        seats.start(),
                        seats.end()
                    )))
                }
            },
            "token" => training.token = Some(value.to_string()),
            // Unknown keys are ignored, as the subject's server does.
            _ => {}
        }
    }
    Ok(training)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEATS: std::ops::RangeInclusive<usize> = 2..=5;

    #[test]
    fn names_are_checked() {
        assert_eq!(client_name("CLIENT_NAME ann_1").unwrap(), "ann_1");
        for bad in ["CLIENT_NAME ", "CLIENT_NAME a b", "CLIENT_NAME é", "NAME x"] {
            assert!(client_name(bad).is_err(), "{bad}");
        }
        assert!(client_name(&format!("CLIENT_NAME {}", "a".repeat(21))).is_err());
    }

    #[test]
    fn training_games_and_their_options() {
        let t = wait_game(
            "WAIT_GAME TRAINING PLAY_RANDOM timeout=5 seed=7 start=1 map=small x=y",
            SEATS,
        )
        .unwrap();
        assert_eq!(t.bot, Some("random"));
        assert_eq!(t.timeout, Duration::from_secs(5));
        assert_eq!((t.seed, t.first, t.board), (Some(7), Some(false), "small"));
        let d = wait_game("WAIT_GAME TRAINING DO_NOTHING", SEATS).unwrap();
        assert_eq!((d.bot, d.board, d.first), (Some("do-nothing"), "usa", None));
        for bad in [
            "WAIT_GAME TRAINING NOBODY",
            "WAIT_GAME TRAINING random timeout=0",
            "WAIT_GAME TRAINING random timeout=1000",
            "WAIT_GAME TRAINING random seed=99999999",
            "WAIT_GAME TRAINING random map=/etc/passwd",
            "WAIT_GAME TRAINING random start=2",
            "WAIT_GAME TRAINING random oops",
            "WAIT_GAME TRAINING",
            "WAIT_GAME TRAINING random seats=3",
            "WAIT_GAME seats=1",
            "WAIT_GAME seats=6",
            "WAIT_GAME TOURNAMENT t",
            "GET_MOVE",
        ] {
            assert!(wait_game(bad, SEATS).is_err(), "{bad}");
        }
    }

    #[test]
    fn free_games_and_their_seats() {
        for (command, seats) in [
            ("WAIT_GAME", 2),
            ("WAIT_GAME ", 2),
            ("WAIT_GAME seed=3 map=small", 2),
            ("WAIT_GAME seats=3 timeout=5", 3),
        ] {
            let free = wait_game(command, SEATS).unwrap();
            assert_eq!((free.bot, free.seats), (None, seats), "{command}");
        }
    }
}
