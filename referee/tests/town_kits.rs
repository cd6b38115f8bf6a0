//! Little Town's kits (`champions/little-town/`) through the real binary, in their jails
//! as root and as a normal user: the Python sample (`python/random`, every action drawn
//! among the legal ones) and the C sample (`c/builder`, built here with `make` as
//! `scripts/build-champions.sh` does) play a four-seat match with the built-in `strong` and
//! `random`; neither faults, what they print lands in their logs, and the record replays.
//! A missing `python3`, `cc` or `make` skips the test with a message (a failure under
//! `CI=true`).

mod common;

use common::users::Who;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

fn tools_present(names: &[&str]) -> bool {
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|t| {
            !Command::new("sh")
                .arg("-c")
                .arg(format!("command -v {t}"))
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    common::skip_missing(&format!("town_kits: {} missing", missing.join(", ")));
    false
}

#[test]
fn the_python_and_c_samples_play_a_four_seat_match_in_their_jails() {
    if !tools_present(&["python3", "cc", "make"]) {
        return;
    }
    let builder = repo("champions/little-town/c/builder");
    let made = Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(&builder)
        .env_remove("PROLOGIN_KITS")
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", common::text(&made.stderr));
    let python = repo("champions/little-town/python/random");
    common::users::each_run_in("town_kits", "samples", |who, dir| {
        let out_dir = dir.join("m");
        let mut command = Command::new(REFEREE);
        command
            .args(["--game", "little-town", "match"])
            .arg(&python)
            .arg(&builder)
            .args(["strong", "random", "--seed", "3", "--out"])
            .arg(&out_dir)
            .stdin(Stdio::null());
        if let Who::User(uid, gid) = who {
            command.uid(uid).gid(gid).env("HOME", "/nonexistent");
        }
        let out = common::run_ok(command);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let record = referee::arena::GameRecord::load(&out_dir.join("record.json")).unwrap();
        assert!(record.faults.is_empty(), "{:?}\n{stdout}", record.faults);
        let jouer = |seat: u8| {
            record
                .callbacks
                .iter()
                .filter(|c| c.seat == seat && c.callback == "jouer")
                .count()
        };
        assert!(jouer(0) > 0 && jouer(1) > 0, "{stdout}");
        let log = |seat: usize| {
            std::fs::read_to_string(out_dir.join(format!("seat{seat}.stderr"))).unwrap()
        };
        assert!(log(0).contains("random champion in seat 0"), "{}", log(0));
        assert!(log(1).contains("builder in seat 1"), "{}", log(1));
        assert!(log(1).contains("builder: gold"), "end_game ran: {}", log(1));
        common::run_ok({
            let mut c = Command::new(REFEREE);
            c.args(["--game", "little-town", "replay"]).arg(&out_dir);
            c
        });
        common::assert_no_process_left(&serde_json::from_slice(&record.to_json()).unwrap());
    });
}
