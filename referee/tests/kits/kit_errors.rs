//! A runtime's error in a callback, in every kit (issue 32): a champion of each of the
//! fifteen kits that fails in its first `jouer` the way its language fails (an exception, a
//! failed assertion, a panic, a nil call) is stopped at once with a `crash` of that seat in
//! that callback, whose message quotes the runtime's own, never left to run into its time
//! limit. Asserted through what a contestant reads: `referee match`'s summary and the match
//! record (its fault, and its own figures of the callback's time against the budgets it
//! names).

use crate::common;
use crate::kits2009::{build, has, play_with, template_copy, Seen};

use serde_json::Value;
use std::fs;
use std::path::Path;

/// The record of the match played with `referee match --out out`.
fn record(out: &Path) -> Value {
    let path = out.join("record.json");
    serde_json::from_slice(&fs::read(&path).unwrap_or_else(|e| panic!("{path:?}: {e}")))
        .expect("record.json is JSON")
}

/// Asserts that seat 0 of the match `seen` (its record `record`, in folder `out`) crashed in
/// its first `jouer` (turn 1, as `referee show` says), with each of `says` in the fault's message, within half of that
/// callback's CPU and wall budgets by the record's own figures (a runtime left hanging after
/// its error would reach the wall-clock deadline, or its CPU budget), and played nothing
/// after it.
fn crashed_at_once(kit: &str, seen: &Seen, out: &Path, says: &[&str]) {
    let record = record(out);
    let stdout = seen.stdout();
    assert!(
        seen.out.status.success(),
        "{kit}: referee match failed:\n{stdout}"
    );
    let (_, faults) = seen.row0();
    assert!(
        faults.starts_with("crash:"),
        "{kit}: a crash, not `{faults}`:\n{stdout}\nits log:\n{}",
        seen.log
    );
    let callbacks = record["callbacks"].as_array().expect("callbacks");
    let at = callbacks
        .iter()
        .position(|c| c["seat"] == 0 && !c["fault"].is_null())
        .unwrap_or_else(|| panic!("{kit}: no fault of seat 0 in the record:\n{stdout}"));
    let callback = &callbacks[at];
    assert_eq!(
        (&callback["callback"], &callback["fault"]["kind"]),
        (&Value::from("jouer"), &Value::from("crash")),
        "{kit}: the fault's callback and kind: {callback}"
    );
    assert!(
        !callbacks[..at]
            .iter()
            .any(|c| c["seat"] == 0 && c["callback"] == "jouer"),
        "{kit}: seat 0 played a `jouer` before its crash"
    );
    let message = callback["fault"]["message"].as_str().unwrap();
    for text in says {
        assert!(
            message.contains(text),
            "{kit}: the fault lacks the runtime's `{text}`: {message}\nits log:\n{}",
            seen.log
        );
    }
    assert!(
        !callbacks[at + 1..].iter().any(|c| c["seat"] == 0),
        "{kit}: seat 0 played after its crash"
    );
    let spent = &record["timings"][at];
    let budget = &record["budgets"]["call"];
    for figure in ["cpu_us", "wall_us"] {
        let (spent, budget) = (spent[figure].as_u64(), budget[figure].as_u64());
        let (Some(spent), Some(budget)) = (spent, budget) else {
            panic!("{kit}: the record lacks `{figure}` of the callback or its budget")
        };
        assert!(
            spent < budget / 2,
            "{kit}: the crash took {spent} us of {figure}, of a budget of {budget} us: \
             not reported at once"
        );
    }
    let show = common::run_ok(
        std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
            .arg("show")
            .arg(out),
    );
    let show = common::text(&show.stdout);
    assert!(
        show.contains("seat 0 turn 1 phase I: crash:"),
        "{kit}: referee show:\n{show}"
    );
}

