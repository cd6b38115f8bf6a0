//! The `tournament` test binary: tournaments and gauntlets: schedules, standings,
//! statistics, results files, merges, resumes, snapshots, locks, Slurm and SSH runs, signed
//! results. One module per former test file (each was its own binary, linking the whole
//! referee); `common` is compiled once here.

#[path = "../common/mod.rs"]
mod common;

mod confidence;
mod gauntlet;
mod gauntlet_runs;
mod merge_bounds;
mod parallel_ssh;
mod results_files;
mod results_links;
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
