//! The match runner's loop, for any game behind [`Rules`]: callbacks in the rules' order,
//! each seat's requests answered by the rules, faults contained (a fault stops that seat
//! for the rest of the match), requests capped, every champion finished or killed at the
//! end. It knows no game.

use crate::endpoint::{CallLimits, Endpoint};
use crate::rules::{Reply, Rules};
use jail::fault::{Fault, FaultKind};
use std::time::Duration;

/// Most requests in one callback (protocol.md section 5): the heaviest champion of 2009
/// asked about 700,000; a champion flooding cheap requests must not run for ever.
pub const MAX_REQUESTS: usize = 2_000_000;

/// Plays a whole match of `rules` between `endpoints` (one per seat). `spawn_faults[s]` is
/// the fault of a seat whose champion could not start (its endpoint is then never used).
pub fn run(
    rules: &mut dyn Rules,
    endpoints: &mut [&mut dyn Endpoint],
    spawn_faults: Vec<Option<Fault>>,
) {
    let mut stopped = vec![false; endpoints.len()];
    for (seat, fault) in spawn_faults.into_iter().enumerate() {
        if let Some(fault) = fault {
            stopped[seat] = true;
            rules.spawn_fault(seat, &fault);
        }
    }
    while let Some(step) = rules.next_step() {
        for &seat in &step.seats {
            if stopped[seat] {
                continue;
            }
            let endpoint = &mut *endpoints[seat];
            rules.begin(seat);
            let (fault, timing) = match endpoint.unexpected_output() {
                Some(line) => {
                    let message = format!(
                        "unexpected output `{}` before {}: {}",
                        jail::fault::quote(line.as_bytes()),
                        step.name,
                        jail::fault::LOGS_ON_STDERR
                    );
                    (
                        Some(Fault::new(FaultKind::Protocol, message)),
                        Default::default(),
                    )
                }
                None => {
                    let outcome = converse(rules, seat, step.name, endpoint, step.limits);
                    (outcome.err(), endpoint.end())
                }
            };
            if fault.is_some() {
                stopped[seat] = true;
                endpoint.kill();
            }
            rules.end(seat, fault.as_ref(), timing);
        }
        rules.advance();
    }
    // Every seat checked before any is thawed to exit: what ran after its last callback
    // (while the others played theirs) is a fault of the match, recorded before its result.
    for (seat, endpoint) in endpoints.iter_mut().enumerate() {
        if stopped[seat] {
            continue;
        }
        if let Some(line) = endpoint.unexpected_output() {
            rules.late_output(seat, &line);
        }
        if let Some(fault) = endpoint.last_check() {
            rules.late_fault(seat, &fault);
        }
    }
    for (seat, endpoint) in endpoints.iter_mut().enumerate() {
        if !stopped[seat] {
            endpoint.finish(Duration::from_secs(1));
        }
    }
}

/// Sends `callback` to `endpoint` and has `rules` answer the requests of `seat` until the
/// callback ends. More than [`MAX_REQUESTS`] is a `Protocol` fault.
pub fn converse(
    rules: &mut dyn Rules,
    seat: usize,
    callback: &str,
    endpoint: &mut dyn Endpoint,
    limits: CallLimits,
) -> Result<(), Fault> {
    endpoint.begin(callback, limits)?;
    let mut requests = 0usize;
    loop {
        let line = endpoint.recv()?;
        if requests >= MAX_REQUESTS && line != "fin" {
            return Err(Fault::new(
                FaultKind::Protocol,
                format!(
                    "sent more than {MAX_REQUESTS} requests in {callback}; a callback may make \
                     at most {MAX_REQUESTS} (protocol.md section 5)"
                ),
            ));
        }
        match rules
            .request(seat, &line)
            .map_err(|message| Fault::new(FaultKind::Protocol, message))?
        {
            Reply::End => return Ok(()),
            Reply::Answer(answer) => {
                requests += 1;
                endpoint.send(&answer)?;
            }
        }
    }
}
