//! End-to-end proof of the champion kits (`champions/`): the real `referee` binary plays
//! full matches between champions of every language, and every match must end with no
//! fault, every callback delivered, a record that replays, and no champion process left.
//!
//! - the bundled champions (C, C++, Python, shell, the Rust kit's binaries when
//!   `scripts/build-champions.sh` builds them, the built-ins) in mixed line-ups;
//! - champions written the 2009 way against the 2009 API only (docs/rules.md section 6)
//!   (`tests/fixtures/kits/cpp2009`, `py2009`, `c2009`): they build and run unchanged,
//!   call every action, and their debug output lands in the log, not in the protocol;
//!   `greedy2009`, with functions that end without `return`, plays as in 2009 when built
//!   with the kit's default flags, and is stopped in turn 1 at `-O2`;
//! - the full-map scan champions of the C, C++, Python and Rust kits (`scan_c`, `scan_cpp`,
//!   `scan_py`, and the Rust kit's `scan_rust` binary; with every other kit's `scan_<x>`,
//!   the subjects of `scripts/bench-kits.sh`), whose end-of-game report of what they read
//!   through the kit's cache must agree with the match record.
//! - the kits of JavaScript, Java, C#, Go, Ruby and PHP (part 1 below): their samples play
//!   the same match alike (the same requests, the same answers), samples and templates in
//!   mixed matches (with the C, C++, Python and Rust kits' templates), their scan
//!   champions read the true board, and each ends a broken conversation (unknown callback,
//!   end of file, a garbled answer) with a clear message.
//!
//! Everything is built by the test itself (`scripts/build-champions.sh`, then `make -C`
//! on the C and C++ fixtures), so it works on a clean clone. Matches run one at a time:
//! the leftover-process check looks at every descendant of this test process, which is
//! made a child subreaper so that an orphaned champion process would be reparented here.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The seven actions (docs/rules.md section 6.4).
const ACTIONS: [&str; 7] = [
    "construire_route",
    "construire_maison",
    "reserver_case",
    "detruire_maison",
    "vendre_maison",
    "encherir",
    "construire_monument",
];

/// Every request name protocol.md allows (section 3).
const REQUESTS: [&str; 27] = [
    "type_case",
    "valeur_case",
    "appartenance",
    "type_monument",
    "portee_monument",
    "prestige_monument",
    "numero_tour",
    "commence",
    "montant_encheres",
    "vainqueur_encheres",
    "score",
    "finances",
    "monument_en_cours",
    "distance",
    "route_possible",
    "construction_possible",
    "cout_achat_maison",
    "cout_achat_route",
    "mon_tour",
    "construire_route",
    "construire_maison",
    "reserver_case",
    "detruire_maison",
    "vendre_maison",
    "encherir",
    "construire_monument",
    "etat",
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("referee/ sits in the repository")
        .to_path_buf()
}

fn referee() -> &'static str {
    env!("CARGO_BIN_EXE_referee")
}

/// The cargo target directory this test was built in (`<target>/<profile>/referee`).
fn target_dir() -> PathBuf {
    Path::new(referee())
        .parent()
        .and_then(Path::parent)
        .expect("the referee binary lies in <target>/<profile>/")
        .to_path_buf()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/kits")
        .join(name)
}

fn champion(rel: &str) -> String {
    repo_root().join(rel).display().to_string()
}

/// One test at a time: the process checks look at every descendant of this process.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn run(cmd: &mut Command, what: &str) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What the build produced that depends on the tree: the Rust kit's champion binaries.
pub(crate) struct Built {
    rust_random: Option<PathBuf>,
    rust_greedy: Option<PathBuf>,
    rust_template: Option<PathBuf>,
    rust_scan: Option<PathBuf>,
    rust_rules: Option<PathBuf>,
    rust_crash: Option<PathBuf>,
    rust_slow: Option<PathBuf>,
}

impl Built {
    /// The Rust kit's binary `name` (`template`, `scan_rust`, `rules_rust`, `crash_rust`,
    /// `slow_rust`), or a skip that says why not.
    pub(crate) fn rust(&self, name: &str) -> Option<String> {
        let path = match name {
            "template" => &self.rust_template,
            "scan_rust" => &self.rust_scan,
            "rules_rust" => &self.rust_rules,
            "crash_rust" => &self.rust_crash,
            "slow_rust" => &self.rust_slow,
            _ => &None,
        };
        if path.is_none() {
            common::skip_missing(&format!(
                "kits: the Rust kit's `{name}` binary is not in {}/release \
                 (scripts/build-champions.sh builds it when cargo is on PATH)",
                target_dir().display()
            ));
        }
        path.as_ref().map(|p| p.display().to_string())
    }
}

/// Builds every bundled champion and the compiled fixtures, once per test run.
pub(crate) fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        become_subreaper();
        let target = target_dir();
        run(
            Command::new("sh")
                .arg(repo_root().join("scripts/build-champions.sh"))
                .env("CARGO_TARGET_DIR", &target),
            "scripts/build-champions.sh",
        );
        for name in ["cpp2009", "c2009", "scan_c", "scan_cpp", "partial_c"] {
            run(
                Command::new("make").arg("-s").arg("-C").arg(fixture(name)),
                &format!("make -C tests/fixtures/kits/{name}"),
            );
        }
        // build-champions.sh builds the Rust kit's binaries with `cargo build --release`.
        let bin = |name: &str| Some(target.join("release").join(name)).filter(|p| p.is_file());
        let built = Built {
            rust_random: bin("random"),
            rust_greedy: bin("greedy"),
            rust_template: bin("template"),
            rust_scan: bin("scan_rust"),
            rust_rules: bin("rules_rust"),
            rust_crash: bin("crash_rust"),
            rust_slow: bin("slow_rust"),
        };
        if built.rust_random.is_none() || built.rust_greedy.is_none() {
            eprintln!(
                "note: the Rust kit has no `random`/`greedy` binary in {}/release; \
                 its champions are left out of the line-ups",
                target.display()
            );
        }
        built
    })
}

/// Orphans of the referee's children get reparented to this process instead of init, so
/// the leftover check below sees them.
fn become_subreaper() {
    extern "C" {
        fn prctl(option: i32, ...) -> i32;
    }
    const PR_SET_CHILD_SUBREAPER: i32 = 36;
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes one integer argument and touches
    // no memory of ours.
    let r = unsafe { prctl(PR_SET_CHILD_SUBREAPER, 1u64) };
    assert_eq!(r, 0, "prctl(PR_SET_CHILD_SUBREAPER) failed");
}

/// A played match: its directory, record, and the record's seats.
struct Played {
    dir: PathBuf,
    record: Value,
}

impl Played {
    fn seat_path(&self, seat: usize) -> &str {
        self.record["seats"][seat]["path"].as_str().unwrap()
    }

