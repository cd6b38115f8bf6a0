//! `pairwise.csv`: head-to-head, one row per ordered pair of champions that met, in
//! leaderboard order (docs/results.md).

use super::csv_line;
use crate::standings::Standings;

pub const COLUMNS: [&str; 6] = ["champion", "opponent", "met", "ahead", "tied", "behind"];

/// The whole file.
pub fn render(standings: &Standings) -> Vec<u8> {
    let order: Vec<&str> = standings.ranked().into_iter().map(|(_, n, _)| n).collect();
    let mut out = csv_line(COLUMNS);
    for a in &order {
        for b in &order {
            if let Some(v) = standings.versus.get(&(a.to_string(), b.to_string())) {
                out.extend(csv_line([
                    a.to_string(),
                    b.to_string(),
                    v.met.to_string(),
                    v.ahead.to_string(),
                    v.tied.to_string(),
                    v.behind.to_string(),
                ]));
            }
        }
    }
    out
}
