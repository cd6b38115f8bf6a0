//! A new tournament as the organiser asks it, by `referee serve tournament new` or by the
//! web site's form: every value checked once, here, each refusal naming the value to fix
//! (the command names it as its flag, the form as its field), then created `open` in the
//! store.

use super::games::Served;
use super::request::{self, MAX_TIMEOUT};
use super::store::Store;
use super::tournament_plan::{Format, Plan};

/// What the organiser asks.
pub struct NewTournament<'a> {
    pub name: &'a str,
    /// The game's name (`ticket-to-ride`, `amazons`, `little-town`, `loi`).
    pub game: &'a str,
    pub format: &'a str,
    pub seats: usize,
    pub rounds: u32,
    pub pool: usize,
    pub qualify: usize,
    /// `None`: half a game's seats, at least one.
    pub advance: Option<usize>,
    /// Games of a knockout meeting at most.
    pub best_of: u32,
    /// `USA` or `small`, in any case.
    pub map: &'a str,
    pub timeout: u32,
    pub max_players: usize,
}

/// Why a tournament is not created: a value to fix (its name: `name`, `game`, `format`,
/// `seats`, `rounds`, `pool`, `qualify`, `advance`, `best-of`, `map`, `timeout`,
/// `max-players`), or the store.
#[derive(Debug)]
pub enum Refused {
    Value(&'static str, String),
    Store(anyhow::Error),
}

impl NewTournament<'_> {
    /// Checks every value and creates the tournament, `open`; its plan.
    pub fn create(&self, store: &Store) -> Result<Plan, Refused> {
        let (plan, map) = self.check()?;
        store
            .create_tournament(
                self.name,
                self.game,
                &plan,
                map,
                self.timeout,
                self.max_players,
            )
            .map_err(Refused::Store)?;
        Ok(plan)
    }

    /// Checks every value: the plan and the board's name.
    pub fn check(&self) -> Result<(Plan, &'static str), Refused> {
        let value = |field: &'static str, why: String| Refused::Value(field, why);
        request::client_name(&format!("CLIENT_NAME {}", self.name))
            .map_err(|why| value("name", why.replace("The name", "the name")))?;
        let game = Served::by_name(self.game).ok_or_else(|| {
            value(
                "game",
                format!("{:?}: give one of {}", self.game, super::games::names()),
            )
        })?;
        let plan = Plan {
            format: Format::parse(self.format).map_err(|e| value("format", e))?,
            seats: self.seats,
            rounds: self.rounds,
            pool: self.pool,
            qualify: self.qualify,
            advance: self.advance.unwrap_or(Plan::default_advance(self.seats)),
            best_of: self.best_of,
        };
        plan.check(game.runner().seat_range())
            .map_err(|(field, what)| value(field, what))?;
        let max = self.max_players;
        if !(2..=1000).contains(&max) {
            return Err(value("max-players", format!("{max}: give 2 to 1000")));
        }
        plan.check_size(max).map_err(|why| {
            value(
                "max-players",
                format!(
                    "{max}: {why}: give fewer players, seats or rounds, or pools (the format \
                     pools-knockout)"
                ),
            )
        })?;
        let map = match self.map.to_ascii_lowercase().as_str() {
            "usa" => "usa",
            "small" => "small",
            _ => return Err(value("map", format!("{:?}: give USA or small", self.map))),
        };
        if !(1..=MAX_TIMEOUT).contains(&self.timeout) {
            return Err(value(
                "timeout",
                format!("{}: seconds from 1 to {MAX_TIMEOUT}", self.timeout),
            ));
        }
        Ok((plan, map))
    }
}
