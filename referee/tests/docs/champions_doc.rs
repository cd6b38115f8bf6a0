//! champions/README.md's table of kits holds: every template it names has a comment at each
//! callback saying what the callback is for, and each kit's recipe copies the folder the
//! table says to start from; every test of the kits' binary its tables name exists.

use crate::claims_table::has_test;
use crate::common;

const CALLBACKS: [&str; 5] = ["init_game", "jouer", "enchere", "placement", "end_game"];

/// The table's "start from" cells: (`lang/template`, the main file), Rust's left out.
fn templates(readme: &str) -> Vec<(String, String)> {
    readme
        .lines()
        .filter_map(|line| {
            let cell = line.split('|').nth(2)?.trim();
            let (folder, file) = cell.split_once(" (`")?;
            let folder = folder.strip_prefix('`')?.strip_suffix('`')?;
            let file = file.strip_suffix("`)")?;
            folder
                .ends_with("/template")
                .then(|| (folder.to_string(), file.to_string()))
        })
        .collect()
}

/// Whether `line` of a file named `file` is (part of) a comment, for the kits' languages.
fn is_comment(file: &str, line: &str) -> bool {
    let l = line.trim();
    let ext = file.rsplit('.').next().unwrap_or("");
    match ext {
        "py" => l.starts_with('#') || l.starts_with("\"\"\"") || l.ends_with("\"\"\""),
        "rb" => l.starts_with('#'),
        "lua" | "hs" => l.starts_with("--"),
        "pl" => l.starts_with('%'),
        "ml" => l.starts_with("(*") || l.ends_with("*)"),
        "pas" => l.starts_with('{') || l.ends_with('}'),
        _ => l.starts_with("//") || l.starts_with("/*") || l.starts_with('*') || l.ends_with("*/"),
    }
}

/// Whether `line` names `callback` (`init_game`, Go's and C#'s `InitGame`) outside a
/// comment.
fn names(file: &str, line: &str, callback: &str) -> bool {
    let squashed: String = line
        .chars()
        .filter(|&c| c != '_')
        .collect::<String>()
        .to_lowercase();
    let wanted = callback.replace('_', "");
    !is_comment(file, line)
        && squashed.match_indices(&wanted).any(|(at, _)| {
            let before = squashed[..at].chars().next_back();
            let after = squashed[at + wanted.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
}

#[test]
fn every_template_comments_each_callback_and_each_recipe_copies_the_table_s_folder() {
    let repo = common::stage::repo();
    let readme = std::fs::read_to_string(repo.join("champions/README.md")).unwrap();
    let templates = templates(&readme);
    assert!(templates.len() >= 14, "{templates:?}");
    for (folder, file) in &templates {
        let path = repo.join("champions").join(folder).join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{folder}/{file}: {e}"));
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        for callback in CALLBACKS {
            let at: Vec<usize> = (0..lines.len())
                .filter(|&i| names(file, lines[i], callback))
                .collect();
            if at.is_empty() {
                continue; // a template may leave a callback out: it does nothing
            }
            // A comment just before the definition, or first in its body.
            let commented = at.iter().any(|&i| {
                (i > 0 && is_comment(file, lines[i - 1]))
                    || lines[i + 1..].iter().take(2).any(|l| is_comment(file, l))
            });
            assert!(
                commented,
                "{folder}/{file}: `{callback}` has no comment saying what it is for"
            );
        }
        // The recipe copies the folder the table names.
        let lang = folder.split('/').next().unwrap();
        for line in readme
            .lines()
            .filter(|l| l.starts_with(&format!("cp -r champions/{lang}/")))
        {
            assert!(
                line.starts_with(&format!("cp -r champions/{folder} ")),
                "the table says to start from {folder}, the recipe says `{line}`"
            );
        }
    }
}

/// The `module::test` names of the kits' test binary (`referee/tests/kits/<module>.rs`) that
/// `text` holds, each with whether that test exists; a `module::` alone (a filter of the
/// whole module) with whether the module does. Other `a::b` paths are left out.
fn kits_tests_named(text: &str, kits: &std::path::Path) -> Vec<(String, bool)> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .filter_map(|word| {
            let (module, function) = word.split_once("::")?;
            let source = std::fs::read_to_string(kits.join(format!("{module}.rs"))).ok()?;
            let exists = function.is_empty() || has_test(&source, function);
            Some((word.to_string(), exists))
        })
        .collect()
}

/// Every test the kits' tables cite (the 2009 form, the rules in the cache, a runtime's
/// error, the Python 2 conversion) is a test of that name in `referee/tests/kits/`.
#[test]
fn every_kits_test_champions_readme_names_exists() {
    let repo = common::stage::repo();
    let kits = repo.join("referee/tests/kits");
    let readme = std::fs::read_to_string(repo.join("champions/README.md")).unwrap();
    let named = kits_tests_named(&readme, &kits);
    assert!(
        named.len() >= 60,
        "only {} tests found: {named:?}",
        named.len()
    );
    let missing: Vec<&String> = named.iter().filter(|n| !n.1).map(|n| &n.0).collect();
    assert!(
        missing.is_empty(),
        "tests champions/README.md names that referee/tests/kits/ does not have: {missing:#?}"
    );
    // The check finds a name that is not there, and reads a name inside a command.
    let made_up = "`kits2009::no_such_test` and `cargo test -- kit_errors::a_c_failed_assertion_is_a_crash_reported_at_once`";
    assert_eq!(
        kits_tests_named(made_up, &kits),
        [
            ("kits2009::no_such_test".to_string(), false),
            (
                "kit_errors::a_c_failed_assertion_is_a_crash_reported_at_once".to_string(),
                true
            )
        ]
    );
}
