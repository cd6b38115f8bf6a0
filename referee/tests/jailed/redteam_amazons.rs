//! Red-team tests of the Game of the Amazons' new pieces: records, replay, `show`, the
//! replay page, the tournament files and the human seat. Each replays an attack through the
//! real `referee` binary or the library, and FAILS while the hole it found is open.
//!
//! The attacking inputs are made in each test (edited records and rows, in-process seats).

use crate::common;

use amazons::{bots, Color};
use arena::{GameRecord, Machine};
use jail::fault::{Fault, FaultKind};
use referee::endpoint::{CallLimits, CallTiming, Endpoint, TimeLimits};
use referee::games::amazons_wire::{board_from_etat, deplacer_line, AmazonsWire};
use referee::record::SeatRecord;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn referee(args: &[&str]) -> Output {
    Command::new(REFEREE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the referee runs")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// A real match of the built-in players into `dir`; its record as JSON.
fn played(dir: &Path) -> Value {
    let out = referee(&[
        "--game",
        "amazons",
        "match",
        "mobility",
        "random",
        "--seed",
        "11",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap()
}

fn write_record(dir: &Path, record: &Value) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("record.json");
    std::fs::write(&path, serde_json::to_vec_pretty(record).unwrap()).unwrap();
    path
}

/// Attack: edit a record to give the win to the loser, hiding the edit behind a made-up
/// fault (the replay checked the winner only when the record held no fault), or leave the
/// record without seats (`show` indexed them and panicked), or name seats that are not in
/// the match. `replay` must report a difference (exit 3), `show` refuse it (exit 2, no
/// panic), and the replay page must not be made.
#[test]
fn an_edited_record_is_refused_by_replay_show_and_the_page() {
    let dir = common::fresh_dir("redteam-amazons", "forged");
    let real = played(&dir.join("real"));
    let places = real["ranking"]["places"].clone();
    let winner = usize::from(places[1] == 1);
    let loser = 1 - winner;
    let swapped = json!({"places": [places[1], places[0]],
        "scores": [real["ranking"]["scores"][1], real["ranking"]["scores"][0]]});

    let mut forgeries: Vec<(&str, Value)> = Vec::new();
    // The loser "faulted after end_game" (a fault that changes no result) and "won".
    let mut r = real.clone();
    r["faults"] = json!([{"seat": loser, "callback": null, "kind": "protocol",
        "message": "unexpected output `x` after end_game"}]);
    r["ranking"] = swapped.clone();
    forgeries.push(("late fault, loser wins", r));
    // The winner "timed out" in a callback that the record does not show.
    let mut r = real.clone();
    r["faults"] = json!([{"seat": winner, "callback": null, "kind": "timeout",
        "message": "jouer: used 9 s"}]);
    r["ranking"] = swapped;
    forgeries.push(("invisible timeout", r));
    // No seats at all.
    let mut r = real.clone();
    r["seats"] = json!([]);
    forgeries.push(("no seats", r));
    // A winner and a fault of seats that are not in the match.
    let mut r = real.clone();
    r["ranking"] = json!({"places": [2, 2, 1], "scores": [0, 0, 1]});
    r["faults"] = json!([{"seat": 9, "callback": null, "kind": "crash", "message": "x"}]);
    forgeries.push(("seat 9", r));
    // The last move cut off: the game is not over, yet a fault of the loser says why.
    let mut r = real.clone();
    let callbacks = r["callbacks"].as_array_mut().unwrap();
    let last = callbacks
        .iter()
        .rposition(|c| c["callback"] == "jouer")
        .unwrap();
    callbacks[last]["steps"] = json!([]);
    r["faults"] = json!([{"seat": loser, "callback": last, "kind": "crash", "message": "x"}]);
    forgeries.push(("a move cut", r));
    // The record of another game.
    let mut r = real.clone();
    r["game"] = json!("loi");
    forgeries.push(("another game", r));

    for (what, record) in &forgeries {
        let path = write_record(&dir.join(what.replace(' ', "-")), record);
        let replay = referee(&["--game", "amazons", "replay", path.to_str().unwrap()]);
        // A record naming another game is that game's to read (bad input, naming the game),
        // every other forgery a record that does not replay.
        let refused = if *what == "another game" { 2 } else { 3 };
        assert_eq!(
            replay.status.code(),
            Some(refused),
            "THE ATTACK WORKED ({what}): replay accepted an edited record: {}",
            text(&replay)
        );
        let show = referee(&["--game", "amazons", "show", path.to_str().unwrap()]);
        assert_eq!(
            show.status.code(),
            Some(2),
            "THE ATTACK WORKED ({what}): show did not refuse an edited record: {}",
            text(&show)
        );
        assert!(!text(&show).contains("panicked"), "{}", text(&show));
        let parsed: GameRecord = serde_json::from_value(record.clone()).unwrap();
        assert!(
            referee::view::amazons_html::page(&parsed).is_err(),
            "THE ATTACK WORKED ({what}): the replay page shows an edited record"
        );
    }
    // The real record still replays, shows and has its page.
    let path = dir.join("real/record.json");
    let replay = referee(&["--game", "amazons", "replay", path.to_str().unwrap()]);
    assert!(replay.status.success(), "{}", text(&replay));
    let show = referee(&["--game", "amazons", "show", path.to_str().unwrap()]);
    assert!(show.status.success(), "{}", text(&show));
    let parsed: GameRecord = serde_json::from_value(real).unwrap();
    referee::view::amazons_html::page(&parsed).unwrap();
}

/// What a [`Scripted`] seat does wrong, if anything.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Slip {
    None,
    /// Crashes in its `n`-th callback (0: `init_game`), before any request.
    CrashAt(usize),
    /// Moves in its `n`-th callback, then crashes before `fin`.
    MoveThenCrashAt(usize),
    /// Crashes in `end_game`.
    CrashAtEnd,
    /// Writes a line after `end_game`.
    LateOutput,
}

/// A seat in the test process playing the mobility player, with one slip.
struct Scripted {
    color: Color,
    slip: Slip,
    calls: usize,
    out: VecDeque<String>,
    awaiting: Option<&'static str>,
    crash_after_move: bool,
    ended: bool,
}

impl Scripted {
    fn new(seat: usize, slip: Slip) -> Scripted {
        Scripted {
            color: if seat == 0 {
                Color::White
            } else {
                Color::Black
            },
            slip,
            calls: 0,
            out: VecDeque::new(),
            awaiting: None,
            crash_after_move: false,
            ended: false,
        }
    }
}

fn crash() -> Fault {
    Fault::new(FaultKind::Crash, "exited".to_string())
}

impl Endpoint for Scripted {
    fn unexpected_output(&mut self) -> Option<String> {
        (self.ended && self.slip == Slip::LateOutput).then(|| "bye".to_string())
    }
    fn begin(&mut self, callback: &str, _: CallLimits) -> Result<(), Fault> {
        let n = self.calls;
        self.calls += 1;
        self.out.clear();
        if self.slip == Slip::CrashAt(n)
            || (callback == "end_game" && self.slip == Slip::CrashAtEnd)
        {
            return Err(crash());
        }
        self.crash_after_move = self.slip == Slip::MoveThenCrashAt(n);
        if callback == "jouer" {
            self.out.push_back("etat".into());
            self.awaiting = Some("etat");
        } else {
            self.ended = callback == "end_game";
            self.out.push_back("fin".into());
        }
        Ok(())
    }
    fn recv(&mut self) -> Result<String, Fault> {
        self.out.pop_front().ok_or_else(crash)
    }
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        match self.awaiting.take() {
            Some("etat") => {
                let m = bots::mobility_move(&board_from_etat(line, self.color)).unwrap();
                self.out.push_back(deplacer_line(m));
                self.awaiting = Some("deplacer");
            }
            Some(_) if !self.crash_after_move => self.out.push_back("fin".into()),
            _ => {}
        }
        Ok(())
    }
    fn end(&mut self) -> CallTiming {
        CallTiming::default()
    }
    fn finish(&mut self, _: Duration) {}
    fn kill(&mut self) {}
}

/// A match of two scripted seats with slips `a` and `b`, and the seats' `spawn` faults.
fn scripted_match(a: Slip, b: Slip, spawn: Vec<Option<Fault>>) -> GameRecord {
    let seats = (0..2)
        .map(|i| SeatRecord {
            seat: i as u8,
            name: format!("seat{i}"),
            ..SeatRecord::default()
        })
        .collect();
    let options = game::Options::default();
    let time = TimeLimits::default();
    let mut machine = Machine::new(
        &AmazonsWire,
        &options,
        5,
        seats,
        time,
        "sandbox: scripted".into(),
    )
    .unwrap();
    let (mut x, mut y) = (Scripted::new(0, a), Scripted::new(1, b));
    arena::match_loop::run(&mut machine, &mut [&mut x, &mut y], spawn);
    machine.finish()
}

/// Two seats' slips, their spawn faults, the winner expected (when it is known).
type Case = (Slip, Slip, [Option<Fault>; 2], Option<u8>);

/// The records of real matches with faults of every kind of place (at the start, in
/// `init_game`, in a `jouer` before and after the move, in `end_game`, after it) pass the
/// record check that replay, `show` and the page make, with the winner the rules give.
#[test]
fn records_of_matches_with_faults_pass_the_record_check() {
    let spawn = Some(Fault::new(FaultKind::Spawn, "no such file".to_string()));
    let cases: Vec<Case> = vec![
        (Slip::None, Slip::None, [None, None], None),
        (Slip::None, Slip::None, [spawn.clone(), None], Some(1)),
        (Slip::None, Slip::None, [spawn.clone(), spawn.clone()], None),
        (Slip::None, Slip::CrashAt(0), [None, None], Some(0)),
        (Slip::CrashAt(0), Slip::CrashAt(0), [None, None], None),
        (Slip::CrashAt(3), Slip::None, [None, None], Some(1)),
        (Slip::None, Slip::MoveThenCrashAt(4), [None, None], Some(0)),
        (Slip::CrashAtEnd, Slip::CrashAtEnd, [None, None], None),
        (Slip::LateOutput, Slip::LateOutput, [None, None], None),
        (Slip::CrashAtEnd, Slip::LateOutput, [None, None], None),
    ];
    for (a, b, spawn, winner) in cases {
        let record = scripted_match(a, b, spawn.to_vec());
        if let Some(w) = winner {
            assert_eq!(
                record.ranking.winners(),
                [usize::from(w)],
                "{a:?} {b:?}: {record:?}"
            );
        }
        arena::check(&AmazonsWire, &record)
            .unwrap_or_else(|e| panic!("{a:?} {b:?}: {e}\n{record:?}"));
        referee::view::amazons_html::page(&record).unwrap();
    }
}

/// A fault in `end_game`, once the board has decided the game, changes no result: the
/// winner of the clean game stays the winner whichever seat crashes at the end.
#[test]
fn a_fault_in_end_game_changes_no_result() {
    let play = |a: Slip, b: Slip| {
        let record = scripted_match(a, b, vec![None, None]);
        arena::check(&AmazonsWire, &record)
            .unwrap_or_else(|e| panic!("{a:?} {b:?}: {e}\n{record:?}"));
        record
    };
    let clean = play(Slip::None, Slip::None).ranking.winners();
    assert_eq!(clean.len(), 1, "a winner");
    for (a, b) in [
        (Slip::CrashAtEnd, Slip::None),
        (Slip::None, Slip::CrashAtEnd),
    ] {
        let record = play(a, b);
        assert_eq!(record.ranking.winners(), clean, "{a:?} {b:?}: {record:?}");
        assert_eq!(record.faults.len(), 1, "{record:?}");
    }
}

fn passive() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../champions/shell/passive.sh")
        .display()
        .to_string()
}

