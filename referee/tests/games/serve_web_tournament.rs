//! The web site's tournaments and the organiser's forms (`referee serve --web`,
//! docs/server.md section 9) in headless Chromium, with real clients over TCP: a form
//! without the organiser's token (or posted from another site, or with no origin) is
//! refused with a page saying why and changes nothing; with it a tournament is created
//! and started, and a game between two waiting players starts; a tournament's name made
//! of HTML stays text; a tournament's standings change live when its game ends, with the
//! figures of its `leaderboard.csv`; a knockout's bracket shows who went on. The token is
//! never in the server's log. As root and as a user.
//!
//! With `REFEREE_WEB_SCREENSHOTS=DIR`, the pages are also shot at 1366x768 and 1920x1080.

use crate::common;
use crate::serve::{c_client, serve_command, Client, Server};
use crate::serve_web::{site_of, Browser, HOSTILE};

use common::users::{each_run_in, Who};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// `referee serve ARGS` on the test's store: its stdout, or a panic with its stderr.
/// ann (a test's own client, which asks a game only when the test says: its `WAIT_GAME`
/// line is returned to ask again) and bob (the C client `client`, which asks its next game
/// as soon as one ends) registered and waiting in the tournament `cup` of `server`.
pub(crate) fn ann_and_bob_join(
    who: Who,
    dir: &Path,
    server: &Server,
    client: &Path,
) -> (Client, String, Child) {
    let mut ann = server.connect();
    assert_eq!(ann.cmd("CLIENT_NAME ann"), "OK");
    let token = organise(who, dir, &["register", "ann"]);
    let wait = format!("WAIT_GAME TOURNAMENT cup token={token}");
    assert_eq!(ann.cmd(&wait), "OK");
    server.line_with("client ann: waits in tournament cup");
    let token = organise(who, dir, &["register", "bob"]);
    let bob = Command::new(client)
        .args([
            &server.port.to_string(),
            "bob",
            "0",
            &format!("cup token={token}"),
        ])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    server.line_with("client bob: waits in tournament cup");
    (ann, wait, bob)
}

pub(crate) fn organise(who: Who, dir: &Path, args: &[&str]) -> String {
    let out = serve_command(who, dir, args);
    assert!(
        out.status.success(),
        "serve {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A form posted by hand: `POST path` with `origin` (if any) and the url-encoded `body`;
/// (status line, body).
pub(crate) fn post(site: &str, path: &str, origin: Option<&str>, body: &str) -> (String, String) {
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    post_raw(site, path, &origin, body.as_bytes())
}

/// `POST path` with the extra header lines `headers` and the bytes `body`, as a hostile
/// client sends it; (status line, body of the answer). The server may close before the
/// whole body is sent (a form too long): what it answered is read all the same.
fn post_raw(site: &str, path: &str, headers: &str, body: &[u8]) -> (String, String) {
    let addr = site.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST {path} HTTP/1.0\r\nHost: {addr}\r\n{headers}Content-Type: \
         application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body));
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).to_string();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (
        head.lines().next().unwrap_or("").to_string(),
        body.to_string(),
    )
}

/// Submits the form `form` (a CSS selector) of the page with `fields` set (name, value)
/// by script, as a person types them. The page is marked not ready first: the page the
/// form leads to is the next one ready, even at the same address.
fn submit(browser: &mut Browser, form: &str, fields: &[(&str, &str)]) {
    let sets: String = fields
        .iter()
        .map(|(name, value)| {
            format!(
                "f.elements[{}].value = {};",
                serde_json::to_string(name).unwrap(),
                serde_json::to_string(value).unwrap()
            )
        })
        .collect();
    browser.eval(&format!(
        "(() => {{ const f = document.querySelector('{form}'); {sets} \
         for (const e of f.elements) {{ e.removeAttribute('pattern'); e.removeAttribute('maxlength'); }} \
         document.documentElement.dataset.ready = 'left'; \
         f.querySelector('button').click(); return true; }})()"
    ));
}

