//! The game server's web site (`referee serve --web`, docs/server.md section 9) in headless
//! Chromium (`tests/browser/web.mjs`, driven command by command while a real client plays
//! over TCP): a game appears in the list when it starts, without a reload; its page's board
//! (the replay page's drawing) grows while it is played, hands hidden; at its end the page
//! shows the result and the comments, a comment made of HTML as text; the site is read-only
//! and names its Content-Security-Policy. As root and as a user.
//!
//! With `REFEREE_WEB_SCREENSHOTS=DIR`, the pages are also shot at 1366x768 and 1920x1080
//! into DIR (`scripts/screenshot-web.sh`).
//!
//! Skipped, with a message, when `chromium` or `node` is missing, except under `CI=true`.

use crate::common;
use crate::serve::{results_shown, Server};

use common::users::each_run_in;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The browser, driven one command at a time.
pub(crate) struct Browser {
    child: Child,
    /// The driver's stdin: closed first when the browser is dropped, which ends it well.
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
    /// Dropped last: kills what is left of the browser and removes its folder.
    _scratch: common::browser_scratch::BrowserScratch,
}

impl Browser {
    pub(crate) fn start(chromium: &Path) -> Browser {
        let scratch = common::browser_scratch::BrowserScratch::new();
        let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/browser/web.mjs");
        // Its tab in a browser context of its own of the binary's one Chromium.
        let mut child = Command::new("node")
            .arg(driver)
            .env("CHROMIUM", chromium)
            .env("CDP_SOCKET", common::browser_host::socket(chromium))
            .env("TMPDIR", scratch.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Browser {
            child,
            input: Some(input),
            output,
            _scratch: scratch,
        }
    }

    /// Runs `command`; its value.
    pub(crate) fn run(&mut self, command: Value) -> Value {
        writeln!(
            self.input.as_mut().expect("the driver's stdin"),
            "{command}"
        )
        .unwrap();
        let mut line = String::new();
        self.output.read_line(&mut line).unwrap();
        if line.is_empty() {
            let mut err = String::new();
            let _ = self.child.stderr.take().unwrap().read_to_string(&mut err);
            panic!("the browser failed at {command}: {err}");
        }
        serde_json::from_str::<Value>(&line).unwrap()["ok"].clone()
    }

    pub(crate) fn open(&mut self, url: &str) {
        self.run(json!(["open", url]));
    }

    pub(crate) fn eval(&mut self, expr: &str) -> Value {
        self.run(json!(["eval", expr]))
    }

    pub(crate) fn until(&mut self, expr: &str, what: &str) -> Value {
        self.run(json!(["until", expr, what]))
    }

    /// Screenshots of the page at both sizes, when asked (`REFEREE_WEB_SCREENSHOTS`).
    pub(crate) fn shots(&mut self, name: &str, wait: &str) {
        let Some(dir) = std::env::var_os("REFEREE_WEB_SCREENSHOTS") else {
            return;
        };
        for (w, h) in [(1366, 768), (1920, 1080)] {
            self.run(json!(["size", w, h]));
            self.until(wait, "the page laid out again");
            let path = Path::new(&dir).join(format!("web-{name}-{w}x{h}.png"));
            self.run(json!(["shot", path]));
        }
        self.run(json!(["size", 1366, 768]));
    }
}

impl Drop for Browser {
    /// The driver's stdin closed, it closes Chromium, kills its process group and removes
    /// its profile before it exits (`tests/browser/cdp.mjs`); killed at once, it left
    /// Chromium running in the scratch folder, which then outlived its removal. A driver
    /// that does not end in time is killed, and the scratch folder's guard kills the rest.
    fn drop(&mut self) {
        drop(self.input.take());
        common::wait_exit(self.child.id() as i32, std::time::Duration::from_secs(10));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `GET path` (or another method) of the site, as raw HTTP/1.0: (status line, headers, body).
pub(crate) fn http(site: &str, method: &str, path: &str) -> (String, String, String) {
    let addr = site.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "{method} {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let (status, headers) = head.split_once("\r\n").unwrap();
    (status.to_string(), headers.to_lowercase(), body.to_string())
}

/// In the board's frame: `expr` of its document.
/// The site's address (`http://ADDR:PORT/`) in the server's first lines.
pub fn site_of(server: &Server) -> String {
    let line = server.line_with("web site on http://");
    line.rsplit(' ').next().unwrap().to_string()
}

fn board(expr: &str) -> String {
    format!("(() => {{ const f = document.getElementById('board'); const d = f && f.contentDocument; return d && d.documentElement.dataset.ready === '1' ? ({expr}) : undefined; }})()")
}

pub(crate) const HOSTILE: &str =
    "<img src=x onerror=window.pwned=1><script>window.pwned=2</script>";

#[test]
fn the_site_follows_a_game_live_from_the_list_to_its_result() {
    let Some(chromium) =
        common::browser_ready("the_site_follows_a_game_live_from_the_list_to_its_result")
    else {
        return;
    };
    each_run_in("serve", "web_site", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        // Read-only, with its policy; nothing else served.
        let (status, headers, _) = http(&site, "GET", "/");
        assert!(status.contains("200"), "{status}");
        assert!(
            headers.contains("content-security-policy: default-src 'none'; script-src 'self';"),
            "{headers}"
        );
        let (status, ..) = http(&site, "POST", "/");
        assert!(status.contains("405"), "{status}");
        let (status, _, body) = http(&site, "GET", "/player/%3Cscript%3E");
        assert!(
            status.contains("404") && !body.contains('<'),
            "{status} {body}"
        );

        let mut browser = Browser::start(&chromium);
        browser.open(&site);
        assert_eq!(
            browser.eval("document.querySelector('#rows').textContent.trim()"),
            "No game yet."
        );
        browser.until(
            "document.getElementById('live-state').textContent === 'live'",
            "the list's stream open",
        );
        browser.eval("window.kept = 'this page'");

        // A game starts: its row appears, in play, in the page already open.
        let mut client = server.connect();
        let (game, first) = client.start("alice", "map=small seed=42 start=0 timeout=60");
        assert!(first);
        let row = format!("tr[data-game=\"{game}\"]");
        let state = browser.until(
            &format!("(document.querySelector('{row} .state') || {{}}).textContent"),
            "the game's row",
        );
        assert_eq!(state, "playing");
        assert_eq!(browser.eval("window.kept"), "this page", "no reload");
        assert!(browser
            .eval(&format!(
                "document.querySelector('{row} .players').textContent"
            ))
            .as_str()
            .unwrap()
            .contains("alice"));
        browser.shots("list", "true");
        assert_eq!(client.cmd(&format!("SEND_COMMENT {HOSTILE}")), "OK");

        // Its page: the board, live, no hand shown; it grows as moves are played.
        browser.open(&format!("{site}game/{game}"));
        let moves = board("d.querySelectorAll('#moves li').length");
        let start = browser.until(&format!("{} + 1", moves), "the board drawn");
        let start = start.as_i64().unwrap() - 1;
        assert_eq!(start, 0, "the client plays first");
        browser.eval("document.getElementById('board').contentWindow.kept = 'this board'");
        let hand = browser.eval(&board("d.querySelector('#seats .seat .hand').textContent"));
        assert!(
            hand.as_str()
                .unwrap()
                .contains("hidden while the game is played"),
            "{hand}"
        );
        let (tickets, code) = client.play("4");
        assert_eq!(code, 0, "{tickets}");
        let (kept, code) = client.play("5 1 1 0");
        assert_eq!((kept.as_str(), code), ("2", 0));
        browser.until(&format!("{moves} >= 2"), "the board showing the two moves");
        assert_eq!(
            browser.eval("document.getElementById('board').contentWindow.kept"),
            "this board",
            "the board grew without a reload"
        );
        assert_eq!(
            browser.eval(&board(
                "d.documentElement.dataset.step === d.getElementById('step-slider').max"
            )),
            true,
            "a watcher at the last step follows the game"
        );
        browser.shots("game-live", &board("true"));

        // The end: the result and the comments, the replay page of the record below.
        let (code, _) = client.play_to_the_end(false);
        assert!(code == 1 || code == -1);
        browser.until(
            "document.getElementById('state').textContent === 'finished'",
            "the game's end on its page",
        );
        // Each seat's result beside its player, as `/player/` says it: alice's as the
        // client was told.
        let result = browser.eval("document.getElementById('result').textContent.trim()");
        let shown = results_shown(&server, &game);
        assert_eq!(result, shown.as_str());
        let alice = if code == 1 { "alice won" } else { "alice lost" };
        assert!(shown.split("; ").any(|s| s == alice), "{shown}");
        let comment = browser.eval("document.querySelector('#comments li').textContent");
        assert_eq!(comment, format!("alice: {HOSTILE}"));
        assert_eq!(
            browser.eval("document.querySelectorAll('#comments img, #comments script').length"),
            0
        );
        assert_eq!(browser.eval("window.pwned === undefined"), true);
        browser.until(
            &board("!d.documentElement.dataset.live && !d.getElementById('banner').hidden"),
            "the replay page with its result",
        );
        browser.shots("game-finished", &board("true"));
        // The record's page tells nothing of the server's folders.
        let (status, headers, page) = http(&site, "GET", &format!("/game/{game}/board"));
        assert!(status.contains("200"), "{status}");
        assert!(headers.contains("script-src 'sha256-"), "{headers}");
        let results = server.results.display().to_string();
        assert!(!page.contains(&results), "the page names {results}");

        // The player's page: the game, its result for the player.
        browser.open(&format!("{site}player/alice"));
        let counts = browser.eval("document.getElementById('counts').textContent");
        assert!(counts.as_str().unwrap().starts_with("1 game"), "{counts}");
        browser.shots("player", "true");
        assert_eq!(browser.run(json!(["errors"])), json!([]), "console errors");
    });
}
