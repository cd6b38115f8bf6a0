//! `index.html`: the leaderboard first (each champion linked to its page), the pairwise
//! matrix, the points by seat, then every match in a sortable, filterable list whose rows
//! start with the replay link.

use super::pages::{self, text, From};
use super::tables::Table;
use super::Entry;
use crate::games::Game;
use std::collections::HashMap;

/// What the index shows.
pub struct Index<'a> {
    pub title: &'a str,
    pub game: &'a dyn Game,
    pub leaderboard: Option<&'a Table>,
    pub pairwise: Option<&'a Table>,
    pub seats: Option<&'a Table>,
    pub entries: &'a [Entry<'a>],
    /// Each champion's page, from the tournament directory.
    pub pages: &'a HashMap<String, String>,
}

/// What the leaderboard's columns of `confidence.rs` mean (docs/results.md says more).
const LEADERBOARD_NOTE: &str = "<p class=\"src\">Ranked by the official points. \
<code>mean_points</code> is points per match, with its 95% bootstrap interval \
<code>mean_points_low</code> to <code>mean_points_high</code>; <code>p_ahead_of_next</code> \
is the share of the 1000 resamples in which this champion has more points per match than \
the next one; <code>rating</code> &plusmn; <code>rating_sigma</code> is its Weng-Lin rating, \
for information.</p>\n";

/// The whole page.
pub fn render(index: &Index) -> String {
    let here = From { prefix: "" };
    let seats = index
        .entries
        .first()
        .map_or(index.game.seats(), |e| e.m.seats.len());
    let champion = |name: &str| index.pages.get(name).cloned();
    let mut body = format!(
        "<header><h1>Tournament {}</h1>\n<p class=\"src\">{} &middot; {} matches &middot; {} \
         champions &middot; files: {}</p>\n<nav class=\"toc\"><a href=\"#leaderboard-h\">Leaderboard</a> \
         <a href=\"#pairwise-h\">Pairwise</a> <a href=\"#seats-h\">Seats</a> <a \
         href=\"#matches-h\">Matches</a></nav></header>\n",
        text(index.title),
        text(index.game.title()),
        index.entries.len(),
        index.pages.len(),
        ["matches.csv", "leaderboard.csv", "pairwise.csv", "seats.csv"]
            .map(|f| format!("<a href=\"{f}\">{f}</a>"))
            .join(" ")
    );
    if let Some(t) = index.leaderboard {
        body.push_str("<section><h2 id=\"leaderboard-h\">Leaderboard</h2>\n");
        if t.column("p_ahead_of_next").is_some() {
            body.push_str(LEADERBOARD_NOTE);
        }
        body.push_str(&pages::csv_table("leaderboard", t, &champion));
        body.push_str("</section>\n");
    }
    body.push_str("<div class=\"side-by-side\">\n");
    if let Some(t) = index.pairwise {
        body.push_str("<section><h2 id=\"pairwise-h\">Pairwise results</h2>\n");
        match pages::pairwise_matrix(t) {
            Some(matrix) => body.push_str(&matrix),
            None => body.push_str(&pages::csv_table("pairwise", t, &champion)),
        }
        body.push_str("</section>\n");
    }
    if let Some(t) = index.seats {
        body.push_str("<section><h2 id=\"seats-h\">Points by seat</h2>\n");
        body.push_str(&pages::csv_table("seats", t, &|_| None));
        body.push_str("</section>\n");
    }
    body.push_str("</div>\n");
    body.push_str(&format!(
        "<section><h2 id=\"matches-h\">Matches</h2>\n{}",
        pages::filter_tools("Champion")
    ));
    body.push_str("<table id=\"matches\" class=\"sortable matches\">\n<thead><tr>");
    body.push_str("<th data-sort=\"no\">replay</th><th data-type=\"n\">id</th>");
    for s in 0..seats {
        body.push_str(&format!("<th>champion{s}</th>"));
    }
    for what in ["score", "points"] {
        for s in 0..seats {
            body.push_str(&format!("<th data-type=\"n\">{what}{s}</th>"));
        }
    }
    body.push_str("<th>faults</th><th data-type=\"n\">ms</th><th data-sort=\"no\">files</th></tr></thead>\n<tbody>\n");
    let all: Vec<usize> = (0..seats).collect();
    for e in index.entries {
        let m = e.m;
        let names: Vec<&str> = m.seats.iter().map(|s| s.champion.as_str()).collect();
        body.push_str(&format!("<tr {}>", pages::row_attributes(m, &names)));
        body.push_str(&here.replay_cell(e));
        body.push_str(&here.id_cell(m));
        for s in &m.seats {
            body.push_str(&format!(
                "<td>{}</td>",
                here.champion(&s.champion, index.pages.get(&s.champion))
            ));
        }
        for s in &m.seats {
            body.push_str(&format!("<td class=\"n\">{}</td>", text(&s.score)));
        }
        for s in &m.seats {
            body.push_str(&format!("<td class=\"n\">{}</td>", text(&s.points)));
        }
        body.push_str(&format!(
            "<td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>\n",
            here.faults(e, &all),
            text(&m.duration_ms),
            here.files(e, &all)
        ));
    }
    body.push_str("</tbody></table></section>\n");
    pages::page(
        "index",
        &text(&format!("{} - {}", index.title, index.game.title())),
        &body,
    )
}
