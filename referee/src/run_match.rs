//! One match with real champion processes: launch the three (a seat of a person, `human`,
//! reads the terminal instead), play, write the record and the stderr logs into the match
//! directory, and leave nothing running.

use crate::endpoint::Endpoint;
use crate::full_log;
use crate::game::{play_logged, MatchSpec, TimeLimits};
use crate::human::{loi::Loi, HumanEndpoint};
use crate::record::{MatchRecord, SeatRecord};
use crate::roster::ChampionSpec;
use crate::run_files::Folder;
use crate::seating::Seating;
use anyhow::Context;
use engine::{Seat, Setup};
use jail::champion::Limits;
use jail::fault::Fault;
use std::path::Path;

/// Most of a champion's stderr kept per match.
pub const STDERR_CAP: u64 = 1 << 20;

/// A match to play: who, with which seed and setup, under which limits.
#[derive(Clone, Debug)]
pub struct MatchPlan {
    pub seed: u64,
    /// Overrides the monument order the seed draws.
    pub monuments: Option<[u8; 14]>,
    /// Overrides the first player the seed draws.
    pub first_player: Option<u8>,
    pub champions: [ChampionSpec; 3],
    pub time: TimeLimits,
    pub limits: Limits,
    /// Pin the match (this thread and its champions) to a CPU no other match of the machine
    /// holds, if there is one (`affinity.rs`).
    pub pin: bool,
    /// Keep every request in a log beside the record (`--full-log`), cut at this many MiB
    /// compressed (`--full-log-cap`).
    pub full_log: Option<u64>,
}

impl MatchPlan {
    /// The setup this plan plays: drawn from the seed, then overridden.
    pub fn setup(&self) -> ([u8; 14], Seat) {
        let drawn = Setup::from_seed(self.seed);
        (
            self.monuments.unwrap_or(drawn.monument_order),
            self.first_player.map(Seat).unwrap_or(drawn.first_player),
        )
    }

    /// Whether a person plays one of the seats (`human`).
    pub fn has_human(&self) -> bool {
        self.champions.iter().any(ChampionSpec::is_human)
    }

    /// Play the match, writing `record.json` and `seat<N>.stderr` into `dir`.
    pub fn run(&self, dir: &Path) -> anyhow::Result<MatchRecord> {
        jail::interrupt::match_starts();
        // Cleared of match files: a record left by an earlier match in this directory would
        // be taken for this one's if this one is interrupted, and a link left there would be
        // written through (`run_files`).
        let folder = Folder::fresh_match(dir)?;
        // Before any champion starts: a log that cannot be created stops nothing running.
        let mut full_log = match self.full_log {
            Some(cap) => Some(full_log::Writer::create_in(&folder, full_log::FILE, cap)?),
            None => None,
        };
        let (monument_order, first_player) = self.setup();
        let seats: [SeatRecord; 3] =
            std::array::from_fn(|i| SeatRecord::of(i, &self.champions[i], self.seed));
        let seeds: Vec<u64> = seats.iter().map(|s| s.seed).collect();
        let human = |seat| -> Box<dyn Endpoint> {
            Box::new(HumanEndpoint::console(seat, Box::new(Loi::new())))
        };
        let mut seating = Seating::start(
            &self.champions,
            &seeds,
            &self.limits,
            &folder,
            self.pin,
            &human,
        )?;
        let spec = MatchSpec {
            seed: self.seed,
            monument_order,
            first_player,
            seats,
            limits: self.time,
            sandbox: self.limits.sandbox.line().to_string(),
        };
        let spawn_faults: [Option<Fault>; 3] = std::mem::take(&mut seating.spawn_faults)
            .try_into()
            .expect("three seats");
        let [a, b, c]: [&mut dyn Endpoint; 3] =
            seating.endpoints().try_into().ok().expect("three seats");
        let mut record = play_logged(
            &spec,
            [a, b, c],
            spawn_faults,
            full_log.as_mut().map(|log| log as &mut dyn full_log::Sink),
        );
        drop(seating);
        if let Some(log) = full_log {
            record.full_log_cut = log.finish()?;
            record.full_log = Some(full_log::FILE.to_string());
            record.full_log_cap = self
                .full_log
                .filter(|&cap| cap != full_log::DEFAULT_CAP_MIB);
        }
        // Champions killed by the referee told to stop, or by a stop signal from outside, would
        // be recorded as crashed: such a match has no result (`interrupt.rs`).
        jail::interrupt::undisturbed()?;
        crate::store::write_in(&folder, "record.json", &record.to_json())
            .with_context(|| format!("cannot write the record into {}", dir.display()))?;
        // No command plays a person's moves again.
        if !self.has_human() {
            crate::reproduce_log::note(
                &self.reproduce_command(),
                &dir.join("record.json"),
                &record,
            );
        }
        Ok(record)
    }
}

/// A fresh directory for the champions' scratch directories of one match (used without
/// the jail; a jailed champion's scratch is a tmpfs inside its jail): an unpredictable
/// name, created exclusively with mode 0700 (`mkdtemp`), so nobody can plant a link there.
/// The name starts with `referee-<pid>-`: the scratch of a referee killed with `kill -9`
/// is removed by the next one (`remove_stale_scratch`).
pub(crate) fn scratch_root() -> anyhow::Result<tempfile::TempDir> {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(remove_stale_scratch);
    tempfile::Builder::new()
        .prefix(&format!("referee-{}-", std::process::id()))
        .tempdir()
        .with_context(|| {
            format!(
                "cannot create a scratch directory in the temporary directory {} (TMPDIR)",
                std::env::temp_dir().display()
            )
        })
}

/// Removes the scratch directories (`referee-<pid>-*`, ours) of referees that are gone.
fn remove_stale_scratch() {
    let tmp = std::env::temp_dir();
    let Ok(entries) = std::fs::read_dir(&tmp) else {
        return;
    };
    // SAFETY: no arguments.
    let me = unsafe { nix::libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("referee-"))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let ours = std::fs::symlink_metadata(entry.path())
            .is_ok_and(|m| m.is_dir() && std::os::unix::fs::MetadataExt::uid(&m) == me);
        if ours && !Path::new(&format!("/proc/{pid}")).exists() {
            remove_tree(&entry.path());
        }
    }
}

/// Removes a scratch tree whatever a champion left in it (directories without
/// permissions, deep chains), and says so on stderr when it cannot.
pub(crate) fn remove_scratch(root: tempfile::TempDir) {
    remove_tree(&root.keep());
}

fn remove_tree(path: &Path) {
    let path = path.to_path_buf();
    if std::fs::remove_dir_all(&path).is_ok() {
        return;
    }
    // A champion may have removed the owner's permissions on its directories.
    let mut stack = vec![path.clone()];
    while let Some(dir) = stack.pop() {
        let _ = std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o700));
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(entry.path());
                }
            }
        }
    }
    if let Err(e) = std::fs::remove_dir_all(&path) {
        eprintln!(
            "warning: cannot remove the scratch directory {}: {e}; remove it by hand",
            path.display()
        );
    }
}
