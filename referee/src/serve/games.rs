//! The games the server plays (`game=`): the registry's ([`crate::games::SERVED`]), each by
//! the arena's model of it, whose matches are the ones `referee --game X match` plays and
//! whose records `referee --game X replay` reads. A game is served by being registered
//! there: nothing here names one but Ticket to Ride, the subject's game, whose board is the
//! one option a client chooses.

use crate::endpoint::Endpoint;
use crate::games::model::Commands;
use crate::games::{Game, Seats};
use crate::view::frame::LiveView;
use arena::GameRecord;
use std::path::Path;

/// A game the server plays: one of the registry's.
#[derive(Clone, Copy)]
pub struct Served(&'static dyn Commands);

/// Every game served, in the registry's order.
pub static ALL: [Served; crate::games::SERVED.len()] = {
    let served = &crate::games::SERVED;
    let mut all = [Served(served[0]); crate::games::SERVED.len()];
    let mut i = 1;
    while i < all.len() {
        all[i] = Served(served[i]);
        i += 1;
    }
    all
};

impl PartialEq for Served {
    fn eq(&self, other: &Served) -> bool {
        self.runner().name() == other.runner().name()
    }
}

impl Eq for Served {}

impl std::fmt::Debug for Served {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.runner().name())
    }
}

impl Served {
    /// Ticket to Ride, the subject's game: its board is the one option a client chooses,
    /// and its seats speak the subject's lines.
    pub const TICKET: Served = Served(&crate::games::TICKET);

    /// The game of a `--game` name.
    pub fn by_name(name: &str) -> Option<Served> {
        ALL.into_iter().find(|g| g.runner().name() == name)
    }

    /// The game for the runner: its name, title, seats, options and built-in champions.
    pub fn runner(self) -> &'static dyn Game {
        self.0.runner()
    }

    /// Plays `seats` into `dir`, the seats of connected programs by `own(seat)`'s endpoint.
    pub fn play_match_with(
        self,
        seats: &Seats,
        dir: &Path,
        own: &dyn Fn(usize) -> Box<dyn Endpoint>,
    ) -> anyhow::Result<GameRecord> {
        self.0.play_match_with(seats, dir, own)
    }

    /// The replay page of the record in `dir` without the champions' stderr, for anyone
    /// (the web site): a connected program's seat has none, and the note saying so would
    /// name the server's folders.
    pub fn public_page(self, dir: &Path) -> anyhow::Result<String> {
        let record = self.0.load(&dir.join("record.json"))?;
        self.0.page(&record, None)
    }

    /// A game still being played (`record`: its record so far) as the site asks (`view`):
    /// its board, growing, by the replay page's drawing, with nothing a seat must not
    /// see before the end.
    pub fn live(self, record: &GameRecord, view: LiveView) -> anyhow::Result<String> {
        self.0.live(record, view)
    }
}

/// The names of the games served, for messages.
pub fn names() -> String {
    let names: Vec<&str> = ALL.iter().map(|g| g.runner().name()).collect();
    names.join(", ")
}
