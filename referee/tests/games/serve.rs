//! `referee serve` (docs/server.md): the real binary on an ephemeral port, real clients
//! speaking the Ticket to Ride subject's server protocol over TCP: a whole training game
//! against `random`, recorded and replayed; hostile clients (garbage, an overlong command,
//! a disconnection mid-game, silence, an illegal move, bad names and options) lose or are
//! refused, their faults recorded, and the server keeps serving. As root and as a user.

use crate::common;

use common::users::{each_run_in, Who};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub(crate) const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
/// Generous bound of every wait (a jailed bot starts in well under a second).
pub(crate) const WAIT: Duration = Duration::from_secs(120);

/// A running `referee serve`, its stdout lines collected; killed when dropped.
pub(crate) struct Server {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
    pub(crate) port: u16,
    pub(crate) results: PathBuf,
}

impl Server {
    pub(crate) fn start(who: Who, dir: &Path) -> Server {
        Server::start_with(who, dir, &[])
    }

    /// A server started with the flags `more` besides its port and results.
    pub(crate) fn start_with(who: Who, dir: &Path, more: &[&str]) -> Server {
        Server::spawn(Server::command(who, dir, more), dir)
    }

    /// The command of a server of `more` run as `who`, its stdout piped.
    fn command(who: Who, dir: &Path, more: &[&str]) -> Command {
        let results = dir.join("results");
        let mut cmd = Command::new(REFEREE);
        cmd.args(["serve", "--listen", "127.0.0.1:0", "--results"])
            .arg(&results)
            .args(more)
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Who::User(uid, gid) = who {
            use std::os::unix::process::CommandExt;
            cmd.uid(uid).gid(gid).env("HOME", "/tmp");
        }
        cmd
    }

    /// The server of `cmd` started, once it listens.
    fn spawn(mut cmd: Command, dir: &Path) -> Server {
        let results = dir.join("results");
        let mut child = cmd.spawn().expect("the referee starts");
        let out = child.stdout.take().unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        let mut server = Server {
            child,
            lines,
            port: 0,
            results,
        };
        let first = server.line_with("listening on ");
        server.port = first.rsplit(':').next().unwrap().parse().unwrap();
        server
    }

    /// The first line of the server's stdout that contains `text`, waited for.
    pub(crate) fn line_with(&self, text: &str) -> String {
        let mut found = None;
        common::wait_until(&format!("a server line with `{text}`"), WAIT, || {
            found = self
                .lines
                .lock()
                .unwrap()
                .iter()
                .find(|l| l.contains(text))
                .cloned();
            found.is_some()
        });
        found.unwrap()
    }

    /// The server's stdout lines so far.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    /// Every line of the server's stdout so far that contains `text`.
    pub(crate) fn lines_with(&self, text: &str) -> Vec<String> {
        let lines = self.lines.lock().unwrap();
        lines.iter().filter(|l| l.contains(text)).cloned().collect()
    }

    pub(crate) fn connect(&self) -> Client {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(WAIT)).unwrap();
        Client { stream }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client speaking the protocol line by line.
pub(crate) struct Client {
    pub(crate) stream: TcpStream,
}

impl Client {
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
    }

    /// The next message; `None` once the server closed the connection.
    pub(crate) fn recv(&mut self) -> Option<String> {
        let mut head = [0u8; 6];
        self.stream.read_exact(&mut head).ok()?;
        let n: usize = std::str::from_utf8(&head).unwrap().parse().unwrap();
        let mut body = vec![0u8; n];
        self.stream.read_exact(&mut body).ok()?;
        Some(String::from_utf8(body).unwrap())
    }

    pub(crate) fn must(&mut self) -> String {
        self.recv().expect("the server answers")
    }

    pub(crate) fn cmd(&mut self, command: &str) -> String {
        self.write(format!("{command}\n").as_bytes());
        self.must()
    }

    /// Names itself and starts a training game of `options`; (game name, whether it
    /// plays first).
    pub(crate) fn start(&mut self, name: &str, options: &str) -> (String, bool) {
        assert_eq!(self.cmd(&format!("CLIENT_NAME {name}")), "OK");
        self.train(options)
    }

    /// As [`Client::start`], the name given already.
    pub(crate) fn train(&mut self, options: &str) -> (String, bool) {
        let ack = self.cmd(&format!("WAIT_GAME TRAINING PLAY_RANDOM {options}"));
        assert_eq!(ack, "OK", "{options}");
        let game = self.must();
        let sizes = self.must();
        assert_eq!(sizes.split(' ').count(), 2, "{sizes}");
        assert_eq!(self.cmd("GET_GAME_DATA"), "OK");
        let data = self.must();
        assert!(data.split(' ').count() > 9, "{data}");
        let first = self.must();
        (game, first == "0")
    }

    /// Names itself and waits for a free game of `options`: the `NOT_READY`s it got before
    /// the game started, then (game name, whether it plays first).
    pub(crate) fn start_free(&mut self, name: &str, options: &str) -> (usize, String, bool) {
        assert_eq!(self.cmd(&format!("CLIENT_NAME {name}")), "OK");
        self.wait_free(options)
    }

    /// `WAIT_GAME options`: as [`Client::start_free`], the name given already.
    fn wait_free(&mut self, options: &str) -> (usize, String, bool) {
        assert_eq!(self.cmd(&format!("WAIT_GAME {options}")), "OK");
        let mut not_ready = 0;
        let game = loop {
            match self.must() {
                m if m == "NOT_READY" => not_ready += 1,
                game => break game,
            }
        };
        let sizes = self.must();
        assert_eq!(sizes.split(' ').count(), 2, "{sizes}");
        assert_eq!(self.cmd("GET_GAME_DATA"), "OK");
        let data = self.must();
        assert!(data.split(' ').count() > 9, "{data}");
        (not_ready, game, self.must() == "0")
    }

    /// Its next game of a tournament (asked already: `WAIT_GAME TOURNAMENT`), played to
    /// its end as [`Client::play_to_the_end`] does; the game's name.
    pub(crate) fn next_tournament_game(&mut self) -> String {
        let game = self.after_not_ready();
        self.play_tournament_game(game)
    }

    /// The first message after the `NOT_READY`s of a wait.
    pub(crate) fn after_not_ready(&mut self) -> String {
        loop {
            match self.must() {
                m if m == "NOT_READY" => continue,
                message => break message,
            }
        }
    }

    /// The tournament's game `game` (its name read already), played to its end; its name.
    pub(crate) fn play_tournament_game(&mut self, game: String) -> String {
        self.must(); // the board's sizes
        assert_eq!(self.cmd("GET_GAME_DATA"), "OK");
        self.must();
        let first = self.must() == "0";
        self.play_to_the_end(first);
        game
    }

