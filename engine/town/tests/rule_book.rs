//! `docs/rules-little-town.md` and this crate's tests agree: every numbered rule of the book
//! has a test named after it (`rule_07_...`), and every such test names a rule of the book.

use std::collections::BTreeSet;
use std::path::Path;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_rule_has_a_test_and_every_rule_test_a_rule() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let book = read(&root.join("../../docs/rules-little-town.md"));
    let rules: BTreeSet<u32> = book
        .lines()
        .filter_map(|l| l.trim_start().split_once(". **"))
        .filter_map(|(n, _)| n.parse().ok())
        .collect();
    assert_eq!(
        rules,
        (1..=22).collect(),
        "the book's rules are 1 to 22, in order"
    );
    let mut tested = BTreeSet::new();
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            for line in read(&path).lines() {
                if let Some(rest) = line.trim().strip_prefix("fn rule_") {
                    let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    tested.insert(number.parse::<u32>().unwrap());
                }
            }
        }
    }
    assert_eq!(
        tested, rules,
        "tests named rule_NN against the book's rules"
    );
}
