//! One module per subcommand: each turns checked arguments into work and output.

pub(crate) mod alike;
pub mod build;
pub mod gauntlet;
pub(crate) mod keys;
pub mod merge;
pub mod model;
pub(crate) mod names;
pub(crate) mod open_files;
pub mod serve;
pub mod serve_tournament;
pub mod status;
pub mod tournament;

use crate::cli::{Cli, Command};

/// Exit code of a usage or input error (bad flag, missing champion, unreadable record).
pub const EXIT_USAGE: i32 = 2;
/// Exit code when a replay does not match its record.
pub const EXIT_MISMATCH: i32 = 3;
/// Exit code when a champion's build failed (`referee build`).
pub const EXIT_BUILD_FAILED: i32 = 4;

/// A failure that maps to an exit code.
#[derive(Debug)]
pub struct Failure {
    pub code: i32,
    pub error: anyhow::Error,
}

impl Failure {
    pub fn usage(error: impl Into<anyhow::Error>) -> Failure {
        Failure {
            code: EXIT_USAGE,
            error: error.into(),
        }
    }
}

impl From<anyhow::Error> for Failure {
    /// Exit code 1 (the referee failed), but 2 for a results folder the user named that
    /// cannot be had (`run_files::NoPlace`): a file in its place, a read-only place.
    fn from(error: anyhow::Error) -> Failure {
        let code = match error.chain().any(|e| e.is::<crate::run_files::NoPlace>()) {
            true => EXIT_USAGE,
            false => 1,
        };
        Failure { code, error }
    }
}

/// After a match: where each seat's stderr is, and for each seat a fault stopped, its file
/// again with the flag that changes the limit it ran into (`faults`: seat, name, kind).
pub(crate) fn print_stderr_files(
    dir: &std::path::Path,
    seats: usize,
    faults: impl IntoIterator<
        Item = (
            usize,
            String,
            jail::fault::FaultKind,
            Option<crate::games::model::FaultPlace>,
        ),
    >,
) {
    use jail::untrusted::{printable, printable_path};
    let file = |s: usize| dir.join(format!("seat{s}.stderr"));
    let others: Vec<String> = (1..seats).map(|s| format!("seat{s}.stderr")).collect();
    println!(
        "stderr: {} (and {} beside it)",
        printable_path(&file(0)),
        others.join(", ")
    );
    for (seat, name, kind, place) in faults {
        // Where it happened and what the champion was doing, before any advice on a limit:
        // the same call refused a thousand times is a loop, which no budget cures.
        let (when, doing, hint) = match &place {
            Some(place) => (
                format!(" in {}", place.when),
                match (&place.doing, place.is_loop) {
                    (Some(doing), true) => format!(": {doing}: a loop, not a slow machine"),
                    (Some(doing), false) => format!(": {doing}"),
                    (None, _) => String::new(),
                },
                match place.is_loop {
                    true => None,
                    false => crate::cli::words::fault_hint(kind),
                },
            ),
            None => (
                String::new(),
                String::new(),
                crate::cli::words::fault_hint(kind),
            ),
        };
        let hint = hint.map(|h| format!("; {h}")).unwrap_or_default();
        println!(
            "{kind} of seat {seat} ({}){when}{doing}; its stderr is {}{hint}",
            printable(&name),
            printable_path(&file(seat))
        );
    }
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    if let Command::Options = cli.command {
        let game = crate::games::by_name(&cli.game).expect("clap takes only known games");
        print!("{}", crate::cli::words::describe_options(game));
        return Ok(());
    }
    // Ticket to Ride's server, whatever `--game` (the only game it serves yet).
    if let Command::Serve(args) = cli.command {
        return serve::run(args);
    }
    let game = crate::games::on_model(&cli.game).expect("clap takes only known games");
    model::run(cli.command, game)
}
