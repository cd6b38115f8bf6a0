//! `distance`: the shortest 4-connected walk through cells a player may cross, up to
//! `MAX_DISTANCE` (section 6).

use crate::board::{Board, Kind, Pos};
use crate::constants::MAX_DISTANCE;
use crate::player::Seat;
use std::collections::VecDeque;

const REACH: i32 = MAX_DISTANCE;
const SIDE: usize = 2 * REACH as usize + 1;

/// Whether `seat` may walk on `pos`: empty, road, or its own reservation.
fn is_passable(board: &Board, seat: Seat, pos: Pos) -> bool {
    let cell = board.cell(pos);
    match cell.kind {
        Kind::Vide | Kind::Route => true,
        Kind::Reservation => cell.owner == Some(seat),
        Kind::Maison | Kind::Monument => false,
    }
}

/// The length of the shortest path from `from` to `to` whose every cell, both ends
/// included, is passable for `seat`; `None` when there is none of length <= `MAX_DISTANCE`.
/// A path that short never leaves the diamond of radius 12 around `from`, so the search
/// runs in a 25x25 window.
pub fn distance(board: &Board, seat: Seat, from: Pos, to: Pos) -> Option<i32> {
    let manhattan =
        (i32::from(from.x) - i32::from(to.x)).abs() + (i32::from(from.y) - i32::from(to.y)).abs();
    if manhattan > MAX_DISTANCE || !is_passable(board, seat, from) || !is_passable(board, seat, to)
    {
        return None;
    }
    let window = |p: Pos| {
        let dx = i32::from(p.x) - i32::from(from.x) + REACH;
        let dy = i32::from(p.y) - i32::from(from.y) + REACH;
        ((0..SIDE as i32).contains(&dx) && (0..SIDE as i32).contains(&dy))
            .then(|| dy as usize * SIDE + dx as usize)
    };
    let mut seen = [false; SIDE * SIDE];
    let mut queue = VecDeque::from([(from, 0)]);
    seen[window(from).expect("start is in its window")] = true;
    while let Some((p, d)) = queue.pop_front() {
        if p == to {
            return Some(d);
        }
        if d == MAX_DISTANCE {
            continue;
        }
        for n in p.neighbours4() {
            if let Some(w) = window(n) {
                if !seen[w] && is_passable(board, seat, n) {
                    seen[w] = true;
                    queue.push_back((n, d + 1));
                }
            }
        }
    }
    None
}
