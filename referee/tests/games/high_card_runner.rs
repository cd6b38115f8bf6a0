//! High card (`game::testing::HighCard`: 2 to 8 seats, a `deck` option), which no registry
//! holds, through the runner's game on the model: it gives the seats and options its rules
//! accept, a tournament of 4-seat matches with `deck=20` plays real champions (a shell
//! fixture) with those options, keeps them in every record, row command and
//! `tournament.json`, and a run that says other options or seats refuses the matches,
//! naming both.

use crate::common;

use common::high_card::{self, GAME};
use referee::commands::tournament::results;
use referee::games::Game;
use referee::schedule::Format;
use referee::store::Appender;
use referee::tournament::{EntrySpec, InputSpec, Runner, TournamentSpec};
use std::sync::atomic::AtomicBool;

fn deck(value: &str) -> game::Options {
    referee::cli::words::options_of(&GAME, &[format!("deck={value}")]).unwrap()
}

#[test]
fn the_runner_s_game_gives_the_seats_and_options_of_its_rules() {
    assert_eq!(GAME.seat_range(), 2..=8);
    assert_eq!(GAME.seats(), 2);
    assert_eq!(
        referee::cli::words::describe_options(&GAME),
        "High card: matches of 2 to 8 seats (--seats K, default 2); its options (--option \
         NAME=VALUE):\n  deck: a whole number from 8 to 52 (default 13): cards in the deck\n"
    );
    let err = |given: &str| referee::cli::words::options_of(&GAME, &[given.into()]).unwrap_err();
    let bad = err("deck=5");
    assert!(
        bad.starts_with("--option: option `deck` takes a whole number from 8 to 52, not `5`"),
        "{bad}"
    );
    assert!(
        bad.contains("\n  deck: a whole number from 8 to 52 (default 13)"),
        "{bad}"
    );
    let unknown = err("colour=red");
    assert!(
        unknown.contains("no option `colour`: this game takes deck"),
        "{unknown}"
    );
    assert!(err("deck").contains("name=value"));
}

/// `tournament.json` of a run: 4 seats, `deck=20`, champions `c0` to `c4`.
fn spec(n: usize) -> TournamentSpec {
    TournamentSpec {
        schema: referee::export::RESULTS_SCHEMA,
        game: GAME.name().into(),
        name: "t".into(),
        seed: 77,
        format: Format::round_robin(1),
        input: InputSpec::default(),
        champions: (0..n)
            .map(|c| EntrySpec {
                name: format!("c{c}"),
                given: high_card::champion(),
                path: high_card::champion(),
                sha256: String::new(),
                identity: String::new(),
                snapshot: None,
            })
            .collect(),
        excluded: Vec::new(),
        limits: referee::tournament::LimitsSpec {
            time_scale: 1.0,
            init_cpu: 10.0,
            call_cpu: 1.0,
            memory: 1024,
            processes: 256,
            disk: 64,
            sandbox: "auto".into(),
            require_sandbox: false,
        },
        shard: None,
        matches: 0,
        kits: None,
        seats: Some(4),
        options: deck("20"),
    }
}

