//! `champions/<name>.html`: one champion's leaderboard row, its faults (each linked to the
//! faulty step of the replay), its pre-run check's stderr, and every match it played, with
//! its seat, place, score, points, opponents and its own stderr file
//! (`assets/index/champion.html`).

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
pub fn render(c: &Champion) -> anyhow::Result<String> {
    let here = From { prefix: "../" };
    let summary = c.leaderboard.map(|t| {
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
        pages::csv_table("summary", &row, &|_| None)
    });
    let rows: Vec<pages::Row> = c
        .entries
        .iter()
        .filter_map(|e| Some((e, e.m.seats.iter().position(|s| s.champion == c.name)?)))
        .map(|(e, seat)| {
            let m = e.m;
            let others: Vec<&str> = m
                .seats
                .iter()
                .enumerate()
                .filter(|(s, _)| *s != seat)
                .map(|(_, s)| s.champion.as_str())
                .collect();
            let opponents = m
                .seats
                .iter()
                .enumerate()
                .filter(|(s, _)| *s != seat)
                .map(|(s, o)| here.champion(m, c.pages.get(&o.champion), s))
                .collect();
            let mut row = here.row(e, &[seat], &others, opponents);
            row.seat = Some(seat);
            row.place = m.place(seat).map_or_else(String::new, |p| p.to_string());
            row.message = e
                .faults
                .iter()
                .find(|f| usize::from(f.seat) == seat)
                .map(|f| text(&f.message));
            row
        })
        .collect();
    let faulty: Vec<&pages::Row> = rows.iter().filter(|r| !r.faults.is_empty()).collect();
    pages::page(
        "index/champion.html",
        "champion",
        &format!("{} - tournament {}", c.name, c.tournament),
        minijinja::context! {
            tournament => text(c.tournament),
            game => c.game.title(),
            name => text(c.name),
            summary => summary,
            faulty => faulty,
            check => c.check.map(text),
            rows => rows,
        },
    )
}