    fn stderr(&self, seat: usize) -> String {
        let path = self.dir.join(format!("seat{seat}.stderr"));
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn callbacks(&self, seat: usize) -> Vec<&Value> {
        self.record["callbacks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["seat"].as_u64() == Some(seat as u64))
            .collect()
    }

    /// Every (request line, answer) of a seat, in order, without the `fin` that ends each
    /// callback (the full log keeps it; it is no request of the API).
    fn requests(&self, seat: usize) -> Vec<(String, i64)> {
        let of_seat: Vec<bool> = self.record["callbacks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["seat"].as_u64() == Some(seat as u64))
            .collect();
        let path = self.dir.join(referee::full_log::FILE);
        let mut log = referee::full_log::Reader::open(&path).unwrap();
        let mut out = Vec::new();
        while let Some((index, line, answer)) = log.next_entry().unwrap() {
            if of_seat[index] && line != "fin" {
                out.push((line, i64::from(answer)));
            }
        }
        out
    }

    /// `field` of the result at the match's end (`final_scores`, `money`, `houses`,
    /// `points`), for `seat`.
    fn result(&self, field: &str, seat: usize) -> i64 {
        let result = common::loi::Match::read(&self.dir).result();
        match field {
            "final_scores" => i64::from(result.final_scores[seat]),
            "money" => i64::from(result.money[seat]),
            "houses" => i64::from(result.houses[seat]),
            "points" => i64::from(result.points[seat]),
            _ => panic!("no result field {field}"),
        }
    }
}

/// Plays one match with the real referee and checks what every match must show.
fn play(name: &str, champions: [&str; 3], seed: u64) -> Played {
    play_with(name, champions, seed, &[], &[])
}

/// [`play`], with `env` set for the referee and more arguments (`--sandbox off`).
fn play_with(
    name: &str,
    champions: [&str; 3],
    seed: u64,
    env: &[(&str, &str)],
    args: &[&str],
) -> Played {
    let dir = common::fresh_dir("kits", name);
    let started = Instant::now();
    let out = run(
        Command::new(referee())
            .arg("match")
            .args(champions)
            .arg("--seed")
            .arg(seed.to_string())
            // Every request kept: the tests read what each kit asked.
            .arg("--full-log")
            .arg("--out")
            .arg(&dir)
            .args(args)
            .envs(env.iter().copied()),
        &format!("referee match {} --seed {seed}", champions.join(" ")),
    );
    let record_path = dir.join("record.json");
    let record: Value = serde_json::from_slice(
        &fs::read(&record_path).unwrap_or_else(|e| panic!("{}: {e}", record_path.display())),
    )
    .expect("record.json is JSON");
    let played = Played { dir, record };
    eprintln!(
        "{name}: {} in {:?}\n{}",
        champions.join(" "),
        started.elapsed(),
        String::from_utf8_lossy(&out.stdout)
    );

    // No fault.
    let faults = played.record["faults"]
        .as_array()
        .expect("record has faults");
    if !faults.is_empty() {
        let logs: String = (0..3)
            .map(|s| {
                let log = played.stderr(s);
                let tail = &log[log.len().saturating_sub(1500)..];
                format!("--- seat{s}.stderr (end)\n{tail}\n")
            })
            .collect();
        panic!(
            "{name}: faults {}\n{logs}",
            serde_json::to_string_pretty(faults).unwrap()
        );
    }

    // Every callback of a whole match, in order, to every seat; 14 placements in all.
    let mut placements = 0;
    for seat in 0..3 {
        let names: Vec<&str> = played
            .callbacks(seat)
            .iter()
            .map(|c| c["callback"].as_str().unwrap())
            .collect();
        let mut count = BTreeMap::new();
        for n in &names {
            *count.entry(*n).or_insert(0) += 1;
        }
        let seen = |n: &str| count.get(n).copied().unwrap_or(0);
        assert_eq!(
            names.first(),
            Some(&"init_game"),
            "{name} seat {seat}: {names:?}"
        );
        assert_eq!(
            names.last(),
            Some(&"end_game"),
            "{name} seat {seat}: {names:?}"
        );
        assert_eq!(
            (
                seen("init_game"),
                seen("jouer"),
                seen("enchere"),
                seen("end_game")
            ),
            (1, 15, 14, 1),
            "{name} seat {seat}: callbacks {count:?}"
        );
        placements += seen("placement");
        // Nothing but API requests went through the protocol (debug output included).
        for (line, _) in played.requests(seat) {
            let request = line.split_ascii_whitespace().next().unwrap_or("");
            assert!(
                REQUESTS.contains(&request),
                "{name} seat {seat}: `{line}` in the protocol"
            );
        }
    }
    assert_eq!(placements, 14, "{name}: one placement per auction");

    // The record replays.
    run(
        Command::new(referee())
            .arg("replay")
            .arg(record_path_of(&played)),
        &format!("referee replay ({name})"),
    );

    // No champion process is left.
    let needles: Vec<String> = (0..3)
        .map(|s| played.seat_path(s).to_string())
        .filter(|p| !p.starts_with("builtin:"))
        .map(|p| Path::new(&p).parent().unwrap().display().to_string())
        .collect();
    assert_no_leftover(name, &needles);
    played
}

/// A match's directory is removed when its test passes, kept for a look when it fails.
impl Drop for Played {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            common::remove_dir(&self.dir);
        }
    }
}

fn record_path_of(played: &Played) -> PathBuf {
    played.dir.join("record.json")
}

/// Live (non-zombie) descendants of this process whose command line mentions a needle.
fn leftovers(needles: &[String]) -> Vec<String> {
    let me = std::process::id();
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me || !descends_from(pid, me) {
            continue;
        }
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if stat_fields(&stat).first() == Some(&"Z") {
            continue;
        }
        let cmdline = fs::read(format!("/proc/{pid}/cmdline"))
            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
            .unwrap_or_default();
        if needles.iter().any(|n| cmdline.contains(n.as_str())) {
            found.push(format!("pid {pid}: {cmdline}"));
        }
    }
    found
}

/// The fields of /proc/<pid>/stat after the command name: state, ppid, ...
fn stat_fields(stat: &str) -> Vec<&str> {
    stat.rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default()
}

fn descends_from(mut pid: u32, ancestor: u32) -> bool {
    for _ in 0..64 {
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            return false;
        };
        let Some(ppid) = stat_fields(&stat)
            .get(1)
            .and_then(|p| p.parse::<u32>().ok())
        else {
            return false;
        };
        if ppid == ancestor {
            return true;
        }
        if ppid <= 1 {
            return false;
        }
        pid = ppid;
    }
    false
}

fn assert_no_leftover(name: &str, needles: &[String]) {
    // The referee has exited; give the kernel a moment to finish killed processes.
    if !common::poll_until(Duration::from_secs(2), || leftovers(needles).is_empty()) {
        panic!(
            "{name}: champion processes left after the match:\n{}",
            leftovers(needles).join("\n")
        );
    }
}

