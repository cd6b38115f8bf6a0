//! The 2009 game's records of before the arena (schemas 3 and 4, kept in
//! `fixtures/records/loi-v4` and `loi-v3`) read by the game on the model
//! (`games::loi_play::LOI`): checked as they were, made again as today's record, which passes
//! today's check and gives the row the old stack gave (what `merge` and `--resume` hold a
//! row to); an edit anywhere is refused; the page and the board still show them.

use arena::GameRecord;
use referee::cli::LimitArgs;
use referee::games::loi_play::LOI;
use referee::games::loi_wire::LoiWire;
use referee::games::{Expected, Game};
use referee::record::MatchRecord;
use std::path::{Path, PathBuf};

/// Every kind of record of before: built-in bots, a full log, a protocol fault in a
/// callback, a seat that could not start with output after the end, a setup given by
/// flags, and schema 3.
const DIRS: [&str; 6] = [
    "loi-v4/bots",
    "loi-v4/full-log",
    "loi-v4/fault",
    "loi-v4/spawn-late",
    "loi-v4/setup",
    "loi-v3/bots",
];

fn fixture(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/records")
        .join(dir)
}

/// What the match of `old` was to be played with, as a tournament of default limits says.
fn expected(old: &MatchRecord, options: game::Options) -> Expected {
    let seated = old
        .seats
        .iter()
        .map(|s| match s.path.strip_prefix("builtin:") {
            Some(name) => LOI.resolve(name).unwrap(),
            // The file the record names, from where it lies here (a champion is its code).
            None => {
                let file = Path::new(&s.path).file_name().unwrap();
                let here = fixture("../match").join(file);
                let mut spec = LOI.resolve(here.to_str().unwrap()).unwrap();
                spec.path = s.path.clone();
                spec
            }
        })
        .collect();
    let args = LimitArgs::default();
    let stored = (args.time().unwrap(), args.process().unwrap());
    Expected::new(old.seed, seated, &stored, options)
}

fn read(path: &Path) -> Result<GameRecord, String> {
    LOI.read(path).expect("a record of the 2009 game")
}

#[test]
fn every_record_of_before_is_today_s_record_with_the_row_the_old_stack_gave() {
    let kept = kept_rows();
    for dir in DIRS {
        let path = fixture(dir).join("record.json");
        let old = MatchRecord::load(&path).unwrap();
        let new = read(&path).unwrap_or_else(|e| panic!("{dir}: {e}"));
        arena::check(&LoiWire, &new).unwrap_or_else(|e| panic!("{dir}: {e}"));
        let scores: Vec<i64> = old.result.final_scores.map(i64::from).to_vec();
        assert_eq!(new.ranking.scores, scores, "{dir}");
        let kinds: Vec<(u8, &str)> = new.faults.iter().map(|f| (f.seat, f.kind.name())).collect();
        let was: Vec<(u8, &str)> = old.faults.iter().map(|f| (f.seat, f.kind.name())).collect();
        assert_eq!(kinds, was, "{dir}");
        assert_eq!(new.seats, old.seats, "{dir}");
        assert_eq!(new.timings, old.timings, "{dir}");
        let options = new.options.clone();
        let row = LOI.recorded_row(&fixture(dir), &expected(&old, options.clone()));
        let row = row.unwrap_or_else(|e| panic!("{dir}: {e:#}"));
        assert_eq!(row.first_player, old.first_player, "{dir}");
        // Played with a full log, played again with one.
        let logged = row.row.reproduce.contains(" --full-log");
        assert_eq!(
            logged,
            old.full_log.is_some(),
            "{dir}: {}",
            row.row.reproduce
        );
        if dir == "loi-v4/setup" {
            // Given by flags then, by options now (`drawn` where the seed draws the same:
            // seed 5 draws seat 1 to open); no tournament plays it (its seed does not draw
            // that order).
            assert_eq!(
                options.words(),
                [
                    "first-player=drawn",
                    "monuments=0-1-2-3-4-5-6-7-8-9-10-11-12-13"
                ]
            );
            continue;
        }
        assert_eq!(options, game::Game::defaults(&engine::model::Loi), "{dir}");
        let (line, command) = kept
            .get(dir)
            .unwrap_or_else(|| panic!("{dir} is in {}", rows_file().display()));
        // The command as `merge` and `--resume` compare it with the one written then.
        assert!(
            referee::cli::command_line::same_command(command, &row.command),
            "{dir}: `{command}` then, `{}` now",
            row.row.reproduce
        );
        // Every other column, `first_player` too: the row of then (results schema 3) as
        // today's schema reads it, its places from its scores.
        let then = referee::export::matches_csv::migrate_line(line.as_bytes(), 3).unwrap();
        assert_eq!(
            row_line(&row),
            String::from_utf8(then).unwrap().trim_end(),
            "{dir}"
        );
    }
}

