//! What both tournament pages show, as data for their templates (`assets/index/`): a CSV
//! file as a sortable table, the pairwise matrix, a match's row (replay link first, its
//! faults linked to their steps, its files). Every champion's or file's text goes through
//! [`text`] (control characters as escapes); the templates escape the markup.

use super::columns;
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

/// A CSV file as a table; `more` when some of its columns are shown only on demand.
#[derive(Serialize)]
pub struct CsvTable {
    pub id: &'static str,
    pub more: bool,
    pub head: Vec<Head>,
    pub rows: Vec<Vec<Cell>>,
}

/// A column's title as a person reads it, its CSV name and meaning as its tooltip, whether
/// it sorts as numbers, and whether it is one of those shown only on demand (`more`).
#[derive(Serialize)]
pub struct Head {
    pub text: String,
    pub title: String,
    pub numeric: bool,
    pub more: bool,
}

/// A cell: its text, a link (a champion's page), numeric or not, shown only on demand.
#[derive(Serialize)]
pub struct Cell {
    pub text: String,
    pub href: Option<String>,
    pub numeric: bool,
    pub more: bool,
}

/// A table of a CSV file, every column, titled in words (`columns.rs`); cells of
/// `champion` columns link to the champion's page (`champion_href`). Sortable by any
/// column; the columns a person reads second are marked to be shown on demand.
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
    let more: Vec<bool> = table.header.iter().map(|h| columns::is_more(h)).collect();
    let head = table
        .header
        .iter()
        .zip(&numeric)
        .zip(&more)
        .map(|((h, &numeric), &more)| {
            let (label, meaning) = columns::label(h);
            Head {
                text: text(&label),
                title: text(&format!("{h}: {meaning}")),
                numeric,
                more,
            }
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
                        more: more.get(c) == Some(&true),
                    }
                })
                .collect()
        })
        .collect();
    CsvTable {
        id,
        more: more.contains(&true),
        head,
        rows,
    }
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
    pub cells: Vec<MatrixCell>,
}

/// What the row champion did against the column opponent, in words ("8 ahead, 5 behind,
/// 2 tied"), the sentence it stands for, and the link that lists those matches (the
/// index's head-to-head filter, `#champion=A&against=B`). Empty where they never met.
#[derive(Serialize)]
pub struct MatrixCell {
    pub text: String,
    pub title: String,
    pub href: Option<String>,
}

/// The matrix; `None` if the columns are not there.
pub fn pairwise_matrix(table: &Table) -> Option<Matrix> {
    let (c, o, met, ahead, tied, behind) = (
        table.column("champion")?,
        table.column("opponent")?,
        table.column("met")?,
        table.column("ahead")?,
        table.column("tied")?,
        table.column("behind")?,
    );
    let rows: Vec<&Vec<String>> = table
        .rows
        .iter()
        .filter(|r| r.len() > c.max(o).max(met).max(ahead).max(tied).max(behind))
        .collect();
    let mut names: Vec<&str> = Vec::new();
    for row in &rows {
        if !names.contains(&row[c].as_str()) {
            names.push(&row[c]);
        }
    }
    let cell = |row_name: &str, col_name: &str| -> MatrixCell {
        let Some(r) = rows.iter().find(|r| r[c] == row_name && r[o] == col_name) else {
            return MatrixCell {
                text: String::new(),
                title: String::new(),
                href: None,
            };
        };
        let tied_words = if r[tied] == "0" {
            String::new()
        } else {
            format!(", {} tied", r[tied])
        };
        MatrixCell {
            text: text(&format!(
                "{} ahead, {} behind{tied_words}",
                r[ahead], r[behind]
            )),
            title: text(&format!(
                "{row_name} met {col_name} in {} matches: finished ahead in {}, behind in {}, \
                 level in {}. Click to list them.",
                r[met], r[ahead], r[behind], r[tied]
            )),
            href: Some(format!(
                "#champion={}&against={}",
                super::tables::encode(row_name),
                super::tables::encode(col_name)
            )),
        }
    };
    let matrix_rows = names
        .iter()
        .map(|row_name| MatrixRow {
            name: text(row_name),
            cells: names
                .iter()
                .map(|col_name| cell(row_name, col_name))
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
    /// The names the filter looks in, lower case, one a line.
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

/// A champion's name, linked to its page if it has one, its seat, and whether it won the
/// match (alone or shared, when not every seat shares the first place).
#[derive(Serialize)]
pub struct Link {
    pub name: String,
    pub href: Option<String>,
    pub seat: usize,
    pub winner: bool,
}

/// A seat's fault, named by its champion, linked to its step of the replay when known.
#[derive(Serialize)]
pub struct FaultLink {
    pub seat: usize,
    pub name: String,
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
            // One name a line: `text` leaves no line break in a name.
            names: names.iter().map(|n| text(n)).collect::<Vec<_>>().join("\n"),
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

    /// A champion's name in match `m`, linked to its page.
    pub fn champion(&self, m: &Match, page: Option<&String>, seat: usize) -> Link {
        Link {
            name: text(&m.seats[seat].champion),
            href: page.map(|p| self.href(p)),
            seat,
            winner: m.winners().get(seat) == Some(&true),
        }
    }

    /// The faults of `seats` of a match, each linked to its step of the replay.
    fn faults(&self, e: &Entry, seats: &[usize]) -> Vec<FaultLink> {
        seats
            .iter()
            .filter(|&&s| !e.m.seats[s].fault.is_empty())
            .map(|&s| {
                let kind = text(&e.m.seats[s].fault);
                let name = text(&e.m.seats[s].champion);
                let first = e.faults.iter().find(|f| usize::from(f.seat) == s);
                match (&e.href, first) {
                    (Some(dir), Some(f)) => FaultLink {
                        seat: s,
                        name,
                        kind,
                        step: Some(f.step),
                        href: Some(self.href(&format!("{dir}/replay.html#step={}", f.step))),
                        title: text(&format!("{}: {}", f.kind, f.message)),
                    },
                    _ => FaultLink {
                        seat: s,
                        name,
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
