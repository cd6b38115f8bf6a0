//! `pairwise.csv`: head-to-head, one row per ordered pair of champions that met, in
//! leaderboard order (docs/results.md). A row is `Row`, whose fields are the columns.

use super::{csv_header, csv_record};
use crate::standings::Standings;
use serde::Serialize;

/// One line of the file.
#[derive(Debug, Default, Serialize)]
struct Row<'a> {
    champion: &'a str,
    opponent: &'a str,
    met: u64,
    ahead: u64,
    tied: u64,
    behind: u64,
}

/// The whole file.
pub fn render(standings: &Standings) -> Vec<u8> {
    let order: Vec<&str> = standings.ranked().into_iter().map(|(_, n, _)| n).collect();
    let mut out = csv_header::<Row>();
    for a in &order {
        for b in &order {
            if let Some(v) = standings.versus.get(&(a.to_string(), b.to_string())) {
                out.extend(csv_record(&Row {
                    champion: a,
                    opponent: b,
                    met: v.met,
                    ahead: v.ahead,
                    tied: v.tied,
                    behind: v.behind,
                }));
            }
        }
    }
    out
}
