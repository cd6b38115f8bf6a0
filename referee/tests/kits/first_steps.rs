//! The README's first section (its champion of one's own) followed literally for a champion written outside the
//! repository (`~/mychamp`, `~/mine.js` in a fresh `HOME`; `common::stage`): a Python one
//! and a C one with the kits, and a plain JavaScript one, each played in a match and shown
//! as a replay (`--html`); then the commands the match printed (`see it:` and
//! `reproduce:`), pasted where the user stands, work. Also: a copied C champion whose build
//! fails leaves no stale `champion`, and a copy outside the repository runs with
//! `--sandbox off` too (the referee sets `PROLOGIN_KITS` there as well).
//!
//! Without `node` the JavaScript case prints a SKIPPED line, and fails when `CI=true`.

use crate::common;

use common::stage::{repo, runnable, said, sh_blocks, Stage, NOT_RUN};
use serde_json::Value;

/// The README's first section's ```sh block of a champion of one's own (the one after the
/// demo and test commands), without the commands no test runs (`NOT_RUN`: the release
/// build; the stage's `target/release/referee` is the debug referee).
fn first_block() -> String {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let block = sh_blocks(&readme)
        .into_iter()
        .find(|b| b.contains("~/mychamp"))
        .expect("the README's block of a champion of one's own");
    runnable(&block, &mut [false; NOT_RUN.len()])
}

/// A champion in plain JavaScript, from protocol.md: asks `mon_tour` and builds a road in
/// each `jouer`, answers `fin` to every callback.
const JS_CHAMPION: &str = r#"#!/usr/bin/env node
const lines = require('readline').createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const ask = async (request) => { process.stdout.write(request + '\n'); return (await lines.next()).value; };
(async () => {
  for (;;) {
    const { value: callback, done } = await lines.next();
    if (done) break;
    if (callback === 'jouer' && (await ask('mon_tour')) === '1') {
      console.error('road: ' + (await ask('construire_route 50 51')));
    }
    process.stdout.write('fin\n');
  }
})();
"#;

/// The first block with `edit` applied runs, plays `~/<name>` in seat 0 without a fault,
/// writes the replay, and the printed commands work pasted.
fn play(stage: &Stage, script: &str, name: &str) {
    let out = stage.run(script);
    let text = said(&out);
    assert!(out.status.success(), "{script}\n{text}");
    let dir = stage
        .root
        .join(format!("results/matches/42-{name}-random-greedy"));
    let record: Value =
        serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
    assert_eq!(record["seats"][0]["name"], name, "{text}");
    let faults: Vec<&Value> = record["faults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["seat"] == 0)
        .collect();
    assert!(faults.is_empty(), "{name}: {faults:?}\n{text}");
    let page = std::fs::read_to_string(dir.join("replay.html")).expect("a replay page");
    assert!(page.contains(name), "the replay names the champion");
    let printed = |prefix: &str| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|l| l.strip_prefix(prefix).map(str::to_string))
            .unwrap_or_else(|| panic!("no `{prefix}` line:\n{text}"))
    };
    assert_eq!(
        printed("replay: "),
        format!("results/matches/42-{name}-random-greedy/replay.html")
    );
    let reproduce = printed("reproduce: ");
    assert!(
        reproduce.starts_with("target/release/referee match "),
        "{reproduce}"
    );
    let again = stage.run(&format!("{reproduce} --out again-{name}"));
    assert!(again.status.success(), "{reproduce}\n{}", said(&again));
    let show = stage.run(&format!(
        "target/release/referee show results/matches/42-{name}-random-greedy"
    ));
    assert!(show.status.success(), "{}", said(&show));
}

#[test]
fn a_python_champion_outside_the_repository() {
    let stage = Stage::without_referee_on_path("first-python");
    play(&stage, &first_block(), "mychamp");
    // Without the jail, the referee points PROLOGIN_KITS at the repository's kits.
    let off =
        stage.run("target/release/referee match ~/mychamp random greedy --sandbox off --out off");
    assert!(off.status.success(), "{}", said(&off));
    let record: Value =
        serde_json::from_slice(&std::fs::read(stage.root.join("off/record.json")).unwrap())
            .unwrap();
    assert_eq!(record["faults"], serde_json::json!([]), "{}", said(&off));
}

#[test]
fn a_c_champion_outside_the_repository_and_a_failed_build() {
    let block = first_block();
    let cp = "cp -r champions/python/random ~/mychamp";
    assert!(block.contains(cp), "the README's first block copies {cp}");
    // As the README says: the same with champions/c/random, and its build (in a jail)
    // before the match.
    let script = block
        .replace(cp, "cp -r champions/c/random ~/mychamp")
        .replace(
            "target/release/referee match",
            "target/release/referee build ~/mychamp\ntarget/release/referee match",
        );
    let stage = Stage::without_referee_on_path("first-c");
    play(&stage, &script, "mychamp");
    // Its source edited and not rebuilt: the match says that the old program plays, and
    // how to rebuild it; freshly built, it says nothing of the kind.
    let stale = stage.run(
        "target/release/referee match ~/mychamp random greedy --out fresh 2>fresh.err\n\
         ! grep -F 'was changed after' fresh.err\n\
         touch -d @$(( $(date +%s) + 60 )) ~/mychamp/prologin.c\n\
         target/release/referee match ~/mychamp random greedy --out stale 2>stale.err\n\
         grep -F 'prologin.c was changed after its `champion` was built' stale.err\n\
         grep -F 'referee build' stale.err",
    );
    assert!(stale.status.success(), "{}", said(&stale));
    // A build that fails says so and leaves no champion to play in place of the new code;
    // by hand with the kits named, the same.
    let broken = stage.run(
        "echo 'not C' >> ~/mychamp/prologin.c\n\
         rc=0; target/release/referee build ~/mychamp >built || rc=$?; test $rc = 4\n\
         grep -F 'FAILED to build' built\ntest ! -e ~/mychamp/champion\n\
         export PROLOGIN_KITS=$PWD/kits\n! make -C ~/mychamp\ntest ! -e ~/mychamp/champion",
    );
    assert!(broken.status.success(), "{}", said(&broken));
    // Without PROLOGIN_KITS, make names the fix.
    let bare = stage
        .run("! make -C ~/mychamp 2>made\ngrep -F 'export PROLOGIN_KITS=<repository>/kits' made");
    assert!(bare.status.success(), "{}", said(&bare));
}

#[test]
fn a_javascript_champion_outside_the_repository() {
    let found = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        common::skip_missing(
            "first_steps: a JavaScript champion outside the repository: no `node` on PATH \
             (install nodejs)",
        );
        return;
    }
    let stage = Stage::without_referee_on_path("first-js");
    std::fs::write(stage.home().join("mine.js"), JS_CHAMPION).unwrap();
    let block = first_block();
    let cp = "cp -r champions/python/random ~/mychamp";
    // As the README says: one executable file, played the same way.
    let script = block
        .replace(cp, "chmod +x ~/mine.js")
        .replace("match ~/mychamp ", "match ~/mine.js ");
    play(&stage, &script, "mine.js");
    let log = std::fs::read_to_string(
        stage
            .root
            .join("results/matches/42-mine.js-random-greedy/seat0.stderr"),
    )
    .unwrap();
    assert!(
        log.contains("road: "),
        "the JavaScript champion asked: {log}"
    );
}
