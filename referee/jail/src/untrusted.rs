//! Text that comes from champions, made safe to show a person.
//!
//! A champion controls its stderr (quoted in crash faults), its protocol lines (quoted in
//! protocol faults) and, through the name of its file, its name in every table. Printed
//! raw, an escape sequence in any of them would act on the terminal of whoever reads the
//! table (clear the screen, set the window title, write the clipboard with OSC 52), and a
//! CSV cell starting with `=` would be a formula in a spreadsheet.
//!
//! Records and stderr logs keep the exact text; it is escaped where it is shown:
//! [`printable`] for terminals, error messages and CSV cells, [`label`] for the names
//! derived from paths, [`escape_json`] for JSON files and the JSON of the HTML replay page.

use std::borrow::Cow;
use std::path::Path;

/// Whether [`printable`] writes `c` as an escape: control characters (C0 including tab,
/// newline and ESC, DEL, C1), the line and paragraph separators, and the bidirectional
/// controls that reorder what a terminal shows ("Trojan Source").
pub fn is_escaped(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{061c}' | '\u{200e}' | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with each character of [`is_escaped`] written as an escape, `\x1b` below U+0100
/// and `\u{202e}` above; everything else (printable text, spaces, non-ASCII letters) as is.
///
/// Backslashes are kept as they are: the text shown is mostly fault messages, which already
/// hold the `\xNN` escapes of [`crate::fault::quote`], and doubling their backslashes would
/// make them differ from the record. So `printable` is idempotent (escaping twice is
/// escaping once), and a literal `\x1b` typed by a champion reads like an escaped ESC, a
/// harmless ambiguity: the exact bytes are in the record and in the stderr logs.
///
/// ```
/// use jail::untrusted::printable;
/// assert_eq!(printable("a\u{1b}]0;pwned\u{7}b"), "a\\x1b]0;pwned\\x07b");
/// assert_eq!(printable("tab\there, caf\u{e9}"), "tab\\x09here, caf\u{e9}");
/// assert_eq!(printable("\u{9b}2J \u{202e}"), "\\x9b2J \\u{202e}");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !is_escaped(c) {
            out.push(c);
        } else if c <= '\u{9f}' {
            out.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        }
    }
    Cow::Owned(out)
}

/// A path as [`printable`] text (a champion's file name may hold ESC).
///
/// ```
/// let path = std::path::Path::new("/tmp/e\u{1b}[2J");
/// assert_eq!(jail::untrusted::printable_path(path), "/tmp/e\\x1b[2J");
/// ```
pub fn printable_path(path: &Path) -> String {
    printable(&path.to_string_lossy()).into_owned()
}

/// The characters that start a formula when a spreadsheet opens a CSV file.
const FORMULA_STARTS: [char; 4] = ['=', '+', '-', '@'];

/// A champion's name as the results show it: [`printable`], and never starting with a
/// character that makes a spreadsheet read the cell as a formula (`=`, `+`, `-`, `@`:
/// such a name gets a leading `_`). Names are labels for tables and CSV files; the path
/// given and the executable's path are kept exactly elsewhere.
///
/// ```
/// use jail::untrusted::label;
/// assert_eq!(label("alice"), "alice");
/// assert_eq!(label("=HYPERLINK(\"x\")"), "_=HYPERLINK(\"x\")");
/// assert_eq!(label("e\u{1b}[2Jvil"), "e\\x1b[2Jvil");
/// ```
pub fn label(name: &str) -> String {
    let name = printable(name);
    if name.starts_with(FORMULA_STARTS) {
        format!("_{name}")
    } else {
        name.into_owned()
    }
}

/// Serialised JSON with every DEL, C1 and other character of [`is_escaped`] (serde_json
/// escapes only C0 in strings) written as `\uXXXX`; with `html`, also `<`, `>` and `&`, so that the
/// JSON can sit inside a `<script>` element: no `</script>` can end it and no `<!--` can
/// switch the HTML tokenizer into its "script data escaped" state. The JSON value is the
/// same: these characters can only occur inside strings, where `\uXXXX` means them.
///
/// ```
/// use jail::untrusted::escape_json;
/// let json = serde_json::to_string("<!--<script>\u{7f}\u{2028}").unwrap();
/// let safe = escape_json(&json, true);
/// assert_eq!(safe, r#""\u003c!--\u003cscript\u003e\u007f\u2028""#);
/// assert_eq!(serde_json::from_str::<String>(&safe).unwrap(), "<!--<script>\u{7f}\u{2028}");
/// ```
pub fn escape_json(json: &str, html: bool) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        // Raw tabs and line breaks are JSON's own whitespace (serde_json escapes them in
        // strings), so they stay.
        let structural = matches!(c, '\n' | '\r' | '\t');
        if is_escaped(c) && !structural || html && matches!(c, '<' | '>' | '&') {
            // Every character of `is_escaped` is in the Basic Multilingual Plane.
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_exactly_the_controls() {
        for c in (0u32..0x3000).filter_map(char::from_u32) {
            let expected = c < ' '
                || ('\u{7f}'..='\u{9f}').contains(&c)
                || matches!(u32::from(c), 0x2028 | 0x2029 | 0x61c | 0x200e | 0x200f)
                || (0x202a..=0x202e).contains(&u32::from(c))
                || (0x2066..=0x2069).contains(&u32::from(c));
            assert_eq!(is_escaped(c), expected, "U+{:04X}", u32::from(c));
            let shown = printable(&c.to_string()).into_owned();
            assert_eq!(shown != c.to_string(), expected, "U+{:04X}", u32::from(c));
            assert!(!shown.chars().any(is_escaped));
        }
        assert_eq!(printable("\u{0}\n\u{7f}\u{9f}"), "\\x00\\x0a\\x7f\\x9f");
        assert_eq!(printable("\u{2069}x"), "\\u{2069}x");
        assert!(matches!(
            printable("plain \\ text"),
            Cow::Borrowed("plain \\ text")
        ));
    }

    #[test]
    fn printable_is_idempotent() {
        for text in ["a\u{1b}b", "\\x1b", "\u{202e}\u{9b}\t", "caf\u{e9} \\"] {
            let once = printable(text).into_owned();
            assert_eq!(printable(&once), once);
            assert_eq!(label(&label(text)), label(text));
        }
    }

    #[test]
    fn labels_never_start_a_formula() {
        for start in ['=', '+', '-', '@'] {
            assert_eq!(label(&format!("{start}1")), format!("_{start}1"));
        }
        assert_eq!(label("a=1"), "a=1");
        assert_eq!(label("_x"), "_x");
        assert_eq!(label("\t=1"), "\\x09=1");
    }

    #[test]
    fn json_keeps_its_value() {
        let text = "a\u{1b}\u{7f}\u{85}\u{2028}\u{202e}<&>\\\"\n</script><!--";
        let json = serde_json::to_string(&serde_json::json!({ "k": text, "n": [1, 2] })).unwrap();
        for html in [false, true] {
            let safe = escape_json(&json, html);
            assert!(!safe.chars().any(is_escaped), "{safe}");
            assert_eq!(safe.contains('<'), !html);
            assert_eq!(safe.contains('&') || safe.contains('>'), !html);
            let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
            assert_eq!(back["k"], text);
            assert_eq!(back["n"], serde_json::json!([1, 2]));
        }
        // Pretty JSON keeps its line breaks.
        let pretty = serde_json::to_string_pretty(&serde_json::json!({ "k": 1 })).unwrap();
        assert_eq!(escape_json(&pretty, false), pretty);
    }
}
