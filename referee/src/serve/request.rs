//! What a client asks before a game, checked: its name (`CLIENT_NAME`) and the game it
//! waits for (`WAIT_GAME`: a training game against a built-in champion, or a free game
//! against other clients waiting, with the subject's options `timeout=`, `seed=`,
//! `start=`, `map=`, and ours `seats=`, `token=`, `game=` and `protocol=`). Pure: every
//! refusal is the error message the client is sent.

use super::games::Served;
use std::time::Duration;

/// Longest name, as the subject's server has it.
pub const MAX_NAME: usize = 20;
/// Default per-turn wall clock (the subject's `timeout`).
pub const DEFAULT_TIMEOUT: u32 = 10;
/// Largest `timeout=`: a remote program is not jailed, so its turns are bounded.
pub const MAX_TIMEOUT: u32 = 120;
/// Seeds fit the six hexadecimal digits a game's name starts with.
pub const MAX_SEED: u64 = 0xFF_FFFF;
/// The game of a request without `game=`: the subject's, whose client names none.
pub const DEFAULT_GAME: &str = "ticket-to-ride";

/// The name of a `CLIENT_NAME` command, or the error to send.
pub fn client_name(command: &str) -> Result<String, String> {
    let Some(name) = command.strip_prefix("CLIENT_NAME ") else {
        return Err("Bad protocol, should start with CLIENT_NAME <name>".to_string());
    };
    let name = name.trim();
    valid_name(name)?;
    not_a_bot(name)?;
    Ok(name.to_string())
}

/// Whether `name` may be a player's: not one of a built-in champion of any game served,
/// nor one a page would show as one (`Random`, `do_nothing`, `PLAY_RANDOM`): a bot's
/// games and results are its own. The refusal names the rule.
pub fn not_a_bot(name: &str) -> Result<(), String> {
    let plain = |n: &str| n.to_ascii_lowercase().replace('-', "_");
    let mut bots = super::games::ALL
        .into_iter()
        .flat_map(|g| g.runner().builtins().iter().copied())
        .chain(BOTS.into_iter().flat_map(|(subject, ours)| [subject, ours]));
    match bots.find(|bot| plain(bot) == plain(name)) {
        Some(bot) => Err(format!(
            "The name '{name}' is the built-in champion {bot}'s: choose another"
        )),
        None => Ok(()),
    }
}

/// Whether `name` is one a client can send in `CLIENT_NAME` (as the blanks around a
/// command are dropped, a name with blanks is not); the refusal names the rule.
pub fn valid_name(name: &str) -> Result<(), String> {
    let valid = !name.is_empty()
        && name.len() <= MAX_NAME
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    match valid {
        true => Ok(()),
        false => Err(format!(
            "The name is invalid (1 to {MAX_NAME} characters in [a-zA-Z0-9_])"
        )),
    }
}

/// A client's request (or a part of it) as answers and the log quote it: escaped, and
/// the value of every `token=` (in any case) hidden, so that a token sent in a malformed
/// request is never shown again.
///
/// ```
/// use referee::serve::request::quoted;
/// assert_eq!(quoted("WAIT_GAME x token=abc seed=1"), "WAIT_GAME x token=<hidden> seed=1");
/// assert_eq!(quoted("A\x1bToken=z"), "A\\x1bToken=<hidden>");
/// ```
pub fn quoted(request: &str) -> String {
    let mut out = String::with_capacity(request.len());
    let mut rest = request;
    while let Some(at) = rest.to_ascii_lowercase().find(TOKEN) {
        let value = at + TOKEN.len();
        out.push_str(&rest[..value]);
        out.push_str("<hidden>");
        let end = rest[value..]
            .find(char::is_whitespace)
            .map_or(rest.len(), |n| value + n);
        rest = &rest[end..];
    }
    out.push_str(rest);
    jail::untrusted::printable(&out).into_owned()
}

/// The option of a player's token.
const TOKEN: &str = "token=";

/// The characters of a client's text quoted in a message or the log (the rest cut).
pub const QUOTED_CHARS: usize = 60;

