//! Plays again every match of a `REFEREE_REPRODUCE_LOG` file (`crate::reproduce_log`), by
//! running its reproduce command as printed, and compares each new record with the one the
//! match wrote (kept in the log): everything but the timings and the wording of fault messages (which quote
//! measured times) must be equal. `scripts/test.sh` runs it after the test suite.
//!
//! Run: `cargo run -p referee --example reproduce_suite -- LOG REFEREE_BINARY [--share N]`
//! (`--share N`: one in N of the distinct matches, for a run with a time budget).
//!
//! A callback cut by a timeout ends at a point that depends on the machine's speed (a
//! champion that asks until its CPU budget runs out asks more on a faster machine): of such a
//! callback only the fault is compared, while what follows it still must be the same.
//!
//! Where no cgroup limits memory, it is sampled: a champion that grows past its limit is
//! stopped in the callback where a sample first sees it. Such a match is reported apart,
//! when both runs stopped the same seats for the same faults and agree up to that callback.
//!
//! A match the suite played more than once (the same command from the same directory,
//! with the same champion files: a tournament run twice to compare, a resume) is played
//! again once, and every record of it must equal the first. So is one whose records are the
//! same but for the seats' names and paths (the same champion files reached by another
//! path, from another directory: a tournament's shards, a resume from elsewhere): one of
//! its commands is played again.
//!
//! Seat names are labels (a tournament names its champions; `referee match` names them after
//! their files) and are not compared. A match whose champion file changed after it was
//! played or was removed with its test's directory, cannot be played again: it is listed,
//! with the reason, and not counted as reproduced.

