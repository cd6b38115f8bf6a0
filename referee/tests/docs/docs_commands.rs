//! Every ```sh block of the contestant's documents (README.md, protocol.md,
//! champions/README.md, champions/amazons/README.md, champions/ticket/README.md) runs as
//! typed, in document order, in a
//! stage that looks like the repository's root (`common::stage`: the debug referee is
//! `target/release/referee` and `referee` on PATH, `results/` and `HOME` are fresh), and
//! must exit 0. A block starting with `#!` is a champion: saved as `~/mine.sh` and played
//! (`referee match ~/mine.sh random greedy`, as the page says); a block without one that
//! ends a callback with `echo fin` is a callback's body, played inside the loop of the page's
//! smallest champion. The commands that cannot run here are listed in `common::stage::NOT_RUN`
//! with the reason, and each must still be found in a document (a stale entry fails the
//! test).

use crate::common;

use common::stage::{runnable, said, sh_blocks, Stage, NOT_RUN};

/// The documents, in the order a contestant reads them.
const DOCUMENTS: [&str; 5] = [
    "README.md",
    "champions/README.md",
    "champions/amazons/README.md",
    "champions/ticket/README.md",
    "protocol.md",
];

/// A block that is a champion or a callback's body, as the commands that play it.
fn as_champion(block: &str, out: &str) -> Option<String> {
    let program = if block.starts_with("#!") {
        block.to_string()
    } else if block.contains("echo fin") && !block.contains("referee") {
        format!("#!/bin/sh\nwhile read -r callback; do\n{block}done\n")
    } else {
        return None;
    };
    Some(format!(
        "cat > ~/mine.sh <<'CHAMPION'\n{program}CHAMPION\nchmod +x ~/mine.sh\n\
         referee match ~/mine.sh random greedy --out {out}\n"
    ))
}

/// The faults of seat 0 in the record under `dir`.
fn seat0_faults(dir: &std::path::Path) -> Vec<serde_json::Value> {
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
    record["faults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["seat"] == 0)
        .cloned()
        .collect()
}

#[test]
fn every_command_of_the_documents_runs_as_typed() {
    let stage = Stage::new("commands");
    let mut seen = [false; NOT_RUN.len()];
    let mut ran = 0;
    for doc in DOCUMENTS {
        let text = std::fs::read_to_string(common::stage::repo().join(doc)).unwrap();
        for (n, block) in sh_blocks(&text).iter().enumerate() {
            let out_dir = format!("champion-block-{ran}");
            let champion = as_champion(block, &out_dir);
            let script = match &champion {
                Some(play) => play.clone(),
                None => runnable(block, &mut seen),
            };
            let out = stage.run(&script);
            assert!(
                out.status.success(),
                "{doc}, sh block {}: exit {:?}\n{script}\n{}",
                n + 1,
                out.status.code(),
                said(&out)
            );
            if champion.is_some() {
                let faults = seat0_faults(&stage.root.join(&out_dir));
                assert!(faults.is_empty(), "{doc}, sh block {}: {faults:?}", n + 1);
            }
            ran += 1;
        }
    }
    assert!(ran >= 10, "only {ran} blocks found");
    for (i, (cmd, _)) in NOT_RUN.iter().enumerate() {
        assert!(
            seen[i],
            "NOT_RUN lists `{cmd}`, which no document has any more"
        );
    }
}

/// The block parser sees every block, joins continuation lines and skips the listed ones.
#[test]
fn blocks_are_found_and_listed_commands_skipped() {
    let text = "a\n```sh\nx \\\n  y\ncargo build --release\n```\n```python\nz\n```\n";
    let blocks = sh_blocks(text);
    assert_eq!(blocks.len(), 1);
    let mut seen = [false; NOT_RUN.len()];
    assert_eq!(runnable(&blocks[0], &mut seen), "x    y\n");
    assert!(seen[0]);
}