/// The template of `kit` with `file` written as `source`, built when it has a `Makefile`
/// (`referee build`), played in seat 0 (seed 60); asserts it crashed at once saying `says`.
fn fails_at_once(kit: &str, tool: (&str, &str), file: &str, source: &str, says: &[&str]) {
    if !has(tool.0, tool.1) {
        return;
    }
    let _heavy = common::heavy();
    let champion = template_copy(kit, &format!("error_{kit}"));
    fs::write(champion.join(file), source).unwrap();
    if champion.join("Makefile").is_file() {
        build(&champion);
    }
    let seen = play_with(&champion, 60, &[]);
    crashed_at_once(kit, &seen, &champion.with_file_name("match60"), says);
}

/// C: a failed `assert`, which aborts.
#[test]
fn a_c_failed_assertion_is_a_crash_reported_at_once() {
    fails_at_once(
        "c",
        ("cc", "--version"),
        "prologin.c",
        "#include <assert.h>\n#include \"prologin.h\"\n\
         void jouer(void) {\n  int tour = numero_tour();\n  assert(tour > 99);\n}\n",
        &[
            "signal 6 (SIGABRT)",
            "prologin.c:5: jouer: Assertion `tour > 99' failed.",
        ],
    );
}

/// C++: an exception nobody catches (`std::vector::at` out of its range).
#[test]
fn a_cpp_uncaught_exception_is_a_crash_reported_at_once() {
    fails_at_once(
        "cpp",
        ("c++", "--version"),
        "prologin.cc",
        "#include <vector>\n#include \"prologin.hh\"\n\
         void jouer() {\n  std::vector<int> maisons(1);\n  maisons.at(numero_tour() + 6) = 1;\n}\n",
        &["terminate called after throwing an instance of 'std::out_of_range'"],
    );
}

/// Python: an exception (`KeyError`).
#[test]
fn a_python_exception_is_a_crash_reported_at_once() {
    fails_at_once(
        "python",
        ("python3", "--version"),
        "prologin.py",
        "def jouer():\n    prix = {}\n    print(prix[\"maison\"])\n",
        &["KeyError: 'maison'"],
    );
}

/// Rust: a panic (an index out of bounds), the kit's binary `crash_rust`.
#[test]
fn a_rust_panic_is_a_crash_reported_at_once() {
    let Some(binary) = crate::kits::built().rust("crash_rust") else {
        return;
    };
    let _heavy = common::heavy();
    let champion = common::fresh_dir("kit_errors", "error_rust").join("error_rust");
    fs::create_dir(&champion).unwrap();
    fs::copy(binary, champion.join("champion")).unwrap();
    let seen = play_with(&champion, 60, &[]);
    crashed_at_once(
        "rust",
        &seen,
        &champion.with_file_name("match60"),
        &[
            "panicked at",
            "index out of bounds: the len is 0 but the index is 7",
        ],
    );
}

/// JavaScript: a `TypeError` (a property of `null` read).
#[test]
fn a_javascript_type_error_is_a_crash_reported_at_once() {
    fails_at_once(
        "javascript",
        ("node", "--version"),
        "prologin.js",
        "function jouer() {\n  const maison = null;\n  return maison.prix;\n}\n",
        &["TypeError: Cannot read properties of null (reading 'prix')"],
    );
}

/// Java: an exception nobody catches (an array index out of bounds).
#[test]
fn a_java_exception_is_a_crash_reported_at_once() {
    fails_at_once(
        "java",
        ("javac", "-version"),
        "Prologin.java",
        "public class Prologin extends Interface {\n  public void jouer() {\n    \
         int[] maisons = new int[1];\n    int i = 5;\n    maisons[i] = 1;\n  }\n}\n",
        &[
            "prologin kit (Java): error in jouer:",
            "java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 1 (Prologin.java:5)",
        ],
    );
}

/// C#: an exception nobody catches (an array index out of range).
#[test]
fn a_csharp_exception_is_a_crash_reported_at_once() {
    fails_at_once(
        "csharp",
        ("mcs", "--version"),
        "Prologin.cs",
        "namespace Prologin {\n  class Prologin {\n    public void Jouer() {\n      \
         int[] maisons = new int[1];\n      int i = 5;\n      maisons[i] = 1;\n    }\n  }\n}\n",
        &["System.IndexOutOfRangeException: Index was outside the bounds of the array."],
    );
}

