//! `referee serve`'s other games (docs/server.md): the kits of the Amazons, Little Town,
//! the 2009 game and Ticket to Ride, unchanged, connect to the real binary over TCP when
//! `REFEREE_SERVER` names it and play training and free games in their game's own line
//! protocol; the records replay. A line client that breaks the protocol or falls silent
//! loses by a recorded fault. As root and as a user.

use crate::common;
use crate::serve::{record, remote_fault, Server, REFEREE, WAIT};

use common::users::each_run_in;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The repository's folder `rel`.
pub(crate) fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

/// Whether `tool` is on the PATH; if not, the test part is skipped by the common rule.
pub(crate) fn have(tool: &str, why: &str) -> bool {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        common::skip_missing(why);
    }
    found
}

/// Whether `make` (and so a C build) is there; if not, the test part is skipped.
pub(crate) fn have_c_tools() -> bool {
    have(
        "make",
        "serve_kits: the C kit needs make and cc (apt-get install make gcc)",
    )
}

/// The C champion of `champion` (a folder of its sources and `Makefile`) built with the kit
/// `kit` into `dir`, untouched in the repository: its executable. Only the sources are
/// copied: objects a build left in the repository would stand for the kit's code.
pub(crate) fn build_c(dir: &Path, champion: &str, kit: &str) -> PathBuf {
    let into = dir.join(Path::new(champion).file_name().unwrap());
    std::fs::create_dir_all(&into).unwrap();
    for file in std::fs::read_dir(repo(champion)).unwrap() {
        let path = file.unwrap().path();
        let source = path.extension().is_some_and(|e| e == "c" || e == "h");
        if source || path.file_name().is_some_and(|n| n == "Makefile") {
            std::fs::copy(&path, into.join(path.file_name().unwrap())).unwrap();
        }
    }
    let made = Command::new("make")
        .arg("-s")
        .arg(format!("KIT={}", repo(kit).display()))
        .current_dir(&into)
        .env_remove("PROLOGIN_KITS")
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", common::text(&made.stderr));
    into.join("champion")
}

