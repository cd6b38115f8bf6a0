//! Little Town as a [`game::Game`]: 2 to 4 seats (4 by default), its options (rule 19),
//! chance for every random placement and each round's first player, each seat's
//! observation (nothing is hidden: rule 20), the ranking and a stable digest.

use crate::action::Action;
use crate::board::{Grid, Shape};
use crate::buildings::Kind;
use crate::state::{Cell, Player, Rules, TownState};
use game::options::Kind as Takes;
use game::{Acting, Drawn, Illegal, OptionSpec, Options, Ranking};

/// Little Town.
pub struct Town;

/// The seats a match of Little Town has when the runner is given no number (the original
/// program's `-p` default).
pub const DEFAULT_SEATS: usize = 4;

/// Each seat's colour (rule 1), seat 0 first.
pub const COLOURS: [&str; 4] = ["white", "orange", "pink", "violet"];

/// The least number of valid positions a board must have (rule 5).
pub const MIN_POSITIONS: usize = 16;

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "board",
        help: "the kind of board (the original's -c 0 to 4)",
        default: "rectangle",
        kind: Takes::Choice(Shape::NAMES),
    },
    OptionSpec {
        name: "width",
        help: "the board's width, MAX_X",
        default: "6",
        kind: Takes::Integer(4, 16),
    },
    OptionSpec {
        name: "height",
        help: "the board's height, MAX_Y",
        default: "6",
        kind: Takes::Integer(4, 16),
    },
    OptionSpec {
        name: "rounds",
        help: "the number of rounds, NUM_ROUNDS",
        default: "4",
        kind: Takes::Integer(1, 8),
    },
    OptionSpec {
        name: "upkeep",
        help: "the food (corn or fish) each worker eats at each round's end",
        default: "1",
        kind: Takes::Integer(0, 3),
    },
    OptionSpec {
        name: "food_price",
        help: "the gold paid for each food a player lacks at a round's end",
        default: "1",
        kind: Takes::Integer(1, 5),
    },
    OptionSpec {
        name: "max_workers",
        help: "MAX_WORKERS_PER_PLAYER",
        default: "6",
        kind: Takes::Integer(1, 12),
    },
    OptionSpec {
        name: "max_buildings",
        help: "MAX_BUILDINGS_PER_PLAYER",
        default: "7",
        kind: Takes::Integer(1, 16),
    },
    OptionSpec {
        name: "objectives",
        help: "the fourth extension's objectives, gold at the end (rule 21)",
        default: "off",
        kind: Takes::Choice(&["off", "on"]),
    },
    OptionSpec {
        name: "powers",
        help: "the fourth extension's buildings with powers, gold each round (rule 22)",
        default: "off",
        kind: Takes::Choice(&["off", "on"]),
    },
    OptionSpec {
        name: "spread_draws",
        help: "mine placements drawn, the one of lowest spread kept",
        default: "1",
        kind: Takes::Integer(1, 64),
    },
];

impl Town {
    /// The rules of a match of `seats` seats with `options` (already checked), or why the
    /// board cannot be played.
    pub fn rules(seats: usize, options: &Options) -> Result<Rules, String> {
        let board = options.get("board");
        let shape = Shape::named(board).ok_or(format!("no board `{board}`"))?;
        let (width, height) = (options.integer("width"), options.integer("height"));
        let grid = Grid::new(shape, width as u16, height as u16);
        let n = grid.positions().len();
        if n < MIN_POSITIONS {
            return Err(format!(
                "a {board} board of {width}x{height} has {n} valid positions, and Little Town \
                 needs at least {MIN_POSITIONS}: make it larger (width=6 height=6, say)"
            ));
        }
        if !(2..=4).contains(&seats) {
            return Err(format!(
                "Little Town is played by 2 to 4 players, not {seats}"
            ));
        }
        let workers = (n / 3 / seats).min(options.integer("max_workers") as usize);
        Ok(Rules {
            grid,
            rounds: options.integer("rounds") as u8,
            upkeep: options.integer("upkeep") as u32,
            food_price: options.integer("food_price") as u32,
            max_buildings: options.integer("max_buildings") as u8,
            workers: workers as u8,
            spread_draws: options.integer("spread_draws") as u32,
            objectives: options.get("objectives") == "on",
            powers: options.get("powers") == "on",
        })
    }
}

impl game::Game for Town {
    type State = TownState;
    fn name(&self) -> &'static str {
        "little-town"
    }
    fn title(&self) -> &'static str {
        "Little Town"
    }
    /// 2: every seat scores its gold, 0 for a seat out (rule 18). Version 1 scored a seat
    /// out minus the number of players still in when it went out; its records are still
    /// read and replayed as they were played, then made again as version 2.
    fn version(&self) -> u32 {
        2
    }
    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        2..=4
    }
    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }
    fn start(&self, seats: usize, options: &Options) -> Result<TownState, String> {
        Ok(TownState::new(Town::rules(seats, options)?, seats))
    }
}

/// What a seat sees: the whole match (Little Town hides nothing, rule 20).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TownView {
    /// The seat seeing it.
    pub seat: usize,
    pub board: &'static str,
    pub width: u16,
    pub height: u16,
    /// Each position, row by row from `(0, 0)`.
    pub cells: Vec<Cell>,
    /// Whose worker stands on each position.
    pub workers: Vec<Option<usize>>,
    /// Buildings left to build, by kind.
    pub supply: Vec<(Kind, u32)>,
    pub players: Vec<Player>,
    /// 1 to `rounds`; 0 during the setup.
    pub round: u8,
    pub rounds: u8,
    pub first: Option<usize>,
    pub to_play: Option<usize>,
    /// The mines' spread (rule 7).
    pub spread: u64,
    /// The match's fixed terms a player plans with (rules 9 and 14).
    pub workers_each: u8,
    pub max_buildings: u8,
    pub upkeep: u32,
    pub food_price: u32,
}

impl game::State for TownState {
    type Action = Action;
    type Observation = TownView;

    fn acting(&self) -> Acting {
        TownState::acting(self)
    }

    fn chance(&mut self, drawn: &Drawn) -> Result<(), String> {
        TownState::chance(self, drawn)
    }

    fn legal(&self, seat: usize) -> Vec<Action> {
        TownState::legal(self, seat)
    }

    fn act(&mut self, seat: usize, action: &Action) -> Result<String, Illegal> {
        TownState::act(self, seat, action)
    }

    fn retire(&mut self, seat: usize) {
        TownState::retire(self, seat)
    }

    fn observe(&self, seat: usize) -> TownView {
        let rules = self.rules();
        let grid = &rules.grid;
        let positions = (0..grid.height()).flat_map(|y| (0..grid.width()).map(move |x| (x, y)));
        TownView {
            seat,
            board: Shape::NAMES[grid.shape() as usize],
            width: grid.width(),
            height: grid.height(),
            cells: positions.clone().filter_map(|at| self.cell(at)).collect(),
            workers: positions.map(|at| self.worker(at)).collect(),
            supply: Kind::in_play(rules.powers)
                .iter()
                .map(|&k| (k, self.left(k)))
                .collect(),
            players: self.players().to_vec(),
            round: self.round(),
            rounds: rules.rounds,
            first: self.first(),
            to_play: self.to_play(),
            spread: self.spread(),
            workers_each: rules.workers,
            max_buildings: rules.max_buildings,
            upkeep: rules.upkeep,
            food_price: rules.food_price,
        }
    }

    fn ranking(&self) -> Option<Ranking> {
        TownState::ranking(self)
    }

    fn digest(&self) -> u64 {
        TownState::digest(self)
    }
}