/// The seat that runs `at`: a champion's folder (the record names its `champion` in it)
/// or an executable file (a Rust kit's binary).
fn seat_of(played: &Played, at: &Path) -> usize {
    seat_running(played, at).unwrap_or_else(|| panic!("no seat runs {}", at.display()))
}

/// [`seat_of`], or `None` when no seat of the match runs `at`.
fn seat_running(played: &Played, at: &Path) -> Option<usize> {
    let at = at.canonicalize().unwrap();
    (0..3).find(|&s| {
        let path = Path::new(played.seat_path(s));
        path == at || path.parent() == Some(at.as_path())
    })
}

/// The end report of a scan champion (seat `seat`, its lines starting with `prefix`)
/// against the record: houses of every player (relative ids), the worth of its houses as
/// `score(0)`, its money, its final score, and one full scan of the map in every callback.
fn check_scan(game: &Played, seat: usize, prefix: &str) {
    let end = report(&game.stderr(seat), prefix);
    assert_eq!(end["houses"].len(), 3, "{prefix} houses of three players");
    for (rel, houses) in end["houses"].iter().enumerate() {
        assert_eq!(
            *houses,
            game.result("houses", (seat + rel) % 3),
            "{prefix} houses of relative player {rel}"
        );
    }
    assert_eq!(
        end["worth"][0], end["score"][0],
        "{prefix} worth vs score(0)"
    );
    assert_eq!(
        end["finances"][0],
        game.result("money", seat),
        "{prefix} money"
    );
    assert_eq!(
        end["score"][0] + end["finances"][0],
        game.result("final_scores", seat),
        "{prefix} final score"
    );
    let callbacks = game.callbacks(seat).len() as i64;
    assert_eq!(end["scans"][0], callbacks, "{prefix} scans");
    assert_eq!(end["reads"][0], 20_000 * callbacks, "{prefix} reads");
}

/// The integers following each `key` in a line that starts with `prefix`.
fn report(log: &str, prefix: &str) -> BTreeMap<String, Vec<i64>> {
    let line = log
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting with `{prefix}` in the log:\n{log}"));
    let mut fields: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    let mut key = String::new();
    for word in line[prefix.len()..].split_whitespace() {
        match word.parse::<i64>() {
            Ok(n) => fields.entry(key.clone()).or_default().push(n),
            Err(_) => key = word.trim_end_matches(':').to_string(),
        }
    }
    fields
}

#[test]
fn bundled_champions_of_every_language_play_mixed_matches_without_fault() {
    let built = built();
    let _serial = serial();
    let rust_random = built.rust_random.as_ref().map(|p| p.display().to_string());
    let rust_greedy = built.rust_greedy.as_ref().map(|p| p.display().to_string());
    let mut pool: Vec<String> = vec![
        champion("champions/c/random"),
        champion("champions/cpp/greedy"),
        champion("champions/python/random"),
        champion("champions/shell/builder.sh"),
    ];
    pool.extend(rust_random);
    pool.push("random".into());
    pool.push(champion("champions/shell/passive.sh"));
    pool.extend(rust_greedy);
    pool.push("greedy".into());
    // Line-ups of three, mixing languages; the last one is filled from the start.
    let line_ups: Vec<[&str; 3]> = (0..pool.len().div_ceil(3))
        .map(|m| std::array::from_fn(|i| pool[(3 * m + i) % pool.len()].as_str()))
        .collect();
    for (m, line_up) in line_ups.iter().enumerate() {
        play(&format!("bundled{m}"), *line_up, 11 + m as u64);
    }
}

#[test]
fn champions_written_in_the_2009_style_play_unchanged() {
    built();
    let _serial = serial();
    let cpp = fixture("cpp2009");
    let py = fixture("py2009");
    let c = fixture("c2009");
    let path = |p: &PathBuf| p.display().to_string();
    let games = [
        play("style2009a", [&path(&cpp), &path(&py), &path(&c)], 21),
        play("style2009b", [&path(&py), "greedy", &path(&cpp)], 22),
    ];

    let mut succeeded: BTreeMap<&str, usize> = BTreeMap::new();
    for game in &games {
        // The C++ champion calls every action in every game.
        let seat = seat_of(game, &cpp);
        let requests = game.requests(seat);
        for action in ACTIONS {
            let answers: Vec<i64> = requests
                .iter()
                .filter(|(line, _)| line.split(' ').next() == Some(action))
                .map(|&(_, answer)| answer)
                .collect();
            assert!(!answers.is_empty(), "cpp2009 never called {action}");
            *succeeded.entry(action).or_default() += answers.iter().filter(|&&a| a == 0).count();
        }
        // Its cout and printf output is in its log, from the static constructor on.
        let log = game.stderr(seat);
        for text in [
            "[cpp2009] constructeur statique : bonjour !",
            "[cpp2009] init_game : tour 1",
            "[cpp2009] printf marche aussi, argent 10",
            "[cpp2009] jouer tour 15",
            "[cpp2009] bilan : construire_route=",
        ] {
            assert!(log.contains(text), "cpp2009's log lacks `{text}`:\n{log}");
        }
        // What it read through the kit agrees with the record.
        let end = report(&log, "[cpp2009] fin de partie :");
        assert_eq!(
            end["maisons"][0],
            game.result("houses", seat),
            "cpp2009 houses"
        );
        assert_eq!(
            end["argent"][0],
            game.result("money", seat),
            "cpp2009 money"
        );
        assert_eq!(
            end["score"][0] + end["argent"][0],
            game.result("final_scores", seat),
            "cpp2009 final score"
        );

        let log = game.stderr(seat_of(game, &py));
        for text in [
            "[py2009] init_game: tour 1",
            "[py2009] sys.stdout.write marche aussi",
            "[py2009] jouer tour 15",
            "[py2009] fin: score",
        ] {
            assert!(log.contains(text), "py2009's log lacks `{text}`:\n{log}");
        }
    }
    // And every action succeeded at least once: the kit passes arguments and results right.
    for action in ACTIONS {
        assert!(
            succeeded[action] > 0,
            "cpp2009's {action} never succeeded: {succeeded:?}"
        );
    }
    let log = games[0].stderr(seat_of(&games[0], &c));
    for text in [
        "[c2009] init_game",
        "[c2009] jouer tour 15",
        "[c2009] fin: score",
    ] {
        assert!(log.contains(text), "c2009's log lacks `{text}`:\n{log}");
    }
}

