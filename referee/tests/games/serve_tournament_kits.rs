//! Tournaments of the other games over TCP (docs/server.md, sections 6 and 7): the kits'
//! C and Python samples, unchanged, join a tournament of the Amazons, Little Town or the
//! 2009 game with `REFEREE_WAIT="TOURNAMENT cup"` and play it in their game's own line
//! protocol, each game the connection's last and the kit run again for the next, as a
//! contestant's loop does; a league, pools then knockout, a single elimination of three
//! seats whose meetings are the best of three, and a 2009 league of three seats. Every
//! game's record replays; a member that leaves in its game loses it by a fault and the
//! tournament goes on. As root and as a user.

use crate::common;
use crate::serve::{record as record_of, Server, WAIT};
use crate::serve_kits::{build_c, game_of, have, have_c_tools, paths, replays, repo};
use crate::serve_tournament::register;
use crate::serve_web_tournament::organise;

use common::users::{each_run_in, Who};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;

/// Most runs of a member's kit: more is a loop the tournament never ends.
const MOST_RUNS: usize = 12;

/// The member `name` of tournament `cup`, played by the kit `program` with its `token`:
/// the kit run again after each game until the server says the tournament is over (the
/// kit then stops with status 2, naming it). The games it played, by the names its
/// stderr gives.
fn member(port: u16, program: PathBuf, name: &str, token: String) -> JoinHandle<Vec<String>> {
    let name = name.to_string();
    std::thread::spawn(move || {
        let mut games = Vec::new();
        for _ in 0..MOST_RUNS {
            let mut child = Command::new(&program)
                .env("REFEREE_SERVER", format!("127.0.0.1:{port}"))
                .env("REFEREE_NAME", &name)
                .env("REFEREE_WAIT", "TOURNAMENT cup timeout=30")
                .env("REFEREE_TOKEN", &token)
                .env("PROLOGIN_KITS", repo("kits"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the kit starts");
            let mut stderr = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut stderr)
                .unwrap();
            let status = common::wait_timeout(&mut child, WAIT).expect("the kit ends");
            if stderr.contains("The tournament 'cup' is over") {
                assert_eq!(status.code(), Some(2), "{name}: {stderr}");
                return games;
            }
            assert!(status.success(), "{name}'s kit failed: {stderr}");
            games.push(game_of(&stderr));
        }
        panic!("{name}: {MOST_RUNS} games and the tournament is not over: {games:?}")
    })
}

/// A kit: its program and the names of the members it plays.
struct Kit<'a> {
    program: PathBuf,
    names: &'a [&'a str],
}

/// Tournament `cup` of `game` created with `flags`, joined by the members of `kits`
/// (each started once its name is registered, waited until it waits in the tournament),
/// plus `more` (joined by the caller, who gets the server), started and played to its end:
/// the server, and the games each member played (by name).
fn tournament(
    who: Who,
    dir: &Path,
    game: &str,
    flags: &[&str],
    kits: &[Kit],
    more: impl FnOnce(&Server),
) -> (Server, Vec<(String, Vec<String>)>) {
    let server = Server::start(who, dir);
    let mut new = vec![
        "--game",
        game,
        "tournament",
        "new",
        "cup",
        "--timeout",
        "30",
    ];
    new.extend(flags);
    let created = organise(who, dir, &new);
    assert!(created.contains(&format!("({game}, ")), "{created}");
    let mut members = Vec::new();
    for kit in kits {
        for name in kit.names {
            let token = register(who, dir, name);
            members.push((
                name.to_string(),
                member(server.port, kit.program.clone(), name, token),
            ));
            server.line_with(&format!("client {name}: waits in tournament cup"));
        }
    }
    more(&server);
    assert!(organise(who, dir, &["tournament", "start", "cup"]).contains("starts with"));
    let played = members
        .into_iter()
        .map(|(name, member)| (name, member.join().expect("the member's loop")))
        .collect();
    server.line_with("tournament cup: over");
    (server, played)
}

/// Every game of `played`, each once, sorted.
fn games_of(played: &[(String, Vec<String>)]) -> Vec<String> {
    let mut games: Vec<String> = played.iter().flat_map(|(_, g)| g.clone()).collect();
    games.sort();
    games.dedup();
    games
}