#[test]
fn a_tournament_of_four_seats_plays_and_keeps_its_options() {
    let dir = common::fresh_dir("high-card", "tournament");
    let mut spec = spec(5);
    // The file says them, and one without them reads as the game's fewest and defaults.
    let json: serde_json::Value = serde_json::from_slice(&spec.to_json()).unwrap();
    assert_eq!(
        (&json["seats"], &json["options"]),
        (&4.into(), &serde_json::json!({"deck": "20"}))
    );
    let mut bare = json.clone();
    bare.as_object_mut().unwrap().remove("seats");
    bare.as_object_mut().unwrap().remove("options");
    let bare: TournamentSpec = serde_json::from_value(bare).unwrap();
    assert_eq!(bare.seat_count(&GAME), Ok(2));
    assert_eq!(bare.options(&GAME), Ok(deck("13")));

    let seats = spec.seat_count(&GAME).unwrap();
    let schedule = spec.schedule(seats).unwrap();
    spec.matches = schedule.len();
    let stored = referee::games::stored_limits(&spec.limits).unwrap();
    let mut champions = Vec::new();
    for entry in &spec.champions {
        let mut champion = GAME.resolve(&entry.given).unwrap();
        champion.name = entry.name.clone();
        champions.push(champion);
    }
    for (entry, champion) in spec.champions.iter_mut().zip(&champions) {
        (entry.sha256, entry.identity) = (champion.sha256.clone(), champion.identity.clone());
    }
    let runner = Runner {
        game: &GAME,
        champions,
        time: stored.0,
        limits: stored.1,
        dir: dir.clone(),
        jobs: 2,
        pin: false,
        full_log: None,
        auth: None,
        journal: None,
        options: spec.options(&GAME).unwrap(),
    };
    let csv = dir.join("matches.csv");
    let mut appender = Appender::open(&csv, seats, None).unwrap();
    runner
        .run(
            schedule.iter(),
            &AtomicBool::new(false),
            |event| match event {
                arena::events::TournamentEvent::Played { row, first_player } => {
                    assert!(
                        row.reproduce.contains(" --option 'deck=20'"),
                        "{}",
                        row.reproduce
                    );
                    appender.append(&referee::export::matches_csv::row(&row, first_player))
                }
                other => panic!("{other:?}"),
            },
        )
        .unwrap();
    drop(appender);
    for id in 0..schedule.len() {
        let record = GAME
            .load(&Runner::match_dir(&dir, id).join("record.json"))
            .unwrap();
        assert_eq!(record.options, deck("20"));
        assert_eq!(record.seats.len(), 4);
        assert!(record.faults.is_empty(), "{:?}", record.faults);
    }
    let sources = results::load(&[(csv.clone(), None)], 4).unwrap();
    results::check_records(&sources, &spec, &GAME, None).unwrap();
    // The records of a run that says other options, or other seats, are not its matches.
    let other = TournamentSpec {
        options: deck("30"),
        ..spec.clone()
    };
    let err = results::check_records(&sources, &other, &GAME, None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("its record has options deck=20, the run's deck=30"),
        "{err}"
    );
    let other = TournamentSpec {
        seats: Some(3),
        ..spec.clone()
    };
    assert!(results::check_records(&sources, &other, &GAME, None).is_err());
    let (count, _, _) = results::write(&sources, &dir, &spec, false, &GAME, None).unwrap();
    assert_eq!(count, schedule.len());
}

/// Shards of one tournament run with other options (or seats, or deals) are not merged: the
/// error names both.
#[test]
fn shards_of_other_options_or_seats_are_not_merged() {
    let dir = common::fresh_dir("high-card", "merge");
    let merge = |second: TournamentSpec| {
        let mut shards = Vec::new();
        for (index, spec) in [(1, spec(5)), (2, second)] {
            let shard = dir.join(format!("shard-{index}-of-2"));
            std::fs::create_dir_all(&shard).unwrap();
            let spec = TournamentSpec {
                shard: referee::schedule::Shard::parse(&format!("{index}/2")),
                ..spec
            };
            std::fs::write(shard.join("tournament.json"), spec.to_json()).unwrap();
            shards.push(shard);
        }
        let args = referee::cli::MergeArgs {
            shards,
            out: Some(dir.join("merged")),
            html: false,
            partial: true,
            key: None,
        };
        let failure = referee::commands::merge::run(args, &GAME).unwrap_err();
        assert_eq!(failure.code, 2);
        failure.error.to_string()
    };
    let err = merge(TournamentSpec {
        options: deck("30"),
        ..spec(5)
    });
    assert!(
        err.contains("shard-2-of-2 is not a shard of the same tournament as")
            && err.contains("its options are deck=30, those of")
            && err.contains("shard-1-of-2 are deck=20"),
        "{err}"
    );
    let err = merge(TournamentSpec {
        seats: Some(5),
        ..spec(5)
    });
    assert!(
        err.contains("its seats are 5 seats, those of") && err.contains("are 4 seats"),
        "{err}"
    );
    // A shard run with `--deal rotated` beside one with the default fresh deals.
    let err = merge(TournamentSpec {
        format: Format::RoundRobin {
            rounds: 1,
            deal: referee::schedule::Deal::Rotated,
        },
        ..spec(5)
    });
    assert!(
        err.contains("its deals are rotated, those of")
            && err
                .contains("are fresh; merge shards run with the same --option, --seats and --deal"),
        "{err}"
    );
    assert!(!dir.join("merged").exists());
}