#[test]
fn full_map_scan_champions_play_without_fault_and_read_the_true_board() {
    let built = built();
    let _serial = serial();
    let path = |name: &str| fixture(name).display().to_string();
    // (the scan champion, the prefix of its report)
    let mut scans = vec![
        (path("scan_py"), "scan_py end:"),
        (path("scan_c"), "scan_c end:"),
        (path("scan_cpp"), "scan_cpp end:"),
    ];
    scans.extend(built.rust("scan_rust").map(|p| (p, "scan_rust end:")));
    // Match i: scan champions i and i + 1 and a built-in, in seats 2i, 2i + 1, 2i + 2
    // (mod 3): each scan champion plays two matches, in two different seats.
    let n = scans.len();
    let games: Vec<Played> = (0..n)
        .map(|i| {
            let mut line_up = [""; 3];
            line_up[2 * i % 3] = scans[i].0.as_str();
            line_up[(2 * i + 1) % 3] = scans[(i + 1) % n].0.as_str();
            line_up[(2 * i + 2) % 3] = if i % 2 == 0 { "greedy" } else { "random" };
            play(&format!("scan_{i}"), line_up, 31 + i as u64)
        })
        .collect();
    let mut checked = BTreeMap::new();
    for game in &games {
        for (at, prefix) in &scans {
            let Some(seat) = seat_running(game, Path::new(at)) else {
                continue;
            };
            *checked.entry(*prefix).or_insert(0) += 1;
            check_scan(game, seat, prefix);
            if *prefix == "scan_py end:" {
                let end = report(&game.stderr(seat), prefix);
                // Arguments beyond 32 bits: HORS_TERRAIN, ACTION_INTERDITE, no fault.
                assert_eq!(end["bigargs"], [-12, -10], "{prefix} big arguments");
            }
        }
    }
    // Every scan champion was checked in its two matches.
    for (_, prefix) in &scans {
        assert_eq!(checked.get(prefix), Some(&2), "{prefix} in {checked:?}");
    }
}

#[test]
fn a_callback_the_contestant_did_not_write_is_an_empty_one() {
    built();
    let _serial = serial();
    let c = fixture("partial_c").display().to_string();
    let py = fixture("partial_py").display().to_string();
    let played = play("partial", [&c, &py, "random"], 31);
    for seat in 0..2 {
        let names: Vec<&str> = played
            .callbacks(seat)
            .iter()
            .map(|c| c["callback"].as_str().unwrap())
            .collect();
        assert_eq!(names.first(), Some(&"init_game"), "seat {seat}");
        assert_eq!(names.last(), Some(&"end_game"), "seat {seat}");
        assert!(
            played.result("houses", seat) > 0,
            "seat {seat} built with its only callback"
        );
    }
}

/// `greedy2009` has functions declared `int` that end without `return`, as the 2009
/// champions `greedy` and `groopy` had: built the default way it plays as it did in 2009
/// (the kit notices the missing return and compiles the file with -O0, saying so and naming
/// the flag); built with `CXXFLAGS=-O2` it is stopped in turn 1.
#[test]
fn a_2009_champion_with_a_function_without_return_plays_as_in_2009() {
    built();
    let _serial = serial();
    // Built in a copy (the repository may not be writable: the suite also runs as a user),
    // with the fixture's Makefile and the kits named by absolute paths.
    let fixture_dir = fixture("greedy2009");
    let dir = common::fresh_dir("kits", "greedy2009");
    fs::copy(fixture_dir.join("prologin.cc"), dir.join("prologin.cc")).unwrap();
    let kits = repo_root().join("champions");
    let make_args = |args: &[&str]| {
        let mut make = Command::new("make");
        make.arg("-s")
            .arg("-C")
            .arg(&dir)
            .arg("-f")
            .arg(fixture_dir.join("Makefile"))
            .arg(format!("KIT={}", kits.join("cpp/kit").display()))
            .arg(format!("KIT_C={}", kits.join("c/kit").display()))
            .args(args);
        run(&mut make, &format!("make greedy2009 {}", args.join(" ")))
    };
    let make = |flags: &[&str]| {
        make_args(&["clean"]);
        make_args(flags)
    };
    let path = dir.display().to_string();

    // Optimised as asked: the undefined behaviour stops it in its first jouer.
    make(&["CXXFLAGS=-O2"]);
    let out_dir = common::fresh_dir("kits", "noreturn_o2");
    run(
        Command::new(referee())
            .arg("match")
            .args([path.as_str(), "greedy", "random", "--seed", "3", "--out"])
            .arg(&out_dir),
        "referee match (greedy2009 at -O2)",
    );
    let faults = common::loi::Match::read(&out_dir).faults();
    assert!(
        faults
            .iter()
            .any(|f| f.seat == 0 && f.turn == Some(1) && f.callback.as_deref() == Some("jouer")),
        "at -O2 the champion is stopped in turn 1: {faults:?}"
    );
    common::remove_dir(&out_dir);

    // The default build: the note names the flag, and the champion plays a whole match.
    let out = make(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("prologin.cc: a function can end without a return")
            && stderr.contains("-O0")
            && stderr.contains("make CXXFLAGS="),
        "the build says what it did and names CXXFLAGS:\n{stderr}"
    );
    let played = play("noreturn", [&path, "greedy", "random"], 3);
    assert!(played.result("houses", 0) > 0, "greedy2009 built houses");
    assert!(
        played.stderr(0).contains("[greedy2009] fin: maisons"),
        "{}",
        played.stderr(0)
    );
}

