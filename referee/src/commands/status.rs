//! `referee status results/<name>`: how far a tournament is, from its files only (so it
//! works on any machine that sees them): for the whole run or each shard
//! (`shard-I-of-N`), matches done of the total and faults (from `matches.csv`: distinct
//! matches of its schedule only, each row checked against it as `--resume` checks it; rows
//! repeated or not of the schedule are counted apart and named, and the records and seals
//! behind the rows are not checked, which the line says when the rows are not right), and from
//! `progress.json` (`tournament/progress.rs`) whether its referee is running, with its
//! rate and ETA, finished, or stopped without finishing; then the total, and a last line
//! saying that none of it was checked against the run's key ([`UNVERIFIED`]). Of a
//! gauntlet's directory, its pairs, estimate and verdict so far (`gauntlet::status`).

use super::tournament::progress::{self, ProgressFile};
use super::Failure;
use crate::cli::words::ScheduleProblem;
use crate::cli::StatusArgs;
use crate::tournament::TournamentSpec;
use anyhow::anyhow;
use jail::untrusted::{printable, printable_path};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The last line of a tournament's status: it reads the rows as they are, without the
/// organiser's key (status runs anywhere, on files anyone may have written), so a row edited
/// consistently with the schedule (a fault added, a score changed) counts here as written.
pub const UNVERIFIED: &str = "unverified: counted from matches.csv as it is, no row, record or \
     seal checked against the run's key (a row edited by whoever can write the results counts \
     here as written); `referee merge` and `--resume` verify every one";

/// A referee silent for longer than this many of its write intervals (and 30 s more) is
/// taken for gone: killed, or its machine lost.
const SILENT_INTERVALS: u64 = 5;

/// What the files of one run (a shard, or the whole tournament) say.
pub(crate) struct Part {
    pub total: u64,
    /// Distinct matches of its schedule with a row.
    pub done: u64,
    pub faults: u64,
    /// Rows of a match already counted.
    pub repeated: u64,
    /// Rows that are not of its schedule as the referee writes them (edited, or of
    /// another run).
    pub unknown: u64,
    pub progress: Option<ProgressFile>,
}

impl Part {
    /// Reads the run in `dir` (it has a `tournament.json`).
    pub(crate) fn read(dir: &Path, spec: &TournamentSpec) -> anyhow::Result<Part> {
        let total = spec.shard.map_or(spec.matches, |s| s.len_of(spec.matches));
        let game = crate::games::by_name(&spec.game)
            .ok_or_else(|| anyhow!("{}: unknown game `{}`", dir.display(), spec.game))?;
        let (mut done, mut faults, mut repeated, mut unknown) = (0, 0, 0, 0);
        let csv = dir.join("matches.csv");
        if csv.exists() {
            let seats = spec.seat_count(game).map_err(anyhow::Error::msg)?;
            let schedule = spec
                .schedule(seats)
                .map_err(|e| anyhow!("{}", ScheduleProblem(e)))?;
            // At most one id per match of the schedule is kept, whatever the file holds.
            let mut seen = std::collections::HashSet::new();
            crate::store::read_rows(&csv, seats, |(row, first_player), _, _| {
                if spec
                    .check_row(&row, first_player, &schedule, spec.shard, game)
                    .is_err()
                {
                    unknown += 1;
                } else if !seen.insert(row.id) {
                    repeated += 1;
                } else {
                    done += 1;
                    faults += row.faults.iter().flatten().count() as u64;
                }
                Ok(())
            })?;
        }
        Ok(Part {
            total,
            done,
            faults,
            repeated,
            unknown,
            progress: ProgressFile::load(dir)?,
        })
    }

    /// Whether every match of it is played (and no row is wrong).
    pub(crate) fn is_complete(&self) -> bool {
        self.done >= self.total && !self.is_suspect()
    }

    /// Whether its `matches.csv` holds rows repeated or not of its schedule.
    fn is_suspect(&self) -> bool {
        self.repeated + self.unknown > 0
    }

