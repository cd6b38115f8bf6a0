//! `referee bot NAME`: a built-in champion speaking the protocol, so that `random` and
//! `greedy` run as subprocesses like any other champion.

use super::Failure;
use crate::cli::BotArgs;
use anyhow::anyhow;

pub fn run(args: BotArgs) -> Result<(), Failure> {
    let seed = std::env::var("PROLOGIN_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut bot = engine::bots::by_name(&args.name, seed).ok_or_else(|| {
        Failure::usage(anyhow!(
            "no built-in champion `{}`; try: {}",
            args.name,
            engine::bots::NAMES.join(", ")
        ))
    })?;
    let code = loi_protocol::run(bot.as_mut());
    if code != std::process::ExitCode::SUCCESS {
        // The kit has already said what went wrong on stderr.
        std::process::exit(super::EXIT_USAGE);
    }
    Ok(())
}
