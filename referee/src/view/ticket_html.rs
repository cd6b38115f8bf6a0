//! Ticket to Ride's replay page: one self-contained HTML file for a checked record, on the
//! frame every game shares ([`super::frame`]), with the board drawn from the cities'
//! coordinates, the claimed routes in the seats' colours, the face-up cards, each seat's
//! hand and tickets (hidden or shown), the tickets completed, the longest paths, and the
//! console of each step. Every state is computed here by replaying the record with the
//! `ticket` crate (the rules that refereed it): the page's script holds no rule.

use super::frame::{self, script_json, Frame, GamePage, Mark, Seat, Series, Step};
use crate::arena::GameRecord;
use crate::games::ticket_play::states;
use serde::Serialize;
use std::path::Path;
use ticket::card::ALL;
use ticket::{connects, longest_path, TicketState};

const CSS: [&str; 1] = [include_str!("assets/ticket/ticket.css")];
const JS: [&str; 1] = [include_str!("assets/ticket/ticket.js")];
/// The seats' colours, in seat order (`Parts::marks`).
const COLOUR: [&str; 5] = ["Red", "Blue", "Green", "Yellow", "Black"];

/// What the page's script reads.
#[derive(Serialize)]
struct PageData<'a> {
    seats: Vec<&'a str>,
    cities: Vec<(&'a str, i32, i32)>,
    /// `from to length colour twin` (`grey`; twin -1 for none).
    routes: Vec<(usize, usize, u8, &'static str, i64)>,
    /// `moves[i]` is move `i + 1`: its seat and text.
    moves: Vec<(usize, String)>,
    /// `states[n]`: after move `n`.
    states: Vec<StateView>,
    faults: Vec<(u8, usize, &'static str, &'a str)>,
}

/// A state as the page shows it.
#[derive(Serialize)]
struct StateView {
    turn: usize,
    phase: &'static str,
    owners: Vec<i64>,
    row: Vec<&'static str>,
    pile: usize,
    discard: usize,
    deck: usize,
    seats: Vec<SeatState>,
}

#[derive(Serialize)]
struct SeatState {
    /// Cards by colour, in colour order.
    hand: Vec<u8>,
    /// `from to points completed`.
    tickets: Vec<(usize, usize, i64, bool)>,
    wagons: u32,
    points: i64,
    longest: u32,
    out: bool,
}

fn state_view(state: &TicketState) -> StateView {
    let board = state.board();
    let view = state.view(0);
    StateView {
        turn: view.turn,
        phase: view.phase,
        owners: state
            .owners()
            .iter()
            .map(|o| o.map_or(-1, |s| s as i64))
            .collect(),
        row: view
            .row
            .iter()
            .map(|c| c.map_or("none", |c| c.name()))
            .collect(),
        pile: view.pile,
        discard: view.discard,
        deck: view.ticket_deck,
        seats: (0..state.seats())
            .map(|s| {
                let v = state.view(s);
                let owned: Vec<usize> = (0..board.routes.len())
                    .filter(|&r| state.owners()[r] == Some(s))
                    .collect();
                SeatState {
                    hand: ALL.iter().map(|&c| v.count(c)).collect(),
                    tickets: v
                        .tickets
                        .iter()
                        .map(|t| {
                            (
                                t.from,
                                t.to,
                                t.points,
                                connects(board, &owned, t.from, t.to),
                            )
                        })
                        .collect(),
                    wagons: v.seats[s].wagons,
                    points: v.seats[s].points,
                    longest: longest_path(board, &owned),
                    out: v.seats[s].out,
                }
            })
            .collect(),
    }
}

/// The replay page of `record` (checked first), the console's stderr read from `dir`.
pub fn page_in(record: &GameRecord, dir: Option<&Path>) -> anyhow::Result<String> {
    crate::arena::check(&crate::games::ticket_wire::TicketWire, record)
        .map_err(|e| anyhow::anyhow!("this record was not written by a match: {e}"))?;
    let all = states(record).map_err(anyhow::Error::msg)?;
    let board = all[0].board();
    let moves: Vec<(usize, String)> = record
        .moves()
        .map(|(seat, action)| (seat, action.to_string()))
        .collect();
    let data = PageData {
        seats: record.seats.iter().map(|s| s.name.as_str()).collect(),
        cities: board
            .cities
            .iter()
            .map(|c| (c.name.as_str(), c.x, c.y))
            .collect(),
        routes: board
            .routes
            .iter()
            .map(|r| {
                (
                    r.from,
                    r.to,
                    r.length,
                    r.colour.map_or("grey", |c| c.name()),
                    r.twin.map_or(-1, |t| t as i64),
                )
            })
            .collect(),
        moves,
        states: all.iter().map(state_view).collect(),
        faults: record
            .faults
            .iter()
            .zip(record.fault_steps())
            .map(|(f, step)| (f.seat, step, f.kind.name(), f.message.as_str()))
            .collect(),
    };
    let console = super::console_moves::view(record, dir, &COLOUR[..record.seats.len()]);
    let frame = frame_of(record, &data);
    let names: Vec<String> = (0..record.seats.len())
        .map(|s| format!("{} ({})", record.seats[s].name, COLOUR[s]))
        .collect();
    frame::page(&GamePage {
        template: "ticket.html",
        title: format!(
            "{}, seed {} - Ticket to Ride",
            names.join(" vs "),
            record.seed
        ),
        frame: &frame,
        console: &console,
        data_id: "ticket",
        data: script_json(&data),
        css: &CSS,
        js: &JS,
    })
}

/// What the frame shows: each step's label, the faults, each seat's points from routes
/// and cards in hand as series, the result.
fn frame_of(record: &GameRecord, data: &PageData) -> Frame {
    let last = data.moves.len();
    let name = |s: usize| format!("{} ({})", record.seats[s].name, COLOUR[s]);
    let steps = (0..=last)
        .map(|n| Step {
            label: match n {
                0 => "Start".to_string(),
                n => {
                    let (seat, text) = &data.moves[n - 1];
                    format!("Move {n}/{last} · {} {text}", COLOUR[*seat])
                }
            },
            group: None,
        })
        .collect();
    let marks = data
        .faults
        .iter()
        .map(|&(seat, step, kind, _)| Mark {
            step,
            kind: "fault",
            text: format!("step {step}: fault of {} ({kind})", name(usize::from(seat))),
        })
        .collect();
    let series = |f: &dyn Fn(&SeatState) -> i64| -> Vec<Vec<i64>> {
        (0..record.seats.len())
            .map(|s| data.states.iter().map(|st| f(&st.seats[s])).collect())
            .collect()
    };
    let winners = record.ranking.winners();
    let result = match winners.as_slice() {
        [] => "No winner".to_string(),
        w => format!(
            "{} {} after {last} moves",
            w.iter().map(|&s| name(s)).collect::<Vec<_>>().join(" and "),
            if w.len() == 1 {
                "wins"
            } else {
                "share first place"
            }
        ),
    };
    let scores: Vec<String> = record
        .ranking
        .scores
        .iter()
        .enumerate()
        .map(|(s, p)| format!("{} {p}", COLOUR[s]))
        .collect();
    Frame {
        game: "ticket",
        seats: Seat::all_of(record, &COLOUR),
        steps,
        first: 0,
        group_name: "",
        groups: Vec::new(),
        marks,
        series: vec![
            Series {
                title: "points from routes".into(),
                values: series(&|s| s.points),
            },
            Series {
                title: "cards in hand".into(),
                values: series(&|s| s.hand.iter().map(|&n| i64::from(n)).sum()),
            },
        ],
        result: Some(format!("{result} (scores: {})", scores.join(", "))),
        footer: vec![
            "Ticket to Ride".into(),
            format!("board {}", record.options.get("board")),
            format!("seed {}", record.seed),
            format!("{last} moves"),
            super::sandbox_words::words(&record.sandbox),
        ],
        footer_after: Vec::new(),
    }
}
