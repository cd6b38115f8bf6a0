//! `champions/<name>.html`: one champion's leaderboard row, its faults (each linked to the
//! faulty step of the replay), its pre-run check's stderr, and every match it played, with
//! its seat, place, score, points, opponents and its own stderr file.

use super::pages::{self, text, From};
use super::tables::Table;
use super::Entry;
use crate::games::Game;
use std::collections::HashMap;

/// What a champion's page shows.
pub struct Champion<'a> {
    pub name: &'a str,
    pub tournament: &'a str,
    pub game: &'a dyn Game,
    pub leaderboard: Option<&'a Table>,
    pub entries: &'a [Entry<'a>],
    /// Each champion's page, from the tournament directory.
    pub pages: &'a HashMap<String, String>,
    /// Its pre-run check's stderr, from the tournament directory.
    pub check: Option<&'a str>,
}

/// The whole page.
pub fn render(c: &Champion) -> String {
    let here = From { prefix: "../" };
    let mut body = format!(
        "<header><p class=\"src\"><a id=\"back\" href=\"../index.html\">&#x2191; tournament {}</a> \
         &middot; {}</p>\n<h1>{}</h1></header>\n",
        text(c.tournament),
        text(c.game.title()),
        text(c.name)
    );
    if let Some(t) = c.leaderboard {
        let mine = t
            .rows
            .iter()
            .filter(|r| t.cell(r, "champion") == c.name)
            .cloned()
            .collect();
        let row = Table {
            header: t.header.clone(),
            rows: mine,
        };
        body.push_str("<section><h2>Leaderboard</h2>\n");
        body.push_str(&pages::csv_table("summary", &row, &|_| None));
        body.push_str("</section>\n");
    }
    let played: Vec<(&Entry, usize)> = c
        .entries
        .iter()
        .filter_map(|e| Some((e, e.m.seats.iter().position(|s| s.champion == c.name)?)))
        .collect();
    faults(&mut body, &here, &played);
    body.push_str("<section><h2>stderr</h2>\n<p>");
    match c.check {
        Some(check) => body.push_str(&format!(
            "The pre-run check (<code>init_game</code>): <a id=\"check\" href=\"../{}\">its stderr</a>. ",
            pages::text(check)
        )),
        None => body.push_str("The pre-run check's stderr is in the tournament's <code>check/</code> folder. "),
    }
    body.push_str("Each match's is linked on its row below (<code>stderr N</code>, N its seat).</p></section>\n");
    body.push_str(&format!(
        "<section><h2 id=\"matches-h\">Matches ({})</h2>\n{}",
        played.len(),
        pages::filter_tools("Opponent")
    ));
    body.push_str(
        "<table id=\"matches\" class=\"sortable matches\">\n<thead><tr><th data-sort=\"no\">replay</th>\
         <th data-type=\"n\">id</th><th data-type=\"n\">seat</th><th data-type=\"n\">place</th>\
         <th data-type=\"n\">score</th><th data-type=\"n\">points</th><th>fault</th><th>opponents</th>\
         <th data-type=\"n\">ms</th><th data-sort=\"no\">files</th></tr></thead>\n<tbody>\n",
    );
    for (e, seat) in &played {
        let m = e.m;
        let others: Vec<&str> = m
            .seats
            .iter()
            .enumerate()
            .filter(|(s, _)| s != seat)
            .map(|(_, s)| s.champion.as_str())
            .collect();
        let mine = &m.seats[*seat];
        body.push_str(&format!("<tr {}>", pages::row_attributes(m, &others)));
        body.push_str(&here.replay_cell(e));
        body.push_str(&here.id_cell(m));
        body.push_str(&format!(
            "<td class=\"n\">{seat}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td>",
            m.place(*seat).map_or_else(String::new, |p| p.to_string()),
            text(&mine.score),
            text(&mine.points),
            here.faults(e, &[*seat]),
        ));
        let links: Vec<String> = m
            .seats
            .iter()
            .enumerate()
            .filter(|(s, _)| s != seat)
            .map(|(s, o)| {
                format!(
                    "{} ({s})",
                    here.champion(&o.champion, c.pages.get(&o.champion))
                )
            })
            .collect();
        body.push_str(&links.join(", "));
        body.push_str(&format!(
            "</td><td class=\"n\">{}</td><td>{}</td></tr>\n",
            text(&m.duration_ms),
            here.files(e, &[*seat])
        ));
    }
    body.push_str("</tbody></table></section>\n");
    pages::page(
        "champion",
        &text(&format!("{} - tournament {}", c.name, c.tournament)),
        &body,
    )
}

/// The champion's faults, each linked to the step of the replay where it happened.
fn faults(body: &mut String, here: &From, played: &[(&Entry, usize)]) {
    let faulty: Vec<&(&Entry, usize)> = played
        .iter()
        .filter(|(e, s)| !e.m.seats[*s].fault.is_empty())
        .collect();
    body.push_str(&format!(
        "<section><h2 id=\"faults-h\">Faults ({})</h2>\n",
        faulty.len()
    ));
    if faulty.is_empty() {
        body.push_str("<p class=\"src\">None.</p></section>\n");
        return;
    }
    body.push_str("<ul id=\"faults\">\n");
    for (e, seat) in faulty {
        let message = e
            .faults
            .iter()
            .find(|f| usize::from(f.seat) == *seat)
            .map_or_else(String::new, |f| format!(": {}", text(&f.message)));
        body.push_str(&format!(
            "<li>match {}: {}{message}</li>\n",
            e.m.id,
            here.faults(e, &[*seat])
        ));
    }
    body.push_str("</ul></section>\n");
}
