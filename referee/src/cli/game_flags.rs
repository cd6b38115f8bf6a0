//! A game's option given as a flag of its own name (`--board usa`, `--board=usa`), as the
//! issues and the subjects write it, read as `--option board=usa`: the command line is
//! parsed again with the flag rewritten, only when it names an option of the game chosen
//! (`--game`, or the default game) and the command does not know it as a flag.

use std::ffi::OsString;

/// `args` with the unknown flag `given` (clap's invalid argument: `--NAME` or
/// `--NAME=VALUE`) and its value rewritten as `--option NAME=VALUE`, when NAME is an
/// option of the game that `args` choose; `None` when it is not one, or has no value.
pub fn as_option(args: &[OsString], given: &str) -> Option<Vec<OsString>> {
    let name = given.strip_prefix("--")?.split('=').next()?;
    let game = crate::games::by_name(&chosen_game(args))?;
    if !game.options().iter().any(|o| o.name == name) {
        return None;
    }
    // The flag as typed: `--NAME VALUE` or `--NAME=VALUE` (clap names either `--NAME`).
    let end = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let (at, inline) = args[..end].iter().enumerate().find_map(|(at, a)| {
        let rest = a.to_str()?.strip_prefix("--")?.strip_prefix(name)?;
        match rest.strip_prefix('=') {
            Some(value) => Some((at, Some(value.to_string()))),
            None => rest.is_empty().then_some((at, None)),
        }
    })?;
    let (value, taken) = match inline {
        Some(value) => (value, 1),
        None => {
            let value = args.get(at + 1).filter(|_| at + 1 < end)?.to_str()?;
            if value.starts_with("--") {
                return None;
            }
            (value.to_string(), 2)
        }
    };
    let mut rewritten = args[..at].to_vec();
    rewritten.push("--option".into());
    rewritten.push(format!("{name}={value}").into());
    rewritten.extend_from_slice(&args[at + taken..]);
    Some(rewritten)
}

/// The game `args` choose with `--game GAME` or `--game=GAME` (before a bare `--`), else
/// the default game.
fn chosen_game(args: &[OsString]) -> String {
    let mut words = args.iter().take_while(|a| *a != "--").map(|a| a.to_str());
    let mut game = crate::games::DEFAULT.to_string();
    while let Some(word) = words.next() {
        match word {
            Some("--game") => {
                if let Some(Some(next)) = words.next() {
                    game = next.to_string();
                }
            }
            Some(w) => {
                if let Some(named) = w.strip_prefix("--game=") {
                    game = named.to_string();
                }
            }
            None => {}
        }
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split(' ').map(OsString::from).collect()
    }

    fn rewritten(line: &str, given: &str) -> Option<String> {
        as_option(&words(line), given).map(|args| {
            args.iter()
                .map(|a| a.to_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    /// The issue's `--board usa` and its `=` form become the option of the game chosen.
    #[test]
    fn an_option_of_the_game_chosen_becomes_option_name_value() {
        let line = "referee --game ticket-to-ride match random do-nothing --board usa";
        assert_eq!(
            rewritten(line, "--board").as_deref(),
            Some("referee --game ticket-to-ride match random do-nothing --option board=usa")
        );
        let line = "referee match random do-nothing --board=small --seed 3 --game=ticket-to-ride";
        let expected =
            "referee match random do-nothing --option board=small --seed 3 --game=ticket-to-ride";
        assert_eq!(rewritten(line, "--board").as_deref(), Some(expected));
        assert_eq!(rewritten(line, "--board=small").as_deref(), Some(expected));
    }

    /// Not an option of the game chosen (the default game has no `board`), a flag without
    /// a value, a flag's value that is a flag, a word after `--`: left to clap's error.
    #[test]
    fn anything_else_is_left_as_it_is() {
        assert_eq!(
            rewritten("referee match a b c --board usa", "--board"),
            None
        );
        let ticket = "referee --game ticket-to-ride match a b";
        assert_eq!(rewritten(&format!("{ticket} --bored usa"), "--bored"), None);
        assert_eq!(rewritten(&format!("{ticket} --board"), "--board"), None);
        assert_eq!(
            rewritten(&format!("{ticket} --board --seed"), "--board"),
            None
        );
        assert_eq!(
            rewritten(&format!("{ticket} -- --board usa"), "--board"),
            None
        );
        assert_eq!(
            rewritten(&format!("{ticket} --board -- usa"), "--board"),
            None
        );
    }
}
