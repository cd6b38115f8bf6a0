//! docs/claims.md cannot rot: every test it names is a `#[test]` function of that name in
//! that file, every row names a test or says why there is none, and every `##` section of
//! README.md, protocol.md and docs/results.md has its part.

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The rows of the table's parts: (part heading, claim, test cell, how).
fn rows(page: &str) -> Vec<(String, String, String, String)> {
    let mut part = String::new();
    let mut rows = Vec::new();
    for line in page.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            part = heading.to_string();
            continue;
        }
        if !line.starts_with('|') || line.starts_with("| claim |") || line.starts_with("|---") {
            continue;
        }
        // Split on `|` outside backquotes (a claim may quote `always|never`).
        let mut cells = vec![String::new()];
        let mut quoted = false;
        let mut chars = line.trim().chars().peekable();
        chars.next(); // the opening `|`
        while let Some(c) = chars.next() {
            match c {
                '`' => quoted = !quoted,
                '\\' if chars.peek() == Some(&'|') => {
                    cells.last_mut().unwrap().push(chars.next().unwrap());
                    continue;
                }
                '|' if !quoted => {
                    cells.push(String::new());
                    continue;
                }
                _ => {}
            }
            cells.last_mut().unwrap().push(c);
        }
        cells.pop(); // after the closing `|`
        assert_eq!(
            cells.len(),
            3,
            "a row of three cells in part {part:?}: {line}"
        );
        assert!(!part.is_empty(), "a row before any part: {line}");
        let [claim, test, how] = [0, 1, 2].map(|i| cells[i].trim().to_string());
        rows.push((part.clone(), claim, test, how));
    }
    rows
}

/// The `file::function` names of a test cell.
fn named_tests(cell: &str) -> Vec<(String, String)> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|quoted| quoted.split_once("::"))
        .map(|(file, function)| (file.to_string(), function.to_string()))
        .collect()
}

/// Whether `source` has `#[test] fn function(` (attributes and comments between them
/// allowed).
pub(crate) fn has_test(source: &str, function: &str) -> bool {
    let lines: Vec<&str> = source.lines().collect();
    lines.iter().enumerate().any(|(i, line)| {
        line.trim_start().starts_with(&format!("fn {function}("))
            && lines[..i]
                .iter()
                .rev()
                .map(|l| l.trim())
                .take_while(|l| l.starts_with("#[") || l.starts_with("//"))
                .any(|l| l == "#[test]")
    })
}

#[test]
fn every_test_named_in_the_claims_table_exists() {
    let page = read("docs/claims.md");
    let rows = rows(&page);
    assert!(rows.len() > 50, "the table has {} rows", rows.len());
    let mut missing = Vec::new();
    for (part, claim, test, how) in &rows {
        let tests = named_tests(test);
        if tests.is_empty() {
            // No test: the row says so, and why.
            assert!(
                test.starts_with("not tested") && !how.is_empty(),
                "{part}: {claim:?} names no test and does not say why ({test:?})"
            );
        }
        for (file, function) in tests {
            let source = std::fs::read_to_string(repo().join(&file))
                .unwrap_or_else(|e| panic!("{part}: {claim:?}: {file}: {e}"));
            if !has_test(&source, &function) {
                missing.push(format!("{file}::{function} ({part})"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "tests named in docs/claims.md that do not exist: {missing:#?}"
    );
}

#[test]
fn every_section_of_the_three_documents_has_its_part() {
    let page = read("docs/claims.md");
    let parts: Vec<&str> = page
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .collect();
    for document in ["README.md", "protocol.md", "docs/results.md"] {
        for heading in read(document).lines().filter_map(|l| l.strip_prefix("## ")) {
            let part = format!("{document}: {heading}");
            assert!(
                parts.iter().any(|p| p.starts_with(&part)),
                "docs/claims.md has no part `### {part}`"
            );
        }
    }
}

/// The checks above find what they look for: a made-up test, a row without a reason.
#[test]
fn the_checks_find_a_missing_test_and_a_row_without_a_reason() {
    let source = "#[test]\n/// doc\nfn real() {}\nfn helper() {}\n";
    assert!(has_test(source, "real"));
    assert!(!has_test(source, "helper"));
    assert!(!has_test(source, "absent"));
    let page = "### README.md: X\n\n| claim | test | how |\n|---|---|---|\n\
                | a `a\\|b` claim | `referee/tests/x.rs::real`, `y.rs::other` | binary |\n";
    let rows = rows(page);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].1, "a `a|b` claim");
    assert_eq!(
        named_tests(&rows[0].2),
        [
            ("referee/tests/x.rs".to_string(), "real".to_string()),
            ("y.rs".to_string(), "other".to_string())
        ]
    );
}
