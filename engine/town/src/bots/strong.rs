//! `strong`: sees only a seat's observation and takes the legal action that leaves the
//! seat's holdings worth the most, each resource valued by what it can still become (gold,
//! food owed at the rounds' ends, wood and stone turned into buildings), with the gold its
//! buildings' powers are expected to earn (rule 22, when they are in play).

use super::powers::Board;
use crate::board::{Grid, Shape};
use crate::state::Cell;
use crate::{Action, Kind, Resource, Stock, TownView};

/// The action `strong` takes among `legal` (the seat's legal actions, in the rules'
/// order), seeing `view`: the one after which the seat's holdings are worth the most
/// ([`Plan::worth`]), the first of them on a tie; `None` if `legal` is empty.
///
/// ```
/// use game::{Acting, Game, State};
/// let mut state = town::Town.start(4, &town::Town.defaults()).unwrap();
/// let mut stream = draw::Stream::new(3);
/// while let Acting::Chance(chance) = state.acting() {
///     state.chance(&chance.draw(3, &mut stream)).unwrap();
/// }
/// let seat = state.to_play().unwrap();
/// let legal = state.legal(seat);
/// let action = town::bots::strong(&state.observe(seat), &legal).unwrap();
/// assert!(state.act(seat, &action).is_ok());
/// ```
pub fn strong(view: &TownView, legal: &[Action]) -> Option<Action> {
    let grid = Grid::new(
        Shape::named(view.board).unwrap_or(Shape::Rectangle),
        view.width,
        view.height,
    );
    let prospects = Prospects::of(view, &grid);
    let mut best: Option<(f64, &Action)> = None;
    for action in legal {
        let value = Plan::after(view, &grid, &prospects, action).worth();
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, action));
        }
    }
    best.map(|(_, a)| a.clone())
}

/// What each kind of building built later is worth beyond the gold it earns at once: the
/// powers' gold at the best free position over the rounds' ends left (0 without powers).
#[derive(Clone, Debug)]
pub struct Prospects {
    later: [f64; 8],
}

impl Prospects {
    /// The prospects of the seat of `view` on `grid`.
    pub fn of(view: &TownView, grid: &Grid) -> Prospects {
        let board = Board::of(view, grid);
        let ends = f64::from(rounds_ends(view)) - 0.5;
        Prospects {
            later: std::array::from_fn(|k| match Kind::ALL[k].has_power() && powers(view) {
                true => board.best_later(Kind::ALL[k]) * ends.max(0.0),
                false => 0.0,
            }),
        }
    }
}

/// Whether the powers are in play (rule 22: eight kinds in the supply).
fn powers(view: &TownView) -> bool {
    view.supply.len() == Kind::ALL.len()
}

/// The rounds' ends left at which the powers pay, this round's included.
fn rounds_ends(view: &TownView) -> u32 {
    u32::from(view.rounds.saturating_sub(view.round)) + 1
}

/// What a seat would hold after an action, and what it could still do with it: the
/// terms `strong` weighs.
#[derive(Clone, Debug)]
pub struct Plan {
    stock: Stock,
    /// Workers the seat places after this action, to the match's end.
    placements: u32,
    /// Buildings it may still build (`max_buildings` less those built).
    slots: u32,
    /// Buildings left to build, by kind (in the order of [`Kind::ALL`]).
    supply: [u32; 8],
    /// What a building of each kind built later earns beyond its immediate gold.
    later: [f64; 8],
    /// Food owed at the rounds' ends left, and the gold a food lacking costs.
    owed: u32,
    food_price: u32,
    /// Buildings owned (activated by others for a fee, by the owner for nothing).
    owned: u32,
    /// The gold its buildings' powers are expected to earn to the match's end.
    powers: f64,
    /// Its buildings that supply corn (rule 21's second objective).
    corn: u32,
    /// The match's workers per player (rule 21's first objective).
    workers: u32,
    /// The gold of the objectives its board and stock meet at the end (rule 21's third
    /// and fourth), as far as they can be seen now.
    objectives: f64,
}

/// The share of the objectives' gold `strong` counts (rule 21).
const OBJECTIVES: f64 = 1.0;

/// The buildings of the seat of `view` that supply corn (rule 21).
fn corn_buildings(view: &TownView) -> u32 {
    view.cells
        .iter()
        .filter(|c| {
            matches!(c, Cell::Building { owner, kind }
                if *owner == view.seat && kind.supplies().get(Resource::Corn) > 0)
        })
        .count() as u32
}

/// What a placement is worth that builds instead of collecting (a collect's usual gain).
const PLACEMENT: f64 = 2.0;

