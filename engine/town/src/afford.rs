//! The third extension's question, as a tool bots can use: which buildings a player can
//! afford within the current round, on the board as it stands. The costs a player can pay
//! after its placements are the vectors of resources below (resource by resource) one it
//! can hold: a downward-closed set, kept as its maximal vectors (the ideal representation of
//! downward-closed subsets of N^5: the set is the union of the ideals below them). A DP over
//! the free positions keeps, for each number of workers placed, the antichain of the
//! maximal stocks reachable by collecting on that many distinct positions; a kind is
//! affordable when its value lies below one of them and a worker and a position remain to
//! build it. Other players' turns in between are not foreseen (they may take a position).
//! The order of the collects does not matter: costs are gold, which collecting never gives,
//! so a set of activations is payable in any order when its total is. Cost: positions x
//! activation sets x workers x the antichain's size, against every placement sequence of
//! the building-by-building search (positions^workers x activation sets^workers).

use crate::action::Xy;
use crate::buildings::Kind;
use crate::resources::Stock;
use crate::state::{Cell, TownState};

/// The stocks `seat` can hold after collecting on 0, 1, ... of its workers left this round
/// (on distinct free positions, with any activations it can pay): for each number of
/// workers, the maximal ones (no vector of a list lies below another of it).
pub fn reachable(state: &TownState, seat: usize) -> Vec<Vec<Stock>> {
    let player = &state.players()[seat];
    let workers = usize::from(player.free_workers);
    let mut frontier: Vec<Vec<Stock>> = vec![Vec::new(); workers + 1];
    frontier[0].push(player.stock);
    for (mined, options) in free_positions(state, seat) {
        // Each position used at most once: extend from the frontier before it.
        let before = frontier.clone();
        for k in (0..workers).rev() {
            for &held in &before[k] {
                let holds = held + mined;
                for (cost, supplies) in &options {
                    if holds.covers(cost) {
                        insert(&mut frontier[k + 1], holds - *cost + *supplies);
                    }
                }
            }
        }
    }
    frontier
}

/// The kinds `seat` can afford to build within the round (with a worker and a free
/// position left after its collects), in the order of [`Kind::ALL`].
pub fn affordable(state: &TownState, seat: usize) -> Vec<Kind> {
    let player = &state.players()[seat];
    if player.out.is_some() || player.buildings >= state.rules().max_buildings {
        return Vec::new();
    }
    let frontier = reachable(state, seat);
    let free = free_positions(state, seat).len();
    let workers = usize::from(player.free_workers);
    Kind::ALL
        .into_iter()
        .filter(|&kind| state.left(kind) > 0)
        .filter(|kind| {
            (0..workers.min(free)).any(|k| frontier[k].iter().any(|s| s.covers(&kind.value())))
        })
        .collect()
}

/// Adds `stock` to the antichain `maximal` unless one of them covers it, dropping those it
/// covers.
fn insert(maximal: &mut Vec<Stock>, stock: Stock) {
    if maximal.iter().any(|m| m.covers(&stock)) {
        return;
    }
    maximal.retain(|m| !stock.covers(m));
    maximal.push(stock);
}

/// Each free position: what collecting there mines, and for each set of its neighbouring
/// buildings, what activating them costs `seat` and supplies.
fn free_positions(state: &TownState, seat: usize) -> Vec<(Stock, Vec<(Stock, Stock)>)> {
    let grid = &state.rules().grid;
    let mut out = Vec::new();
    for pos in grid.positions() {
        let at: Xy = grid.xy(pos);
        if state.cell(at) != Some(Cell::Free) || state.worker(at).is_some() {
            continue;
        }
        let mut mined = Stock::EMPTY;
        let mut buildings = Vec::new();
        for &n in grid.neighbours(pos) {
            match state.cell(grid.xy(n)) {
                Some(Cell::Mine(r)) => mined = mined + Stock::of(r, 1),
                Some(Cell::Building { kind, owner }) => buildings.push((kind, owner)),
                _ => {}
            }
        }
        let options = (0u32..1 << buildings.len())
            .map(|mask| {
                let mut cost = Stock::EMPTY;
                let mut supplies = Stock::EMPTY;
                for (i, (kind, owner)) in buildings.iter().enumerate() {
                    if mask & (1 << i) != 0 {
                        supplies = supplies + kind.supplies();
                        if *owner != seat {
                            cost = cost + kind.costs();
                        }
                    }
                }
                (cost, supplies)
            })
            .collect();
        out.push((mined, options));
    }
    out
}
