//! Little Town through the real binary, as an organiser types it: matches of 2, 3 and 4
//! champions (the original's `-p`), its seed and its `-c` as the referee's `--seed` and
//! `--option board=`; a champion that builds what it cannot pay for excluded (its fault
//! recorded) while the others play on; a seat eliminated by its upkeep asked no more; and
//! tournaments of four seats (round-robin of 4-sets with rotated seats, groups), their
//! points of four places, leaderboard, pairwise and seats files, shards merged, a cut run
//! resumed, a gauntlet.

use crate::common;

use common::tables::{table, untimed, Row};
use common::users::Who;
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/town")
        .join(name)
        .display()
        .to_string()
}

/// `referee --game little-town ARGS`, run by `who`.
fn town(who: Who, args: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .args(["--game", "little-town"])
        .args(args)
        .stdin(Stdio::null());
    if let Who::User(uid, gid) = who {
        command.uid(uid).gid(gid).env("HOME", "/nonexistent");
    }
    command
}

fn record(dir: &Path) -> arena::GameRecord {
    arena::GameRecord::load(&dir.join("record.json")).unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn refused(mut command: Command, needles: &[&str]) {
    let out = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "`{needle}` not in: {stderr}");
    }
}

#[test]
fn a_match_takes_two_three_or_four_champions_its_seed_and_its_board() {
    let dir = common::fresh_dir("town", "match");
    let all = [
        "random".to_string(),
        "strong".to_string(),
        fixture("first.sh"),
        fixture("last.sh"),
    ];
    for (n, board) in [
        (2, "torus"),
        (3, "infernal"),
        (4, "cardinal"),
        (4, "diagonal"),
    ] {
        let out_dir = dir.join(format!("{n}-{board}"));
        let option = format!("board={board}");
        let mut args = vec!["match"];
        args.extend(all[..n].iter().map(String::as_str));
        args.extend(["--seed", "11", "--option", &option, "--out"]);
        let out = common::run_ok({
            let mut c = town(Who::Root, &args);
            c.arg(&out_dir);
            c
        });
        let record = record(&out_dir);
        assert_eq!(record.seats.len(), n);
        assert_eq!(record.options.get("board"), board);
        assert!(record.faults.is_empty(), "{:?}", record.faults);
        assert_eq!(record.ranking.places.len(), n);
        let text = stdout(&out);
        assert!(text.contains("board spread"), "{text}");
        // The same seed plays the same match (the original's -s).
        let again = dir.join(format!("{n}-{board}-again"));
        common::run_ok({
            let mut c = town(Who::Root, &args);
            c.arg(&again);
            c
        });
        assert_eq!(
            record.history_digest(),
            self::record(&again).history_digest()
        );
        // Replayed, and shown with a line per seat.
        common::run_ok(town(Who::Root, &["replay", out_dir.to_str().unwrap()]));
        let shown = stdout(&common::run_ok(town(
            Who::Root,
            &["show", out_dir.to_str().unwrap()],
        )));
        assert_eq!(shown.matches("\nseat ").count(), n, "{shown}");
    }
    // Four seats when none are chosen; one or five champions refused, naming the range.
    let options = stdout(&common::run_ok(town(Who::Root, &["options"])));
    assert!(
        options.contains("2 to 4 seats (--seats K, default 4)"),
        "{options}"
    );
    refused(
        town(
            Who::Root,
            &["match", "random", "strong", "random", "strong", "random"],
        ),
        &["a match of Little Town takes 2 to 4 champions, got 5"],
    );
    refused(town(Who::Root, &["match", "random"]), &["CHAMPION"]);
    refused(
        town(
            Who::Root,
            &["match", "random", "strong", "--option", "board=hex"],
        ),
        &[
            "option `board`",
            "rectangle, cardinal, diagonal, torus, infernal",
        ],
    );
}