/// `program` started as a kit connected to `server`, named `name`, asking `wait`.
fn connected(server: &Server, program: &Path, name: &str, wait: &str) -> Child {
    Command::new(program)
        .env("REFEREE_SERVER", format!("127.0.0.1:{}", server.port))
        .env("REFEREE_NAME", name)
        .env("REFEREE_WAIT", wait)
        .env("PROLOGIN_KITS", repo("kits"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kit starts")
}

/// Waits for the kit `child` to end well; its stderr, which names the game it played.
fn ends_well(mut child: Child) -> String {
    let err = child.stderr.take().unwrap();
    let lines: Vec<String> = BufReader::new(err).lines().map_while(Result::ok).collect();
    let status = common::wait_timeout(&mut child, WAIT).expect("the kit ends");
    let text = lines.join("\n");
    assert!(status.success(), "the kit failed: {text}");
    text
}

/// The game's name a kit's stderr gives (`kit: game NAME (...)`).
pub(crate) fn game_of(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("kit: game "))
        .unwrap_or_else(|| panic!("no game named: {stderr}"));
    line.split(' ').next().unwrap().to_string()
}

/// `referee --game GAME replay` of `game`'s record succeeds.
pub(crate) fn replays(server: &Server, name: &str, game: &str) {
    let path = server.results.join(game).join("record.json");
    let out = Command::new(REFEREE)
        .args(["--game", name, "replay"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{game} does not replay: {}",
        common::text(&out.stderr)
    );
}

/// The seats' paths of a record.
pub(crate) fn paths(record: &serde_json::Value) -> Vec<String> {
    record["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_c_kit_plays_a_training_game_of_the_amazons() {
    if !have_c_tools() {
        return;
    }
    each_run_in("serve_kits", "c_amazons", |who, dir| {
        let territory = build_c(
            dir,
            "champions/amazons/c/territory",
            "champions/amazons/c/kit",
        );
        let server = Server::start(who, dir);
        let kit = connected(&server, &territory, "terr", "TRAINING random timeout=30");
        let stderr = ends_well(kit);
        assert!(stderr.contains("game over"), "{stderr}");
        let game = game_of(&stderr);
        let record = record(&server, &game);
        assert_eq!(record["game"], "amazons");
        let mut seats = paths(&record);
        seats.sort();
        assert_eq!(seats, ["builtin:random", "remote:terr"], "{record}");
        assert_eq!(record["faults"].as_array().unwrap().len(), 0, "{record}");
        replays(&server, "amazons", &game);
    });
}

/// A free game of three seats (`seats=3`: the server fills a table of the count asked):
/// Little Town's C sample and two of its Python sample, each under its own name.
#[test]
fn a_c_kit_and_python_kits_play_a_free_game_of_little_town_at_three_seats() {
    if !have_c_tools() || !have("python3", "serve_kits: the Python kit needs python3") {
        return;
    }
    each_run_in("serve_kits", "free_town", |who, dir| {
        let builder = build_c(
            dir,
            "champions/little-town/c/builder",
            "champions/little-town/c/kit",
        );
        let python = repo("champions/little-town/python/random/champion");
        let server = Server::start(who, dir);
        let wait = "seats=3 timeout=30";
        let c = connected(&server, &builder, "town_c", wait);
        server.line_with("client town_c: waits for a free game");
        let py = connected(&server, &python, "town_py", wait);
        server.line_with("client town_py: waits for a free game");
        let py2 = connected(&server, &python, "town_py2", wait);
        let (c, py, py2) = (ends_well(c), ends_well(py), ends_well(py2));
        let game = game_of(&c);
        assert_eq!(game_of(&py), game, "one game for all");
        assert_eq!(game_of(&py2), game, "one game for all");
        let record = record(&server, &game);
        assert_eq!(record["game"], "little-town");
        let mut seats = paths(&record);
        seats.sort();
        assert_eq!(
            seats,
            ["remote:town_c", "remote:town_py", "remote:town_py2"],
            "{record}"
        );
        assert_eq!(record["faults"].as_array().unwrap().len(), 0, "{record}");
        replays(&server, "little-town", &game);
    });
}

/// The kit `program`, connected as `name`, plays a training game of `game` against its
/// built-in `random` (`seats` seats, one of them its own) without a fault; the record replays.
fn plays_a_training_game(server: &Server, program: &Path, name: &str, game: &str, seats: usize) {
    let kit = connected(server, program, name, "TRAINING random timeout=30");
    let played = game_of(&ends_well(kit));
    let record = record(server, &played);
    assert_eq!(record["game"], game);
    let paths = paths(&record);
    assert_eq!(paths.len(), seats, "{record}");
    let remote = format!("remote:{name}");
    assert_eq!(
        paths.iter().filter(|p| **p == remote).count(),
        1,
        "{record}"
    );
    assert_eq!(record["faults"].as_array().unwrap().len(), 0, "{record}");
    replays(server, game, &played);
}

#[test]
fn python_kits_of_ticket_to_ride_the_amazons_and_2009_play_training_games() {
    if !have("python3", "serve_kits: the Python kit needs python3") {
        return;
    }
    each_run_in("serve_kits", "python_kits", |who, dir| {
        let server = Server::start(who, dir);
        for (game, champion, seats) in [
            (
                "ticket-to-ride",
                "champions/ticket/python/random-py/champion",
                2,
            ),
            ("amazons", "champions/amazons/python/greedy/champion", 2),
            ("loi", "champions/python/random/champion", 3),
        ] {
            let name = format!("py_{}", game.replace('-', "_"));
            plays_a_training_game(&server, &repo(champion), &name, game, seats);
        }
    });
}

/// The C kits of Ticket to Ride (its sample, written on the subject's API) and of the 2009
/// game connect unchanged and play training games, as the Amazons' does.
#[test]
fn c_kits_of_ticket_to_ride_and_of_2009_play_training_games() {
    if !have_c_tools() {
        return;
    }
    each_run_in("serve_kits", "c_kits", |who, dir| {
        let server = Server::start(who, dir);
        for (game, champion, kit, seats) in [
            (
                "ticket-to-ride",
                "champions/ticket/c/random-c",
                "champions/ticket/c/kit",
                2,
            ),
            ("loi", "champions/c/random", "champions/c/kit", 3),
        ] {
            let program = build_c(dir, champion, kit);
            let name = format!("c_{}", game.replace('-', "_"));
            plays_a_training_game(&server, &program, &name, game, seats);
        }
    });
}

#[test]
fn a_line_client_that_breaks_the_game_s_protocol_or_falls_silent_loses() {
    each_run_in("serve_kits", "hostile_lines", |who, dir| {
        let server = Server::start(who, dir);
        // The subject's protocol is Ticket to Ride's only.
        let mut cgs = server.connect();
        assert_eq!(cgs.cmd("CLIENT_NAME cgs"), "OK");
        let refused = cgs.cmd("WAIT_GAME TRAINING random game=amazons protocol=cgs");
        assert!(refused.contains("protocol=lines"), "{refused}");
        assert_eq!(cgs.recv(), None, "closed after a refusal");
        let mut unknown = server.connect();
        assert_eq!(unknown.cmd("CLIENT_NAME unknown"), "OK");
        let refused = unknown.cmd("WAIT_GAME TRAINING random game=chess");
        assert!(
            refused.contains("amazons") && refused.contains("little-town"),
            "{refused}"
        );

        // Garbage instead of a request: a protocol fault, the connection closed.
        let mut garbage = server.connect();
        assert_eq!(garbage.cmd("CLIENT_NAME garbage"), "OK");
        let ask = "WAIT_GAME TRAINING random game=amazons start=0 timeout=30";
        assert_eq!(garbage.cmd(ask), "OK");
        let game = garbage.must();
        assert_eq!(garbage.must(), "amazons 2");
        let mut lines = BufReader::new(garbage.stream.try_clone().unwrap());
        let mut line = String::new();
        lines.read_line(&mut line).unwrap();
        assert_eq!(line, "init_game\n", "the game's own lines, unframed");
        garbage.write(b"let me win\n");
        line.clear();
        assert_eq!(lines.read_line(&mut line).unwrap(), 0, "closed: {line}");
        let (kind, message) = remote_fault(&record(&server, &game));
        assert_eq!(kind, "protocol", "{message}");

        // Silence past timeout=: a timeout fault.
        let mut silent = server.connect();
        assert_eq!(silent.cmd("CLIENT_NAME silent"), "OK");
        let ask = "WAIT_GAME TRAINING random game=little-town start=0 timeout=1";
        assert_eq!(silent.cmd(ask), "OK");
        let game = silent.must();
        assert_eq!(silent.must(), "little-town 4");
        let (kind, message) = remote_fault(&record(&server, &game));
        assert_eq!(kind, "timeout", "{message}");
        assert!(
            message.contains("timeout=") && message.contains("init_game"),
            "{message}"
        );
    });
}

#[test]
fn every_kit_has_the_same_connection_file() {
    for (first, others) in [
        (
            "champions/amazons/c/kit/referee_connect.h",
            [
                "champions/little-town/c/kit",
                "champions/ticket/c/kit",
                "champions/c/kit",
            ],
        ),
        (
            "champions/amazons/python/kit/referee_connect.py",
            [
                "champions/little-town/python/kit",
                "champions/ticket/python/kit",
                "champions/python/kit",
            ],
        ),
    ] {
        let text = std::fs::read_to_string(repo(first)).unwrap();
        let name = Path::new(first).file_name().unwrap();
        for kit in others {
            let copy = std::fs::read_to_string(repo(kit).join(name)).unwrap();
            assert!(
                copy == text,
                "{kit}/{name:?} differs from {first}: copy it again"
            );
        }
    }
}

/// A line client of the 2009 game that floods its callbacks with refused actions (3
/// `jouer` of 20,000 refused houses each, on a generous `timeout=`) gets a record bounded
/// by what the game can change, as a champion of `referee match` does: each flooded
/// callback keeps its first refused actions and counts the others; the record replays.
#[test]
fn a_line_client_s_flood_of_refused_actions_is_counted_not_kept() {
    each_run_in("serve_kits", "refusal_flood", |who, dir| {
        let server = Server::start(who, dir);
        let mut flood = server.connect();
        assert_eq!(flood.cmd("CLIENT_NAME flood"), "OK");
        let ask = "WAIT_GAME TRAINING random game=loi start=0 timeout=60";
        assert_eq!(flood.cmd(ask), "OK");
        let game = flood.must();
        assert_eq!(flood.must(), "loi 3");
        let mut lines = BufReader::new(flood.stream.try_clone().unwrap());
        let (mut line, mut flooded) = (String::new(), 0);
        while lines.read_line(&mut line).unwrap() > 0 {
            if line == "jouer\n" && flooded < 3 {
                flooded += 1;
                for _ in 0..4 {
                    flood.write(&b"construire_maison 0 0\n".repeat(5000));
                    for _ in 0..5000 {
                        line.clear();
                        lines.read_line(&mut line).unwrap();
                        assert!(line.starts_with('-'), "refused: {line}");
                    }
                }
            }
            flood.write(b"fin\n");
            line.clear();
        }
        assert_eq!(flooded, 3, "three `jouer` flooded");
        let record = record(&server, &game);
        let path = server.results.join(&game).join("record.json");
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size < 256 << 10, "a record of {size} bytes");
        let entries: Vec<&serde_json::Value> = record["callbacks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c.get("refused").is_some())
            .collect();
        assert_eq!(entries.len(), 3, "{record}");
        for entry in entries {
            assert_eq!(
                crate::match_faults::kept_and_counted(entry),
                (arena::REFUSALS_KEPT, 20_000 - arena::REFUSALS_KEPT as u64),
                "{entry}"
            );
            assert_eq!(entry["requests"], 20_001, "{entry}");
        }
        assert_eq!(record["faults"].as_array().unwrap().len(), 0, "{record}");
        replays(&server, "loi", &game);
    });
}
