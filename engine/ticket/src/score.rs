//! The end's count (rules 20-25): tickets completed or not, the longest continuous path,
//! the final scores, the tie-breaks and the ranking.

use crate::board::Board;
use crate::state::{End, TicketState};
use game::Ranking;

/// Points for the longest continuous path (rule 23).
pub const LONGEST_BONUS: i64 = 10;

/// The routes `seat` owns.
fn owned(owners: &[Option<usize>], seat: usize) -> Vec<usize> {
    (0..owners.len())
        .filter(|&r| owners[r] == Some(seat))
        .collect()
}

/// Whether `routes` (of `board`) connect cities `a` and `b`.
pub fn connects(board: &Board, routes: &[usize], a: usize, b: usize) -> bool {
    let mut reached = vec![false; board.cities.len()];
    let mut stack = vec![a];
    reached[a] = true;
    while let Some(city) = stack.pop() {
        for &r in routes {
            let route = &board.routes[r];
            let next = match city {
                c if c == route.from => route.to,
                c if c == route.to => route.from,
                _ => continue,
            };
            if !reached[next] {
                reached[next] = true;
                stack.push(next);
            }
        }
    }
    reached[b]
}

/// The length in wagons of the longest continuous path of `routes`: a walk that uses each
/// route at most once and may pass a city more than once (rule 23).
pub fn longest_path(board: &Board, routes: &[usize]) -> u32 {
    fn walk(board: &Board, routes: &[usize], used: &mut Vec<bool>, city: usize) -> u32 {
        let mut best = 0;
        for (i, &r) in routes.iter().enumerate() {
            let route = &board.routes[r];
            if used[i] || (route.from != city && route.to != city) {
                continue;
            }
            let next = if route.from == city {
                route.to
            } else {
                route.from
            };
            used[i] = true;
            best = best.max(u32::from(route.length) + walk(board, routes, used, next));
            used[i] = false;
        }
        best
    }
    let mut used = vec![false; routes.len()];
    let mut starts: Vec<usize> = routes
        .iter()
        .flat_map(|&r| [board.routes[r].from, board.routes[r].to])
        .collect();
    starts.sort_unstable();
    starts.dedup();
    starts
        .into_iter()
        .map(|c| walk(board, routes, &mut used, c))
        .max()
        .unwrap_or(0)
}

/// One seat's count at the end.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Count {
    /// Points from routes.
    pub routes: i64,
    /// Points won and lost by tickets.
    pub tickets: i64,
    /// Which of its tickets (in the order it kept them) are completed.
    pub completed: Vec<bool>,
    /// Its longest continuous path, in wagons.
    pub longest: u32,
    /// The bonus of rule 23 (0 or 10).
    pub bonus: i64,
    /// The total.
    pub score: i64,
}

impl TicketState {
    /// Each seat's count as the match stands (the final scores once it ends by rule 19).
    pub fn count(&self) -> Vec<Count> {
        let seats = self.seats();
        let mut counts: Vec<Count> = (0..seats)
            .map(|seat| {
                let routes = owned(&self.owners, seat);
                let completed: Vec<bool> = self.tickets[seat]
                    .iter()
                    .map(|&t| {
                        let t = self.board.tickets[usize::from(t)];
                        connects(&self.board, &routes, t.from, t.to)
                    })
                    .collect();
                let tickets = self.tickets[seat]
                    .iter()
                    .zip(&completed)
                    .map(|(&t, &done)| {
                        let points = self.board.tickets[usize::from(t)].points;
                        if done {
                            points
                        } else {
                            -points
                        }
                    })
                    .sum();
                Count {
                    routes: self.points[seat],
                    tickets,
                    completed,
                    longest: longest_path(&self.board, &routes),
                    bonus: 0,
                    score: 0,
                }
            })
            .collect();
        let best = (0..seats)
            .filter(|&s| !self.out[s])
            .map(|s| counts[s].longest)
            .max()
            .unwrap_or(0);
        for (seat, c) in counts.iter_mut().enumerate() {
            if !self.out[seat] && best > 0 && c.longest == best {
                c.bonus = LONGEST_BONUS;
            }
            c.score = c.routes + c.tickets + c.bonus;
        }
        counts
    }

    /// The keys of rule 24 before the coin, for the seats still in, greatest first; the
    /// seats that left all share the lowest key (rule 25: they share the last places,
    /// whatever their counts).
    fn tie_keys(&self, counts: &[Count]) -> Vec<(bool, i64, u32, usize, i64)> {
        (0..self.seats())
            .map(|s| {
                if self.out[s] {
                    return (false, 0, 0, 0, 0);
                }
                let cards: u32 = self.hands[s].iter().map(|&n| u32::from(n)).sum();
                (
                    !self.out[s],
                    counts[s].score,
                    counts[s].longest,
                    self.tickets[s].len(),
                    -i64::from(cards),
                )
            })
            .collect()
    }

    /// Whether two seats still in tie on every key of rule 24 but the coin, at a counted
    /// end: then the coin is drawn.
    pub(crate) fn coin_decides(&self) -> bool {
        if self.end != Some(End::Counted) {
            return false;
        }
        let keys = self.tie_keys(&self.count());
        (0..keys.len()).any(|a| keys[a].0 && (a + 1..keys.len()).any(|b| keys[a] == keys[b]))
    }

    /// How the match ended, once it did.
    pub(crate) fn rank(&self) -> Option<Ranking> {
        let end = self.end?;
        let seats = self.seats();
        let cards = |s: usize| -> i64 { self.hands[s].iter().map(|&n| i64::from(n)).sum() };
        let routes = self.points.clone();
        Some(match end {
            End::Counted => {
                let counts = self.count();
                let scores = (0..seats)
                    .map(|s| match self.out[s] {
                        true => counts[s].routes,
                        false => counts[s].score,
                    })
                    .collect();
                let coin = |s: usize| -> i64 {
                    match &self.coin {
                        Some(order) => {
                            -(order.iter().position(|&k| k as usize == s).unwrap_or(0) as i64)
                        }
                        None => 0,
                    }
                };
                let keys = self
                    .tie_keys(&counts)
                    .into_iter()
                    .enumerate()
                    .map(|(s, k)| (k, if k.0 { coin(s) } else { 0 }))
                    .collect();
                Ranking::by_keys(keys, scores)
            }
            End::CardsOut { drawer } => Ranking::by_keys(
                (0..seats)
                    .map(|s| match self.out[s] {
                        true => (false, 0, false),
                        false => (true, -cards(s), s != drawer),
                    })
                    .collect(),
                routes,
            ),
            End::TicketsOut { drawer } => Ranking::by_keys(
                (0..seats)
                    .map(|s| match self.out[s] {
                        true => (false, 0, false),
                        false => (true, -(self.tickets[s].len() as i64), s == drawer),
                    })
                    .collect(),
                routes,
            ),
            End::Retired => Ranking::by_keys((0..seats).map(|s| !self.out[s]).collect(), routes),
        })
    }
}