impl Plan {
    /// The seat of `view` after `action` (legal).
    pub fn after(view: &TownView, grid: &Grid, prospects: &Prospects, action: &Action) -> Plan {
        let me = &view.players[view.seat];
        let rounds_left = u32::from(view.rounds.saturating_sub(view.round));
        let workers = u32::from(view.workers_each);
        let mut plan = Plan {
            stock: me.stock,
            placements: (u32::from(me.free_workers) + rounds_left * workers).saturating_sub(1),
            slots: u32::from(view.max_buildings.saturating_sub(me.buildings)),
            supply: std::array::from_fn(|k| view.supply.get(k).map_or(0, |s| s.1)),
            later: prospects.later,
            owed: view.upkeep * workers * (rounds_left + 1),
            food_price: view.food_price,
            owned: view
                .cells
                .iter()
                .filter(|c| matches!(c, Cell::Building { owner, .. } if *owner == view.seat))
                .count() as u32,
            powers: 0.0,
            corn: 0,
            workers,
            objectives: 0.0,
        };
        plan.corn = corn_buildings(view);
        let mut board = Board::of(view, grid);
        let cell = |at: (u16, u16)| {
            grid.at(at.0, at.1)
                .map_or(Cell::Invalid, |p| view.cells[usize::from(p)])
        };
        match action {
            Action::Build { kind, .. } => {
                plan.stock = plan.stock - kind.value() + kind.earns();
                plan.slots = plan.slots.saturating_sub(1);
                if let Some(left) = plan.supply.get_mut(*kind as usize) {
                    *left = left.saturating_sub(1);
                }
                plan.owned += 1;
            }
            Action::Collect { at, activate } => {
                if let Some(pos) = grid.at(at.0, at.1) {
                    for &n in grid.neighbours(pos) {
                        if let Cell::Mine(r) = view.cells[usize::from(n)] {
                            plan.stock = plan.stock + Stock::of(r, 1);
                        }
                    }
                }
                let mut cost = Stock::EMPTY;
                let mut supplies = Stock::EMPTY;
                for &b in activate {
                    if let Cell::Building { kind, owner } = cell(b) {
                        supplies = supplies + kind.supplies();
                        if owner != view.seat {
                            cost = cost + kind.costs();
                        }
                    }
                }
                if plan.stock.covers(&cost) {
                    plan.stock = plan.stock - cost + supplies;
                }
            }
        }
        if let Action::Build { kind, .. } = action {
            plan.corn += u32::from(kind.supplies().get(Resource::Corn) > 0);
        }
        if let Some(pos) = grid.at(action.at().0, action.at().1) {
            let i = usize::from(pos);
            board.workers[i] = Some(view.seat);
            if let Action::Build { kind, .. } = action {
                board.cells[i] = Cell::Building {
                    kind: *kind,
                    owner: view.seat,
                };
            }
        }
        plan.objectives = plan.seen_objectives(view, &board);
        if powers(view) {
            board = board.with_loads(view, 1);
            plan.powers = board.income(view.seat, rounds_ends(view));
        }
        plan
    }

    /// The plan's worth in gold: the gold held, the food that will pay upkeep, the best
    /// the wood and stone held can still be built into (each build costing a placement), a
    /// little for each building owned while placements remain, and the powers' gold to
    /// come.
    pub fn worth(&self) -> f64 {
        let gold = f64::from(self.stock.get(Resource::Gold));
        let food = self.stock.get(Resource::Corn) + self.stock.get(Resource::Fish);
        let fed = f64::from(food.min(self.owed) * self.food_price);
        let owning = 0.2 * f64::from(self.owned) * f64::from(self.placements.min(8));
        gold + fed + self.builds() + owning + self.powers + self.objectives
    }

    /// The gold of rule 21's third and fourth objectives as `board` (after the action) and
    /// the stock show them: 2 for a connected group of 3 of its own buildings, and in the
    /// last round 2 for one of each mined resource left after the upkeep. `strong` cannot
    /// tell whether the objectives are on (the `etat` line does not say), so it reaches
    /// for them always, at [`OBJECTIVES`] of their gold.
    fn seen_objectives(&self, view: &TownView, board: &Board) -> f64 {
        let mut gold = 0.0;
        if board.own_group(view.seat) >= 3 {
            gold += 2.0;
        }
        if view.round >= view.rounds {
            if let Some(paid) =
                crate::upkeep(&self.stock, view.upkeep * self.workers, self.food_price)
            {
                let left = self.stock - paid;
                if Resource::MINED.iter().all(|&r| left.get(r) > 0) {
                    gold += 2.0;
                }
            }
        }
        OBJECTIVES * gold
    }

    /// The most gold that building with the wood and stone held can still earn, less a
    /// [`PLACEMENT`] for each build: every mix of kinds within the supply, the slots and
    /// the placements left.
    fn builds(&self) -> f64 {
        let most = self.placements.min(self.slots);
        let wood = self.stock.get(Resource::Wood);
        let stone = self.stock.get(Resource::Stone);
        self.best_mix(0, most, wood, stone, self.owned, self.corn)
    }

    /// The best of [`Plan::builds`] among the kinds from `Kind::ALL[k]` on, with `most`
    /// builds, `wood` and `stone` left, `built` buildings and `corn` of them that supply
    /// corn (rule 21's first and second objectives met at the end count, at
    /// [`OBJECTIVES`] of their gold).
    fn best_mix(&self, k: usize, most: u32, wood: u32, stone: u32, built: u32, corn: u32) -> f64 {
        let Some(&kind) = Kind::ALL.get(k) else {
            let more = if built > self.workers { 3.0 } else { 0.0 };
            let farms = if corn >= 2 { 2.0 } else { 0.0 };
            return OBJECTIVES * (more + farms);
        };
        let supplies_corn = u32::from(kind.supplies().get(Resource::Corn) > 0);
        let value = kind.value();
        let (w, s) = (value.get(Resource::Wood), value.get(Resource::Stone));
        let gain = f64::from(kind.earns().get(Resource::Gold)) + self.later[k] - PLACEMENT;
        let mut best = 0.0f64;
        for n in 0..=self.supply[k].min(most) {
            if n * w > wood || n * s > stone {
                break;
            }
            let rest = self.best_mix(
                k + 1,
                most - n,
                wood - n * w,
                stone - n * s,
                built + n,
                corn + n * supplies_corn,
            );
            best = best.max(f64::from(n) * gain + rest);
        }
        best
    }
}
