//! One vocabulary for the 2009 scores, the rule book's (`docs/rules.md`): a seat's
//! **houses' worth** (the API's `score`), its **final score** (money plus houses' worth)
//! and the houses it **built**, in the words of each place a person reads them: the table
//! `referee match` prints, `referee show`, and the replay page's seat cards (the human
//! seat's, `games::human_seat`). Never a bare "score" or "houses" that could be either.

use crate::common;
use crate::viewer_page;

use std::process::Command;

/// Page-side: each seat card's figures, by their labels.
const CARD_LABELS: &str =
    "[...document.querySelectorAll('.player .stats span')].map((s) => s.textContent)";

/// The column titles of the seats' table in `said` (its line that starts with `seat`,
/// columns two spaces apart or more).
fn columns(said: &str) -> Vec<String> {
    let header = said
        .lines()
        .find(|l| l.starts_with("seat "))
        .unwrap_or_else(|| panic!("no seats' table in:\n{said}"));
    header
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn match_show_and_the_replay_page_say_the_scores_in_the_rule_book_s_words() {
    let rules = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules.md"),
    )
    .unwrap();
    for term in ["**houses' worth**", "**final score**"] {
        assert!(rules.contains(term), "the rule book defines {term}");
    }
    let dir = common::fresh_dir("score-words", "loi");
    let out = common::run_ok(
        Command::new(viewer_page::REFEREE)
            .args([
                "match", "random", "greedy", "random", "--seed", "4", "--html", "--out",
            ])
            .arg(&dir),
    );
    // `match`'s table: a column a figure, each in the rule book's words.
    assert_eq!(
        columns(&common::text(&out.stdout)),
        [
            "seat",
            "champion",
            "final score",
            "money",
            "houses built",
            "points",
            "faults"
        ]
    );
    // `show` at the end: the same words, houses' worth beside the final score.
    let shown = common::run_ok(Command::new(viewer_page::REFEREE).arg("show").arg(&dir));
    assert_eq!(
        columns(&common::text(&shown.stdout)),
        [
            "seat",
            "champion",
            "money",
            "houses' worth",
            "final score",
            "last bid"
        ]
    );
    // The replay page's cards.
    let Some(chromium) = common::browser_ready(
        "match_show_and_the_replay_page_say_the_scores_in_the_rule_book_s_words",
    ) else {
        return;
    };
    let seen = viewer_page::open(
        &chromium,
        &dir.join("replay.html"),
        &["--last", "--eval", CARD_LABELS],
    );
    let labels: Vec<String> = serde_json::from_value(seen.eval(0).clone()).unwrap();
    assert_eq!(labels.len(), 3 * 4, "{labels:?}");
    for card in labels.chunks(4) {
        assert_eq!(
            card,
            ["money", "houses' worth", "final score", "bid"],
            "{labels:?}"
        );
    }
}
