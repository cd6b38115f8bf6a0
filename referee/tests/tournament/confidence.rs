//! How sure the leaderboard is (issue 16), through the binary: a tournament of each game is
//! played, then its intervals, neighbour probabilities, seat means and Weng-Lin ratings are
//! recomputed here from `matches.csv` by a small implementation of docs/results.md that
//! calls none of the referee's functions, and must equal `leaderboard.csv` (and
//! `seats.csv`) to the last printed digit. Files of an older results schema are refused.

use crate::common;

use common::shell_champion as shell;

use rand::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

// --- The independent implementation (docs/results.md, "How sure is the leaderboard?"). ---

/// SplitMix64's finaliser, and the seed derivation of docs/results.md.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
    z ^ (z >> 31)
}

fn derive(seed: u64, stream: u64, index: u64) -> u64 {
    mix(mix(seed ^ mix(stream.wrapping_add(0x9e3779b97f4a7c15))).wrapping_add(index))
}

/// One match: (champion, score, points) by seat.
type Match = Vec<(String, i32, u32)>;

fn matches_of(dir: &Path, seats: usize) -> Vec<Match> {
    let mut matches: Vec<(u64, Match)> = common::tables::table(&dir.join("matches.csv"))
        .into_iter()
        .map(|r| {
            let id = r["id"].parse().unwrap();
            let seats = (0..seats)
                .map(|s| {
                    (
                        r[&format!("champion{s}")].clone(),
                        r[&format!("score{s}")].parse().unwrap(),
                        r[&format!("points{s}")].parse().unwrap(),
                    )
                })
                .collect();
            (id, seats)
        })
        .collect();
    matches.sort_by_key(|(id, _)| *id);
    matches.into_iter().map(|(_, m)| m).collect()
}

fn percentile(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let m = v.len();
    (v[m * 25 / 1000], v[(m * 975).div_ceil(1000) - 1])
}

struct Expected {
    /// name -> (mean, low, high)
    intervals: BTreeMap<String, (f64, f64, f64)>,
    /// upper name -> P(upper ahead of the next)
    ahead: BTreeMap<String, f64>,
    seats: Vec<(f64, f64, f64)>,
    /// name -> (mu, sigma)
    ratings: BTreeMap<String, (f64, f64)>,
}

fn expected(matches: &[Match], seed: u64, ranking: &[String]) -> Expected {
    let n = matches.len();
    let seats = matches[0].len();
    let mean_of = |drawn: &[usize], name: &str| {
        let (mut sum, mut count) = (0u32, 0u32);
        for &i in drawn {
            for (c, _, p) in &matches[i] {
                if c == name {
                    sum += p;
                    count += 1;
                }
            }
        }
        (count > 0).then(|| f64::from(sum) / f64::from(count))
    };
    let all: Vec<usize> = (0..n).collect();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(derive(seed, 4, 0));
    let mut samples: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut seat_samples = vec![Vec::new(); seats];
    let mut ahead: BTreeMap<String, u32> = BTreeMap::new();
    for _ in 0..1000 {
        let drawn: Vec<usize> = (0..n)
            .map(|_| ((rng.next_u64() as u128 * n as u128) >> 64) as usize)
            .collect();
        for name in ranking {
            if let Some(m) = mean_of(&drawn, name) {
                samples.entry(name).or_default().push(m);
            }
        }
        for (s, sample) in seat_samples.iter_mut().enumerate() {
            let sum: u32 = drawn.iter().map(|&i| matches[i][s].2).sum();
            sample.push(f64::from(sum) / n as f64);
        }
        for pair in ranking.windows(2) {
            let count = ahead.entry(pair[0].clone()).or_default();
            if let (Some(u), Some(l)) = (mean_of(&drawn, &pair[0]), mean_of(&drawn, &pair[1])) {
                if u > l {
                    *count += 1;
                }
            }
        }
    }
    let intervals = ranking
        .iter()
        .map(|name| {
            let (low, high) = percentile(samples[name.as_str()].clone());
            (name.clone(), (mean_of(&all, name).unwrap(), low, high))
        })
        .collect();
    let seats = seat_samples
        .into_iter()
        .enumerate()
        .map(|(s, sample)| {
            let mean = matches.iter().map(|m| f64::from(m[s].2)).sum::<f64>() / n as f64;
            let (low, high) = percentile(sample);
            (mean, low, high)
        })
        .collect();
    let ahead = ahead
        .into_iter()
        .map(|(k, v)| (k, f64::from(v) / 1000.0))
        .collect();
    Expected {
        intervals,
        ahead,
        seats,
        ratings: weng_lin(matches),
    }
}

/// Weng and Lin (2011), algorithm 1 (Bradley-Terry, full pairing), every seat a team of
/// one ranked by its score: mu 25, sigma 25/3, beta 25/6, kappa 1e-6.
fn weng_lin(matches: &[Match]) -> BTreeMap<String, (f64, f64)> {
    let beta: f64 = 25.0 / 6.0;
    let mut r: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for m in matches {
        let before: Vec<(f64, f64)> = m
            .iter()
            .map(|(c, _, _)| *r.get(c).unwrap_or(&(25.0, 25.0 / 3.0)))
            .collect();
        for (i, (name, score_i, _)) in m.iter().enumerate() {
            let (mu_i, sigma_i) = before[i];
            let (mut omega, mut delta) = (0.0, 0.0);
            for (q, (_, score_q, _)) in m.iter().enumerate() {
                if q == i {
                    continue;
                }
                let (mu_q, sigma_q) = before[q];
                let c = (sigma_i * sigma_i + sigma_q * sigma_q + 2.0 * beta * beta).sqrt();
                let p = (mu_i / c).exp() / ((mu_i / c).exp() + (mu_q / c).exp());
                let s = match score_i.cmp(score_q) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
                omega += sigma_i * sigma_i / c * (s - p);
                let gamma = sigma_i / c;
                delta += gamma * sigma_i * sigma_i / (c * c) * p * (1.0 - p);
            }
            let mu = mu_i + omega;
            let sigma = sigma_i * (1.0 - delta).max(1e-6).sqrt();
            r.insert(name.clone(), (mu, sigma));
        }
    }
    r
}