/// The fourth extension (rules 21 and 22) by its options: the kits' sample champions (C
/// and Python) and the built-in ones play it, some building a kind with a power, the same seed plays the same match, the
/// record replays, and `show` draws the new buildings.
#[test]
fn objectives_and_powers_are_options_and_a_seed_plays_the_same_match() {
    let dir = common::fresh_dir("town", "powers");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = repo
        .join("champions/little-town/python/random")
        .display()
        .to_string();
    let builder = repo.join("champions/little-town/c/builder");
    let made = Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(&builder)
        .env_remove("PROLOGIN_KITS")
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let builder = builder.display().to_string();
    let mut seen_power = false;
    for seed in ["3", "4", "5"] {
        let args = |out: &Path| {
            let mut c = town(
                Who::Root,
                &[
                    "match",
                    "random",
                    "strong",
                    &builder,
                    &python,
                    "--seed",
                    seed,
                    "--option",
                    "powers=on",
                    "--option",
                    "objectives=on",
                    "--out",
                ],
            );
            c.arg(out);
            c
        };
        let (a, b) = (dir.join(format!("{seed}-a")), dir.join(format!("{seed}-b")));
        common::run_ok(args(&a));
        common::run_ok(args(&b));
        let (ra, rb) = (record(&a), record(&b));
        assert!(ra.faults.is_empty(), "{:?}", ra.faults);
        assert_eq!(ra.options.get("powers"), "on");
        assert_eq!(ra.options.get("objectives"), "on");
        assert_eq!(ra.history_digest(), rb.history_digest());
        assert_eq!(ra.ranking.scores, rb.ranking.scores);
        let actions: Vec<&str> = ra.actions().collect();
        assert_eq!(actions, rb.actions().collect::<Vec<_>>());
        seen_power |= actions.iter().any(|a| {
            ["cathedral", "castle", "watchtower", "market"]
                .iter()
                .any(|k| a.ends_with(k))
        });
        common::run_ok(town(Who::Root, &["replay", a.to_str().unwrap()]));
        let shown = |dir: &Path| {
            stdout(&common::run_ok(town(
                Who::Root,
                &["show", dir.to_str().unwrap()],
            )))
        };
        assert_eq!(shown(&a), shown(&b));
        // The terminal view: the buildings left, what the powers would pay now, the
        // objectives each seat meets, and the moves that led there.
        let end = shown(&a);
        for expected in [
            "buildings left: farm ",
            ", market ",
            "powers if the round ended now: seat 0 +",
            " objectives met: ",
            "recent moves:\n  seat ",
        ] {
            assert!(end.contains(expected), "{expected:?} not in:\n{end}");
        }
        // What the powers paid, at the move that ended a round and not the one before.
        let states = referee::games::town_play::states(&ra);
        let ended = (1..states.len())
            .find(|&n| states[n].powers_paid().len() > states[n - 1].powers_paid().len())
            .expect("a round ended");
        let paid: Vec<String> = states[ended].powers_paid()[0]
            .iter()
            .enumerate()
            .map(|(seat, g)| format!("seat {seat} +{g}"))
            .collect();
        let step = |n: usize| {
            let dir = a.to_str().unwrap();
            let n = n.to_string();
            stdout(&common::run_ok(town(
                Who::Root,
                &["show", dir, "--step", &n],
            )))
        };
        let line = format!("powers paid at round 1's end: {}\n", paid.join(", "));
        assert!(
            step(ended).contains(&line),
            "{line:?} not in:\n{}",
            step(ended)
        );
        assert!(
            !step(ended - 1).contains("powers paid"),
            "{}",
            step(ended - 1)
        );
    }
    assert!(
        seen_power,
        "no building with a power was built in three matches"
    );
}