/// Shard `i` of 2 of a small Amazons round-robin into `results/t/shard-i-of-2`.
fn shard(results: &Path, i: u32) {
    let out = Command::new(REFEREE)
        .args(["--game", "amazons", "tournament", "mobility", "random"])
        .arg(passive())
        .args([
            "--name",
            "t",
            "--seed",
            "5",
            "--time-scale",
            "2",
            "--rounds",
            "2",
        ])
        .arg("--results")
        .arg(results)
        .args(["--shard", &format!("{i}/2")])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
}

/// Attack: edit `matches.csv` of a shard (a match not in the schedule, a champion credited
/// with another's match, forged points, impossible scores, another seed, another first
/// player, a row of the 2009 game, the winner swapped in scores and points, which then
/// agree with each other but not with the record), then `merge` the shards or `--resume`
/// the shard. The rows were checked only for their id (resume) or not at all (merge): a
/// made-up match 99 counted, and made the merged results look complete. Both must refuse,
/// naming the file, the line and the fix (exit 2).
#[test]
fn an_edited_matches_csv_is_refused_by_resume_and_merge() {
    let dir = common::fresh_dir("redteam-amazons", "csv");
    let pristine = dir.join("pristine");
    shard(&pristine, 1);
    shard(&pristine, 2);
    // A run of before keys: the checks of rows against the schedule and the records alone
    // (an authenticated run refuses these edits by its MACs first: signed_results.rs).
    common::without_keys(&pristine.join("t"));
    let csv = |root: &Path| root.join("t/shard-1-of-2/matches.csv");
    let original = std::fs::read_to_string(csv(&pristine)).unwrap();
    let lines: Vec<&str> = original.lines().collect();
    let first: Vec<String> = lines[1].split(',').map(str::to_string).collect();
    assert_eq!(first[2], "0", "{original}");
    // Column indices of a two-seat row: id seed first_player champion0 champion1 score0
    // score1 points0 points1 ...
    let edit = |f: &dyn Fn(&mut Vec<String>)| {
        let mut row = first.clone();
        f(&mut row);
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        out[1] = row.join(",");
        out.join("\n") + "\n"
    };
    let mut forgeries: Vec<(&str, String)> = vec![
        ("a made-up match", {
            let mut row = first.clone();
            row[0] = "98".into();
            format!("{original}{}\n", row.join(","))
        }),
        (
            "another champion credited",
            edit(&|r| {
                let other = if r[3] == "mobility" || r[4] == "mobility" {
                    "random"
                } else {
                    "mobility"
                };
                let seat = if r[3] == other { 4 } else { 3 };
                r[seat] = other.into();
                if r[3] == r[4] {
                    r[7 - seat] = "passive.sh".into();
                }
            }),
        ),
        (
            "forged points",
            edit(&|r| {
                r[7] = "1".into();
                r[8] = "1".into();
            }),
        ),
        (
            "two winners",
            edit(&|r| {
                r[5] = "1".into();
                r[6] = "1".into();
                r[7] = "0".into();
                r[8] = "0".into();
            }),
        ),
        (
            "the winner swapped (scores and points agree, not with the record)",
            edit(&|r| {
                r.swap(5, 6);
                r.swap(7, 8);
            }),
        ),
        ("another seed", edit(&|r| r[1] = "12345".into())),
        ("black moves first", edit(&|r| r[2] = "1".into())),
    ];
    // A row of the 2009 game (three seats).
    let loi_row = "0,1,0,a,b,c,1,2,3,0,1,3,,,,1,1,1,0,0,0,0,0,0,0,00,referee match a b c,2";
    forgeries.push(("a row of the 2009 game", format!("{original}{loi_row}\n")));

    for (i, (what, forged)) in forgeries.iter().enumerate() {
        let root = dir.join(format!("forged{i}"));
        assert!(Command::new("cp")
            .arg("-r")
            .arg(&pristine)
            .arg(&root)
            .status()
            .unwrap()
            .success());
        std::fs::write(csv(&root), forged).unwrap();
        let shards = [root.join("t/shard-1-of-2"), root.join("t/shard-2-of-2")];
        let merge = Command::new(REFEREE)
            .args(["--game", "amazons", "merge"])
            .args(&shards)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            merge.status.code(),
            Some(2),
            "THE ATTACK WORKED ({what}): merge accepted an edited matches.csv: {}",
            text(&merge)
        );
        assert!(
            text(&merge).contains("matches.csv line"),
            "({what}) {}",
            text(&merge)
        );
        let resume = Command::new(REFEREE)
            .args(["--game", "amazons", "tournament", "--name", "t", "--resume"])
            .args(["--shard", "1/2", "--results"])
            .arg(&root)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            resume.status.code(),
            Some(2),
            "THE ATTACK WORKED ({what}): --resume accepted an edited matches.csv: {}",
            text(&resume)
        );
    }
    // The shards as written merge.
    let merge = Command::new(REFEREE)
        .args(["--game", "amazons", "merge"])
        .arg(pristine.join("t/shard-1-of-2"))
        .arg(pristine.join("t/shard-2-of-2"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(merge.status.success(), "{}", text(&merge));
}

/// Attack (on the person, by their own terminal): a line typed that is not UTF-8 (a
/// Latin-1 `é`, a stray byte in a paste) ended the human seat's input: the game was given
/// up, "end of file" was recorded, and the lines after it were never read. It must be
/// refused as a typing error, and the next line read.
#[test]
fn a_human_line_that_is_not_utf8_does_not_give_up_the_game() {
    use std::io::Write;
    let dir = common::fresh_dir("redteam-amazons", "human-bytes");
    let mut child = Command::new(REFEREE)
        .args([
            "--game", "amazons", "match", "human", "mobility", "--seed", "1",
        ])
        .arg("--out")
        .arg(dir.join("m"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"caf\xe9\nfin\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("you must move before your turn ends"),
        "THE ATTACK WORKED: the line after one that is not UTF-8 was never read: {said}"
    );
    assert!(said.contains("not sent: `caf\u{fffd}`"), "{said}");
}

/// Attack: a `tournament.json` whose game was edited to one this referee does not play.
/// `merge` and `--resume` refused it, but told to run them `with --game chess`, a flag
/// value that does not exist. They must name the games this referee plays instead.
#[test]
fn a_tournament_of_an_unknown_game_is_refused_without_a_flag_that_does_not_exist() {
    let dir = common::fresh_dir("redteam-amazons", "unknown-game");
    shard(&dir, 1);
    // A run of before keys, whose tournament.json no MAC refuses first.
    common::without_keys(&dir.join("t"));
    let shard_dir = dir.join("t/shard-1-of-2");
    let path = shard_dir.join("tournament.json");
    let mut spec: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    spec["game"] = json!("chess");
    std::fs::write(&path, serde_json::to_vec(&spec).unwrap()).unwrap();
    let merge = referee(&[
        "--game",
        "amazons",
        "merge",
        shard_dir.to_str().unwrap(),
        "--partial",
    ]);
    let resume = referee(&[
        "--game",
        "amazons",
        "tournament",
        "--name",
        "t",
        "--resume",
        "--shard",
        "1/2",
        "--results",
        dir.to_str().unwrap(),
    ]);
    for out in [merge, resume] {
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(
            !text(&out).contains("--game chess"),
            "THE ATTACK WORKED: the message advises a flag value that does not exist: {}",
            text(&out)
        );
        assert!(text(&out).contains("loi and amazons"), "{}", text(&out));
    }
}
