//! A game server nobody should trust (issue 26, findings 1, 2 and 8 of its red team): a
//! fake server in the test speaks `referee serve`'s handshake to the real C and Python kits
//! of Ticket to Ride and Little Town connected with `REFEREE_SERVER`, then answers their
//! requests with what breaks a careless parser: a count that grows between answers, a
//! route that is its own twin, a negative board, a seat out of range, terminal escape
//! codes. Each kit must stop with status 2 and an error naming the problem, with no memory
//! error (the C kits are built with AddressSanitizer where the compiler has it), and show
//! the server's text escaped and bounded; the same answers, well-formed, play through.

use crate::common;
use crate::serve::WAIT;
use crate::serve_kits::{have, repo};

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// What the fake server does once the kit has named itself.
struct Script {
    /// Sent instead of `OK` to `CLIENT_NAME`, then the connection closed; `None` plays on.
    refusal: Option<String>,
    /// `<game> <seats>`, framed after the game's name.
    game: &'static str,
    /// The callbacks, in order: the first sent at the start, the next after each `fin`
    /// or action; the connection closes after the last one's `fin`.
    callbacks: &'static [&'static str],
    /// The answer to a request (its first word) asked for the `nth` time (1 first).
    answer: fn(&str, usize) -> String,
}

/// One message of the handshake: six digits of length, then the bytes.
fn frame(text: &str) -> Vec<u8> {
    let mut out = format!("{:06}", text.len()).into_bytes();
    out.extend_from_slice(text.as_bytes());
    out
}

/// Serves `script` to the first connection on `listener`; returns when the kit leaves
/// or the script ends.
fn serve(listener: TcpListener, script: Script) {
    let Ok((stream, _)) = listener.accept() else {
        return;
    };
    let mut out = stream.try_clone().unwrap();
    let mut lines = BufReader::new(stream);
    let mut line = String::new();
    let mut read = |line: &mut String| {
        line.clear();
        matches!(lines.read_line(line), Ok(n) if n > 0)
    };
    if !read(&mut line) {
        return;
    }
    if let Some(refusal) = &script.refusal {
        let _ = out.write_all(&frame(refusal));
        return;
    }
    let _ = out.write_all(&frame("OK"));
    if !read(&mut line) {
        return;
    }
    let mut start = frame("OK");
    start.extend(frame("hostile0001"));
    start.extend(frame(script.game));
    start.extend(format!("{}\n", script.callbacks[0]).into_bytes());
    let _ = out.write_all(&start);
    let mut callbacks = script.callbacks[1..].iter();
    let mut asked: HashMap<String, usize> = HashMap::new();
    while read(&mut line) {
        let request = line.trim_end().split(' ').next().unwrap_or("").to_string();
        let reply = match request.as_str() {
            "fin" | "collect" | "build" => match callbacks.next() {
                Some(next) => next.to_string(),
                None => return,
            },
            _ => {
                let nth = asked.entry(request.clone()).or_insert(0);
                *nth += 1;
                (script.answer)(&request, *nth)
            }
        };
        if out.write_all(format!("{reply}\n").as_bytes()).is_err() {
            return;
        }
    }
}

/// A kit's program as a contestant starts it: the command, run in `dir`.
struct Program {
    command: Vec<String>,
    env: Vec<(&'static str, String)>,
}

/// What a kit did against a script: its status code and its stdout and stderr together.
struct Run {
    code: Option<i32>,
    output: String,
}

/// Starts `program` connected to a fake server playing `script`, and waits for it.
fn run(program: &Program, script: Script) -> Run {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || serve(listener, script));
    let mut child = Command::new(&program.command[0])
        .args(&program.command[1..])
        .envs(program.env.iter().map(|(k, v)| (k, v)))
        .env("REFEREE_SERVER", format!("127.0.0.1:{port}"))
        .env("REFEREE_NAME", "victim")
        .env("REFEREE_WAIT", "TRAINING random")
        .env("PROLOGIN_KITS", repo("kits"))
        .env("ASAN_OPTIONS", "detect_leaks=0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kit starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stdout.read_to_end(&mut text);
        text
    });
    let mut stderr = Vec::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_end(&mut stderr)
        .unwrap();
    let status = common::wait_timeout(&mut child, WAIT).expect("the kit ends");
    let mut output = reader.join().unwrap();
    output.extend(stderr);
    // The kit has left: a server still waiting for its connection gets one and ends.
    let _ = TcpStream::connect(("127.0.0.1", port));
    server.join().unwrap();
    Run {
        code: status.code(),
        output: String::from_utf8_lossy(&output).into_owned(),
    }
}