use rayon::prelude::*;
use referee::reproduce_log::Entry;
use serde_json::Value;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// What became of one entry.
#[derive(Clone)]
enum Outcome {
    Same,
    /// The same up to the first callback that a sampled limit (memory) stopped in either
    /// run, with the same faults by seat and kind.
    SameUntilSampled,
    /// A champion's file is not what the match played (changed or removed since), or the
    /// record was altered after the match; or a game of the tests that no command plays.
    Altered(String),
    Differs(String),
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (log, referee, share) = match args.as_slice() {
        [log, referee] => (log, referee, 1),
        [log, referee, flag, n] if flag == "--share" && n.parse::<u64>().is_ok_and(|n| n > 0) => {
            (log, referee, n.parse().expect("checked"))
        }
        _ => {
            eprintln!("usage: reproduce_suite LOG REFEREE_BINARY [--share N]");
            std::process::exit(2);
        }
    };
    let referee = std::path::absolute(referee).expect("a path");
    let text = std::fs::read_to_string(log).unwrap_or_else(|e| {
        eprintln!("cannot read {log}: {e}");
        std::process::exit(2)
    });
    let entries: Vec<Entry> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a line of the log"))
        .collect();
    let scratch = tempfile::tempdir().expect("a scratch directory");
    // Matches the suite played more than once (the same command from the same directory,
    // with the same champion files) are played again once; the others' records must equal
    // that first one's.
    let mut groups: BTreeMap<(String, String, String), Vec<usize>> = BTreeMap::new();
    for (i, entry) in entries.iter().enumerate() {
        let seats = entry.record["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|seat| seat["sha256"].to_string())
            .collect();
        let key = (entry.cwd.clone(), entry.command.render(), seats);
        groups.entry(key).or_default().push(i);
    }
    let commands = groups.len();
    // Commands whose first records are the same match but for the seats' names and paths
    // (the same champion files reached by another path or from another directory, under
    // another name: a tournament's match and the same one of its resume, its shards or a
    // second run: about a quarter of the commands, referee/BENCHMARKS.md, "The CPU of each
    // test") play one of them again: a record is the whole match (its seed, options, limits, champions' hashes and
    // every callback), and its reproduce command differs from the others' in those paths
    // only. The records of one command must still equal each other, paths included.
    let mut matches: BTreeMap<String, Vec<Vec<usize>>> = BTreeMap::new();
    for (_, group) in groups {
        let key = without_paths(comparable(entries[group[0]].record.clone())).to_string();
        matches.entry(key).or_default().push(group);
    }
    let distinct = matches.len();
    // One in `share` of them, when asked (chosen by a hash of the first command, whose
    // paths of the suite's temporary directories make it another choice each run).
    let matches: Vec<Vec<Vec<usize>>> = matches
        .into_values()
        .filter(|commands| {
            let mut hasher = std::hash::DefaultHasher::new();
            entries[commands[0][0]].command.render().hash(&mut hasher);
            hasher.finish().is_multiple_of(share)
        })
        .collect();
    let timed: Vec<(Outcome, Duration)> = matches
        .par_iter()
        .map(|commands| {
            let start = Instant::now();
            // The first command whose champions are still there (a test may have removed
            // the folder of one of them).
            let mut outcome = Outcome::Altered(String::new());
            for group in commands {
                let first = &entries[group[0]];
                outcome = play_again(first, &referee, &scratch.path().join(group[0].to_string()));
                if !matches!(outcome, Outcome::Altered(_)) {
                    break;
                }
            }
            (outcome, start.elapsed())
        })
        .collect();
    // Every command of a match takes the outcome of the one played again (their records
    // are the same but for the seats' paths: the key above), its time counted once.
    let groups: Vec<&Vec<usize>> = matches.iter().flatten().collect();
    let timed: Vec<(Outcome, Duration)> = matches
        .iter()
        .zip(timed)
        .flat_map(|(commands, (outcome, took))| {
            (0..commands.len())
                .map(move |i| (outcome.clone(), if i == 0 { took } else { Duration::ZERO }))
        })
        .collect();
    let mut slowest: Vec<(Duration, String)> = timed
        .iter()
        .zip(groups.iter().copied())
        .map(|((_, took), group)| (*took, entries[group[0]].command.render()))
        .collect();
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    let total: Duration = slowest.iter().map(|(took, _)| *took).sum();
    let mut outcomes: Vec<Option<Outcome>> = entries.iter().map(|_| None).collect();
    for (group, (outcome, _)) in groups.iter().copied().zip(timed) {
        let first = comparable(entries[group[0]].record.clone());
        for &i in &group[1..] {
            let again = comparable(entries[i].record.clone());
            outcomes[i] = Some(if first == again || same_until_sampled(&first, &again) {
                outcome.clone()
            } else {
                Outcome::Differs(format!(
                    "the suite played it twice with other records ({} first): {}",
                    entries[group[0]].path,
                    first_difference(&first, &again, String::new())
                ))
            });
        }
        outcomes[group[0]] = Some(outcome);
    }
    println!(
        "{} matches of the suite, {distinct} distinct ({commands} reproduce commands): {} of \
         them played again{}",
        entries.len(),
        matches.len(),
        if share > 1 {
            format!(" (one in {share}; without --share, all)")
        } else {
            String::new()
        }
    );
    // The entries of the matches played again (all of them without `--share`).
    let (entries, outcomes): (Vec<&Entry>, Vec<Outcome>) = entries
        .iter()
        .zip(outcomes)
        .filter_map(|(entry, outcome)| Some((entry, outcome?)))
        .unzip();
    let (mut same, mut sampled, mut changed, mut differs) = (0, 0, Vec::new(), Vec::new());
    for (entry, outcome) in entries.iter().zip(outcomes) {
        match outcome {
            Outcome::Same => same += 1,
            Outcome::SameUntilSampled => sampled += 1,
            Outcome::Altered(why) => changed.push(format!("  {}: {why}", entry.command.render())),
            Outcome::Differs(why) => differs.push(format!(
                "  {} (in {}; record {}): {why}",
                entry.command.render(),
                entry.cwd,
                entry.path
            )),
        }
    }
    println!(
        "reproduce commands of the suite's matches: {} played again, {same} gave the same \
         record, {sampled} the same up to a memory fault seen by sampling, {} differ, {} not \
         replayable (a champion or the record changed after the match)",
        entries.len(),
        differs.len(),
        changed.len()
    );
    println!(
        "the replays took {:.0} s in all; the slowest:",
        total.as_secs_f64()
    );
    for (took, command) in slowest.iter().take(5) {
        println!("  {:5.1} s  {command}", took.as_secs_f64());
    }
    if !changed.is_empty() {
        println!("not replayable:\n{}", changed.join("\n"));
    }
    if !differs.is_empty() {
        println!("DIFFERENT:\n{}", differs.join("\n"));
        std::process::exit(1);
    }
}

fn play_again(entry: &Entry, referee: &Path, out: &Path) -> Outcome {
    let first = entry.record.clone();
    // A game of the tests that no registry holds (High card) has no command to run.
    if let Some(game) = first["game"].as_str() {
        if referee::games::by_name(game).is_none() {
            return Outcome::Altered(format!("`{game}` is a test's game, which no command plays"));
        }
    }
    // A record of the 2009 game is replayed first: a test may have made one that does not.
    if first.get("game").is_none() {
        let replays = serde_json::from_value::<referee::record::MatchRecord>(first.clone())
            .map_err(|e| e.to_string())
            .and_then(|record| referee::replay::replay(&record));
        if let Err(why) = replays {
            return Outcome::Altered(format!("its record does not replay ({why})"));
        }
    }
    for seat in first["seats"].as_array().into_iter().flatten() {
        let path = seat["path"].as_str().unwrap_or("");
        if !path.starts_with("builtin:") && !Path::new(path).exists() {
            return Outcome::Altered(format!("{path} is gone (its test removed it)"));
        }
    }
    if !Path::new(&entry.cwd).is_dir() {
        return Outcome::Altered(format!("{} is gone (its test removed it)", entry.cwd));
    }
    // The command as a user pastes it, with `referee` on PATH.
    let bin = referee.parent().expect("a directory");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // Its text as printed, pasted into a shell, `--out` right after `match` (the champions
    // may end the command, after a `--`); a match of the suite takes seconds, one that
    // hangs is cut and reported.
    let mut command = entry.command.clone();
    let Some(at) = command.args.iter().position(|a| a == "match") else {
        return Outcome::Differs("its command plays no match".into());
    };
    command.args.insert(at + 1, "--out".into());
    command.args.insert(at + 2, out.display().to_string());
    let output = Command::new("timeout")
        .args(["--kill-after=10", "300", "bash", "-c"])
        .arg(command.render())
        .current_dir(&entry.cwd)
        .env("PATH", path)
        .env_remove(referee::reproduce_log::VARIABLE)
        .output()
        .expect("bash runs");
    let again = match load(&out.join("record.json")) {
        Ok(record) => record,
        Err(e) => {
            return Outcome::Differs(format!(
                "no record ({e}); exit {:?}, stderr: {}",
                output.status.code(),
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        }
    };
    if let Some(why) = changed_champion(&first, &again) {
        return Outcome::Altered(why);
    }
    let (first, again) = (comparable(first), comparable(again));
    if first == again {
        Outcome::Same
    } else if same_until_sampled(&first, &again) {
        Outcome::SameUntilSampled
    } else {
        let mut why = first_difference(&first, &again, String::new());
        if first["faults"] != again["faults"] {
            why += &format!(
                " (faults {} then {})",
                short(&first["faults"]),
                short(&again["faults"])
            );
        }
        Outcome::Differs(why)
    }
}

fn load(path: &Path) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
}

/// A seat whose champion's hash is not the one the match played.
fn changed_champion(first: &Value, again: &Value) -> Option<String> {
    let seats = |r: &Value| r["seats"].as_array().cloned().unwrap_or_default();
    seats(first)
        .iter()
        .zip(seats(again))
        .find(|(a, b)| a["sha256"] != b["sha256"])
        .map(|(a, _)| format!("{} changed", a["path"]))
}

/// Memory is sampled (every few milliseconds, and at the end of each callback) where no
/// cgroup limits it: a champion that grows past its limit is stopped in the callback where
/// a sample first sees it, which depends on the machine's speed. Two records of such a
/// match agree on who was stopped for what, and on every callback before the first one
/// that a memory fault stopped in either.
fn same_until_sampled(first: &Value, again: &Value) -> bool {
    let faults = |r: &Value| {
        let mut f: Vec<(Value, Value)> = r["faults"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| (f["seat"].clone(), f["kind"].clone()))
            .collect();
        f.sort_by_key(|(s, k)| (s.to_string(), k.to_string()));
        f
    };
    let callbacks = |r: &Value| r["callbacks"].as_array().cloned().unwrap_or_default();
    let cut = |r: &Value| {
        callbacks(r)
            .iter()
            .position(|c| c["fault"]["kind"] == "memory")
    };
    let (Some(a), b) = (cut(first), cut(again)) else {
        return false;
    };
    let end = b.map_or(a, |b| a.min(b));
    faults(first) == faults(again)
        && faults(first).iter().any(|(_, k)| k == "memory")
        && callbacks(first)[..end] == callbacks(again)[..end.min(callbacks(again).len())]
}

/// The record without what measures time.
fn comparable(mut record: Value) -> Value {
    let strip = |fault: &mut Value| {
        if let Some(f) = fault.as_object_mut() {
            f.remove("message");
        }
    };
    if let Some(object) = record.as_object_mut() {
        object.remove("timings");
    }
    for seat in record["seats"].as_array_mut().into_iter().flatten() {
        if let Some(s) = seat.as_object_mut() {
            s.remove("name");
        }
    }
    for fault in record["faults"].as_array_mut().into_iter().flatten() {
        strip(fault);
    }
    for callback in record["callbacks"].as_array_mut().into_iter().flatten() {
        strip(&mut callback["fault"]);
        if callback["fault"]["kind"] == "timeout" {
            if let Some(c) = callback.as_object_mut() {
                for field in ["requests", "actions", "steps", "info", "refused", "digest"] {
                    c.remove(field);
                }
            }
        }
    }
    record
}

/// A comparable record without its seats' paths: the same match reached by another path.
fn without_paths(mut record: Value) -> Value {
    for seat in record["seats"].as_array_mut().into_iter().flatten() {
        if let Some(s) = seat.as_object_mut() {
            s.remove("path");
        }
    }
    record
}

/// Where two JSON values first differ.
fn first_difference(a: &Value, b: &Value, at: String) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in x {
                if y.get(key) != Some(value) {
                    return first_difference(
                        value,
                        y.get(key).unwrap_or(&Value::Null),
                        format!("{at}.{key}"),
                    );
                }
            }
            format!("{at}: keys differ")
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if p != q {
                    return first_difference(p, q, format!("{at}[{i}]"));
                }
            }
            format!("{at}: {} items then {}", x.len(), y.len())
        }
        _ => format!("{at}: {} then {}", short(a), short(b)),
    }
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.len() > 160 {
        format!("{}...", &text[..160])
    } else {
        text
    }
}
