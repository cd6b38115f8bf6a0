//! Little Town's replay page: one self-contained HTML file for a checked record of a
//! Little Town match, on the frame every game shares ([`replay_view::frame`]: the timeline, its
//! keys, the console of each seat's stderr and time, the charts, the result). Every state
//! is computed here by replaying the record with the `town` crate and embedded as JSON (no
//! rule lives in the page's script): the board (mines, buildings and their owners, workers
//! by colour), each seat's stock and gold, what the powers paid at a round's end, and who
//! is out; eliminations, faults and the powers' gold are marks on the timeline, each
//! seat's gold a chart's series.

use crate::play::{powers_paid, states};
use crate::wire::TownWire;
use arena::GameRecord;
use replay_view::frame::{self, script_json, Frame, Mark, Seat, Series, Step};
use replay_view::templates::Templates;
use serde::Serialize;
use std::path::Path;
use town::{Cell, Resource, TownState, Why, COLOURS};

const CSS: [&str; 1] = [include_str!("../assets/town.css")];
const JS: [&str; 1] = [include_str!("../assets/town.js")];
/// The page's template, which extends the frame's.
static PAGE: Templates = Templates::new(&[("town.html", include_str!("../assets/page.html"))]);

/// What the page's script reads (the `<script type="application/json">` element).
#[derive(Serialize)]
struct PageData<'a> {
    seats: Vec<&'a str>,
    colours: &'static [&'static str],
    width: u16,
    height: u16,
    /// `actions[i]` is action `i + 1`: its seat and text.
    actions: Vec<(u8, &'a str)>,
    /// `states[n]`: the match after `n` actions.
    states: Vec<StateView>,
}

/// One state: each position's content (-1 none, 0 free, 1-4 a mine of corn, fish, wood,
/// stone, 5-12 a farm, sawmill, pontoon, quarry, cathedral, castle, watchtower, market:
/// the `etat` line's codes), its building's
/// owner and its worker (-1 none); each seat's corn, fish, wood, stone, gold and status
/// (0 in, 1 eliminated, 2 excluded); the round; the gold the powers paid each seat at the
/// round's end this move brought (rule 22), empty if it brought none.
#[derive(Serialize)]
struct StateView {
    content: Vec<i8>,
    owner: Vec<i8>,
    worker: Vec<i8>,
    players: Vec<[u32; 6]>,
    round: u8,
    powers: Vec<u32>,
}

fn view(before: Option<&TownState>, state: &TownState) -> StateView {
    let grid = &state.rules().grid;
    let (mut content, mut owner, mut worker) = (Vec::new(), Vec::new(), Vec::new());
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let (c, o) = match state.cell((x, y)) {
                Some(Cell::Free) => (0, -1),
                Some(Cell::Mine(r)) => (1 + r as i8, -1),
                Some(Cell::Building { kind, owner }) => (5 + kind as i8, owner as i8),
                _ => (-1, -1),
            };
            content.push(c);
            owner.push(o);
            worker.push(state.worker((x, y)).map_or(-1, |w| w as i8));
        }
    }
    let players = state
        .players()
        .iter()
        .map(|p| {
            let s = |r| p.stock.get(r);
            let status = match p.out {
                None => 0,
                Some((_, Why::Eliminated)) => 1,
                Some((_, Why::Excluded)) => 2,
            };
            [
                s(Resource::Corn),
                s(Resource::Fish),
                s(Resource::Wood),
                s(Resource::Stone),
                s(Resource::Gold),
                status,
            ]
        })
        .collect();
    StateView {
        content,
        owner,
        worker,
        players,
        round: state.round(),
        powers: powers_paid(before, state).map_or_else(Vec::new, |(_, paid)| paid),
    }
}

/// The game's pages, given where it is registered: its replay page, and its live board on
/// the game server's site.
pub const PAGES: arena::model::Pages = arena::model::Pages {
    page: page_in,
    live: Some(live),
};

/// The replay page of `record`, its console showing the champions' stderr read from the
/// `seat<N>.stderr` files in `dir` (the record's directory). Fails when the record is not
/// one a match wrote ([`arena::check`]).
pub fn page_in(record: &GameRecord, dir: Option<&Path>) -> anyhow::Result<String> {
    arena::check(&TownWire, record)
        .map_err(|e| anyhow::anyhow!("this record was not written by a match: {e}"))?;
    made(record, dir, false, frame::page)
}

/// A game still being played (`record`: its record so far) as the site's `view` asks: the
/// replay page's board and panels, without the seed, the console and the result
/// ([`frame::live`]).
pub fn live(record: &GameRecord, view: frame::LiveView) -> anyhow::Result<String> {
    made(record, None, true, |page| frame::live(page, view))
}

