//! What both tournament pages show, as data for their templates (`assets/index/`): a CSV
//! file as a sortable table, the pairwise matrix, a match's row (replay link first, its
//! faults linked to their steps, its files). Every champion's or file's text goes through
//! [`text`] (control characters as escapes); the templates escape the markup.

use super::tables::{Match, Table};
use super::Entry;
use jail::untrusted::printable;
use serde::Serialize;

const CSS: &str = include_str!("../assets/index/index.css");
const JS: &str = include_str!("../assets/index/index.js");

/// Text from a champion or a file, safe to show: control characters as escapes.
pub fn text(s: &str) -> String {
    printable(s).into_owned()
}

/// A whole page: `kind` (`index`, `champion`) on `<html data-page>`, its title, the rest
/// of what its template `name` shows.
pub fn page(
    name: &str,
    kind: &str,
    title: &str,
    context: minijinja::Value,
) -> anyhow::Result<String> {
    use crate::view::templates::{code, render};
    let page = minijinja::context! {
        kind => kind,
        title => text(title),
        css => code(&[CSS]),
        js => code(&[JS]),
        ..context
    };
    render(name, page).map(|html| html + "\n")
}

/// A CSV file as a table.
#[derive(Serialize)]
pub struct CsvTable {
    pub id: &'static str,
    pub head: Vec<Head>,
    pub rows: Vec<Vec<Cell>>,
}

/// A column's title, and whether it sorts as numbers.
#[derive(Serialize)]
pub struct Head {
    pub text: String,
    pub numeric: bool,
}

/// A cell: its text, a link (a champion's page), numeric or not.
#[derive(Serialize)]
pub struct Cell {
    pub text: String,
    pub href: Option<String>,
    pub numeric: bool,
}

/// A table of a CSV file, every column; cells of `champion` columns link to the
/// champion's page (`champion_href`). Sortable by any column.
pub fn csv_table(
    id: &'static str,
    table: &Table,
    champion_href: &dyn Fn(&str) -> Option<String>,
) -> CsvTable {
    let numeric: Vec<bool> = (0..table.header.len())
        .map(|c| {
            table.rows.iter().all(|r| {
                r.get(c)
                    .is_none_or(|v| v.is_empty() || v.parse::<f64>().is_ok())
            })
        })
        .collect();
    let head = table
        .header
        .iter()
        .zip(&numeric)
        .map(|(h, &numeric)| Head {
            text: text(h),
            numeric,
        })
        .collect();
    let rows = table
        .rows
        .iter()
        .map(|row| {
            row.iter()
                .enumerate()
                .map(|(c, field)| {
                    let is_champion = table
                        .header
                        .get(c)
                        .is_some_and(|h| h == "champion" || h == "opponent");
                    Cell {
                        text: text(field),
                        href: champion_href(field).filter(|_| is_champion),
                        numeric: numeric.get(c) == Some(&true),
                    }
                })
                .collect()
        })
        .collect();
    CsvTable { id, head, rows }
}

/// The pairwise results as a matrix: row champion against column opponent.
#[derive(Serialize)]
pub struct Matrix {
    pub names: Vec<String>,
    pub rows: Vec<MatrixRow>,
}

/// A row champion's results against every column opponent.
#[derive(Serialize)]
pub struct MatrixRow {
    pub name: String,
    pub cells: Vec<String>,
}

/// The matrix, "ahead-behind" with ties after a slash when there are any; `None` if the
/// columns are not there.
pub fn pairwise_matrix(table: &Table) -> Option<Matrix> {
    let (c, o, ahead, tied, behind) = (
        table.column("champion")?,
        table.column("opponent")?,
        table.column("ahead")?,
        table.column("tied")?,
        table.column("behind")?,
    );
    let rows: Vec<&Vec<String>> = table
        .rows
        .iter()
        .filter(|r| r.len() > c.max(o).max(ahead).max(tied).max(behind))
        .collect();
    let mut names: Vec<&str> = Vec::new();
    for row in &rows {
        if !names.contains(&row[c].as_str()) {
            names.push(&row[c]);
        }
    }
    let matrix_rows = names
        .iter()
        .map(|row_name| MatrixRow {
            name: text(row_name),
            cells: names
                .iter()
                .map(|col_name| {
                    let cell = rows.iter().find(|r| r[c] == *row_name && r[o] == *col_name);
                    text(&match cell {
                        Some(r) if r[tied] != "0" => {
                            format!("{}-{}/{}", r[ahead], r[behind], r[tied])
                        }
                        Some(r) => format!("{}-{}", r[ahead], r[behind]),
                        None => String::new(),
                    })
                })
                .collect(),
        })
        .collect();
    Some(Matrix {
        names: names.iter().map(|n| text(n)).collect(),
        rows: matrix_rows,
    })
}

