//! The wagon cards: their nine colours (eight colours and the locomotive, in the subject's
//! `t_color` order) and the 110 cards of the game (rule 4).

use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A card's colour; a route's colour is one of the first eight, or grey (`None` where a
/// route's colour is an `Option<Colour>`). The order is the subject's `t_color` (`PURPLE` =
/// 1 ... `MULTICOLOR` = 9), less one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    Purple,
    White,
    Blue,
    Yellow,
    Orange,
    Black,
    Red,
    Green,
    /// The locomotive (the subject's `MULTICOLOR`): a joker for any colour.
    Locomotive,
}

/// Every colour, in order: `ALL[c as usize] == c`.
pub const ALL: [Colour; 9] = [
    Colour::Purple,
    Colour::White,
    Colour::Blue,
    Colour::Yellow,
    Colour::Orange,
    Colour::Black,
    Colour::Red,
    Colour::Green,
    Colour::Locomotive,
];

/// The eight colours a route may have (all but the locomotive).
pub const ROUTE_COLOURS: [Colour; 8] = [
    Colour::Purple,
    Colour::White,
    Colour::Blue,
    Colour::Yellow,
    Colour::Orange,
    Colour::Black,
    Colour::Red,
    Colour::Green,
];

/// Cards of each of the eight colours (rule 4).
pub const PER_COLOUR: usize = 12;
/// Locomotives (rule 4).
pub const LOCOMOTIVES: usize = 14;
/// All the cards: 8 x 12 + 14 (rule 4).
pub const CARDS: usize = 8 * PER_COLOUR + LOCOMOTIVES;

/// A hand: how many cards of each colour, indexed by `Colour as usize`.
pub type Hand = [u8; 9];

impl Colour {
    /// Its name in actions and observations (`red`, `locomotive`).
    pub fn name(self) -> &'static str {
        [
            "purple",
            "white",
            "blue",
            "yellow",
            "orange",
            "black",
            "red",
            "green",
            "locomotive",
        ][self as usize]
    }

    /// The colour of a board file's name (`Red`); `Multicolor` is grey, read as `None`.
    pub fn from_board(name: &str) -> Option<Option<Colour>> {
        match name {
            "Multicolor" => Some(None),
            _ => ROUTE_COLOURS
                .iter()
                .find(|c| c.name().eq_ignore_ascii_case(name))
                .map(|&c| Some(c)),
        }
    }
}

/// The 110 cards in a fixed order, colour by colour: the order a drawn permutation of the
/// pile refers to (rule 6).
pub fn deck() -> Vec<Colour> {
    let mut cards: Vec<Colour> = ROUTE_COLOURS
        .iter()
        .flat_map(|&c| std::iter::repeat_n(c, PER_COLOUR))
        .collect();
    cards.extend(std::iter::repeat_n(Colour::Locomotive, LOCOMOTIVES));
    cards
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Colour {
    type Err = String;
    fn from_str(s: &str) -> Result<Colour, String> {
        ALL.iter().copied().find(|c| c.name() == s).ok_or_else(|| {
            let names: Vec<&str> = ALL.iter().map(|c| c.name()).collect();
            format!("no colour `{s}`: the colours are {}", names.join(", "))
        })
    }
}

impl Serialize for Colour {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_the_deck_counts() {
        for c in ALL {
            assert_eq!(c.name().parse::<Colour>().unwrap(), c);
            assert_eq!(ALL[c as usize], c);
        }
        assert!("grey".parse::<Colour>().unwrap_err().contains("locomotive"));
        assert_eq!(deck().len(), CARDS);
        assert_eq!(Colour::from_board("Multicolor"), Some(None));
        assert_eq!(Colour::from_board("Red"), Some(Some(Colour::Red)));
        assert_eq!(Colour::from_board("Pink"), None);
    }
}
