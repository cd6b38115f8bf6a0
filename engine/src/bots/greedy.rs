//! The `greedy` bot: a deterministic heuristic player.
//!
//! - `jouer`: takes its free house and road each turn (and a second house when it is
//!   cheap), houses on the most valuable cells near its own, roads towards free land; may
//!   knock down a rival's house on a rich cell and build its own there. In the last turn it
//!   sells everything it owns (selling is neutral for the final score, and sold houses
//!   cannot be destroyed any more).
//! - `enchere`: bids about three quarters of what the monument is worth to it: the gain of
//!   its houses over the best-off rival if it places the monument, plus what the most
//!   dangerous rival would gain over it. In the last auction it sells houses to fund the
//!   bid, or those a negative monument could hit.
//! - `placement`: puts the monument where its houses gain most over the best-off rival.

use super::area::Local;
use super::Champion;
use crate::api::Api;
use crate::constants::*;

/// Worth of a house on a cell of value `v` (rule 8).
fn worth(v: i32) -> i32 {
    (v + 1).max(0)
}

/// The cells within Chebyshev distance `r` of `(x, y)` (on the map or not).
fn square(x: i32, y: i32, r: i32) -> impl Iterator<Item = (i32, i32)> {
    (y - r..=y + r).flat_map(move |cy| (x - r..=x + r).map(move |cx| (cx, cy)))
}

/// How the worth of each player's houses changes if a monument of prestige `p` and range
/// `r` is built on `(x, y)`.
fn deltas(local: &Local, x: i32, y: i32, p: i32, r: i32) -> [i32; 3] {
    let mut delta = [0; 3];
    for (cx, cy) in square(x, y, r) {
        if local.kind(cx, cy) == MAISON {
            if let Some(d) = delta.get_mut(local.owner(cx, cy) as usize) {
                let v = local.value(cx, cy);
                *d += worth(v + p) - worth(v);
            }
        }
    }
    delta
}

/// What player `j` gains over the best-off other player.
fn advantage(delta: [i32; 3], j: usize) -> i32 {
    let others = (0..3).filter(|&k| k != j).map(|k| delta[k]).max();
    delta[j] - others.unwrap_or(0)
}

/// The first cell of `cells` with the greatest `key`.
fn best_by<K: Ord>(
    cells: &[(i32, i32)],
    mut key: impl FnMut((i32, i32)) -> K,
) -> Option<((i32, i32), K)> {
    let mut best: Option<((i32, i32), K)> = None;
    for &c in cells {
        let k = key(c);
        if best.as_ref().is_none_or(|(_, b)| k > *b) {
            best = Some((c, k));
        }
    }
    best
}

/// The deterministic heuristic player.
#[derive(Clone, Debug, Default)]
pub struct Greedy;

impl Greedy {
    /// The greedy bot; it has no state and no seed, so every game it plays is reproducible.
    pub fn new() -> Greedy {
        Greedy
    }

    /// How much we like a house on `(x, y)`: its worth first, then company of our own
    /// houses (our monuments will cover them) and no rivals' (theirs would).
    fn house_score(local: &Local, x: i32, y: i32) -> i32 {
        let mut score = 100 * worth(local.value(x, y));
        for (cx, cy) in square(x, y, 2) {
            if local.kind(cx, cy) == MAISON {
                score += match local.owner(cx, cy) {
                    0 => 12,
                    1 | 2 => -6,
                    _ => 0,
                };
            }
        }
        score
    }

    /// How much we like a road on `(x, y)`: the free cells it opens to building, weighted
    /// by their worth, and nearness to our houses.
    fn road_score(local: &Local, x: i32, y: i32) -> i32 {
        let mut score = 0;
        for (cx, cy) in square(x, y, 1) {
            if local.kind(cx, cy) == VIDE && !local.touches_road(cx, cy, true) {
                score += 10 + 5 * worth(local.value(cx, cy));
            }
        }
        if score == 0 {
            return 0;
        }
        for (cx, cy) in square(x, y, 3) {
            if local.kind(cx, cy) == MAISON && local.owner(cx, cy) == 0 {
                score += 2;
            }
        }
        score
    }

    /// Build the best house we accept to pay `limit` for; whether one was built.
    fn build_house(api: &mut dyn Api, limit: i32) -> bool {
        let price = api.cout_achat_maison();
        if price == INFINI || price > limit || price > api.finances(0) {
            return false;
        }
        let local = Local::read(api, 2);
        let mut cells: Vec<((i32, i32), i32)> = local
            .building_candidates()
            .into_iter()
            .filter(|&(x, y)| worth(local.value(x, y)) >= price.max(1))
            .map(|(x, y)| ((x, y), Greedy::house_score(&local, x, y)))
            .collect();
        cells.sort_by_key(|&(_, score)| -score);
        for ((x, y), _) in cells {
            if api.construction_possible(x, y) == SUCCES {
                return api.construire_maison(x, y) == SUCCES;
            }
        }
        false
    }

    /// Build the best road costing at most `limit`; whether one was built.
    fn build_road(api: &mut dyn Api, limit: i32) -> bool {
        let price = api.cout_achat_route();
        if price > limit || price > api.finances(0) {
            return false;
        }
        let local = Local::read(api, 2);
        let cells = local.road_candidates();
        match best_by(&cells, |(x, y)| Greedy::road_score(&local, x, y)) {
            Some(((x, y), score)) if score > 0 && api.route_possible(x, y) == SUCCES => {
                api.construire_route(x, y) == SUCCES
            }
            _ => false,
        }
    }

