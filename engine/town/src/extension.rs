//! The fourth extension, off by default: the objectives counted at the match's end (rule
//! 21, `objectives=on`) and the buildings' powers paid at each round's end (rule 22,
//! `powers=on`). Both only read the match; the state adds the gold.

use crate::board::Pos;
use crate::buildings::Kind;
use crate::resources::Resource;
use crate::state::{Cell, TownState};

/// An objective of rule 21: a predicate on a player's holdings at the match's end, and
/// the gold it brings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// More buildings than workers: 3 gold.
    MoreBuildingsThanWorkers,
    /// At least 2 buildings of its own that supply corn: 2 gold.
    TwoCornBuildings,
    /// At least 3 buildings of its own forming one connected group: 2 gold.
    ThreeConnected,
    /// At least one of each mined resource in its stock (this project's own): 2 gold.
    EveryResource,
}

impl Objective {
    pub const ALL: [Objective; 4] = [
        Objective::MoreBuildingsThanWorkers,
        Objective::TwoCornBuildings,
        Objective::ThreeConnected,
        Objective::EveryResource,
    ];

    /// The gold it brings.
    pub fn gold(self) -> u32 {
        match self {
            Objective::MoreBuildingsThanWorkers => 3,
            _ => 2,
        }
    }

    /// What it asks, in words.
    pub fn text(self) -> &'static str {
        match self {
            Objective::MoreBuildingsThanWorkers => "more buildings than workers",
            Objective::TwoCornBuildings => "2 buildings that supply corn",
            Objective::ThreeConnected => "3 buildings forming a connected group",
            Objective::EveryResource => "one of each of corn, fish, wood and stone",
        }
    }

    /// Whether `seat` meets it in `state`.
    pub fn met(self, state: &TownState, seat: usize) -> bool {
        let player = &state.players()[seat];
        let own = |p: Pos| matches!(building(state, p), Some((_, owner)) if owner == seat);
        match self {
            Objective::MoreBuildingsThanWorkers => player.buildings > state.rules().workers,
            Objective::TwoCornBuildings => {
                positions(state)
                    .filter(|&p| {
                        matches!(building(state, p), Some((kind, owner))
                        if owner == seat && kind.supplies().get(Resource::Corn) > 0)
                    })
                    .count()
                    >= 2
            }
            Objective::ThreeConnected => positions(state)
                .filter(|&p| own(p))
                .any(|p| group(state, p, &own).len() >= 3),
            Objective::EveryResource => Resource::MINED.iter().all(|&r| player.stock.get(r) > 0),
        }
    }
}

/// The objectives `seat` meets in `state` (rule 21).
pub fn objectives_met(state: &TownState, seat: usize) -> Vec<Objective> {
    Objective::ALL
        .into_iter()
        .filter(|o| o.met(state, seat))
        .collect()
}

/// The gold the building at `pos` earns its owner at a round's end, workers still on the
/// board (rule 22): a cathedral 1 per worker on a neighbouring position, a castle 1 per
/// building in its connected group of buildings (itself counted), a watchtower 1 per
/// neighbouring position with neither building nor worker, a market 1 per neighbouring
/// mine; 0 for a building without a power or no building.
pub fn power(state: &TownState, pos: Pos) -> u32 {
    let grid = &state.rules().grid;
    let Some((kind, _)) = building(state, pos) else {
        return 0;
    };
    let near = grid.neighbours(pos).iter().copied();
    let count = |f: &dyn Fn(Pos) -> bool| near.clone().filter(|&n| f(n)).count() as u32;
    match kind {
        Kind::Cathedral => count(&|n| state.worker(grid.xy(n)).is_some()),
        Kind::Castle => group(state, pos, &|p| building(state, p).is_some()).len() as u32,
        Kind::Watchtower => {
            count(&|n| building(state, n).is_none() && state.worker(grid.xy(n)).is_none())
        }
        Kind::Market => count(&|n| matches!(state.cell(grid.xy(n)), Some(Cell::Mine(_)))),
        _ => 0,
    }
}

/// The gold each seat's buildings earn at a round's end (rule 22), in seat order.
pub fn powers(state: &TownState) -> Vec<u32> {
    let mut gold = vec![0; state.players().len()];
    for p in positions(state) {
        if let Some((_, owner)) = building(state, p) {
            gold[owner] += power(state, p);
        }
    }
    gold
}

/// Every position of the board.
fn positions(state: &TownState) -> impl Iterator<Item = Pos> + '_ {
    0..state.rules().grid.len() as Pos
}

/// The building at `pos` and its owner.
fn building(state: &TownState, pos: Pos) -> Option<(Kind, usize)> {
    match state.cell(state.rules().grid.xy(pos)) {
        Some(Cell::Building { kind, owner }) => Some((kind, owner)),
        _ => None,
    }
}

/// The positions joined to `start` by paths of neighbouring positions where `keep` holds
/// (`start` included, if `keep` holds there).
fn group(state: &TownState, start: Pos, keep: &dyn Fn(Pos) -> bool) -> Vec<Pos> {
    let grid = &state.rules().grid;
    if !keep(start) {
        return Vec::new();
    }
    let mut seen = vec![start];
    let mut next = 0;
    while next < seen.len() {
        for &n in grid.neighbours(seen[next]) {
            if keep(n) && !seen.contains(&n) {
                seen.push(n);
            }
        }
        next += 1;
    }
    seen
}