/// A copy of `champions/python/random` in a fresh folder, with `bin/python`: a wrapper
/// interpreter that says where it runs from and then runs `python3`.
fn python_champion_with_wrapper(name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = common::fresh_dir("kits", name).join("mypy");
    fs::create_dir_all(dir.join("bin")).unwrap();
    for file in ["champion", "prologin.py"] {
        fs::copy(
            repo_root().join("champions/python/random").join(file),
            dir.join(file),
        )
        .unwrap();
    }
    let wrapper = dir.join("bin/python");
    fs::write(
        &wrapper,
        "#!/bin/sh\necho \"[interpreter] the wrapper at $0\" >&2\nexec python3 \"$@\"\n",
    )
    .unwrap();
    fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// A match allowed to fault: its record, seat 0's stderr and the referee's stdout.
fn match_allowing_faults(
    name: &str,
    champions: [&str; 3],
    env: &[(&str, &str)],
) -> (common::loi::Match, String, String) {
    let dir = common::fresh_dir("kits", name);
    let out = run(
        Command::new(referee())
            .arg("match")
            .args(champions)
            .args(["--seed", "5", "--out"])
            .arg(&dir)
            .envs(env.iter().copied()),
        &format!("referee match ({name})"),
    );
    let record = common::loi::Match::read(&dir);
    let stderr = fs::read_to_string(dir.join("seat0.stderr")).unwrap();
    common::remove_dir(&dir);
    (
        record,
        stderr,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `PROLOGIN_PYTHON` names the interpreter of the Python kit (champions/README.md,
/// "Python"): the referee passes it from its environment; a path relative to the
/// champion's folder works in the jail, a host path outside the jail's view works without
/// the jail only, and a missing interpreter is a fault whose log names the variable.
#[test]
fn the_python_kit_runs_the_interpreter_prologin_python_names() {
    built();
    let _serial = serial();
    let champion = python_champion_with_wrapper("interpreter");
    let path = champion.display().to_string();

    // Relative to the champion's folder: in the jail, it is /champion/bin/python.
    let played = play_with(
        "interpreter_relative",
        [&path, "random", "greedy"],
        41,
        &[("PROLOGIN_PYTHON", "bin/python")],
        &[],
    );
    let log = played.stderr(0);
    assert!(
        log.contains("[interpreter] the wrapper at /champion/bin/python"),
        "the wrapper ran in the jail:\n{log}"
    );
    assert!(played.result("houses", 0) > 0, "the champion played");

    // An absolute host path: without the jail it runs ...
    let host = champion.join("bin/python").display().to_string();
    let played = play_with(
        "interpreter_host_path",
        [&path, "random", "greedy"],
        42,
        &[("PROLOGIN_PYTHON", &host)],
        &["--sandbox", "off"],
    );
    let log = played.stderr(0);
    assert!(
        log.contains(&format!("[interpreter] the wrapper at {host}")),
        "the wrapper ran from the host path:\n{log}"
    );
    drop(played);

    // ... in the jail that path does not exist: a fault, and the log says why.
    let (record, log, stdout) = match_allowing_faults(
        "interpreter_missing",
        [&path, "random", "greedy"],
        &[("PROLOGIN_PYTHON", &host)],
    );
    let faults = record.faults();
    assert!(
        faults
            .iter()
            .any(|f| f.seat == 0 && f.callback.as_deref() == Some("init_game")),
        "no interpreter, no champion: {faults:?}"
    );
    assert!(
        log.contains(&format!("PROLOGIN_PYTHON={host}: no interpreter at {host}")),
        "the log names the variable:\n{log}"
    );
    // The command that plays it again sets the same interpreter.
    assert!(
        stdout.contains(&format!("reproduce: PROLOGIN_PYTHON={host} ")),
        "the reproduce command names the interpreter:\n{stdout}"
    );

    // Without the variable, python3 as before.
    let played = play("interpreter_default", [&path, "random", "greedy"], 43);
    assert!(!played.stderr(0).contains("[interpreter]"));
}
// ---- Kits part 1 (issue 15): JavaScript, Java, C#, Go, Ruby, PHP. ----

/// A kit of part 1: its folder under `champions/`, the tools its champions need, the
/// Debian package that brings them (scripts/ci-install.sh), its scan fixture, and whether
/// its API takes integers wider than 32 bits (then the scan checks they are clamped).
struct Kit1 {
    name: &'static str,
    dir: &'static str,
    tools: &'static [&'static str],
    package: &'static str,
    scan: &'static str,
    wide_ints: bool,
}

const KITS1: [Kit1; 6] = [
    Kit1 {
        name: "JavaScript",
        dir: "javascript",
        tools: &["node"],
        package: "nodejs",
        scan: "scan_js",
        wide_ints: true,
    },
    Kit1 {
        name: "Java",
        dir: "java",
        tools: &["javac", "java"],
        package: "default-jdk-headless",
        scan: "scan_java",
        wide_ints: false,
    },
    Kit1 {
        name: "C#",
        dir: "csharp",
        tools: &["mcs", "mono"],
        package: "mono-mcs",
        scan: "scan_cs",
        wide_ints: false,
    },
    Kit1 {
        name: "Go",
        dir: "go",
        tools: &["go"],
        package: "golang-go",
        scan: "scan_go",
        wide_ints: true,
    },
    Kit1 {
        name: "Ruby",
        dir: "ruby",
        tools: &["ruby"],
        package: "ruby",
        scan: "scan_rb",
        wide_ints: true,
    },
    Kit1 {
        name: "PHP",
        dir: "php",
        tools: &["php"],
        package: "php-cli",
        scan: "scan_php",
        wide_ints: true,
    },
];

fn tool_installed(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool} >/dev/null"))
        .status()
        .is_ok_and(|s| s.success())
}

/// The kits of part 1 whose toolchain is installed, with their bundled champions
/// (scripts/build-champions.sh) and compiled scan fixtures built; each missing one is
/// reported by `skip_missing` (a failure under CI=true).
fn kits1() -> &'static [&'static Kit1] {
    static READY: OnceLock<Vec<&'static Kit1>> = OnceLock::new();
    READY.get_or_init(|| {
        built();
        let mut ready = Vec::new();
        for kit in &KITS1 {
            if let Some(tool) = kit.tools.iter().find(|t| !tool_installed(t)) {
                common::skip_missing(&format!(
                    "kits: the {} kit: `{tool}` is not installed (Debian package {}, \
                     scripts/ci-install.sh)",
                    kit.name, kit.package
                ));
                continue;
            }
            let scan = fixture(kit.scan);
            if scan.join("Makefile").is_file() {
                run(
                    Command::new("make").arg("-s").arg("-C").arg(&scan),
                    &format!("make -C tests/fixtures/kits/{}", kit.scan),
                );
            }
            ready.push(kit);
        }
        ready
    })
}

/// Line-ups of three from `pool`, the last one filled from the start.
fn line_ups(pool: &[String]) -> Vec<[&str; 3]> {
    (0..pool.len().div_ceil(3))
        .map(|m| std::array::from_fn(|i| pool[(3 * m + i) % pool.len()].as_str()))
        .collect()
}

#[test]
fn every_kit_sample_plays_the_same_match_alike_and_sensibly() {
    let kits = kits1();
    let _serial = serial();
    // The samples of every kit run the same algorithm with the same random sequence, so
    // in the same seat of the same match they must send the same requests and get the
    // same answers: a kit whose cache, argument passing or callback dispatch differs
    // from the others' shows up here.
    let mut first: Option<(&str, Vec<(String, i64)>)> = None;
    for kit in kits {
        let sample = champion(&format!("champions/{}/sample", kit.dir));
        let played = play(
            &format!("sample_{}", kit.dir),
            [&sample, "greedy", "random"],
            1,
        );
        let requests = played.requests(0);
        // Sensible: it builds, bids, and places a monument.
        for action in [
            "construire_route",
            "construire_maison",
            "encherir",
            "construire_monument",
        ] {
            assert!(
                requests
                    .iter()
                    .any(|(line, answer)| line.starts_with(action) && *answer == 0),
                "the {} sample never succeeded with {action}",
                kit.name
            );
        }
        assert!(played.result("houses", 0) > 0, "{} sample", kit.name);
        // Its stdout went to its log, not into the protocol (play() checks the latter).
        let log = played.stderr(0);
        let end = report(&log, &format!("sample ({}) end:", kit.name));
        assert_eq!(end["money"], [played.result("money", 0)], "{}", kit.name);
        assert_eq!(
            end["houses"][0] + end["money"][0],
            played.result("final_scores", 0)
        );
        match &first {
            None => first = Some((kit.name, requests)),
            Some((name, expected)) => {
                let diverge = expected.iter().zip(&requests).position(|(a, b)| a != b);
                assert!(
                    diverge.is_none() && expected.len() == requests.len(),
                    "the {} sample played otherwise than the {name} one: first difference at \
                     request {diverge:?} ({:?} vs {:?}), {} vs {} requests",
                    kit.name,
                    diverge.map(|i| &expected[i]),
                    diverge.map(|i| &requests[i]),
                    expected.len(),
                    requests.len()
                );
            }
        }
    }
}

#[test]
fn samples_and_templates_of_every_kit_play_mixed_matches_without_fault() {
    let built = built();
    let kits = kits1();
    let _serial = serial();
    let mut pool: Vec<String> = Vec::new();
    for kit in kits {
        pool.push(champion(&format!("champions/{}/sample", kit.dir)));
    }
    // The C, C++ and Python kits' templates (they have no sample: their bundled champions
    // play in `bundled_champions_of_every_language_...`), then part 1's.
    for dir in ["c", "cpp", "python"] {
        pool.push(champion(&format!("champions/{dir}/template")));
    }
    for kit in kits.iter().rev() {
        pool.push(champion(&format!("champions/{}/template", kit.dir)));
    }
    // The Rust kit's template is a binary that plays a little (src/bin/template.rs).
    let rust_template = built.rust("template");
    pool.extend(rust_template.clone());
    for (m, line_up) in line_ups(&pool).iter().enumerate() {
        let played = play(&format!("mixed1_{m}"), *line_up, 41 + m as u64);
        for (seat, who) in line_up.iter().enumerate() {
            if Some(*who) == rust_template.as_deref() {
                // Its println! went to its log (play() saw nothing but requests).
                let log = played.stderr(seat);
                assert!(log.contains("println! is safe too"), "{who}:\n{log}");
            } else if who.ends_with("/template") {
                // A template folder does nothing: no request at all, 10 roubles, no house.
                assert_eq!(played.requests(seat), [], "{who}");
                assert_eq!(played.result("money", seat), 10, "{who}");
                assert_eq!(played.result("houses", seat), 0, "{who}");
            }
        }
    }
}

#[test]
fn full_map_scan_champions_of_every_kit_read_the_true_board() {
    let kits = kits1();
    let _serial = serial();
    for kit in kits {
        let dir = fixture(kit.scan);
        let path = dir.display().to_string();
        let prefix = format!("{} end:", kit.scan);
        for (n, line_up) in [
            [path.as_str(), "greedy", "random"],
            ["random", path.as_str(), "greedy"],
        ]
        .iter()
        .enumerate()
        {
            let game = play(&format!("{}_{n}", kit.scan), *line_up, 31 + n as u64);
            let seat = seat_of(&game, &dir);
            check_scan(&game, seat, &prefix);
            let end = report(&game.stderr(seat), &prefix);
            assert!(end["houses"][0] > 0, "{prefix} built no house");
            if kit.wide_ints {
                // Arguments beyond 32 bits: HORS_TERRAIN, ACTION_INTERDITE, no fault.
                assert_eq!(end["bigargs"], [-12, -10], "{prefix} big arguments");
            }
        }
    }
}

/// Runs a kit's champion by hand, outside the referee, with `input` as its stdin; its
/// exit status, stdout and stderr (30 s at most: a kit that hangs fails the test).
fn converse(champion: &Path, input: &str, dir: &Path) -> (Option<i32>, String, String) {
    let file = |name: &str| dir.join(name);
    fs::write(file("in"), input).unwrap();
    let mut child = Command::new(champion)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", dir)
        .env("PROLOGIN_KITS", repo_root().join("kits"))
        .env("PROLOGIN_SEED", "1")
        // A JVM on the host writes /tmp/hsperfdata_<user> unless told not to.
        .env("JAVA_TOOL_OPTIONS", "-XX:-UsePerfData")
        .current_dir(dir)
        .stdin(fs::File::open(file("in")).unwrap())
        .stdout(fs::File::create(file("out")).unwrap())
        .stderr(fs::File::create(file("err")).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", champion.display()));
    let status = common::wait_timeout(&mut child, Duration::from_secs(30))
        .unwrap_or_else(|| panic!("{} hung on {input:?}", champion.display()));
    let read = |name: &str| fs::read_to_string(file(name)).unwrap();
    (status.code(), read("out"), read("err"))
}

#[test]
fn every_kit_ends_a_broken_conversation_with_a_clear_message() {
    let kits = kits1();
    let _serial = serial();
    let dir = common::fresh_dir("kits", "conversation");
    for kit in kits {
        let sample = repo_root().join(format!("champions/{}/sample/champion", kit.dir));
        let template = repo_root().join(format!("champions/{}/template/champion", kit.dir));
        let name = kit.name;
        // A whole (short) conversation: one `fin` a callback, nothing else, exit 0.
        let (code, out, err) = converse(&template, "init_game\njouer\nend_game\n", &dir);
        assert_eq!(
            (code, out.as_str()),
            (Some(0), "fin\nfin\nfin\n"),
            "{name}: {err}"
        );
        // (kit error, what it says, what it sent first)
        for (input, says, sent) in [
            ("dance\n", "unknown callback `dance`", ""),
            (
                "init_game\n",
                "closed the connection while we waited for `etat`",
                "etat\n",
            ),
            ("init_game\nnonsense\n", "unparsable answer", "etat\n"),
        ] {
            let (code, out, err) = converse(&sample, input, &dir);
            assert!(
                code.is_some_and(|c| c != 0) && err.contains(says) && out == sent,
                "{name} on {input:?}: exit {code:?}, stdout {out:?}, stderr:\n{err}"
            );
        }
        // The referee closing the conversation before end_game: an error too.
        let (code, out, err) = converse(&template, "init_game\n", &dir);
        assert!(
            code.is_some_and(|c| c != 0) && err.contains("before end_game") && out == "fin\n",
            "{name}: exit {code:?}, stdout {out:?}, stderr:\n{err}"
        );
    }
    common::remove_dir(&dir);
}

// ---- end of kits part 1 ----

// ---- The Lua, Prolog, OCaml, Haskell and Pascal kits (issue 15) -------------------------
//
// Each kit's sample and template champions (built by scripts/build-champions.sh through
// champions/<lang>/build.sh for the compiled ones), its full-map scan fixture
// (`scan_<lang>`) and, for the compiled kits, whose build finds the callbacks the
// contestant wrote, a fixture defining only `jouer` (`partial_<lang>`). A kit whose
// toolchain is missing is skipped out loud (a failure under CI=true). As root the matches
// run jailed, and the record must say so: the kits work in the jail, not only beside it.

/// A kit of this block: its folder under champions/, how its champions name themselves in
/// their logs, the program it needs and the Debian package providing that program.
struct LangKit {
    lang: &'static str,
    name: &'static str,
    tool: &'static str,
    package: &'static str,
    compiled: bool,
}

const LANG_KITS: [LangKit; 5] = [
    LangKit {
        lang: "lua",
        name: "Lua",
        tool: "lua5.4",
        package: "lua5.4",
        compiled: false,
    },
    LangKit {
        lang: "prolog",
        name: "Prolog",
        tool: "swipl",
        package: "swi-prolog-nox",
        compiled: false,
    },
    LangKit {
        lang: "ocaml",
        name: "OCaml",
        tool: "ocamlopt",
        package: "ocaml-nox",
        compiled: true,
    },
    LangKit {
        lang: "haskell",
        name: "Haskell",
        tool: "ghc",
        package: "ghc",
        compiled: true,
    },
    LangKit {
        lang: "pascal",
        name: "Pascal",
        tool: "fpc",
        package: "fp-compiler",
        compiled: true,
    },
];

/// The kits of this block whose toolchain is here, with their fixtures built; a missing
/// one is reported by `skip_missing` (once per test run).
fn lang_kits() -> &'static [&'static LangKit] {
    static KITS: OnceLock<Vec<&'static LangKit>> = OnceLock::new();
    KITS.get_or_init(|| {
        built();
        let mut here = Vec::new();
        for kit in &LANG_KITS {
            if !tool_installed(kit.tool) {
                common::skip_missing(&format!(
                    "the {} kit's champions: `{}` is not on PATH (Debian: apt-get install {})",
                    kit.name, kit.tool, kit.package
                ));
                continue;
            }
            if kit.compiled {
                for fixture_name in ["scan", "partial"] {
                    let name = format!("{fixture_name}_{}", kit.lang);
                    run(
                        Command::new("make").arg("-s").arg("-C").arg(fixture(&name)),
                        &format!("make -C tests/fixtures/kits/{name}"),
                    );
                }
            }
            here.push(kit);
        }
        here
    })
}

/// The referee jails every champion (`--sandbox auto`: as root with a uid of its own, as a
/// user in a user namespace); the record says so. A user's kernel may refuse user
/// namespaces: that is a skip, noted (a failure under CI=true, whose machines allow them).
fn assert_jailed(name: &str, played: &Played) {
    let sandbox = played.record["sandbox"].as_str().unwrap_or("");
    if sandbox.starts_with("sandbox: jail=on") {
        return;
    }
    let is_root = fs::read_to_string("/proc/self/status")
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false);
    assert!(
        !is_root,
        "{name}: as root the champions run jailed, the record says `{sandbox}`"
    );
    common::skip_missing(&format!(
        "{name}: the jail is not available to this user (the record says `{sandbox}`)"
    ));
}

