//! The five resources (rule 2) and a stock of them: what a player holds, what a building
//! costs or gives.

use serde::Serialize;
use std::ops::{Add, Sub};

/// A resource: the four that mines yield, and gold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Resource {
    Corn,
    Fish,
    Wood,
    Stone,
    Gold,
}

impl Resource {
    /// All five, in the order of a [`Stock`].
    pub const ALL: [Resource; 5] = [
        Resource::Corn,
        Resource::Fish,
        Resource::Wood,
        Resource::Stone,
        Resource::Gold,
    ];
    /// The four a mine may yield (rule 6), in the order mines are given their kinds.
    pub const MINED: [Resource; 4] = [
        Resource::Corn,
        Resource::Fish,
        Resource::Wood,
        Resource::Stone,
    ];

    /// Its name in text (`corn`).
    pub fn name(self) -> &'static str {
        match self {
            Resource::Corn => "corn",
            Resource::Fish => "fish",
            Resource::Wood => "wood",
            Resource::Stone => "stone",
            Resource::Gold => "gold",
        }
    }
}

/// So many of each resource, in the order of [`Resource::ALL`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct Stock(pub [u32; 5]);

impl Stock {
    /// Nothing.
    pub const EMPTY: Stock = Stock([0; 5]);

    /// `n` of `resource` and nothing else.
    pub const fn of(resource: Resource, n: u32) -> Stock {
        let mut s = [0; 5];
        s[resource as usize] = n;
        Stock(s)
    }

    /// How many of `resource`.
    pub fn get(&self, resource: Resource) -> u32 {
        self.0[resource as usize]
    }

    /// Sets how many of `resource`.
    pub fn set(&mut self, resource: Resource, n: u32) {
        self.0[resource as usize] = n;
    }

    /// Whether this holds at least `cost`, resource by resource.
    pub fn covers(&self, cost: &Stock) -> bool {
        self.0.iter().zip(cost.0).all(|(have, need)| *have >= need)
    }

    /// The number of resources of every kind together.
    pub fn total(&self) -> u64 {
        self.0.iter().map(|&n| u64::from(n)).sum()
    }
}

impl Add for Stock {
    type Output = Stock;
    fn add(self, other: Stock) -> Stock {
        Stock(std::array::from_fn(|i| self.0[i] + other.0[i]))
    }
}

/// Only where [`Stock::covers`] holds (a stock never goes below nothing).
impl Sub for Stock {
    type Output = Stock;
    fn sub(self, other: Stock) -> Stock {
        Stock(std::array::from_fn(|i| self.0[i] - other.0[i]))
    }
}

impl std::fmt::Display for Stock {
    /// `wood 3, gold 1`; `nothing` when empty.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = Resource::ALL
            .iter()
            .filter(|r| self.get(**r) > 0)
            .map(|r| format!("{} {}", r.name(), self.get(*r)))
            .collect();
        match parts.is_empty() {
            true => f.write_str("nothing"),
            false => f.write_str(&parts.join(", ")),
        }
    }
}