/// The hostile champion builds a quarry without the wood it costs: the rules refuse it,
/// the seat is excluded with a protocol fault naming the price, scores last, gets no more
/// callback, and the three others play the match to its end.
/// A record written before the game had its `objectives` and `powers` options (committed,
/// from that referee) replays to the same record and shows: an option the game added
/// since plays as its default, the game as it was.
#[test]
fn a_record_of_before_an_option_was_added_replays_and_shows() {
    let dir = Path::new(&fixture("before-powers")).to_path_buf();
    let text = std::fs::read_to_string(dir.join("record.json")).unwrap();
    assert!(
        !text.contains("powers"),
        "the fixture is of before the option"
    );
    let out = town(Who::Root, &["replay"]).arg(&dir).output().unwrap();
    assert!(
        out.status.success() && stdout(&out).contains("replay ok"),
        "{}{}",
        stdout(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    let out = town(Who::Root, &["show"]).arg(&dir).output().unwrap();
    assert!(
        out.status.success() && stdout(&out).contains("after move 48/48"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_refused_action_excludes_its_seat_and_the_others_play_on() {
    common::users::each_run_in("town_runner", "refused_action", |who, dir| {
        let out_dir = dir.join("m");
        let hostile = fixture("free_quarry.sh");
        let out = common::run_ok({
            let mut c = town(
                who,
                &[
                    "match", "random", &hostile, "strong", "random", "--seed", "4",
                ],
            );
            c.arg("--out").arg(&out_dir);
            c
        });
        let record = record(&out_dir);
        let text = stdout(&out);
        assert!(
            text.contains("fault of free_quarry.sh in jouer for move 3: protocol"),
            "{text}"
        );
        assert!(text.contains("free_quarry.sh (orange) excluded"), "{text}");
        assert_eq!(record.faults.len(), 1, "{:?}", record.faults);
        let fault = &record.faults[0];
        assert_eq!((fault.seat, fault.kind.name()), (1, "protocol"));
        assert!(
            fault
                .message
                .contains("a quarry costs wood 3, and you hold"),
            "{}",
            fault.message
        );
        assert_eq!(record.ranking.places[1], 4, "{:?}", record.ranking);
        assert_eq!(record.ranking.scores[1], 0, "its gold lost (rule 15)");
        let at = fault.callback.unwrap();
        assert!(record.callbacks[at + 1..].iter().all(|c| c.seat != 1));
        for seat in [0u8, 2, 3] {
            assert!(
                record.callbacks[at + 1..]
                    .iter()
                    .any(|c| c.seat == seat && c.callback == "jouer"),
                "seat {seat} plays on"
            );
            assert_eq!(
                record.callbacks.last().map(|c| c.callback.as_str()),
                Some("end_game")
            );
        }
        common::assert_no_process_left(&serde_json::from_slice(&record.to_json()).unwrap());
    });
}

/// A champion pipelining `legal` 200 at a time, 1,000 times a turn, on a 16 x 16 board
/// (`legal_flood.py`): each answer within a turn is the same, and the turn's own (it plays
/// an action of it: a previous turn's answer would exclude it), so it plays the match to its
/// end with no fault. What the flood costs the referee: `scripts/bench-legal-flood.sh`
/// (referee/BENCHMARKS.md). The time scale gives a loaded machine room: what is tested is
/// the answers, not the time.
#[test]
fn a_champion_flooding_legal_gets_its_turn_s_answer_each_time() {
    common::users::each_run_in("town_runner", "legal_flood", |who, dir| {
        let out_dir = dir.join("m");
        let flood = fixture("legal_flood.py");
        common::run_ok({
            let mut c = town(
                who,
                &[
                    "match",
                    &flood,
                    "random",
                    "--seed",
                    "1",
                    "--option",
                    "width=16",
                    "--option",
                    "height=16",
                    "--time-scale",
                    "10",
                ],
            );
            c.arg("--out").arg(&out_dir);
            c
        });
        let record = record(&out_dir);
        assert!(record.faults.is_empty(), "{:?}", record.faults);
        let turns: Vec<u64> = record
            .callbacks
            .iter()
            .filter(|c| c.seat == 0 && c.callback == "jouer")
            .map(|c| c.requests)
            .collect();
        assert_eq!(turns.len(), 24, "four rounds of six workers: {turns:?}");
        assert!(turns.iter().all(|&r| r == 1001), "{turns:?}");
    });
}

/// Seed 9: two `random` seats cannot pay their upkeep; neither gets a `jouer` once out,
/// and both still get `end_game`.
#[test]
fn an_eliminated_seat_is_asked_no_more() {
    let dir = common::fresh_dir("town", "eliminated");
    common::run_ok({
        let mut c = town(
            Who::Root,
            &[
                "match", "random", "random", "strong", "random", "--seed", "9",
            ],
        );
        c.arg("--out").arg(&dir);
        c
    });
    let record = record(&dir);
    assert!(record.faults.is_empty());
    let states = referee::games::town_play::states(&record);
    let end = states.last().unwrap();
    let eliminated: Vec<usize> = (0..4)
        .filter(|&s| matches!(end.players()[s].out, Some((_, town::Why::Eliminated))))
        .collect();
    assert!(!eliminated.is_empty(), "seed 9 eliminates a seat");
    let steps = record.callback_steps();
    let mut jouer = [0; 4];
    for (i, callback) in record.callbacks.iter().enumerate() {
        let seat = usize::from(callback.seat);
        if callback.callback == "jouer" {
            jouer[seat] += 1;
            let before = if i == 0 { 0 } else { steps[i - 1] };
            assert!(
                states[before].players()[seat].out.is_none(),
                "seat {seat} asked to play at callback {i} though out"
            );
        }
    }
    for &s in &eliminated {
        assert!(jouer[s] < jouer[2], "{jouer:?}");
        assert!(record
            .callbacks
            .iter()
            .any(|c| usize::from(c.seat) == s && c.callback == "end_game"));
    }
}

/// Five champions: the built-ins, the two shell champions and the hostile one.
fn five() -> Vec<String> {
    vec![
        "random".into(),
        "strong".into(),
        fixture("first.sh"),
        fixture("last.sh"),
        fixture("free_quarry.sh"),
    ]
}

fn tournament(results: &Path, champions: &[String], extra: &[&str]) -> Command {
    let mut command = town(Who::Root, &["tournament"]);
    command
        .args(champions)
        .args(["--name", "t", "--seed", "31", "--jobs", "2"])
        .arg("--results")
        .arg(results)
        .args(extra);
    command
}

/// 7/3/1/0 by the number of other seats placed at or above it (tied seats share the
/// lower points), counted here from a row's places.
fn points(row: &Row) -> Vec<u32> {
    let places: Vec<u8> = (0..4)
        .map(|s| row[&format!("place{s}")].parse().unwrap())
        .collect();
    (0..4)
        .map(|s| {
            let at_least = (0..4).filter(|&o| o != s && places[o] <= places[s]).count();
            [7, 3, 1, 0][at_least]
        })
        .collect()
}

#[test]
fn a_round_robin_of_four_seat_matches_rotates_seats_and_counts_four_places() {
    let dir = common::fresh_dir("town", "round-robin");
    common::run_ok(tournament(&dir, &five(), &["--rounds", "4"]));
    let t = dir.join("t");
    let matches = untimed(&t.join("matches.csv"));
    // C(5, 4) = 5 sets of four, each played in its 4 rotations (4 rounds), a seed a match
    // (fresh deals).
    assert_eq!(matches.len(), 20);
    let mut sets: BTreeMap<Vec<String>, Vec<&Row>> = BTreeMap::new();
    for row in &matches {
        let mut set: Vec<String> = (0..4)
            .map(|s| row[&format!("champion{s}")].clone())
            .collect();
        set.sort();
        sets.entry(set).or_default().push(row);
        assert_eq!(
            (0..4)
                .map(|s| row[&format!("points{s}")].parse().unwrap())
                .collect::<Vec<u32>>(),
            points(row),
            "{row:?}"
        );
        for s in 0..4 {
            let hostile = row[&format!("champion{s}")] == "free_quarry.sh";
            assert_eq!(row[&format!("fault{s}")] == "protocol", hostile, "{row:?}");
            if hostile {
                // Excluded: placed last, its gold (lost) its score, no points.
                assert_eq!(row[&format!("place{s}")], "4", "{row:?}");
                assert_eq!(row[&format!("score{s}")], "0", "{row:?}");
                assert_eq!(row[&format!("points{s}")], "0", "{row:?}");
            }
        }
    }
    assert_eq!(sets.len(), 5);
    for (set, rows) in &sets {
        assert_eq!(rows.len(), 4, "{set:?}");
        let seeds: std::collections::BTreeSet<&String> = rows.iter().map(|r| &r["seed"]).collect();
        assert_eq!(seeds.len(), 4, "{set:?}");
        // Each champion sits in each of the four seats once.
        for name in set {
            let mut seats: Vec<usize> = rows
                .iter()
                .map(|r| {
                    (0..4)
                        .find(|&s| &r[&format!("champion{s}")] == name)
                        .unwrap()
                })
                .collect();
            seats.sort();
            assert_eq!(seats, [0, 1, 2, 3], "{name} in {set:?}");
        }
    }
    // The leaderboard: four places, points the rows' sums, the hostile champion last.
    let board = untimed(&t.join("leaderboard.csv"));
    assert_eq!(board.len(), 5);
    for line in &board {
        let name = &line["champion"];
        let mut total = 0;
        let mut places = [0; 4];
        for row in &matches {
            if let Some(s) = (0..4).find(|&s| &row[&format!("champion{s}")] == name) {
                total += points(row)[s];
                // The row's place, the game's ranking (ties share the better).
                places[row[&format!("place{s}")].parse::<usize>().unwrap() - 1] += 1;
            }
        }
        assert_eq!(line["points"], total.to_string(), "{line:?}");
        assert_eq!(line["matches"], "16", "{line:?}");
        for (column, n) in ["firsts", "seconds", "thirds", "fourths"]
            .iter()
            .zip(places)
        {
            assert_eq!(line[*column], n.to_string(), "{column} of {line:?}");
        }
    }
    assert_eq!(board.last().unwrap()["champion"], "free_quarry.sh");
    assert_eq!(board[0]["champion"], "strong", "{board:?}");
    // Seats: one row per seat; pairwise: every pair of champions.
    let seats = table(&t.join("seats.csv"));
    assert_eq!(seats.len(), 4, "{seats:?}");
    let pairwise = table(&t.join("pairwise.csv"));
    assert_eq!(pairwise.len(), 5 * 4, "{pairwise:?}");
    // Every record replays.
    for id in 0..20 {
        let record = t.join(format!("matches/{id}/record.json"));
        common::run_ok(town(Who::Root, &["replay", record.to_str().unwrap()]));
    }
}

#[test]
fn groups_shards_merge_and_a_cut_run_resumes_to_the_same_files() {
    let dir = common::fresh_dir("town", "groups");
    // Groups of four need a multiple of four champions (or nine and more).
    let champions = five()[..4].to_vec();
    let groups = ["--format", "groups", "--matches", "4"];
    let (whole, split, cut) = (dir.join("whole"), dir.join("split"), dir.join("cut"));
    common::run_ok(tournament(&whole, &champions, &groups));
    let rows = untimed(&whole.join("t/matches.csv"));
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r.contains_key("champion3")), "{rows:?}");
    for line in untimed(&whole.join("t/leaderboard.csv")) {
        assert_eq!(line["matches"], "4", "{line:?}");
    }
    for shard in ["1/2", "2/2"] {
        let mut args = groups.to_vec();
        args.extend(["--shard", shard]);
        common::run_ok(tournament(&split, &champions, &args));
    }
    let t = split.join("t");
    common::run_ok({
        let mut c = town(Who::Root, &["merge"]);
        c.arg(t.join("shard-1-of-2")).arg(t.join("shard-2-of-2"));
        c
    });
    for file in ["matches.csv", "leaderboard.csv", "pairwise.csv"] {
        assert_eq!(
            untimed(&whole.join("t").join(file)),
            untimed(&t.join(file)),
            "{file}"
        );
    }
    // Cut after two matches: --resume plays the rest, to the same files.
    std::fs::create_dir_all(cut.join("t")).unwrap();
    std::fs::copy(
        whole.join("t/tournament.json"),
        cut.join("t/tournament.json"),
    )
    .unwrap();
    let text = std::fs::read_to_string(whole.join("t/matches.csv")).unwrap();
    let kept: Vec<&str> = text.lines().take(3).collect();
    for row in &kept[1..] {
        let id = row.split(',').next().unwrap();
        let to = cut.join("t/matches").join(id);
        std::fs::create_dir_all(&to).unwrap();
        let from = whole.join("t/matches").join(id).join("record.json");
        std::fs::copy(from, to.join("record.json")).unwrap();
    }
    std::fs::write(cut.join("t/matches.csv"), kept.join("\n") + "\n").unwrap();
    let out = common::run_ok(tournament(&cut, &[], &["--resume"]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("2 already played"), "{stderr}");
    for file in ["matches.csv", "leaderboard.csv", "pairwise.csv"] {
        assert_eq!(
            untimed(&whole.join("t").join(file)),
            untimed(&cut.join("t").join(file)),
            "{file}"
        );
    }
}

#[test]
fn a_gauntlet_of_four_seats_finds_strong_better_than_random() {
    let dir = common::fresh_dir("town", "gauntlet");
    let out = common::run_ok({
        let mut c = town(
            Who::Root,
            &[
                "gauntlet",
                "strong",
                &fixture("first.sh"),
                "random",
                &fixture("last.sh"),
                &fixture("free_quarry.sh"),
                "--name",
                "g",
                "--seed",
                "5",
                "--max-pairs",
                "60",
                "--jobs",
                "2",
            ],
        );
        c.arg("--results").arg(&dir);
        c
    });
    let text = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("better"), "{text}");
    let pairs = table(&dir.join("g/pairs.csv"));
    assert!(!pairs.is_empty());
    let matches = table(&dir.join("g/matches.csv"));
    assert!(
        matches.iter().all(|r| r.contains_key("champion3")),
        "four seats"
    );
}
