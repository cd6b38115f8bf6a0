//! The protocol pages' examples of how a line is read (each page's "How a line is read"
//! table), fed to a game's adapter: one check for every game's tests, so that what a page
//! promises of a line is what the referee reads ([`crate::words`]).

use crate::Line;
use std::fmt::Debug;

/// Feeds every row of `page`'s "How a line is read" table to `read` (the adapter reading a
/// line in one state of a match): a line is read as the canonical line the row gives (the
/// same answer, the same action, which `written` writes back as that line), or is a fault
/// whose message holds the row's words. Returns how many rows were read.
///
/// A row is `| \`sent\` | what | read as |`, the read-as cell a line in backquotes or
/// `fault: words`; `\t`, `\r` and `\x01` in the sent line stand for those bytes.
pub fn check<A: Debug + PartialEq>(
    page: &str,
    read: impl Fn(&str) -> Result<Line<A>, String>,
    written: impl Fn(&A) -> String,
) -> usize {
    let section = page
        .split("### How a line is read")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the protocol page has its section on how a line is read");
    let code = |cell: &str| cell.split('`').nth(1).unwrap_or_default().to_string();
    let mut rows = 0;
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').collect();
        let sent = code(cells[0])
            .replace("\\t", "\t")
            .replace("\\r", "\r")
            .replace("\\x01", "\u{1}");
        let meaning = cells[2].trim();
        match meaning.strip_prefix("fault: ") {
            Some(words) => {
                let fault = read(&sent).expect_err(&sent);
                assert!(fault.contains(words), "{sent:?}: {fault}");
            }
            None => {
                let canonical = code(meaning);
                let want = read(&canonical).unwrap_or_else(|e| panic!("{canonical:?}: {e}"));
                if let Line::Act(action) = &want {
                    assert_eq!(written(action), canonical, "a canonical action");
                }
                assert_eq!(read(&sent), Ok(want), "{sent:?} read as {canonical:?}");
            }
        }
        rows += 1;
    }
    rows
}
