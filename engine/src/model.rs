//! The 2009 game on the game model ([`game::Game`]): three seats; its options (the
//! monuments' order, the first player); its setup drawn by chance from the match's seed
//! ([`game::Chance::Seed`]: every seed plays the setup it always played); each callback a
//! turn of the seats it goes to, whose actions are the API's action functions and `fin`,
//! the end of the seat's callback; questions stay outside (answered through
//! [`LoiState::look`]); the ranking by final score; the digest the engine's.

use crate::api::Player;
use crate::call::{Call, Function};
use crate::constants::{ACTION_INTERDITE, INFINI, SUCCES};
use crate::game::Game as Engine;
use crate::player::Seat;
use crate::setup::Setup;
use crate::state::State;
use crate::turn::{Callback, Stage};
use crate::{Api, Kind, Pos};
use game::options::Kind as OptionKind;
use game::{Acting, Chance, Drawn, Illegal, OptionSpec, Options, Ranking};
use std::fmt;
use std::str::FromStr;

/// "La loi du plus riche" (Prologin 2009 final), for the runner.
pub struct Loi;

/// The options: where each is `drawn`, the match's seed draws it (first the first player,
/// then the order, as `Setup::from_seed`), as without options.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "first-player",
        help: "the seat that opens Phase I of turn 1 (rule 11): 0, 1 or 2, or `drawn` from \
               the match's seed",
        default: "drawn",
        kind: OptionKind::Choice(&["drawn", "0", "1", "2"]),
    },
    OptionSpec {
        name: "monuments",
        help: "the order the monuments are drawn in (rule 14): the ids 0 to 13, each once, \
               joined by `-` (the 2009 reference order is 0-1-2-3-4-5-6-7-8-9-10-11-12-13), \
               or `drawn` from the match's seed",
        default: "drawn",
        kind: OptionKind::Text,
    },
];

/// The monument order of option `monuments` (`None`: drawn), or what is wrong with it.
fn monuments(value: &str) -> Result<Option<[u8; 14]>, String> {
    if value == "drawn" {
        return Ok(None);
    }
    let ids = value
        .split('-')
        .map(|id| id.parse::<u8>())
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|_| {
            format!(
                "option `monuments` takes the ids 0 to 13 joined by `-` or `drawn`, not `{value}`"
            )
        })?;
    Setup::check_order(&ids)
        .map(Some)
        .map_err(|e| format!("option `monuments`: {e}"))
}

impl game::Game for Loi {
    type State = LoiState;

    fn name(&self) -> &'static str {
        "loi"
    }

    fn title(&self) -> &'static str {
        "La loi du plus riche"
    }

    fn version(&self) -> u32 {
        1
    }

    /// Three: "There are three players" (docs/rules.md, rule 3); the rules allow no other
    /// count.
    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        3..=3
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    fn start(&self, seats: usize, options: &Options) -> Result<LoiState, String> {
        if seats != 3 {
            return Err(format!(
                "La loi du plus riche is played by 3 seats, not {seats}"
            ));
        }
        let options = options.completed(OPTIONS)?;
        let first = match options.get("first-player") {
            "drawn" => None,
            seat => Some(Seat(seat.parse().map_err(|_| "option `first-player`")?)),
        };
        Ok(LoiState {
            monuments: monuments(options.get("monuments"))?,
            first,
            game: None,
            out: [false; 3],
            done: [false; 3],
        })
    }
}

/// What a seat does: an action function of the API (docs/rules.md section 6.4), or `fin`,
/// the end of its callback. Written as the protocol writes them (`construire_route 50 51`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// One of the seven action functions.
    Call(Call),
    /// The seat's callback is over.
    Fin,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Call(call) => call.fmt(f),
            Action::Fin => f.write_str("fin"),
        }
    }
}

impl FromStr for Action {
    type Err = String;

