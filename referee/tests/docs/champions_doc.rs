//! champions/README.md's table of kits holds: every template it names has a comment at each
//! callback saying what the callback is for, and each kit's recipe copies the folder the
//! table says to start from.

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
