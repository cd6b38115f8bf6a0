//! The `referee` binary: parse, run, map failures to documented exit codes.

use clap::Parser;

fn main() {
    let cli = referee::cli::Cli::parse();
    if let Err(failure) = referee::commands::run(cli) {
        eprintln!("error: {:#}", failure.error);
        std::process::exit(failure.code);
    }
}