    /// `fin`, or a call of an action function.
    ///
    /// ```
    /// use engine::model::Action;
    /// let a: Action = "construire_route 50 51".parse().unwrap();
    /// assert_eq!(a.to_string(), "construire_route 50 51");
    /// assert_eq!("fin".parse::<Action>(), Ok(Action::Fin));
    /// assert!("score 0".parse::<Action>().unwrap_err().contains("question"));
    /// ```
    fn from_str(text: &str) -> Result<Action, String> {
        if text == "fin" {
            return Ok(Action::Fin);
        }
        let call: Call = text.parse().map_err(|e| format!("{e}"))?;
        match call.function.is_action() {
            true => Ok(Action::Call(call)),
            false => Err(format!(
                "`{}` is a question, not an action",
                call.function.name()
            )),
        }
    }
}

/// One match: the options' setup until chance draws the seed, then the engine's game; the
/// seats out of the match, and those whose callback of the current stage is over.
#[derive(Clone, Debug)]
pub struct LoiState {
    monuments: Option<[u8; 14]>,
    first: Option<Seat>,
    game: Option<Engine>,
    out: [bool; 3],
    done: [bool; 3],
}

/// What a seat sees: its seat and the state as it sees it (during Phase II its own view:
/// the others' sales and bids are hidden until the auction is resolved, rule 12); `None`
/// before the setup is drawn. Seats are absolute here; the API shows them relative (rule 3).
#[derive(Clone, Debug, serde::Serialize)]
pub struct LoiView {
    pub seat: u8,
    pub state: Option<State>,
}

impl LoiState {
    /// The engine's game, once the setup is drawn.
    pub fn game(&self) -> Option<&Engine> {
        self.game.as_ref()
    }

    /// The callback of the current stage, `None` before the setup and at the end.
    pub fn callback(&self) -> Option<Callback> {
        self.game.as_ref().and_then(Engine::callback)
    }

    /// The API of `seat` for questions (every action refused): what a champion's question
    /// is answered from.
    pub fn look(&self, seat: usize) -> Option<Player<'_>> {
        Some(self.game.as_ref()?.look(Seat(seat as u8)))
    }

    /// The seats the current stage still waits for.
    fn waiting(&self) -> Vec<usize> {
        let Some(game) = &self.game else {
            return Vec::new();
        };
        game.seats_to_play()
            .into_iter()
            .map(Seat::index)
            .filter(|&s| !self.out[s] && !self.done[s])
            .collect()
    }

    /// Ends every stage no seat still plays (a seat out of the match plays nothing, as a
    /// champion stopped by a fault, rule 28).
    fn settle(&mut self) {
        while self.waiting().is_empty() {
            let Some(game) = self.game.as_mut() else {
                return;
            };
            if game.stage() == Stage::Over {
                return;
            }
            game.advance();
            self.done = [false; 3];
        }
    }

    /// Some of the actions `seat` may take now (see [`game::State::legal`]).
    fn sample(&self, seat: usize) -> Vec<Action> {
        let mut actions = vec![Action::Fin];
        let (Some(game), Some(callback)) = (&self.game, self.callback()) else {
            return actions;
        };
        let me = Seat(seat as u8);
        let mut look = game.look(me);
        let view = look.view().clone();
        let money = view.money[me.index()];
        let call = |f: Function, args: &[i32]| Action::Call(Call::new(f, args).expect("arity"));
        if !view.is_turn_of(me) {
            return actions;
        }
        for i in 0..crate::board::CELLS {
            let p = Pos::from_index(i);
            let (x, y) = (i32::from(p.x), i32::from(p.y));
            let cell = view.board.cell(p);
            if cell.kind == Kind::Maison && cell.owner == Some(me) {
                actions.push(call(Function::VendreMaison, &[x, y]));
            }
            match callback {
                Callback::Jouer => {
                    if look.route_possible(x, y) == SUCCES && look.cout_achat_route() <= money {
                        actions.push(call(Function::ConstruireRoute, &[x, y]));
                    }
                    let price = look.cout_achat_maison();
                    if price != INFINI
                        && price <= money
                        && look.construction_possible(x, y) == SUCCES
                    {
                        actions.push(call(Function::ConstruireMaison, &[x, y]));
                    }
                }
                Callback::Placement
                    if !view.monument_placed
                        && view.current_monument.is_some()
                        && look.construction_possible(x, y) == SUCCES =>
                {
                    actions.push(call(Function::ConstruireMonument, &[x, y]));
                }
                _ => {}
            }
        }
        let bid = game.auction.as_ref().map(|p| p[me.index()].bid);
        if callback == Callback::Enchere && bid == Some(None) {
            actions.push(call(Function::Encherir, &[0]));
            actions.push(call(Function::Encherir, &[money]));
        }
        actions
    }
}

