//! `referee serve`'s other games (docs/server.md): a line client that breaks the game's
//! own protocol or falls silent loses by a recorded fault. As root and as a user.

use crate::common;
use crate::serve::{record, remote_fault, Server, REFEREE, WAIT};

use common::users::each_run_in;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The repository's folder `rel`.
fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

/// Whether `tool` is on the PATH; if not, the test part is skipped by the common rule.
fn have(tool: &str, why: &str) -> bool {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        common::skip_missing(why);
    }
    found
}

/// The C champion of `champion` (a folder of `prologin.c`) built with the kit `kit` into
/// `dir`, untouched in the repository: its executable.
fn build_c(dir: &Path, champion: &str, kit: &str) -> PathBuf {
    let into = dir.join(Path::new(champion).file_name().unwrap());
    std::fs::create_dir_all(&into).unwrap();
    std::fs::copy(repo(champion).join("prologin.c"), into.join("prologin.c")).unwrap();
    std::fs::copy(repo(champion).join("Makefile"), into.join("Makefile")).unwrap();
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
fn game_of(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("kit: game "))
        .unwrap_or_else(|| panic!("no game named: {stderr}"));
    line.split(' ').next().unwrap().to_string()
}

/// `referee --game GAME replay` of `game`'s record succeeds.
fn replays(server: &Server, name: &str, game: &str) {
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
fn paths(record: &serde_json::Value) -> Vec<String> {
    record["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap().to_string())
        .collect()
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
