//! The kit is exact: the built-in bots playing through [`prologin::Client`] against a
//! scripted referee (a real `engine::Game` answering each line, over socket pairs) make the
//! very same game as the same bots in-process.

use engine::bots::{by_name, play_game, Champion};
use engine::{Call, Game, Seat, Setup};
use prologin::{etat, Client};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::process::{Command, Stdio};
use std::thread;

/// The referee's end of one champion's connection.
struct End {
    reader: BufReader<Box<dyn Read>>,
    writer: Box<dyn Write>,
}

/// Send `callback` to `seat` and answer its requests until `fin`; the number of requests.
fn serve(game: &mut Game, seat: Seat, end: &mut End) -> usize {
    let callback = game.callback().expect("a callback is due");
    writeln!(end.writer, "{callback}").unwrap();
    let mut requests = 0;
    let mut line = String::new();
    loop {
        line.clear();
        let n = end.reader.read_line(&mut line).unwrap();
        assert!(n > 0, "seat {seat} closed its output in {callback}");
        let request = line.strip_suffix('\n').expect("whole lines");
        assert!(request.len() <= 256, "line too long");
        if request == "fin" {
            return requests;
        }
        requests += 1;
        let answer = if request == "etat" {
            etat::encode(&mut game.player(seat))
        } else {
            let call: Call = request
                .parse()
                .unwrap_or_else(|e| panic!("protocol fault `{request}`: {e}"));
            assert_eq!(call.to_string(), request, "canonical form");
            call.apply(&mut game.player(seat)).to_string()
        };
        writeln!(end.writer, "{answer}").unwrap();
    }
}

fn bots(names: [&str; 3], seed: u64) -> Vec<Box<dyn Champion + Send>> {
    (0..3)
        .map(|i| by_name(names[i], seed * 3 + i as u64).unwrap())
        .collect()
}

/// Play `seed` over the protocol; the final game and the number of requests.
fn play_over_protocol(names: [&str; 3], seed: u64) -> (Game, usize) {
    let mut ends = Vec::new();
    let mut champions = Vec::new();
    for mut bot in bots(names, seed) {
        let (ours, theirs) = UnixStream::pair().unwrap();
        ends.push(End {
            reader: BufReader::new(Box::new(ours.try_clone().unwrap())),
            writer: Box::new(ours),
        });
        champions.push(thread::spawn(move || {
            let mut client = Client::new(BufReader::new(theirs.try_clone().unwrap()), theirs);
            client.run(&mut *bot).map_err(|e| e.to_string())
        }));
    }
    let mut game = Game::new(Setup::from_seed(seed));
    let mut requests = 0;
    while game.callback().is_some() {
        for seat in game.seats_to_play() {
            requests += serve(&mut game, seat, &mut ends[seat.index()]);
        }
        game.advance();
    }
    drop(ends); // end of input after end_game: the clients return Ok
    for champion in champions {
        assert_eq!(champion.join().unwrap(), Ok(()));
    }
    (game, requests)
}

fn in_process(names: [&str; 3], seed: u64) -> Game {
    let mut b = bots(names, seed);
    let [x, y, z] = &mut b[..] else {
        unreachable!()
    };
    play_game(Setup::from_seed(seed), &mut [&mut **x, &mut **y, &mut **z])
}

#[test]
fn bots_play_the_same_game_over_the_protocol() {
    for (names, seed) in [
        (["greedy", "random", "random"], 1),
        (["random", "greedy", "greedy"], 2),
        (["random", "random", "random"], 3),
    ] {
        let (remote, requests) = play_over_protocol(names, seed);
        let local = in_process(names, seed);
        assert_eq!(remote.outcome(), local.outcome(), "{names:?} seed {seed}");
        assert_eq!(remote.digest(), local.digest(), "{names:?} seed {seed}");
        eprintln!("{names:?} seed {seed}: {requests} requests");
    }
}

/// The champion binaries on real pipes: the kit takes the standard streams (the template
/// writes on stdout with `println!`, which must not reach the protocol) and the binaries
/// play the same game as the bots in-process.
#[test]
fn champion_binaries_play_over_pipes() {
    let binaries = [
        env!("CARGO_BIN_EXE_greedy"),
        env!("CARGO_BIN_EXE_random"),
        env!("CARGO_BIN_EXE_template"),
    ];
    for (names, seed) in [
        (["greedy", "random", "random"], 4),
        (["greedy", "random", "template"], 5),
    ] {
        let mut children = Vec::new();
        let mut ends = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let path = binaries.iter().find(|b| b.ends_with(name)).unwrap();
            let mut child = Command::new(path)
                .env("PROLOGIN_SEED", (seed * 3 + i as u64).to_string())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            ends.push(End {
                reader: BufReader::new(Box::new(child.stdout.take().unwrap())),
                writer: Box::new(child.stdin.take().unwrap()),
            });
            children.push(child);
        }
        let mut game = Game::new(Setup::from_seed(seed));
        while game.callback().is_some() {
            for seat in game.seats_to_play() {
                serve(&mut game, seat, &mut ends[seat.index()]);
            }
            game.advance();
        }
        drop(ends);
        for (child, name) in children.into_iter().zip(names) {
            let output = child.wait_with_output().unwrap();
            let log = String::from_utf8_lossy(&output.stderr);
            assert!(output.status.success(), "{name}: {:?} {log}", output.status);
            if name == "template" {
                assert!(log.contains("println! is safe too"), "{log}");
            }
        }
        if !names.contains(&"template") {
            assert_eq!(game.digest(), in_process(names, seed).digest());
        }
    }
}
