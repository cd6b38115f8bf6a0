//! Champion names that would read alike in the results: a name holding what shows as
//! nothing or as another blank than the space, and two names one after Unicode's
//! compatibility normalisation (`name_all` refuses both, naming them and the fix).

use unicode_normalization::UnicodeNormalization;

/// What in `name` cannot be seen for what it is, said for a person: a space at its start
/// or end, a character that shows as nothing ([`shows_as_nothing`]: `alice` and
/// `alice` + U+200B would be two rows `alice`), or a blank other than the plain space (a
/// no-break space, U+3000 ...: `alice` + U+00A0 reads as `alice `).
pub(crate) fn unseen(name: &str) -> Option<String> {
    if name.starts_with(' ') {
        return Some("a space at its start".to_string());
    }
    if name.ends_with(' ') {
        return Some("a space at its end".to_string());
    }
    let c = name
        .chars()
        .find(|&c| shows_as_nothing(c) || c.is_whitespace() && c != ' ')?;
    let what = match shows_as_nothing(c) {
        true => "a character that shows as nothing",
        false => "a blank other than the plain space",
    };
    Some(format!("U+{:04X}, {what}", u32::from(c)))
}

/// Whether `c` shows as nothing, or as a blank where a letter is expected: Unicode's
/// default-ignorable code points (DerivedCoreProperties.txt: the soft hyphen, zero-width
/// spaces and joiners, bidirectional marks, invisible operators, variation selectors, the
/// byte order mark, tags), with the Hangul fillers among them, and the blank Braille
/// pattern.
pub(crate) fn shows_as_nothing(c: char) -> bool {
    matches!(
        c,
        '\u{00ad}'
            | '\u{034f}'
            | '\u{061c}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// Whether two different names read alike: one after Unicode's compatibility normalisation
/// (NFKC: `café` written with `é` or with `e` and a combining accent, a full-width `ａ` and
/// `a`, the ligature `ﬁ` and `fi`).
pub(crate) fn read_alike(a: &str, b: &str) -> bool {
    a != b && a.nfkc().eq(b.nfkc())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_cannot_be_seen_is_named() {
        for name in ["alice", "my bot", "café", "日本", "o'brien"] {
            assert_eq!(unseen(name), None, "{name}");
        }
        assert_eq!(unseen(" alice").as_deref(), Some("a space at its start"));
        assert_eq!(unseen("alice ").as_deref(), Some("a space at its end"));
        for (name, code) in [
            ("alice\u{200b}", "U+200B"),
            ("bob\u{2060}", "U+2060"),
            ("eve\u{feff}", "U+FEFF"),
            ("x\u{e0041}", "U+E0041"),
            ("\u{3164}", "U+3164"),
            ("so\u{00ad}ft", "U+00AD"),
        ] {
            let said = unseen(name).unwrap();
            assert!(
                said.starts_with(code) && said.ends_with("shows as nothing"),
                "{said}"
            );
        }
        for (name, code) in [("alice\u{a0}", "U+00A0"), ("a\u{3000}b", "U+3000")] {
            let said = unseen(name).unwrap();
            assert!(
                said.starts_with(code) && said.ends_with("the plain space"),
                "{said}"
            );
        }
    }

    #[test]
    fn names_one_after_normalisation_read_alike() {
        assert!(read_alike("caf\u{e9}", "cafe\u{301}"));
        assert!(read_alike("\u{ff41}lice", "alice"));
        assert!(read_alike("\u{fb01}sh", "fish"));
        assert!(!read_alike("alice", "alice"), "one name, not two");
        assert!(!read_alike("alice", "Alice"), "case is seen");
        assert!(!read_alike("cafe", "caf\u{e9}"));
    }
}
