//! What an organiser hands a tournament or a gauntlet (the champions, a manifest, the
//! run's name, the results folder), as typed: each mistake refused with exit 2, every
//! culprit named with the fix, nothing played; what is legal but likely a slip, said. A
//! match's champions are named by the same rule, and refused alike.

use crate::common;
use common::shell_champion as shell;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// `referee ARGS...` with no input, waited for.
fn run(args: Vec<std::ffi::OsString>) -> Output {
    Command::new(REFEREE)
        .args(args)
        .env_remove(referee::reproduce_log::VARIABLE)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The words of a command line, text and paths alike.
fn words(words: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<std::ffi::OsString> {
    words.iter().map(|w| w.as_ref().to_os_string()).collect()
}

/// `referee ARGS... RESULTS`.
fn referee(args: &[&str], results: &Path) -> Output {
    let mut words: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
    words.push(results.into());
    run(words)
}

/// Exit code 2 and every word of `needles` in stderr; no match was played.
pub(crate) fn refused(out: &Output, needles: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "expected `{needle}` in: {stderr}");
    }
    assert!(!stderr.contains("pre-run check"), "{stderr}");
}

/// A results folder that cannot be one (a file in its place or on its way, a place where
/// nothing can be made) is the user's to fix: exit 2 naming the file and the fix, for a
/// tournament, a gauntlet and a match alike; the file is left as it was.
#[test]
fn a_results_folder_that_cannot_be_made_is_bad_input() {
    let dir = common::fresh_dir("field", "results-file");
    let file = dir.join("results.txt");
    std::fs::write(&file, "the organiser's notes").unwrap();
    let tournament = ["tournament", "random", "greedy", "--results"];
    let gauntlet = ["gauntlet", "random", "greedy", "--results"];
    for args in [&tournament, &gauntlet] {
        let out = referee(args, &file);
        refused(
            &out,
            &["results.txt is a file, not a folder", "name a folder"],
        );
        let out = referee(args, &file.join("under"));
        refused(&out, &["results.txt is a file, not a folder"]);
    }
    let out = referee(&["match", "random", "greedy", "random", "--out"], &file);
    refused(&out, &["results.txt is a file, not a folder"]);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "the organiser's notes"
    );
    // Nothing can be made at the top of /sys (EPERM, or EROFS in a container), as root too.
    let sys = Path::new("/sys").join(format!("referee-test-{}", std::process::id()));
    let out = referee(&tournament, &sys);
    refused(
        &out,
        &["cannot create the folder", "name a folder you can write"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run's name is one folder name: a newline or a tab in it is refused like a `/`.
#[test]
fn a_run_name_with_a_control_character_is_refused() {
    let dir = common::fresh_dir("field", "control-name");
    let results = dir.join("results");
    for name in ["two\nlines", "a\ttab", "bell\u{7}"] {
        for command in ["tournament", "gauntlet"] {
            let out = referee(
                &[command, "random", "greedy", "--name", name, "--results"],
                &results,
            );
            refused(&out, &["not a folder name", "control character"]);
        }
    }
    assert!(!results.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A manifest's path holding `#` or `=` is written in double quotes and plays; unquoted, or
/// with a quote left open, it is refused with its line and how to write it.
#[test]
fn a_manifest_path_with_a_hash_or_an_equals_sign_goes_in_quotes() {
    let dir = common::fresh_dir("field", "quoted");
    let odd = dir.join("field/round#2=final");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::copy(shell("passive.sh"), odd.join("passive.sh")).unwrap();
    let manifest = dir.join("m.txt");
    let results = dir.join("results");
    let play = |text: &str| {
        std::fs::write(&manifest, text).unwrap();
        run(words(&[
            &"tournament",
            &"random",
            &"greedy",
            &"--seed",
            &"3",
            &"--manifest",
            &manifest,
            &"--results",
            &results,
        ]))
    };
    for (text, line) in [
        ("# ours\nodd = field/round#2=final/passive.sh\n", "line 2"),
        ("odd = \"field/round#2=final/passive.sh\n", "line 1"),
        ("odd = \"field/round#2=final/passive.sh\" more\n", "line 1"),
    ] {
        refused(&play(text), &["m.txt", line, "double quotes"]);
    }
    assert!(!results.join("tournament").exists());
    let out = play("odd = \"field/round#2=final/passive.sh\"   # the quoted one\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let names: std::collections::BTreeSet<String> =
        common::tables::untimed(&results.join("tournament/leaderboard.csv"))
            .into_iter()
            .map(|row| row["champion"].clone())
            .collect();
    assert_eq!(names, ["greedy", "odd", "random"].map(String::from).into());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every champion that cannot be found is named at once, not one per attempt.
#[test]
fn every_missing_champion_is_named_at_once() {
    let dir = common::fresh_dir("field", "missing");
    let manifest = dir.join("m.txt");
    std::fs::write(&manifest, "alice = gone-alice/\nbob = gone-bob.sh\n").unwrap();
    let results = dir.join("results");
    let out = run(words(&[
        &"tournament",
        &"random",
        &"gone-carol",
        &"--manifest",
        &manifest,
        &"--results",
        &results,
    ]));
    refused(
        &out,
        &[
            "3 champions cannot play",
            "gone-carol",
            "gone-alice",
            "gone-bob.sh",
        ],
    );
    let out = referee(&["gauntlet", "gone-new", "gone-old", "--results"], &results);
    refused(&out, &["2 champions cannot play", "gone-new", "gone-old"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// No program passes for a built-in: a manifest's name that is a built-in's is refused
/// (never silently changed), and a program whose file is named like a built-in is shown
/// with its folder (`mine/greedy`), even when the built-in does not play; a gauntlet's
/// candidate too (`cpp/greedy vs random`).
#[test]
fn a_program_never_bears_a_builtins_name() {
    let dir = common::fresh_dir("field", "builtin-name");
    let mine = dir.join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::copy(shell("passive.sh"), mine.join("greedy")).unwrap();
    let manifest = dir.join("m.txt");
    std::fs::write(&manifest, "random = mine/greedy\n").unwrap();
    let results = dir.join("results");
    let play = |champions: &[&str], manifest: Option<&Path>| {
        let mut args = words(&[&"tournament", &"--seed", &"3", &"--results", &results]);
        args.extend(champions.iter().map(Into::into));
        if let Some(m) = manifest {
            args.extend(words(&[&"--manifest", &m]));
        }
        run(args)
    };
    let greedy = mine.join("greedy").display().to_string();
    let passive = shell("passive.sh");
    refused(
        &play(&["greedy", &passive], Some(&manifest)),
        &["`random`, the name of a built-in champion", "other-name ="],
    );
    refused(
        &play(&["random", &passive], Some(&manifest)),
        &["`random`, the name of a built-in champion"],
    );
    let out = play(&["random", &greedy, &passive], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names: std::collections::BTreeSet<String> =
        common::tables::untimed(&results.join("tournament/leaderboard.csv"))
            .into_iter()
            .map(|row| row["champion"].clone())
            .collect();
    assert_eq!(
        names,
        ["mine/greedy", "passive.sh", "random"]
            .map(String::from)
            .into()
    );
    // A gauntlet's candidate, a champion's folder named like a built-in (a copy of
    // `champions/cpp/greedy`), the built-in not among its opponents: its folder's parent
    // shows.
    let folder = dir.join("cpp/greedy");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(shell("passive.sh"), folder.join("champion")).unwrap();
    let out = run(words(&[
        &"gauntlet",
        &folder,
        &"random",
        &"random",
        &passive,
        &"--seed",
        &"3",
        &"--max-pairs",
        &"10",
        &"--jobs",
        &"2",
        &"--results",
        &dir.join("gauntlet"),
    ]));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.starts_with("cpp/greedy vs random: "), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two paths holding the same program play as two champions, and the run says so.
#[test]
fn the_same_program_under_two_names_is_noted() {
    let dir = common::fresh_dir("field", "same-program");
    for copy in ["v1", "v2"] {
        std::fs::create_dir_all(dir.join(copy)).unwrap();
        std::fs::copy(shell("passive.sh"), dir.join(copy).join("champion")).unwrap();
    }
    let (v1, v2, results) = (dir.join("v1"), dir.join("v2"), dir.join("results"));
    let out = run(words(&[
        &"tournament",
        &"random",
        &"greedy",
        &v1,
        &v2,
        &"--seed",
        &"3",
        &"--results",
        &results,
    ]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("`v1`") && stderr.contains("`v2`") && stderr.contains("same program"),
        "{stderr}"
    );
    // Different programs are not noted.
    let out = run(words(&[
        &"tournament",
        &"random",
        &"greedy",
        &v1,
        &"--seed",
        &"3",
        &"--name",
        &"other",
        &"--results",
        &results,
    ]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !stderr.contains("same program"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `dir/NAME`, a copy of the passive champion, executable.
fn passive_as(dir: &Path, name: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::copy(shell("passive.sh"), &path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A refusal that names no manifest: the command refused takes none.
#[track_caller]
fn without_manifest(out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("manifest"), "{stderr}");
}

/// A champion's name is shown as it is or refused: a file whose name holds a control
/// character (ESC) would be shown escaped, `x\x1b`, as a file named with a backslash is
/// shown; the two were refused as "the same program". Now the name that cannot be shown
/// is refused, naming the file and the fix, however it is given (an argument of a
/// tournament or a gauntlet, `--from-dir`, a manifest's line or name); the file named
/// with a backslash plays under its own name; a name that would be shown like another
/// (`=x` after its `_`, beside `_=x`) is refused naming both.
#[test]
fn a_name_that_cannot_be_shown_as_it_is_is_refused_however_it_is_given() {
    let dir = common::fresh_dir("field", "unshowable");
    let folder = dir.join("fd");
    std::fs::create_dir_all(&folder).unwrap();
    let escape = passive_as(&folder, "x\u{1b}");
    passive_as(&folder, "x\\x1b");
    let results = dir.join("results");
    let fix = [
        "U+001B",
        "rename its file or folder",
        "name it in a manifest",
    ];
    let out = run(words(&[
        &"tournament",
        &"random",
        &"--from-dir",
        &folder,
        &"--results",
        &results,
    ]));
    refused(&out, &["fd/x\\x1b` would be named `x\\x1b`"]);
    refused(&out, &fix);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("same"));
    let out = run(words(&[
        &"tournament",
        &escape,
        &"random",
        &"greedy",
        &"--results",
        &results,
    ]));
    refused(&out, &fix);
    let out = run(words(&[
        &"gauntlet",
        &escape,
        &"random",
        &"--results",
        &results,
    ]));
    // A gauntlet takes no manifest: its fix is the renaming alone.
    refused(&out, &fix[..2]);
    without_manifest(&out);
    let manifest = dir.join("m.txt");
    std::fs::write(&manifest, "fd/x\u{1b}\nrandom\ngreedy\n").unwrap();
    let out = run(words(&[
        &"tournament",
        &"--manifest",
        &manifest,
        &"--results",
        &results,
    ]));
    refused(&out, &fix);
    std::fs::write(&manifest, "x\u{1b} = fd/x\\x1b\nrandom\n").unwrap();
    let out = run(words(&[
        &"tournament",
        &"--manifest",
        &manifest,
        &"--results",
        &results,
    ]));
    refused(&out, &["line 1", "control characters"]);
    // Named in a manifest, a file with ESC plays under the name chosen; the file named
    // with a backslash plays under its own.
    std::fs::remove_file(&escape).unwrap();
    passive_as(&dir, "x\u{1b}");
    std::fs::write(&manifest, "escape = x\u{1b}\nrandom\n").unwrap();
    let out = run(words(&[
        &"tournament",
        &"--manifest",
        &manifest,
        &"--from-dir",
        &folder,
        &"--seed",
        &"3",
        &"--results",
        &results,
    ]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names: std::collections::BTreeSet<String> =
        common::tables::untimed(&results.join("tournament/leaderboard.csv"))
            .into_iter()
            .map(|row| row["champion"].clone())
            .collect();
    assert_eq!(
        names,
        ["escape", "random", "x\\x1b"].map(String::from).into()
    );
    // Two names shown alike once a formula's start is made harmless.
    let formulas = dir.join("formulas");
    std::fs::create_dir_all(&formulas).unwrap();
    passive_as(&formulas, "=x");
    passive_as(&formulas, "_=x");
    let out = run(words(&[
        &"tournament",
        &"random",
        &"--from-dir",
        &formulas,
        &"--name",
        &"formulas",
        &"--results",
        &results,
    ]));
    refused(
        &out,
        &[
            "(named `=x`)",
            "(named `_=x`)",
            "would both be shown as `_=x`",
            "rename one",
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `referee match` names its champions as a tournament does (one rule, in
/// `commands/names.rs`): a name holding a control or bidirectional character, which it
/// showed escaped (`x\x1b`, as the file named with a backslash is shown), is refused
/// naming the file, the character and the fix, in every game, and nothing is played; two
/// names shown alike once a formula's start is made harmless are refused naming both; the
/// file named with a backslash plays under its own name.
#[test]
fn a_match_refuses_a_name_that_cannot_be_shown_as_it_is_as_a_tournament_does() {
    let dir = common::fresh_dir("field", "match-names");
    let escape = passive_as(&dir, "x\u{1b}");
    let backslash = passive_as(&dir, "x\\x1b");
    let reversed = passive_as(&dir, "abc\u{202e}gpj.sh");
    let out_dir = dir.join("match");
    let out = run(words(&[
        &"match", &escape, &"random", &"greedy", &"--out", &out_dir,
    ]));
    refused(
        &out,
        &[
            "x\\x1b` would be named `x\\x1b`",
            "U+001B",
            "rename its file or folder",
        ],
    );
    without_manifest(&out);
    let out = run(words(&[
        &"--game", &"amazons", &"match", &reversed, &"random", &"--out", &out_dir,
    ]));
    refused(&out, &["U+202E", "rename its file or folder"]);
    without_manifest(&out);
    assert!(!out_dir.exists(), "a refused match made its folder");
    let formulas = dir.join("formulas");
    std::fs::create_dir_all(&formulas).unwrap();
    let formula = passive_as(&formulas, "=x");
    let harmless = passive_as(&formulas, "_=x");
    let out = run(words(&[
        &"match", &formula, &harmless, &"random", &"--out", &out_dir,
    ]));
    refused(&out, &["would both be shown as `_=x`", "rename one"]);
    without_manifest(&out);
    let out = run(words(&[
        &"match", &backslash, &"random", &"greedy", &"--seed", &"3", &"--out", &out_dir,
    ]));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("record.json")).unwrap()).unwrap();
    assert_eq!(record["seats"][0]["name"], "x\\x1b");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two champions that would read alike in the results are refused naming both, and a name
/// holding what shows as nothing, another blank than the space, or a space at either end
/// is refused naming the character and the fix, however it is given (red team 15: folders
/// `café` written two ways, `alice` and `alice` + U+200B played, two rows `café` and two
/// `alice` in the leaderboard).
#[test]
fn names_that_read_alike_are_refused_however_they_are_given() {
    let dir = common::fresh_dir("field", "alike");
    let results = dir.join("results");
    let from_dir = |folder: &Path| {
        run(words(&[
            &"tournament",
            &"random",
            &"greedy",
            &"--from-dir",
            &folder,
            &"--results",
            &results,
        ]))
    };
    // One word written with `é` and with `e` and a combining accent.
    let accents = dir.join("accents");
    std::fs::create_dir_all(&accents).unwrap();
    passive_as(&accents, "caf\u{e9}");
    passive_as(&accents, "cafe\u{301}");
    refused(
        &from_dir(&accents),
        &["would read alike", "rename one of them", "(named `caf"],
    );
    // Full-width letters, as arguments of a gauntlet.
    let wide = passive_as(&dir, "\u{ff42}ob");
    let narrow = passive_as(&dir, "bob");
    let out = run(words(&[
        &"gauntlet",
        &narrow,
        &wide,
        &"random",
        &"greedy",
        &"--results",
        &results,
    ]));
    refused(&out, &["(named `bob`)", "would read alike"]);
    // What shows as nothing or as another blank, a space at an end: each folder alone
    // beside the built-ins.
    for (i, (name, said)) in [
        ("alice\u{200b}", "U+200B, a character that shows as nothing"),
        ("eve\u{feff}", "U+FEFF, a character that shows as nothing"),
        ("\u{3164}", "U+3164, a character that shows as nothing"),
        ("alice\u{a0}", "U+00A0, a blank other than the plain space"),
        (" alice", "a space at its start"),
        ("alice ", "a space at its end"),
    ]
    .into_iter()
    .enumerate()
    {
        let folder = dir.join(format!("one{i}"));
        std::fs::create_dir_all(&folder).unwrap();
        passive_as(&folder, name);
        refused(
            &from_dir(&folder),
            &[said, "rename its file or folder", "name it in a manifest"],
        );
    }
    // A name chosen in a manifest is held to the same.
    let manifest = dir.join("m.txt");
    std::fs::write(
        &manifest,
        format!("alice\u{2060} = {}\nrandom\ngreedy\n", narrow.display()),
    )
    .unwrap();
    let out = run(words(&[
        &"tournament",
        &"--manifest",
        &manifest,
        &"--results",
        &results,
    ]));
    refused(&out, &["U+2060, a character that shows as nothing"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