    /// What is wrong with its rows, to end its line: `; its matches.csv also holds 5
    /// repeated row(s) ...`, or nothing.
    fn suspect(&self) -> String {
        if !self.is_suspect() {
            return String::new();
        }
        format!(
            "; its matches.csv also holds {} repeated row(s) and {} row(s) not of this \
             run's schedule, not counted (edited, or from another run; no record or seal \
             was checked): `--resume` and `merge` refuse it; restore the file the referee \
             wrote",
            self.repeated, self.unknown
        )
    }

    /// Whether its referee is running now (it wrote lately).
    fn is_running(&self, now: u64) -> bool {
        self.progress.as_ref().is_some_and(|p| is_running(p, now))
    }

    /// `120/400 matches, faults 3, running on node1 (pid 12), 3.40 matches/s, ETA 1m22s`.
    fn describe(&self, now: u64) -> String {
        let text = format!(
            "{}/{} matches, faults {}, ",
            self.done, self.total, self.faults
        );
        if self.is_complete() {
            return text + "finished";
        }
        let left = self.total.saturating_sub(self.done);
        text + &activity(self.progress.as_ref(), now, Some(left)) + &self.suspect()
    }
}

/// Whether a run that `progress` (its `progress.json`) tells of, not finished, is
/// running: `running on node1 (pid 12), 3.40 matches/s` and, with `left` matches to
/// play, `, ETA 1m22s`; or `stopped without finishing` (and when, if it said).
pub(crate) fn activity(progress: Option<&ProgressFile>, now: u64, left: Option<u64>) -> String {
    // The host is text from a file: escaped like every name.
    let at = |p: &ProgressFile| format!("on {} (pid {})", printable(&p.host), p.pid);
    match progress {
        Some(p) if is_running(p, now) => {
            let rate = p.rate();
            let mut text = format!("running {}, {rate:.2} matches/s", at(p));
            if let Some(left) = left {
                text += &format!(
                    ", ETA {}",
                    if rate > 0.0 {
                        progress::duration(left as f64 / rate)
                    } else {
                        "?".into()
                    }
                );
            }
            text
        }
        Some(p) => {
            let ago = progress::duration(now.saturating_sub(p.updated) as f64);
            match p.state.as_str() {
                "running" if is_gone(p) => format!(
                    "stopped without finishing (its referee {} is gone, last heard of {ago} \
                     ago)",
                    at(p)
                ),
                "running" => format!(
                    "stopped without finishing (its referee {} fell silent {ago} ago)",
                    at(p)
                ),
                _ => format!(
                    "stopped without finishing (its referee {} stopped {ago} ago)",
                    at(p)
                ),
            }
        }
        None => "stopped without finishing".into(),
    }
}

/// Whether the referee that wrote `p` is running now: it wrote lately, and if it ran on
/// this machine, it is still there.
pub(crate) fn is_running(p: &ProgressFile, now: u64) -> bool {
    let silent_for = SILENT_INTERVALS
        .saturating_mul(p.every_s.max(1))
        .saturating_add(30);
    p.state == "running" && now.saturating_sub(p.updated) <= silent_for && !is_gone(p)
}

/// Whether the referee that wrote `p` ran on this machine and is gone: no process of this
/// program has its pid (killed with `kill -9`, or out at a second stop signal without a
/// last word). Of another machine nothing is known but what the file says.
fn is_gone(p: &ProgressFile) -> bool {
    let comm = |pid: &str| std::fs::read_to_string(format!("/proc/{pid}/comm")).ok();
    p.host == progress::hostname() && comm(&p.pid.to_string()) != comm("self")
}