/// The page of `record` (a game still `live` or not), made by `finish` from its parts.
fn made(
    record: &GameRecord,
    dir: Option<&Path>,
    live: bool,
    finish: impl FnOnce(&frame::GamePage) -> anyhow::Result<String>,
) -> anyhow::Result<String> {
    let all = states(record);
    let history: Vec<(u8, &str)> = record
        .moves()
        .map(|(seat, action)| (seat as u8, action))
        .collect();
    let grid = &all[0].rules().grid;
    let data = PageData {
        seats: record.seats.iter().map(|s| s.name.as_str()).collect(),
        colours: &COLOURS[..record.seats.len()],
        width: grid.width(),
        height: grid.height(),
        actions: history.clone(),
        states: (0..all.len())
            .map(|n| view(n.checked_sub(1).map(|b| &all[b]), &all[n]))
            .collect(),
    };
    // The CPU chart's dots take the workers' shapes: white a disc, orange a square, pink a
    // diamond, violet a triangle.
    let console = replay_view::console_moves::view(record, dir, &COLOURS[..record.seats.len()])
        .with_shapes(&["disc", "square", "diamond", "triangle"][..record.seats.len()]);
    let mut frame = town_frame(record, &all, &history);
    if live {
        frame = frame.while_played(record.seed);
    }
    let names: Vec<String> = record
        .seats
        .iter()
        .enumerate()
        .map(|(s, seat)| format!("{} ({})", seat.name, COLOURS[s]))
        .collect();
    let seed = match live {
        true => String::new(),
        false => format!(", seed {}", record.seed),
    };
    finish(&frame::GamePage {
        templates: &PAGE,
        template: "town.html",
        title: format!("{}{seed} - Little Town", names.join(" vs ")),
        frame: &frame,
        console: &console,
        data_id: "town",
        data: script_json(&data),
        css: &CSS,
        js: &JS,
    })
}

/// The frame of the page: each step's label (with its round), eliminations and faults as
/// marks, each seat's gold as the series (dashed from the fault that stopped it), the
/// result.
fn town_frame(record: &GameRecord, all: &[TownState], history: &[(u8, &str)]) -> Frame {
    let last = history.len();
    let seat_name = |s: usize| format!("{} ({})", record.seats[s].name, COLOURS[s]);
    let steps = (0..=last)
        .map(|n| {
            let round = all[n].round();
            let label = match n {
                0 => "Start".to_string(),
                n => format!(
                    "Move {n}/{last} · round {round} · {} {}",
                    COLOURS[usize::from(history[n - 1].0)],
                    history[n - 1].1
                ),
            };
            Step { label, group: None }
        })
        .collect();
    let mut marks = Vec::new();
    for n in 1..=last {
        for (s, p) in all[n].players().iter().enumerate() {
            let was_out = all[n - 1].players()[s].out.is_some();
            if let (Some((_, Why::Eliminated)), false) = (p.out, was_out) {
                marks.push(Mark {
                    step: n,
                    kind: "note",
                    text: format!(
                        "step {n}: {} eliminated (could not pay its workers' upkeep)",
                        seat_name(s)
                    ),
                });
            }
        }
    }
    for n in 1..=last {
        if let Some((round, paid)) = powers_paid(Some(&all[n - 1]), &all[n]) {
            let gains: Vec<String> = (0..paid.len())
                .filter(|&s| paid[s] > 0)
                .map(|s| format!("{} {} gold", seat_name(s), paid[s]))
                .collect();
            marks.push(Mark {
                step: n,
                kind: "note",
                text: format!(
                    "step {n}: round {round} ends, the powers pay {}",
                    match gains.is_empty() {
                        true => "no one".to_string(),
                        false => gains.join(", "),
                    }
                ),
            });
        }
    }
    for (f, step) in record.faults.iter().zip(record.fault_steps()) {
        marks.push(Mark {
            step,
            kind: "fault",
            text: format!(
                "step {step}: fault of {} ({}), excluded",
                seat_name(usize::from(f.seat)),
                f.kind.name()
            ),
        });
    }
    let gold = (0..record.seats.len())
        .map(|s| {
            all.iter()
                .map(|st| i64::from(st.players()[s].stock.get(Resource::Gold)))
                .collect()
        })
        .collect();
    let winners = record.ranking.winners();
    let names: Vec<String> = winners.iter().map(|&w| seat_name(w)).collect();
    let result = format!(
        "{} after {last} moves (scores: {}: each seat's gold, 0 for a seat out)",
        match names.len() {
            1 => format!("{} wins", names[0]),
            _ => format!("{} tie first", names.join(" and ")),
        },
        frame::scores_in_words(&COLOURS, &record.ranking.scores)
    );
    Frame {
        game: "little-town",
        seats: Seat::all_of(record, &COLOURS)
            .into_iter()
            .enumerate()
            .map(|(s, seat)| Seat {
                stopped_at: record
                    .faults
                    .iter()
                    .zip(record.fault_steps())
                    .find(|(f, _)| usize::from(f.seat) == s)
                    .map(|(_, step)| step),
                ..seat
            })
            .collect(),
        steps,
        first: 0,
        group_name: "",
        groups: Vec::new(),
        marks,
        series: vec![Series {
            title: "gold: each player's gold after each move".into(),
            values: gold,
        }],
        result: Some(result),
        footer: vec![
            "Little Town".into(),
            format!("seed {}", record.seed),
            format!("board {}", record.options.get("board")),
            format!("{last} moves"),
            replay_view::sandbox_words::words(&record.sandbox),
        ],
        footer_spoiler: Vec::new(),
        footer_after: Vec::new(),
    }
}
