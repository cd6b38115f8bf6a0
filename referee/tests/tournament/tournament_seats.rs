//! Tournaments of games of any number of seats (2, 4, 5, 8), run through the library with a
//! scripted game ("highest number wins": each seat's score drawn from the match seed, no
//! rules crate, no process): the schedule plays every set of k champions in every rotation
//! of its seats, the standings count k places and the game's points with ties shared, and
//! `matches.csv`, `leaderboard.csv`, `pairwise.csv` and `seats.csv` carry k seats.

use crate::common;

use arena::rules::Rules;
use referee::commands::tournament::results;
use referee::endpoint::TimeLimits;
use referee::games::{Expected, FaultStep, Game, Played, Seats};
use referee::roster::ChampionSpec;
use referee::schedule::Format;
use referee::standings::{MatchRow, PointsTable};
use referee::store::Appender;
use referee::tournament::{EntrySpec, InputSpec, LimitsSpec, Runner, TournamentSpec};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// A game of `seats` seats where each seat draws a number from the match seed (0 to 3, so
/// that ties are frequent) plus its champion's strength (the digit its name ends with),
/// and the highest wins; places earn `TABLE`.
struct HighestNumber {
    seats: usize,
}

/// Points of the places: beyond the fourth place, nothing.
const TABLE: PointsTable = &[10, 6, 3, 1];

/// The score of the seat `seat`, held by `champion`, in a match of seed `seed`.
fn score(seed: u64, seat: usize, champion: &str) -> i32 {
    let mut stream = draw::Stream::new(seed ^ (seat as u64).wrapping_mul(0x9e37_79b9));
    let strength = champion
        .chars()
        .last()
        .and_then(|c| c.to_digit(10))
        .unwrap_or(0);
    stream.below_u32(4) as i32 + strength as i32
}

impl Game for HighestNumber {
    fn name(&self) -> &'static str {
        "highest-number"
    }
    fn title(&self) -> &'static str {
        "Highest number wins"
    }
    fn seats(&self) -> usize {
        self.seats
    }
    fn full_log(&self) -> bool {
        false
    }
    fn points(&self) -> PointsTable {
        TABLE
    }
    fn builtins(&self) -> &'static [&'static str] {
        &[]
    }
    fn recorded_row(&self, _: &Path, _: &Expected) -> anyhow::Result<Played> {
        anyhow::bail!("the scripted game keeps no record")
    }
    fn check_rules(&self) -> (Box<dyn Rules>, &'static str) {
        unreachable!("these tournaments run no pre-run check")
    }
    fn play(&self, seats: &Seats, _: &Path) -> anyhow::Result<Played> {
        let k = seats.champions.len();
        assert_eq!(k, self.seats, "the runner seats the game's seats");
        let champions: Vec<String> = seats.champions.iter().map(|c| c.name.clone()).collect();
        let scores: Vec<i32> = (0..k)
            .map(|s| score(seats.seed, s, &champions[s]))
            .collect();
        Ok(Played {
            row: MatchRow {
                id: 0,
                seed: seats.seed,
                champions,
                places: referee::standings::places_of(&scores),
                points: referee::standings::points_with(
                    TABLE,
                    &referee::standings::places_of(&scores),
                ),
                scores,
                faults: vec![None; k],
                calls: vec![1; k],
                cpu_us: vec![0; k],
                max_cpu_us: vec![0; k],
                duration_ms: 0,
                digest: format!("{:016x}", seats.seed),
                reproduce: format!("highest-number --seed {}", seats.seed),
            },
            first_player: 0,
            command: Default::default(),
        })
    }
    fn replay_page(&self, _: &Path) -> anyhow::Result<String> {
        anyhow::bail!("the scripted game has no replay page")
    }
    fn fault_steps(&self, _: &Path) -> anyhow::Result<Vec<FaultStep>> {
        Ok(Vec::new())
    }
}

/// Champion `c` of a field: `c0`, `c1`, ... (its strength is its index modulo 3).
fn champion(c: usize) -> String {
    format!("c{}{}", c, c % 3)
}

/// What a tournament of `seats`-seat matches between `n` champions, `rounds` rounds, left.
struct Run {
    spec: TournamentSpec,
    dir: std::path::PathBuf,
    standings: referee::standings::Standings,
    rows: Vec<MatchRow>,
}

