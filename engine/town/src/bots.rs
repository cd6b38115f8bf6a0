//! The built-in players: `random`, the one the original program asks for (every choice
//! uniformly among the legal ones), and `strong`, which sees only a seat's observation and
//! takes the legal action that adds the most to its stock, each resource valued by what it
//! can still become (gold, food owed at the rounds' ends, wood turned into buildings).

use crate::board::{Grid, Shape};
use crate::state::Cell;
use crate::{Action, Resource, Stock, TownState, TownView};

/// The built-in players' names, as the referee's `bot` command takes them.
pub const NAMES: [&str; 2] = ["random", "strong"];

/// The action of `seat` in `state`, drawn uniformly among its legal actions from
/// `stream`; `None` when the seat has nothing to do now.
///
/// ```
/// use game::{Acting, Game, State};
/// let mut state = town::Town.start(2, &town::Town.defaults()).unwrap();
/// let mut stream = draw::Stream::new(5);
/// while let Acting::Chance(chance) = state.acting() {
///     state.chance(&chance.draw(5, &mut stream)).unwrap();
/// }
/// let seat = state.to_play().unwrap();
/// let action = town::bots::random(&state, seat, &mut stream).unwrap();
/// assert!(state.act(seat, &action).is_ok());
/// ```
pub fn random(state: &TownState, seat: usize, stream: &mut draw::Stream) -> Option<Action> {
    stream.choose(&game::State::legal(state, seat)).cloned()
}

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
    let mut best: Option<(f64, &Action)> = None;
    for action in legal {
        let value = Plan::after(view, &grid, action).worth();
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, action));
        }
    }
    best.map(|(_, a)| a.clone())
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
    /// Buildings of the default set left to build, by kind (the powers' kinds, rule 22,
    /// are weighed only by the gold they earn when built).
    supply: [u32; 4],
    /// Food owed at the rounds' ends left, and the gold a food lacking costs.
    owed: u32,
    food_price: u32,
    /// Buildings owned (activated by others for a fee, by the owner for nothing).
    owned: u32,
}

/// What a placement is worth that builds instead of collecting (a collect's usual gain).
const PLACEMENT: f64 = 2.0;

impl Plan {
    /// The seat of `view` after `action` (legal).
    pub fn after(view: &TownView, grid: &Grid, action: &Action) -> Plan {
        let me = &view.players[view.seat];
        let rounds_left = u32::from(view.rounds.saturating_sub(view.round));
        let workers = u32::from(view.workers_each);
        let mut plan = Plan {
            stock: me.stock,
            placements: (u32::from(me.free_workers) + rounds_left * workers).saturating_sub(1),
            slots: u32::from(view.max_buildings.saturating_sub(me.buildings)),
            supply: std::array::from_fn(|k| view.supply.get(k).map_or(0, |s| s.1)),
            owed: view.upkeep * workers * (rounds_left + 1),
            food_price: view.food_price,
            owned: view
                .cells
                .iter()
                .filter(|c| matches!(c, Cell::Building { owner, .. } if *owner == view.seat))
                .count() as u32,
        };
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
        plan
    }

    /// The plan's worth in gold: the gold held, the food that will pay upkeep, the best
    /// the wood held can still be built into (each build costing a placement), and a
    /// little for each building owned while placements remain.
    pub fn worth(&self) -> f64 {
        let gold = f64::from(self.stock.get(Resource::Gold));
        let food = self.stock.get(Resource::Corn) + self.stock.get(Resource::Fish);
        let fed = f64::from(food.min(self.owed) * self.food_price);
        let owning = 0.2 * f64::from(self.owned) * f64::from(self.placements.min(8));
        gold + fed + self.builds() + owning
    }

    /// The most gold that building with the wood held can still earn, less a
    /// [`PLACEMENT`] for each build: every mix of kinds within the supply, the slots and
    /// the placements left.
    fn builds(&self) -> f64 {
        let wood = self.stock.get(Resource::Wood);
        let most = self.placements.min(self.slots);
        let mut best = 0.0f64;
        let up_to = |k: usize| self.supply[k].min(most);
        for farms in 0..=up_to(0) {
            for sawmills in 0..=up_to(1) {
                for fives in 0..=(up_to(2) + up_to(3)).min(most) {
                    let count = farms + sawmills + fives;
                    let cost = farms + 2 * sawmills + 3 * fives;
                    if count > most || cost > wood {
                        continue;
                    }
                    let earned = 3 * farms + 4 * sawmills + 5 * fives;
                    best = best.max(f64::from(earned) - PLACEMENT * f64::from(count));
                }
            }
        }
        best
    }
}
