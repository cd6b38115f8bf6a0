//! The human seat (`human` as a champion name) as a person uses it, through the real
//! referee with a pipe on its stdin: an Amazons game played to its end with an illegal
//! move refused with its reason on the way, a 2009 match with calls answered by code name
//! then end of input (the seat gives up), Little Town and Ticket to Ride played to their
//! end with moves the rules would refuse caught before they are sent, the records
//! replayed, the honest reproduce line, and tournaments refusing `human`.

use crate::common;

use serde_json::Value;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn record(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap()
}

/// The referee with `args`, `input` on its stdin (then closed), its output. The suite's
/// reproduce log (`REFEREE_REPRODUCE_LOG`) goes to `log`.
fn referee_with_input(args: &[&str], input: &str, log: &Path) -> Output {
    let mut child = Command::new(REFEREE)
        .args(args)
        .env("REFEREE_REPRODUCE_LOG", log)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the referee runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A referee whose stderr (what the person sees) is collected as it comes, and whose
/// stdin the test types into.
struct Session {
    child: Child,
    seen: Arc<Mutex<String>>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(REFEREE)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the referee runs");
        let seen = Arc::new(Mutex::new(String::new()));
        let mut stderr = child.stderr.take().unwrap();
        let sink = seen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Session { child, seen }
    }

    fn seen(&self) -> String {
        self.seen.lock().unwrap().clone()
    }

    /// Waits until the person has been prompted `n` times, or the referee exited (false).
    fn prompted(&mut self, prompt: &str, n: usize) -> bool {
        let start = Instant::now();
        loop {
            if self.seen().matches(prompt).count() >= n {
                return true;
            }
            if self.child.try_wait().unwrap().is_some() {
                return self.seen().matches(prompt).count() >= n;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no prompt {n}; seen:\n{}",
                self.seen()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn type_line(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        // The referee may be gone (the game just ended): not an error here.
        let _ = writeln!(stdin, "{line}");
        let _ = stdin.flush();
    }
}

#[test]
fn a_person_plays_a_whole_amazons_game_and_illegal_moves_are_refused_with_the_reason() {
    let dir = common::fresh_dir("human", "amazons");
    let out = dir.join("game");
    let mut s = Session::start(&[
        "--game",
        "amazons",
        "match",
        "human",
        "mobility",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    let prompt = "move> ";
    assert!(s.prompted(prompt, 1));
    let first = s.seen();
    assert!(
        first.contains("You play White (W): you move first."),
        "{first}"
    );
    assert!(first.contains("    a b c d e f g h i j"), "{first}");
    // Not a move, a fin without a move, then two illegal moves: each refused, the game
    // goes on.
    let mut prompts = 1;
    for line in ["hello", "fin", "a4-a8/a9", "a1 a2 a3", "help"] {
        s.type_line(line);
        prompts += 1;
        assert!(s.prompted(prompt, prompts), "{}", s.seen());
    }
    let seen = s.seen();
    for expected in [
        "not sent: `hello` is not a move",
        "you must move before your turn ends",
        "a4-a8/a9 refused, DEPLACEMENT_IMPOSSIBLE (-4): the amazon on a4 cannot reach a8",
        "a1-a2/a3 refused, PAS_TON_AMAZONE (-3): a1 does not hold one of your amazons",
        "d1-d7/g7  or  d1 d7 g7",
    ] {
        assert!(seen.contains(expected), "{expected:?} not in:\n{seen}");
    }
    // Then legal moves, the first the `moves` command offers, until the game ends.
    let mut played = 0;
    loop {
        let before = s.seen().len();
        s.type_line("moves");
        prompts += 1;
        if !s.prompted(prompt, prompts) {
            break;
        }
        let seen = s.seen();
        let listed = &seen[before..];
        let Some(some) = listed.split("some: ").nth(1) else {
            panic!("no moves listed:\n{listed}");
        };
        let m = some.split([',', '\n']).next().unwrap().trim().to_string();
        s.type_line(&m);
        played += 1;
        prompts += 1;
        if !s.prompted(prompt, prompts) {
            break;
        }
        assert!(s.seen()[before..].contains(&format!("you played {m}")));
        assert!(played < 60, "the game does not end:\n{}", s.seen());
    }
    let status = s.child.wait().unwrap();
    let mut stdout = String::new();
    s.child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let seen = s.seen();
    assert!(status.success(), "{stdout}\n{seen}");
    assert!(seen.contains("your opponent played "), "{seen}");
    assert!(seen.contains("== the game is over after "), "{seen}");
    let record = record(&out);
    assert_eq!(record["seats"][0]["name"], "human");
    assert_eq!(record["seats"][0]["path"], "builtin:human");
    assert!(record["faults"].as_array().unwrap().is_empty(), "{record}");
    let moves = record["summary"]["moves"].as_array().unwrap().len();
    assert!(
        moves >= 2 * played - 1,
        "{moves} moves, {played} of the person's"
    );
    assert!(stdout.contains("wins after"), "{stdout}");
    assert!(
        stdout.contains("reproduce: none: seat 0 was played by a person (`human`)"),
        "{stdout}"
    );
    let replay = Command::new(REFEREE)
        .args(["--game", "amazons", "replay", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", text(&replay));
}

#[test]
fn end_of_input_gives_up_an_amazons_seat_and_the_opponent_wins() {
    let dir = common::fresh_dir("human", "amazons-eof");
    let out = dir.join("game");
    let run = referee_with_input(
        &[
            "--game",
            "amazons",
            "match",
            "random",
            "human",
            "--seed",
            "4",
            "--out",
            out.to_str().unwrap(),
        ],
        "j7-j8/j9\n",
        &dir.join("reproduce.jsonl"),
    );
    assert!(!dir.join("reproduce.jsonl").exists());
    let said = text(&run);
    assert!(run.status.success(), "{said}");
    assert!(
        said.contains("You play Black (B): White moves first."),
        "{said}"
    );
    assert!(said.contains("your opponent played "), "{said}");
    assert!(said.contains("end of input: you give up seat 1"), "{said}");
    let record = record(&out);
    assert_eq!(record["seats"][1]["path"], "builtin:human");
    assert_eq!(record["summary"]["winner"], 0, "{record}");
    let faults = record["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{record}");
    assert_eq!(faults[0]["seat"], 1);
    assert_eq!(faults[0]["kind"], "crash");
    assert!(
        faults[0]["message"].as_str().unwrap().contains("gave up"),
        "{record}"
    );
    let replay = Command::new(REFEREE)
        .args(["--game", "amazons", "replay", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", text(&replay));
}

#[test]
fn a_person_makes_calls_of_the_2009_game_then_gives_up_at_end_of_input() {
    let dir = common::fresh_dir("human", "loi");
    let out = dir.join("match");
    let run = referee_with_input(
        &[
            "match",
            "human",
            "greedy",
            "random",
            "--seed",
            "7",
            "--first-player",
            "0",
            "--out",
            out.to_str().unwrap(),
        ],
        "help\nfinances 0\nbogus 1\nconstruire_route 5\nencherir 3\nconstruire_route 50 51\n\
         construire_maison 51 51\nmap\nfinances deux\nconstruire_maison 49 51\nfin\n",
        &dir.join("reproduce.jsonl"),
    );
    // No command plays a person again: the suite must not try.
    assert!(!dir.join("reproduce.jsonl").exists());
    let said = text(&run);
    assert_eq!(run.status.code(), Some(0), "{said}");
    for expected in [
        "type `help` at the prompt",
        "== turn 1, phase I, your building turn (jouer) ==",
        // The rule book's words (views::score_words).
        "you (player 0)    10 roubles, houses' worth    0, final score   10, last bid 0",
        "board, columns x 47..53, rows y 47..53",
        "construire_maison x y",
        "finances 0 -> 10",
        "not sent: `bogus` is not a function of the API",
        "not sent: `construire_route` takes 2 integer argument(s), 1 given",
        "not sent: `deux` is not a 32-bit integer",
        "encherir 3 -> refused, ACTION_INTERDITE (-10): not your turn, not an action of this \
         phase",
        "construire_route 50 51 -> SUCCES (0)",
        "construire_maison 51 51 -> SUCCES (0)",
        // Two houses built: the price of a third is INFINI, said as none.
        "construire_maison 49 51 -> SUCCES (0)",
        "no more house in this callback (INFINI)",
        "end of input: you give up seat 0",
        "reproduce: none: seat 0 was played by a person (`human`)",
        "` checks the record",
    ] {
        assert!(said.contains(expected), "{expected:?} not in:\n{said}");
    }
    // The map shown after `map` has the house and road built.
    let after_map = said.split("jouer> ").nth(8).expect("the `map` answer");
    assert!(after_map.contains("# A"), "{after_map}");
    let record = record(&out);
    assert_eq!(record["seats"][0]["name"], "human");
    assert_eq!(record["seats"][0]["path"], "builtin:human");
    let faults = record["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{record}");
    assert_eq!(faults[0]["seat"], 0);
    assert_eq!(faults[0]["kind"], "crash");
    let callback = faults[0]["callback"]
        .as_u64()
        .expect("the fault's callback") as usize;
    assert_eq!(
        record["callbacks"][callback]["callback"], "enchere",
        "{record}"
    );
    let checked = common::loi::load_in(&out);
    assert!(!said.contains("next house 30000"), "{said}");
    assert_eq!(common::loi::result(&checked).houses[0], 2, "{record}");
    let jouer = record["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["seat"] == 0 && c["callback"] == "jouer")
        .expect("the person's jouer");
    let actions = jouer["steps"].to_string();
    assert!(
        actions.contains("construire_route 50 51") && actions.contains("construire_maison 51 51"),
        "{jouer}"
    );
    // The printed command checks the record.
    let printed = format!("`{REFEREE} replay {}`", out.join("record.json").display());
    assert!(said.contains(&printed), "{printed} not in:\n{said}");
    let replay = Command::new(REFEREE)
        .args(["replay", out.join("record.json").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", text(&replay));
}

#[test]
fn a_tournament_refuses_a_human_seat_and_names_the_fix() {
    let dir = common::fresh_dir("human", "tournament");
    let out = Command::new(REFEREE)
        .args(["tournament", "random", "greedy", "human", "--results"])
        .arg(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("`human` cannot play in a tournament")
            && said.contains("remove `human` from the champions")
            && said.contains(&format!("`{REFEREE} match human A B`")),
        "{said}"
    );
    assert!(!dir.join("tournament").exists(), "nothing was started");
}

/// Little Town from the terminal: typing errors and an action not legal now are refused
/// with the reason and never sent (the rules would exclude the seat), then the person plays
/// the first action of each list to the match's end; the record replays.
#[test]
fn a_person_plays_little_town_and_illegal_actions_are_refused_not_sent() {
    let dir = common::fresh_dir("human", "town");
    let out = dir.join("game");
    let mut input = String::from("help\nhello\nbuild 99,99 farm\ncollect 1;1\n0\n999\nfin\n");
    input.push_str(&"1\n".repeat(40));
    let run = referee_with_input(
        &[
            "--game",
            "little-town",
            "match",
            "human",
            "random",
            "--seed",
            "9",
            "--option",
            "rounds=2",
            "--option",
            "upkeep=0",
            "--out",
            out.to_str().unwrap(),
        ],
        &input,
        &dir.join("reproduce.jsonl"),
    );
    let said = text(&run);
    assert!(run.status.success(), "{said}");
    for expected in [
        "You are seat 0 (white)",
        "== your turn ==",
        "round 1 of 2",
        "your legal actions:",
        "    1. collect ",
        "build X,Y KIND",
        "`hello` is no action",
        "`build 99,99 farm` is not one of your legal actions now",
        "rule 15",
        "there is no action 0",
        "there is no action 999",
        "place a worker first",
        "you play collect ",
        "== the match is over ==",
        "You end with ",
        "seat 0 white: ",
    ] {
        assert!(said.contains(expected), "{expected:?} not in:\n{said}");
    }
    played_by_a_person("little-town", &out, &said);
    assert!(!dir.join("reproduce.jsonl").exists());
}

/// The match in `out` of `game`, seat 0 played by a person (the output `said`): recorded as
/// `human` without a fault, no reproduce command, and its record replays.
fn played_by_a_person(game: &str, out: &std::path::Path, said: &str) {
    let record = record(out);
    assert_eq!(record["seats"][0]["path"], "builtin:human");
    assert!(record["faults"].as_array().unwrap().is_empty(), "{record}");
    assert!(
        said.contains("reproduce: none: seat 0 was played by a person (`human`)"),
        "{said}"
    );
    let replay = Command::new(REFEREE)
        .args(["--game", game, "replay", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", text(&replay));
}

/// Ticket to Ride from the terminal: moves the rules would refuse (a card before the first
/// tickets, too few tickets kept) and typing errors are refused with the reason and never
/// sent; then the person plays the first move of each list (tickets, then cards drawn
/// blind) to the match's end; the record replays.
#[test]
fn a_person_plays_ticket_to_ride_and_illegal_moves_are_refused_not_sent() {
    let dir = common::fresh_dir("human", "ticket");
    let out = dir.join("game");
    let mut input = String::from("help\ntake locomotive\n7\nclaim 0 x red 0\n1\nkeep 0 0 1\n");
    input.push_str(&"1\n".repeat(200));
    let run = referee_with_input(
        &[
            "--game",
            "ticket-to-ride",
            "match",
            "human",
            "do-nothing",
            "--seed",
            "5",
            "--option",
            "board=small",
            "--out",
            out.to_str().unwrap(),
        ],
        &input,
        &dir.join("reproduce.jsonl"),
    );
    let said = text(&run);
    assert!(run.status.success(), "{said}");
    for expected in [
        "You are seat 0; seat 0 moves first.",
        "== your move (first) ==",
        "your hand: ",
        "your legal moves:",
        "    1. tickets",
        "`take locomotive` refused, not sent",
        "your first move draws tickets",
        "there is no move 7",
        "not sent: `x` in `claim 0 x red 0` is not a number",
        "== your move (choose) ==",
        "offered ticket 3: ",
        "`keep 0 0 1` refused, not sent",
        "keep at least 2 of the offered tickets",
        "keep 1 1 0 -> 2",
        "seat 1 played ",
        "== the match is over ==",
        "seat 0: place ",
    ] {
        assert!(said.contains(expected), "{expected:?} not in:\n{said}");
    }
    // The others' cards drawn blind are theirs alone: told as `blind`, without the colour.
    assert!(said.contains("seat 1 played blind\n"), "{said}");
    assert!(!said.contains("seat 1 played blind "), "{said}");
    played_by_a_person("ticket-to-ride", &out, &said);
}
