//! The games the server plays (`game=`), each by the arena's model of it: Ticket to Ride,
//! the Amazons, Little Town and the 2009 game, whose matches are the ones
//! `referee --game X match` plays and whose records `referee --game X replay` reads.

use crate::endpoint::Endpoint;
use crate::games::model::ModelGame;
use crate::games::{amazons_play, loi_play, ticket_play, town_play, Game, Seats};
use crate::view::frame::LiveView;
use arena::GameRecord;
use std::path::Path;

/// A game the server plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Served {
    Ticket,
    Amazons,
    Town,
    Loi,
}

/// Every game served.
pub const ALL: [Served; 4] = [Served::Ticket, Served::Amazons, Served::Town, Served::Loi];

impl Served {
    /// The game of a `--game` name.
    pub fn by_name(name: &str) -> Option<Served> {
        ALL.into_iter().find(|g| g.runner().name() == name)
    }

    /// The game for the runner: its name, title, seats, options and built-in champions.
    pub fn runner(self) -> &'static dyn Game {
        match self {
            Served::Ticket => &ticket_play::TICKET,
            Served::Amazons => &amazons_play::AMAZONS,
            Served::Town => &town_play::TOWN,
            Served::Loi => &loi_play::LOI,
        }
    }

    /// Plays `seats` into `dir`, the seats of connected programs by `own(seat)`'s endpoint.
    pub fn play_match_with(
        self,
        seats: &Seats,
        dir: &Path,
        own: &dyn Fn(usize) -> Box<dyn Endpoint>,
    ) -> anyhow::Result<GameRecord> {
        fn play<P: crate::games::model::Parts>(
            game: &ModelGame<P>,
            seats: &Seats,
            dir: &Path,
            own: &dyn Fn(usize) -> Box<dyn Endpoint>,
        ) -> anyhow::Result<GameRecord> {
            game.play_match_with(seats, dir, own)
        }
        match self {
            Served::Ticket => play(&ticket_play::TICKET, seats, dir, own),
            Served::Amazons => play(&amazons_play::AMAZONS, seats, dir, own),
            Served::Town => play(&town_play::TOWN, seats, dir, own),
            Served::Loi => play(&loi_play::LOI, seats, dir, own),
        }
    }

    /// The replay page of the record in `dir` without the champions' stderr, for anyone
    /// (the web site): a connected program's seat has none, and the note saying so would
    /// name the server's folders.
    pub fn public_page(self, dir: &Path) -> anyhow::Result<String> {
        fn page<P: crate::games::model::Parts>(
            game: &ModelGame<P>,
            dir: &Path,
        ) -> anyhow::Result<String> {
            let record = game.load(&dir.join("record.json"))?;
            crate::games::model::Commands::page(game, &record, None)
        }
        match self {
            Served::Ticket => page(&ticket_play::TICKET, dir),
            Served::Amazons => page(&amazons_play::AMAZONS, dir),
            Served::Town => page(&town_play::TOWN, dir),
            Served::Loi => page(&loi_play::LOI, dir),
        }
    }
}

impl Served {
    /// A game still being played (`record`: its record so far) as the site asks (`view`):
    /// its board, growing, by the replay page's drawing, with nothing a seat must not
    /// see before the end.
    pub fn live(self, record: &GameRecord, view: LiveView) -> anyhow::Result<String> {
        fn live<P: crate::games::model::Parts>(
            game: &ModelGame<P>,
            record: &GameRecord,
            view: LiveView,
        ) -> anyhow::Result<String> {
            game.live(record, view)
        }
        match self {
            Served::Ticket => live(&ticket_play::TICKET, record, view),
            Served::Amazons => live(&amazons_play::AMAZONS, record, view),
            Served::Town => live(&town_play::TOWN, record, view),
            Served::Loi => live(&loi_play::LOI, record, view),
        }
    }
}

/// The names of the games served, for messages.
pub fn names() -> String {
    let names: Vec<&str> = ALL.iter().map(|g| g.runner().name()).collect();
    names.join(", ")
}
