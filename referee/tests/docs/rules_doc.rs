//! `docs/rules.md`, the contestants' rule book, agrees with the engine it describes. Both are
//! parsed, nothing is listed here:
//! - every function of the engine's `Api` trait (`engine/src/api.rs`) has an entry in the
//!   doc (a heading `` `name(a, b)` ``) with the same number of arguments, and every entry
//!   is a function of the trait;
//! - every constant of `engine/src/constants.rs` is in the doc's constants tables (section
//!   6.1) with the same value, and every constant of those tables is in the engine;
//! - every constant a function's code can return or test (found by following its calls
//!   through `api.rs`) is named in its entry, and the error codes of the entry's numbered
//!   list of checks come, first occurrences taken, in the order the code checks them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Rust source without `//` comments (doc comments included): the engine's files have no
/// `//` inside string literals.
fn strip_comments(src: &str) -> String {
    src.lines()
        .map(|line| line.find("//").map_or(line, |i| &line[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The index just past the bracket matching the opening one at `open`.
fn matching(src: &str, open: usize) -> usize {
    let bytes = src.as_bytes();
    let (o, c) = match bytes[open] {
        b'{' => (b'{', b'}'),
        b'(' => (b'(', b')'),
        other => panic!("not an opening bracket: {}", other as char),
    };
    let mut depth = 0;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        if b == o {
            depth += 1;
        } else if b == c {
            depth -= 1;
            if depth == 0 {
                return i + 1;
            }
        }
    }
    panic!("unbalanced bracket at byte {open}")
}

/// The `{ ... }` block opened by the first `{` after `header`, and where it ends.
fn block<'a>(src: &'a str, header: &str) -> (usize, usize, &'a str) {
    let start = src
        .find(header)
        .unwrap_or_else(|| panic!("`{header}` not found"));
    let open = start + src[start..].find('{').expect("a block");
    let end = matching(src, open);
    (start, end, &src[open + 1..end - 1])
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The identifiers of `src`, each with the byte index just after it.
fn identifiers(src: &str) -> Vec<(&str, usize)> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if is_ident_byte(bytes[i]) && (i == 0 || !is_ident_byte(bytes[i - 1])) {
            let start = i;
            while i < bytes.len() && is_ident_byte(bytes[i]) {
                i += 1;
            }
            if !bytes[start].is_ascii_digit() {
                out.push((&src[start..i], i));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Every `fn name(args) ... { body }` of `src`: name -> (argument count, body). Declarations
/// without a body (`fn name(args) -> i32;`) have `None` as body.
fn functions(src: &str) -> BTreeMap<String, (usize, Option<String>)> {
    let mut out = BTreeMap::new();
    for (ident, end) in identifiers(src) {
        if ident != "fn" {
            continue;
        }
        let rest = &src[end..];
        let name_len = rest
            .trim_start()
            .find(|c: char| !c.is_alphanumeric() && c != '_');
        let skipped = rest.len() - rest.trim_start().len();
        let name = &rest.trim_start()[..name_len.expect("fn name")];
        let open = end + skipped + name.len() + rest[skipped + name.len()..].find('(').unwrap();
        let close = matching(src, open);
        let args = src[open + 1..close - 1]
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty() && !a.ends_with("self"))
            .count();
        let after = &src[close..];
        let stop = after.find(['{', ';']).expect("a body or a `;`");
        let body = (after.as_bytes()[stop] == b'{').then(|| {
            let open = close + stop;
            src[open..matching(src, open)].to_string()
        });
        let previous = out.insert(name.to_string(), (args, body));
        assert!(
            previous.is_none(),
            "two functions named `{name}`: the analysis would mix them"
        );
    }
    out
}

/// What the code of `api.rs` knows: the `Api` trait, the helper functions with their bodies,
/// and the code of each `ApiError` variant.
struct Engine {
    /// Trait function -> number of arguments.
    api: BTreeMap<String, usize>,
    /// Every function with a body (trait implementations and helpers) -> body.
    bodies: BTreeMap<String, String>,
    /// `ApiError` variant -> constant name.
    error_codes: BTreeMap<String, String>,
    /// Constant name -> value (`engine/src/constants.rs`).
    constants: BTreeMap<String, i64>,
}

impl Engine {
    fn parse() -> Engine {
        let constants = parse_constants(&strip_comments(&read("engine/src/constants.rs")));
        let src = strip_comments(&read("engine/src/api.rs"));

        let (_, _, trait_body) = block(&src, "pub trait Api");
        let api: BTreeMap<String, usize> = functions(trait_body)
            .into_iter()
            .map(|(name, (args, body))| {
                assert!(body.is_none(), "the trait declares `{name}` with a body");
                (name, args)
            })
            .collect();

        // `ApiError::code` maps each variant to its constant; it is taken out of the source
        // before following calls, or every `code(...)` would seem to return every code.
        let (start, end, code_impl) = block(&src, "impl ApiError");
        let mut error_codes = BTreeMap::new();
        let idents = identifiers(code_impl);
        for w in idents.windows(3) {
            if w[0].0 == "ApiError" && code_impl[w[1].1..].trim_start().starts_with("=>") {
                assert!(constants.contains_key(w[2].0), "unknown code {}", w[2].0);
                error_codes.insert(w[1].0.to_string(), w[2].0.to_string());
            }
        }
        assert!(error_codes.len() >= 5, "ApiError::code not parsed");

        let rest = format!("{}{}", &src[..start], &src[end..]);
        let (trait_start, trait_end, _) = block(&rest, "pub trait Api");
        let rest = format!("{}{}", &rest[..trait_start], &rest[trait_end..]);
        let bodies = functions(&rest)
            .into_iter()
            .filter_map(|(name, (_, body))| body.map(|b| (name, b)))
            .collect();
        Engine {
            api,
            bodies,
            error_codes,
            constants,
        }
    }

    /// The constants `name`'s code can return or test, in the order they appear once every
    /// call to another function of `api.rs` is replaced by that function's own list.
    fn flatten(&self, name: &str, stack: &mut Vec<String>, out: &mut Vec<String>) {
        let body = &self.bodies[name];
        stack.push(name.to_string());
        let idents = identifiers(body);
        let mut i = 0;
        while i < idents.len() {
            let (ident, end) = idents[i];
            let next = body[end..].trim_start();
            if ident == "ApiError" && next.starts_with("::") && i + 1 < idents.len() {
                if let Some(code) = self.error_codes.get(idents[i + 1].0) {
                    out.push(code.clone());
                }
                i += 2;
                continue;
            }
            if self.constants.contains_key(ident) {
                out.push(ident.to_string());
            } else if next.starts_with('(')
                && self.bodies.contains_key(ident)
                && !stack.iter().any(|s| s == ident)
            {
                self.flatten(ident, stack, out);
            }
            i += 1;
        }
        stack.pop();
    }

    fn constants_of(&self, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.flatten(name, &mut Vec::new(), &mut out);
        out
    }

    /// The error codes of `names`, each at its first occurrence.
    fn error_order(&self, names: &[String]) -> Vec<String> {
        let codes: BTreeSet<&String> = self.error_codes.values().collect();
        let mut out: Vec<String> = Vec::new();
        for n in names {
            if codes.contains(n) && !out.contains(n) {
                out.push(n.clone());
            }
        }
        out
    }
}

fn parse_constants(src: &str) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    for line in src.lines() {
        let Some(rest) = line.trim().strip_prefix("pub const ") else {
            continue;
        };
        let (name, rest) = rest.split_once(':').expect("`NAME: type = value;`");
        let value = rest
            .split_once('=')
            .expect("a value")
            .1
            .trim()
            .trim_end_matches(';')
            .trim();
        let value: i64 = value
            .parse()
            .unwrap_or_else(|_| panic!("constant {name}: value `{value}` is not an integer"));
        out.insert(name.trim().to_string(), value);
    }
    assert!(!out.is_empty(), "no constant parsed");
    out
}

/// One function's entry in the doc: its heading's argument count and its text.
struct Entry {
    args: usize,
    text: String,
    /// The numbered list of checks, one string per item (continuation lines joined).
    checks: Vec<String>,
}

/// Headings whose whole text is `` `name(args)` ``, each with the text up to the next
/// heading.
fn doc_entries(doc: &str) -> BTreeMap<String, Entry> {
    let mut out = BTreeMap::new();
    let lines: Vec<&str> = doc.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#').trim();
        let Some(sig) = heading.strip_prefix('`').and_then(|h| h.strip_suffix("`")) else {
            continue;
        };
        let Some((name, args)) = sig.strip_suffix(')').and_then(|s| s.split_once('(')) else {
            continue;
        };
        let args = args.split(',').filter(|a| !a.trim().is_empty()).count();
        let body: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with('#'))
            .copied()
            .collect();
        let mut checks: Vec<String> = Vec::new();
        let mut in_item = false;
        for l in &body {
            let numbered = l
                .split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            if numbered {
                checks.push(l.to_string());
                in_item = true;
            } else if in_item && l.starts_with("   ") {
                checks.last_mut().expect("an item").push_str(l);
            } else {
                in_item = false;
            }
        }
        let entry = Entry {
            args,
            text: body.join("\n"),
            checks,
        };
        assert!(
            out.insert(name.to_string(), entry).is_none(),
            "two entries for `{name}` in docs/rules.md"
        );
    }
    out
}

/// The rows `` | `NAME` | value | ... `` of the doc's constants section (6.1).
fn doc_constants(doc: &str) -> BTreeMap<String, i64> {
    let start = doc
        .lines()
        .position(|l| l.starts_with("### ") && l.contains("Constants"))
        .expect("a `### ... Constants` section in docs/rules.md");
    let mut out = BTreeMap::new();
    for line in doc.lines().skip(start + 1) {
        if line.starts_with("### ") || line.starts_with("## ") {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || !cells[0].is_empty() {
            continue;
        }
        let Some(name) = cells[1].strip_prefix('`').and_then(|c| c.strip_suffix('`')) else {
            continue;
        };
        let value: i64 = cells[2]
            .parse()
            .unwrap_or_else(|_| panic!("docs/rules.md: `{name}` has value `{}`", cells[2]));
        if let Some(previous) = out.insert(name.to_string(), value) {
            assert_eq!(previous, value, "docs/rules.md gives `{name}` two values");
        }
    }
    out
}

#[test]
fn every_api_function_has_an_entry_with_its_arguments() {
    let engine = Engine::parse();
    let entries = doc_entries(&read("docs/rules.md"));
    assert!(engine.api.len() >= 20, "the Api trait was not parsed");
    let mut problems = Vec::new();
    for (name, &args) in &engine.api {
        match entries.get(name) {
            None => problems.push(format!("`{name}` has no entry")),
            Some(e) if e.args != args => problems.push(format!(
                "`{name}` takes {args} arguments, its entry shows {}",
                e.args
            )),
            Some(_) => {}
        }
    }
    for name in entries.keys() {
        if !engine.api.contains_key(name) {
            problems.push(format!(
                "the entry `{name}` is not a function of the Api trait"
            ));
        }
    }
    assert!(problems.is_empty(), "docs/rules.md: {problems:#?}");
}

#[test]
fn every_constant_is_in_the_constants_tables_with_its_value() {
    let engine = Engine::parse();
    let doc = doc_constants(&read("docs/rules.md"));
    let mut problems = Vec::new();
    for (name, value) in &engine.constants {
        match doc.get(name) {
            None => problems.push(format!("`{name}` = {value} is missing")),
            Some(v) if v != value => {
                problems.push(format!("`{name}` is {value} in the engine, {v} in the doc"))
            }
            Some(_) => {}
        }
    }
    for name in doc.keys() {
        if !engine.constants.contains_key(name) {
            problems.push(format!(
                "`{name}` is not a constant of engine/src/constants.rs"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "docs/rules.md section 6.1: {problems:#?}"
    );
}

#[test]
fn every_entry_names_its_codes_in_the_order_they_are_checked() {
    let engine = Engine::parse();
    let entries = doc_entries(&read("docs/rules.md"));
    let mut problems = Vec::new();
    let mut ordered = 0;
    for name in engine.api.keys() {
        let Some(entry) = entries.get(name) else {
            continue; // reported by the first test
        };
        let constants = engine.constants_of(name);
        for c in constants.iter().collect::<BTreeSet<_>>() {
            if !entry.text.contains(&format!("`{c}`")) {
                problems.push(format!(
                    "`{name}` can return or test `{c}`: not in its entry"
                ));
            }
        }
        let in_code = engine.error_order(&constants);
        let in_doc: Vec<String> = entry
            .checks
            .iter()
            .flat_map(|item| {
                identifiers(item)
                    .into_iter()
                    .map(|(i, _)| i.to_string())
                    .filter(|i| engine.error_codes.values().any(|c| c == i))
            })
            .collect();
        let in_doc = engine.error_order(&in_doc);
        if in_doc != in_code {
            problems.push(format!(
                "`{name}`: the code checks {in_code:?} (first occurrences), the entry's list {in_doc:?}"
            ));
        }
        ordered += usize::from(!in_code.is_empty());
    }
    // The analysis found codes at all: the seven actions and the checks return some.
    assert!(
        ordered >= 10,
        "only {ordered} functions with error codes found"
    );
    assert!(problems.is_empty(), "docs/rules.md: {problems:#?}");
}