/// A match's row, as both pages show it.
#[derive(Serialize)]
pub struct Row {
    pub id: u64,
    /// The names the filter looks in, lower case.
    pub names: String,
    pub fault: u8,
    pub replay: Replay,
    pub seed: String,
    /// The command that plays the match again.
    pub reproduce: String,
    /// The champions shown: every seat (the index) or the opponents (a champion's page).
    pub champions: Vec<Link>,
    pub scores: Vec<String>,
    pub points: Vec<String>,
    pub faults: Vec<FaultLink>,
    pub duration_ms: String,
    pub files: Option<Files>,
    /// On a champion's page: its seat, place, and its fault's message.
    pub seat: Option<usize>,
    pub place: String,
    pub message: Option<String>,
}

/// A match's replay: its link, or why there is none (no record: no link).
#[derive(Serialize)]
pub struct Replay {
    pub href: Option<String>,
    pub error: Option<String>,
}

/// A champion's name, linked to its page if it has one, and its seat.
#[derive(Serialize)]
pub struct Link {
    pub name: String,
    pub href: Option<String>,
    pub seat: usize,
}

/// A seat's fault, linked to its step of the replay when it is known.
#[derive(Serialize)]
pub struct FaultLink {
    pub seat: usize,
    pub kind: String,
    pub step: Option<usize>,
    pub href: Option<String>,
    pub title: String,
}

/// A match's record and the stderr files of the seats shown.
#[derive(Serialize)]
pub struct Files {
    pub record: String,
    pub stderr: Vec<Stderr>,
}

/// A seat's stderr file.
#[derive(Serialize)]
pub struct Stderr {
    pub seat: usize,
    pub href: String,
    pub bytes: u64,
}

/// Where a page is: links from it are `prefix` + a link from the tournament directory.
pub struct From<'a> {
    pub prefix: &'a str,
}

impl From<'_> {
    fn href(&self, link: &str) -> String {
        format!("{}{link}", self.prefix)
    }

    /// The row of `e`: `seats` those whose faults and files it shows, `names` those the
    /// filter looks in, `champions` those it names.
    pub fn row(&self, e: &Entry, seats: &[usize], names: &[&str], champions: Vec<Link>) -> Row {
        let m: &Match = e.m;
        let names: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
        Row {
            id: m.id,
            names: text(&names.join(" / ")),
            fault: u8::from(m.has_fault()),
            replay: Replay {
                href: e
                    .href
                    .as_ref()
                    .map(|dir| self.href(&format!("{dir}/replay.html"))),
                error: e
                    .href
                    .as_ref()
                    .and(e.replay_error.as_ref())
                    .map(|error| text(error)),
            },
            seed: text(&m.seed),
            reproduce: text(&m.reproduce),
            champions,
            scores: seats.iter().map(|&s| text(&m.seats[s].score)).collect(),
            points: seats.iter().map(|&s| text(&m.seats[s].points)).collect(),
            faults: self.faults(e, seats),
            duration_ms: text(&m.duration_ms),
            files: self.files(e, seats),
            seat: None,
            place: String::new(),
            message: None,
        }
    }

    /// A champion's name, linked to its page.
    pub fn champion(&self, name: &str, page: Option<&String>, seat: usize) -> Link {
        Link {
            name: text(name),
            href: page.map(|p| self.href(p)),
            seat,
        }
    }

    /// The faults of `seats` of a match, each linked to its step of the replay.
    fn faults(&self, e: &Entry, seats: &[usize]) -> Vec<FaultLink> {
        seats
            .iter()
            .filter(|&&s| !e.m.seats[s].fault.is_empty())
            .map(|&s| {
                let kind = text(&e.m.seats[s].fault);
                let first = e.faults.iter().find(|f| usize::from(f.seat) == s);
                match (&e.href, first) {
                    (Some(dir), Some(f)) => FaultLink {
                        seat: s,
                        kind,
                        step: Some(f.step),
                        href: Some(self.href(&format!("{dir}/replay.html#step={}", f.step))),
                        title: text(&format!("{}: {}", f.kind, f.message)),
                    },
                    _ => FaultLink {
                        seat: s,
                        kind,
                        step: None,
                        href: None,
                        title: String::new(),
                    },
                }
            })
            .collect()
    }

    /// Links to the record and to the stderr files of `seats`.
    fn files(&self, e: &Entry, seats: &[usize]) -> Option<Files> {
        let dir = e.href.as_ref()?;
        Some(Files {
            record: self.href(&format!("{dir}/record.json")),
            stderr: seats
                .iter()
                .filter_map(|&s| match e.stderr.get(s) {
                    Some(Some(bytes)) => Some(Stderr {
                        seat: s,
                        href: self.href(&format!("{dir}/seat{s}.stderr")),
                        bytes: *bytes,
                    }),
                    _ => None,
                })
                .collect(),
        })
    }
}
