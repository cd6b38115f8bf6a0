//! protocol.md section 1's line rules, for every game's champions: a line's words (a
//! trailing `\r` dropped, printable ASCII and tabs only, words separated by runs of blanks,
//! blanks before and after ignored) and its integer arguments (decimal, an optional sign,
//! leading zeros allowed, 32-bit). A game's adapter reads its lines through these, so a line
//! means the same in every game the runner plays.

/// A champion's line, read as words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words<'a> {
    /// The line without its trailing `\r`: what a fault quotes.
    pub line: &'a str,
    /// Its words, in order; none for an empty or blank line.
    pub words: Vec<&'a str>,
}

impl<'a> Words<'a> {
    /// The words of `line` (without its `\n`), sent during `callback`; the protocol fault's
    /// message for a byte a line may not hold (protocol.md section 1).
    ///
    /// ```
    /// use arena::words::Words;
    /// let words = Words::of("voisins\t+1  002 \r", "jouer").unwrap();
    /// assert_eq!(words.words, ["voisins", "+1", "002"]);
    /// assert_eq!(words.integers(), Some(vec![1, 2]));
    /// assert!(Words::of("moi\u{1}", "jouer").unwrap_err().contains("byte 0x01"));
    /// ```
    pub fn of(line: &'a str, callback: &str) -> Result<Words<'a>, String> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(bad) = line
            .bytes()
            .find(|&b| !(b == b'\t' || (0x20..0x7f).contains(&b)))
        {
            return Err(format!(
                "byte 0x{bad:02x} in `{}` during {callback}: a line holds printable ASCII and \
                 tabs (protocol.md section 1)",
                jail::fault::quote(line.as_bytes())
            ));
        }
        Ok(Words {
            line,
            words: line.split_ascii_whitespace().collect(),
        })
    }

    /// The first word, the request's name (empty for a blank line).
    pub fn name(&self) -> &'a str {
        self.words.first().copied().unwrap_or("")
    }

    /// The words after the name.
    pub fn arguments(&self) -> &[&'a str] {
        self.words.get(1..).unwrap_or(&[])
    }

    /// The arguments as integers ([`integer`]); `None` if one is not.
    pub fn integers(&self) -> Option<Vec<i32>> {
        self.arguments().iter().map(|w| integer(w)).collect()
    }

    /// The words joined by single spaces: the line in its canonical form.
    pub fn canonical(&self) -> String {
        self.words.join(" ")
    }
}

/// An integer argument (protocol.md section 1): decimal digits, an optional leading `-` or
/// `+`, leading zeros allowed (`007` is 7), within a signed 32-bit integer; `None` for
/// anything else.
///
/// ```
/// use arena::words::integer;
/// assert_eq!(integer("+1"), Some(1));
/// assert_eq!(integer("-0007"), Some(-7));
/// assert_eq!(integer("2147483648"), None);
/// assert_eq!(integer("1.5"), None);
/// assert_eq!(integer(""), None);
/// ```
pub fn integer(word: &str) -> Option<i32> {
    // `str::parse` reads exactly that form (the sign, the digits, the range), nothing more.
    word.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_separate_words_and_only_printable_bytes_and_tabs_are_read() {
        for line in [
            "collect 1,0",
            "collect 1,0 ",
            " collect 1,0",
            "collect\t1,0",
            "collect  1,0\r",
        ] {
            assert_eq!(
                Words::of(line, "jouer").unwrap().canonical(),
                "collect 1,0",
                "{line:?}"
            );
        }
        assert_eq!(Words::of("", "jouer").unwrap().name(), "");
        assert_eq!(
            Words::of("  \t", "jouer").unwrap().arguments(),
            &[] as &[&str]
        );
        for bad in ["moi\u{0}", "moi\u{7f}", "moi\u{b}", "moi\r\r", "caf\u{e9}"] {
            let error = Words::of(bad, "end_game").unwrap_err();
            assert!(error.contains("during end_game"), "{error}");
            assert!(error.contains("protocol.md section 1"), "{error}");
        }
    }

    #[test]
    fn integers_are_32_bit_decimals_with_a_sign_and_leading_zeros() {
        assert_eq!(integer("2147483647"), Some(i32::MAX));
        assert_eq!(integer("-2147483648"), Some(i32::MIN));
        assert_eq!(integer("0001"), Some(1));
        for bad in [
            "-2147483649",
            "4294967296",
            "0x10",
            "1,0",
            "+",
            "-",
            "+-1",
            " 1",
        ] {
            assert_eq!(integer(bad), None, "{bad:?}");
        }
        let words = Words::of("voisins 1 x", "jouer").unwrap();
        assert_eq!(words.integers(), None);
    }
}
