//! A server tournament's standings, by the scoring every tournament of the referee uses
//! (`standings.rs`: the game's points table, places, faults, head-to-head): the rows of
//! its games' records, written as `leaderboard.csv`, `pairwise.csv` and `leaderboard.txt`
//! in `<results>/tournaments/<name>/`.

use crate::standings::{MatchRow, PointsTable, Standings};
use std::path::Path;

/// The standings of `rows` among `players` (matches of up to `seats` seats, scored by the
/// game's `points`).
pub fn standings(
    points: PointsTable,
    players: &[String],
    seats: usize,
    rows: &[MatchRow],
) -> Standings {
    let mut standings =
        Standings::with_champions(points, seats, players.iter().map(String::as_str));
    for row in rows {
        standings.add(row);
    }
    standings
}

/// Writes the tables of `standings` into `dir` (made if missing).
pub fn write(dir: &Path, standings: &Standings, seed: u64) -> anyhow::Result<()> {
    use crate::export::{leaderboard_csv, pairwise_csv, table};
    std::fs::create_dir_all(dir)?;
    let confidence = arena::confidence::compute(standings, seed);
    crate::store::write_atomic(
        &dir.join("leaderboard.csv"),
        &leaderboard_csv::render(standings, &confidence),
    )?;
    crate::store::write_atomic(&dir.join("pairwise.csv"), &pairwise_csv::render(standings))?;
    crate::store::write_atomic(
        &dir.join("leaderboard.txt"),
        table::leaderboard(standings, &confidence).as_bytes(),
    )?;
    Ok(())
}

/// The players of `group` (indices into `names`) ranked by the games `rows` of their
/// meeting (one game, or a best of N): more points in all first, then those that played a
/// game without a fault, then the better seeded (earlier in `group`).
pub fn ranked(group: &[usize], names: &[String], rows: &[MatchRow]) -> Vec<usize> {
    let of = |p: usize| {
        let (points, faulted) = meeting(rows, &names[p]);
        (std::cmp::Reverse(points), faulted)
    };
    let mut order: Vec<(usize, usize)> = group.iter().copied().enumerate().collect();
    order.sort_by_key(|&(i, p)| (of(p), i));
    order.into_iter().map(|(_, p)| p).collect()
}

/// The points of the player `name` over the games `rows` of a meeting, and whether it lost
/// each of them by a fault (or had a seat in none).
pub fn meeting(rows: &[MatchRow], name: &str) -> (u64, bool) {
    let (mut points, mut faulted) = (0u64, true);
    for row in rows {
        let seat = row.champions.iter().position(|c| c == name);
        points += seat.map_or(0, |s| u64::from(row.points[s]));
        faulted &= seat.is_none_or(|s| row.faults[s].is_some());
    }
    (points, faulted)
}
