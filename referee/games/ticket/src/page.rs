//! Ticket to Ride's replay page: one self-contained HTML file for a checked record, on the
//! frame every game shares ([`replay_view::frame`]), with the board drawn from the cities'
//! coordinates, the claimed routes in the seats' colours, the face-up cards, each seat's
//! hand and tickets (hidden or shown), the tickets completed, the longest paths, and the
//! console of each step. Every state is computed here by replaying the record with the
//! `ticket` crate (the rules that refereed it): the page's script holds no rule.

use crate::play::{how_it_ended, states};
use arena::GameRecord;
use replay_view::frame::{self, script_json, Frame, GamePage, Mark, Seat, Series, Step};
use replay_view::templates::Templates;
use serde::Serialize;
use std::path::Path;
use ticket::card::ALL;
use ticket::{connects, longest_path, End, TicketState};

const CSS: [&str; 1] = [include_str!("../assets/ticket.css")];
const JS: [&str; 1] = [include_str!("../assets/ticket.js")];
/// The page's template, which extends the frame's.
static PAGE: Templates = Templates::new(&[("ticket.html", include_str!("../assets/page.html"))]);
/// The seats' colours, in seat order (`Parts::marks`).
const COLOUR: [&str; 5] = ["Red", "Blue", "Green", "Yellow", "Black"];

/// What the page's script reads.
#[derive(Serialize)]
struct PageData<'a> {
    /// A game still being played (the server's live site): no seat's hand nor tickets
    /// are in the data, only their counts.
    hidden: bool,
    seats: Vec<&'a str>,
    cities: Vec<(String, i32, i32)>,
    /// `from to length colour twin` (`grey`; twin -1 for none).
    routes: Vec<(usize, usize, u8, &'static str, i64)>,
    /// `moves[i]` is move `i + 1`: its seat and text.
    moves: Vec<(usize, String)>,
    /// `states[n]`: after move `n`.
    states: Vec<StateView>,
    /// Each fault's seat, step, kind and message (escaped: `jail::untrusted::printable`).
    faults: Vec<(u8, usize, &'static str, std::borrow::Cow<'a, str>)>,
    /// How the last state ended (the result's words, not the script's).
    #[serde(skip)]
    end: Option<End>,
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
    /// Cards by colour, in colour order (empty when hidden).
    hand: Vec<u8>,
    /// Cards in hand.
    cards: u32,
    /// `from to points completed` (empty when hidden).
    tickets: Vec<(usize, usize, i64, bool)>,
    /// Tickets held.
    held: usize,
    wagons: u32,
    points: i64,
    longest: u32,
    out: bool,
}

fn state_view(state: &TicketState, hidden: bool) -> StateView {
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
                let hand: Vec<u8> = ALL.iter().map(|&c| v.count(c)).collect();
                let cards = hand.iter().map(|&n| u32::from(n)).sum();
                let held = v.tickets.len();
                let (hand, tickets) = match hidden {
                    true => (Vec::new(), Vec::new()),
                    false => (hand, v.tickets.clone()),
                };
                SeatState {
                    hand,
                    cards,
                    held,
                    tickets: tickets
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

/// The game's pages, given where it is registered: its replay page, and its live board on
/// the game server's site.
pub const PAGES: arena::model::Pages = arena::model::Pages {
    page: page_in,
    live: Some(live),
};

/// The replay page of `record` (checked first), the console's stderr read from `dir`.
pub fn page_in(record: &GameRecord, dir: Option<&Path>) -> anyhow::Result<String> {
    arena::check(&crate::wire::TicketWire, record)
        .map_err(|e| anyhow::anyhow!("this record was not written by a match: {e}"))?;
    let data = data_of(record, false)?;
    let console = replay_view::console_moves::view(record, dir, &COLOUR[..record.seats.len()]);
    let frame = frame_of(record, &data, false);
    frame::page(&game_page(record, &frame, &console, &data, false))
}

/// A game still being played (`record`: its record so far) as the site's `view` asks:
/// the replay page's board and panels, no seat's hand nor tickets, no seed (it deals every
/// hand, ticket and card of the pile), no console, no result ([`frame::live`]).
pub fn live(record: &GameRecord, view: frame::LiveView) -> anyhow::Result<String> {
    let data = data_of(record, true)?;
    let console = replay_view::console_moves::view(record, None, &[]);
    let frame = frame_of(record, &data, true);
    frame::live(&game_page(record, &frame, &console, &data, true), view)
}

fn game_page<'a>(
    record: &GameRecord,
    frame: &'a Frame,
    console: &'a replay_view::console_page::ConsoleView,
    data: &PageData,
    live: bool,
) -> GamePage<'a> {
    let names: Vec<String> = (0..record.seats.len())
        .map(|s| format!("{} ({})", record.seats[s].name, COLOUR[s]))
        .collect();
    let seed = match live {
        true => String::new(),
        false => format!(", seed {}", record.seed),
    };
    GamePage {
        templates: &PAGE,
        template: "ticket.html",
        title: format!("{}{seed} - Ticket to Ride", names.join(" vs ")),
        frame,
        console,
        data_id: "ticket",
        data: script_json(data),
        css: &CSS,
        js: &JS,
    }
}

/// The page's data of `record` (hands and tickets `hidden` or not).
fn data_of(record: &GameRecord, hidden: bool) -> anyhow::Result<PageData<'_>> {
    let all = states(record).map_err(anyhow::Error::msg)?;
    let board = all[0].board();
    let moves: Vec<(usize, String)> = record
        .moves()
        .map(|(seat, action)| (seat, action.to_string()))
        .collect();
    Ok(PageData {
        end: all.last().and_then(TicketState::end),
        hidden,
        seats: record.seats.iter().map(|s| s.name.as_str()).collect(),
        cities: board
            .cities
            .iter()
            .map(|c| (c.name.clone(), c.x, c.y))
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
        states: all.iter().map(|s| state_view(s, hidden)).collect(),
        faults: record
            .faults
            .iter()
            .zip(record.fault_steps())
            .map(|(f, step)| {
                let message = jail::untrusted::printable(&f.message);
                (f.seat, step, f.kind.name(), message)
            })
            .collect(),
    })
}

/// What the frame shows: each step's label, the faults, each seat's points from routes
/// and cards in hand as series, the result and the seed (neither while the game is `live`);
/// a game that ended by a rule that counts nothing (the ticket deck or the cards run out,
/// the players left) says so in its result: its scores are the routes' points.
fn frame_of(record: &GameRecord, data: &PageData, live: bool) -> Frame {
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
                values: series(&|s| i64::from(s.cards)),
            },
        ],
        result: (!live).then(|| {
            let scores = format!(
                "{result} (scores: {})",
                frame::scores_in_words(&COLOUR, &record.ranking.scores)
            );
            match data.end {
                // The usual end: the scores say it all.
                Some(End::Counted) | None => scores,
                end => format!(
                    "{scores}: {}",
                    how_it_ended(end, &|s| COLOUR[s].to_string())
                ),
            }
        }),
        footer: [
            Some("Ticket to Ride".into()),
            Some(format!("board {}", record.options.get("board"))),
            (!live).then(|| format!("seed {}", record.seed)),
            Some(format!("{last} moves")),
            Some(replay_view::sandbox_words::words(&record.sandbox)),
        ]
        .into_iter()
        .flatten()
        .collect(),
        footer_spoiler: Vec::new(),
        footer_after: Vec::new(),
    }
}