/// `tournament list`'s line of `cup`.
fn listed(who: Who, dir: &Path) -> String {
    organise(who, dir, &["tournament", "list"])
        .trim()
        .to_string()
}

/// The Python kit's sample of `game`, or `None` (skipped) without `python3`.
fn python(sample: &str) -> Option<PathBuf> {
    have("python3", "serve tournaments: the Python kits need python3").then(|| repo(sample))
}

#[test]
fn an_amazons_league_of_the_c_and_python_kits_plays_every_pair_and_replays() {
    if !have_c_tools() {
        return;
    }
    let Some(greedy) = python("champions/amazons/python/greedy/champion") else {
        return;
    };
    each_run_in("serve_tournament_kits", "amazons_league", |who, dir| {
        let territory = build_c(
            dir,
            "champions/amazons/c/territory",
            "champions/amazons/c/kit",
        );
        let kits = [
            Kit {
                program: territory,
                names: &["terr"],
            },
            Kit {
                program: greedy.clone(),
                names: &["gre", "edy"],
            },
        ];
        let flags = ["--format", "league"];
        // A client asking another game, or the subject's protocol, is refused and not
        // made a member.
        let odd = register(who, dir, "odd");
        let refused = |server: &Server| {
            for (options, says) in [
                ("game=loi", "The tournament 'cup' plays amazons, not 'loi'"),
                ("protocol=cgs", "The protocol 'cgs' is Ticket to Ride's"),
            ] {
                let mut client = server.connect();
                assert_eq!(client.cmd("CLIENT_NAME odd"), "OK");
                let answer = client.cmd(&format!("WAIT_GAME TOURNAMENT cup {options} token={odd}"));
                assert!(answer.starts_with(says), "{options}: {answer}");
            }
        };
        let (server, played) = tournament(who, dir, "amazons", &flags, &kits, refused);
        for (name, games) in &played {
            assert_eq!(games.len(), 2, "{name} meets the two others: {played:?}");
        }
        let games = games_of(&played);
        assert_eq!(games.len(), 3, "every pair once: {played:?}");
        for game in &games {
            let record = record_of(&server, game);
            assert_eq!(record["game"], "amazons", "{record}");
            assert!(paths(&record).iter().all(|p| p.starts_with("remote:")));
            assert_eq!(record["faults"].as_array().unwrap().len(), 0, "{record}");
            replays(&server, "amazons", game);
        }
        let line = listed(who, dir);
        assert!(
            line.starts_with("cup league finished [") && line.contains(" game=amazons "),
            "{line}"
        );
        assert!(!line.contains("odd"), "refused, not a member: {line}");
        let winner = line.split(" winner=").nth(1).unwrap();
        assert!(!winner.starts_with(' '), "a winner: {line}");
    });
}

/// A member that joins in the game's own protocol and closes its connection as its first
/// game starts: it loses that game by a fault, and the tournament goes on without it.
#[test]
fn a_member_leaving_its_amazons_game_loses_its_pool_and_the_knockout_goes_on() {
    let Some(greedy) = python("champions/amazons/python/greedy/champion") else {
        return;
    };
    each_run_in("serve_tournament_kits", "amazons_pools", |who, dir| {
        let kits = [Kit {
            program: greedy.clone(),
            names: &["ann", "bob", "cid"],
        }];
        let flags = [
            "--format",
            "pools-knockout",
            "--pool",
            "2",
            "--qualify",
            "1",
        ];
        let quit_token = register(who, dir, "quit");
        let quitter = std::sync::Mutex::new(None);
        let (server, played) = tournament(who, dir, "amazons", &flags, &kits, |server| {
            let mut client = server.connect();
            assert_eq!(client.cmd("CLIENT_NAME quit"), "OK");
            let wait =
                format!("WAIT_GAME TOURNAMENT cup game=amazons protocol=lines token={quit_token}");
            assert_eq!(client.cmd(&wait), "OK");
            *quitter.lock().unwrap() = Some(std::thread::spawn(move || loop {
                match client.must() {
                    m if m == "NOT_READY" => continue,
                    // Its game's name: it leaves.
                    game => break game,
                }
            }));
        });
        let quit_game = quitter.into_inner().unwrap().unwrap().join().unwrap();
        let record = record_of(&server, &quit_game);
        let faults = record["faults"].as_array().unwrap();
        assert_eq!(faults.len(), 1, "{record}");
        let seat = faults[0]["seat"].as_u64().unwrap() as usize;
        assert_eq!(paths(&record)[seat], "remote:quit", "{record}");
        replays(&server, "amazons", &quit_game);
        let games = games_of(&played);
        // Two pools' games (the quitter's among them: its opponent played it) and the final.
        assert_eq!(games.len(), 3, "{played:?}");
        assert!(games.contains(&quit_game), "{played:?}");
        for game in &games {
            replays(&server, "amazons", game);
        }
        let line = listed(who, dir);
        assert!(line.starts_with("cup pools-knockout finished"), "{line}");
        let winner = line
            .split(" winner=")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(["ann", "bob", "cid"].contains(&winner), "{line}");
        // The quitter played its pool's game only: the final is between two kits.
        for game in games.iter().filter(|g| **g != quit_game) {
            let seats = paths(&record_of(&server, game));
            assert!(
                !seats.contains(&"remote:quit".to_string()),
                "{game}: {seats:?}"
            );
        }
    });
}

