//! The 2009 form of the scripting kits (issue 32): a champion written from the skeleton
//! the 2009 generator gave (2010's for PHP and JavaScript), filled in with information
//! functions, actions and debug prints (`tests/fixtures/kits2009/<kit>/`), dropped into
//! today's template in place of the template's file, plays a whole match through the real
//! referee with no fault, and what it and its runtime print on stdout lands in its log,
//! never in the protocol. Asserted through what a contestant sees: `referee match`'s exit
//! code and summary, and the log the summary names.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The fixture `file` of kit `kit` (`tests/fixtures/kits2009/<kit>/<file>`).
fn fixture(kit: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/kits2009")
        .join(kit)
        .join(file)
}

/// Whether `tool` runs here; a skip (a failure under `CI=true`) that says so when not.
pub(crate) fn has(tool: &str, version_flag: &str) -> bool {
    let ok = Command::new(tool)
        .arg(version_flag)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        common::skip_missing(&format!(
            "kits2009: `{tool}` is not installed (scripts/ci-install.sh installs it)"
        ));
    }
    ok
}

/// A copy of `champions/<kit>/template` named `name`, its `file` replaced by the fixture
/// `fixture_file` of the kit: what a contestant does with a 2009 skeleton they filled in.
fn dropped_in(kit: &str, file: &str, fixture_file: &str, name: &str) -> PathBuf {
    let champion = template_copy(kit, name);
    fs::copy(fixture(kit, fixture_file), champion.join(file)).unwrap();
    champion
}

/// A fresh copy of `champions/<kit>/template` named `name`: what a contestant starts from.
pub(crate) fn template_copy(kit: &str, name: &str) -> PathBuf {
    let template = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../champions")
        .join(kit)
        .join("template");
    let champion = common::fresh_dir("kits2009", name).join(name);
    fs::create_dir(&champion).unwrap();
    // The template's own files: not what a build left in it (`classes/`, `_build/`, a
    // compiled `champion`, objects `*.o`, which a file written in the same tick of the
    // clock would not be older than; a launcher `champion` is a script).
    for entry in fs::read_dir(&template).unwrap().flatten() {
        let path = entry.path();
        let built = (entry.file_name() == "champion"
            && !fs::read(&path).unwrap().starts_with(b"#!"))
            || path.extension().is_some_and(|e| e == "o");
        if path.is_file() && !built {
            fs::copy(&path, champion.join(entry.file_name())).unwrap();
        }
    }
    champion
}

/// One match seen as its contestant sees it: `referee match`'s output and the log of
/// seat 0 (the file its `stderr:` line names).
pub(crate) struct Seen {
    pub(crate) out: Output,
    pub(crate) log: String,
}

impl Seen {
    pub(crate) fn stdout(&self) -> String {
        common::text(&self.out.stdout)
    }

    /// The summary's row of seat 0: its columns (seat, champion, score, money, houses,
    /// points) and the faults column as one string.
    pub(crate) fn row0(&self) -> (Vec<String>, String) {
        let stdout = self.stdout();
        let line = stdout
            .lines()
            .find(|l| l.starts_with("0 "))
            .unwrap_or_else(|| panic!("no row of seat 0 in the summary:\n{stdout}"));
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        assert!(words.len() >= 7, "a short row: {line}");
        (words[..6].to_vec(), words[6..].join(" "))
    }

    /// Asserts the match ended well for seat 0: exit 0, no fault, houses built.
    fn played_well(&self, what: &str) {
        let stdout = self.stdout();
        assert!(
            self.out.status.success(),
            "{what}: referee match failed ({}):\n{stdout}\n{}",
            self.out.status,
            common::text(&self.out.stderr)
        );
        let (columns, faults) = self.row0();
        assert_eq!(
            faults, "-",
            "{what}: a fault in seat 0:\n{stdout}\nits log:\n{}",
            self.log
        );
        let houses: i64 = columns[4].parse().unwrap();
        assert!(houses > 0, "{what} built no house:\n{stdout}\n{}", self.log);
    }