/// Answers of one seat to one action, in order.
fn answers_of(played: &Played, seat: usize, action: &str) -> Vec<i64> {
    played
        .requests(seat)
        .into_iter()
        .filter(|(line, _)| line.split(' ').next() == Some(action))
        .map(|(_, answer)| answer)
        .collect()
}

#[test]
fn lua_prolog_ocaml_haskell_pascal_samples_play_sensibly_against_the_builtins() {
    let kits = lang_kits();
    let _serial = serial();
    for kit in kits {
        let sample = champion(&format!("champions/{}/sample", kit.lang));
        let name = format!("sample_{}", kit.lang);
        let played = play(&name, [&sample, "greedy", "random"], 1);
        assert_jailed(&name, &played);
        // It builds roads and houses, bids, and places a monument: every kind of action
        // reached the referee through the kit and succeeded.
        for action in [
            "construire_route",
            "construire_maison",
            "encherir",
            "construire_monument",
        ] {
            let answers = answers_of(&played, 0, action);
            assert!(
                answers.contains(&0),
                "{name}: no successful {action} in {answers:?}"
            );
        }
        assert!(played.result("houses", 0) > 0, "{name} built no house");
        // Its stdout went to its log, and what it read through the kit is the record's.
        let log = played.stderr(0);
        let hello = format!("sample ({}): first player is", kit.name);
        assert!(log.contains(&hello), "{name}'s log lacks `{hello}`:\n{log}");
        let end = report(&log, &format!("sample ({}) end:", kit.name));
        assert_eq!(end["money"][0], played.result("money", 0), "{name} money");
        assert_eq!(
            end["money"][0] + end["worth"][0],
            played.result("final_scores", 0),
            "{name} final score"
        );
    }
}

