//! The Game of the Amazons' replay page: one self-contained HTML file for a checked
//! record of an Amazons match (its CSS and JavaScript inlined: no network,
//! works from `file://`), every board computed here by replaying the moves with the
//! `amazons` crate.
//!
//! The boards are computed in Rust and embedded as JSON rather than replayed in JavaScript:
//! the rules then live in one place (the `amazons` crate, the same code that refereed the
//! match and that `show` uses), the page holds no rule (as the 2009 viewer), and a record
//! whose moves do not replay gets no page at all. The cost is small: at most 93 boards of
//! 100 characters.
//!
//! The page is the frame every game shares ([`replay_view::frame`]: the timeline and its
//! keys, the console of each seat's stderr and time, its data from
//! [`replay_view::console_moves`], the charts, the result; what it shows of the match is
//! [`crate::page_frame`]'s) with the Amazons' board and panels (this crate's `assets/`).

use crate::page_frame;
use amazons::{Board, Cell, Color, Move, Square};
use arena::GameRecord;
use replay_view::frame::{self, script_json, GamePage};
use replay_view::templates::Templates;
use serde::Serialize;
use std::path::Path;

const CSS: [&str; 1] = [include_str!("../assets/amazons.css")];
const JS: [&str; 1] = [include_str!("../assets/amazons.js")];
/// The page's template, which extends the frame's.
static PAGE: Templates = Templates::new(&[("amazons.html", include_str!("../assets/page.html"))]);

/// What the page's script reads (the `<script type="application/json">` element).
#[derive(Serialize)]
pub(crate) struct PageData<'a> {
    /// None while the game is played (the site's live board).
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    /// Seat 0 plays White, seat 1 Black.
    seats: Vec<SeatView<'a>>,
    /// `moves[i]` is move `i + 1`, as the record writes it (`d1-d7/g7`).
    pub(crate) moves: Vec<&'a str>,
    /// The squares of each move, as indices `row * 10 + column`: from, to, arrow.
    marks: Vec<[usize; 3]>,
    /// `boards[n]`: the board after move `n` (0: the start), one character per square in
    /// index order: `W`, `B` amazons, `x` arrows, `.` empty.
    boards: Vec<String>,
    pub(crate) isolated_after: Option<usize>,
    /// Whether the player to move after the last move cannot move (the game's end).
    pub(crate) stuck: bool,
    pub(crate) winner: Option<u8>,
    pub(crate) faults: Vec<FaultView<'a>>,
    sandbox: &'a str,
}

#[derive(Serialize)]
struct SeatView<'a> {
    name: &'a str,
    path: &'a str,
}

#[derive(Serialize)]
pub(crate) struct FaultView<'a> {
    pub(crate) seat: u8,
    /// The moves played when it happened: the page's step.
    pub(crate) step: usize,
    pub(crate) kind: &'static str,
    /// Escaped as every view shows a champion's text (`jail::untrusted::printable`).
    message: std::borrow::Cow<'a, str>,
}

/// The board as the page's string: one character per square, `a1`, `b1`, .. `j10`.
pub fn board_cells(board: &Board) -> String {
    Square::all()
        .map(|s| match board.cell(s) {
            Cell::Empty => '.',
            Cell::Amazon(Color::White) => 'W',
            Cell::Amazon(Color::Black) => 'B',
            Cell::Arrow => 'x',
        })
        .collect()
}

/// The game's pages, given where it is registered: its replay page, and its live board on
/// the game server's site.
pub const PAGES: arena::model::Pages = arena::model::Pages {
    page: page_in,
    live: Some(live),
};

/// The replay page of `record`: one HTML file that shows the match move by move. Fails
/// when the record is not one a match wrote ([`arena::check`]). Its console shows
/// no stderr (the files beside the record are not given: see [`page_in`]), only each
/// callback's time.
pub fn page(record: &GameRecord) -> anyhow::Result<String> {
    page_in(record, None)
}

/// The replay page of `record`, its console showing the champions' stderr read from the
/// `seat<N>.stderr` files in `dir` (the record's directory).
pub fn page_in(record: &GameRecord, dir: Option<&Path>) -> anyhow::Result<String> {
    // The page shows only what a match could have written.
    arena::check(&crate::wire::AmazonsWire, record)
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
    finish: impl FnOnce(&GamePage) -> anyhow::Result<String>,
) -> anyhow::Result<String> {
    let all = crate::wire::boards(record);
    let board = all.last().expect("the start at least").clone();
    let boards = &all;
    let moves: Vec<&str> = record.actions().collect();
    let marks = moves
        .iter()
        .filter_map(|text| text.parse::<Move>().ok())
        .map(|m| [m.from.index(), m.to.index(), m.arrow.index()])
        .collect();
    let isolated_after = boards.iter().position(Board::isolated);
    let boards = boards.iter().map(board_cells).collect();
    let winners = record.ranking.winners();
    let data = PageData {
        seed: (!live).then_some(record.seed),
        seats: record
            .seats
            .iter()
            .map(|s| SeatView {
                name: &s.name,
                path: &s.path,
            })
            .collect(),
        moves,
        marks,
        boards,
        isolated_after,
        stuck: !board.can_move(),
        winner: match winners.as_slice() {
            [w] => Some(*w as u8),
            _ => None,
        },
        faults: record
            .faults
            .iter()
            .zip(record.fault_steps())
            .map(|(f, step)| FaultView {
                seat: f.seat,
                step,
                kind: f.kind.name(),
                message: jail::untrusted::printable(&f.message),
            })
            .collect(),
        sandbox: &record.sandbox,
    };
    // The CPU chart's dots take the board's shapes: White a disc, Black a square.
    let console = replay_view::console_moves::view(record, dir, &["White", "Black"])
        .with_shapes(&["disc", "square"]);
    let mut frame = page_frame::frame(record, &data, &all);
    if live {
        frame = frame.while_played(record.seed);
    }
    let seed = match live {
        true => String::new(),
        false => format!(", seed {}", record.seed),
    };
    finish(&GamePage {
        templates: &PAGE,
        template: "amazons.html",
        title: format!(
            "{} (White) vs {} (Black){seed} - Game of the Amazons",
            record.seats[0].name, record.seats[1].name
        ),
        frame: &frame,
        console: &console,
        data_id: "amazons",
        data: script_json(&data),
        css: &CSS,
        js: &JS,
    })
}
