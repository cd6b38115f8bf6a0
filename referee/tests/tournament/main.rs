//! The `tournament` test binary: tournaments and gauntlets: schedules, standings,
//! statistics, results files, merges, resumes, snapshots, locks, Slurm and SSH runs, signed
//! results. One module per former test file (each was its own binary, linking the whole
//! referee); `common` is compiled once here.

#[path = "../common/mod.rs"]
mod common;

mod confidence;
mod field_input;
mod gauntlet;
mod gauntlet_runs;
mod merge_bounds;
mod open_files;
mod parallel_ssh;
mod results_files;
mod results_links;
mod results_migration;
mod run_lock;
mod schedule_golden;
mod schedule_props;
mod seat_seeds;
mod signed_results;
mod slurm;
mod status_rows;
mod torn_records;
mod tournament;
mod tournament_seats;
mod tournament_snapshot;
mod tournament_standings;

/// `referee tournament --name t --seed 5 --results RESULTS EXTRA...`, its output piped, no
/// reproduce log: the run of the lock's and the torn records' tests.
fn tournament_t(results: &std::path::Path, extra: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_referee"));
    command
        .args(["tournament", "--name", "t", "--seed", "5", "--results"])
        .arg(results)
        .args(extra)
        .env_remove(referee::reproduce_log::VARIABLE)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    command
}
