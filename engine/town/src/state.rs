//! One match of Little Town: the setup drawn by chance (rules 6 to 8), the rounds and their
//! turns (rules 10 to 13), the upkeep (rule 14), players out (rules 15 and 16), the end and
//! the ranking (rules 17 and 18), the objectives and powers when they are on (rules 21
//! and 22, counted in `extension.rs`).

use crate::action::{Action, Xy};
use crate::board::{Grid, Pos};
use crate::buildings::Kind;
use crate::resources::{Resource, Stock};
use game::{Acting, Chance, Drawn, Illegal, Ranking};
use std::sync::{Arc, OnceLock};

/// The fixed terms of a match, from its options and its number of seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub grid: Grid,
    /// `NUM_ROUNDS`.
    pub rounds: u8,
    /// Food (corn, then fish) each worker eats at a round's end.
    pub upkeep: u32,
    /// Gold paid for each food a player lacks at a round's end.
    pub food_price: u32,
    /// `MAX_BUILDINGS_PER_PLAYER`.
    pub max_buildings: u8,
    /// Each player's workers: min((N/3)/players, `MAX_WORKERS_PER_PLAYER`) (rule 9).
    pub workers: u8,
    /// Valid mine placements drawn, the one of lowest spread kept (rule 7).
    pub spread_draws: u32,
    /// The objectives counted at the end (rule 21).
    pub objectives: bool,
    /// The kinds with a power in play, paid at each round's end (rule 22).
    pub powers: bool,
}

impl Rules {
    /// N, the number of valid positions.
    pub fn positions(&self) -> usize {
        self.grid.positions().len()
    }
}

/// What a player of `stock` pays for `need` food (rule 14): corn first, then fish, then
/// `price` gold for each food still lacking; `None` if it cannot pay.
pub fn upkeep(stock: &Stock, need: u32, price: u32) -> Option<Stock> {
    let corn = stock.get(Resource::Corn).min(need);
    let fish = stock.get(Resource::Fish).min(need - corn);
    let gold = (need - corn - fish) * price;
    (stock.get(Resource::Gold) >= gold).then(|| {
        Stock::of(Resource::Corn, corn)
            + Stock::of(Resource::Fish, fish)
            + Stock::of(Resource::Gold, gold)
    })
}

/// What a valid position holds, workers aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Cell {
    /// Not a position of the board.
    Invalid,
    Free,
    Mine(Resource),
    Building {
        kind: Kind,
        owner: usize,
    },
}

/// Why a player is out of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Why {
    /// It could not pay its workers' upkeep (rule 14).
    Eliminated,
    /// It broke a rule, or its program failed (rule 15).
    Excluded,
}

/// A player's holdings.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Player {
    pub stock: Stock,
    /// Workers not yet placed this round.
    pub free_workers: u8,
    /// Buildings it has built.
    pub buildings: u8,
    /// When it went out (players out at the same moment share the number) and why.
    pub out: Option<(u32, Why)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Mines,
    Buildings,
    FirstPlayer,
    Turn(usize),
    Over,
}

/// One match, from its first draw to its ranking.
#[derive(Clone, Debug)]
pub struct TownState {
    rules: Arc<Rules>,
    cells: Vec<Cell>,
    workers: Vec<Option<usize>>,
    players: Vec<Player>,
    /// Buildings left to build, by kind in play (in the order of [`Kind::ALL`]).
    supply: Vec<u32>,
    mines: Vec<Pos>,
    /// The setup in progress: valid mine placements drawn, the best so far; kinds drawn.
    valid_draws: u32,
    best: Option<(u64, Vec<Pos>)>,
    kinds: Vec<Kind>,
    round: u8,
    first: Option<usize>,
    outs: u32,
    phase: Phase,
    /// The gold the powers paid each seat at each round's end so far (rule 22; none
    /// without the powers).
    powers_paid: Vec<Vec<u32>>,
    /// The seat to play's legal actions and their text, made on the first ask and kept until
    /// the state changes (`chance`, `act` and `retire` forget them): they cannot change
    /// before, and a champion may ask for them again and again within its turn
    /// (protocol-little-town.md's `legal`) at the cost of a copy each.
    legal: OnceLock<Legal>,
}

