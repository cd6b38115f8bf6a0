//! `referee serve`: the game server, from its flags (docs/server.md).

use super::Failure;
use crate::cli::ServeArgs;

/// Runs the server of `args` until the process is stopped.
pub fn run(args: ServeArgs) -> Result<(), Failure> {
    let limits = jail::champion::Limits {
        sandbox: jail::sandbox::probe(args.sandbox).plan(),
        ..Default::default()
    };
    eprintln!("{}", limits.sandbox.line());
    if !args.listen.ip().is_loopback() {
        eprintln!(
            "listening on {}: open to the network (the default is 127.0.0.1)",
            args.listen
        );
    }
    crate::serve::run(crate::serve::Config {
        listen: args.listen,
        results: args.results,
        max_connections: args.max_connections,
        per_address: args.per_address,
        limits,
    })
    .map_err(Failure::usage)
}
