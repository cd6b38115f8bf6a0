//! The HTML views: a match's self-contained replay page (the timeline as JSON inside
//! `assets/viewer.html`, with its CSS and JavaScript inlined: no network, no build step,
//! works from `file://`; the console of the champions' stderr and time beside it, as JSON
//! drawn by `assets/console.js`) and a tournament's `index.html` (its CSV tables, with a link to
//! every match's replay).

use super::console::Console;
use super::console_page::ConsoleView;
use super::Timeline;
use crate::record::MatchRecord;
use anyhow::Context;
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
    let json = crate::untrusted::escape_json(
        &serde_json::to_string(timeline).expect("timelines serialise"),
        true,
    );
    let console_json = crate::untrusted::escape_json(
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

/// A CSV file's header and rows.
type CsvTable = (Vec<String>, Vec<Vec<String>>);

/// A CSV file as a header and rows, `None` when the file does not exist.
fn read_csv(path: &Path) -> anyhow::Result<Option<CsvTable>> {
    if !path.exists() {
        return Ok(None);
    }
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    let header = reader
        .headers()
        .with_context(|| format!("{} has no header row", path.display()))?
        .iter()
        .map(str::to_string)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.map(|r| r.iter().map(str::to_string).collect()))
        .collect::<Result<_, _>>()
        .with_context(|| format!("{} is not valid CSV", path.display()))?;
    Ok(Some((header, rows)))
}

/// The match directory (relative to the tournament directory) a `matches.csv` row points
/// to: the first field naming `matches/<field>/` or a path to a record or its directory,
/// inside `dir` (no `..`, not absolute: the index writes the replay there).
fn match_dir_of(dir: &Path, row: &[String]) -> Option<String> {
    row.iter().find_map(|field| {
        let field = field.trim();
        if field.is_empty() || field.contains("..") || field.starts_with('/') {
            return None;
        }
        let field = field.strip_suffix("record.json").unwrap_or(field);
        let field = field.trim_end_matches('/');
        [format!("matches/{field}"), field.to_string()]
            .into_iter()
            .find(|candidate| dir.join(candidate).join("record.json").is_file())
    })
}