/// The page at `path` once the browser is there and it is ready.
fn arrived(browser: &mut Browser, path: &str) {
    browser.until(
        &format!(
            "location.pathname === {} && document.documentElement.dataset.ready === '1'",
            serde_json::to_string(path).unwrap()
        ),
        &format!("the page {path}"),
    );
}

/// The store's tournaments, as `referee serve tournament list` says them.
fn listed(who: Who, dir: &Path) -> String {
    organise(who, dir, &["tournament", "list"])
}

#[test]
fn the_organiser_s_forms_act_with_the_token_only_and_standings_follow_the_games() {
    let Some(chromium) = common::browser_ready(
        "the_organiser_s_forms_act_with_the_token_only_and_standings_follow_the_games",
    ) else {
        return;
    };
    each_run_in("serve", "web_tournament", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let token = organise(who, dir, &["token"]);
        assert_eq!(token.len(), 32, "{token}");
        let file = server.results.join("organiser.token");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "the token is its owner's only: {mode:o}");
        let origin = site.trim_end_matches('/');

        // By hand: no origin, another site's, a wrong token: refused, nothing created.
        let body = format!("token={token}&name=cup&format=league");
        for from in [None, Some("http://evil.example")] {
            let (status, page) = post(&site, "/organiser/tournament", from, &body);
            assert!(status.contains("403"), "{status} {page}");
            assert!(page.contains("nothing was changed"), "{page}");
        }
        let (status, page) = post(
            &site,
            "/organiser/tournament",
            Some(origin),
            "name=cup&format=league&token=00000000000000000000000000000000",
        );
        assert!(status.contains("403"), "{status}");
        assert!(page.contains("referee serve token"), "{page}");
        assert_eq!(listed(who, dir), "", "nothing created");

        // In the browser: the form without the token is refused with a clear page.
        let mut browser = Browser::start(&chromium);
        browser.open(&format!("{site}organiser"));
        browser.shots("organiser", "true");
        submit(
            &mut browser,
            "#new-tournament",
            &[
                ("name", "cup"),
                ("map", "small"),
                ("token", "not the token"),
            ],
        );
        arrived(&mut browser, "/organiser/tournament");
        let why = browser.eval("document.getElementById('why').textContent");
        assert!(
            why.as_str()
                .unwrap()
                .contains("has not the organiser's token"),
            "{why}"
        );
        browser.shots("refused", "true");
        assert_eq!(listed(who, dir), "", "nothing created");

        // A name made of HTML, with the token: refused for its name, shown as text.
        browser.open(&format!("{site}organiser"));
        submit(
            &mut browser,
            "#new-tournament",
            &[("name", HOSTILE), ("token", &token)],
        );
        arrived(&mut browser, "/organiser/tournament");
        let why = browser.eval("document.getElementById('why').textContent");
        assert!(why.as_str().unwrap().contains(HOSTILE), "{why}");
        assert_eq!(
            browser.eval("document.querySelectorAll('#why img, #why script').length"),
            0
        );
        assert_eq!(browser.eval("window.pwned === undefined"), true);
        assert_eq!(listed(who, dir), "", "nothing created");

        // With the token: created, open, on its page.
        browser.open(&format!("{site}organiser"));
        submit(
            &mut browser,
            "#new-tournament",
            &[
                ("name", "cup"),
                ("format", "league"),
                ("map", "small"),
                ("timeout", "60"),
                ("token", &token),
            ],
        );
        arrived(&mut browser, "/tournament/cup");
        assert_eq!(
            browser.eval("document.getElementById('state').textContent"),
            "open"
        );
        assert!(listed(who, dir).starts_with("cup league open"));

        // ann is this test's own client, which moves only when told (the page is seen
        // before the game can end); bob the C client.
        let Some(client) = c_client(dir) else { return };
        let (mut ann, _, bob) = ann_and_bob_join(who, dir, &server, &client);
        browser.open(&format!("{site}tournament/cup"));
        assert_eq!(
            browser.eval("[...document.querySelectorAll('#members .member')].map(a => a.textContent).join(',')"),
            "ann,bob"
        );
        // Started from its page without the token: refused, still open.
        let (status, _) = post(&site, "/tournament/cup/start", Some(origin), "token=");
        assert!(status.contains("403"), "{status}");
        assert!(listed(who, dir).starts_with("cup league open"));
        browser.shots("tournament-open", "true");
        submit(&mut browser, "#start", &[("token", &token)]);
        arrived(&mut browser, "/tournament/cup");
        assert_eq!(
            browser.eval("document.querySelector('#standings .none') !== null"),
            true,
            "no game counted when the page was made"
        );
        browser.eval("window.kept = 'this page'");

        // Its game is played: the standings follow without a reload.
        ann.next_tournament_game();
        browser.until(
            "document.querySelector('#standings table') !== null && document.getElementById('state').textContent === 'finished'",
            "the standings after the game",
        );
        assert_eq!(browser.eval("window.kept"), "this page", "no reload");
        let mut bob = bob;
        assert!(bob.wait().unwrap().success());
        drop(ann);
        // The page's figures are leaderboard.csv's.
        let csv = std::fs::read_to_string(server.results.join("tournaments/cup/leaderboard.csv"))
            .unwrap();
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        let shown = browser.eval(
            "[...document.querySelectorAll('#standings tbody tr')].map(r => [...r.cells].map(c => c.textContent))",
        );
        let shown: Vec<Vec<String>> = serde_json::from_value(shown).unwrap();
        assert_eq!(shown.len(), 2, "{shown:?}");
        for (row, cells) in rows.iter().zip(&shown) {
            for column in [
                "champion",
                "points",
                "mean_points",
                "mean_points_low",
                "mean_points_high",
                "p_ahead_of_next",
                "rating",
            ] {
                let c = head.iter().position(|h| *h == column).unwrap();
                assert_eq!(cells[c], row[c], "{column}: {cells:?} {row:?}");
            }
        }
        assert_eq!(
            browser.eval("document.querySelector('#winner a').textContent"),
            rows[0][head.iter().position(|h| *h == "champion").unwrap()]
        );
        browser.shots("tournament-finished", "true");

        // A game between two players waiting for a free game, started by the form.
        let mut waiting = Vec::new();
        for name in ["cat", "dan"] {
            let mut c = server.connect();
            assert_eq!(c.cmd(&format!("CLIENT_NAME {name}")), "OK");
            // Tables nobody else asks: they wait until the organiser seats them.
            let seats = if name == "cat" { 3 } else { 4 };
            assert_eq!(
                c.cmd(&format!("WAIT_GAME seats={seats} map=small timeout=60")),
                "OK"
            );
            server.line_with(&format!("client {name}: waits for a free game"));
            waiting.push(c);
        }
        browser.open(&format!("{site}organiser"));
        assert_eq!(
            browser.eval("document.querySelectorAll('#new-game input[name=player]').length"),
            2
        );
        browser.eval("(() => { for (const b of document.querySelectorAll('#new-game input[name=player]')) b.checked = true; return true; })()");
        let (status, _) = post(
            &site,
            "/organiser/game",
            Some(origin),
            "player=cat&player=dan",
        );
        assert!(status.contains("403"), "without the token: {status}");
        submit(&mut browser, "#new-game", &[("token", &token)]);
        arrived(&mut browser, "/");
        let game = loop {
            match waiting[0].must() {
                m if m == "NOT_READY" => continue,
                game => break game,
            }
        };
        browser.until(
            &format!("(document.querySelector('tr[data-game=\"{game}\"] .state') || {{}}).textContent === 'playing'"),
            "the organiser's game in the list",
        );
        let players = browser.eval(&format!(
            "document.querySelector('tr[data-game=\"{game}\"] .players').textContent"
        ));
        assert_eq!(
            players.as_str().unwrap().split(", ").count(),
            2,
            "{players}"
        );
        drop(waiting);
        server.line_with(&format!("game {game}: "));

        // No error but the two refusals above (the browser notes their status).
        let errors = browser.run(serde_json::json!(["errors"]));
        let errors: Vec<String> = serde_json::from_value(errors).unwrap();
        let refusals = ["403 (Forbidden)", "400 (Bad Request)"];
        assert_eq!(errors.len(), refusals.len(), "{errors:?}");
        for (error, refusal) in errors.iter().zip(refusals) {
            assert!(
                error.contains(refusal) && error.ends_with("/organiser/tournament)"),
                "{errors:?}"
            );
        }
        assert!(
            !server.lines().iter().any(|l| l.contains(&token)),
            "the token is never in the log"
        );
    });
}