    /// Asserts the log of seat 0 holds each of `lines`.
    fn logged(&self, what: &str, lines: &[&str]) {
        for text in lines {
            assert!(
                self.log.contains(text),
                "{what}'s log lacks `{text}`:\n{}",
                self.log
            );
        }
    }
}

/// Plays `champion` (a folder) in seat 0 against the built-ins, with the real referee, and
/// checks that none of its processes is left.
fn play(champion: &Path, seed: u64) -> Seen {
    play_with(champion, seed, &[])
}

/// [`play`] with more options of `referee match` (`--time-scale 30`).
pub(crate) fn play_with(champion: &Path, seed: u64, options: &[&str]) -> Seen {
    let out_dir = champion.with_file_name(format!("match{seed}"));
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("match")
        .arg(champion)
        .args(["random", "greedy", "--seed", &seed.to_string()])
        .args(options)
        .arg("--out")
        .arg(&out_dir)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the referee runs");
    let stdout = common::text(&out.stdout);
    let log_path = stdout
        .lines()
        .find_map(|l| l.strip_prefix("stderr: "))
        .and_then(|l| l.split(" (").next())
        .unwrap_or_else(|| panic!("no `stderr:` line:\n{stdout}"));
    let log = fs::read_to_string(log_path).unwrap_or_else(|e| panic!("{log_path}: {e}"));
    let marker = champion.display().to_string();
    common::wait_until(
        &format!("a process of {marker} is left after the match"),
        std::time::Duration::from_secs(2),
        || !of_champion_running(&marker),
    );
    Seen { out, log }
}

