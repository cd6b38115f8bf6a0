//! The formats of a server's tournament, pure: a league (every set of `seats` players
//! meets `rounds` times), pools then knockout (leagues in pools, the best of each pool go on
//! to a knockout), single elimination (knockout from the start). A knockout round splits
//! the players left into matches of at most `seats`, and the top `advance` of each match go
//! on, for any seat count. Which players meet, never who wins: that is the games'.

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
}

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

/// Every match of a league among `players` (in this order): each set of `seats` of them,
/// `rounds` times, the seat order turned each time.
pub fn league(players: &[usize], seats: usize, rounds: u32) -> Vec<Vec<usize>> {
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
    matches
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

/// `matches` in rounds in which no player plays twice (a connected program plays one game
/// at a time), each match in the first round that has room for it, in order.
pub fn rounds_of(matches: Vec<Vec<usize>>) -> Vec<Vec<Vec<usize>>> {
    let mut rounds: Vec<Vec<Vec<usize>>> = Vec::new();
    for m in matches {
        let free = rounds
            .iter_mut()
            .find(|r| r.iter().all(|other| other.iter().all(|p| !m.contains(p))));
        match free {
            Some(round) => round.push(m),
            None => rounds.push(vec![m]),
        }
    }
    rounds
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_league_meets_every_pair_and_nobody_plays_twice_in_a_round() {
        let matches = league(&[0, 1, 2, 3], 2, 2);
        assert_eq!(matches.len(), 12);
        assert!(matches.contains(&vec![0, 1]) && matches.contains(&vec![1, 0]));
        let rounds = rounds_of(matches);
        for round in &rounds {
            let mut seen: Vec<usize> = round.iter().flatten().copied().collect();
            let n = seen.len();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), n, "{round:?}");
        }
        assert_eq!(rounds.iter().map(Vec::len).sum::<usize>(), 12);
        assert_eq!(league(&[0, 1, 2, 3], 3, 1).len(), 4);
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
    fn plans_are_checked_naming_the_flag() {
        let plan = Plan {
            format: Format::PoolsKnockout,
            seats: 2,
            rounds: 1,
            pool: 3,
            qualify: 1,
            advance: 1,
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
