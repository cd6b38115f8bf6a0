//! `index.html`: the leaderboard first (each champion linked to its page), the pairwise
//! matrix, the points by seat, then every match in a sortable, filterable list whose rows
//! start with the replay link (`assets/index/index.html`).

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

/// The whole page.
pub fn render(index: &Index) -> anyhow::Result<String> {
    let here = From { prefix: "" };
    let seats = index
        .entries
        .first()
        .map_or(index.game.seats(), |e| e.m.seats.len());
    let champion = |name: &str| index.pages.get(name).cloned();
    let rows: Vec<pages::Row> = index
        .entries
        .iter()
        .map(|e| {
            let names: Vec<&str> = e.m.seats.iter().map(|s| s.champion.as_str()).collect();
            let all: Vec<usize> = (0..e.m.seats.len()).collect();
            let champions =
                e.m.seats
                    .iter()
                    .enumerate()
                    .map(|(s, seat)| here.champion(e.m, index.pages.get(&seat.champion), s))
                    .collect();
            here.row(e, &all, &names, champions)
        })
        .collect();
    let pairwise = index.pairwise;
    pages::page(
        "index/index.html",
        "index",
        &format!("{} - {}", index.title, index.game.title()),
        minijinja::context! {
            tournament => text(index.title),
            game => index.game.title(),
            matches => index.entries.len(),
            champions => index.pages.len(),
            files => ["matches.csv", "leaderboard.csv", "pairwise.csv", "seats.csv"],
            leaderboard => index.leaderboard.map(|t| pages::csv_table("leaderboard", t, &champion)),
            leaderboard_note => index.leaderboard.is_some_and(|t| t.column("p_ahead_of_next").is_some()),
            matrix => pairwise.and_then(pages::pairwise_matrix),
            pairwise => pairwise.map(|t| pages::csv_table("pairwise", t, &champion)),
            seats_table => index.seats.map(|t| pages::csv_table("seats", t, &|_| None)),
            seats => seats,
            rows => rows,
        },
    )
}
