//! The pre-run check of a tournament, for any game: each champion is started once and must
//! answer `init_game` on a fresh game within its budget; a broken one is reported with its
//! fault before any match is played.

use crate::endpoint::{Endpoint, TimeLimits};
use crate::process_endpoint::ProcessEndpoint;
use crate::roster::ChampionSpec;
use crate::seam::Game;
use jail::champion::{Champion, LaunchSpec, Limits};
use jail::fault::{Fault, FaultKind};
use std::path::Path;

/// Start `champion`, play `init_game` for seat 0 of a fresh game of `game`, stop it. Its
/// stderr goes to `stderr_path`, its scratch directory is `scratch` (left to the caller).
pub fn check(
    champion: &ChampionSpec,
    game: &dyn Game,
    time: TimeLimits,
    limits: &Limits,
    scratch: &Path,
    stderr_path: &Path,
) -> Result<(), Fault> {
    let launch = LaunchSpec {
        program: champion.program.clone(),
        args: champion.args.clone(),
        env: vec![("PROLOGIN_SEED".to_string(), "0".to_string())],
        scratch_dir: scratch.to_path_buf(),
        stderr_path: stderr_path.to_path_buf(),
        stderr_cap: crate::seating::STDERR_CAP,
        limits: limits.clone(),
        cpu: None,
        start_frozen: true,
        checked: None,
    };
    // Created fresh beneath its folder, through no link (`run_files`); one left by an
    // earlier check (or planted) is removed first.
    let stderr = crate::run_files::Folder::of_file(stderr_path)
        .and_then(|(folder, name)| {
            folder.remove(&name)?;
            folder.open_file(&name, crate::run_files::Access::Create)
        })
        .map_err(|e| Fault::new(FaultKind::Spawn, format!("{e:#}")))?;
    let mut endpoint = ProcessEndpoint::new(Champion::spawn_into(&launch, stderr)?);
    if let Some(line) = endpoint.unexpected_output() {
        endpoint.kill();
        return Err(Fault::new(
            FaultKind::Protocol,
            format!(
                "wrote `{}` before init_game: {}",
                jail::fault::quote(line.as_bytes()),
                jail::fault::LOGS_ON_STDERR
            ),
        ));
    }
    let (mut rules, callback) = game.check_rules();
    let outcome = crate::match_loop::converse(
        rules.as_mut(),
        0,
        callback,
        &mut endpoint,
        time.allowance(true),
    );
    if outcome.is_ok() {
        endpoint.end();
    }
    endpoint.kill();
    outcome
}