/// Plays the round-robin through the runner, appends every row to `matches.csv` as the
/// command does, and writes the results files.
fn play(seats: usize, n: usize, rounds: u64) -> Run {
    let game: &'static dyn Game = Box::leak(Box::new(HighestNumber { seats }));
    let dir = common::fresh_dir("tournament-seats", &format!("{seats}-seats"));
    let names: Vec<String> = (0..n).map(champion).collect();
    let spec = TournamentSpec {
        schema: referee::export::RESULTS_SCHEMA,
        game: game.name().into(),
        name: "t".into(),
        seed: 1000 + seats as u64,
        format: Format::round_robin(rounds),
        input: InputSpec::default(),
        champions: names
            .iter()
            .map(|name| EntrySpec {
                name: name.clone(),
                given: name.clone(),
                path: format!("/nowhere/{name}"),
                sha256: String::new(),
                identity: String::new(),
                snapshot: None,
            })
            .collect(),
        excluded: Vec::new(),
        limits: LimitsSpec {
            time_scale: 1.0,
            init_cpu: 1.0,
            call_cpu: 1.0,
            memory: 1,
            processes: 1,
            disk: 1,
            sandbox: "off".into(),
            require_sandbox: false,
        },
        shard: None,
        matches: 0,
        kits: None,
        seats: None,
        options: Default::default(),
    };
    let schedule = spec.schedule(seats).unwrap();
    let runner = Runner {
        game,
        champions: names
            .iter()
            .map(|name| ChampionSpec {
                name: name.clone(),
                given: name.clone(),
                program: format!("/nowhere/{name}").into(),
                args: Vec::new(),
                path: format!("/nowhere/{name}"),
                sha256: String::new(),
                identity: String::new(),
                snapshot: None,
            })
            .collect(),
        time: TimeLimits::default(),
        limits: Default::default(),
        dir: dir.clone(),
        jobs: 2,
        pin: false,
        full_log: None,
        auth: None,
        journal: None,
        options: Default::default(),
    };
    let csv = dir.join("matches.csv");
    let mut appender = Appender::open(&csv, seats, None).unwrap();
    let stop = AtomicBool::new(false);
    runner
        .run(schedule.iter(), &stop, |event| match event {
            arena::events::TournamentEvent::Played { row, first_player } => {
                appender.append(&referee::export::matches_csv::row(&row, first_player))
            }
            other => panic!("{other:?}"),
        })
        .unwrap();
    drop(appender);
    let sources = results::load(&[(csv.clone(), None)], game.seats()).unwrap();
    let (count, standings, _) = results::write(&sources, &dir, &spec, false, game, None).unwrap();
    assert_eq!(count, schedule.len());
    let mut rows = Vec::new();
    referee::store::read_rows(&csv, seats, |(row, _), _, _| {
        rows.push(row);
        Ok(())
    })
    .unwrap();
    Run {
        spec,
        dir,
        standings,
        rows,
    }
}