    /// `PLAY_MOVE`: (message, return code).
    pub(crate) fn play(&mut self, m: &str) -> (String, i32) {
        assert_eq!(self.cmd(&format!("PLAY_MOVE {m}")), "OK", "{m}");
        let msg = self.must();
        (msg, self.must().parse().unwrap())
    }

    /// `GET_MOVE`: (move, message, return code).
    pub(crate) fn opponent(&mut self) -> (String, String, i32) {
        assert_eq!(self.cmd("GET_MOVE"), "OK");
        let m = self.must();
        let msg = self.must();
        (m, msg, self.must().parse().unwrap())
    }

    /// Plays to the end as the subject's first programs do (tickets first, then two blind
    /// cards a turn); the last return code and its message, as the client saw them.
    pub(crate) fn play_to_the_end(&mut self, mut mine: bool) -> (i32, String) {
        let mut turns = 0;
        loop {
            if mine {
                if turns == 0 {
                    let (tickets, code) = self.play("4");
                    assert_eq!((tickets.split(' ').count(), code), (9, 0), "{tickets}");
                    let (kept, code) = self.play("5 1 1 0");
                    if code != 0 {
                        return (code, kept);
                    }
                    assert_eq!(kept, "2");
                } else {
                    for _ in 0..2 {
                        let (card, code) = self.play("2");
                        if code != 0 {
                            return (code, card);
                        }
                    }
                }
                turns += 1;
                mine = false;
            } else {
                let (m, msg, code) = self.opponent();
                if code != 0 {
                    return (-code, msg);
                }
                let replay = match m.split(' ').next() {
                    Some("2") | Some("3") => msg.starts_with('1'),
                    Some("4") => true,
                    _ => false,
                };
                mine = !replay;
            }
        }
    }
}

