//! Built-in opponents written against the public [`Api`] only, so that they run unchanged
//! in-process (on an engine [`Player`](crate::Player)) and over the protocol (on the Rust
//! kit's client): `random` and `greedy`, found by name with [`by_name`].

mod area;
pub mod greedy;
pub mod random;

use crate::api::Api;
use crate::game::Game;
use crate::setup::Setup;
use crate::turn::{Callback, Stage};

pub use greedy::Greedy;
pub use random::Random;

/// A champion: the five callbacks (rule 27), each given the API as the
/// champion's seat sees it. A callback left out does nothing.
///
/// ```
/// use engine::bots::Champion;
/// use engine::Api;
/// struct Builder;
/// impl Champion for Builder {
///     fn jouer(&mut self, api: &mut dyn Api) {
///         api.construire_route(50, 51);
///     }
/// }
/// ```
pub trait Champion {
    /// Once, before turn 1; actions are refused.
    fn init_game(&mut self, _api: &mut dyn Api) {}
    /// The champion's Phase I slot.
    fn jouer(&mut self, _api: &mut dyn Api) {}
    /// Every Phase II: bid, maybe sell.
    fn enchere(&mut self, _api: &mut dyn Api) {}
    /// Phase III, to the auction winner only: place the monument.
    fn placement(&mut self, _api: &mut dyn Api) {}
    /// Once, after the last Phase I; actions are refused.
    fn end_game(&mut self, _api: &mut dyn Api) {}

    /// Run the callback `callback`.
    fn play(&mut self, callback: Callback, api: &mut dyn Api) {
        match callback {
            Callback::InitGame => self.init_game(api),
            Callback::Jouer => self.jouer(api),
            Callback::Enchere => self.enchere(api),
            Callback::Placement => self.placement(api),
            Callback::EndGame => self.end_game(api),
        }
    }
}

impl<C: Champion + ?Sized> Champion for Box<C> {
    fn init_game(&mut self, api: &mut dyn Api) {
        (**self).init_game(api)
    }
    fn jouer(&mut self, api: &mut dyn Api) {
        (**self).jouer(api)
    }
    fn enchere(&mut self, api: &mut dyn Api) {
        (**self).enchere(api)
    }
    fn placement(&mut self, api: &mut dyn Api) {
        (**self).placement(api)
    }
    fn end_game(&mut self, api: &mut dyn Api) {
        (**self).end_game(api)
    }
    fn play(&mut self, callback: Callback, api: &mut dyn Api) {
        (**self).play(callback, api)
    }
}

/// The names [`by_name`] knows.
pub const NAMES: [&str; 2] = ["random", "greedy"];

/// The built-in champion called `name`, seeded with `seed` (the greedy one ignores it).
///
/// ```
/// assert!(engine::bots::by_name("greedy", 1).is_some());
/// assert!(engine::bots::by_name("clever", 1).is_none());
/// ```
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Champion + Send>> {
    match name {
        "random" => Some(Box::new(Random::new(seed))),
        "greedy" => Some(Box::new(Greedy::new())),
        _ => None,
    }
}

/// Play the current stage of `game`: every seat due plays its callback with
/// `champions[seat]`, then the game advances. In-process, no time limit.
pub fn play_stage(game: &mut Game, champions: &mut [&mut dyn Champion; 3]) {
    let Some(callback) = game.callback() else {
        return;
    };
    for seat in game.seats_to_play() {
        champions[seat.index()].play(callback, &mut game.player(seat));
    }
    game.advance();
}

/// Play a whole game from `setup` with `champions` (indexed by absolute seat).
///
/// ```
/// use engine::bots::{play_game, Greedy, Random};
/// use engine::Setup;
/// let (mut a, mut b, mut c) = (Greedy::new(), Random::new(1), Random::new(2));
/// let game = play_game(Setup::from_seed(3), &mut [&mut a, &mut b, &mut c]);
/// assert_eq!(game.outcome().points.iter().sum::<u32>() <= 4, true);
/// ```
pub fn play_game(setup: Setup, champions: &mut [&mut dyn Champion; 3]) -> Game {
    let mut game = Game::new(setup);
    while game.stage() != Stage::Over {
        play_stage(&mut game, champions);
    }
    game
}
