//! The champion's side of protocol.md as types: what a line from a champion means, and how
//! a bad line is quoted in a fault.

use arena::words::Words;
use engine::call::{Call, CallParseError};
use engine::Callback;

/// One line a champion sent during a callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// An API function with its arguments.
    Call(Call),
    /// The whole-state request (protocol.md section 4).
    Etat,
    /// The end of the callback.
    Fin,
}

impl Request {
    /// Parse a line (without its `\n`, a trailing `\r` tolerated) sent during `callback`,
    /// read as every game's lines are ([`arena::words::Words`]).
    /// The error is the protocol fault's message: it quotes the line and says what was
    /// expected (protocol.md section 5).
    ///
    /// ```
    /// use referee::protocol::Request;
    /// use engine::Callback;
    /// assert_eq!(Request::parse("fin", Callback::Jouer), Ok(Request::Fin));
    /// assert_eq!(Request::parse(" etat ", Callback::Jouer), Ok(Request::Etat));
    /// assert!(Request::parse("hello", Callback::Jouer).unwrap_err().contains("logs belong on stderr"));
    /// ```
    pub fn parse(line: &str, callback: Callback) -> Result<Request, String> {
        // protocol.md section 1's line rules, as every game reads its lines.
        let words = Words::of(line, callback.name())?;
        let line = words.line;
        match (words.name(), words.arguments()) {
            ("fin", []) => return Ok(Request::Fin),
            ("etat", []) => return Ok(Request::Etat),
            (name @ ("fin" | "etat"), _) => {
                return Err(format!(
                    "`{name}` takes no argument, got `{}` during {callback}",
                    quote(line)
                ))
            }
            _ => {}
        }
        // The call read from the line's words (its canonical form), as the engine writes it.
        words
            .canonical()
            .parse::<Call>()
            .map(Request::Call)
            .map_err(|error| match error {
                CallParseError::UnknownFunction(_) => format!(
                "unknown request `{}` during {callback}: expected an API function name, `etat` or \
                 `fin`; {}",
                quote(line),
                jail::fault::LOGS_ON_STDERR
            ),
                CallParseError::WrongArity { function, .. } => format!(
                    "wrong number of arguments in `{}` during {callback}: `{}` takes {}",
                    quote(line),
                    function.name(),
                    function.arity()
                ),
                CallParseError::NotAnInteger(word) => format!(
                    "`{}` in `{}` during {callback} is not a 32-bit integer",
                    quote(&word),
                    quote(line)
                ),
            })
    }
}

/// A line cut to its first bytes for quoting ([`jail::fault::quote`]).
///
/// ```
/// assert_eq!(referee::protocol::quote("a\u{1}b"), "a\\x01b");
/// ```
pub fn quote(line: &str) -> String {
    jail::fault::quote(line.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::call::Function;
    use rand::{Rng, SeedableRng};

    /// Random lines made of pieces of valid and invalid requests: parsing never panics,
    /// and whatever parses as a call prints back to a line that parses to the same call.
    #[test]
    fn fuzzed_lines_never_panic_and_calls_round_trip() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(2009);
        let mut pieces: Vec<String> = Function::ALL.iter().map(|f| f.name().to_string()).collect();
        pieces.extend(
            [
                "fin",
                "etat",
                " ",
                "\t",
                "  ",
                "-",
                "+",
                "0",
                "7",
                "99",
                "-12",
                "2147483647",
                "2147483648",
                "-2147483649",
            ]
            .map(String::from),
        );
        pieces.extend(
            ["x", "1.5", "\r", "\u{e9}", "\u{0}", "\u{7f}", "0x10", "１"].map(String::from),
        );
        let mut calls = 0;
        for _ in 0..200_000 {
            let n = rng.gen_range(0..7);
            let line: String = (0..n)
                .map(|_| pieces[rng.gen_range(0..pieces.len())].as_str())
                .collect::<Vec<_>>()
                .join(if rng.gen_bool(0.8) { " " } else { "" });
            let callback = Callback::ALL[rng.gen_range(0..5)];
            match Request::parse(&line, callback) {
                Ok(Request::Call(call)) => {
                    calls += 1;
                    assert_eq!(
                        Request::parse(&call.to_string(), callback),
                        Ok(Request::Call(call)),
                        "{line:?}"
                    );
                }
                Ok(_) => {}
                Err(message) => assert!(message.contains(callback.name()), "{message}"),
            }
        }
        assert!(
            calls > 1000,
            "the fuzzer made too few valid calls to mean anything: {calls}"
        );
    }

    #[test]
    fn every_function_parses_with_its_arity_only() {
        for &function in Function::ALL {
            let args: Vec<String> = (0..function.arity()).map(|i| i.to_string()).collect();
            let line = std::iter::once(function.name().to_string())
                .chain(args)
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                matches!(Request::parse(&line, Callback::Jouer), Ok(Request::Call(_))),
                "{line}"
            );
            let more = format!("{line} 1");
            assert!(Request::parse(&more, Callback::Jouer)
                .unwrap_err()
                .contains("wrong number of arguments"));
        }
        assert!(Request::parse("fin 1", Callback::Jouer).is_err());
        assert!(Request::parse("", Callback::Jouer).is_err());
    }
}
