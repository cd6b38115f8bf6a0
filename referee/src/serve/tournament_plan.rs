//! The formats of a server's tournament, pure: a league (every set of `seats` players
//! meets `rounds` times), pools then knockout (leagues in pools, the best of each pool go on
//! to a knockout), single elimination (knockout from the start). A knockout round splits
//! the players left into matches of at most `seats`, and the top `advance` of each match go
//! on, for any seat count; a knockout meeting is one game or the best of `best_of`. Which
//! players meet, never who wins: that is the games'.

/// How a tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    League,
    PoolsKnockout,
    SingleElimination,
}

impl Format {
    /// The format of its name, or the message naming the names.
    pub fn parse(name: &str) -> Result<Format, String> {
        match name {
            "league" => Ok(Format::League),
            "pools-knockout" => Ok(Format::PoolsKnockout),
            "single-elimination" => Ok(Format::SingleElimination),
            _ => Err(format!(
                "unknown format {name:?}: give league, pools-knockout or single-elimination"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::League => "league",
            Format::PoolsKnockout => "pools-knockout",
            Format::SingleElimination => "single-elimination",
        }
    }
}

/// A tournament's plan, as the organiser created it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub format: Format,
    /// Seats of a match (2 for Ticket to Ride's usual game; up to the game's most).
    pub seats: usize,
    /// Times each set of players meets in a league (the pools' leagues too).
    pub rounds: u32,
    /// Players of a pool (pools then knockout).
    pub pool: usize,
    /// The top ones of a pool that go on to the knockout (pools then knockout).
    pub qualify: usize,
    /// The top ones of a knockout match that go on.
    pub advance: usize,
    /// Games of a knockout meeting at most (best of N): its players ranked by the points
    /// of its games, played until the ones going on cannot be caught.
    pub best_of: u32,
}

/// Most games of a knockout meeting.
pub const MAX_BEST_OF: u32 = 9;

impl Plan {
    /// The default of `advance` for matches of `seats`: half of them, at least one.
    pub fn default_advance(seats: usize) -> usize {
        (seats / 2).max(1)
    }

