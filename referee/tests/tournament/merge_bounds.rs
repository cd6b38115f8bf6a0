//! `merge` of a shard whose `matches.csv` is one genuine row repeated towards the file's
//! size bound, through the binary: refused at the second copy, within a memory limit far
//! below what holding the file's rows would take, naming the line, and nothing written.

use crate::common;

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// The inflated file's size: parsed whole, its rows take several times that.
const INFLATED: usize = 96 << 20;
/// The merge's data limit (`RLIMIT_DATA`): what a reader that checks as it reads needs,
/// with a wide margin, and far less than the parsed rows.
const MEMORY: u64 = 200 << 20;

#[test]
fn a_shard_of_one_row_repeated_is_refused_at_its_second_copy_within_bounded_memory() {
    let dir = common::fresh_dir("merge_bounds", "inflated");
    let results = dir.join("results");
    for shard in ["1/2", "2/2"] {
        let mut command = Command::new(REFEREE);
        command
            .args(["tournament", "random", "greedy"])
            .arg(common::passive())
            .args(["--rounds", "2", "--seed", "5"])
            .args(["--name", "t", "--shard", shard, "--results"])
            .arg(&results)
            .env_remove(referee::reproduce_log::VARIABLE)
            .stdin(Stdio::null());
        common::run_ok(command);
    }
    let top = results.join("t");
    let csv = top.join("shard-1-of-2/matches.csv");
    let text = std::fs::read(&csv).unwrap();
    let mut lines = text.split_inclusive(|&b| b == b'\n');
    let header = lines.next().unwrap().to_vec();
    let row = lines.next().expect("a row in shard 1").to_vec();
    let mut inflated = std::io::BufWriter::new(std::fs::File::create(&csv).unwrap());
    inflated.write_all(&header).unwrap();
    let mut written = header.len();
    while written < INFLATED {
        inflated.write_all(&row).unwrap();
        written += row.len();
    }
    inflated.flush().unwrap();
    drop(inflated);
    let mut merge = Command::new(REFEREE);
    merge
        .arg("merge")
        .arg(top.join("shard-1-of-2"))
        .arg(top.join("shard-2-of-2"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit only, between fork and exec.
    unsafe {
        merge.pre_exec(|| {
            nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_DATA, MEMORY, MEMORY)
                .map_err(std::io::Error::from)
        });
    }
    let refused = merge.output().unwrap();
    let said = common::text(&refused.stderr);
    assert_eq!(
        refused.status.code(),
        Some(2),
        "the merge did not refuse the file within {} MiB (it holds the whole file?): {:?}\n{said}",
        MEMORY >> 20,
        refused.status
    );
    assert!(
        said.contains("matches.csv line 3: match") && said.contains("appears twice"),
        "{said}"
    );
    for written in ["matches.csv", "leaderboard.csv", "pairwise.csv"] {
        assert!(
            !top.join(written).exists(),
            "a refused merge wrote {written}"
        );
    }
    common::remove_dir(&dir);
}
