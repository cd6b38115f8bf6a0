//! What `strong` expects the powers (rule 22) to pay: the board a seat sees, as it would
//! be after an action, and the gold each building with a power would earn at the round's
//! end (workers where they stand, the free positions filled as the workers left to place
//! fill them on average) and at each later round's end (no worker yet).

use crate::board::{Grid, Pos};
use crate::state::Cell;
use crate::{Kind, TownView};

/// The positions and workers of a match as a seat sees it, after one of its actions.
#[derive(Clone, Debug)]
pub struct Board<'a> {
    pub grid: &'a Grid,
    pub cells: Vec<Cell>,
    pub workers: Vec<Option<usize>>,
    /// The share of the free positions without a worker that workers will take before
    /// this round's end, and before a later round's end.
    now: f64,
    later: f64,
}

impl<'a> Board<'a> {
    /// The board of `view` on `grid`.
    pub fn of(view: &TownView, grid: &'a Grid) -> Board<'a> {
        Board {
            grid,
            cells: view.cells.clone(),
            workers: view.workers.clone(),
            now: 0.0,
            later: 0.0,
        }
        .with_loads(view, 0)
    }

    /// The shares of free positions workers take (see [`Board`]), the seat having placed
    /// `placed` more workers than `view` shows.
    pub fn with_loads(mut self, view: &TownView, placed: u32) -> Board<'a> {
        let players_in = view.players.iter().filter(|p| p.out.is_none());
        let (left, each) = players_in.fold((0u32, 0u32), |(left, each), p| {
            (
                left + u32::from(p.free_workers),
                each + u32::from(view.workers_each),
            )
        });
        let free = |empty: bool| {
            (0..self.cells.len())
                .filter(|&i| self.cells[i] == Cell::Free && (!empty || self.workers[i].is_none()))
                .count()
                .max(1) as f64
        };
        self.now = (f64::from(left.saturating_sub(placed)) / free(true)).min(1.0);
        self.later = (f64::from(each) / free(false)).min(1.0);
        self
    }

    /// The gold a `kind` at `pos` earns its owner at this round's end, and at a later
    /// round's end (0 for a kind without a power).
    pub fn power(&self, kind: Kind, pos: Pos) -> (f64, f64) {
        let near = self.grid.neighbours(pos);
        let mut now = 0.0;
        let mut later = 0.0;
        for &n in near {
            let (cell, worker) = (self.cells[usize::from(n)], self.workers[usize::from(n)]);
            let (a, b) = match (kind, cell, worker) {
                (Kind::Cathedral, _, Some(_)) => (1.0, 0.0),
                (Kind::Cathedral, Cell::Free, None) => (self.now, self.later),
                (Kind::Watchtower, Cell::Mine(_), _) => (1.0, 1.0),
                (Kind::Watchtower, Cell::Free, None) => (1.0 - self.now, 1.0 - self.later),
                (Kind::Watchtower, Cell::Free, Some(_)) => (0.0, 1.0 - self.later),
                (Kind::Market, Cell::Mine(_), _) => (1.0, 1.0),
                _ => (0.0, 0.0),
            };
            now += a;
            later += b;
        }
        if kind == Kind::Cathedral {
            // Workers of this round come back: later rounds count free positions only.
            later = near
                .iter()
                .filter(|&&n| self.cells[usize::from(n)] == Cell::Free)
                .count() as f64
                * self.later;
        }
        if kind == Kind::Castle {
            now = self.group(pos) as f64;
            later = now;
        }
        (now, later)
    }

    /// The gold `seat`'s buildings with a power are expected to earn from now to the
    /// match's end, over `ends` rounds' ends (this round's included).
    pub fn income(&self, seat: usize, ends: u32) -> f64 {
        let mut gold = 0.0;
        for (i, cell) in self.cells.iter().enumerate() {
            if let Cell::Building { kind, owner } = *cell {
                if owner == seat && kind.has_power() && ends > 0 {
                    let (now, later) = self.power(kind, i as Pos);
                    gold += now + f64::from(ends - 1) * later;
                }
            }
        }
        gold
    }

    /// The most a `kind` built later on a free position would earn at a later round's
    /// end, over the free positions of the board.
    pub fn best_later(&self, kind: Kind) -> f64 {
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == Cell::Free && self.workers[i].is_none())
            .map(|i| self.power(kind, i as Pos).1)
            .fold(0.0, f64::max)
    }

    /// The size of the largest connected group of `seat`'s own buildings.
    pub fn own_group(&self, seat: usize) -> usize {
        let own = |p: Pos| matches!(self.cells[usize::from(p)], Cell::Building { owner, .. } if owner == seat);
        (0..self.cells.len() as Pos)
            .filter(|&p| own(p))
            .map(|p| self.group_where(p, &own))
            .max()
            .unwrap_or(0)
    }

    /// The number of buildings in the connected group of buildings of `pos` (`pos`
    /// counted as one).
    fn group(&self, pos: Pos) -> usize {
        let is_building = |p: Pos| matches!(self.cells[usize::from(p)], Cell::Building { .. });
        self.group_where(pos, &is_building)
    }

    /// The number of positions joined to `pos` by neighbouring positions where `keep`
    /// holds (`pos` counted as one).
    fn group_where(&self, pos: Pos, keep: &dyn Fn(Pos) -> bool) -> usize {
        let mut seen = vec![pos];
        let mut next = 0;
        while next < seen.len() {
            for &n in self.grid.neighbours(seen[next]) {
                if keep(n) && !seen.contains(&n) {
                    seen.push(n);
                }
            }
            next += 1;
        }
        seen.len()
    }
}
