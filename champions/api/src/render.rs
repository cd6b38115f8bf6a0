//! Templates rendered with the description: one minijinja environment with the filters the
//! kits' templates share (case conversions, comment wrapping, string quoting).

use minijinja::{Environment, UndefinedBehavior, Value};
use std::path::Path;

/// The environment loading templates from `dir`. Undefined variables are errors, so that a
/// misspelt field cannot silently render as nothing.
pub fn environment(dir: &Path) -> Environment<'static> {
    let mut env = Environment::new();
    env.set_loader(minijinja::path_loader(dir));
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.add_filter("upper_camel", upper_camel);
    env.add_filter("lower_camel", lower_camel);
    env.add_filter("wrap", wrap);
    env.add_filter("quoted", quoted);
    env.add_filter("ord", ord);
    env
}

/// `construire_route` -> `ConstruireRoute` (C#, Haskell types, Pascal, Go exported names).
pub fn upper_camel(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// `construire_route` -> `construireRoute` (Java, JavaScript style).
pub fn lower_camel(name: &str) -> String {
    let upper = upper_camel(name);
    let mut c = upper.chars();
    c.next()
        .map(|f| f.to_lowercase().chain(c).collect())
        .unwrap_or_default()
}

/// The words of `text` in lines of at most `width` characters (a longer word stays whole):
/// `{% for line in f.en | wrap(80) %}/* {{ line }} */{% endfor %}`.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A string literal between double quotes, with `\` and `"` escaped (valid in C, Rust,
/// Java, JavaScript, Python, ...).
pub fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        if c == '\\' || c == '"' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The code of a one-character string (`'.'` -> 46), for kits that compare bytes.
pub fn ord(text: &str) -> u32 {
    text.chars().next().map_or(0, u32::from)
}

/// A template's context value from any serialisable data.
pub fn value<T: serde::Serialize>(data: &T) -> Value {
    Value::from_serialize(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_follow_the_usual_forms() {
        assert_eq!(upper_camel("construire_route"), "ConstruireRoute");
        assert_eq!(lower_camel("construire_route"), "construireRoute");
        assert_eq!(upper_camel("score"), "Score");
        assert_eq!(lower_camel("type_case"), "typeCase");
    }

    #[test]
    fn wrap_keeps_words_whole() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("", 6), Vec::<String>::new());
        assert_eq!(quoted(r#"a"b\c"#), r#""a\"b\\c""#);
    }
}
