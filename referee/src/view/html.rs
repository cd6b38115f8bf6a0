//! The HTML views: a match's self-contained replay page (the timeline as JSON inside
//! `assets/viewer.html`, with its CSS and JavaScript inlined: no network, no build step,
//! works from `file://`; the console of the champions' stderr and time beside it, as JSON
//! drawn by `assets/console.js`). A tournament's `index.html` is [`super::index`]'s.

use super::console::Console;
use super::console_page::ConsoleView;
use super::Timeline;
use crate::record::MatchRecord;
use std::path::Path;

const TEMPLATE: &str = include_str!("assets/viewer.html");
const CSS: &str = include_str!("assets/viewer.css");
/// The viewer's script, in parts: the core first (it defines `viewer`), the start last.
const JS: [&str; 6] = [
    include_str!("assets/viewer.js"),
    include_str!("assets/viewer_board.js"),
    include_str!("assets/viewer_panel.js"),
    include_str!("assets/viewer_chart.js"),
    include_str!("assets/viewer_present.js"),
    include_str!("assets/viewer_start.js"),
];
const CONSOLE_CSS: &str = include_str!("assets/console.css");
const CONSOLE_JS: &str = include_str!("assets/console.js");

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
    let console = ConsoleView::of(&Console::load(record, dir), &timeline);
    Ok(timeline_page(&timeline, &console))
}

/// The replay page of an already built timeline and its console.
fn timeline_page(timeline: &Timeline, console: &ConsoleView) -> String {
    // No `<` at all inside the <script> element: neither `</script>` nor `<!--` (which
    // switches the HTML tokenizer to its "script data escaped" state, where a later
    // `<script>` keeps the element open past its end) can come from a champion's text.
    let json = jail::untrusted::escape_json(
        &serde_json::to_string(timeline).expect("timelines serialise"),
        true,
    );
    let console_json = jail::untrusted::escape_json(
        &serde_json::to_string(console).expect("consoles serialise"),
        true,
    );
    let css = format!("{CSS}{CONSOLE_CSS}");
    let js = JS.concat();
    let names: Vec<String> = timeline.seats.iter().map(|s| s.name.clone()).collect();
    let title = escape(&format!(
        "{} (seed {}) - La loi du plus riche",
        names.join(" vs "),
        timeline.seed
    ));
    fill(
        TEMPLATE,
        &[
            ("__TITLE__", &title),
            ("/*VIEWER_CSS*/", &css),
            ("/*VIEWER_JS*/", &js),
            ("__TIMELINE_JSON__", &json),
            ("/*CONSOLE_JS*/", CONSOLE_JS),
            ("__CONSOLE_JSON__", &console_json),
        ],
    )
}

/// Replace each marker of `template` once, in a single pass (a value may contain a marker).
pub(super) fn fill(template: &str, markers: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + markers.iter().map(|m| m.1.len()).sum::<usize>());
    let mut rest = template;
    loop {
        let next = markers
            .iter()
            .filter_map(|(m, v)| rest.find(m).map(|i| (i, *m, *v)))
            .min_by_key(|(i, _, _)| *i);
        match next {
            Some((i, marker, value)) => {
                out.push_str(&rest[..i]);
                out.push_str(value);
                rest = &rest[i + marker.len()..];
            }
            None => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// Escape text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