    /// What is wrong with the plan: the setting at fault (`seats`, `rounds`, `advance`,
    /// `pool`, `qualify`: the command line names its flag) and what it takes.
    pub fn check(
        &self,
        game_seats: std::ops::RangeInclusive<usize>,
    ) -> Result<(), (&'static str, String)> {
        if !game_seats.contains(&self.seats) {
            return Err((
                "seats",
                format!(
                    "{}: the game takes {} to {} seats",
                    self.seats,
                    game_seats.start(),
                    game_seats.end()
                ),
            ));
        }
        if self.rounds == 0 || self.rounds > 100 {
            return Err(("rounds", format!("{}: give 1 to 100", self.rounds)));
        }
        if self.advance == 0 || self.advance >= self.seats {
            return Err((
                "advance",
                format!(
                    "{}: the top ones of a match that go on, 1 to {} (fewer than the seats)",
                    self.advance,
                    self.seats - 1
                ),
            ));
        }
        if self.best_of == 0 || self.best_of > MAX_BEST_OF {
            return Err((
                "best-of",
                format!(
                    "{}: games of a knockout meeting, 1 to {MAX_BEST_OF}",
                    self.best_of
                ),
            ));
        }
        if self.format == Format::PoolsKnockout {
            if self.pool < self.seats || self.pool > 64 {
                return Err((
                    "pool",
                    format!(
                        "{}: players of a pool, {} (the seats) to 64",
                        self.pool, self.seats
                    ),
                ));
            }
            if self.qualify == 0 || self.qualify >= self.pool {
                return Err((
                    "qualify",
                    format!(
                        "{}: the top ones of a pool that go on, 1 to {} (fewer than a pool's \
                         players)",
                        self.qualify,
                        self.pool - 1
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The fewest players the tournament can start with.
    pub fn fewest_players(&self) -> usize {
        self.seats
    }
}

/// Most games a tournament plays: a plan that would play more is refused (at `new` for its
/// most players, at `start` for its members), before anything is computed.
pub const MAX_GAMES: u64 = 10_000;

impl Plan {
    /// How many games the plan plays at most with `players` members, without building them.
    pub fn games(&self, players: usize) -> u64 {
        let league = |n: usize| match n {
            0 | 1 => 0,
            _ => choose(n, self.seats.min(n)).saturating_mul(u64::from(self.rounds)),
        };
        let knockout = (players as u64).saturating_mul(u64::from(self.best_of));
        match self.format {
            Format::League => league(players),
            // Each knockout meeting puts out one player at least.
            Format::SingleElimination => knockout,
            Format::PoolsKnockout => split(&(0..players).collect::<Vec<_>>(), self.pool)
                .iter()
                .map(|pool| league(pool.len()))
                .fold(knockout, u64::saturating_add),
        }
    }

    /// Whether the plan with `players` members plays at most [`MAX_GAMES`]; the message
    /// names its size and the limit.
    pub fn check_size(&self, players: usize) -> Result<(), String> {
        let games = self.games(players);
        if games > MAX_GAMES {
            return Err(format!(
                "{} of {players} players, {} seats a game and {} round(s) plays {games} \
                 games, and a tournament plays at most {MAX_GAMES}",
                self.format.name(),
                self.seats,
                self.rounds
            ));
        }
        Ok(())
    }
}

/// `C(n, k)`, saturating.
fn choose(n: usize, k: usize) -> u64 {
    (0..k.min(n)).fold(1u128, |c, i| {
        (c * (n - i) as u128 / (i + 1) as u128).min(u128::from(u64::MAX))
    }) as u64
}

/// The members (indices `0..n`) in their seeding order, best seed first: a draw from the
/// tournament's secret `seed`, never the order they joined in.
/// Each member's key is `derive(seed, GROUP_STREAM, index)` (`seeds.rs`), a bijection of
/// the index: the order is the keys', the same on every machine and version.
pub fn seeding(n: usize, seed: u64) -> Vec<usize> {
    use arena::seeds::{derive, GROUP_STREAM};
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| derive(seed, GROUP_STREAM, i as u64));
    order
}

/// The rounds of a league among `players`: every set of `seats` of them meets `rounds`
/// times (the seat order turned each time), in rounds in which nobody plays twice (a
/// connected program plays one game at a time). Two seats: the circle method, `n - 1`
/// rounds (`n` when odd) per meeting, in time linear in the games; more seats: each set in
/// the first round that has room for it (the plan's size is checked first:
/// [`Plan::check_size`]).
pub fn league(players: &[usize], seats: usize, rounds: u32) -> Vec<Vec<Vec<usize>>> {
    if seats == 2 {
        return circle(players, rounds);
    }
    let mut sets = Vec::new();
    subsets(players, seats, &mut Vec::new(), &mut sets);
    let mut matches = Vec::new();
    for round in 0..rounds as usize {
        for set in &sets {
            let mut m = set.clone();
            m.rotate_left(round % seats);
            matches.push(m);
        }
    }
    rounds_of(matches)
}

/// Every pair of `players` `rounds` times by the circle method: one player stays, the
/// others turn around it; an odd count adds a bye. The seats swap every other meeting.
fn circle(players: &[usize], rounds: u32) -> Vec<Vec<Vec<usize>>> {
    let mut ring: Vec<Option<usize>> = players.iter().copied().map(Some).collect();
    if ring.len() % 2 == 1 {
        ring.push(None);
    }
    let m = ring.len();
    let mut out = Vec::new();
    for meeting in 0..rounds as usize {
        let mut turn = ring.clone();
        for r in 0..m.saturating_sub(1) {
            let mut round = Vec::new();
            for i in 0..m / 2 {
                if let (Some(a), Some(b)) = (turn[i], turn[m - 1 - i]) {
                    // The player that stays changes seats each round, the others by
                    // meeting.
                    let swap = (meeting % 2 == 1) ^ (i == 0 && r % 2 == 1);
                    round.push(if swap { vec![b, a] } else { vec![a, b] });
                }
            }
            out.push(round);
            turn[1..].rotate_right(1);
        }
    }
    out
}

fn subsets(from: &[usize], k: usize, chosen: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if chosen.len() == k {
        out.push(chosen.clone());
        return;
    }
    for (i, &p) in from.iter().enumerate() {
        chosen.push(p);
        subsets(&from[i + 1..], k, chosen, out);
        chosen.pop();
    }
}

/// `matches` in rounds in which no player plays twice, each match in the first round that
/// has room for it, in order (each round keeps who plays in it).
fn rounds_of(matches: Vec<Vec<usize>>) -> Vec<Vec<Vec<usize>>> {
    let most = matches.iter().flatten().max().map_or(0, |&p| p + 1);
    let mut rounds: Vec<(Vec<bool>, Vec<Vec<usize>>)> = Vec::new();
    for m in matches {
        let free = rounds
            .iter_mut()
            .find(|(busy, _)| m.iter().all(|&p| !busy[p]));
        let (busy, round) = match free {
            Some(found) => found,
            None => {
                rounds.push((vec![false; most], Vec::new()));
                rounds.last_mut().expect("pushed")
            }
        };
        for &p in &m {
            busy[p] = true;
        }
        round.push(m);
    }
    rounds.into_iter().map(|(_, round)| round).collect()
}

/// Rounds of several leagues played side by side: round `i` holds each league's round `i`.
pub fn side_by_side(leagues: Vec<Vec<Vec<Vec<usize>>>>) -> Vec<Vec<Vec<usize>>> {
    let mut out: Vec<Vec<Vec<usize>>> = Vec::new();
    for league in leagues {
        for (i, round) in league.into_iter().enumerate() {
            if out.len() == i {
                out.push(Vec::new());
            }
            out[i].extend(round);
        }
    }
    out
}

/// `players` (best seeded first) split into `ceil(n / size)` groups whose sizes differ by
/// one at most, dealt in turn (the first seeds in different groups).
pub fn split(players: &[usize], size: usize) -> Vec<Vec<usize>> {
    let groups = players.len().div_ceil(size.max(1)).max(1);
    let mut out = vec![Vec::new(); groups];
    for (i, &p) in players.iter().enumerate() {
        out[i % groups].push(p);
    }
    out
}

/// How many of a knockout match of `size` players go on: one alone (a bye) goes on; else
/// the top `advance`, and at least one fewer than played.
pub fn going_on(size: usize, advance: usize) -> usize {
    match size {
        0 | 1 => size,
        _ => advance.min(size - 1),
    }
}

/// Whether a knockout meeting of best of N is decided: with each player's points so far
/// (`points`), `left` games still to play and a game worth at most `most` points to a
/// player, the `going_on` first can no longer be caught (strictly: a tie left open is
/// played on). Every game played, it is.
pub fn decided(points: &[u64], going_on: usize, left: u32, most: u64) -> bool {
    let mut sorted = points.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    match (sorted.get(going_on.wrapping_sub(1)), sorted.get(going_on)) {
        _ if left == 0 => true,
        (Some(&last_in), Some(&first_out)) => {
            last_in > first_out.saturating_add(u64::from(left).saturating_mul(most))
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_league_meets_every_pair_and_nobody_plays_twice_in_a_round() {
        for (n, seats, rounds, games) in [(4, 2, 2, 12), (5, 2, 1, 10), (4, 3, 1, 4), (6, 3, 2, 40)]
        {
            let players: Vec<usize> = (0..n).collect();
            let plan = league(&players, seats, rounds);
            let matches: Vec<&Vec<usize>> = plan.iter().flatten().collect();
            assert_eq!(matches.len(), games, "{n} players, {seats} seats: {plan:?}");
            let mut sets: Vec<Vec<usize>> = matches
                .iter()
                .map(|m| {
                    let mut m = m.to_vec();
                    m.sort();
                    m
                })
                .collect();
            sets.sort();
            sets.dedup();
            assert_eq!(
                sets.len() as u64,
                choose(n, seats),
                "every set meets: {plan:?}"
            );
            let plan_of = Plan {
                format: Format::League,
                seats,
                rounds,
                pool: 4,
                qualify: 1,
                advance: 1,
                best_of: 1,
            };
            assert_eq!(plan_of.games(n) as usize, games);
            check_rounds(&plan);
        }
        let two = league(&[0, 1, 2, 3], 2, 2);
        let pairs: Vec<&Vec<usize>> = two.iter().flatten().collect();
        assert!(pairs.contains(&&vec![0, 1]) && pairs.contains(&&vec![1, 0]));
        assert_eq!(two.len(), 6, "the circle method: n - 1 rounds a meeting");
    }

    fn check_rounds(rounds: &[Vec<Vec<usize>>]) {
        for round in rounds {
            let mut seen: Vec<usize> = round.iter().flatten().copied().collect();
            let n = seen.len();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), n, "{round:?}");
        }
    }

    #[test]
    fn a_plan_too_big_is_refused_before_it_is_built() {
        let plan = |format, seats, rounds| Plan {
            format,
            seats,
            rounds,
            pool: 4,
            qualify: 1,
            advance: 1,
            best_of: 1,
        };
        let five = plan(Format::League, 5, 1);
        assert_eq!(five.games(150), 591_600_030);
        let why = five.check_size(150).unwrap_err();
        assert!(
            why.contains("591600030 games") && why.contains("10000"),
            "{why}"
        );
        assert!(plan(Format::League, 2, 1).check_size(100).is_ok());
        assert!(plan(Format::League, 5, 100).games(100_000) == u64::MAX);
        assert!(plan(Format::PoolsKnockout, 3, 1).check_size(1000).is_ok());
        assert!(plan(Format::SingleElimination, 5, 1)
            .check_size(1000)
            .is_ok());
    }

    #[test]
    fn the_seeding_is_drawn_from_the_seed_not_the_joining_order() {
        let drawn = seeding(8, 1);
        assert_eq!(drawn, seeding(8, 1), "the same seed, the same seeding");
        let mut sorted = drawn.clone();
        sorted.sort();
        assert_eq!(sorted, (0..8).collect::<Vec<_>>());
        assert!((0..20).any(|s| seeding(8, s) != seeding(8, s + 1)));
    }

    #[test]
    fn knockout_groups_are_even_and_top_seeds_apart() {
        assert_eq!(split(&[0, 1, 2, 3], 2), vec![vec![0, 2], vec![1, 3]]);
        assert_eq!(split(&[0, 1, 2], 2), vec![vec![0, 2], vec![1]]);
        assert_eq!(
            split(&[0, 1, 2, 3, 4, 5, 6], 3),
            vec![vec![0, 3, 6], vec![1, 4], vec![2, 5]]
        );
        assert_eq!(split(&[0, 1], 4), vec![vec![0, 1]]);
        assert_eq!(going_on(1, 1), 1);
        assert_eq!(going_on(2, 1), 1);
        assert_eq!(going_on(2, 2), 1);
        assert_eq!(going_on(4, 2), 2);
    }

    #[test]
    fn a_best_of_meeting_ends_once_those_going_on_cannot_be_caught() {
        // Best of 3, two seats, a win worth 1: 2-0 after two games is decided, 1-1 is not.
        assert!(decided(&[2, 0], 1, 1, 1));
        assert!(!decided(&[1, 1], 1, 1, 1));
        assert!(!decided(&[1, 0], 1, 2, 1));
        assert!(decided(&[1, 1], 1, 0, 1), "every game played: decided");
        // Four seats, two go on, 7/3/1/0: 14, 6, 1, 0 with one game left: 6 > 1 + 7? No.
        assert!(!decided(&[14, 6, 1, 0], 2, 1, 7));
        assert!(decided(&[14, 9, 1, 0], 2, 1, 7));
        assert!(decided(&[0, 0], 2, 3, 1), "all go on");
    }

    #[test]
    fn plans_are_checked_naming_the_flag() {
        let plan = Plan {
            format: Format::PoolsKnockout,
            seats: 2,
            rounds: 1,
            pool: 3,
            qualify: 1,
            advance: 1,
            best_of: 1,
        };
        assert!(plan.check(2..=5).is_ok());
        let bad =
            |p: Plan, flag: &str| assert_eq!(format!("--{}", p.check(2..=5).unwrap_err().0), flag);
        bad(
            Plan {
                seats: 6,
                ..plan.clone()
            },
            "--seats",
        );
        bad(
            Plan {
                rounds: 0,
                ..plan.clone()
            },
            "--rounds",
        );
        bad(
            Plan {
                advance: 2,
                ..plan.clone()
            },
            "--advance",
        );
        bad(
            Plan {
                best_of: 10,
                ..plan.clone()
            },
            "--best-of",
        );
        bad(
            Plan {
                pool: 1,
                ..plan.clone()
            },
            "--pool",
        );
        bad(
            Plan {
                qualify: 3,
                ..plan.clone()
            },
            "--qualify",
        );
        assert!(Format::parse("swiss").unwrap_err().contains("league"));
    }
}
