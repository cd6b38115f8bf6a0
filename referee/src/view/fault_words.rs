//! A fault's message as a summary shows it (`match`'s lines and table): beside the
//! callback and turn it happened in, the jail's words for the moment a champion died ("while
//! the referee waited for a line", the protocol's view of it) become what they mean for
//! the champion. Records keep the jail's words unchanged.

use std::borrow::Cow;

/// The jail's phrases and what each means, said after the callback is named.
const PHRASES: [(&str, &str); 2] = [
    (
        " while the referee waited for a line",
        " before ending its callback (no `fin`)",
    ),
    (
        " while the referee was writing to it",
        " while the referee was sending it a line",
    ),
];

/// `message` in a summary's words.
pub fn in_words(message: &str) -> Cow<'_, str> {
    match PHRASES.iter().find(|(jail, _)| message.contains(jail)) {
        Some((jail, meant)) => Cow::Owned(message.replacen(jail, meant, 1)),
        None => Cow::Borrowed(message),
    }
}

#[cfg(test)]
mod tests {
    use super::in_words;

    #[test]
    fn the_protocol_s_phrase_becomes_what_it_means() {
        assert_eq!(
            in_words("ended (exit 3) while the referee waited for a line"),
            "ended (exit 3) before ending its callback (no `fin`)"
        );
        assert_eq!(in_words("used 1.2 s of CPU"), "used 1.2 s of CPU");
    }
}