/// The C flags of the fixtures' builds: AddressSanitizer when `cc` has it (a write out of
/// bounds is then an error, not a silent corruption), else plain, which is noted.
fn sanitizer() -> &'static str {
    static FLAGS: OnceLock<&'static str> = OnceLock::new();
    FLAGS.get_or_init(|| {
        let dir = common::fresh_dir("kits_hostile_server", "asan_probe");
        let probe = dir.join("asan_probe.c");
        std::fs::write(&probe, "int main(void) { return 0; }\n").unwrap();
        let built = Command::new("cc")
            .args(["-fsanitize=address", "-o"])
            .arg(dir.join("asan_probe"))
            .arg(&probe)
            .output()
            .is_ok_and(|o| o.status.success())
            && Command::new(dir.join("asan_probe"))
                .status()
                .is_ok_and(|s| s.success());
        if built {
            "-fsanitize=address"
        } else {
            common::skip_missing(
                "kits_hostile_server: cc has no AddressSanitizer (Debian: gcc with libasan); \
                 the C kits are tested without it",
            );
            ""
        }
    })
}

/// The C fixture `file` (of `tests/fixtures/connect`) built with the C kit `kit` (a folder
/// of `kits/`), as a contestant builds it with the kit's `champion.mk`.
fn c_program(file: &str, kit: &str) -> Program {
    let dir = common::fresh_dir("kits_hostile_server", kit);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/connect")
            .join(file),
        dir.join(file),
    )
    .unwrap();
    let flags = sanitizer();
    let kit = repo("kits").join(kit);
    let made = Command::new("make")
        .arg("-s")
        .arg("-f")
        .arg(kit.join("champion.mk"))
        .arg(format!("KIT={}", kit.display()))
        .arg(format!("CFLAGS=-O1 -g -Wall -Wextra {flags}"))
        .arg(format!("LDFLAGS={flags}"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", common::text(&made.stderr));
    Program {
        command: vec![dir.join("champion").display().to_string()],
        env: Vec::new(),
    }
}

/// The Python fixture `file` run on the Python kit `kit`: by its `run.py` when the kit
/// has one (Little Town), else as a program importing the kit (Ticket to Ride).
fn python_program(file: &str, kit: &str) -> Program {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/connect")
        .join(file);
    let kit: PathBuf = repo("kits").join(kit);
    let mut command = vec!["python3".to_string(), "-B".to_string()];
    if kit.join("run.py").exists() {
        command.push(kit.join("run.py").display().to_string());
    }
    command.push(fixture.display().to_string());
    Program {
        command,
        env: vec![("PYTHONPATH", kit.display().to_string())],
    }
}

/// A case: its name, the script's answers, and what the kit must do: `Ok(text)` play
/// through and print `text`, `Err(text)` stop with status 2 and an error with `text`.
type Case = (
    &'static str,
    fn(&str, usize) -> String,
    Result<&'static str, &'static str>,
);

/// Checks what `program` did against every case of `cases`, served as `game`; fails with
/// every case the kit got wrong.
fn check(
    kit: &str,
    program: &Program,
    game: &'static str,
    callbacks: &'static [&'static str],
    cases: &[Case],
) {
    let mut wrong = Vec::new();
    for (name, answer, expected) in cases {
        let script = Script {
            refusal: None,
            game,
            callbacks,
            answer: *answer,
        };
        let run = run(program, script);
        let output = shorter(&run.output);
        if run.output.contains("AddressSanitizer") || run.output.contains("Traceback") {
            wrong.push(format!(
                "{name}: a memory error or an exception, not a clear stop:\n{output}"
            ));
            continue;
        }
        match expected {
            Ok(text) if run.code != Some(0) || !run.output.contains(text) => wrong.push(format!(
                "{name}: should play through and print {text:?}: {:?}\n{output}",
                run.code
            )),
            Err(text) if run.code != Some(2) || !run.output.contains(text) => wrong.push(format!(
                "{name}: should stop with status 2 naming {text:?}: {:?}\n{output}",
                run.code
            )),
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{kit}:\n{}", wrong.join("\n"));
}

/// `text` cut to its first 2,000 bytes, for a failure's message.
fn shorter(text: &str) -> &str {
    let mut end = text.len().min(2000);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Ticket to Ride's answers, well-formed: 2 seats, 4 cities, 3 routes of which 0 and 1
/// are twins (2 tracks).
fn ticket(request: &str, _nth: usize) -> String {
    match request {
        "game" => "2 0 4 3 46 45",
        "routes" => "0 1 2 red 1 -1 0 1 2 blue 0 -1 1 2 3 grey -1 -1",
        "row" => "red red blue green locomotive",
        "hand" => "1 0 0 0 0 0 0 0 3",
        _ => "0",
    }
    .to_string()
}

/// Finding 1's answers, and the other counts and indices of Ticket to Ride's answers.
const TICKET: &[Case] = &[
    ("well-formed", ticket, Ok("4 cities, 2 tracks")),
    (
        "a route its own twin",
        |r, n| match r {
            "routes" => "0 1 2 red 0 -1 0 1 2 blue 1 -1 1 2 3 grey -1 -1".into(),
            _ => ticket(r, n),
        },
        Err("route 0 its own twin"),
    ),
    (
        "a twin out of range",
        |r, n| match r {
            "routes" => "0 1 2 red 7 -1 0 1 2 blue 0 -1 1 2 3 grey -1 -1".into(),
            _ => ticket(r, n),
        },
        Err("route 0 names route 7 as its twin"),
    ),
    (
        "twins that disagree",
        |r, n| match r {
            "routes" => "0 1 2 red 1 -1 0 1 2 blue 2 -1 1 2 3 grey 1 -1".into(),
            _ => ticket(r, n),
        },
        Err("route 0 names route 1 as its twin"),
    ),
    (
        "a count that grows",
        |r, n| match (r, n) {
            ("game", 1) => ticket(r, n),
            ("game", _) => "2 0 4 5000 46 45".into(),
            ("routes", 1) => ticket(r, n),
            ("routes", _) => "1094795585 1094795585 1094795585 red -1 -1 ".repeat(5000),
            _ => ticket(r, n),
        },
        Err("lists 5000 routes, not the 3 of `game`"),
    ),
    (
        "a route that changes",
        |r, n| match (r, n) {
            ("routes", 1) => ticket(r, n),
            ("routes", _) => "0 1 2 red 1 -1 0 1 2 blue 0 -1 1 3 3 grey -1 -1".into(),
            _ => ticket(r, n),
        },
        Err("disagrees with its first about route 2"),
    ),
    (
        "fewer routes than counted",
        |r, n| match r {
            "routes" => "0 1 2 red 1 -1 0 1 2 blue 0 -1".into(),
            _ => ticket(r, n),
        },
        Err("lists 2 routes, not the 3 of `game`"),
    ),
    (
        "a negative count",
        |r, n| match r {
            "game" => "2 0 4 -5 46 45".into(),
            _ => ticket(r, n),
        },
        Err("-5 routes"),
    ),
    (
        "a seat out of range",
        |r, n| match r {
            "game" => "2 7 4 3 46 45".into(),
            _ => ticket(r, n),
        },
        Err("seat 7 of 2"),
    ),
    (
        "a city out of range",
        |r, n| match r {
            "routes" => "0 9 2 red 1 -1 0 1 2 blue 0 -1 1 2 3 grey -1 -1".into(),
            _ => ticket(r, n),
        },
        Err("city 9"),
    ),
];

/// Little Town's answers, well-formed: a 2x2 board, 2 players, seat 0.
fn town(request: &str, _nth: usize) -> String {
    match request {
        "moi" => "0".to_string(),
        "etat" => town_etat(
            "2 2 0 1 4 2 0 0 0 3 7 1 1",
            "1 -1 -1 0 -1 -1 0 -1 -1 2 -1 -1",
        ),
        _ => String::new(),
    }
}

/// An `etat` line of `head` (13 numbers) and `cells`, two players and the supply.
fn town_etat(head: &str, cells: &str) -> String {
    format!("{head} {cells} 0 0 0 0 5 3 0 0 0 0 0 0 5 3 0 0 4 4 4 4")
}

/// Finding 2's answers, and the other counts and indices of Little Town's `etat`.
const TOWN: &[Case] = &[
    ("well-formed", town, Ok("etat: 2x2, seat 0 of 2, gold 5")),
    (
        "a negative board",
        |r, n| match r {
            "etat" => format!(
                "-1 -3000 0 0 10 0 0 0 0 2 5 1 1 {} 0 0 0 0",
                "1094795585 ".repeat(9000)
            ),
            _ => town(r, n),
        },
        Err("a board of -1 by -3000"),
    ),
    (
        "too many players",
        |r, n| match r {
            "etat" => town_etat(
                "2 2 0 1 4 9 0 0 0 3 7 1 1",
                "0 -1 -1 0 -1 -1 0 -1 -1 0 -1 -1",
            ),
            _ => town(r, n),
        },
        Err("the number of players as 9"),
    ),
    (
        "our seat out of range",
        |r, n| match r {
            "etat" => town_etat(
                "2 2 0 1 4 2 5 0 0 3 7 1 1",
                "0 -1 -1 0 -1 -1 0 -1 -1 0 -1 -1",
            ),
            _ => town(r, n),
        },
        Err("seat 5 of 2"),
    ),
    (
        "an owner out of range",
        |r, n| match r {
            "etat" => town_etat(
                "2 2 0 1 4 2 0 0 0 3 7 1 1",
                "5 6 -1 0 -1 -1 0 -1 -1 0 -1 -1",
            ),
            _ => town(r, n),
        },
        Err("seat 6 of 2"),
    ),
    (
        "a line cut short",
        |r, n| match r {
            "etat" => "2 2 0 1 4 2 0 0 0 3 7 1 1 0 -1 -1".into(),
            _ => town(r, n),
        },
        Err("`etat` ends early"),
    ),
    (
        "a seat out of range from moi",
        |r, n| match r {
            "moi" => "9".into(),
            _ => town(r, n),
        },
        Err("seat 9"),
    ),
];

const TICKET_GAME: &str = "ticket-to-ride 2";
const TICKET_CALLBACKS: &[&str] = &["init_game", "end_game"];
const TOWN_GAME: &str = "little-town 2";
const TOWN_CALLBACKS: &[&str] = &["init_game", "jouer", "end_game"];

#[test]
fn the_c_kits_stop_on_a_server_s_hostile_counts_and_indices() {
    if !have(
        "make",
        "kits_hostile_server: the C kits need make and cc (apt-get install make gcc)",
    ) {
        return;
    }
    let ticket = c_program("ticket_map.c", "ticket-c");
    check("ticket-c", &ticket, TICKET_GAME, TICKET_CALLBACKS, TICKET);
    let town = c_program("town_etat.c", "little-town-c");
    check("little-town-c", &town, TOWN_GAME, TOWN_CALLBACKS, TOWN);
}

#[test]
fn the_python_kits_stop_on_a_server_s_hostile_counts_and_indices() {
    if !have(
        "python3",
        "kits_hostile_server: the Python kits need python3",
    ) {
        return;
    }
    let ticket = python_program("ticket_map.py", "ticket-python");
    check(
        "ticket-python",
        &ticket,
        TICKET_GAME,
        TICKET_CALLBACKS,
        TICKET,
    );
    let town = python_program("town_etat.py", "little-town-python");
    check("little-town-python", &town, TOWN_GAME, TOWN_CALLBACKS, TOWN);
}

/// Finding 8: a refusal carrying a window title, a clipboard write, a screen clear and a
/// fake line, then 3,000 more bytes.
const EVIL: &str = "\x1b]0;pwned-title\x07\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J\x1b[Hkit: all good, \
                    game won (fake line)\x1b[8m hidden text";

#[test]
fn a_server_s_text_is_shown_escaped_and_bounded() {
    let mut programs = Vec::new();
    if have(
        "python3",
        "kits_hostile_server: the Python kits need python3",
    ) {
        programs.push((
            "ticket-python",
            python_program("ticket_map.py", "ticket-python"),
        ));
    }
    if have(
        "make",
        "kits_hostile_server: the C kits need make and cc (apt-get install make gcc)",
    ) {
        programs.push(("ticket-c", c_program("ticket_map.c", "ticket-c")));
    }
    for (kit, program) in programs {
        let script = Script {
            refusal: Some(format!("{EVIL}{}", "A".repeat(3000))),
            game: TICKET_GAME,
            callbacks: TICKET_CALLBACKS,
            answer: ticket,
        };
        let run = run(&program, script);
        let output = &run.output;
        assert_eq!(run.code, Some(2), "{kit}: {output}");
        assert!(
            output.contains(r"refused the name: \x1b]0;pwned-title\x07\x1b]52;c;"),
            "{kit}: the escape codes are not shown escaped: {:?}",
            shorter(output)
        );
        assert!(
            !output.chars().any(|c| c.is_control() && c != '\n'),
            "{kit}: a control character reached the terminal: {:?}",
            shorter(output)
        );
        assert!(
            output.len() < 1000 && output.contains(&format!("{} bytes in all", EVIL.len() + 3000)),
            "{kit}: the server's text is not bounded: {} bytes: {:?}",
            output.len(),
            shorter(output)
        );
    }
}
