//! The words the tournament pages title a CSV column with (`docs/results.md` names and
//! explains each), and which columns of the leaderboard a person reads second: those are
//! shown on demand, so that the first view fits a 1366-pixel screen.

/// A column's title and its meaning (the tooltip, after its CSV name).
pub fn label(column: &str) -> (String, String) {
    let fixed = |label: &str, meaning: &str| (label.to_string(), meaning.to_string());
    match column {
        "rank" => fixed("Rank", "1 = best; equal champions share a rank"),
        "champion" => fixed("Champion", "its name"),
        "opponent" => fixed("Opponent", "the other champion"),
        "seat" => fixed("Seat", "the seat, 0 first"),
        "points" => fixed("Points", "the official points, summed over its matches"),
        "matches" => fixed("Matches", "matches played"),
        "met" => fixed("Met", "matches the two played together"),
        "ahead" => fixed("Ahead", "matches it finished ahead of the opponent"),
        "tied" => fixed("Tied", "matches it finished level with the opponent"),
        "behind" => fixed("Behind", "matches it finished behind the opponent"),
        "ties" => fixed("Ties", "matches where its final score equalled another's"),
        "mean_score" => fixed("Mean score", "its mean final score"),
        "mean_points" => fixed("Points a match", "points per match"),
        "mean_points_low" => fixed(
            "95% from",
            "the low end of the 95% interval of points a match (bootstrap)",
        ),
        "mean_points_high" => fixed(
            "95% to",
            "the high end of the 95% interval of points a match (bootstrap)",
        ),
        "p_ahead_of_next" => fixed(
            "Surely above next",
            "the share of resamples in which it has more points a match than the next row",
        ),
        "rating" => fixed("Rating", "Weng-Lin rating, for information only"),
        "rating_sigma" => fixed("Rating \u{b1}", "the rating's uncertainty (one sigma)"),
        "faults_timeout" => fixed("Timeouts", "matches it lost to a timeout"),
        "faults_crash" => fixed("Crashes", "matches it lost to a crash"),
        "faults_memory" => fixed("Out of memory", "matches it lost to its memory limit"),
        "faults_protocol" => fixed(
            "Protocol faults",
            "matches it lost to a message the referee could not accept",
        ),
        "faults_spawn" => fixed("Did not start", "matches in which it could not be started"),
        "mean_call_cpu_us" => fixed("CPU a call (\u{b5}s)", "mean CPU time of one callback"),
        "max_call_cpu_us" => fixed(
            "Longest call (\u{b5}s)",
            "CPU time of its most expensive callback",
        ),
        _ => match place(column) {
            Some(n) => (ordinal(n), format!("matches finished at place {n}")),
            None => (column.replace('_', " "), "a column of the file".to_string()),
        },
    }
}

/// Whether a person reads `column` of the leaderboard second (shown on demand): the
/// mean score, the rating, the faults by kind and the timings.
pub fn is_more(column: &str) -> bool {
    matches!(column, "mean_score" | "rating" | "rating_sigma")
        || column.starts_with("faults_")
        || column.ends_with("_cpu_us")
}

/// The place a place column counts (`firsts` 1, ..., `place9s` 9).
fn place(column: &str) -> Option<usize> {
    const PLACES: [&str; 8] = [
        "firsts", "seconds", "thirds", "fourths", "fifths", "sixths", "sevenths", "eighths",
    ];
    PLACES
        .iter()
        .position(|p| *p == column)
        .map(|p| p + 1)
        .or_else(|| {
            column
                .strip_prefix("place")?
                .strip_suffix('s')?
                .parse()
                .ok()
        })
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_read_as_ordinals_and_every_leaderboard_column_has_words() {
        assert_eq!(label("firsts").0, "1st");
        assert_eq!(label("thirds").0, "3rd");
        assert_eq!(label("place12s").0, "12th");
        assert_eq!(label("place21s").0, "21st");
        for column in crate::export::leaderboard_csv::columns(9) {
            let (words, meaning) = label(&column);
            assert!(!words.contains('_'), "{column}: {words}");
            assert_ne!(meaning, "a column of the file", "{column}");
        }
    }
}