/// The pairwise results as a matrix: row champion against column opponent, "ahead-behind"
/// with ties after a slash when there are any; `None` if the columns are not there.
fn pairwise_matrix(header: &[String], rows: &[Vec<String>]) -> Option<String> {
    let column = |name: &str| header.iter().position(|h| h == name);
    let (c, o, ahead, tied, behind) = (
        column("champion")?,
        column("opponent")?,
        column("ahead")?,
        column("tied")?,
        column("behind")?,
    );
    let mut names: Vec<&str> = Vec::new();
    for row in rows {
        if !names.contains(&row[c].as_str()) {
            names.push(&row[c]);
        }
    }
    let mut out = String::from(
        "<p class=\"src\">Row against column: matches the row champion finished ahead-behind \
         (/tied)</p>\n<table id=\"pairwise-matrix\">\n<thead><tr><th></th>",
    );
    for name in &names {
        out.push_str(&format!("<th>{}</th>", escape(name)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row_name in &names {
        out.push_str(&format!("<tr><th>{}</th>", escape(row_name)));
        for col_name in &names {
            let cell = rows.iter().find(|r| r[c] == *row_name && r[o] == *col_name);
            let text = match cell {
                Some(r) if r[tied] != "0" => format!("{}-{}/{}", r[ahead], r[behind], r[tied]),
                Some(r) => format!("{}-{}", r[ahead], r[behind]),
                None => String::new(),
            };
            out.push_str(&format!("<td class=\"n\">{}</td>", escape(&text)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    Some(out)
}

/// Write `index.html` in the tournament directory `dir`: the leaderboard, the pairwise table
/// and every match of `leaderboard.csv`, `seats.csv`, `pairwise.csv` and `matches.csv` (columns as their
/// header rows say), each match linked to its `replay.html`, which is written from its
/// `record.json` when missing.
pub fn tournament_index(dir: &Path, game: &dyn crate::games::Game) -> anyhow::Result<()> {
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "tournament".into());
    let mut body = format!("<h1>Tournament {}</h1>\n", escape(&name));
    let mut found = false;
    for (file, title) in [
        ("leaderboard.csv", "Leaderboard"),
        ("seats.csv", "Points by seat"),
        ("pairwise.csv", "Pairwise results"),
        ("matches.csv", "Matches"),
    ] {
        let Some((header, rows)) = read_csv(&dir.join(file))? else {
            continue;
        };
        found = true;
        let is_matches = file == "matches.csv";
        body.push_str(&format!(
            "<h2>{title}</h2>\n<p class=\"src\"><a href=\"{file}\">{file}</a>, {} rows</p>\n",
            rows.len()
        ));
        if file == "leaderboard.csv" && header.iter().any(|h| h == "p_ahead_of_next") {
            body.push_str(LEADERBOARD_NOTE);
        }
        if file == "pairwise.csv" {
            body.push_str(&pairwise_matrix(&header, &rows).unwrap_or_default());
        }
        body.push_str(&format!(
            "<table id=\"{}\">\n<thead><tr>",
            file.trim_end_matches(".csv")
        ));
        for h in &header {
            body.push_str(&format!("<th>{}</th>", escape(h)));
        }
        if is_matches {
            body.push_str("<th>replay</th>");
        }
        body.push_str("</tr></thead>\n<tbody>\n");
        for row in &rows {
            body.push_str("<tr>");
            for field in row {
                let class = if field.parse::<f64>().is_ok() {
                    " class=\"n\""
                } else {
                    ""
                };
                body.push_str(&format!("<td{class}>{}</td>", escape(field)));
            }
            if is_matches {
                match match_dir_of(dir, row) {
                    Some(m) => {
                        let replay = dir.join(&m).join("replay.html");
                        if !replay.exists() {
                            let page = game
                                .replay_page(&dir.join(&m))
                                .with_context(|| format!("cannot make the replay of {m}"))?;
                            std::fs::write(&replay, page)
                                .with_context(|| format!("cannot write {}", replay.display()))?;
                        }
                        let href = escape(&format!("{m}/replay.html"));
                        body.push_str(&format!("<td><a href=\"{href}\">replay</a></td>"));
                    }
                    None => body.push_str("<td>-</td>"),
                }
            }
            body.push_str("</tr>\n");
        }
        body.push_str("</tbody></table>\n");
    }
    anyhow::ensure!(
        found,
        "{} holds none of leaderboard.csv, pairwise.csv, matches.csv",
        dir.display()
    );
    let page = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>{} - {}</title>\n<style>{INDEX_CSS}</style></head>\n<body>\n{body}</body></html>\n",
        escape(&name),
        escape(game.title())
    );
    let path = dir.join("index.html");
    std::fs::write(&path, page).with_context(|| format!("cannot write {}", path.display()))
}

/// What the leaderboard's columns of `confidence.rs` mean (docs/results.md says more).
const LEADERBOARD_NOTE: &str = "<p class=\"src\">Ranked by the official points. \
<code>mean_points</code> is points per match, with its 95% bootstrap interval \
<code>mean_points_low</code> to <code>mean_points_high</code>; <code>p_ahead_of_next</code> \
is the share of the 1000 resamples in which this champion has more points per match than \
the next one; <code>rating</code> &plusmn; <code>rating_sigma</code> is its Weng-Lin rating, \
for information.</p>\n";

const INDEX_CSS: &str =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;background:#fafafa}\
table{border-collapse:collapse;margin-bottom:2em;background:#fff}\
th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}\
th{background:#eee;position:sticky;top:0}td.n{text-align:right;font-variant-numeric:tabular-nums}\
tbody tr:nth-child(even){background:#f6f6f6}.src{color:#777;margin-top:-.5em}";
