//! `docs/rules-amazons.md`, the contestants' rule book, agrees with the rules crate: the
//! start of rule 3 is [`Board::start`]'s, and every move of the book's section 5 is accepted
//! or refused by [`Board::check`] from the start, refused with the book's very words.

use amazons::{Board, Cell, Color, Move, Square};
use std::path::Path;

fn book() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules-amazons.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of rule `n` (`n. ...` up to the next blank line), after the contents.
fn rule(book: &str, n: u32) -> String {
    let book = &book[book.find("\n## 1.").expect("section 1")..];
    let start = book
        .find(&format!("\n{n}. "))
        .unwrap_or_else(|| panic!("rule {n} is in the book"));
    let text = &book[start + 1..];
    text[..text.find("\n\n").unwrap_or(text.len())].to_string()
}

/// The squares named in `text` (`a4`, `d10`), in order.
fn squares(text: &str) -> Vec<Square> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|word| word.parse().ok())
        .collect()
}

#[test]
fn rule_3_places_the_amazons_where_the_crate_starts_them() {
    let rule = rule(&book(), 3);
    let (white, black) = rule
        .split_once(" and Black's")
        .expect("White's then Black's");
    let start = Board::start();
    for (text, color) in [(white, Color::White), (black, Color::Black)] {
        let named = squares(text);
        let placed: Vec<Square> = start.amazons(color).collect();
        assert_eq!(named.len(), 4, "{color:?} in rule 3: {text}");
        let mut sorted = named.clone();
        sorted.sort_by_key(|s| s.index());
        assert_eq!(sorted, placed, "{color:?}");
    }
    assert_eq!(start.to_move(), Color::White, "rule 1: White moves first");
    let amazons = Square::all()
        .filter(|&s| matches!(start.cell(s), Cell::Amazon(_)))
        .count();
    assert_eq!(amazons, 8, "every other square is empty");
}

#[test]
fn every_example_of_section_5_gets_the_book_s_answer() {
    let book = book();
    let section = &book[book.find("## 5.").expect("section 5")..];
    let rows: Vec<(&str, &str)> = section
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
            let [m, answer] = cells[..] else { return None };
            Some((
                m.trim().strip_prefix('`')?.strip_suffix('`')?,
                answer.trim(),
            ))
        })
        .collect();
    assert!(rows.len() >= 10, "the examples' table: {rows:?}");
    let mut refused = 0;
    for (text, answer) in rows {
        let m: Move = text.parse().unwrap_or_else(|e| panic!("{e}"));
        match (Board::start().check(m), answer) {
            (Ok(()), a) => assert!(a.starts_with("accepted"), "{text}: legal, the book: {a}"),
            (Err(e), a) => {
                refused += 1;
                assert_eq!(a, format!("refused: {e}"), "{text}");
            }
        }
    }
    assert!(refused >= 3, "each of the three checks is shown refusing");
}