#[test]
fn a_knockout_s_bracket_shows_who_went_on() {
    let Some(chromium) = common::browser_ready("a_knockout_s_bracket_shows_who_went_on") else {
        return;
    };
    each_run_in("serve", "web_bracket", |who, dir| {
        let Some(client) = c_client(dir) else { return };
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        organise(
            who,
            dir,
            &[
                "tournament",
                "new",
                "cup",
                "--format",
                "single-elimination",
                "--map",
                "small",
                "--timeout",
                "30",
            ],
        );
        let mut children = Vec::new();
        for name in ["ann", "bob", "cid"] {
            let token = organise(who, dir, &["register", name]);
            let child = Command::new(&client)
                .args([
                    &server.port.to_string(),
                    name,
                    "0",
                    &format!("cup token={token}"),
                ])
                .stdout(Stdio::null())
                .spawn()
                .unwrap();
            children.push(child);
            server.line_with(&format!("client {name}: waits in tournament cup"));
        }
        organise(who, dir, &["tournament", "start", "cup"]);
        for mut child in children {
            assert!(child.wait().unwrap().success());
        }
        server.line_with("tournament cup: over");
        let winner = listed(who, dir);
        let winner = winner
            .split(" winner=")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();

        let mut browser = Browser::start(&chromium);
        browser.open(&format!("{site}tournaments"));
        assert_eq!(
            browser.eval("document.querySelector('tr[data-tournament=cup] .state').textContent"),
            "finished"
        );
        browser.shots("tournaments", "true");
        browser.open(&format!("{site}tournament/cup"));
        let phases = browser.eval(
            "[...document.querySelectorAll('#bracket .phase')].map(p => p.dataset.phase).join(',')",
        );
        assert_eq!(phases, "knockout 1,final");
        // Three players: one game and one who goes on without a game, then the final.
        let first = "#bracket .phase[data-phase='knockout 1']";
        assert_eq!(
            browser.eval(&format!(
                "document.querySelectorAll(\"{first} .meeting:not(.unplayed) li\").length"
            )),
            2
        );
        let on = browser.eval(&format!(
            "[...document.querySelectorAll(\"{first} li.went-on\")].map(l => l.querySelector('a').textContent).sort().join(',')"
        ));
        let out = browser.eval(&format!(
            "[...document.querySelectorAll(\"{first} li.out\")].map(l => l.textContent).join(',')"
        ));
        assert!(out.as_str().unwrap().contains("out"), "{out}");
        let finalists = browser.eval(
            "[...document.querySelectorAll(\"#bracket .phase[data-phase='final'] li a\")].map(a => a.textContent).sort().join(',')",
        );
        assert_eq!(on, finalists, "who went on plays the final");
        let crowned = browser.eval(
            "[...document.querySelectorAll(\"#bracket .phase[data-phase='final'] li.went-on\")].map(l => l.textContent)",
        );
        let crowned: Vec<String> = serde_json::from_value(crowned).unwrap();
        assert_eq!(crowned.len(), 1, "{crowned:?}");
        assert!(
            crowned[0].starts_with(winner) && crowned[0].contains("winner"),
            "{crowned:?} {winner}"
        );
        browser.shots("bracket", "true");
        assert_eq!(
            browser.run(serde_json::json!(["errors"])),
            serde_json::json!([])
        );
    });
}