/// Little Town at three seats, single elimination: the three members meet in the final,
/// the best of three games, which ends as soon as its first cannot be caught on points.
#[test]
fn a_little_town_final_of_three_seats_is_the_best_of_three_games() {
    if !have_c_tools() {
        return;
    }
    let Some(random) = python("champions/little-town/python/random/champion") else {
        return;
    };
    each_run_in("serve_tournament_kits", "town_best_of", |who, dir| {
        let builder = build_c(
            dir,
            "champions/little-town/c/builder",
            "champions/little-town/c/kit",
        );
        let kits = [
            Kit {
                program: builder,
                names: &["bui"],
            },
            Kit {
                program: random.clone(),
                names: &["ran", "dom"],
            },
        ];
        let flags = [
            "--format",
            "single-elimination",
            "--seats",
            "3",
            "--best-of",
            "3",
        ];
        let (server, played) = tournament(who, dir, "little-town", &flags, &kits, |_| {});
        let games = games_of(&played);
        let meeting = server.line_with("tournament cup: final: meeting of ");
        assert!(
            (2..=3).contains(&games.len())
                && meeting.contains(&format!("of {} game(s)", games.len())),
            "{meeting}: {played:?}"
        );
        for (name, mine) in &played {
            assert_eq!(
                mine.len(),
                games.len(),
                "{name} plays every game: {played:?}"
            );
        }
        for game in &games {
            let record = record_of(&server, game);
            assert_eq!(record["game"], "little-town", "{record}");
            assert_eq!(paths(&record).len(), 3, "{record}");
            replays(&server, "little-town", game);
        }
        // The meeting's first (most points over its games) is the winner.
        let first = meeting
            .rsplit(": ")
            .next()
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let line = listed(who, dir);
        assert!(
            line.contains(&format!(" winner={first} ")),
            "{meeting} / {line}"
        );
        assert!(line.contains(" game=little-town "), "{line}");
    });
}

/// The 2009 game at its three seats: a league of three members (the C kit's sample and two
/// of the Python kit's) is one game, recorded and replayed as a spawned match's.
#[test]
fn a_2009_league_of_three_seats_is_played_by_the_c_and_python_kits() {
    if !have_c_tools() {
        return;
    }
    let Some(random) = python("champions/python/random/champion") else {
        return;
    };
    each_run_in("serve_tournament_kits", "loi_league", |who, dir| {
        let c = build_c(dir, "champions/c/random", "champions/c/kit");
        let kits = [
            Kit {
                program: c,
                names: &["c_rand"],
            },
            Kit {
                program: random.clone(),
                names: &["py_one", "py_two"],
            },
        ];
        let flags = ["--format", "league", "--seats", "3", "--max-players", "3"];
        let (server, played) = tournament(who, dir, "loi", &flags, &kits, |_| {});
        let games = games_of(&played);
        assert_eq!(games.len(), 1, "the three meet once: {played:?}");
        let record = record_of(&server, &games[0]);
        assert_eq!(record["game"], "loi", "{record}");
        let mut seats = paths(&record);
        seats.sort();
        assert_eq!(seats, ["remote:c_rand", "remote:py_one", "remote:py_two"]);
        replays(&server, "loi", &games[0]);
        let line = listed(who, dir);
        assert!(
            line.starts_with("cup league finished [") && line.contains(" game=loi "),
            "{line}"
        );
    });
}