/// Whether a process runs from the folder `marker`: unjailed, its command line names it; in
/// a jail, its mount table does (the folder is mounted as its `/champion`). A process of
/// another uid whose mount table a normal user may not read is seen as root only.
fn of_champion_running(marker: &str) -> bool {
    let names = |path: std::path::PathBuf| {
        fs::read(path).is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
    };
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|p| {
            p.file_name()
                .to_str()
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .any(|p| names(p.path().join("cmdline")) || names(p.path().join("mountinfo")))
}

/// Python: `import api` and `import constants` as generated (`constants.SUCCES`,
/// `api.type_case`), `mon_tour() == 0`, tabs; a program it starts and `os.write(1, ...)`
/// print on stdout.
#[test]
fn python_2009_skeleton_filled_in_plays_unchanged() {
    if !has("python3", "--version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("python", "prologin.py", "prologin.py", "py2009");
    let seen = play(&champion, 41);
    seen.played_well("py2009");
    seen.logged(
        "py2009",
        &[
            "[py2009] init_game: tour 1",
            "[py2009] bruit de echo sur stdout",
            "[py2009] bruit de os.write(1)",
            "[py2009] jouer tour 15:",
            "[py2009] fin: score",
        ],
    );
}

/// Lua: the API through the table `prologin` (`prologin.type_case(x, y)`), `mon_tour()` a
/// number (`prologin.mon_tour() ~= 1`), the constants written by hand (2009's Lua
/// interface gave none); `io.write` and a program it starts print on stdout.
#[test]
fn lua_2009_skeleton_filled_in_plays_unchanged() {
    if !has("lua5.4", "-v") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("lua", "prologin.lua", "prologin.lua", "lua2009");
    let seen = play(&champion, 42);
    seen.played_well("lua2009");
    seen.logged(
        "lua2009",
        &[
            "[lua2009] init_game: tour 1",
            "[lua2009] bruit de io.write",
            "[lua2009] bruit de echo sur stdout",
            "[lua2009] jouer tour 15:",
            "[lua2009] fin: score",
        ],
    );
}

/// Lua: a runtime error in a callback (a nil value indexed in turn 2) is a crash in that
/// callback, reported at once with Lua's message and the line, not a timeout (the kit
/// used to wait for its relay of the referee's lines, which only ended at the timeout).
#[test]
fn a_lua_runtime_error_is_a_crash_reported_with_its_message() {
    if !has("lua5.4", "-v") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("lua", "prologin.lua", "erreur.lua", "lua2009err");
    let seen = play(&champion, 43);
    let stdout = seen.stdout();
    assert!(seen.out.status.success(), "referee match failed:\n{stdout}");
    let (_, faults) = seen.row0();
    assert!(
        faults.starts_with("crash:"),
        "a crash, not `{faults}`:\n{stdout}\n{}",
        seen.log
    );
    for text in [
        "prologin kit (Lua): error in jouer:",
        "prologin.lua:8: attempt to index a nil value (local 'maison')",
    ] {
        assert!(faults.contains(text), "the fault lacks `{text}`: {faults}");
    }
    seen.logged("lua2009err", &["[lua2009] jouer tour 2"]);
    assert!(
        !seen.log.contains("[lua2009] jouer tour 3"),
        "the champion went on after its error:\n{}",
        seen.log
    );
    // `referee show` names the fault in its turn and phase.
    let show = common::run_ok(
        Command::new(env!("CARGO_BIN_EXE_referee"))
            .arg("show")
            .arg(champion.with_file_name("match43")),
    );
    let show = common::text(&show.stdout);
    assert!(
        show.contains("seat 0 turn 2 phase I: crash:"),
        "referee show:\n{show}"
    );
}

/// Ruby: the callbacks are the methods of the skeleton's `class Prologin` (one instance,
/// with its own state in `@monuments`), `require 'constants.rb'`, `mon_tour` a number;
/// `STDOUT.syswrite` and a program it starts print on stdout.
#[test]
fn ruby_2009_skeleton_filled_in_plays_unchanged() {
    if !has("ruby", "--version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("ruby", "prologin.rb", "prologin.rb", "rb2009");
    let seen = play(&champion, 44);
    seen.played_well("rb2009");
    seen.logged(
        "rb2009",
        &[
            "[rb2009] init_game: tour 1",
            "[rb2009] bruit de STDOUT.syswrite",
            "[rb2009] bruit de echo sur stdout",
            "[rb2009] jouer tour 15:",
            "[rb2009] fin: score",
        ],
    );
}

/// PHP (2010's skeleton, the first): `require('api.php');` as its first line, the callbacks
/// as global functions, `mon_tour() == false`; `php://stdout`, a program it starts, and a
/// warning of PHP itself (an undefined variable) print on stdout.
#[test]
fn php_2010_skeleton_filled_in_plays_unchanged() {
    if !has("php", "--version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("php", "prologin.php", "prologin.php", "php2010");
    let seen = play(&champion, 45);
    seen.played_well("php2010");
    seen.logged(
        "php2010",
        &[
            "[php2010] init_game: tour 1",
            "[php2010] bruit de php://stdout",
            "[php2010] bruit de echo sur stdout",
            "Undefined variable $inconnue",
            "[php2010] jouer tour 15:",
            "[php2010] fin: score",
        ],
    );
}

/// JavaScript (2010's skeleton, the first): Latin-1, its constants redeclared with `var`,
/// the callbacks named (2010's generator wrote `function #<Function:...>()`), the API
/// global and in the object `prologin`, `mon_tour() == false`, `print` and `printl`; an
/// accent in a Latin-1 string reaches the log as the same letter; `process.stdout`,
/// `console.log` and a program it starts print on stdout.
#[test]
fn javascript_2010_skeleton_filled_in_plays_unchanged() {
    if !has("node", "--version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("javascript", "prologin.js", "prologin.js", "js2010");
    let seen = play(&champion, 46);
    seen.played_well("js2010");
    seen.logged(
        "js2010",
        &[
            "[js2010] init_game: tour 1",
            "[js2010] d\u{e9}marrage en Latin-1",
            "[js2010] bruit de process.stdout",
            "[js2010] bruit de console.log",
            "[js2010] bruit de echo sur stdout",
            "[js2010] jouer tour 15:",
            "[js2010] fin: score",
        ],
    );
}

/// Builds a champion's folder as a contestant's is built: `referee build` (its `make` in
/// a jail); what it printed.
pub(crate) fn build(champion: &Path) -> String {
    let out = common::run_ok(
        Command::new(env!("CARGO_BIN_EXE_referee"))
            .arg("build")
            .arg(champion),
    );
    common::text(&out.stdout) + &common::text(&out.stderr)
}

/// OCaml: `open Api`, the constants with their 2009 names (`_VIDE`, `_SUCCES`,
/// `_TAILLE_CARTE`), `mon_tour ()` a bool, the skeleton's `Callback.register` lines,
/// Latin-1 comments; a program it starts prints on stdout. Built with `referee build`.
#[test]
fn ocaml_2009_skeleton_filled_in_builds_and_plays_unchanged() {
    if !has("ocamlopt", "-version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("ocaml", "prologin.ml", "prologin.ml", "ml2009");
    build(&champion);
    let seen = play(&champion, 47);
    seen.played_well("ml2009");
    seen.logged(
        "ml2009",
        &[
            "[ml2009] init_game: tour 1",
            "[ml2009] bruit de echo sur stdout",
            "[ml2009] jouer tour 15:",
            "[ml2009] fin: score",
        ],
    );
}

/// Java: `class Prologin extends Interface` with the callbacks as public methods,
/// `mon_tour() == false` (2009's `boolean`), Latin-1 comments and strings; a program it
/// starts prints on stdout. Built with `referee build`, which says it used the 2009 API.
#[test]
fn java_2009_skeleton_filled_in_builds_and_plays_unchanged() {
    if !has("javac", "-version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("java", "Prologin.java", "Prologin.java", "java2009");
    let said = build(&champion);
    for text in [
        "-encoding ISO-8859-1",
        "java.mk: built with the 2009 API: mon_tour() returns boolean",
    ] {
        assert!(said.contains(text), "referee build lacks `{text}`:\n{said}");
    }
    let seen = play(&champion, 48);
    seen.played_well("java2009");
    seen.logged(
        "java2009",
        &[
            "[java2009] init_game: tour 1",
            "[java2009] bruit de echo sur stdout",
            "[java2009] jouer tour 15:",
            "[java2009] fin: score",
        ],
    );
}

/// C#: the 2009 file `prologin.cs` in place of the template's `Prologin.cs`, its class
/// Prologin with static lowercase callbacks (`static void jouer()`, not public), the API
/// through the class `API` (`API.type_case(x, y)`, `API.SUCCES`, `API.mon_tour() ==
/// false`, a bool), Latin-1 comments; a program it starts prints on stdout. Built with
/// `referee build`. It moves in turn 1: mono's own output never reaches the protocol.
#[test]
fn csharp_2009_skeleton_filled_in_builds_and_plays_unchanged() {
    if !has("mcs", "--version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("csharp", "prologin.cs", "prologin.cs", "cs2009");
    fs::remove_file(champion.join("Prologin.cs")).unwrap();
    build(&champion);
    let seen = play(&champion, 49);
    seen.played_well("cs2009");
    seen.logged(
        "cs2009",
        &[
            "[cs2009] init_game: tour 1",
            "[cs2009] bruit de echo sur stdout",
            "[cs2009] jouer tour 1: 2 maisons",
            "[cs2009] jouer tour 15:",
            "[cs2009] fin: score",
        ],
    );
}

/// Prolog (2010's skeleton, the first): Latin-1, the skeleton's own constants
/// (`const(0, succes).`, read with `const(S, succes)`), the callbacks of arity 1 as
/// generated (`jouer(void) :- ...`); an accent in a Latin-1 string reaches the log as the
/// same letter; a program it starts prints on stdout.
#[test]
fn prolog_2010_skeleton_filled_in_plays_unchanged() {
    if !has("swipl", "--version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("prolog", "prologin.pl", "prologin.pl", "pl2010");
    let seen = play(&champion, 50);
    seen.played_well("pl2010");
    seen.logged(
        "pl2010",
        &[
            "[pl2010] init_game: tour 1",
            "[pl2010] d\u{e9}marrage en Latin-1",
            "[pl2010] bruit de echo sur stdout",
            "[pl2010] jouer tour 1: 2 maisons",
            "[pl2010] jouer tour 15:",
            "[pl2010] fin: score",
        ],
    );
}

/// Pascal: `library champion` whose callbacks are `cdecl; export;` procedures named in
/// its `exports`, the API through `uses prolo_interface` (`mon_tour() = false`, the
/// constants), Latin-1 comments; a program it starts prints on stdout. Built with
/// `referee build`, which says it used the 2009 API.
#[test]
fn pascal_2009_skeleton_filled_in_builds_and_plays_unchanged() {
    if !has("fpc", "-iV") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("pascal", "prologin.pas", "prologin.pas", "pas2009");
    let said = build(&champion);
    assert!(
        said.contains("pascal.mk: prologin.pas is a 2009 library: built with the 2009 API"),
        "referee build does not say it used the 2009 API:\n{said}"
    );
    let seen = play(&champion, 51);
    seen.played_well("pas2009");
    seen.logged(
        "pas2009",
        &[
            "[pas2009] init_game: tour 1",
            "[pas2009] bruit de echo sur stdout",
            "[pas2009] jouer tour 1: 2 maisons",
            "[pas2009] jouer tour 15:",
            "[pas2009] fin: score",
        ],
    );
}

/// Haskell: the 2009 file `prologin.hs` in place of the template's `Prologin.hs`, kept
/// whole: its own constants (`_SUCCES = 0`), its `foreign import ccall` of each function
/// (`type_case :: Int -> Int -> IO Int`, `mon_tour :: IO Bool`) and `foreign export
/// ccall` of each callback, Latin-1 comments; a program it starts prints on stdout.
/// Built with `referee build` (in its jail, ghc reads Debian's package database through
/// `/usr/lib/ghc/package.conf.d`, a link into `/var/lib/ghc`), which says it used the 2009
/// API.
#[test]
fn haskell_2009_skeleton_filled_in_builds_and_plays_unchanged() {
    if !has("ghc", "--version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("haskell", "prologin.hs", "prologin.hs", "hs2009");
    fs::remove_file(champion.join("Prologin.hs")).unwrap();
    let said = build(&champion);
    assert!(
        said.contains("haskell.mk: prologin.hs is a 2009 champion: built with the 2009 API"),
        "referee build does not say it used the 2009 API:\n{said}"
    );
    let seen = play(&champion, 52);
    seen.played_well("hs2009");
    seen.logged(
        "hs2009",
        &[
            "[hs2009] init_game: tour 1",
            "[hs2009] bruit de echo sur stdout",
            "[hs2009] jouer tour 1: 2 maisons",
            "[hs2009] jouer tour 15:",
            "[hs2009] fin: score",
        ],
    );
}

/// Haskell's template as a contestant starts from it: `referee build` compiles it in its
/// jail (ghc finds its package database there) and it plays a whole match, doing nothing,
/// with no fault.
#[test]
fn haskell_template_builds_in_the_jail_and_plays() {
    if !has("ghc", "--version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = template_copy("haskell", "hstemplate");
    build(&champion);
    let seen = play(&champion, 53);
    assert!(
        seen.out.status.success(),
        "the Haskell template's match failed:\n{}",
        seen.stdout()
    );
    let (_, faults) = seen.row0();
    assert_eq!(
        faults,
        "-",
        "a fault:\n{}\nits log:\n{}",
        seen.stdout(),
        seen.log
    );
}

/// OCaml: what a callback printed before it was stopped at its time limit is in the log
/// (OCaml buffers stdout, and the kill leaves no exit to flush it): a line printed with
/// `Printf.printf`, then text without a newline, then a loop that calls nothing.
#[test]
fn ocaml_keeps_what_a_callback_printed_before_its_timeout() {
    if !has("ocamlopt", "-version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = template_copy("ocaml", "mlslow");
    fs::write(
        champion.join("prologin.ml"),
        "open Api\n\
         let jouer () =\n  \
           Printf.printf \"[mlslow] tour %d: avant la boucle\\n\" (numero_tour ());\n  \
           print_string \"[mlslow] sans fin de ligne\";\n  \
           let n = ref 0 in\n  \
           while true do n := !n + 1 done\n",
    )
    .unwrap();
    build(&champion);
    let seen = play_with(&champion, 54, &SHORT_CALL);
    let (_, faults) = seen.row0();
    assert!(
        faults.contains("timeout"),
        "mlslow was not stopped at its time limit:\n{}",
        seen.stdout()
    );
    seen.logged(
        "mlslow",
        &[
            "[mlslow] tour 1: avant la boucle",
            "[mlslow] sans fin de ligne",
        ],
    );
}

/// Every other kit: what a callback printed before it was stopped at its time limit is in
/// the log (the runtime's buffer, when it keeps one, is flushed at each line: the kill
/// leaves no exit to flush it). Each kit's template, its `jouer` replaced by a line
/// printed the language's usual way, then a loop that calls nothing; for Rust, the kit's
/// binary `slow_rust`, which does the same with `println!`.
#[test]
fn every_kit_keeps_what_a_callback_printed_before_its_timeout() {
    let rust = crate::kits::built().rust("slow_rust");
    let _heavy = common::heavy();
    if let Some(binary) = rust {
        let champion = common::fresh_dir("kits2009", "slow_rust").join("slow_rust");
        fs::create_dir(&champion).unwrap();
        fs::copy(binary, champion.join("champion")).unwrap();
        kept_before_timeout("rust", &champion);
    }
    // (kit, the tool that runs or builds it, the file, the champion)
    let kits: [(&str, &str, &str, &str); 13] = [
        ("c", "cc", "prologin.c", "#include <stdio.h>\n#include \"prologin.h\"\nvoid jouer(void) { printf(\"[slow] printed\\n\"); for (;;) {} }\n"),
        ("cpp", "c++", "prologin.cc", "#include <iostream>\n#include \"prologin.hh\"\nvoid jouer() { std::cout << \"[slow] printed\" << std::endl; for (;;) {} }\n"),
        ("python", "python3", "prologin.py", "def jouer():\n    print(\"[slow] printed\")\n    while True:\n        pass\n"),
        ("java", "javac", "Prologin.java", "public class Prologin extends Interface {\n  public void jouer() {\n    System.out.println(\"[slow] printed\");\n    for (;;) {}\n  }\n}\n"),
        ("csharp", "mcs", "Prologin.cs", "namespace Prologin {\n  class Prologin {\n    public void Jouer() { System.Console.WriteLine(\"[slow] printed\"); for (;;) {} }\n  }\n}\n"),
        ("go", "go", "prologin.go", "package main\n\nimport \"fmt\"\n\nfunc InitGame() {}\nfunc Jouer() {\n\tfmt.Println(\"[slow] printed\")\n\tfor {\n\t}\n}\nfunc Enchere() {}\nfunc Placement() {}\nfunc EndGame() {}\n"),
        ("pascal", "fpc", "prologin.pas", "unit prologin;\n\ninterface\n\nprocedure jouer;\n\nimplementation\n\nprocedure jouer;\nbegin\n  writeln('[slow] printed');\n  while true do ;\nend;\n\nend.\n"),
        ("haskell", "ghc", "Prologin.hs", "module Prologin (jouer) where\n\njouer :: IO ()\njouer = do\n  putStrLn \"[slow] printed\"\n  let spin n = if n < (0 :: Int) then return () else spin (n + 1)\n  spin 0\n"),
        ("ruby", "ruby", "prologin.rb", "def jouer\n  puts '[slow] printed'\n  loop {}\nend\n"),
        ("php", "php", "prologin.php", "<?php\nfunction jouer() { echo \"[slow] printed\\n\"; while (true) {} }\n"),
        ("lua", "lua5.4", "prologin.lua", "function jouer() print(\"[slow] printed\") while true do end end\n"),
        ("prolog", "swipl", "prologin.pl", "jouer :- format(\"[slow] printed~n\"), repeat, fail.\n"),
        ("javascript", "node", "prologin.js", "function jouer() { console.log(\"[slow] printed\"); for (;;) {} }\n"),
    ];
    for (kit, tool, file, source) in kits {
        let flag = match tool {
            "javac" => "-version",
            "lua5.4" => "-v",
            "go" => "version",
            "fpc" => "-iV",
            _ => "--version",
        };
        if !has(tool, flag) {
            continue;
        }
        let champion = template_copy(kit, &format!("slow_{kit}"));
        fs::write(champion.join(file), source).unwrap();
        if champion.join("Makefile").is_file() {
            build(&champion);
        }
        kept_before_timeout(kit, &champion);
    }
}

/// The call budget of the champions that loop until stopped: each spends its whole budget,
/// so the default second of CPU (for 14 kits) only made the test slower; 0.3 s (a deadline
/// of 1.9 s of wall) is still far more than the one line each prints first.
const SHORT_CALL: [&str; 2] = ["--call-cpu", "0.3"];

/// Plays `champion` of `kit`, which prints `[slow] printed` in its first `jouer` and then
/// loops: asserts it was stopped at its time limit and the line is in its log.
fn kept_before_timeout(kit: &str, champion: &Path) {
    let seen = play_with(champion, 54, &SHORT_CALL);
    let (_, faults) = seen.row0();
    assert!(
        faults.contains("timeout"),
        "{kit}: not stopped at its time limit:\n{}\nits log:\n{}",
        seen.stdout(),
        seen.log
    );
    seen.logged(kit, &["[slow] printed"]);
}

/// Python 2: a 2009 champion in Python 2 (`print` statements, `/` between integers used
/// as a cell and a bid, `xrange`, `has_key`, `keys()[0]`, `except E, e`, tabs and spaces
/// mixed) plays a whole match after the one command the README names,
/// `python3 <kit>/convert2009.py prologin.py`, which keeps the original beside it.
#[test]
fn python2_champion_plays_after_the_one_command_conversion() {
    if !has("python3", "--version") {
        return;
    }
    let _heavy = common::heavy();
    let champion = dropped_in("python", "prologin.py", "prologin2.py", "py2");
    let convert =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../champions/python/kit/convert2009.py");
    let out = common::run_ok(
        Command::new("python3")
            .arg(&convert)
            .arg(champion.join("prologin.py")),
    );
    let said = common::text(&out.stdout);
    assert!(
        said.contains("converted to Python 3"),
        "convert2009.py says:\n{said}"
    );
    assert_eq!(
        fs::read(champion.join("prologin.py2")).unwrap(),
        fs::read(fixture("python", "prologin2.py")).unwrap(),
        "the original is not kept as prologin.py2"
    );
    let seen = play(&champion, 55);
    seen.played_well("py2");
    seen.logged(
        "py2",
        &[
            "[py2] init_game: tour 1",
            "[py2] jouer tour 1: 2 maisons, milieu 50",
            "[py2] enchere",
            "[py2] fin: score",
        ],
    );
}