/// [`quoted`], cut to [`QUOTED_CHARS`] characters (`...` says it was cut): a client's text
/// that goes in a message or the log, so that a long one writes no more than a short one.
/// Its messages quote it between single quotes: a quote of the text is `\x27`, so that
/// the text never closes its quotation (a fault's message, a game's outcome, quote it).
///
/// ```
/// use referee::serve::request::quoted_cut;
/// assert_eq!(quoted_cut("x' lost, bob"), "x\\x27 lost, bob");
/// assert_eq!(quoted_cut(&"y".repeat(61)), format!("{}...", "y".repeat(60)));
/// ```
pub fn quoted_cut(text: &str) -> String {
    let mut chars = text.chars();
    let kept: String = chars.by_ref().take(QUOTED_CHARS).collect();
    let shown = quoted(&kept).replace('\'', "\\x27");
    match chars.next() {
        Some(_) => format!("{shown}..."),
        None => shown,
    }
}

/// The token a request gives (`token=`), if any.
pub fn token_of(request: &str) -> Option<&str> {
    request
        .split_whitespace()
        .find_map(|term| term.strip_prefix(TOKEN))
}

/// A game asked with `WAIT_GAME TRAINING <BOT> [options]` (a training game) or
/// `WAIT_GAME [options]` (a free game).
#[derive(Debug, Clone, PartialEq)]
pub struct Training {
    /// The game (`game=`, its `--game` name; Ticket to Ride by default).
    pub game: &'static str,
    /// Whether the client speaks the game's own line protocol (`protocol=lines`, the
    /// protocol a spawned champion speaks) rather than the subject's (`protocol=cgs`,
    /// Ticket to Ride only, its default).
    pub lines: bool,
    /// One of the game's built-in champions (Ticket to Ride's also by the subject's
    /// names); `None` for a free game.
    pub bot: Option<&'static str>,
    /// The seats of the game (`seats=`, free games only; by default, and always in a
    /// training game, the game's usual count: `referee --game X match`'s).
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

/// The game of a `WAIT_GAME` command, or the error to send.
pub fn wait_game(command: &str) -> Result<Training, String> {
    let Some(rest) = command.strip_prefix("WAIT_GAME") else {
        return Err("Bad protocol, should send 'WAIT_GAME <game>' command".to_string());
    };
    let terms: Vec<&str> = rest.split_whitespace().collect();
    let shown = quoted(rest.trim());
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
    let (mut seats_asked, mut protocol) = (None, None);
    let mut training = Training {
        game: DEFAULT_GAME,
        lines: false,
        bot: None,
        seats: 0,
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
                quoted(option)
            ));
        };
        let bad = |takes: &str| {
            format!(
                "The '{key}' value is invalid ('{}'): {takes}",
                quoted(option)
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
                _ if bot.is_some() => {
                    return Err(bad(
                        "free games only (a training game has the game's usual seats)",
                    ))
                }
                Ok(n) if n > 0 => seats_asked = Some(n),
                _ => return Err(bad("a number of seats")),
            },
            "token" => training.token = Some(value.to_string()),
            "game" => match Served::by_name(value) {
                Some(g) => training.game = g.runner().name(),
                None => return Err(bad(&format!("one of {}", super::games::names()))),
            },
            "protocol" => protocol = protocol_of(&[option])?,
            // Unknown keys are ignored, as the subject's server does.
            _ => {}
        }
    }
    let game = Served::by_name(training.game)
        .expect("a game served")
        .runner();
    training.lines = lines(training.game, protocol)?;
    let range = game.seat_range();
    training.seats = match seats_asked {
        None => game.seats(),
        Some(n) if range.contains(&n) => n,
        Some(n) => {
            return Err(format!(
                "The 'seats' value is invalid ('seats={n}'): {} is played by {} to {} seats",
                game.title(),
                range.start(),
                range.end()
            ))
        }
    };
    training.bot = match bot {
        None => None,
        Some(bot) => Some(built_in(training.game, game.builtins(), bot)?),
    };
    Ok(training)
}

