//! The buildings of the default set (rule 8): what each costs to build, earns when built,
//! costs to activate and supplies.

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
}

impl Kind {
    /// The default set, in the order chance numbers them (0 is the farm).
    pub const ALL: [Kind; 4] = [Kind::Farm, Kind::Sawmill, Kind::Pontoon, Kind::Quarry];

    /// Its name in text (`farm`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Farm => "farm",
            Kind::Sawmill => "sawmill",
            Kind::Pontoon => "pontoon",
            Kind::Quarry => "quarry",
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
        }
    }

    /// What its builder earns at once (`earns`).
    pub fn earns(self) -> Stock {
        match self {
            Kind::Farm => Stock::of(Resource::Gold, 3),
            Kind::Sawmill => Stock::of(Resource::Gold, 4),
            Kind::Pontoon | Kind::Quarry => Stock::of(Resource::Gold, 5),
        }
    }

    /// What activating it costs a player who does not own it (`costs`).
    pub fn costs(self) -> Stock {
        match self {
            Kind::Quarry => Stock::of(Resource::Gold, 2),
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
        }
    }
}