#[test]
fn lua_prolog_ocaml_haskell_pascal_samples_and_templates_play_mixed_matches() {
    let kits = lang_kits();
    let _serial = serial();
    let mut pool: Vec<String> = Vec::new();
    for kit in kits {
        pool.push(champion(&format!("champions/{}/sample", kit.lang)));
    }
    for kit in kits {
        pool.push(champion(&format!("champions/{}/template", kit.lang)));
    }
    if pool.is_empty() {
        return; // every kit skipped out loud above
    }
    pool.push("greedy".into());
    let line_ups: Vec<[&str; 3]> = (0..pool.len().div_ceil(3))
        .map(|m| std::array::from_fn(|i| pool[(3 * m + i) % pool.len()].as_str()))
        .collect();
    for (m, line_up) in line_ups.iter().enumerate() {
        let name = format!("langmix{m}");
        let played = play(&name, *line_up, 41 + m as u64);
        assert_jailed(&name, &played);
        for seat in 0..3 {
            // A template does nothing: 10 roubles, no house, and no action in its
            // protocol.
            if played.seat_path(seat).contains("/template/") {
                assert_eq!(played.result("money", seat), 10, "{name} seat {seat}");
                assert_eq!(played.result("houses", seat), 0, "{name} seat {seat}");
                for action in ACTIONS {
                    assert!(
                        answers_of(&played, seat, action).is_empty(),
                        "{name} seat {seat}: the template called {action}"
                    );
                }
            }
        }
    }
}