/// The row of a played match as `matches.csv` writes it, its reproduce command blanked.
fn row_line(played: &referee::games::Played) -> String {
    let mut row = played.row.clone();
    row.reproduce.clear();
    let line = referee::export::matches_csv::row(&row, played.first_player);
    String::from_utf8(line).unwrap().trim_end().to_string()
}

/// The rows the 2009 stack of before the arena (`games::loi::LoiGame`) gave the records
/// of [`DIRS`], as it wrote them: a line naming the record's folder, the row as
/// `matches.csv` has it with its reproduce command blanked, the command (`{referee}` for
/// the referee's folder: the champions of the fixtures lie under it).
fn rows_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/loi-v4-rows.txt")
}

/// [`rows_file`]'s rows by folder: `(row, command)`.
fn kept_rows() -> std::collections::BTreeMap<String, (String, String)> {
    let text = std::fs::read_to_string(rows_file()).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    lines
        .chunks(3)
        .map(|c| {
            let command = c[2].replace("{referee}", env!("CARGO_MANIFEST_DIR"));
            (c[0].to_string(), (c[1].to_string(), command))
        })
        .collect()
}

/// `dir`'s record with `edit` applied to its text, in a folder of its own (its full log
/// beside it): what reading it says.
fn edited(dir: &str, edit: impl Fn(&str) -> String) -> Result<GameRecord, String> {
    let from = fixture(dir);
    let copy = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), copy.path().join(entry.file_name())).unwrap();
    }
    let path = copy.path().join("record.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let changed = edit(&text);
    assert_ne!(changed, text, "{dir}: the edit changes the record");
    std::fs::write(&path, changed).unwrap();
    read(&path)
}

/// Replaces the first `from` of `text` by `to`.
fn once(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "`{from}` is in the record");
    text.replacen(from, to, 1)
}

/// An edit of a record's text.
type Edit = Box<dyn Fn(&str) -> String>;

#[test]
fn a_record_of_before_edited_anywhere_is_refused() {
    fn json(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap()
    }
    let cases: Vec<(&str, &str, Edit)> = vec![
        (
            "an action's answer",
            "loi-v4/bots",
            Box::new(|t: &str| {
                let mut r = json(t);
                r["callbacks"][3]["actions"][0][1] = (-9).into();
                r.to_string()
            }),
        ),
        (
            "a callback's request count",
            "loi-v3/bots",
            Box::new(|t: &str| {
                let mut r = json(t);
                let n = r["callbacks"][4]["requests"].as_u64().unwrap();
                r["callbacks"][4]["requests"] = (n + 1).into();
                r.to_string()
            }),
        ),
        (
            "a final score",
            "loi-v4/fault",
            Box::new(|t: &str| {
                let mut r = json(t);
                r["result"]["final_scores"][1] = 1000.into();
                r.to_string()
            }),
        ),
        (
            "the final digest",
            "loi-v4/spawn-late",
            Box::new(|t: &str| {
                once(
                    t,
                    "\"digest\":\"7049367cce08a1c7\"",
                    "\"digest\":\"7049367cce08a1c8\"",
                )
            }),
        ),
        (
            "the first player",
            "loi-v4/setup",
            Box::new(|t: &str| once(t, "\"first_player\": 1", "\"first_player\": 2")),
        ),
        (
            "a callback's digest, against its full log",
            "loi-v4/full-log",
            Box::new(|t: &str| {
                let mut r = json(t);
                r["callbacks"][5]["digest"] = "00".repeat(32).into();
                r.to_string()
            }),
        ),
        (
            "a fault's kind",
            "loi-v4/fault",
            Box::new(|t: &str| once(t, "\"kind\":\"protocol\"", "\"kind\":\"crash\"")),
        ),
    ];
    for (what, dir, edit) in cases {
        let refused = edited(dir, edit);
        assert!(refused.is_err(), "{what} edited in {dir}: read as a record");
    }
}