/// Go: a panic of the runtime (a write to a nil map).
#[test]
fn a_go_panic_is_a_crash_reported_at_once() {
    fails_at_once(
        "go",
        ("go", "version"),
        "prologin.go",
        "package main\n\nfunc InitGame() {}\n\nfunc Jouer() {\n\tvar prix map[string]int\n\t\
         prix[\"maison\"] = 1\n}\n\nfunc Enchere() {}\nfunc Placement() {}\nfunc EndGame() {}\n",
        &["panic: assignment to entry in nil map"],
    );
}

/// Ruby: a method of `nil` called (`NoMethodError`).
#[test]
fn a_ruby_no_method_error_is_a_crash_reported_at_once() {
    fails_at_once(
        "ruby",
        ("ruby", "--version"),
        "prologin.rb",
        "def jouer\n  maison = nil\n  maison.prix\nend\n",
        &["undefined method `prix' for nil", "NoMethodError"],
    );
}

/// PHP: an error thrown by PHP itself (`DivisionByZeroError`).
#[test]
fn a_php_error_is_a_crash_reported_at_once() {
    fails_at_once(
        "php",
        ("php", "--version"),
        "prologin.php",
        "<?php\nfunction jouer() {\n  $zero = 0;\n  echo intdiv(1, $zero);\n}\n",
        &["Uncaught DivisionByZeroError: Division by zero in /champion/prologin.php:4"],
    );
}

/// Lua: a nil value called (a function that does not exist); the kit's own test of a nil
/// value indexed is `kits2009::a_lua_runtime_error_is_a_crash_reported_with_its_message`.
#[test]
fn a_lua_nil_call_is_a_crash_reported_at_once() {
    fails_at_once(
        "lua",
        ("lua5.4", "-v"),
        "prologin.lua",
        "function jouer()\n  inconnue()\nend\n",
        &["attempt to call a nil value (global 'inconnue')"],
    );
}

/// Prolog: an arithmetic error (a division by zero).
#[test]
fn a_prolog_evaluation_error_is_a_crash_reported_at_once() {
    fails_at_once(
        "prolog",
        ("swipl", "--version"),
        "prologin.pl",
        "jouer :- Zero = 0, X is 1 / Zero, format(\"~w~n\", [X]).\n",
        &["Arithmetic: evaluation error: `zero_divisor'"],
    );
}

/// OCaml: an exception nobody catches (`Not_found`, raised by `List.assoc`: the fault names
/// the champion's line that called it).
#[test]
fn an_ocaml_exception_is_a_crash_reported_at_once() {
    fails_at_once(
        "ocaml",
        ("ocamlopt", "-version"),
        "prologin.ml",
        "let jouer () =\n  let prix = [] in\n  print_int (List.assoc \"maison\" prix)\n",
        &["exception Not_found (in Prologin.jouer, line 3 of prologin.ml)"],
    );
}

/// Haskell: an error of a pure function (`head` of an empty list).
#[test]
fn a_haskell_error_is_a_crash_reported_at_once() {
    fails_at_once(
        "haskell",
        ("ghc", "--version"),
        "Prologin.hs",
        "module Prologin (jouer) where\n\njouer :: IO ()\njouer = do\n  \
         let maisons = [] :: [Int]\n  print (head maisons)\n",
        &["Prelude.head: empty list"],
    );
}

/// Pascal: a division by zero.
#[test]
fn a_pascal_division_by_zero_is_a_crash_reported_at_once() {
    fails_at_once(
        "pascal",
        ("fpc", "-iV"),
        "prologin.pas",
        "unit prologin;\n\ninterface\n\nprocedure jouer;\n\nimplementation\n\n\
         procedure jouer;\nvar a, b: integer;\nbegin\n  a := 1;\n  b := 0;\n  writeln(a div b);\nend;\n\nend.\n",
        &["EDivByZero: Division by zero (in JOUER, line 14 of prologin.pas)"],
    );
}