/// The legal actions of the seat to play ([`TownState::legal_text`]).
#[derive(Clone, Debug)]
struct Legal {
    actions: Vec<Action>,
    /// The actions as rule 20 writes them, separated by `;`.
    text: String,
}

impl TownState {
    /// A match of `seats` seats under `rules`, before anything is drawn.
    pub fn new(rules: Rules, seats: usize) -> TownState {
        let cells = (0..rules.grid.len() as Pos)
            .map(|p| match rules.grid.is_valid(p) {
                true => Cell::Free,
                false => Cell::Invalid,
            })
            .collect();
        let player = Player {
            stock: Stock::EMPTY,
            free_workers: rules.workers,
            buildings: 0,
            out: None,
        };
        let kinds = Kind::in_play(rules.powers).len();
        TownState {
            workers: vec![None; rules.grid.len()],
            rules: Arc::new(rules),
            cells,
            players: vec![player; seats],
            supply: vec![0; kinds],
            mines: Vec::new(),
            valid_draws: 0,
            best: None,
            kinds: Vec::new(),
            round: 0,
            first: None,
            outs: 0,
            phase: Phase::Mines,
            powers_paid: Vec::new(),
            legal: OnceLock::new(),
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// What `(x, y)` holds.
    pub fn cell(&self, at: Xy) -> Option<Cell> {
        let pos = self.rules.grid.at(at.0, at.1)?;
        Some(self.cells[usize::from(pos)])
    }

    /// Whose worker stands at `(x, y)`.
    pub fn worker(&self, at: Xy) -> Option<usize> {
        let pos = self.rules.grid.at(at.0, at.1)?;
        self.workers[usize::from(pos)]
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// Buildings left to build, by kind in play (in the order of [`Kind::ALL`]: the four
    /// of the default set, the eight with the powers).
    pub fn supply(&self) -> &[u32] {
        &self.supply
    }

    /// Buildings of `kind` left to build (0 for a kind not in play).
    pub fn left(&self, kind: Kind) -> u32 {
        self.supply.get(kind as usize).copied().unwrap_or(0)
    }

    /// The mines' positions, once placed.
    pub fn mines(&self) -> &[Pos] {
        &self.mines
    }

    /// The spread of the mines placed (rule 7).
    pub fn spread(&self) -> u64 {
        self.rules.grid.spread(&self.mines)
    }

    /// The gold the powers paid each seat (in seat order, 0 to a seat out) at each round's
    /// end so far, the first round's first (rule 22; empty without the powers).
    pub fn powers_paid(&self) -> &[Vec<u32>] {
        &self.powers_paid
    }

    /// The current round (1 to `rounds`; 0 during the setup).
    pub fn round(&self) -> u8 {
        self.round
    }

    /// The current round's first player.
    pub fn first(&self) -> Option<usize> {
        self.first
    }

    /// The seat to play, if a seat plays now.
    pub fn to_play(&self) -> Option<usize> {
        match self.phase {
            Phase::Turn(seat) => Some(seat),
            _ => None,
        }
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn is_in(&self, seat: usize) -> bool {
        self.players[seat].out.is_none()
    }

    fn still_in(&self) -> Vec<usize> {
        (0..self.players.len()).filter(|&s| self.is_in(s)).collect()
    }

    fn is_free(&self, pos: Pos) -> bool {
        self.cells[usize::from(pos)] == Cell::Free && self.workers[usize::from(pos)].is_none()
    }

    pub(crate) fn acting(&self) -> Acting {
        match self.phase {
            Phase::Mines => Acting::Chance(Chance::Order(self.rules.positions() as u32)),
            Phase::Buildings => Acting::Chance(Chance::Below(self.supply.len() as u64)),
            Phase::FirstPlayer => Acting::Chance(Chance::Below(self.still_in().len() as u64)),
            Phase::Turn(seat) => Acting::Seats(vec![seat]),
            Phase::Over => Acting::Over,
        }
    }

    pub(crate) fn chance(&mut self, drawn: &Drawn) -> Result<(), String> {
        self.legal.take();
        let Acting::Chance(request) = self.acting() else {
            return Err(format!("chance drew {drawn:?} where players act"));
        };
        if !request.admits(drawn) {
            return Err(format!(
                "chance drew {drawn:?}, which {request:?} cannot draw"
            ));
        }
        match (self.phase, drawn) {
            (Phase::Mines, Drawn::Order(order)) => self.draw_mines(order),
            (Phase::Buildings, Drawn::Number(k)) => self.draw_building(Kind::ALL[*k as usize]),
            (Phase::FirstPlayer, Drawn::Number(k)) => {
                let first = self.still_in()[*k as usize];
                self.first = Some(first);
                self.next_turn(first);
            }
            _ => {
                return Err(format!(
                    "chance drew {drawn:?}, which {request:?} cannot draw"
                ))
            }
        }
        Ok(())
    }

    /// Rules 6 and 7: the first N/4 positions of `order` are mines, of kinds corn, fish,
    /// wood, stone in turn; a placement where a mine has no free neighbour is drawn again;
    /// of `spread_draws` valid ones, the first of lowest spread is kept.
    fn draw_mines(&mut self, order: &[u32]) {
        let positions = self.rules.grid.positions();
        let mines: Vec<Pos> = order[..positions.len() / 4]
            .iter()
            .map(|&i| positions[i as usize])
            .collect();
        let grid = &self.rules.grid;
        let each_has_room = mines
            .iter()
            .all(|&m| grid.neighbours(m).iter().any(|n| !mines.contains(n)));
        if !each_has_room {
            return;
        }
        self.valid_draws += 1;
        let spread = grid.spread(&mines);
        if self.best.as_ref().is_none_or(|(best, _)| spread < *best) {
            self.best = Some((spread, mines));
        }
        if self.valid_draws == self.rules.spread_draws {
            let (_, mines) = self.best.take().unwrap_or_default();
            for (i, &m) in mines.iter().enumerate() {
                self.cells[usize::from(m)] = Cell::Mine(Resource::MINED[i % 4]);
            }
            self.mines = mines;
            self.phase = Phase::Buildings;
        }
    }

    /// Rule 8: N/3 buildings, each of a kind drawn; a list without a farm is drawn again.
    fn draw_building(&mut self, kind: Kind) {
        self.kinds.push(kind);
        if self.kinds.len() < self.rules.positions() / 3 {
            return;
        }
        if self.kinds.contains(&Kind::Farm) {
            for kind in std::mem::take(&mut self.kinds) {
                self.supply[kind as usize] += 1;
            }
            self.round = 1;
            self.phase = Phase::FirstPlayer;
        } else {
            self.kinds.clear();
        }
    }

    /// Rules 17 and 21: the match is over; the players still in receive the gold of the
    /// objectives they meet, if they are on.
    fn finish(&mut self) {
        self.phase = Phase::Over;
        if self.rules.objectives {
            for seat in self.still_in() {
                let met = crate::extension::objectives_met(self, seat);
                let gold: u32 = met.iter().map(|o| o.gold()).sum();
                let stock = &mut self.players[seat].stock;
                *stock = *stock + Stock::of(Resource::Gold, gold);
            }
        }
    }

    /// Rule 10: the turn goes to the first player from `from` on (in seat order) still in
    /// with a worker to place; the round ends when there is none or no position is free.
    fn next_turn(&mut self, from: usize) {
        let seats = self.players.len();
        if self.still_in().len() < 2 {
            self.finish();
            return;
        }
        let room = (0..self.cells.len() as Pos).any(|p| self.is_free(p));
        let next = (0..seats)
            .map(|k| (from + k) % seats)
            .find(|&s| self.is_in(s) && self.players[s].free_workers > 0);
        match (room, next) {
            (true, Some(seat)) => self.phase = Phase::Turn(seat),
            _ => self.end_round(),
        }
    }

    /// Rules 22, 14 and 17: the powers pay their owners still in (workers still on the
    /// board), workers come back, each player still in pays its upkeep or is eliminated;
    /// then the next round, or the end.
    fn end_round(&mut self) {
        if self.rules.powers {
            let mut paid = crate::extension::powers(self);
            for (seat, gold) in paid.iter_mut().enumerate() {
                if !self.is_in(seat) {
                    *gold = 0;
                }
                let stock = &mut self.players[seat].stock;
                *stock = *stock + Stock::of(Resource::Gold, *gold);
            }
            self.powers_paid.push(paid);
        }
        self.workers.iter_mut().for_each(|w| *w = None);
        let need = self.rules.upkeep * u32::from(self.rules.workers);
        let price = self.rules.food_price;
        let mut eliminated = false;
        for seat in self.still_in() {
            let player = &mut self.players[seat];
            player.free_workers = self.rules.workers;
            match upkeep(&player.stock, need, price) {
                Some(paid) => player.stock = player.stock - paid,
                None => {
                    player.stock.set(Resource::Gold, 0);
                    player.out = Some((self.outs, Why::Eliminated));
                    eliminated = true;
                }
            }
        }
        self.outs += u32::from(eliminated);
        self.first = None;
        if self.round >= self.rules.rounds || self.still_in().len() < 2 {
            self.finish();
        } else {
            self.round += 1;
            self.phase = Phase::FirstPlayer;
        }
    }

    /// The position of `at`, if it is a free valid position (rule 11).
    fn free_position(&self, at: Xy) -> Result<Pos, Illegal> {
        let (x, y) = at;
        let pos = self
            .rules
            .grid
            .at(x, y)
            .filter(|&p| self.rules.grid.is_valid(p))
            .ok_or_else(|| Illegal(format!("{x},{y} is not a valid position of this board")))?;
        match (self.cells[usize::from(pos)], self.workers[usize::from(pos)]) {
            (Cell::Free, None) => Ok(pos),
            (Cell::Mine(r), _) => Err(Illegal(format!("{x},{y} is a {} mine", r.name()))),
            (Cell::Building { kind, .. }, _) => {
                Err(Illegal(format!("{x},{y} holds a {}", kind.name())))
            }
            _ => Err(Illegal(format!("{x},{y} holds a worker already"))),
        }
    }

    /// What collecting at `pos` and activating `activate` does (rule 12): the stock
    /// mined, what is paid in all, and the buildings activated.
    fn collect_terms(
        &self,
        seat: usize,
        pos: Pos,
        activate: &[Xy],
    ) -> Result<(Stock, Stock, Vec<Pos>), Illegal> {
        let grid = &self.rules.grid;
        let (x, y) = grid.xy(pos);
        let mut mined = Stock::EMPTY;
        for &n in grid.neighbours(pos) {
            if let Cell::Mine(r) = self.cells[usize::from(n)] {
                mined = mined + Stock::of(r, 1);
            }
        }
        let mut cost = Stock::EMPTY;
        let mut buildings = Vec::new();
        for &(bx, by) in activate {
            let b = grid
                .at(bx, by)
                .filter(|b| grid.neighbours(pos).contains(b))
                .ok_or_else(|| Illegal(format!("{bx},{by} is not a neighbour of {x},{y}")))?;
            let Cell::Building { kind, owner } = self.cells[usize::from(b)] else {
                return Err(Illegal(format!("{bx},{by} holds no building to activate")));
            };
            if buildings.contains(&b) {
                return Err(Illegal(format!("{bx},{by} is activated twice")));
            }
            buildings.push(b);
            if owner != seat {
                cost = cost + kind.costs();
            }
        }
        let holds = self.players[seat].stock + mined;
        if !holds.covers(&cost) {
            return Err(Illegal(format!(
                "activating costs {cost}, and after mining you hold {holds}"
            )));
        }
        Ok((mined, cost, buildings))
    }

    /// Whether `seat` may build `kind` at a free position now (rule 13), and if not why.
    fn may_build(&self, seat: usize, kind: Kind) -> Result<(), Illegal> {
        let player = &self.players[seat];
        if !Kind::in_play(self.rules.powers).contains(&kind) {
            return Err(Illegal(format!(
                "a {} is built only in a match with the powers (option powers=on)",
                kind.name()
            )));
        }
        if self.left(kind) == 0 {
            return Err(Illegal(format!("no {} is left to build", kind.name())));
        }
        if player.buildings >= self.rules.max_buildings {
            return Err(Illegal(format!(
                "you have built {} buildings, the most a player may",
                player.buildings
            )));
        }
        if !player.stock.covers(&kind.value()) {
            return Err(Illegal(format!(
                "a {} costs {}, and you hold {}",
                kind.name(),
                kind.value(),
                player.stock
            )));
        }
        Ok(())
    }

    pub(crate) fn act(&mut self, seat: usize, action: &Action) -> Result<String, Illegal> {
        self.legal.take();
        if self.phase != Phase::Turn(seat) {
            return Err(Illegal(format!("it is not seat {seat}'s turn")));
        }
        let pos = self.free_position(action.at())?;
        match action {
            Action::Collect { activate, .. } => {
                let (mined, cost, buildings) = self.collect_terms(seat, pos, activate)?;
                let mut stock = self.players[seat].stock + mined - cost;
                for b in buildings {
                    let Cell::Building { kind, owner } = self.cells[usize::from(b)] else {
                        continue;
                    };
                    stock = stock + kind.supplies();
                    if owner != seat && self.is_in(owner) {
                        let paid = &mut self.players[owner].stock;
                        *paid = *paid + kind.costs();
                    }
                }
                self.players[seat].stock = stock;
            }
            Action::Build { kind, .. } => {
                self.may_build(seat, *kind)?;
                let player = &mut self.players[seat];
                player.stock = player.stock - kind.value() + kind.earns();
                player.buildings += 1;
                self.supply[*kind as usize] -= 1;
                self.cells[usize::from(pos)] = Cell::Building {
                    kind: *kind,
                    owner: seat,
                };
            }
        }
        self.workers[usize::from(pos)] = Some(seat);
        self.players[seat].free_workers -= 1;
        let answer = self.players[seat].stock.to_string();
        self.next_turn(seat + 1);
        Ok(answer)
    }

    pub(crate) fn legal(&self, seat: usize) -> Vec<Action> {
        self.legal_now(seat)
            .map_or_else(Vec::new, |legal| legal.actions.clone())
    }

    /// The legal actions of `seat` as rule 20 writes them, separated by `;` (empty when it is
    /// not its turn): protocol-little-town.md's answer to `legal`. Made once a turn, however
    /// often it is asked.
    ///
    /// ```
    /// use game::{Acting, Game, Options, State};
    /// use town::Town;
    /// let mut state = Town.start(2, &Options::parse::<&str>(Town.options(), &[]).unwrap()).unwrap();
    /// let mut stream = draw::Stream::new(1);
    /// while let Acting::Chance(c) = state.acting() {
    ///     state.chance(&c.draw(1, &mut stream)).unwrap();
    /// }
    /// let Acting::Seats(seats) = state.acting() else { unreachable!() };
    /// let text = state.legal_text(seats[0]);
    /// assert!(text.starts_with("collect "));
    /// assert!(std::ptr::eq(text, state.legal_text(seats[0])), "made once");
    /// assert_eq!(state.legal_text(1 - seats[0]), "");
    /// // An action changes the state: the next seat's are made again, without that position.
    /// let first: town::Action = text.split(';').next().unwrap().parse().unwrap();
    /// state.act(seats[0], &first).unwrap();
    /// let Acting::Seats(next) = state.acting() else { unreachable!() };
    /// let (x, y) = first.at();
    /// assert!(!state.legal_text(next[0]).contains(&format!(" {x},{y}")));
    /// assert!(!state.legal_text(next[0]).is_empty());
    /// ```
    pub fn legal_text(&self, seat: usize) -> &str {
        self.legal_now(seat).map_or("", |legal| &legal.text)
    }

    /// The legal actions of `seat`, if it is the seat to play.
    fn legal_now(&self, seat: usize) -> Option<&Legal> {
        if self.phase != Phase::Turn(seat) {
            return None;
        }
        Some(self.legal.get_or_init(|| {
            let actions = self.make_legal(seat);
            let text: Vec<String> = actions.iter().map(Action::to_string).collect();
            Legal {
                text: text.join(";"),
                actions,
            }
        }))
    }

    /// The legal actions of `seat`, the seat to play: each free position, with each set of
    /// its neighbouring buildings the seat can pay to activate, and each kind it can build.
    fn make_legal(&self, seat: usize) -> Vec<Action> {
        let grid = &self.rules.grid;
        let mut legal = Vec::new();
        for pos in (0..self.cells.len() as Pos).filter(|&p| self.is_free(p)) {
            let at = grid.xy(pos);
            let near: Vec<Xy> = grid
                .neighbours(pos)
                .iter()
                .filter(|&&n| matches!(self.cells[usize::from(n)], Cell::Building { .. }))
                .map(|&n| grid.xy(n))
                .collect();
            for mask in 0u32..1 << near.len() {
                let activate: Vec<Xy> = (0..near.len())
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| near[i])
                    .collect();
                if self.collect_terms(seat, pos, &activate).is_ok() {
                    legal.push(Action::Collect { at, activate });
                }
            }
            for &kind in Kind::in_play(self.rules.powers) {
                if self.may_build(seat, kind).is_ok() {
                    legal.push(Action::Build { at, kind });
                }
            }
        }
        legal
    }

    /// Rule 15: `seat` is excluded (it broke a rule, or its program failed): it loses its
    /// gold, and the turn passes.
    pub(crate) fn retire(&mut self, seat: usize) {
        self.legal.take();
        if self.phase == Phase::Over || seat >= self.players.len() || !self.is_in(seat) {
            return;
        }
        let player = &mut self.players[seat];
        player.stock.set(Resource::Gold, 0);
        player.out = Some((self.outs, Why::Excluded));
        self.outs += 1;
        if self.still_in().len() < 2 {
            self.finish();
        } else if self.phase == Phase::Turn(seat) {
            self.next_turn(seat + 1);
        }
    }

    /// Rule 18: those still in first, by gold (equal gold tied); then those out, the later
    /// out above the earlier (out at once, tied). Each player scores its gold (an excluded
    /// player's is 0, rule 15).
    pub(crate) fn ranking(&self) -> Option<Ranking> {
        if self.phase != Phase::Over {
            return None;
        }
        let gold = |p: &Player| i64::from(p.stock.get(Resource::Gold));
        // Still in before out; among those in, more gold; among those out, the later out.
        let keys = self
            .players
            .iter()
            .map(|p| match p.out {
                None => (true, gold(p)),
                Some((order, _)) => (false, i64::from(order)),
            })
            .collect();
        Some(Ranking::by_keys(
            keys,
            self.players.iter().map(gold).collect(),
        ))
    }

    pub(crate) fn digest(&self) -> u64 {
        let mut bytes = Vec::with_capacity(4 * self.cells.len() + 64);
        let (phase, seat) = match self.phase {
            Phase::Mines => (0, 0),
            Phase::Buildings => (1, 0),
            Phase::FirstPlayer => (2, 0),
            Phase::Turn(seat) => (3, seat),
            Phase::Over => (4, 0),
        };
        bytes.extend([
            phase,
            seat as u8,
            self.round,
            self.first.map_or(255, |f| f as u8),
        ]);
        for (cell, worker) in self.cells.iter().zip(&self.workers) {
            bytes.extend(match *cell {
                Cell::Invalid => [0, 0],
                Cell::Free => [1, 0],
                Cell::Mine(r) => [2, r as u8],
                Cell::Building { kind, owner } => [3 + kind as u8, owner as u8],
            });
            bytes.push(worker.map_or(255, |w| w as u8));
        }
        for p in &self.players {
            p.stock.0.iter().for_each(|n| bytes.extend(n.to_le_bytes()));
            bytes.extend([p.free_workers, p.buildings]);
            match p.out {
                None => bytes.push(0),
                Some((order, why)) => {
                    bytes.push(1 + why as u8);
                    bytes.extend(order.to_le_bytes());
                }
            }
        }
        self.supply
            .iter()
            .for_each(|n| bytes.extend(n.to_le_bytes()));
        bytes.extend(self.valid_draws.to_le_bytes());
        if let Some((spread, mines)) = &self.best {
            bytes.extend(spread.to_le_bytes());
            mines.iter().for_each(|m| bytes.extend(m.to_le_bytes()));
        }
        bytes.extend(self.kinds.iter().map(|k| *k as u8));
        bytes.extend(self.outs.to_le_bytes());
        game::fnv1a(&bytes)
    }
}