/// The points of each seat, computed apart from the referee's: scores sorted best first,
/// a seat earns the table's points of the lowest place among those it ties for.
fn expected_points(scores: &[i32]) -> Vec<u64> {
    let mut sorted = scores.to_vec();
    sorted.sort_by(|a, b| b.cmp(a));
    scores
        .iter()
        .map(|s| {
            let lowest = sorted.iter().rposition(|x| x == s).unwrap();
            u64::from(TABLE.get(lowest).copied().unwrap_or(0))
        })
        .collect()
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The whole tournament for k seats: schedule, standings and files.
fn check(seats: usize, n: usize, rounds: u64) {
    let t = play(seats, n, rounds);
    let k = seats;
    let sets = (0..k).fold(1u64, |c, i| c * (n - i) as u64 / (i as u64 + 1));
    assert_eq!(t.rows.len() as u64, sets * rounds, "{k} seats");

    // Schedule: every set of k plays `rounds` matches, each block of k rounds in the k
    // rotations of one seat order, every match on a seed of its own (fresh deals, a new
    // run's default: no match tells a champion the setup of another); every champion sits
    // in every seat equally often.
    let mut per_set: BTreeMap<Vec<String>, Vec<&MatchRow>> = BTreeMap::new();
    let mut per_seat: BTreeMap<(String, usize), u64> = BTreeMap::new();
    for row in &t.rows {
        let mut set = row.champions.clone();
        set.sort();
        set.dedup();
        assert_eq!(set.len(), k, "distinct champions: {:?}", row.champions);
        per_set.entry(set).or_default().push(row);
        for (s, c) in row.champions.iter().enumerate() {
            *per_seat.entry((c.clone(), s)).or_default() += 1;
        }
    }
    assert_eq!(per_set.len() as u64, sets);
    for (set, rows) in &per_set {
        assert_eq!(rows.len() as u64, rounds, "{set:?}");
        let mut blocks: BTreeMap<u64, Vec<&Vec<String>>> = BTreeMap::new();
        for row in rows {
            let block = row.id / sets / k as u64;
            blocks.entry(block).or_default().push(&row.champions);
        }
        assert_eq!(blocks.len() as u64, rounds.div_ceil(k as u64));
        let seeds: BTreeSet<u64> = rows.iter().map(|row| row.seed).collect();
        assert_eq!(seeds.len(), rows.len(), "a seed a match: {set:?}");
        for block in blocks.values().filter(|b| b.len() == k) {
            let rotate = |order: &Vec<String>| {
                let mut next = order.clone();
                next.rotate_left(1);
                next
            };
            for order in block {
                assert!(block.contains(&&rotate(order)), "rotations: {block:?}");
            }
        }
    }
    let per_champion = sets * k as u64 / n as u64 * rounds / k as u64;
    for c in 0..n {
        for s in 0..k {
            assert_eq!(
                per_seat[&(champion(c), s)],
                per_champion,
                "{} seat {s}",
                champion(c)
            );
        }
    }

    // Standings: points, k places and ties recomputed apart.
    let mut points: BTreeMap<&str, u64> = BTreeMap::new();
    let mut places: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    let mut ties: BTreeMap<&str, u64> = BTreeMap::new();
    for row in &t.rows {
        let expected = expected_points(&row.scores);
        assert_eq!(
            row.points,
            expected.iter().map(|&p| p as u32).collect::<Vec<_>>()
        );
        for (s, c) in row.champions.iter().enumerate() {
            *points.entry(c).or_default() += expected[s];
            let better = row.scores.iter().filter(|&&o| o > row.scores[s]).count();
            places.entry(c).or_insert_with(|| vec![0; k])[better] += 1;
            let tied = row.scores.iter().filter(|&&o| o == row.scores[s]).count() > 1;
            *ties.entry(c).or_default() += u64::from(tied);
        }
    }
    assert!(ties.values().any(|&t| t > 0), "the game ties sometimes");
    for (name, line) in &t.standings.lines {
        assert_eq!(line.points, points[name.as_str()], "{name}");
        assert_eq!(line.places, places[name.as_str()], "{name}");
        assert_eq!(line.places.len(), k);
        assert_eq!(line.ties, ties[name.as_str()], "{name}");
    }

    // leaderboard.csv: k place columns (at least three), every line's places add up to
    // its matches.
    let leaderboard = text(&t.dir.join("leaderboard.csv"));
    let header: Vec<&str> = leaderboard.lines().next().unwrap().split(',').collect();
    let first = header.iter().position(|&c| c == "firsts").unwrap();
    let last = header.iter().position(|&c| c == "ties").unwrap();
    let words = [
        "firsts", "seconds", "thirds", "fourths", "fifths", "sixths", "sevenths", "eighths",
    ];
    assert_eq!(header[first..last], words[..k.max(3)]);
    for line in leaderboard.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), header.len(), "{line}");
        let matches: u64 = cells[3].parse().unwrap();
        let placed: u64 = cells[first..last]
            .iter()
            .map(|c| c.parse::<u64>().unwrap())
            .sum();
        assert_eq!(placed, matches, "{line}");
        let name = cells[1];
        let line_points: u64 = cells[2].parse().unwrap();
        assert_eq!(line_points, points[name]);
    }
    assert_eq!(leaderboard.lines().count(), n + 1);

    // pairwise.csv: each ordered pair met in every match of the sets holding both.
    let pairwise = text(&t.dir.join("pairwise.csv"));
    let met = sets * rounds * (k * (k - 1)) as u64 / (n * (n - 1)) as u64;
    assert_eq!(pairwise.lines().count(), n * (n - 1) + 1);
    for line in pairwise.lines().skip(1) {
        let cells: Vec<u64> = line
            .split(',')
            .skip(2)
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(cells[0], met, "{line}");
        assert_eq!(cells[1] + cells[2] + cells[3], met, "{line}");
    }

    // seats.csv: one row per seat, means that are the points of that seat.
    let seats_file = text(&t.dir.join("seats.csv"));
    let rows: Vec<&str> = seats_file.lines().skip(1).collect();
    assert_eq!(rows.len(), k);
    for (s, line) in rows.iter().enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells[0], s.to_string());
        let sum: u64 = t.rows.iter().map(|r| u64::from(r.points[s])).sum();
        let mean = sum as f64 / t.rows.len() as f64;
        assert_eq!(cells[2], format!("{mean:.3}"), "{line}");
    }

    // matches.csv: k columns of each per-seat field.
    let matches = text(&t.dir.join("matches.csv"));
    let header: BTreeSet<&str> = matches.lines().next().unwrap().split(',').collect();
    assert!(header.contains(format!("champion{}", k - 1).as_str()));
    assert!(!header.contains(format!("champion{k}").as_str()));
    assert_eq!(t.spec.game, "highest-number");
    common::remove_dir(&t.dir);
}

#[test]
fn a_two_seat_tournament_counts_two_places_in_three_columns() {
    check(2, 5, 4);
}

#[test]
fn a_four_seat_tournament_counts_four_places() {
    check(4, 6, 8);
}

#[test]
fn a_five_seat_tournament_counts_five_places() {
    check(5, 7, 5);
}

#[test]
fn an_eight_seat_tournament_counts_eight_places() {
    check(8, 9, 8);
}
