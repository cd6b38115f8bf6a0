//! `leaderboard.csv`: one row per champion, best first (docs/results.md).

use super::csv_line;
use crate::fault::FaultKind;
use crate::standings::Standings;

/// The columns, in order.
fn columns() -> Vec<String> {
    let mut columns: Vec<String> = [
        "rank",
        "champion",
        "points",
        "matches",
        "firsts",
        "seconds",
        "thirds",
        "ties",
        "mean_score",
    ]
    .map(String::from)
    .to_vec();
    columns.extend(FaultKind::ALL.map(|k| format!("faults_{}", k.name())));
    columns.extend(["mean_call_cpu_us", "max_call_cpu_us"].map(String::from));
    columns
}

/// Columns that measure time.
pub const TIMING_COLUMNS: [&str; 2] = ["mean_call_cpu_us", "max_call_cpu_us"];

/// The whole file.
pub fn render(standings: &Standings) -> Vec<u8> {
    let mut out = csv_line(columns());
    for (rank, name, line) in standings.ranked() {
        let mut fields = vec![
            rank.to_string(),
            name.to_string(),
            line.points.to_string(),
            line.matches.to_string(),
        ];
        fields.extend(line.places.iter().map(u64::to_string));
        fields.push(line.ties.to_string());
        fields.push(format!("{:.3}", line.mean_score()));
        fields.extend(line.faults.iter().map(u64::to_string));
        fields.push(format!("{:.1}", line.mean_call_us()));
        fields.push(line.max_cpu_us.to_string());
        out.extend(csv_line(fields));
    }
    out
}
