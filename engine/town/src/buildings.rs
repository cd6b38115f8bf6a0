//! The buildings (rule 8): the default set, and the four of the powers' extension (rule 22)
//! in play with `powers=on`: what each costs to build, earns when built, costs to activate
//! and supplies.

use crate::resources::{Resource, Stock};
use serde::Serialize;

/// A kind of building.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Farm,
    Sawmill,
    Pontoon,
    Quarry,
    Cathedral,
    Castle,
    Watchtower,
    Market,
}

impl Kind {
    /// The default set, in the order chance numbers them (0 is the farm).
    pub const BASE: [Kind; 4] = [Kind::Farm, Kind::Sawmill, Kind::Pontoon, Kind::Quarry];

    /// Every kind: the default set, then the kinds with a power (rule 22), in the order
    /// chance numbers them with `powers=on`.
    pub const ALL: [Kind; 8] = [
        Kind::Farm,
        Kind::Sawmill,
        Kind::Pontoon,
        Kind::Quarry,
        Kind::Cathedral,
        Kind::Castle,
        Kind::Watchtower,
        Kind::Market,
    ];

    /// The kinds in play: the default set, or every kind with the powers (rule 22).
    pub fn in_play(powers: bool) -> &'static [Kind] {
        match powers {
            true => &Kind::ALL,
            false => &Kind::BASE,
        }
    }

    /// Its name in text (`farm`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Farm => "farm",
            Kind::Sawmill => "sawmill",
            Kind::Pontoon => "pontoon",
            Kind::Quarry => "quarry",
            Kind::Cathedral => "cathedral",
            Kind::Castle => "castle",
            Kind::Watchtower => "watchtower",
            Kind::Market => "market",
        }
    }

    /// Its letter on a board drawn as text (the first of its name; `k` for the castle).
    pub fn letter(self) -> char {
        match self {
            Kind::Castle => 'k',
            _ => self.name().chars().next().unwrap_or('?'),
        }
    }

    /// The kind named `name`.
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// What building it costs (`value`).
    pub fn value(self) -> Stock {
        match self {
            Kind::Farm => Stock::of(Resource::Wood, 1),
            Kind::Sawmill => Stock::of(Resource::Wood, 2),
            Kind::Pontoon | Kind::Quarry => Stock::of(Resource::Wood, 3),
            Kind::Cathedral => Stock::of(Resource::Wood, 2) + Stock::of(Resource::Stone, 3),
            Kind::Castle => Stock::of(Resource::Wood, 3) + Stock::of(Resource::Stone, 3),
            Kind::Watchtower => Stock::of(Resource::Wood, 2) + Stock::of(Resource::Stone, 1),
            Kind::Market => Stock::of(Resource::Wood, 2) + Stock::of(Resource::Stone, 2),
        }
    }

    /// What its builder earns at once (`earns`).
    pub fn earns(self) -> Stock {
        match self {
            Kind::Farm => Stock::of(Resource::Gold, 3),
            Kind::Sawmill => Stock::of(Resource::Gold, 4),
            Kind::Pontoon | Kind::Quarry => Stock::of(Resource::Gold, 5),
            Kind::Castle => Stock::of(Resource::Gold, 3),
            Kind::Cathedral | Kind::Watchtower | Kind::Market => Stock::of(Resource::Gold, 2),
        }
    }

    /// What activating it costs a player who does not own it (`costs`).
    pub fn costs(self) -> Stock {
        match self {
            Kind::Quarry | Kind::Castle => Stock::of(Resource::Gold, 2),
            _ => Stock::of(Resource::Gold, 1),
        }
    }

    /// What activating it gives (`supplies`).
    pub fn supplies(self) -> Stock {
        match self {
            Kind::Farm => Stock::of(Resource::Corn, 1),
            Kind::Sawmill => Stock::of(Resource::Wood, 3),
            Kind::Pontoon => Stock::of(Resource::Fish, 2),
            Kind::Quarry => Stock::of(Resource::Stone, 2),
            Kind::Cathedral => Stock::of(Resource::Corn, 1),
            Kind::Castle => Stock::of(Resource::Stone, 1),
            Kind::Watchtower => Stock::of(Resource::Wood, 1),
            Kind::Market => Stock::of(Resource::Fish, 1),
        }
    }

    /// Whether it has a power (rule 22): gold to its owner at each round's end.
    pub fn has_power(self) -> bool {
        !Kind::BASE.contains(&self)
    }
}