fn close(text: &str, value: f64) -> bool {
    // Printed with three decimals; the last one may round the other way when the two
    // implementations differ in the last bit of a float.
    (text.parse::<f64>().unwrap() - value).abs() <= 0.0005 + 1e-9
}

fn check(dir: &Path, seats: usize, seed: u64) {
    let matches = matches_of(dir, seats);
    let board = common::tables::table(&dir.join("leaderboard.csv"));
    let ranking: Vec<String> = board.iter().map(|r| r["champion"].clone()).collect();
    let want = expected(&matches, seed, &ranking);
    let mut exact = 0;
    for (k, row) in board.iter().enumerate() {
        let name = &row["champion"];
        let (mean, low, high) = want.intervals[name];
        assert_eq!(row["mean_points"], format!("{mean:.3}"), "{name}");
        assert_eq!(row["mean_points_low"], format!("{low:.3}"), "{name}");
        assert_eq!(row["mean_points_high"], format!("{high:.3}"), "{name}");
        if k + 1 < board.len() {
            assert_eq!(
                row["p_ahead_of_next"],
                format!("{:.3}", want.ahead[name]),
                "{name}"
            );
        } else {
            assert_eq!(row["p_ahead_of_next"], "", "{name}");
        }
        let (mu, sigma) = want.ratings[name];
        assert!(
            close(&row["rating"], mu),
            "{name}: {} vs {mu}",
            row["rating"]
        );
        assert!(
            close(&row["rating_sigma"], sigma),
            "{name}: {} vs {sigma}",
            row["rating_sigma"]
        );
        exact += usize::from(row["rating"] == format!("{mu:.3}"));
    }
    assert!(
        exact + 1 >= board.len(),
        "ratings equal to the printed digit"
    );
    let seat_rows = common::tables::table(&dir.join("seats.csv"));
    assert_eq!(seat_rows.len(), seats);
    for (s, row) in seat_rows.iter().enumerate() {
        let (mean, low, high) = want.seats[s];
        assert_eq!(row["seat"], s.to_string());
        assert_eq!(row["matches"], matches.len().to_string());
        assert_eq!(row["mean_points"], format!("{mean:.3}"));
        assert_eq!(row["mean_points_low"], format!("{low:.3}"));
        assert_eq!(row["mean_points_high"], format!("{high:.3}"));
    }
}

fn tournament(results: &Path, game: &[&str], champions: &[String], seed: u64) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .args(game)
        .arg("tournament")
        .args(champions)
        .args([
            "--name",
            "t",
            "--seed",
            &seed.to_string(),
            "--time-scale",
            "2",
        ])
        .args(["--rounds", "6", "--jobs", "2"])
        .arg("--results")
        .arg(results);
    command
}

#[test]
fn the_loi_leaderboard_is_recomputed_independently() {
    let dir = common::fresh_dir("confidence", "loi");
    let champions = vec![
        "random".to_string(),
        "greedy".to_string(),
        shell("passive.sh"),
        shell("builder.sh"),
    ];
    let out = common::run_ok(tournament(&dir, &[], &champions, 2009));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("points/match [95%]"), "{printed}");
    assert!(printed.contains("points by seat"), "{printed}");
    check(&dir.join("t"), 3, 2009);
}

#[test]
fn the_amazons_leaderboard_is_recomputed_independently() {
    let dir = common::fresh_dir("confidence", "amazons");
    let champions: Vec<String> = vec!["mobility".into(), "random".into(), shell("passive.sh")];
    common::run_ok(tournament(&dir, &["--game", "amazons"], &champions, 31));
    check(&dir.join("t"), 2, 31);
}

/// A tournament directory of results schema 2 (before the confidence columns) is refused by
/// `--resume` and by `merge`, saying which schema it has and which is read.
#[test]
fn older_results_are_refused_clearly() {
    let dir = common::fresh_dir("confidence", "schema");
    let champions = vec!["random".to_string(), "greedy".into(), shell("passive.sh")];
    let mut first = tournament(&dir, &[], &champions, 5);
    first.args(["--shard", "1/2"]);
    common::run_ok(first);
    let shard: PathBuf = dir.join("t/shard-1-of-2");
    let spec = shard.join("tournament.json");
    let text = std::fs::read_to_string(&spec).unwrap();
    let schema = format!("\"schema\": {}", referee::export::RESULTS_SCHEMA);
    assert!(text.contains(&schema), "{text}");
    std::fs::write(&spec, text.replace(&schema, "\"schema\": 2")).unwrap();
    let mut resume = tournament(&dir, &[], &champions, 5);
    resume.args(["--shard", "1/2", "--resume"]);
    let out = resume.stdin(Stdio::null()).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    let says = format!(
        "has results schema Some(2); this referee reads schema {}",
        referee::export::RESULTS_SCHEMA
    );
    assert!(err.contains(&says), "{err}");
    let out = Command::new(REFEREE)
        .arg("merge")
        .arg(&shard)
        .args(["--partial", "--out"])
        .arg(dir.join("merged"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(&says), "{err}");
}
