//! Tournaments of `referee serve` (docs/server.md, "Tournaments"): created and started by
//! the organiser's commands on the store, joined by C clients framed as the subject's
//! library (`WAIT_GAME TOURNAMENT`), played over TCP by the real binary: a small tournament
//! of each format, its games recorded and replayed, its standings in the store and the
//! results folder; a player that leaves loses its remaining games by a fault and the
//! tournament ends all the same. As root and as a user.

use crate::common;
use crate::serve::{record, replays, serve_command, Client, Server, WAIT};

use common::users::{each_run_in, Who};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The C client built into `dir`, or `None` (skipped) without a C compiler.
fn c_client(dir: &Path) -> Option<PathBuf> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/serve/t2r_client.c");
    let client = dir.join("t2r_client");
    match Command::new("cc")
        .arg("-o")
        .arg(&client)
        .arg(&source)
        .status()
    {
        Ok(s) if s.success() => Some(client),
        _ => {
            common::skip_missing("serve tournaments: the C client needs cc (apt-get install gcc)");
            None
        }
    }
}

/// `referee serve` run as `who` with `args`; its stdout, or a panic with its stderr.
pub(crate) fn organise(who: Who, dir: &Path, args: &[&str]) -> String {
    let out = serve_command(who, dir, args);
    assert!(
        out.status.success(),
        "serve {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The token of `name`, registered by the organiser.
pub(crate) fn register(who: Who, dir: &Path, name: &str) -> String {
    organise(who, dir, &["register", name]).trim().to_string()
}

/// A raw client named `name` (with `token`) asking to join tournament `cup`: the answer.
fn join(server: &Server, name: &str, token: Option<&str>) -> (Client, String) {
    let mut client = server.connect();
    assert_eq!(client.cmd(&format!("CLIENT_NAME {name}")), "OK");
    let token = token.map_or(String::new(), |t| format!(" token={t}"));
    let answer = client.cmd(&format!("WAIT_GAME TOURNAMENT cup{token}"));
    (client, answer)
}

/// A tournament's outcome as the clients and the store saw it.
struct Played {
    server: Server,
    /// Each client's stdout (`END <code> <game>` a game, `OVER <message>`), by name.
    outputs: Vec<(String, String)>,
    /// `referee serve tournament list`'s line of the tournament.
    listed: String,
}

/// Creates tournament `cup` with `flags` (small board), joins it with a C client per name
/// of `players` (in this order; `(name, Some(n))` leaves after n games), starts it and
/// waits until every client is done.
fn play(who: Who, dir: &Path, flags: &[&str], players: &[(&str, Option<u32>)]) -> Option<Played> {
    let client = c_client(dir)?;
    let server = Server::start(who, dir);
    let mut new = vec![
        "tournament",
        "new",
        "cup",
        "--map",
        "small",
        "--timeout",
        "30",
    ];
    new.extend(flags);
    assert!(organise(who, dir, &new).contains("tournament cup created"));
    let mut children: Vec<(String, Child)> = Vec::new();
    for (name, leave) in players {
        let token = register(who, dir, name);
        let mut cmd = Command::new(&client);
        cmd.args([
            &server.port.to_string(),
            *name,
            "0",
            &format!("cup token={token}"),
        ]);
        if let Some(n) = leave {
            cmd.arg(n.to_string());
        }
        let child = cmd.stdout(Stdio::piped()).spawn().unwrap();
        children.push((name.to_string(), child));
        server.line_with(&format!("client {name}: waits in tournament cup"));
    }
    assert!(organise(who, dir, &["tournament", "start", "cup"]).contains("starts with"));
    let outputs = children
        .into_iter()
        .map(|(name, child)| {
            let out = child.wait_with_output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
            assert!(out.status.success(), "{name}: {stdout}");
            (name, stdout)
        })
        .collect();
    server.line_with("tournament cup: over");
    let listed = organise(who, dir, &["tournament", "list"]);
    Some(Played {
        server,
        outputs,
        listed: listed.trim().to_string(),
    })
}

impl Played {
    /// The games the clients played (each once), every one checked to replay.
    fn games(&self) -> Vec<String> {
        let mut games: Vec<String> = self
            .outputs
            .iter()
            .flat_map(|(_, out)| out.lines())
            .filter_map(|l| l.strip_prefix("END "))
            .map(|l| l.split(' ').nth(1).unwrap().to_string())
            .collect();
        games.sort();
        games.dedup();
        for game in &games {
            replays(&self.server, game);
        }
        games
    }

    /// The winner the store names.
    fn winner(&self) -> String {
        let winner = self.listed.split(" winner=").nth(1).unwrap();
        winner.split(' ').next().unwrap().to_string()
    }

    /// `leaderboard.csv` of the tournament, its rows (champion, points, faults of crash).
    fn leaderboard(&self) -> Vec<(String, u64, u64)> {
        let path = self.server.results.join("tournaments/cup/leaderboard.csv");
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
        lines
            .map(|l| {
                let cells: Vec<&str> = l.split(',').collect();
                (
                    cells[col("champion")].to_string(),
                    cells[col("points")].parse().unwrap(),
                    cells[col("faults_crash")].parse().unwrap(),
                )
            })
            .collect()
    }
}

#[test]
fn a_league_over_tcp_plays_every_pair_and_ranks_by_the_referee_s_standings() {
    each_run_in("serve_tournament", "league", |who, dir| {
        let players = [("ann", None), ("bob", None), ("cid", None)];
        let Some(played) = play(who, dir, &["--format", "league"], &players) else {
            return;
        };
        assert_eq!(
            played.games().len(),
            3,
            "every pair once: {:?}",
            played.outputs
        );
        for (name, out) in &played.outputs {
            assert_eq!(out.matches("END ").count(), 2, "{name}: {out}");
            assert!(
                out.contains("OVER The tournament 'cup' is over"),
                "{name}: {out}"
            );
        }
        assert!(
            played
                .listed
                .starts_with("cup league finished [ann,bob,cid]"),
            "{}",
            played.listed
        );
        let board = played.leaderboard();
        assert_eq!(board.len(), 3);
        let winner = board.iter().find(|l| l.0 == played.winner()).unwrap();
        assert_eq!(
            winner.1, board[0].1,
            "a leaderboard's first wins: {board:?}"
        );
        assert!(board[0].1 >= board[2].1);
        // The store's standings are the leaderboard's, by points; among players tied, the
        // winner (the better seed of the draw) first.
        let stored = played.listed.split(" standings=").nth(1).unwrap();
        let mut from_board: Vec<String> =
            board.iter().map(|(n, p, _)| format!("{n}:{p}")).collect();
        let from_store: Vec<&str> = stored
            .split(',')
            .map(|e| e.split_once('.').unwrap().1)
            .collect();
        let points = |entry: &str| entry.rsplit_once(':').unwrap().1.parse::<u64>().unwrap();
        assert!(
            from_store.windows(2).all(|w| points(w[0]) >= points(w[1])),
            "{}",
            played.listed
        );
        assert!(
            from_store[0].starts_with(&format!("{}:", played.winner())),
            "{}",
            played.listed
        );
        let mut sorted_store = from_store.clone();
        sorted_store.sort();
        from_board.sort();
        assert_eq!(sorted_store, from_board, "{}", played.listed);
    });
}

#[test]
fn a_single_elimination_over_tcp_ends_with_a_final() {
    each_run_in("serve_tournament", "single_elimination", |who, dir| {
        let players = [("p1", None), ("p2", None), ("p3", None), ("p4", None)];
        let flags = ["--format", "single-elimination"];
        let Some(played) = play(who, dir, &flags, &players) else {
            return;
        };
        // Two semi-finals, one final: the winner played two games, the others fewer.
        assert_eq!(played.games().len(), 3, "{:?}", played.outputs);
        let winner = played.winner();
        let games_of = |name: &str| {
            let out = &played.outputs.iter().find(|(n, _)| n == name).unwrap().1;
            out.matches("END ").count()
        };
        assert_eq!(games_of(&winner), 2, "{:?}", played.outputs);
        let finalists: Vec<&str> = players
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| games_of(n) == 2)
            .collect();
        assert_eq!(finalists.len(), 2, "{:?}", played.outputs);
        // Each finalist won its semi-final (the top one of a game goes on).
        for name in finalists {
            let out = &played.outputs.iter().find(|(n, _)| n == name).unwrap().1;
            assert!(out.starts_with("END 1 "), "{name} went on: {out}");
        }
        let out = &played.outputs.iter().find(|(n, _)| *n == winner).unwrap().1;
        assert!(out.contains(&format!("{winner} wins")), "{out}");
    });
}

#[test]
fn pools_then_knockout_over_tcp_send_the_pools_firsts_to_the_final() {
    each_run_in("serve_tournament", "pools_knockout", |who, dir| {
        let players = [("a1", None), ("b1", None), ("a2", None), ("b2", None)];
        let flags = [
            "--format",
            "pools-knockout",
            "--pool",
            "2",
            "--qualify",
            "1",
        ];
        let Some(played) = play(who, dir, &flags, &players) else {
            return;
        };
        // Two pools of two (the seeding drawn), one game each, then their firsts' final.
        assert_eq!(played.games().len(), 3, "{:?}", played.outputs);
        let first_games: Vec<String> = played
            .outputs
            .iter()
            .map(|(_, out)| {
                out.lines()
                    .next()
                    .unwrap()
                    .split(' ')
                    .nth(2)
                    .unwrap()
                    .into()
            })
            .collect();
        for game in &first_games {
            let players = first_games.iter().filter(|g| *g == game).count();
            assert_eq!(players, 2, "each pool game has two: {first_games:?}");
        }
        assert!(played.listed.contains("finished"), "{}", played.listed);
        assert_eq!(played.leaderboard().len(), 4);
    });
}

#[test]
fn a_player_that_leaves_loses_its_remaining_games_and_the_league_ends() {
    each_run_in("serve_tournament", "leaver", |who, dir| {
        // ann plays its first game, then leaves: its second game is lost by a fault,
        // recorded; the others play theirs.
        let players = [("ann", Some(1)), ("bob", None), ("cid", None)];
        let Some(played) = play(who, dir, &["--format", "league"], &players) else {
            return;
        };
        let ann = &played.outputs[0].1;
        assert_eq!(ann.matches("END ").count(), 1, "{ann}");
        assert!(!ann.contains("OVER"), "{ann}");
        let games = played.games();
        // The game ann missed was played by bob or cid alone against ann's closed
        // connection: a game of one of them only, not ann's.
        let games_of = |out: &str| -> Vec<String> {
            out.lines()
                .filter_map(|l| l.strip_prefix("END "))
                .map(|l| l.split(' ').nth(1).unwrap().to_string())
                .collect()
        };
        let (bob, cid) = (
            games_of(&played.outputs[1].1),
            games_of(&played.outputs[2].1),
        );
        let missed: Vec<&String> = bob
            .iter()
            .chain(&cid)
            .filter(|g| !(ann.contains(g.as_str()) || (bob.contains(g) && cid.contains(g))))
            .collect();
        assert_eq!(
            missed.len(),
            1,
            "the game against the leaver: {:?}",
            played.outputs
        );
        let missed = missed[0].as_str();
        assert!(games.contains(&missed.to_string()));
        let record = record(&played.server, missed);
        let seats = record["seats"].as_array().unwrap();
        let seat = seats.iter().position(|s| s["name"] == "ann").unwrap();
        let fault = record["faults"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["seat"] == seat)
            .unwrap_or_else(|| panic!("no fault of the leaver: {record}"));
        assert_eq!(fault["kind"], "crash", "{fault}");
        assert!(
            played.listed.contains("cup league finished"),
            "{}",
            played.listed
        );
        let board = played.leaderboard();
        let ann_line = board.iter().find(|l| l.0 == "ann").unwrap();
        assert_eq!(ann_line.2, 1, "one crash fault counted: {board:?}");
        assert_ne!(played.winner(), "ann");
    });
}

#[test]
fn tournament_commands_name_what_to_fix() {
    each_run_in("serve_tournament", "commands", |who, dir| {
        let refused = |args: &[&str], says: &str| {
            let out = serve_command(who, dir, args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{args:?} succeeds");
            assert!(stderr.contains(says), "{args:?}: {stderr}");
        };
        refused(&["tournament", "new", "t", "--format", "swiss"], "league");
        refused(&["tournament", "new", "t t", "--format", "league"], "name");
        refused(
            &[
                "tournament",
                "new",
                "t",
                "--format",
                "league",
                "--seats",
                "9",
            ],
            "--seats",
        );
        refused(
            &[
                "tournament",
                "new",
                "t",
                "--format",
                "league",
                "--map",
                "/etc",
            ],
            "--map",
        );
        organise(who, dir, &["tournament", "new", "t", "--format", "league"]);
        refused(
            &["tournament", "new", "t", "--format", "league"],
            "exists already",
        );
        refused(&["tournament", "start", "t"], "needs 2");
        // A plan too big is refused before any is built, naming its size and the fix.
        let big = [
            "tournament",
            "new",
            "big",
            "--format",
            "league",
            "--seats",
            "5",
            "--max-players",
            "150",
        ];
        refused(&big, "591600030 games");
        refused(&big, "--max-players");
        refused(
            &[
                "tournament",
                "new",
                "t2",
                "--format",
                "league",
                "--max-players",
                "1",
            ],
            "--max-players 1",
        );
        refused(&["tournament", "remove", "t", "nobody"], "not a member");
        refused(&["tournament", "start", "nope"], "no tournament nope");
    });
}

#[test]
fn only_registered_names_join_and_the_organiser_bounds_the_members() {
    each_run_in("serve_tournament", "members", |who, dir| {
        let server = Server::start(who, dir);
        organise(
            who,
            dir,
            &[
                "tournament",
                "new",
                "cup",
                "--format",
                "single-elimination",
                "--max-players",
                "2",
            ],
        );
        let (ann, bob, cid) = (
            register(who, dir, "ann"),
            register(who, dir, "bob"),
            register(who, dir, "cid"),
        );
        // A sybil: a name nobody registered.
        let (_, sybil) = join(&server, "sybil1", None);
        assert!(sybil.contains("registered names only"), "{sybil}");
        // A stranger under a member's name, without its token.
        let (_, stranger) = join(&server, "ann", None);
        assert!(stranger.contains("its token"), "{stranger}");
        let (_a, joined) = join(&server, "ann", Some(&ann));
        assert_eq!(joined, "OK");
        let (_b, joined) = join(&server, "bob", Some(&bob));
        assert_eq!(joined, "OK");
        let (_, full) = join(&server, "cid", Some(&cid));
        assert!(full.contains("is full (2 players)"), "{full}");
        let listed = organise(who, dir, &["tournament", "list"]);
        assert!(listed.contains("[ann,bob]"), "{listed}");
    });
}

#[test]
fn a_tournament_whose_every_game_faulted_has_no_winner() {
    each_run_in("serve_tournament", "no_winner", |who, dir| {
        let server = Server::start(who, dir);
        organise(
            who,
            dir,
            &[
                "tournament",
                "new",
                "cup",
                "--format",
                "league",
                "--rounds",
                "2",
            ],
        );
        // Both join, then leave: each game is lost by both seats' faults.
        for name in ["zed", "0first"] {
            let token = register(who, dir, name);
            let (client, joined) = join(&server, name, Some(&token));
            assert_eq!(joined, "OK");
            server.line_with(&format!("client {name}: waits in tournament cup"));
            drop(client);
        }
        organise(who, dir, &["tournament", "start", "cup"]);
        server.line_with("tournament cup: over");
        let listed = organise(who, dir, &["tournament", "list"]);
        assert!(listed.contains("finished"), "{listed}");
        assert!(
            listed.contains(" winner= "),
            "nobody won, not the first by name: {listed}"
        );
        assert!(
            listed.contains(" seed="),
            "the seeding's draw is recorded: {listed}"
        );
    });
}

/// Red team 9, finding 5: a member's seat is its token's. A stranger under its name is
/// refused; the member's new connection (its first one closed) replaces the old wait,
/// which is told and ends, so that one thread alone waits for the member (two sent every
/// `NOT_READY` twice and both served the connection).
#[test]
fn a_member_s_seat_is_its_token_s_and_its_new_connection_replaces_the_old() {
    each_run_in("serve_tournament", "owner", |who, dir| {
        let server = Server::start(who, dir);
        organise(
            who,
            dir,
            &["tournament", "new", "cup", "--format", "league"],
        );
        let (ann, bob) = (register(who, dir, "ann"), register(who, dir, "bob"));
        let (_a, joined) = join(&server, "ann", Some(&ann));
        assert_eq!(joined, "OK");
        let (mut first, joined) = join(&server, "bob", Some(&bob));
        assert_eq!(joined, "OK");
        server.line_with("client bob: waits in tournament cup");
        // bob's program stops sending (its end of the connection closed for writing): its
        // name is free, its wait still there.
        first.stream.shutdown(std::net::Shutdown::Write).unwrap();
        let (_, stranger) = join(&server, "bob", None);
        assert!(stranger.contains("its token"), "{stranger}");
        let (_, forged) = join(&server, "bob", Some("0123456789abcdef0123456789abcdef"));
        assert!(forged.contains("not the one of 'bob'"), "{forged}");
        let (_second, joined) = join(&server, "bob", Some(&bob));
        assert_eq!(joined, "OK");
        // The old wait is told, closed, and its session ends.
        let told = first.must();
        assert!(told.contains("A new connection of 'bob'"), "{told}");
        assert_eq!(first.recv(), None, "closed");
        server.line_with("client bob: a newer connection waits in tournament cup");
        server.line_with("client bob: disconnected");
        let lines = server.lines_with("client bob: ");
        let waits = lines
            .iter()
            .filter(|l| l.ends_with("bob: waits in tournament cup"))
            .count();
        assert_eq!(waits, 2, "{lines:?}");
    });
}

/// A league of two rounds on the small board, `timeout` seconds a turn, started with ann
/// and bob joined: the server, and each one's connection and token.
fn league_of_two(who: Who, dir: &Path, timeout: &str) -> (Server, [(Client, String); 2]) {
    let server = Server::start(who, dir);
    let new = [
        "tournament",
        "new",
        "cup",
        "--format",
        "league",
        "--rounds",
        "2",
        "--map",
        "small",
        "--timeout",
        timeout,
    ];
    organise(who, dir, &new);
    let joined = ["ann", "bob"].map(|name| {
        let token = register(who, dir, name);
        let (client, joined) = join(&server, name, Some(&token));
        assert_eq!(joined, "OK");
        (client, token)
    });
    organise(who, dir, &["tournament", "start", "cup"]);
    (server, joined)
}

/// Red team 9, finding 6: a member that lost by a fault and stays silent holds its next
/// game at most the tournament's `--timeout`, not the server's idle bound, and its
/// opponent waits meanwhile as every waiting member does: sent `NOT_READY`.
#[test]
fn a_member_silent_after_its_fault_holds_its_next_game_only_a_turn() {
    each_run_in("serve_tournament", "silent_loser", |who, dir| {
        let (server, [(mut silent, _ann), (mut other, bob)]) = league_of_two(who, dir, "10");
        let game_of = |client: &mut Client| -> (usize, String) {
            let mut not_ready = 0;
            loop {
                match client.must() {
                    m if m == "NOT_READY" => not_ready += 1,
                    game => {
                        client.must();
                        return (not_ready, game);
                    }
                }
            }
        };
        // Game 1: ann never asks its data (a timeout fault), bob is told it won.
        let (_, first) = game_of(&mut silent);
        let (_, game) = game_of(&mut other);
        assert_eq!(game, first);
        assert_eq!(other.cmd("GET_GAME_DATA"), "OK");
        other.must();
        other.must();
        assert_eq!(other.cmd("GET_MOVE"), "OK");
        let (_, _, code) = (other.must(), other.must(), other.must());
        assert_eq!(code, "-1", "the opponent lost");
        // bob asks its next game while ann, told nothing yet, stays silent.
        assert_eq!(
            other.cmd(&format!("WAIT_GAME TOURNAMENT cup token={bob}")),
            "OK"
        );
        let (not_ready, second) = game_of(&mut other);
        assert_ne!(second, first);
        assert!(
            not_ready >= 1,
            "bob waited for the round, sent NOT_READY as any waiting member"
        );
        // A turn's clock (10 s: about three NOT_READY), not the idle bound (120 s: 39).
        assert!(not_ready <= 5, "held {not_ready} NOT_READY long");
        assert_eq!(silent.recv(), None, "ann was disconnected");
        let record = record(&server, &second);
        let seats = record["seats"].as_array().unwrap();
        let seat = seats.iter().position(|s| s["name"] == "ann").unwrap();
        let faults = record["faults"].as_array().unwrap();
        // Its fault says it was absent (never a connection closed: it had none).
        assert!(
            faults.iter().any(|f| f["seat"] == seat
                && f["kind"] == "crash"
                && f["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("did not ask its next game of tournament cup"))),
            "{record}"
        );
        replays(&server, &first);
        replays(&server, &second);
    });
}

#[test]
fn a_stranger_giving_a_member_s_name_never_touches_its_games() {
    each_run_in("serve_tournament", "squatter", |who, dir| {
        organise(
            who,
            dir,
            &["tournament", "new", "cup", "--format", "league"],
        );
        let tokens: Vec<String> = ["alice", "bob"]
            .iter()
            .map(|name| register(who, dir, name))
            .collect();
        // Both join on a first server, then it stops: on the next, both are members away
        // (between two games, as after each game) when the tournament starts.
        {
            let server = Server::start(who, dir);
            for (name, token) in ["alice", "bob"].iter().zip(&tokens) {
                let (_client, joined) = join(&server, name, Some(token));
                assert_eq!(joined, "OK");
                server.line_with(&format!("client {name}: waits in tournament cup"));
            }
        }
        organise(who, dir, &["tournament", "start", "cup"]);
        let server = Server::start(who, dir);
        server.line_with("tournament cup: starts");
        // A stranger gives alice's name without her token, and leaves.
        let mut stranger = server.connect();
        assert_eq!(stranger.cmd("CLIENT_NAME alice"), "OK");
        drop(stranger);
        server.line_with("client alice: disconnected");
        // bob's game waits for alice: he is told NOT_READY, not sent a game against her
        // closed connection.
        let (mut bob, joined) = join(&server, "bob", Some(&tokens[1]));
        assert_eq!(joined, "OK");
        assert_eq!(bob.must(), "NOT_READY", "alice was not there yet");
        let (mut alice, joined) = join(&server, "alice", Some(&tokens[0]));
        assert_eq!(joined, "OK");
        let game = alice.must();
        while bob.must() == "NOT_READY" {}
        // Both play it: alice's seat is her connection, not a closed one.
        assert_eq!(alice.must().split(' ').count(), 2, "the game's sizes");
        assert_eq!(alice.cmd("GET_GAME_DATA"), "OK", "alice plays game {game}");
    });
}

#[test]
fn a_knockout_is_never_won_by_a_member_that_played_nothing() {
    each_run_in("serve_tournament", "absent_winner", |who, dir| {
        let names = ["ann", "bob", "cid", "dan"];
        organise(
            who,
            dir,
            &[
                "tournament",
                "new",
                "cup",
                "--format",
                "single-elimination",
                "--timeout",
                "5",
            ],
        );
        let tokens: Vec<String> = names.iter().map(|n| register(who, dir, n)).collect();
        let token = |name: &str| tokens[names.iter().position(|n| *n == name).unwrap()].clone();
        // All join on a first server, then it stops: on the next, the test sees the
        // seeding before anyone connects, and chooses who plays.
        {
            let server = Server::start(who, dir);
            for name in names {
                let (_client, joined) = join(&server, name, Some(&token(name)));
                assert_eq!(joined, "OK");
                server.line_with(&format!("client {name}: waits in tournament cup"));
            }
        }
        organise(who, dir, &["tournament", "start", "cup"]);
        let server = Server::start(who, dir);
        let started = server.line_with("tournament cup: starts");
        let seeded: Vec<String> = started
            .split("seeded by the draw: ")
            .nth(1)
            .unwrap()
            .trim_end_matches(')')
            .split(", ")
            .map(String::from)
            .collect();
        // The first knockout: seeds 1 and 3, then 2 and 4. Seeds 1 and 3 take their game
        // and close (a game every seat faulted: it counts for no one, each time); 2 and 4
        // play theirs, then leave: the final would be a game of two members gone.
        let absent: Vec<Client> = [0, 2]
            .iter()
            .map(|&s| {
                let (absent, joined) = join(&server, &seeded[s], Some(&token(&seeded[s])));
                assert_eq!(joined, "OK");
                absent
            })
            .collect();
        for mut absent in absent {
            let mut game = absent.must();
            while game == "NOT_READY" {
                game = absent.must();
            }
        }
        let fourth = std::thread::spawn({
            let (port, name, token) = (server.port, seeded[3].clone(), token(&seeded[3]));
            move || {
                let mut client = Client {
                    stream: std::net::TcpStream::connect(("127.0.0.1", port)).unwrap(),
                };
                client.stream.set_read_timeout(Some(WAIT)).unwrap();
                let (_, _, first) =
                    client.start_free(&name, &format!("TOURNAMENT cup token={token}"));
                client.play_to_the_end(first).0
            }
        });
        let mut second = server.connect();
        let asked = format!("TOURNAMENT cup token={}", token(&seeded[1]));
        let (_, _, first) = second.start_free(&seeded[1], &asked);
        let (code, msg) = second.play_to_the_end(first);
        assert_eq!(code, -fourth.join().unwrap(), "one of them won: {msg}");
        drop(second);
        let winner = &seeded[if code == 1 { 1 } else { 3 }];
        server.line_with("tournament cup: knockout 1: 1 game(s) counted for no one, played again");
        server.line_with("tournament cup: over");
        let listed = organise(who, dir, &["tournament", "list"]);
        assert!(
            listed.contains(&format!(" winner={winner} ")),
            "the only one that played and won, not {} who played nothing: {listed}",
            seeded[0]
        );
    });
}

/// Red team 11, finding 7: a member that stays connected and asks its next game late (just
/// under the server's idle bound, 120 s, it held every game of its own that long at no
/// cost) is waited for a turn's clock (`--timeout`) at most between two games, then loses
/// that game by a fault, as a member gone.
#[test]
fn a_member_asking_its_next_game_late_forfeits_it() {
    each_run_in("serve_tournament", "staller", |who, dir| {
        let (server, [(mut loser, ann), (mut staller, bob)]) = league_of_two(who, dir, "5");
        // Each one's game (its data asked), or the `NOT_READY` it waited, `most` at most.
        let game_of = |client: &mut Client, most: usize| -> Result<String, usize> {
            let mut not_ready = 0;
            loop {
                match client.must() {
                    m if m == "NOT_READY" && not_ready + 1 == most => return Err(most),
                    m if m == "NOT_READY" => not_ready += 1,
                    game => {
                        client.must();
                        client.write(b"GET_GAME_DATA\n");
                        return Ok(game);
                    }
                }
            }
        };
        // Whether a client plays first, once its data comes (the seats' in turn).
        let plays_first = |client: &mut Client| {
            assert_eq!(client.must(), "OK");
            client.must();
            client.must() == "0"
        };
        // Game 1: ann loses by an illegal move in its turn; bob is told the end.
        let first = game_of(&mut loser, usize::MAX).unwrap();
        let game = game_of(&mut staller, usize::MAX).unwrap();
        assert_eq!(game, first);
        let ann_first = plays_first(&mut loser);
        assert_ne!(ann_first, plays_first(&mut staller));
        if !ann_first {
            staller.play("4");
            staller.play("5 1 1 1");
            loser.opponent();
            loser.opponent();
        }
        // ann's loss is told once the game is over: once bob read its end.
        loser.write(b"PLAY_MOVE 9 9\n");
        let (_, told, _) = staller.opponent();
        assert!(told.contains("Your opponent left"), "{told}");
        assert_eq!(loser.must(), "OK");
        let lost = loser.must();
        assert!(lost.contains("You lose"), "{lost}");
        assert_eq!(loser.must(), "-1");
        // ann asks its next game at once; bob, connected, stays silent until ann's game
        // starts, or ann waited four `NOT_READY` (14 s: past the turn's 5 s, well under
        // the idle bound's 120 s).
        assert_eq!(
            loser.cmd(&format!("WAIT_GAME TOURNAMENT cup token={ann}")),
            "OK"
        );
        let second = game_of(&mut loser, 4);
        let asked = staller.cmd(&format!("WAIT_GAME TOURNAMENT cup token={bob}"));
        let second = second.unwrap_or_else(|n| {
            panic!("ann waited {n} NOT_READY for bob: its game held past a turn ({asked})")
        });
        assert_ne!(second, first);
        plays_first(&mut loser);
        // ann is told bob lost; the tournament is over for bob.
        let (_, told, _) = loser.opponent();
        assert!(told.contains("Your opponent left"), "{told}");
        let told = match asked.as_str() {
            "OK" => staller.must(),
            refused => refused.to_string(),
        };
        assert!(told.contains("is over"), "{told}");
        let record = record(&server, &second);
        let seats = record["seats"].as_array().unwrap();
        let seat = seats.iter().position(|s| s["name"] == "bob").unwrap();
        let faults = record["faults"].as_array().unwrap();
        // Its fault says it was absent (never a connection closed: it had none).
        assert!(
            faults.iter().any(|f| f["seat"] == seat
                && f["kind"] == "crash"
                && f["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("did not ask its next game of tournament cup"))),
            "{record}"
        );
        replays(&server, &first);
        replays(&server, &second);
    });
}
