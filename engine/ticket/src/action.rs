//! A seat's action (rule 11) and its text form, kept in records: `blind`, `take red`,
//! `tickets`, `keep 1 0 1`, `claim 3 5 red 1` (the subject's five moves).

use crate::card::Colour;
use std::fmt;
use std::str::FromStr;

/// One move of a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Draw the pile's top card (the subject's `drawBlindCard`).
    Blind,
    /// Take a face-up card of this colour (`drawCard`).
    Take(Colour),
    /// Draw three tickets (`drawObjectives`).
    Tickets,
    /// Keep these of the three tickets drawn (`chooseObjectives`).
    Keep([bool; 3]),
    /// Claim the route between cities `from` and `to` (`claimRoute`), paying with cards of
    /// `colour` and `locomotives` locomotives.
    Claim {
        from: usize,
        to: usize,
        colour: Colour,
        locomotives: u8,
    },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Blind => f.write_str("blind"),
            Action::Take(c) => write!(f, "take {c}"),
            Action::Tickets => f.write_str("tickets"),
            Action::Keep(k) => write!(f, "keep {} {} {}", k[0] as u8, k[1] as u8, k[2] as u8),
            Action::Claim {
                from,
                to,
                colour,
                locomotives,
            } => write!(f, "claim {from} {to} {colour} {locomotives}"),
        }
    }
}

/// The forms an action is written in, for errors.
pub const FORMS: &str =
    "`blind`, `take <colour>`, `tickets`, `keep <0|1> <0|1> <0|1>`, `claim <city> <city> <colour> <locomotives>`";

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Action, String> {
        let words: Vec<&str> = s.split(' ').collect();
        let number = |w: &str| -> Result<usize, String> {
            match w.parse::<usize>() {
                Ok(n) if n.to_string() == w => Ok(n),
                _ => Err(format!("`{w}` in `{s}` is not a number")),
            }
        };
        let bit = |w: &str| match w {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(format!(
                "`{w}` in `{s}`: keep each ticket with 1, return it with 0"
            )),
        };
        match words.as_slice() {
            ["blind"] => Ok(Action::Blind),
            ["take", c] => Ok(Action::Take(c.parse()?)),
            ["tickets"] => Ok(Action::Tickets),
            ["keep", a, b, c] => Ok(Action::Keep([bit(a)?, bit(b)?, bit(c)?])),
            ["claim", from, to, colour, locomotives] => Ok(Action::Claim {
                from: number(from)?,
                to: number(to)?,
                colour: colour.parse()?,
                locomotives: u8::try_from(number(locomotives)?)
                    .map_err(|_| format!("{locomotives} locomotives in `{s}`: at most 6"))?,
            }),
            _ => Err(format!("`{s}` is no action: the actions are {FORMS}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_back_as_itself() {
        for text in [
            "blind",
            "take red",
            "take locomotive",
            "tickets",
            "keep 1 0 1",
            "claim 3 5 red 1",
            "claim 12 0 locomotive 2",
        ] {
            let action: Action = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
        for bad in [
            "",
            "take",
            "take grey",
            "keep 1 2 0",
            "claim 1 2 red",
            "claim 01 2 red 0",
            "claim 1 2 red 300",
            "Blind",
        ] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
        assert!("fly".parse::<Action>().unwrap_err().contains("`blind`"));
    }
}