#[test]
fn lua_prolog_ocaml_haskell_pascal_scan_champions_read_the_true_board() {
    let kits = lang_kits();
    let _serial = serial();
    let dirs: Vec<(PathBuf, String, bool)> = kits
        .iter()
        .map(|k| {
            let dir = fixture(&format!("scan_{}", k.lang));
            // Every kit but Pascal's (whose integers are the wire's) clamps big arguments.
            (dir, format!("scan_{} end:", k.lang), k.lang != "pascal")
        })
        .collect();
    let paths: Vec<String> = dirs.iter().map(|d| d.0.display().to_string()).collect();
    let mut pool: Vec<&str> = paths.iter().map(String::as_str).collect();
    if pool.is_empty() {
        return; // every kit skipped out loud above
    }
    pool.push("random");
    let line_ups: Vec<[&str; 3]> = (0..pool.len().div_ceil(3))
        .map(|m| std::array::from_fn(|i| pool[(3 * m + i) % pool.len()]))
        .collect();
    for (m, line_up) in line_ups.iter().enumerate() {
        let game = play(&format!("langscan{m}"), *line_up, 51 + m as u64);
        for (dir, prefix, clamps) in &dirs {
            let Some(seat) = (0..3).find(|&s| {
                Path::new(game.seat_path(s)).parent() == Some(dir.canonicalize().unwrap().as_path())
            }) else {
                continue;
            };
            check_scan(&game, seat, prefix);
            if *clamps {
                let end = report(&game.stderr(seat), prefix);
                // distance(2^40, ...) is off the map, encherir(-2^40) refused, no fault.
                assert_eq!(end["bigargs"][..2], [-12, -10], "{prefix} big arguments");
            }
        }
    }
}

#[test]
fn ocaml_haskell_pascal_kits_give_empty_callbacks_for_those_not_written() {
    let kits = lang_kits();
    let _serial = serial();
    let paths: Vec<String> = kits
        .iter()
        .filter(|k| k.compiled)
        .map(|k| {
            fixture(&format!("partial_{}", k.lang))
                .display()
                .to_string()
        })
        .collect();
    if paths.is_empty() {
        return; // every kit skipped out loud above
    }
    let mut line_up: Vec<&str> = paths.iter().map(String::as_str).collect();
    line_up.resize(3, "random");
    let played = play("langpartial", [line_up[0], line_up[1], line_up[2]], 61);
    for seat in 0..paths.len() {
        assert!(
            played.result("houses", seat) > 0,
            "seat {seat} ({}) built with its only callback",
            played.seat_path(seat)
        );
        // It never bid nor placed: its enchere and placement did nothing.
        assert!(answers_of(&played, seat, "encherir").is_empty());
        assert!(answers_of(&played, seat, "construire_monument").is_empty());
    }
    // What OCaml and Pascal champions print when their module is initialised, before the
    // first callback, reaches the log (and `play` saw nothing but requests in the protocol).
    for (seat, kit) in kits.iter().filter(|k| k.compiled).enumerate() {
        if kit.lang != "haskell" {
            let text = format!("partial_{}: loaded", kit.lang);
            let log = played.stderr(seat);
            assert!(
                log.contains(&text),
                "seat {seat}'s log lacks `{text}`:\n{log}"
            );
        }
    }
}

/// `make` in a copy at `to` of the `Makefile` and `source` of `from` (a champion's folder)
/// with the repository's kit of `language`: what the compiler said (stdout and stderr).
fn make_with_kit(language: &str, source: &str, from: &Path, to: &Path) -> String {
    fs::create_dir_all(to).unwrap();
    for file in ["Makefile", source] {
        fs::copy(from.join(file), to.join(file)).unwrap();
    }
    let kit = repo_root().join("champions").join(language).join("kit");
    let out = run(
        Command::new("make")
            .arg("-C")
            .arg(to)
            .arg(format!("KIT={}", kit.display())),
        &format!("make -C {}", to.display()),
    );
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The number (from 1) of the first line of the file `path` that holds `needle`.
fn line_with(path: &Path, needle: &str) -> usize {
    let source = fs::read_to_string(path).unwrap();
    1 + source
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{}: no line with `{needle}`", path.display()))
}

/// The crash line `referee match` prints for seat 0 of `champion` against `random` and
/// `greedy`, its match kept in `out`.
fn crash_line(champion: &Path, out: &Path) -> String {
    let output = Command::new(referee())
        .arg("match")
        .arg(champion)
        .args(["random", "greedy", "--seed", "4", "--out"])
        .arg(out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .find(|l| l.contains("crash:"))
        .unwrap_or_else(|| panic!("no crash in:\n{stdout}"))
        .to_string()
}

/// A Pascal champion built with the kit's defaults: the compiler's warnings are shown (the
/// template builds without any), and an unhandled exception's fault, as `referee match`
/// prints it, names the exception and the line of the source that raised it (`-gl`).
#[test]
fn a_pascal_crash_names_its_exception_and_line_and_its_build_shows_warnings() {
    if !tool_installed("fpc") {
        common::skip_missing(
            "the Pascal kit: `fpc` is not on PATH (Debian: apt-get install fp-compiler)",
        );
        return;
    }
    let _serial = serial();
    let dir = common::fresh_dir("kits", "crash_pascal");
    let template = make_with_kit(
        "pascal",
        "prologin.pas",
        &repo_root().join("champions/pascal/template"),
        &dir.join("template"),
    );
    assert!(
        !template.contains("Warning") && !template.contains("Note"),
        "{template}"
    );
    let crash = dir.join("crash");
    let said = make_with_kit("pascal", "prologin.pas", &fixture("crash_pascal"), &crash);
    assert!(
        said.contains("Warning: Local variable \"unused\" does not seem to be initialized"),
        "the build hides the compiler's warnings:\n{said}"
    );
    let line = line_with(&crash.join("prologin.pas"), "10 div zero");
    let fault = crash_line(&crash, &dir.join("match"));
    assert!(
        fault.contains(&format!(
            "its error: EDivByZero: Division by zero (in JOUER, line {line} of prologin.pas)"
        )),
        "{fault}"
    );
}

/// An OCaml champion built with the kit's defaults (`-g`, its backtrace recorded) that
/// raises 300 calls deep: its backtrace is longer than the end of stderr the referee keeps,
/// and the fault, as `referee match` prints it, still names the exception and the line
/// that raised it (the kit's own line, written after the backtrace).
#[test]
fn an_ocaml_crash_with_a_long_backtrace_names_its_exception_and_line() {
    if !tool_installed("ocamlopt") {
        common::skip_missing(
            "the OCaml kit: `ocamlopt` is not on PATH (Debian: apt-get install ocaml-nox)",
        );
        return;
    }
    let _serial = serial();
    let dir = common::fresh_dir("kits", "crash_ocaml");
    let crash = dir.join("crash");
    make_with_kit("ocaml", "prologin.ml", &fixture("crash_ocaml"), &crash);
    let line = line_with(&crash.join("prologin.ml"), "10 / zero");
    let fault = crash_line(&crash, &dir.join("match"));
    assert!(
        fault.contains(&format!(
            "its error: prologin kit (OCaml): error in jouer: exception Division_by_zero (in \
             Prologin.down, line {line} of prologin.ml)"
        )),
        "{fault}"
    );
    let stderr = fs::read_to_string(dir.join("match/seat0.stderr")).unwrap();
    assert!(
        stderr.starts_with("Fatal error: exception Division_by_zero\nRaised at Prologin.down")
            && stderr.len() > 4096,
        "the backtrace, longer than what the referee quotes from: {} bytes",
        stderr.len()
    );
}
