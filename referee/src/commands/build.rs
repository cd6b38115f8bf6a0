//! `referee build DIR...`: each champion's folder built with `make` in a jail
//! (`crate::build`), one line for each that built, and for each that did not, why and its
//! output, escaped. Exit 0 when every build succeeded, 4 when one failed, 2 for a folder
//! without a Makefile, 1 when no jail can be built here.

use super::{Failure, EXIT_BUILD_FAILED};
use crate::cli::BuildArgs;
use anyhow::anyhow;
use jail::build::{BuildError, BuildSpec};
use jail::untrusted::{printable, printable_path};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Raised by Ctrl-C, SIGTERM or SIGHUP: the build in progress is killed (its jail), its
/// folder given back, and no other starts.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Catches the stop signals: each kills the build's jail, so that the build returns and
/// gives its folder back before the referee exits.
fn catch_stop() {
    if let Ok(mut signals) = signal_hook::iterator::Signals::new(jail::interrupt::STOP_SIGNALS) {
        std::thread::spawn(move || {
            for _ in signals.forever() {
                STOPPED.store(true, Ordering::SeqCst);
                jail::kill_every_jail();
            }
        });
    }
}

pub fn run(args: BuildArgs) -> Result<(), Failure> {
    catch_stop();
    let report = jail::sandbox::probe(jail::sandbox::SandboxMode::Auto);
    let plan = report.plan();
    eprintln!("{}", plan.line());
    let mut failed = Vec::new();
    for dir in &args.dirs {
        let spec = BuildSpec {
            dir: dir.clone(),
            cpu: Duration::from_secs_f64(args.cpu),
            wall: Duration::from_secs_f64(args.wall),
            memory: args.memory << 20,
            disk: args.disk << 20,
            processes: args.processes,
        };
        let shown = printable_path(dir);
        let outcome = jail::build::build(&spec, &plan, &mut |note| {
            eprintln!("note: {shown}: {}", printable(note))
        });
        if STOPPED.load(Ordering::SeqCst) {
            return Err(Failure {
                code: jail::interrupt::EXIT_INTERRUPTED,
                error: anyhow!("interrupted: the build of {shown} was stopped"),
            });
        }
        match outcome {
            Ok(built) => {
                print_output(&built.output);
                println!(
                    "built {shown} in its jail ({:.1} s of CPU, {:.1} s)",
                    built.cpu.as_secs_f64(),
                    built.wall.as_secs_f64()
                );
            }
            Err(BuildError::Input(why)) => return Err(Failure::usage(anyhow!("{why}"))),
            Err(BuildError::Unavailable(why)) => {
                return Err(Failure::from(anyhow!(
                    "cannot build {shown} in a jail: {}",
                    printable(&why)
                )))
            }
            Err(BuildError::Failed { why, output }) => {
                print_output(&output);
                println!("FAILED to build {shown}: {}", printable(&why));
                failed.push(shown);
            }
        }
    }
    if failed.is_empty() {
        return Ok(());
    }
    Err(Failure {
        code: EXIT_BUILD_FAILED,
        error: anyhow!(
            "{} of {} build(s) failed: {} (the output of each is above)",
            failed.len(),
            args.dirs.len(),
            failed.join(", ")
        ),
    })
}

/// The output of a build, each line escaped (it is the champion's text).
fn print_output(output: &[u8]) {
    let text = String::from_utf8_lossy(output);
    for line in text.lines() {
        println!("  | {}", printable(line));
    }
}