    /// Knock down a rival's house on a rich cell and build ours there, when that beats our
    /// best free cell; whether it was done.
    fn take_over(api: &mut dyn Api) -> bool {
        let money = api.finances(0);
        if api.cout_achat_maison() != 0 {
            return false;
        }
        let local = Local::read(api, 2);
        let best_free = local
            .building_candidates()
            .into_iter()
            .map(|(x, y)| worth(local.value(x, y)))
            .max()
            .unwrap_or(0);
        let target = local
            .houses()
            .into_iter()
            .filter(|&(_, _, owner)| owner == 1 || owner == 2)
            .map(|(x, y, _)| {
                let v = local.value(x, y);
                let price = v.max(1);
                // Our new house, minus the price, plus half the rival's loss.
                ((x, y), worth(v) - price + worth(v) / 2, price)
            })
            .filter(|&(_, gain, price)| gain > best_free && money - price >= 3)
            .max_by_key(|&((x, y), gain, _)| (gain, -(y * TAILLE_CARTE + x)));
        let Some(((x, y), _, _)) = target else {
            return false;
        };
        api.detruire_maison(x, y) == SUCCES
            && api.construction_possible(x, y) == SUCCES
            && api.construire_maison(x, y) == SUCCES
    }

    /// Sell every house we own.
    fn sell_all(api: &mut dyn Api) {
        let local = Local::read(api, 0);
        for (x, y, owner) in local.houses() {
            if owner == 0 {
                api.vendre_maison(x, y);
            }
        }
    }
}

impl Champion for Greedy {
    fn jouer(&mut self, api: &mut dyn Api) {
        Greedy::take_over(api);
        for _ in 0..8 {
            let limit = if api.finances(0) >= 8 { 1 } else { 0 };
            if !Greedy::build_house(api, limit) && !Greedy::build_road(api, 0) {
                break;
            }
        }
        if api.numero_tour() == i32::from(LAST_TURN) {
            Greedy::sell_all(api);
        }
    }

    fn enchere(&mut self, api: &mut dyn Api) {
        let id = api.monument_en_cours();
        let (p, r) = (api.prestige_monument(id), api.portee_monument(id));
        if p == PAS_DE_MONUMENT || r == PAS_DE_MONUMENT {
            return;
        }
        let last_auction = api.numero_tour() == i32::from(LAST_TURN) - 1;
        let mut local = Local::read(api, 2);
        let cells = local.construction_sites(api);
        if last_auction && p < 0 {
            // Selling is neutral now and keeps these houses out of the monument's reach.
            for (x, y, owner) in local.houses() {
                if owner == 0
                    && cells
                        .iter()
                        .any(|&(cx, cy)| (cx - x).abs().max((cy - y).abs()) <= r)
                {
                    api.vendre_maison(x, y);
                }
            }
            local = Local::read(api, 2);
        }
        let all: Vec<[i32; 3]> = cells
            .iter()
            .map(|&(x, y)| deltas(&local, x, y, p, r))
            .collect();
        let ours = all
            .iter()
            .map(|&d| advantage(d, 0))
            .max()
            .unwrap_or(0)
            .max(0);
        let threat = (1..3)
            .filter_map(|j| {
                all.iter()
                    .max_by_key(|&&d| advantage(d, j))
                    .map(|d| d[j] - d[0])
            })
            .max()
            .unwrap_or(0)
            .max(0);
        let worth_to_us = ours + threat;
        let want = worth_to_us - worth_to_us / 4;
        if last_auction && want > api.finances(0) {
            // Fund the bid with houses our placement would not raise, cheapest first.
            let spot = best_by(&cells, |(x, y)| advantage(deltas(&local, x, y, p, r), 0));
            let mut houses: Vec<(i32, i32)> = local
                .houses()
                .into_iter()
                .filter(|&(x, y, owner)| {
                    owner == 0
                        && spot
                            .as_ref()
                            .is_none_or(|&((sx, sy), _)| (sx - x).abs().max((sy - y).abs()) > r)
                })
                .map(|(x, y, _)| (x, y))
                .collect();
            houses.sort_by_key(|&(x, y)| worth(local.value(x, y)));
            for (x, y) in houses {
                if api.finances(0) >= want {
                    break;
                }
                api.vendre_maison(x, y);
            }
        }
        let bid = want.min(api.finances(0)).max(0);
        api.encherir(bid);
    }

    fn placement(&mut self, api: &mut dyn Api) {
        let id = api.monument_en_cours();
        let (p, r) = (api.prestige_monument(id), api.portee_monument(id));
        if p == PAS_DE_MONUMENT || r == PAS_DE_MONUMENT {
            return;
        }
        let local = Local::read(api, 2);
        let cells = local.construction_sites(api);
        let best = best_by(&cells, |(x, y)| {
            let gain = advantage(deltas(&local, x, y, p, r), 0);
            // Between equal gains, a positive monument goes near free land to build on.
            let land = if p > 0 {
                square(x, y, r)
                    .filter(|&(cx, cy)| local.kind(cx, cy) == VIDE)
                    .count() as i32
            } else {
                0
            };
            (gain, land)
        });
        if let Some(((x, y), (gain, land))) = best {
            if gain > 0 || (gain == 0 && land > 0) {
                api.construire_monument(x, y);
            }
        }
    }
}