pub fn run(args: StatusArgs) -> Result<(), Failure> {
    let dir = &args.dir;
    let now = progress::now();
    if dir.join("gauntlet.json").exists() {
        println!(
            "{}",
            super::gauntlet::status(dir, now).map_err(Failure::usage)?
        );
        return Ok(());
    }
    let shards = shard_dirs(dir).map_err(Failure::usage)?;
    if shards.is_empty() {
        let spec = load(dir)?;
        let part = Part::read(dir, &spec).map_err(Failure::usage)?;
        println!(
            "tournament {}: {}",
            jail::untrusted::printable(&spec.name),
            part.describe(now)
        );
        println!("{UNVERIFIED}");
        return Ok(());
    }
    for (count, present) in shards {
        let mut total = 0;
        let (mut done, mut faults, mut rate, mut suspect) = (0, 0, 0.0, false);
        let (mut stopped, mut unstarted) = (Vec::new(), Vec::new());
        let mut name = String::new();
        for index in 1..=count {
            let Some(shard_dir) = present.get(&index) else {
                println!("shard {index}/{count}: not started");
                unstarted.push(index);
                continue;
            };
            let spec = load(shard_dir)?;
            name = spec.name.clone();
            // Every shard's files know the whole schedule's length.
            total = spec.matches;
            let part = Part::read(shard_dir, &spec).map_err(Failure::usage)?;
            println!("shard {index}/{count}: {}", part.describe(now));
            done += part.done;
            faults += part.faults;
            suspect |= part.is_suspect();
            if part.is_running(now) {
                rate += part.progress.as_ref().map_or(0.0, ProgressFile::rate);
            } else if !part.is_complete() {
                stopped.push(index);
            }
        }
        let mut line = format!(
            "tournament {} ({count} shards): {done}/{total} matches, faults {faults}",
            jail::untrusted::printable(&name)
        );
        if done < total && rate > 0.0 {
            line += &format!(
                ", {rate:.2} matches/s, ETA {}",
                progress::duration((total - done) as f64 / rate)
            );
        }
        if done >= total && total > 0 && !suspect {
            line += ", complete";
        }
        if suspect {
            line += ", some rows repeated or not of its schedule (above): not counted";
        }
        println!("{line}");
        let list = |shards: &[u64]| {
            let list: Vec<String> = shards.iter().map(|i| format!("{i}/{count}")).collect();
            list.join(", ")
        };
        if !stopped.is_empty() {
            println!(
                "stopped without finishing: shard {}; run each again with the same command \
                 (its --resume plays only the missing matches)",
                list(&stopped)
            );
        }
        // No folder yet: a shard waiting in a queue looks the same as one never started.
        if !unstarted.is_empty() {
            println!(
                "not started: shard {}; start each with the same command, unless it is waiting \
                 in a queue (on Slurm: `squeue`, or `scripts/slurm-tournament.sh status NAME`, \
                 which shows both)",
                list(&unstarted)
            );
        }
    }
    println!("{UNVERIFIED}");
    Ok(())
}

fn load(dir: &Path) -> Result<TournamentSpec, Failure> {
    TournamentSpec::load(&dir.join("tournament.json")).map_err(|e| {
        Failure::usage(anyhow!(
            "{}: {e:#}; give a tournament's or gauntlet's directory (results/<name>)",
            printable_path(dir)
        ))
    })
}

/// The `shard-I-of-N` directories in `dir`, by N then I.
fn shard_dirs(dir: &Path) -> anyhow::Result<BTreeMap<u64, BTreeMap<u64, PathBuf>>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        anyhow!(
            "cannot read {}: {e}; give a tournament's or gauntlet's directory (results/<name>)",
            printable_path(dir)
        )
    })?;
    let mut shards: BTreeMap<u64, BTreeMap<u64, PathBuf>> = BTreeMap::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((index, count)) = name
            .to_str()
            .and_then(|n| n.strip_prefix("shard-"))
            .and_then(|n| n.split_once("-of-"))
            .and_then(|(i, n)| Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
        else {
            continue;
        };
        if entry.path().join("tournament.json").exists() {
            shards.entry(count).or_default().insert(index, entry.path());
        } else {
            shards.entry(count).or_default();
        }
    }
    Ok(shards)
}