impl game::State for LoiState {
    type Action = Action;
    type Observation = LoiView;

    /// Chance until the setup is drawn; then the seats of the current callback that have
    /// not ended it (every seat for `init_game`, `enchere` and `end_game`, in the engine's
    /// order; one seat otherwise), seats out of the match left out.
    fn acting(&self) -> Acting {
        match &self.game {
            None => Acting::Chance(Chance::Seed),
            Some(game) if game.stage() == Stage::Over => Acting::Over,
            Some(_) => Acting::Seats(self.waiting()),
        }
    }

    /// The seed: the setup it draws (`Setup::from_seed`), with the options' overrides.
    fn chance(&mut self, drawn: &Drawn) -> Result<(), String> {
        let (None, Drawn::Number(seed)) = (&self.game, drawn) else {
            return Err(format!(
                "the 2009 game draws only its seed, once: {drawn:?}"
            ));
        };
        let drawn = Setup::from_seed(*seed);
        self.game = Some(Engine::new(Setup::with_order(
            self.monuments.unwrap_or(drawn.monument_order),
            self.first.unwrap_or(drawn.first_player),
        )));
        self.settle();
        Ok(())
    }

    /// `fin` first, then the actions the rules take now among: selling each of the seat's
    /// houses, a road and a house on each cell where it can afford one (Phase I), the
    /// monument on each cell where it may stand (Phase III), a bid of nothing and of all
    /// its money (Phase II, the bids between are taken too but not listed); cells in
    /// order. Reservations and destructions are legal but not listed.
    fn legal(&self, seat: usize) -> Vec<Action> {
        match self.waiting().contains(&seat) {
            true => self.sample(seat),
            false => Vec::new(),
        }
    }

    /// The action's answer: `0` (`SUCCES`); refused, the API's error code (`-9`); `fin`
    /// is answered nothing (the empty text).
    fn act(&mut self, seat: usize, action: &Action) -> Result<String, Illegal> {
        if !self.waiting().contains(&seat) {
            return Err(Illegal(ACTION_INTERDITE.to_string()));
        }
        let game = self.game.as_mut().expect("a seat waited for has a game");
        match action {
            Action::Fin => {
                self.done[seat] = true;
                self.settle();
                Ok(String::new())
            }
            Action::Call(call) => match call.apply(&mut game.player(Seat(seat as u8))) {
                SUCCES => Ok(SUCCES.to_string()),
                code => Err(Illegal(code.to_string())),
            },
        }
    }

    /// The seat plays nothing more: its callbacks are skipped, what it built and bid
    /// stays, and it is ranked by its final score as any seat (as a champion stopped by a
    /// fault, rule 28).
    fn retire(&mut self, seat: usize) {
        self.out[seat] = true;
        self.settle();
    }

    fn observe(&self, seat: usize) -> LoiView {
        LoiView {
            seat: seat as u8,
            state: self
                .game
                .as_ref()
                .map(|g| g.look(Seat(seat as u8)).view().clone()),
        }
    }

    /// The final scores (rule 9), the highest first, equal scores tied (rule 26).
    fn ranking(&self) -> Option<Ranking> {
        let game = self.game.as_ref().filter(|g| g.stage() == Stage::Over)?;
        let scores = game.outcome().final_scores.map(i64::from).to_vec();
        Some(Ranking::by_scores(scores))
    }

    /// The engine's digest ([`Engine::digest`], the one its records keep); before the
    /// setup, the FNV-1a of the options' setup.
    fn digest(&self) -> u64 {
        match &self.game {
            Some(game) => game.digest(),
            None => {
                let mut bytes = self.monuments.map_or(vec![255], |m| m.to_vec());
                bytes.push(self.first.map_or(255, |s| s.0));
                game::fnv1a(&bytes)
            }
        }
    }
}
