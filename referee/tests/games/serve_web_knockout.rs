//! A knockout's bracket on the game server's site follows its meetings as they end
//! (`referee serve --web`, docs/server.md sections 6 and 9), in headless Chromium: a final
//! of best of three between this test's own client (which asks each game when the test
//! says) and the C client, its page open from the start, never reloaded. After the first
//! game the bracket shows it finished and nobody gone on (one game does not decide a best
//! of three); once the meeting is decided, its games all in the final, the winner marked,
//! the tournament's winner. As root and as a user.
//!
//! Skipped, with a message, when `chromium`, `node` or `cc` is missing, except under
//! `CI=true`.

use crate::common;
use crate::serve::{c_client, Server};
use crate::serve_web::{site_of, Browser};
use crate::serve_web_tournament::{ann_and_bob_join, organise};

use common::users::each_run_in;
use serde_json::{json, Value};

/// The final's phase on the page.
const FINAL: &str = "#bracket .phase[data-phase='final']";

#[test]
fn a_best_of_three_final_s_bracket_follows_its_games_live() {
    let Some(chromium) =
        common::browser_ready("a_best_of_three_final_s_bracket_follows_its_games_live")
    else {
        return;
    };
    each_run_in("serve", "web_knockout", |who, dir| {
        let Some(client) = c_client(dir) else { return };
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let new = [
            "tournament",
            "new",
            "cup",
            "--format",
            "single-elimination",
            "--best-of",
            "3",
            "--map",
            "small",
            "--timeout",
            "60",
        ];
        assert!(organise(who, dir, &new).contains("tournament cup created"));
        let (mut ann, wait, mut bob) = ann_and_bob_join(who, dir, &server, &client);

        let mut browser = Browser::start(&chromium);
        browser.open(&format!("{site}tournament/cup"));
        browser.until(
            "document.getElementById('live-state').textContent === 'live'",
            "the page following the server",
        );
        browser.eval("window.kept = 'this page'");
        let plan = browser
            .eval("document.body.textContent.includes('games a knockout meeting (best of)')");
        assert_eq!(plan, true, "the plan says the best of");
        assert!(organise(who, dir, &["tournament", "start", "cup"]).contains("starts with"));

        // The first game: shown finished in the final, nobody gone on yet.
        let mut games = vec![ann.next_tournament_game()];
        browser.until(
            &format!(
                "document.querySelectorAll(\"{FINAL} .meeting.finished\").length === 1 && \
                 document.querySelector(\"{FINAL} .meeting.finished a.game\").textContent === {}",
                serde_json::to_string(&games[0]).unwrap()
            ),
            "the final's first game, finished",
        );
        assert_eq!(
            browser.eval(&format!(
                "document.querySelectorAll(\"{FINAL} li.went-on\").length"
            )),
            0,
            "one game does not decide a best of three"
        );
        assert_eq!(
            browser.eval("document.getElementById('state').textContent"),
            "playing"
        );
        browser.shots("knockout-after-one", "true");

        // ann asks its next games until the meeting is decided (2 or 3 games).
        loop {
            let answer = ann.cmd(&wait);
            if answer != "OK" {
                assert!(answer.contains("is over"), "{answer}");
                break;
            }
            match ann.after_not_ready() {
                over if over.starts_with("The tournament 'cup' is over") => break,
                game => games.push(ann.play_tournament_game(game)),
            }
        }
        let meeting = server.line_with("tournament cup: final: meeting of ");
        assert!(
            meeting.contains(&format!("meeting of {} game(s)", games.len())),
            "{meeting}: {games:?}"
        );
        assert!((2..=3).contains(&games.len()), "{games:?}");
        server.line_with("tournament cup: over");
        let listed = organise(who, dir, &["tournament", "list"]);
        let winner = listed
            .split(" winner=")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(
            meeting.contains(&format!(": {winner} ")),
            "the meeting's first wins: {meeting} / {listed}"
        );
        browser.until(
            &format!(
                "document.getElementById('state').textContent === 'finished' && \
                 document.querySelectorAll(\"{FINAL} .meeting.finished\").length === {}",
                games.len()
            ),
            "every game of the meeting in the final",
        );
        let crowned = browser.eval(&format!(
            "[...new Set([...document.querySelectorAll(\"{FINAL} li.went-on\")].map(l => l.textContent))]"
        ));
        let crowned: Vec<String> = serde_json::from_value(crowned).unwrap();
        assert!(
            !crowned.is_empty()
                && crowned
                    .iter()
                    .all(|c| c.starts_with(winner) && c.contains("winner")),
            "{crowned:?} {winner}"
        );
        assert_eq!(browser.eval("window.kept"), "this page", "no reload");
        browser.shots("knockout-finished", "true");
        drop(ann);
        assert!(bob.wait().unwrap().success());
        assert_eq!(browser.run(json!(["errors"])), Value::Array(Vec::new()));
    });
}
