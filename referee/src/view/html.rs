//! La loi du plus riche's replay page: the frame ([`super::frame`]) with the 2009 board and
//! panels (`assets/loi/`), the timeline as JSON, the console of the champions' stderr and
//! time beside it. One self-contained file: no network, no build step, works from
//! `file://`. A tournament's `index.html` is [`super::index`]'s.

use super::console::Console;
use super::console_page::ConsoleView;
use super::frame::{page, script_json, GamePage};
use super::Timeline;
use crate::record::MatchRecord;
use std::path::Path;

const CSS: [&str; 1] = [include_str!("assets/loi/loi.css")];
/// The board's script, in parts: the core first (the timeline, the palette, the board's
/// cells), the layout last.
const JS: [&str; 5] = [
    include_str!("assets/loi/loi.js"),
    include_str!("assets/loi/board.js"),
    include_str!("assets/loi/panel.js"),
    include_str!("assets/loi/present.js"),
    include_str!("assets/loi/layout.js"),
];

/// The replay page of `record`: one HTML file that shows the match step by step. Its
/// console shows no stderr (the files beside the record are not given: see
/// [`replay_page_in`]), only each callback's time.
pub fn replay_page(record: &MatchRecord) -> anyhow::Result<String> {
    replay_page_in(record, None)
}

/// The replay page of `record`, its console showing the champions' stderr read from the
/// `seat<N>.stderr` files in `dir` (the record's directory), and refused actions with their
/// arguments when the match's full log is there.
pub fn replay_page_in(record: &MatchRecord, dir: Option<&Path>) -> anyhow::Result<String> {
    let timeline = Timeline::build_in(record, dir)?;
    let console = super::console::page_view(&Console::load(record, dir), &timeline);
    timeline_page(&timeline, &console)
}

/// The replay page of an already built timeline and its console (whatever record they
/// come from: [`super::loi_arena`] builds them from the one record of every game).
pub(super) fn timeline_page(timeline: &Timeline, console: &ConsoleView) -> anyhow::Result<String> {
    timeline_made(timeline, console, page)
}

/// The page of `timeline` and its console, made by `finish` from its parts (the replay
/// page, or a game still being played: [`super::frame::live`]).
pub(super) fn timeline_made(
    timeline: &Timeline,
    console: &ConsoleView,
    finish: impl FnOnce(&GamePage) -> anyhow::Result<String>,
) -> anyhow::Result<String> {
    let names: Vec<&str> = timeline.seats.iter().map(|s| s.name.as_str()).collect();
    let seed = match timeline.seed.as_str() {
        "" => String::new(),
        seed => format!(" (seed {seed})"),
    };
    finish(&GamePage {
        templates: &super::templates::PAGES,
        template: "loi.html",
        title: format!("{}{seed} - La loi du plus riche", names.join(" vs ")),
        frame: &super::loi_frame::frame(timeline),
        console,
        data_id: "timeline",
        data: script_json(timeline),
        css: &CSS,
        js: &JS,
    })
}