#[test]
fn the_page_and_the_board_show_a_record_of_before() {
    for dir in DIRS {
        let page = LOI
            .replay_page(&fixture(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e:#}"));
        assert!(page.contains("<nav id=\"match-nav\"></nav>"), "{dir}");
        let record = read(&fixture(dir).join("record.json")).unwrap();
        let seat = &record.seats[2].name;
        assert!(page.contains(seat.as_str()), "{dir}: the page names {seat}");
        let commands: &dyn referee::games::model::Commands = &LOI;
        let at = referee::games::model::At::default();
        let board = commands
            .show(&record, Some(&fixture(dir)), &at)
            .unwrap_or_else(|e| format!("cannot show: {e:?}"));
        assert!(!board.contains("cannot show"), "{dir}: {board}");
        let old = MatchRecord::load(&fixture(dir).join("record.json")).unwrap();
        let score = old.result.final_scores[2].to_string();
        assert!(
            board.contains(&score),
            "{dir}: the board shows {score}: {board}"
        );
    }
}

/// `show` of the 2009 game on the model: a step of the timeline, the end of a turn or of a
/// phase (`--turn`, `--phase`), each refused with the flag to fix where the record has no
/// such step; and the table `match` prints, each seat's final score as the old record has it.
#[test]
fn show_takes_turns_and_phases_and_match_prints_the_old_table() {
    use arena::NoStep;
    use referee::games::model::{At, Commands};
    let commands: &dyn Commands = &LOI;
    for dir in DIRS {
        let record = read(&fixture(dir).join("record.json")).unwrap();
        let at = |turn: u8, phase: Option<u8>| At {
            turn: Some(turn),
            phase,
            ..At::default()
        };
        let show = |at: At| commands.show(&record, Some(&fixture(dir)), &at);
        let text = show(at(3, Some(2))).unwrap_or_else(|e| panic!("{dir}: {e:?}"));
        assert!(
            text.contains("turn 3 phase II, end of the phase"),
            "{dir}: {text}"
        );
        let start = show(at(0, None)).unwrap();
        assert!(start.contains("start, after init_game"), "{dir}: {start}");
        let refused = show(at(0, Some(1))).unwrap_err();
        assert_eq!(refused, NoStep::StartPhase, "{dir}");
        let refused = show(at(15, Some(2))).unwrap_err();
        assert_eq!(refused, NoStep::LastTurnPhase { turn: 15, got: 2 }, "{dir}");
        let refused = show(At {
            step: Some(100_000),
            ..At::default()
        })
        .unwrap_err();
        assert!(
            matches!(
                refused,
                NoStep::Step {
                    got: 100_000,
                    moves: false,
                    ..
                }
            ),
            "{dir}: {refused:?}"
        );
        let table = commands.result_table(&record).unwrap();
        let old = MatchRecord::load(&fixture(dir).join("record.json")).unwrap();
        // Today's table names a fault's place in its callback, as the record of before's
        // did not (`match_faults::` tests the place's words).
        assert_eq!(
            crate::common::loi::without_fault_places(&table),
            referee::view::seat_table::match_result(&old),
            "{dir}: the table of the record of before"
        );
    }
}

/// Same seed, same match: each match the referee of before recorded (built-in bots over
/// eight seeds, example champions that write on stderr and are refused actions, the
/// viewer's actors with a crash, a seat that never starts and a line that means nothing;
/// `fixtures/records/loi-v4-views`), played again by today's referee with the same
/// champions, seed and first player, records the same history: each callback's actions
/// with their answers, its requests, digest and fault, the seats that left, the faults, the
/// options and the ranking. Only what a machine measures (timings) and where the champions
/// lie differ.
#[test]
fn the_arena_plays_what_the_referee_of_before_recorded() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let matches = [
        "bots-0", "bots-1", "bots-2", "bots-3", "bots-4", "bots-5", "bots-6", "bots-7", "edited",
        "stderr", "actors", "spawn",
    ];
    for name in matches {
        let kept = fixture(&format!("loi-v4-views/{name}/record.json"));
        let old = MatchRecord::load(&kept).unwrap();
        // Each champion from where it lies here (the record names the checkout of then).
        let mut paths = Vec::new();
        let champions: Vec<String> = old
            .seats
            .iter()
            .map(|s| match s.path.strip_prefix("builtin:") {
                Some(builtin) => builtin.to_string(),
                None => {
                    let rest = s.path.strip_prefix("/home/contest/").expect(&s.path);
                    let here = root.join("..").join(rest).canonicalize().unwrap();
                    let here = here.display().to_string();
                    paths.push((s.path.clone(), here.clone()));
                    here
                }
            })
            .collect();
        let dir = crate::common::fresh_dir("loi-v4-again", name);
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_referee"));
        command
            .arg("match")
            .args(&champions)
            .args(["--seed", &old.seed.to_string(), "--out"])
            .arg(&dir);
        if old.first_player != engine::Setup::from_seed(old.seed).first_player.0 {
            command.args(["--first-player", &old.first_player.to_string()]);
        }
        crate::common::run_ok(&mut command);
        let mut today = LOI.load(&dir.join("record.json")).unwrap();
        // Refused actions were counted then, not kept (they change nothing); today's
        // record keeps the first ones of a callback and counts the others.
        for callback in &mut today.callbacks {
            callback
                .steps
                .retain(|s| !matches!(s, game::Step::Act { answer: Err(_), .. }));
            callback.refused.clear();
        }
        let before = read(&kept).unwrap();
        // What each record says of the match, the champions' paths as they lie here.
        let history = |record: &GameRecord, paths: &[(String, String)]| {
            // A seat that could not start: its fault's hint describes the jail of whoever
            // runs the referee (root or a user), not the match.
            let mut faults = record.faults.clone();
            for fault in faults.iter_mut().filter(|f| f.kind.name() == "spawn") {
                fault.message = fault.message.split(" (").next().unwrap().to_string();
            }
            let mut text = serde_json::to_string(&(
                &record.options,
                &record.start,
                &record.callbacks,
                &faults,
                &record.ranking,
            ))
            .unwrap();
            for (then, here) in paths {
                text = text.replace(then.as_str(), here);
            }
            text
        };
        // A stray line on stdout was told "logs belong on stderr" then; today's words add
        // where a program without a kit finds how (what the record's check reads as one).
        let in_todays_words = |text: String| {
            let logs = jail::fault::LOGS_ON_STDERR;
            text.replace(
                "` or `fin` (logs belong on stderr)",
                &format!("` or `fin`; {logs}"),
            )
            .replace("logs belong on stderr\"", &format!("{logs}\""))
        };
        let (got, want) = (
            history(&today, &[]),
            in_todays_words(history(&before, &paths)),
        );
        if got != want {
            let at = got
                .bytes()
                .zip(want.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(got.len().min(want.len()));
            panic!(
                "{name}: today's match differs at byte {at}: {:?} today, {:?} before",
                &got[at.saturating_sub(80)..(at + 80).min(got.len())],
                &want[at.saturating_sub(80)..(at + 80).min(want.len())]
            );
        }
        crate::common::remove_dir(&dir);
    }
}