#[test]
fn hostile_forms_are_refused_and_change_nothing() {
    each_run_in("serve", "web_forms_hostile", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let token = organise(who, dir, &["token"]);
        let origin = site.trim_end_matches('/');
        let create = format!("token={token}&name=cup&format=league");
        let refused = |(status, page): (String, String), code: &str, why: &str| {
            assert!(status.contains(code), "{status} {page}");
            assert!(page.contains(why), "{why:?} not in {page}");
            assert!(page.contains("nothing was"), "{page}");
            assert_eq!(listed(who, dir), "", "nothing created");
        };

        // Another site's page, a sandboxed one (`null`), the site's host over another
        // scheme, no origin: the token does not make them the organiser's.
        for from in [
            "http://evil.example",
            "null",
            &origin.replace("http:", "https:"),
        ] {
            let answer = post(&site, "/organiser/tournament", Some(from), &create);
            refused(answer, "403", "not from this site");
        }
        refused(
            post(&site, "/organiser/tournament", None, &create),
            "403",
            "names no origin",
        );
        // The token in the address (kept in histories and logs) is not taken.
        refused(
            post(
                &site,
                &format!("/organiser/tournament?token={token}"),
                Some(origin),
                "name=cup&format=league",
            ),
            "403",
            "in the address",
        );
        // A token one digit off, or the token and more.
        let last = if token.ends_with('0') { "1" } else { "0" };
        let near = format!("{}{last}", &token[..31]);
        for wrong in [near, format!("{token}0")] {
            let body = format!("token={wrong}&name=cup&format=league");
            let answer = post(&site, "/organiser/tournament", Some(origin), &body);
            refused(answer, "403", "has not the organiser");
        }
        // A form longer than a form: refused, whether the site or its door stops it.
        let mut long = create.clone().into_bytes();
        long.extend(b"&pad=");
        long.resize(20 * 1024, b'a');
        let header = format!("Origin: {origin}\r\n");
        refused(
            post_raw(&site, "/organiser/tournament", &header, &long),
            "413",
            "more than 8192 bytes",
        );
        long.resize(1024 * 1024, b'a');
        let (status, _) = post_raw(&site, "/organiser/tournament", &header, &long);
        assert!(!status.contains("303"), "{status}");
        assert_eq!(listed(who, dir), "", "nothing created");
        // Names that would leave the tournaments' folder, or be a page of HTML.
        for name in ["..", "../escape", "a/b", "<b>cup</b>", "cup%00"] {
            let body = format!(
                "token={token}&format=league&name={}",
                form_urlencoded::byte_serialize(name.as_bytes()).collect::<String>()
            );
            let (status, page) = post(&site, "/organiser/tournament", Some(origin), &body);
            assert!(status.contains("400"), "{name}: {status}");
            assert!(page.contains("cannot be a tournament"), "{name}: {page}");
            assert!(!page.contains("<b>cup"), "escaped: {page}");
        }
        assert_eq!(listed(who, dir), "", "nothing created");
        for path in [
            "/tournament/../start",
            "/tournament/..%2Fx/start",
            "/tournament/nope/start",
        ] {
            let (status, _) = post(&site, path, Some(origin), &format!("token={token}"));
            assert!(
                status.contains("404") || status.contains("400"),
                "{path}: {status}"
            );
        }
        assert!(!server.results.join("tournaments/x").exists());

        // The organiser's form, then the same bytes again: made once, the replay refused.
        let (status, _) = post(&site, "/organiser/tournament", Some(origin), &create);
        assert!(status.contains("303"), "{status}");
        let (status, page) = post(&site, "/organiser/tournament", Some(origin), &create);
        assert!(status.contains("400"), "the replay: {status}");
        assert!(page.contains("Not created"), "{page}");
        assert_eq!(listed(who, dir).lines().count(), 1);
        // A token made again: the old one acts no more.
        organise(who, dir, &["token", "--new"]);
        let body = format!("token={token}&name=cup2&format=league");
        let (status, _) = post(&site, "/organiser/tournament", Some(origin), &body);
        assert!(status.contains("403"), "the old token: {status}");
        assert_eq!(listed(who, dir).lines().count(), 1);
        assert!(
            !server.lines().iter().any(|l| l.contains(&token)),
            "the token is never in the log"
        );
    });
}
