//! The 2009 API seen from one player (rules 3, 15-25, section 6): information functions
//! and actions, each returning the first failing check in the order of docs/rules.md
//! section 6 (`referee/tests/rules_doc.rs` reads this file to check the doc against it).

use crate::board::{Board, Cell, Kind, Pos};
use crate::constants::*;
use crate::game::Game;
use crate::monument::monument;
use crate::player::Seat;
use crate::state::State;

/// The 2009 API, exactly as named there (docs/rules.md section 6), so that champions (the
/// built-in bots, the Rust kit) are written once against it and run in-process or over the
/// protocol.
/// Every id is relative to the caller (rule 3); every result is the API's `int`.
pub trait Api {
    fn type_case(&mut self, x: i32, y: i32) -> i32;
    fn valeur_case(&mut self, x: i32, y: i32) -> i32;
    fn appartenance(&mut self, x: i32, y: i32) -> i32;
    fn type_monument(&mut self, x: i32, y: i32) -> i32;
    fn portee_monument(&mut self, num_monument: i32) -> i32;
    fn prestige_monument(&mut self, num_monument: i32) -> i32;
    fn numero_tour(&mut self) -> i32;
    fn commence(&mut self) -> i32;
    fn montant_encheres(&mut self, num_joueur: i32) -> i32;
    fn vainqueur_encheres(&mut self) -> i32;
    fn score(&mut self, num_joueur: i32) -> i32;
    fn finances(&mut self, num_joueur: i32) -> i32;
    fn monument_en_cours(&mut self) -> i32;
    fn distance(&mut self, x1: i32, y1: i32, x2: i32, y2: i32) -> i32;
    fn route_possible(&mut self, x: i32, y: i32) -> i32;
    fn construction_possible(&mut self, x: i32, y: i32) -> i32;
    fn cout_achat_maison(&mut self) -> i32;
    fn cout_achat_route(&mut self) -> i32;
    /// 1 when it is your turn (rule 16), else 0.
    fn mon_tour(&mut self) -> i32;
    fn construire_route(&mut self, x: i32, y: i32) -> i32;
    fn construire_maison(&mut self, x: i32, y: i32) -> i32;
    fn reserver_case(&mut self, x: i32, y: i32) -> i32;
    fn detruire_maison(&mut self, x: i32, y: i32) -> i32;
    fn vendre_maison(&mut self, x: i32, y: i32) -> i32;
    fn encherir(&mut self, montant: i32) -> i32;
    fn construire_monument(&mut self, x: i32, y: i32) -> i32;
}

/// The failure of an API call, one variant per error code of the API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiError {
    PasDeMaison,
    PasDeMonument,
    FinancesDepassees,
    Blocage,
    JoueurIncorrect,
    NonConnexe,
    CaseOccupee,
    ActionInterdite,
    HorsTerrain,
}

impl ApiError {
    /// Every error of the API, each a code a refused action is answered with.
    pub const ALL: [ApiError; 9] = [
        ApiError::PasDeMaison,
        ApiError::PasDeMonument,
        ApiError::FinancesDepassees,
        ApiError::Blocage,
        ApiError::JoueurIncorrect,
        ApiError::NonConnexe,
        ApiError::CaseOccupee,
        ApiError::ActionInterdite,
        ApiError::HorsTerrain,
    ];

    /// The API's code (docs/rules.md section 6.1).
    pub fn code(self) -> i32 {
        match self {
            ApiError::PasDeMaison => PAS_DE_MAISON,
            ApiError::PasDeMonument => PAS_DE_MONUMENT,
            ApiError::FinancesDepassees => FINANCES_DEPASSEES,
            ApiError::Blocage => BLOCAGE,
            ApiError::JoueurIncorrect => JOUEUR_INCORRECT,
            ApiError::NonConnexe => NON_CONNEXE,
            ApiError::CaseOccupee => CASE_OCCUPEE,
            ApiError::ActionInterdite => ACTION_INTERDITE,
            ApiError::HorsTerrain => HORS_TERRAIN,
        }
    }
}

type Checked<T> = Result<T, ApiError>;

fn code(result: Checked<i32>) -> i32 {
    result.unwrap_or_else(ApiError::code)
}

fn done(result: Checked<()>) -> i32 {
    code(result.map(|()| SUCCES))
}