/// Whether a client of the game `game` asking `protocol=` (`Some(true)`: `lines`,
/// `Some(false)`: `cgs`) speaks the game's own line protocol, or the error to send: only
/// Ticket to Ride has the subject's protocol (its default); the others speak their own.
pub fn lines(game: &str, protocol: Option<bool>) -> Result<bool, String> {
    match (protocol, game == DEFAULT_GAME) {
        (Some(false), false) => Err(format!(
            "The protocol 'cgs' is Ticket to Ride's: {} speaks its own (protocol=lines, or no \
             protocol=)",
            Served::by_name(game).map_or(game, |g| g.runner().title())
        )),
        (Some(lines), _) => Ok(lines),
        (None, ticket) => Ok(!ticket),
    }
}

/// The value of `protocol=` among a request's `options` (`Some(true)`: `lines`), or the
/// error to send.
pub fn protocol_of(options: &[&str]) -> Result<Option<bool>, String> {
    let mut asked = None;
    for option in options {
        match option.strip_prefix("protocol=") {
            Some("cgs") => asked = Some(false),
            Some("lines") => asked = Some(true),
            Some(_) => {
                return Err(format!(
                    "The 'protocol' value is invalid ('{}'): 'cgs' (the subject's) or 'lines' \
                     (the game's own)",
                    quoted(option)
                ))
            }
            None => {}
        }
    }
    Ok(asked)
}

/// The built-in champion `bot` of the game `game` (whose built-ins are `builtins`), or the
/// error to send.
fn built_in(
    game: &str,
    builtins: &'static [&'static str],
    bot: &str,
) -> Result<&'static str, String> {
    let subject = BOTS.iter().filter(|_| game == DEFAULT_GAME);
    if let Some(&(_, ours)) = subject.clone().find(|(name, _)| *name == bot) {
        return Ok(ours);
    }
    if let Some(&ours) = builtins.iter().find(|name| **name == bot) {
        return Ok(ours);
    }
    let mut names: Vec<&str> = subject.map(|(name, _)| *name).collect();
    for name in builtins {
        if !names.contains(name) {
            names.push(name);
        }
    }
    Err(format!(
        "The training player '{}' is not valid ({})",
        quoted(bot),
        names.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let t = wait_game("WAIT_GAME TRAINING PLAY_RANDOM timeout=5 seed=7 start=1 map=small x=y")
            .unwrap();
        assert_eq!(t.bot, Some("random"));
        assert_eq!(t.timeout, Duration::from_secs(5));
        assert_eq!((t.seed, t.first, t.board), (Some(7), Some(false), "small"));
        let d = wait_game("WAIT_GAME TRAINING DO_NOTHING").unwrap();
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
            assert!(wait_game(bad).is_err(), "{bad}");
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
            let free = wait_game(command).unwrap();
            assert_eq!((free.bot, free.seats), (None, seats), "{command}");
        }
    }

    #[test]
    fn the_other_games_speak_their_own_protocol() {
        let t = wait_game("WAIT_GAME TRAINING random game=amazons").unwrap();
        assert_eq!(
            (t.game, t.lines, t.bot, t.seats),
            ("amazons", true, Some("random"), 2)
        );
        let t = wait_game("WAIT_GAME game=little-town seats=4").unwrap();
        assert_eq!(
            (t.game, t.lines, t.bot, t.seats),
            ("little-town", true, None, 4)
        );
        let t = wait_game("WAIT_GAME TRAINING random game=ticket-to-ride protocol=lines").unwrap();
        assert_eq!((t.game, t.lines), ("ticket-to-ride", true));
        let t = wait_game("WAIT_GAME TRAINING PLAY_RANDOM").unwrap();
        assert_eq!((t.game, t.lines), ("ticket-to-ride", false));
        for (bad, says) in [
            ("WAIT_GAME game=chess", "one of"),
            ("WAIT_GAME game=amazons protocol=cgs", "protocol=lines"),
            ("WAIT_GAME game=amazons seats=3", "2 to 2 seats"),
            ("WAIT_GAME TRAINING PLAY_RANDOM game=amazons", "random"),
            ("WAIT_GAME protocol=json", "'lines'"),
        ] {
            let e = wait_game(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
