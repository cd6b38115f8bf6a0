//! The `random` bot: in each callback it lists the legal actions first, then picks one
//! uniformly (seeded, so a game replays identically). It never tries an action at random
//! to see whether it works.

use super::area::Local;
use super::Champion;
use crate::api::Api;
use crate::constants::*;

/// How many actions `jouer` takes at most.
const MOVES: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    Stop,
    Road(i32, i32),
    House(i32, i32),
}

/// Plays legal moves uniformly at random, from a `u64` seed.
pub struct Random {
    rng: draw::Stream,
}

impl Random {
    /// A random bot whose choices are drawn from `seed`.
    pub fn new(seed: u64) -> Random {
        Random {
            rng: draw::Stream::new(seed),
        }
    }

    /// Stop, or a road or house that `route_possible` / `construction_possible` accept and
    /// that we can pay for.
    fn legal_moves(api: &mut dyn Api) -> Vec<Move> {
        let local = Local::read(api, 2);
        let money = api.finances(0);
        let mut moves = vec![Move::Stop];
        if api.cout_achat_route() <= money {
            for (x, y) in local.road_candidates() {
                if api.route_possible(x, y) == SUCCES {
                    moves.push(Move::Road(x, y));
                }
            }
        }
        let house = api.cout_achat_maison();
        if house != INFINI && house <= money {
            let sites = local.construction_sites(api);
            moves.extend(sites.into_iter().map(|(x, y)| Move::House(x, y)));
        }
        moves
    }
}

impl Champion for Random {
    fn jouer(&mut self, api: &mut dyn Api) {
        for _ in 0..MOVES {
            let moves = Random::legal_moves(api);
            match *self.rng.choose(&moves).expect("stop is always legal") {
                Move::Stop => break,
                Move::Road(x, y) => api.construire_route(x, y),
                Move::House(x, y) => api.construire_maison(x, y),
            };
        }
    }

    fn enchere(&mut self, api: &mut dyn Api) {
        let money = api.finances(0).max(0);
        api.encherir(self.rng.below_u32(money as u32 + 1) as i32);
    }

    fn placement(&mut self, api: &mut dyn Api) {
        let cells = Local::read(api, 2).construction_sites(api);
        if let Some(&(x, y)) = self.rng.choose(&cells) {
            api.construire_monument(x, y);
        }
    }
}