/// The record of `game` once the server said it is written, read back.
pub(crate) fn record(server: &Server, game: &str) -> serde_json::Value {
    server.line_with(&format!("game {game}: "));
    let path = server.results.join(game).join("record.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// How the game's page (`#result`) and the list say `game` ended, a game without a fault:
/// each seat's player and its result as `/player/` says it, in seat order ("watched won;
/// random lost"), read from the server's line of its end (`game NAME: watched (seat 0)
/// won, random (seat 1) lost; record ...`), waited for.
pub(crate) fn results_shown(server: &Server, game: &str) -> String {
    let line = server.line_with(&format!("game {game}: "));
    let outcome = line
        .split_once(&format!("game {game}: "))
        .and_then(|(_, rest)| rest.split_once("; record "))
        .map(|(outcome, _)| outcome)
        .unwrap_or_else(|| panic!("not a game's end: {line}"));
    assert!(!outcome.contains("fault"), "a fault: {line}");
    let seats: Vec<String> = outcome
        .split(", ")
        .enumerate()
        .map(|(seat, said)| {
            let (name, how) = said
                .split_once(&format!(" (seat {seat}) "))
                .unwrap_or_else(|| panic!("seat {seat} of {line}"));
            assert!(how == "won" || how == "lost", "{line}");
            format!("{name} {how}")
        })
        .collect();
    seats.join("; ")
}

/// `referee --game ticket-to-ride replay` of `game`'s record succeeds.
pub(crate) fn replays(server: &Server, game: &str) {
    let path = server.results.join(game).join("record.json");
    let out = Command::new(REFEREE)
        .args(["--game", "ticket-to-ride", "replay"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{game} does not replay: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The fault of the remote seat of `record` (kind, message).
pub(crate) fn remote_fault(record: &serde_json::Value) -> (String, String) {
    let seats = record["seats"].as_array().unwrap();
    let seat = seats
        .iter()
        .position(|s| s["path"].as_str().unwrap().starts_with("remote:"))
        .unwrap();
    let f = record["faults"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["seat"] == seat)
        .unwrap_or_else(|| panic!("no fault of the remote seat in {record}"));
    (
        f["kind"].as_str().unwrap().to_string(),
        f["message"].as_str().unwrap().to_string(),
    )
}

#[test]
fn a_training_game_is_played_recorded_and_replayed() {
    each_run_in("serve", "training_game", |who, dir| {
        let server = Server::start(who, dir);
        let mut client = server.connect();
        let (game, first) = client.start("tester", "map=small seed=42 start=0 timeout=30 x=1");
        assert!(
            game.starts_with("00002a"),
            "the seed it chose in hex: {game}"
        );
        assert!(first, "start=0: the client plays first");
        assert_eq!(client.cmd("SEND_COMMENT good luck"), "OK");
        assert_eq!(client.cmd("DISP_GAME"), "OK");
        assert!(client.must().contains("Ticket to Ride"));
        let (code, msg) = client.play_to_the_end(first);
        assert!(code == 1 || code == -1, "{code}");
        assert!(msg.contains("The game is over"), "{msg}");
        let record = record(&server, &game);
        let seats = record["seats"].as_array().unwrap();
        assert_eq!(seats[0]["name"], "tester");
        assert_eq!(seats[0]["path"], "remote:tester");
        assert_eq!(seats[0]["sha256"], "");
        assert_eq!(seats[1]["path"], "builtin:random");
        assert_eq!(record["faults"].as_array().unwrap().len(), 0, "{record}");
        let won = record["ranking"]["places"][0] == 1;
        assert_eq!(
            won,
            code == 1,
            "the code the client got is the record's result"
        );
        replays(&server, &game);
        server.line_with("tester says good luck");
    });
}

#[test]
fn hostile_clients_lose_and_the_server_keeps_serving() {
    each_run_in("serve", "hostile_clients", |who, dir| {
        let server = Server::start(who, dir);
        let options = "map=small seed=7 start=0 timeout=2";

        // Refused before any game: a bad name, a name taken, a bad option; connection closed.
        let mut bad = server.connect();
        assert!(bad.cmd("CLIENT_NAME no way").contains("name is invalid"));
        assert_eq!(bad.recv(), None);
        let mut holder = server.connect();
        assert_eq!(holder.cmd("CLIENT_NAME holder"), "OK");
        let mut twin = server.connect();
        assert!(twin.cmd("CLIENT_NAME holder").contains("already connected"));
        let mut opt = server.connect();
        assert_eq!(opt.cmd("CLIENT_NAME opt"), "OK");
        let refused = opt.cmd("WAIT_GAME TRAINING PLAY_RANDOM map=/etc/passwd");
        assert!(refused.contains("'map' value is invalid"), "{refused}");

        // Garbage during the game: the error answer, a protocol fault, the connection closed.
        let mut garbage = server.connect();
        let (game, _) = garbage.start("garbage", options);
        let answer = garbage.cmd("HELLO THERE");
        assert!(answer.starts_with("Bad protocol"), "{answer}");
        assert_eq!(garbage.recv(), None);
        let (kind, _) = remote_fault(&record(&server, &game));
        assert_eq!(kind, "protocol");

        // An overlong command: refused, naming the bound.
        let mut long = server.connect();
        let (game, _) = long.start("long", options);
        long.write(&vec![b'x'; 5000]);
        long.write(b"\n");
        let answer = long.must();
        assert!(answer.contains("longer than 1024 bytes"), "{answer}");
        let (kind, message) = remote_fault(&record(&server, &game));
        assert_eq!(kind, "protocol", "{message}");

        // A disconnection mid-game: a crash fault, the game lost.
        let mut gone = server.connect();
        let (game, _) = gone.start("gone", options);
        drop(gone);
        let (kind, message) = remote_fault(&record(&server, &game));
        assert_eq!(kind, "crash", "{message}");
        assert!(message.contains("closed the connection"), "{message}");

        // Silence: a timeout fault; the late move is told it lost; the record replays.
        let mut silent = server.connect();
        let (game, _) = silent.start("silent", options);
        let (kind, _) = remote_fault(&record(&server, &game));
        assert_eq!(kind, "timeout");
        let (msg, code) = silent.play("4");
        assert_eq!(code, -1);
        assert!(msg.contains("timeout"), "{msg}");
        replays(&server, &game);

        // An illegal move (no route between these cities) and a move that is no move.
        for (name, m, why) in [
            ("illegal", "1 0 0 1 0", "protocol"),
            ("nonsense", "9 9", "not a move of the subject's client"),
        ] {
            let mut client = server.connect();
            let (game, _) = client.start(name, options);
            let (msg, code) = client.play(m);
            assert_eq!(code, -1, "{name}: {msg}");
            let (kind, message) = remote_fault(&record(&server, &game));
            assert_eq!(kind, "protocol");
            assert!(message.contains(why) || kind == why, "{message}");
            replays(&server, &game);
        }

        // And the server still serves a whole game.
        let mut fine = server.connect();
        let (game, first) = fine.start("fine", "map=small seed=9 timeout=30");
        let (code, _) = fine.play_to_the_end(first);
        assert!(code == 1 || code == -1);
        assert_eq!(
            record(&server, &game)["faults"].as_array().unwrap().len(),
            0
        );
        drop(holder);
    });
}

/// The C client of the fixtures, built in `dir`; `None` (skipped) without a C compiler.
pub(crate) fn c_client(dir: &Path) -> Option<PathBuf> {
    if Command::new("sh")
        .args(["-c", "command -v cc"])
        .output()
        .map_or(true, |o| !o.status.success())
    {
        common::skip_missing("serve: the C client needs cc (apt-get install gcc)");
        return None;
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/serve/t2r_client.c");
    let client = dir.join("t2r_client");
    let built = Command::new("cc")
        .arg("-o")
        .arg(&client)
        .arg(&source)
        .status()
        .unwrap();
    assert!(built.success());
    Some(client)
}

/// Plays one training game with the C client named `name`; the game's name.
fn c_client_plays(client: &Path, server: &Server, name: &str) -> String {
    let out = Command::new(client)
        .args([&server.port.to_string(), name, "11"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words: Vec<&str> = stdout.split_whitespace().collect();
    assert!(
        matches!(words.as_slice(), ["END", "1" | "-1", _]),
        "{stdout}"
    );
    words[2].to_string()
}

#[test]
fn a_c_client_framed_as_the_subject_s_library_plays_a_game() {
    each_run_in("serve", "c_client", |who, dir| {
        let Some(client) = c_client(dir) else { return };
        let server = Server::start(who, dir);
        let game = c_client_plays(&client, &server, "c_client");
        let record = record(&server, &game);
        assert_eq!(record["faults"].as_array().unwrap().len(), 0, "{record}");
        replays(&server, &game);
    });
}

/// Contestants run their program again as soon as it ends (a loop in a shell): the
/// program's name is free as soon as it closed its connection, even while the server still
/// writes the game's record and stops the bot.
#[test]
fn a_program_run_again_at_once_gets_its_name_back() {
    each_run_in("serve", "again", |who, dir| {
        let Some(client) = c_client(dir) else { return };
        let server = Server::start(who, dir);
        let games: Vec<String> = (0..3)
            .map(|_| c_client_plays(&client, &server, "again"))
            .collect();
        for game in &games {
            replays(&server, game);
        }
    });
}

#[test]
fn two_clients_waiting_play_a_free_game() {
    each_run_in("serve", "free_game", |who, dir| {
        let server = Server::start(who, dir);
        let options = "map=small seed=5 timeout=30";
        let mut first = server.connect();
        assert_eq!(first.cmd("CLIENT_NAME first"), "OK");
        assert_eq!(first.cmd(&format!("WAIT_GAME {options}")), "OK");
        // Alone, it is told the game is not ready, as the subject's server does.
        assert_eq!(first.must(), "NOT_READY");
        // A client that waited and left is not paired: the next one waits.
        let mut gone = server.connect();
        assert_eq!(gone.cmd("CLIENT_NAME gone"), "OK");
        assert_eq!(gone.cmd("WAIT_GAME map=small timeout=20"), "OK");
        server.line_with("client gone: waits for a free game");
        drop(gone);
        let mut later = server.connect();
        assert_eq!(later.cmd("CLIENT_NAME later"), "OK");
        assert_eq!(later.cmd("WAIT_GAME map=small timeout=20"), "OK");
        assert_eq!(later.must(), "NOT_READY", "paired with a client gone");
        // The second client asking the same game fills the table.
        let second = std::thread::spawn({
            let port = server.port;
            let options = options.to_string();
            move || {
                let mut client = Client {
                    stream: TcpStream::connect(("127.0.0.1", port)).unwrap(),
                };
                client.stream.set_read_timeout(Some(WAIT)).unwrap();
                let (_, game, plays_first) = client.start_free("second", &options);
                let (code, _) = client.play_to_the_end(plays_first);
                (game, plays_first, code)
            }
        });
        let mut game = first.must();
        while game == "NOT_READY" {
            game = first.must();
        }
        assert_eq!(first.must().split(' ').count(), 2);
        assert_eq!(first.cmd("GET_GAME_DATA"), "OK");
        first.must();
        let plays_first = first.must() == "0";
        let (code, msg) = first.play_to_the_end(plays_first);
        let (their_game, they_first, their_code) = second.join().unwrap();
        assert_eq!(their_game, game, "one game for both");
        assert_ne!(plays_first, they_first, "one of them starts");
        assert_eq!(code, -their_code, "one wins, the other loses: {msg}");
        let record = record(&server, &game);
        let paths: Vec<&str> = record["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["path"].as_str().unwrap())
            .collect();
        let mut sorted = paths.clone();
        sorted.sort();
        assert_eq!(sorted, ["remote:first", "remote:second"], "{paths:?}");
        assert_eq!(record["faults"].as_array().unwrap().len(), 0, "{record}");
        replays(&server, &game);
        server.line_with("client gone: disconnected");
        drop(later);
    });
}

#[test]
fn a_line_sent_a_byte_at_a_time_is_read_whole() {
    each_run_in("serve", "byte_at_a_time", |who, dir| {
        let server = Server::start(who, dir);
        let mut slow = server.connect();
        let slowly = |client: &mut Client, line: &str| {
            for b in line.bytes() {
                client.write(&[b]);
                std::thread::sleep(Duration::from_millis(10));
            }
        };
        slowly(&mut slow, "CLIENT_NAME slow\n");
        assert_eq!(slow.must(), "OK", "the name read whole");
        slowly(&mut slow, "WAIT_GAME TRAINING NOBODY\n");
        let refused = slow.must();
        assert!(refused.contains("'NOBODY' is not valid"), "{refused}");
    });
}

#[test]
fn connections_over_the_bound_of_an_address_are_refused() {
    each_run_in("serve", "per_address", |who, dir| {
        let server = Server::start_with(who, dir, &["--per-address", "2"]);
        let mut held: Vec<Client> = (0..2).map(|_| server.connect()).collect();
        for (i, client) in held.iter_mut().enumerate() {
            assert_eq!(client.cmd(&format!("CLIENT_NAME held{i}")), "OK");
        }
        let mut third = server.connect();
        let refused = third.must();
        assert!(refused.contains("at most 2"), "{refused}");
        assert_eq!(third.recv(), None);
        drop(held);
        // Each connection given back, the address connects again.
        common::wait_until("the connections given back", WAIT, || {
            let mut again = server.connect();
            again.write(b"CLIENT_NAME again\n");
            again.recv().as_deref() == Some("OK")
        });
    });
}

/// `referee serve ARGS` (a command of the store) run as `who`, on `dir`'s results.
pub(crate) fn serve_command(who: Who, dir: &Path, args: &[&str]) -> std::process::Output {
    let mut cmd = Command::new(REFEREE);
    cmd.args(["serve", "--results"])
        .arg(dir.join("results"))
        .args(args);
    if let Who::User(uid, gid) = who {
        use std::os::unix::process::CommandExt;
        cmd.uid(uid).gid(gid).env("HOME", "/tmp");
    }
    cmd.output().unwrap()
}

#[test]
fn an_overlong_line_of_the_line_protocol_is_answered_as_a_line() {
    each_run_in("serve", "long_line", |who, dir| {
        let server = Server::start(who, dir);
        let mut client = server.connect();
        assert_eq!(client.cmd("CLIENT_NAME longline"), "OK");
        let options = "WAIT_GAME TRAINING random game=amazons protocol=lines";
        assert_eq!(client.cmd(options), "OK");
        let _game = client.must();
        let _seats = client.must();
        client.write(&[b'x'; 5000]);
        client.write(b"\n");
        let mut rest = String::new();
        let _ = client.stream.read_to_string(&mut rest);
        let told = rest
            .lines()
            .find(|l| l.contains("longer than 1024 bytes"))
            .unwrap_or_else(|| panic!("the fault told: {rest}"));
        assert!(
            told.starts_with("the client sent"),
            "a plain line, unframed: {told}"
        );
    });
}

#[test]
fn a_restart_keeps_finished_games_and_marks_interrupted_ones() {
    each_run_in("serve", "restart", |who, dir| {
        let server = Server::start(who, dir);
        let mut done = server.connect();
        let (finished, first) = done.start("done", "map=small seed=3 timeout=30");
        let (code, _) = done.play_to_the_end(first);
        record(&server, &finished);
        let mut cut = server.connect();
        let (interrupted, _) = cut.start("cut", "map=small seed=4 timeout=30");
        // The server stops mid-game (killed), and starts again on the same store.
        drop(server);
        assert_eq!(cut.recv(), None, "the connection is lost with the server");
        let again = Server::start(who, dir);
        again.line_with("1 game left playing by the last stop marked interrupted");
        let out = serve_command(who, dir, &["games"]);
        let listed = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{listed}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = |game: &str| {
            listed
                .lines()
                .find(|l| l.starts_with(game))
                .unwrap_or_else(|| panic!("{game} not listed: {listed}"))
                .to_string()
        };
        let winner = if code == 1 { "done" } else { "random" };
        let f = line(&finished);
        assert!(f.contains("finished"), "{f}");
        assert!(
            (0..2).any(|s| f.contains(&format!("{winner} (seat {s}) won"))),
            "the outcome the client was told: {f}"
        );
        assert!(line(&interrupted).contains("interrupted"), "{listed}");
        replays(&again, &finished);
    });
}

#[test]
fn a_registered_name_needs_its_token() {
    each_run_in("serve", "tokens", |who, dir| {
        let bad = serve_command(who, dir, &["register", "no way"]);
        assert!(!bad.status.success());
        let why = String::from_utf8_lossy(&bad.stderr);
        assert!(why.contains("[a-zA-Z0-9_]"), "{why}");
        let out = serve_command(who, dir, &["register", "ann"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
        assert_eq!(token.len(), 32, "{token}");
        let server = Server::start(who, dir);
        // The name is free again once the server saw the last client that held it go.
        let ann = || {
            let mut named = None;
            common::wait_until("the name ann free", WAIT, || {
                let mut client = server.connect();
                if client.cmd("CLIENT_NAME ann") == "OK" {
                    named = Some(client);
                }
                named.is_some()
            });
            named.unwrap()
        };
        for (options, refusal) in [
            ("map=small", "its games need its token (option token=)"),
            ("map=small token=0123", "The token is not the one of 'ann'"),
        ] {
            let mut client = ann();
            let answer = client.cmd(&format!("WAIT_GAME TRAINING PLAY_RANDOM {options}"));
            assert!(answer.contains(refusal), "{answer}");
            assert_eq!(client.recv(), None, "closed after the refusal");
            server.line_with(refusal);
        }
        // A free game asks the same.
        let mut free = ann();
        assert!(free.cmd("WAIT_GAME map=small").contains("token="));
        let mut owner = ann();
        let (game, _) = owner.train(&format!("map=small seed=8 token={token}"));
        drop(owner);
        record(&server, &game);
        // Names not registered play without a token.
        let mut stranger = server.connect();
        stranger.start("bob", "map=small seed=8");
        let lines = server.lines.lock().unwrap().join("\n");
        assert!(!lines.contains(&token), "the token is never shown: {lines}");
    });
}

/// The seed of `game`'s record, in the hexadecimal of the subject's names.
/// The low 24 bits of `game`'s seed as the subject writes a seed (six hex digits).
fn seed_hex(server: &Server, game: &str) -> String {
    format!("{:06x}", seed_of(server, game) & 0xff_ffff)
}

fn seed_of(server: &Server, game: &str) -> u64 {
    record(server, game)["seed"].as_u64().unwrap()
}

#[test]
fn the_game_s_name_gives_no_seed_of_the_server_away() {
    each_run_in("serve", "seed_leak", |who, dir| {
        let server = Server::start(who, dir);
        // A training game whose seed the server drew: the name, sent before the game
        // starts, holds nothing of it (the client cannot replay the deal locally).
        let mut leak = server.connect();
        let (game, _) = leak.start("leak", "map=small timeout=30");
        drop(leak);
        let seed = seed_hex(&server, &game);
        assert!(!game.contains(&seed), "seed {seed} in the name {game}");
        // Nor can a client try every seed against its opening hand: a drawn seed has 64
        // bits, not the 24 of a seed a client gives (this fails once in 2^40 runs).
        let drawn = seed_of(&server, &game);
        assert!(drawn > 0xff_ffff, "a drawn seed of 24 bits: {drawn}");
        // A free game where one player chose a seed and the other did not: the chosen seed
        // is not used (its chooser would know the other's hand), nor shown.
        let mut chooser = server.connect();
        assert_eq!(chooser.cmd("CLIENT_NAME chooser"), "OK");
        assert_eq!(chooser.cmd("WAIT_GAME map=small seed=5 timeout=30"), "OK");
        server.line_with("client chooser: waits for a free game");
        let mut other = server.connect();
        assert_eq!(other.cmd("CLIENT_NAME other"), "OK");
        assert_eq!(other.cmd("WAIT_GAME map=small timeout=30"), "OK");
        let game = other.must();
        let mut theirs = chooser.must();
        while theirs == "NOT_READY" {
            theirs = chooser.must();
        }
        assert_eq!(theirs, game);
        drop((chooser, other));
        let seed = seed_hex(&server, &game);
        assert_ne!(seed, "000005", "the seed one player chose alone was used");
        assert!(!game.contains(&seed), "seed {seed} in the name {game}");
    });
}

#[test]
fn a_comment_flood_is_bounded_and_summed_up() {
    each_run_in("serve", "comment_flood", |who, dir| {
        let server = Server::start(who, dir);
        let mut flood = server.connect();
        let (game, first) = flood.start("flood", "map=small start=0 timeout=60");
        assert!(first);
        // A thousand comments in one turn, sent at once: ten are kept, the rest refused
        // with a message, none of them breaks the game.
        let long = "x".repeat(900);
        let mut writer = flood.stream.try_clone().unwrap();
        let sent = std::thread::spawn(move || {
            writer.write_all(format!("SEND_COMMENT {long}\n").repeat(1000).as_bytes())
        });
        let answers: Vec<String> = (0..1000).map(|_| flood.must()).collect();
        let kept = answers.iter().filter(|a| *a == "OK").count();
        sent.join().unwrap().unwrap();
        assert_eq!(kept, 10, "{:?}", &answers[..12]);
        assert!(
            answers[10].contains("Too many comments (at most 10 a turn"),
            "{}",
            answers[10]
        );
        assert_eq!(flood.cmd("DISP_GAME"), "OK", "still playing");
        flood.must();
        drop(flood);
        // At the game's end the log holds the ten comments, cut, and one line for the rest.
        server.line_with(&format!("game {game}: flood sent 990 more comments"));
        let lines = server.lines.lock().unwrap();
        let said: Vec<&String> = lines.iter().filter(|l| l.contains("flood says")).collect();
        assert_eq!(said.len(), 10, "{said:?}");
        assert!(said.iter().all(|l| l.len() < 200), "cut: {}", said[0]);
    });
}

/// `cmd` run under a limit of open files of `soft` and `hard`.
fn with_open_files(cmd: &mut Command, soft: u64, hard: u64) {
    use nix::sys::resource::{setrlimit, Resource};
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe; nothing is allocated in the child.
    unsafe {
        cmd.pre_exec(move || {
            setrlimit(Resource::RLIMIT_NOFILE, soft, hard).map_err(std::io::Error::from)
        });
    }
}

#[test]
fn a_max_connections_the_open_files_cannot_hold_is_refused_at_start() {
    each_run_in("serve", "nofile_refused", |who, dir| {
        let mut cmd = Server::command(who, dir, &["--max-connections", "1024"]);
        cmd.stderr(Stdio::piped());
        with_open_files(&mut cmd, 256, 256);
        let mut child = cmd.spawn().unwrap();
        // Its first line: none (it stopped) or `listening on` (it serves: killed, failed).
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        if first.contains("listening on") {
            let _ = child.kill();
        }
        let out = child.wait_with_output().unwrap();
        assert!(!first.contains("listening on"), "it served: {first}");
        assert!(!out.status.success());
        let why = String::from_utf8_lossy(&out.stderr);
        assert!(
            why.contains("--max-connections 1024 needs")
                && why.contains("give --max-connections 84 or less"),
            "{why}"
        );
    });
}

#[test]
fn the_soft_limit_of_open_files_is_raised_to_the_hard_one() {
    each_run_in("serve", "nofile_raised", |who, dir| {
        let args = ["--max-connections", "200", "--per-address", "100"];
        let mut cmd = Server::command(who, dir, &args);
        with_open_files(&mut cmd, 64, 1024);
        let server = Server::spawn(cmd, dir);
        // More clients at once than the soft limit had open files, all served.
        let clients: Vec<Client> = (0..100)
            .map(|i| {
                let mut c = server.connect();
                assert_eq!(c.cmd(&format!("CLIENT_NAME c{i}")), "OK", "client {i}");
                c
            })
            .collect();
        drop(clients);
    });
}

/// A connection to `server` from the local address `from` (all of 127/8 is local).
fn connect_from(server: &Server, from: [u8; 4]) -> Client {
    use nix::sys::socket::{bind, connect, socket, AddressFamily, SockFlag, SockType, SockaddrIn};
    let fd = socket(
        AddressFamily::Inet,
        SockType::Stream,
        SockFlag::SOCK_CLOEXEC,
        None,
    )
    .unwrap();
    use std::os::fd::AsRawFd;
    let [a, b, c, d] = from;
    bind(fd.as_raw_fd(), &SockaddrIn::new(a, b, c, d, 0)).unwrap();
    connect(fd.as_raw_fd(), &SockaddrIn::new(127, 0, 0, 1, server.port)).unwrap();
    let stream = TcpStream::from(fd);
    stream.set_read_timeout(Some(WAIT)).unwrap();
    Client { stream }
}

#[test]
fn loopback_is_one_source_and_one_source_leaves_room() {
    each_run_in("serve", "one_source", |who, dir| {
        let server =
            Server::start_with(who, dir, &["--max-connections", "8", "--per-address", "16"]);
        // One source holds half the connections at most, whatever its addresses in 127/8.
        let held: Vec<Client> = (0..4u8)
            .map(|i| {
                let mut c = connect_from(&server, [127, 0, 0, 2 + i]);
                assert_eq!(c.cmd(&format!("CLIENT_NAME hog{i}")), "OK");
                c
            })
            .collect();
        for from in [[127, 0, 0, 9], [127, 1, 2, 3], [127, 0, 0, 1]] {
            let mut more = connect_from(&server, from);
            let refused = more.must();
            assert!(
                refused.contains("Too many connections from your machine (at most 4"),
                "{from:?}: {refused}"
            );
            assert_eq!(more.recv(), None);
        }
        drop(held);
    });
}

/// The store's games as `referee serve games` lists them, a line each.
fn games_listed(who: Who, dir: &Path) -> String {
    let out = serve_command(who, dir, &["games"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The files the process `pid` holds open.
fn open_files(pid: u32) -> u64 {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count() as u64
}

/// Lowers the soft limit of open files of the running process `pid` (run by `who`) to
/// `soft`: from a process of the same user (root here may lack `CAP_SYS_RESOURCE`, which
/// another user's process needs).
fn lower_open_files(who: Who, pid: u32, soft: u64) {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new("true");
    if let Who::User(uid, gid) = who {
        cmd.uid(uid).gid(gid);
    }
    // SAFETY: prlimit only, async-signal-safe, nothing allocated.
    unsafe {
        cmd.pre_exec(move || {
            use nix::libc;
            let mut now = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            let pid = pid as libc::pid_t;
            if libc::prlimit(pid, libc::RLIMIT_NOFILE, std::ptr::null(), &mut now) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            now.rlim_cur = soft;
            if libc::prlimit(pid, libc::RLIMIT_NOFILE, &now, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let status = cmd.status().expect("the limit of open files lowered");
    assert!(status.success());
}

/// Every message of `client` until the server closes the connection (each read within
/// the tests' bound: a server that hangs fails the test, it does not hang it).
fn all_messages(client: &mut Client) -> Vec<String> {
    std::iter::from_fn(|| client.recv()).collect()
}

/// Red team, round 3: a server out of open files recorded its own failure (a bot it
/// could not start) as the bot's fault and the client as the winner of a game it never
/// played, and left rows `playing`. A game's files are now counted apart from the
/// connections': a game the files left cannot hold is refused with a message; and a
/// failure of the server all the same (its limit lowered while it runs) counts for no
/// one: the row `failed`, the client told.
#[test]
fn a_failure_of_the_server_is_no_seat_s_fault() {
    each_run_in("serve", "server_failure", |who, dir| {
        let args = ["--max-connections", "20"];
        let mut cmd = Server::command(who, dir, &args);
        // 20 connections and the server's own take 104 files: 56 are left, two training
        // games (24 each).
        with_open_files(&mut cmd, 160, 160);
        let server = Server::spawn(cmd, dir);
        let options = "map=small start=0 timeout=60";
        let mut playing = Vec::new();
        for i in 0..2 {
            let mut client = server.connect();
            client.start(&format!("held{i}"), options);
            playing.push(client);
        }
        let mut third = server.connect();
        assert_eq!(third.cmd("CLIENT_NAME third"), "OK");
        let refused = third.cmd(&format!("WAIT_GAME TRAINING PLAY_RANDOM {options}"));
        assert!(
            refused.contains("too many games at once") && refused.contains("try again later"),
            "{refused}"
        );
        assert_eq!(third.recv(), None);
        // A game that ends gives its files back: a new one is played.
        drop(playing.remove(0));
        common::wait_until("a game's files given back", WAIT, || {
            let mut again = server.connect();
            again.cmd("CLIENT_NAME again") == "OK"
                && again.cmd(&format!("WAIT_GAME TRAINING PLAY_RANDOM {options}")) == "OK"
        });

        // The limit lowered under the server's feet: the next game cannot run its bot.
        let pid = server.child.id();
        drop(playing);
        common::wait_until("the games over", WAIT, || {
            !games_listed(who, dir).contains(" playing ")
        });
        lower_open_files(who, pid, open_files(pid) + 3);
        let mut unlucky = server.connect();
        assert_eq!(unlucky.cmd("CLIENT_NAME unlucky"), "OK");
        unlucky.write(b"WAIT_GAME TRAINING PLAY_RANDOM map=small start=0 timeout=5\n");
        let told = all_messages(&mut unlucky);
        assert!(
            told.iter().any(|m| m.contains("counts for no one")),
            "the client is told: {told:?}"
        );
        let failure = server.line_with("counts for no one");
        assert!(
            failure.contains("Too many open files") && !failure.contains("all leased"),
            "the real error named: {failure}"
        );
        lower_open_files(who, pid, 160);
        // No row says a game was won that was not played, and none is left playing.
        let listed = games_listed(who, dir);
        for line in listed.lines() {
            assert!(
                line.contains(" finished ") || line.contains(" failed "),
                "{line}"
            );
            let bot_lost = line
                .split(", ")
                .any(|o| o.contains("random (seat") && o.contains(") lost by a "));
            assert!(!bot_lost, "a bot's fault counted: {line}");
        }
        if let Some(row) = listed.lines().find(|l| l.contains(" failed ")) {
            assert!(row.contains("unlucky"), "{row}");
        }
        // And the server serves on.
        let mut fine = server.connect();
        let (game, first) = fine.start("fine", "map=small seed=9 timeout=30");
        fine.play_to_the_end(first);
        record(&server, &game);
    });
}

/// Red team, round 3: a connection that sent a registered name without its token held it
/// until its idle timeout, and the owner was refused every time.
#[test]
fn a_registered_name_is_held_only_once_its_token_is_proven() {
    each_run_in("serve", "squatter", |who, dir| {
        let out = serve_command(who, dir, &["register", "owner"]);
        assert!(out.status.success());
        let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
        let server = Server::start(who, dir);
        let mut squatter = server.connect();
        assert_eq!(squatter.cmd("CLIENT_NAME owner"), "OK");
        let mut owner = server.connect();
        assert_eq!(owner.cmd("CLIENT_NAME owner"), "OK", "not kept out");
        let (game, first) = owner.train(&format!("map=small seed=5 timeout=30 token={token}"));
        // Once proven, the name is the owner's: the right token on another connection
        // finds it taken, and no token or a wrong one is refused as before.
        let mut thief = server.connect();
        assert_eq!(thief.cmd("CLIENT_NAME owner"), "OK");
        let answer = thief.cmd(&format!("WAIT_GAME TRAINING PLAY_RANDOM token={token}"));
        assert!(answer.contains("already connected"), "{answer}");
        let answer = squatter.cmd("WAIT_GAME TRAINING PLAY_RANDOM map=small");
        assert!(answer.contains("its games need its token"), "{answer}");
        assert_eq!(squatter.recv(), None);
        owner.play_to_the_end(first);
        record(&server, &game);
    });
}

/// Red team, round 3: `register " carol"` stored a name no client can send (the blanks
/// around a command are dropped): `carol` stayed unprotected.
#[test]
fn register_refuses_a_name_no_client_could_send() {
    each_run_in("serve", "register_blank", |who, dir| {
        for name in [" carol", "carol ", "ca rol", "carol\t"] {
            let out = serve_command(who, dir, &["register", name]);
            assert!(!out.status.success(), "{name:?} registered");
            let why = String::from_utf8_lossy(&out.stderr);
            assert!(why.contains("1 to 20 characters in [a-zA-Z0-9_]"), "{why}");
        }
        let out = serve_command(who, dir, &["register", "carol"]);
        assert!(out.status.success());
        // And the name is protected: a client without the token is refused.
        let server = Server::start(who, dir);
        let mut client = server.connect();
        assert_eq!(client.cmd("CLIENT_NAME carol"), "OK");
        let answer = client.cmd("WAIT_GAME TRAINING PLAY_RANDOM");
        assert!(answer.contains("its games need its token"), "{answer}");
    });
}

/// Red team, round 3: a token sent in a malformed request came back in the answer and
/// in the server's log.
#[test]
fn a_token_is_never_quoted_in_answers_or_the_log() {
    each_run_in("serve", "token_quoted", |who, dir| {
        let out = serve_command(who, dir, &["register", "ann"]);
        let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
        let server = Server::start(who, dir);
        let mut answers = Vec::new();
        for request in [
            format!("WAIT_GAME BOGUS token={token}"),
            format!("WAIT_GAME TOURNAMENT token={token}"),
            format!("WAIT_GAME TRAINING NOBODY Token={token}"),
        ] {
            let mut client = server.connect();
            assert_eq!(client.cmd("CLIENT_NAME ann"), "OK");
            answers.push(client.cmd(&request));
        }
        // During a game: a command that is no move, quoted in the protocol fault.
        let mut playing = server.connect();
        assert_eq!(playing.cmd("CLIENT_NAME ann"), "OK");
        let (game, _) = playing.train(&format!("map=small timeout=30 token={token}"));
        answers.push(playing.cmd(&format!("HELLO token={token}")));
        record(&server, &game);
        for answer in &answers {
            assert!(!answer.contains(&token), "{answer}");
        }
        assert!(answers[0].contains("BOGUS token=<hidden>"), "{answers:?}");
        assert!(answers[3].contains("HELLO token=<hidden>"), "{answers:?}");
        server.line_with("Bad protocol");
        let lines = server.lines.lock().unwrap().join("\n");
        assert!(lines.contains("token=<hidden>"), "{lines}");
        assert!(!lines.contains(&token), "{lines}");
    });
}

/// Red team, round 3: one address started 872 games in 20 s and wrote 52 MB of refusal
/// lines. Its games are bounded (`--games-per-minute`), and the log's refusal lines to
/// 10 every 10 s, the rest summed up in one line.
#[test]
fn games_and_refusal_lines_of_one_source_are_bounded() {
    each_run_in("serve", "game_flood", |who, dir| {
        let server = Server::start_with(who, dir, &["--games-per-minute", "3"]);
        let wait = "WAIT_GAME TRAINING PLAY_RANDOM map=small timeout=30";
        for i in 0..3 {
            let mut client = server.connect();
            assert_eq!(client.cmd(&format!("CLIENT_NAME game{i}")), "OK");
            assert_eq!(client.cmd(wait), "OK", "game {i}");
        }
        // Refused past the bound, each refusal a connection of its own.
        let refused = |i: usize| {
            let mut client = server.connect();
            assert_eq!(client.cmd(&format!("CLIENT_NAME flood{i}")), "OK");
            let answer = client.cmd(wait);
            assert!(
                answer.contains("Too many games from your machine (at most 3 a minute"),
                "{answer}"
            );
        };
        for i in 0..30 {
            refused(i);
        }
        let lines = || server.lines.lock().unwrap().clone();
        common::wait_until("the 30 refusals seen", WAIT, || {
            lines().iter().any(|l| l.contains("refusal line"))
                || lines().iter().filter(|l| l.contains("refused:")).count() >= 10
        });
        let shown = lines().iter().filter(|l| l.contains("refused:")).count();
        assert!(shown < 30, "{shown} refusal lines of 30");
        // The lines left out are summed up once a window of 10 s is over (the next
        // refusal says it).
        let mut more = 30;
        common::wait_until("the lines left out summed up", WAIT, || {
            refused(more);
            more += 1;
            lines().iter().any(|l| {
                l.contains("more refusal lines of loopback left out (at most 10 every 10 s)")
            })
        });
    });
}

/// Red team 11, finding 5: a client asking a tournament of a 900-character name, then
/// leaving, in a loop, wrote a refusal line each time outside the log's bound (3.3 MB in
/// 10 s). Its refusals are within its source's 10 lines every 10 s, the name cut.
#[test]
fn refusals_of_tournament_requests_are_bounded_and_cut() {
    each_run_in("serve", "tournament_flood", |who, dir| {
        let server = Server::start(who, dir);
        let ask = format!("WAIT_GAME TOURNAMENT {}", "T".repeat(900));
        let refused = || {
            let mut client = server.connect();
            assert_eq!(client.cmd("CLIENT_NAME x"), "OK");
            let answer = client.cmd(&ask);
            assert!(answer.contains("doesn't exist"), "{answer}");
            assert!(answer.len() < 200, "the name cut: {answer}");
        };
        for _ in 0..30 {
            refused();
        }
        let lines = || server.lines.lock().unwrap().clone();
        common::wait_until("the 30 refusals seen", WAIT, || {
            lines().iter().any(|l| l.contains("refusal line"))
                || lines().iter().filter(|l| l.contains("refused:")).count() >= 10
        });
        let shown: Vec<String> = lines()
            .into_iter()
            .filter(|l| l.contains("refused:"))
            .collect();
        assert!(shown.len() < 30, "{} refusal lines of 30", shown.len());
        assert!(shown.iter().all(|l| l.len() < 200), "{shown:?}");
        common::wait_until("the lines left out summed up", WAIT, || {
            refused();
            lines().iter().any(|l| {
                l.contains("more refusal lines of loopback left out (at most 10 every 10 s)")
            })
        });
    });
}

#[test]
fn a_move_sent_out_of_turn_is_refused_as_the_subject_s_server_refuses_it() {
    out_of_turn("out_of_turn", "");
}

/// Red team 11, finding 6: a `PLAY_MOVE` sent out of turn is refused wherever it stands
/// among what was waiting when the turn began, not only first (a comment before it had it
/// played).
#[test]
fn a_move_sent_out_of_turn_behind_another_command_is_refused_too() {
    out_of_turn("out_of_turn_behind", "SEND_COMMENT hello\n");
}

/// The waiter of a free game sends `before`, then a `PLAY_MOVE`, in the mover's turn:
/// the move is refused as the subject's server refuses it, and nothing is played.
fn out_of_turn(name: &str, before: &str) {
    each_run_in("serve", name, |who, dir| {
        let server = Server::start(who, dir);
        let options = "WAIT_GAME map=small seed=5 timeout=30";
        let (mut a, mut b) = (server.connect(), server.connect());
        assert_eq!(a.cmd("CLIENT_NAME a"), "OK");
        assert_eq!(a.cmd(options), "OK");
        server.line_with("client a: waits for a free game");
        assert_eq!(b.cmd("CLIENT_NAME b"), "OK");
        assert_eq!(b.cmd(options), "OK");
        let mut game = a.must();
        while game == "NOT_READY" {
            game = a.must();
        }
        assert_eq!(b.must(), game);
        // Both ask their data before either reads it: the seats' init_game are in turn.
        for client in [&mut a, &mut b] {
            client.must();
            client.write(b"GET_GAME_DATA\n");
        }
        let first = |client: &mut Client| {
            assert_eq!(client.must(), "OK");
            client.must();
            client.must() == "0"
        };
        let a_first = first(&mut a);
        assert_ne!(a_first, first(&mut b));
        let (mut mover, mut waiter) = if a_first { (a, b) } else { (b, a) };
        // The waiter plays while the mover's turn is open (the mover has not moved yet).
        waiter.write(format!("{before}PLAY_MOVE 2\n").as_bytes());
        let (_, code) = mover.play("4");
        assert_eq!(code, 0);
        let (_, code) = mover.play("5 1 1 0");
        assert_eq!(code, 0);
        if !before.is_empty() {
            assert_eq!(waiter.must(), "OK", "what came before the move is answered");
        }
        assert_eq!(
            waiter.must(),
            "It's not our turn to play, so we cannot play a move!",
            "refused, not held for the client's turn and played there"
        );
        // Nothing was played: the mover's moves are still the waiter's to read, and its
        // own first move is still the tickets.
        let (m, _, code) = waiter.opponent();
        assert_eq!((m.as_str(), code), ("4", 0));
        let (m, _, code) = waiter.opponent();
        assert!(m.starts_with("5 "), "{m}");
        assert_eq!(code, 0);
        let (tickets, code) = waiter.play("4");
        assert_eq!((tickets.split(' ').count(), code), (9, 0), "{tickets}");
        drop(waiter);
        drop(mover);
        let record = record(&server, &game);
        for fault in record["faults"].as_array().unwrap() {
            assert_eq!(
                fault["kind"], "crash",
                "only the leaving is a fault: {fault}"
            );
        }
        replays(&server, &game);
    });
}

/// A client that answers just under its turn's timeout, forever, holds its game only as
/// long as the server's cap on a game's total time (`--game-time`): then the seat to move
/// loses by a `timeout` fault, recorded, and the record replays.
#[test]
fn a_game_that_passes_the_server_s_cap_on_its_time_ends() {
    each_run_in("serve", "game_time", |who, dir| {
        let server = Server::start_with(who, dir, &["--game-time", "5"]);
        let mut client = server.connect();
        let (game, mut mine) = client.start("pacer", "map=small seed=3 start=0 timeout=2");
        // The pace of the attacker: each turn's moves sent just under the 2 s of a turn.
        let pace = Duration::from_millis(1500);
        let mut turns = 0;
        let (code, msg) = loop {
            if mine {
                std::thread::sleep(pace);
                let moves: &[&str] = if turns == 0 {
                    &["4", "5 1 1 0"]
                } else {
                    &["2", "2"]
                };
                let mut ended = None;
                for m in moves {
                    let (msg, code) = client.play(m);
                    if code != 0 {
                        ended = Some((code, msg));
                        break;
                    }
                }
                if let Some(ended) = ended {
                    break ended;
                }
                turns += 1;
                mine = false;
            } else {
                let (m, msg, code) = client.opponent();
                if code != 0 {
                    break (-code, msg);
                }
                mine = !(matches!(m.split(' ').next(), Some("2" | "3")) && msg.starts_with('1')
                    || m.starts_with('4'));
            }
        };
        assert_eq!(code, -1, "{msg}");
        assert!(msg.contains("cap on a game's total time (5 s)"), "{msg}");
        let record = record(&server, &game);
        let (kind, message) = remote_fault(&record);
        assert_eq!(kind, "timeout", "{message}");
        assert!(message.contains("cap on a game's total time"), "{message}");
        assert!(turns >= 1, "the game went on until the cap: {turns} turns");
        replays(&server, &game);
    });
}

#[test]
fn connections_in_a_loop_are_summed_up_in_the_log() {
    each_run_in("serve", "connection_lines", |who, dir| {
        let server = Server::start(who, dir);
        let named = |i: u32| {
            let mut client = server.connect();
            assert_eq!(client.cmd(&format!("CLIENT_NAME loop{i}")), "OK");
        };
        for i in 0..30 {
            named(i);
        }
        // The first ten are written, both their lines.
        for i in 0..10 {
            server.line_with(&format!("client loop{i}: disconnected"));
        }
        // Once the window ended, the next connection's lines come after the line that
        // sums up those left out (one connection a second meanwhile).
        let (mut i, mut last) = (30, std::time::Instant::now());
        common::wait_until("the connections left out summed up", WAIT, || {
            if last.elapsed() >= Duration::from_secs(1) {
                named(i);
                (i, last) = (i + 1, std::time::Instant::now());
            }
            let lines = server.lines.lock().unwrap();
            lines.iter().any(|l| l.contains("left out"))
        });
        let lines = server.lines.lock().unwrap().clone();
        for i in 10..30 {
            let (named, gone) = (format!(" loop{i} connected"), format!("client loop{i}: "));
            assert!(
                !lines
                    .iter()
                    .any(|l| l.contains(&named) || l.contains(&gone)),
                "loop{i} written: {lines:#?}"
            );
        }
        let summed = lines.iter().find(|l| l.contains("left out")).unwrap();
        let (count, rest) = summed.split_once(' ').unwrap();
        assert!(count.parse::<u32>().unwrap() >= 20, "{summed}");
        assert_eq!(
            rest,
            "more connection lines of loopback left out (at most 10 every 10 s)"
        );
    });
}