fn pos(x: i32, y: i32) -> Checked<Pos> {
    Pos::new(x, y).ok_or(ApiError::HorsTerrain)
}

fn require(condition: bool, error: ApiError) -> Checked<()> {
    if condition {
        Ok(())
    } else {
        Err(error)
    }
}

/// How a [`Player`] holds its game: to play (questions and actions), or to look only.
enum Access<'a> {
    Play(&'a mut Game),
    Look(&'a Game),
}

/// One seat's handle on a [`Game`] during the current stage: the [`Api`] as that seat sees it.
pub struct Player<'a> {
    game: Access<'a>,
    me: Seat,
}

impl<'a> Player<'a> {
    pub(crate) fn new(game: &'a mut Game, me: Seat) -> Player<'a> {
        Player {
            game: Access::Play(game),
            me,
        }
    }

    /// A handle that answers questions only: every action is refused with
    /// `ACTION_INTERDITE`, as out of the seat's turn, and nothing changes.
    pub(crate) fn look(game: &'a Game, me: Seat) -> Player<'a> {
        Player {
            game: Access::Look(game),
            me,
        }
    }

    fn game(&self) -> &Game {
        match &self.game {
            Access::Play(game) => game,
            Access::Look(game) => game,
        }
    }

    /// The game to change; only an action that passed `is_turn` reaches it, and a look's
    /// `is_turn` is false.
    fn game_mut(&mut self) -> &mut Game {
        match &mut self.game {
            Access::Play(game) => game,
            Access::Look(_) => unreachable!("a look takes no action: its is_turn is false"),
        }
    }

    /// The seat this handle plays for.
    pub fn seat(&self) -> Seat {
        self.me
    }

    /// The state this player sees (its private view during Phase II).
    pub fn view(&self) -> &State {
        self.game().view(self.me)
    }

    fn view_mut(&mut self) -> &mut State {
        let me = self.me;
        self.game_mut().view_mut(me)
    }

    fn seat_of(&self, relative: i32) -> Checked<Seat> {
        Seat::from_relative(self.me, relative).ok_or(ApiError::JoueurIncorrect)
    }

    fn relative(&self, seat: Seat) -> i32 {
        seat.relative_to(self.me)
    }

    /// Whether this handle may act now: its seat's turn (rule 16), and not a look.
    fn is_turn(&self) -> bool {
        matches!(self.game, Access::Play(_)) && self.view().is_turn_of(self.me)
    }

    /// Whether an action allowed in `phases` may be taken now (rule 16, section 6).
    fn may_act(&self, phases: &[u8]) -> Checked<()> {
        require(
            self.is_turn() && phases.contains(&self.view().stage.phase()),
            ApiError::ActionInterdite,
        )
    }

    fn check_road(&self, x: i32, y: i32) -> Checked<Pos> {
        check_road_on(&self.view().board, self.me, x, y)
    }

    /// `construction_possible`'s checks after `HORS_TERRAIN`.
    #[inline(always)] // one call a cell of a whole-map scan, not two
    fn check_building(&self, p: Pos) -> Checked<()> {
        check_building_on(&self.view().board, self.me, p)
    }

    fn pay(&mut self, price: i32) -> Checked<()> {
        let me = self.me.index();
        require(price <= self.view().money[me], ApiError::FinancesDepassees)?;
        self.view_mut().money[me] -= price;
        Ok(())
    }

    /// The price of reserving a cell or destroying a house on it (rule 18).
    fn land_price(&self, p: Pos) -> i32 {
        self.view().board.value(p).max(1)
    }

    fn distance_checked(&self, x1: i32, y1: i32, x2: i32, y2: i32) -> Checked<i32> {
        distance_on(&self.view().board, self.me, x1, y1, x2, y2)
    }
}

/// Whether `me` may build on `cell`: empty, or its own reservation.
fn is_buildable(cell: Cell, me: Seat) -> bool {
    cell.kind == Kind::Vide || (cell.kind == Kind::Reservation && cell.owner == Some(me))
}

fn check_road_on(board: &Board, me: Seat, x: i32, y: i32) -> Checked<Pos> {
    let p = pos(x, y)?;
    require(is_buildable(board.cell(p), me), ApiError::CaseOccupee)?;
    require(board.touches_road(p, false), ApiError::NonConnexe)?;
    Ok(p)
}

#[inline] // a few instructions a cell on the path of every whole-map scan
fn check_building_on(board: &Board, me: Seat, p: Pos) -> Checked<()> {
    let cell = board.cell(p);
    require(is_buildable(cell, me), ApiError::CaseOccupee)?;
    require(
        cell.kind != Kind::Vide || !board.is_blocking(p),
        ApiError::Blocage,
    )?;
    require(board.touches_road(p, true), ApiError::NonConnexe)
}

fn distance_on(board: &Board, me: Seat, x1: i32, y1: i32, x2: i32, y2: i32) -> Checked<i32> {
    let from = pos(x1, y1)?;
    let to = pos(x2, y2)?;
    Ok(crate::distance::distance(board, me, from, to).unwrap_or(TROP_LOIN))
}

/// The board's rules (rules 19 to 21, section 6) as `me` asks them of `board`: the
/// referee's answers to `route_possible`, `construction_possible` and `distance`, and the
/// Rust kit's, computed from its cached `etat` without a round trip.
pub mod rules {
    use super::*;

    /// `route_possible(x, y)` as `me` asks it.
    pub fn route_possible_for(board: &Board, me: Seat, x: i32, y: i32) -> i32 {
        done(check_road_on(board, me, x, y).map(drop))
    }

    /// `construction_possible(x, y)` as `me` asks it.
    pub fn construction_possible_for(board: &Board, me: Seat, x: i32, y: i32) -> i32 {
        done(pos(x, y).and_then(|p| check_building_on(board, me, p)))
    }

    /// `distance(x1, y1, x2, y2)` as `me` asks it.
    pub fn distance_for(board: &Board, me: Seat, x1: i32, y1: i32, x2: i32, y2: i32) -> i32 {
        code(distance_on(board, me, x1, y1, x2, y2))
    }
}

impl Api for Player<'_> {
    fn type_case(&mut self, x: i32, y: i32) -> i32 {
        code(pos(x, y).map(|p| self.view().board.cell(p).kind as i32))
    }

    fn valeur_case(&mut self, x: i32, y: i32) -> i32 {
        code(pos(x, y).map(|p| self.view().board.value(p)))
    }

    fn appartenance(&mut self, x: i32, y: i32) -> i32 {
        code(pos(x, y).map(|p| match self.view().board.cell(p).owner {
            Some(owner) => self.relative(owner),
            None => MAIRIE,
        }))
    }

    fn type_monument(&mut self, x: i32, y: i32) -> i32 {
        code(pos(x, y).and_then(|p| {
            self.view()
                .board
                .cell(p)
                .monument
                .map(i32::from)
                .ok_or(ApiError::PasDeMonument)
        }))
    }

    fn portee_monument(&mut self, num_monument: i32) -> i32 {
        monument(num_monument).map_or(PAS_DE_MONUMENT, |m| m.range)
    }

    fn prestige_monument(&mut self, num_monument: i32) -> i32 {
        monument(num_monument).map_or(PAS_DE_MONUMENT, |m| m.prestige)
    }

    fn numero_tour(&mut self) -> i32 {
        i32::from(self.view().turn)
    }

    fn commence(&mut self) -> i32 {
        self.relative(self.view().commence())
    }

    fn montant_encheres(&mut self, num_joueur: i32) -> i32 {
        code(
            self.seat_of(num_joueur)
                .map(|s| self.view().last_bids[s.index()]),
        )
    }

    fn vainqueur_encheres(&mut self) -> i32 {
        self.view().last_winner.map_or(0, |s| self.relative(s))
    }

    fn score(&mut self, num_joueur: i32) -> i32 {
        code(self.seat_of(num_joueur).map(|s| self.view().score(s)))
    }

    fn finances(&mut self, num_joueur: i32) -> i32 {
        code(
            self.seat_of(num_joueur)
                .map(|s| self.view().money[s.index()]),
        )
    }

    fn monument_en_cours(&mut self) -> i32 {
        self.view()
            .current_monument
            .map_or(PAS_DE_MONUMENT, i32::from)
    }

    fn distance(&mut self, x1: i32, y1: i32, x2: i32, y2: i32) -> i32 {
        code(self.distance_checked(x1, y1, x2, y2))
    }

    fn route_possible(&mut self, x: i32, y: i32) -> i32 {
        done(self.check_road(x, y).map(drop))
    }

    fn construction_possible(&mut self, x: i32, y: i32) -> i32 {
        done(pos(x, y).and_then(|p| self.check_building(p)))
    }

    fn cout_achat_maison(&mut self) -> i32 {
        self.view().counters[self.me.index()].house_price()
    }

    fn cout_achat_route(&mut self) -> i32 {
        self.view().counters[self.me.index()].road_price()
    }

    fn mon_tour(&mut self) -> i32 {
        i32::from(self.view().is_turn_of(self.me))
    }

    fn construire_route(&mut self, x: i32, y: i32) -> i32 {
        done((|| {
            self.may_act(&[1, 3])?;
            let p = self.check_road(x, y)?;
            let price = self.cout_achat_route();
            self.pay(price)?;
            let me = self.me.index();
            let state = self.view_mut();
            state.counters[me].roads += 1;
            state.board.set(p, Cell::ROAD);
            Ok(())
        })())
    }

    fn construire_maison(&mut self, x: i32, y: i32) -> i32 {
        done((|| {
            self.may_act(&[1])?;
            let p = pos(x, y)?;
            self.check_building(p)?;
            let price = self.cout_achat_maison();
            require(price != INFINI, ApiError::ActionInterdite)?;
            self.pay(price)?;
            let me = self.me;
            let state = self.view_mut();
            state.counters[me.index()].houses += 1;
            state.board.set(
                p,
                Cell {
                    kind: Kind::Maison,
                    owner: Some(me),
                    monument: None,
                },
            );
            Ok(())
        })())
    }

    fn reserver_case(&mut self, x: i32, y: i32) -> i32 {
        done((|| {
            self.may_act(&[1])?;
            let p = pos(x, y)?;
            self.check_building(p)?;
            require(
                self.view().board.cell(p).kind == Kind::Vide,
                ApiError::CaseOccupee,
            )?;
            self.pay(self.land_price(p))?;
            let me = self.me;
            self.view_mut().board.set(
                p,
                Cell {
                    kind: Kind::Reservation,
                    owner: Some(me),
                    monument: None,
                },
            );
            Ok(())
        })())
    }

    fn detruire_maison(&mut self, x: i32, y: i32) -> i32 {
        done((|| {
            let p = pos(x, y)?;
            self.may_act(&[1, 3])?;
            require(
                self.view().board.cell(p).kind == Kind::Maison,
                ApiError::PasDeMaison,
            )?;
            self.pay(self.land_price(p))?;
            self.view_mut().board.set(p, Cell::EMPTY);
            Ok(())
        })())
    }

    fn vendre_maison(&mut self, x: i32, y: i32) -> i32 {
        done((|| {
            let p = pos(x, y)?;
            require(self.is_turn(), ApiError::ActionInterdite)?;
            let cell = self.view().board.cell(p);
            require(cell.kind == Kind::Maison, ApiError::PasDeMaison)?;
            require(cell.owner == Some(self.me), ApiError::ActionInterdite)?;
            let me = self.me.index();
            let state = self.view_mut();
            state.money[me] += state.board.worth(p);
            state.board.set(
                p,
                Cell {
                    owner: None,
                    ..cell
                },
            );
            let me = self.me;
            if let Some(private) = self.game_mut().private_mut(me) {
                private.sales.push(p);
            }
            Ok(())
        })())
    }

    fn encherir(&mut self, montant: i32) -> i32 {
        done((|| {
            self.may_act(&[2])?;
            require(montant >= 0, ApiError::ActionInterdite)?;
            require(
                montant <= self.view().money[self.me.index()],
                ApiError::FinancesDepassees,
            )?;
            let me = self.me;
            let private = self
                .game_mut()
                .private_mut(me)
                .ok_or(ApiError::ActionInterdite)?;
            require(private.bid.is_none(), ApiError::ActionInterdite)?;
            private.bid = Some(montant);
            Ok(())
        })())
    }

    fn construire_monument(&mut self, x: i32, y: i32) -> i32 {
        done((|| {
            let p = pos(x, y)?;
            self.may_act(&[3])?;
            require(!self.view().monument_placed, ApiError::ActionInterdite)?;
            let id = self
                .view()
                .current_monument
                .ok_or(ApiError::ActionInterdite)?;
            self.check_building(p)?;
            let state = self.view_mut();
            state.board.build_monument(p, id);
            state.monument_placed = true;
            Ok(())
        })())
    }
}
