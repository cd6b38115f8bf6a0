//! The champions of one match, for any game: each started in its seat (jailed when the
//! sandbox has a jail), pinned with the match, its stderr into `seat<N>.stderr`; a seat whose
//! champion cannot start keeps its `spawn` fault instead, but a champion of a run's snapshot
//! that cannot start (the snapshot unreadable, the disk, the referee's own setup) stops the
//! match with an error, since it started from the same files in the pre-run check; a seat
//! of a person (`human`) or of a connected program (`referee serve`) gets the caller's
//! endpoint for it, no process. Nothing is left when
//! it is dropped.

use crate::endpoint::Endpoint;
use crate::process_endpoint::ProcessEndpoint;
use crate::roster::ChampionSpec;
use crate::run_files::{Access, Folder};
use crate::scratch::{remove_scratch, scratch_root};
use jail::affinity::Pin;
use jail::champion::{Champion, LaunchSpec, Limits};
use jail::fault::Fault;

/// Most of a champion's stderr kept per match (and per pre-run check).
pub const STDERR_CAP: u64 = 1 << 20;

/// The started champions of one match.
pub struct Seating {
    /// One per seat; a seat whose champion did not start has an endpoint never called.
    pub endpoints: Vec<Box<dyn Endpoint>>,
    /// The `spawn` fault of each seat that did not start.
    pub spawn_faults: Vec<Option<Fault>>,
    scratch_root: Option<tempfile::TempDir>,
    _pin: Option<Pin>,
}

impl Seating {
    /// Starts `champions` in seats 0.. with `seeds` (their `PROLOGIN_SEED`) under `limits`,
    /// writing their stderr into `folder` (each `seat<N>.stderr` a new file); the match and its champions share a CPU when `pin`
    /// and one is free. A seat of a person or a connected program takes `human(seat)` as its
    /// endpoint.
    pub fn start(
        champions: &[ChampionSpec],
        seeds: &[u64],
        limits: &Limits,
        folder: &Folder,
        pin: bool,
        human: &dyn Fn(usize) -> Box<dyn Endpoint>,
    ) -> anyhow::Result<Seating> {
        // Jailed champions have their scratch in their jail: nothing to make on the host.
        let scratch_root = match limits.sandbox.jails() {
            true => None,
            false => Some(scratch_root()?),
        };
        let slot = rayon::current_thread_index().unwrap_or(0);
        let pin = if pin { Pin::claim(slot) } else { None };
        // Built as the seats start: an error drops it, which kills those already started.
        let mut seating = Seating {
            endpoints: Vec::new(),
            spawn_faults: Vec::new(),
            scratch_root,
            _pin: pin,
        };
        let pin = &seating._pin;
        for (i, champion) in champions.iter().enumerate() {
            if champion.is_human() || champion.is_remote() {
                seating.endpoints.push(human(i));
                seating.spawn_faults.push(None);
                continue;
            }
            // A snapshot gone or unreadable is the operator's to fix, not the champion's
            // loss: the run stops, this match counts nothing.
            let checked = crate::snapshot::ready(champion)?;
            let launch = LaunchSpec {
                program: champion.program.clone(),
                args: champion.args.clone(),
                env: vec![("PROLOGIN_SEED".to_string(), seeds[i].to_string())],
                scratch_dir: seating
                    .scratch_root
                    .as_ref()
                    .map(|root| root.path().join(format!("seat{i}")))
                    .unwrap_or_default(),
                stderr_path: folder.path().join(format!("seat{i}.stderr")),
                stderr_cap: STDERR_CAP,
                limits: limits.clone(),
                cpu: pin.as_ref().map(Pin::cpu),
                start_frozen: true,
                checked,
            };
            // Created fresh beneath the match's folder, through no link (`run_files`): a
            // file that cannot be is the operator's problem, not the champion's loss.
            let stderr = folder.open_file(&format!("seat{i}.stderr"), Access::Create)?;
            match Champion::spawn_into(&launch, stderr) {
                Ok(process) => {
                    if let Some(pin) = pin {
                        pin.process(process.pid());
                    }
                    seating
                        .endpoints
                        .push(Box::new(ProcessEndpoint::new(process)));
                    seating.spawn_faults.push(None);
                }
                // A champion of a run's snapshot started once from the same files in the
                // pre-run check: what keeps it from starting now is outside it (the disk,
                // the snapshot, the referee's own setup).
                Err(fault) if champion.snapshot.is_some() => {
                    return Err(crate::snapshot::operator_problem(champion, &fault.message));
                }
                Err(fault) => {
                    seating.endpoints.push(Box::new(Absent));
                    seating.spawn_faults.push(Some(fault));
                }
            }
        }
        Ok(seating)
    }

    /// The endpoints, as the match loop takes them.
    pub fn endpoints(&mut self) -> Vec<&mut dyn Endpoint> {
        self.endpoints
            .iter_mut()
            .map(|e| e.as_mut() as &mut dyn Endpoint)
            .collect()
    }
}

impl Drop for Seating {
    fn drop(&mut self) {
        // The champions first (dropping an endpoint kills what is left of its champion),
        // then their scratch.
        self.endpoints.clear();
        if let Some(root) = self.scratch_root.take() {
            remove_scratch(root);
        }
    }
}

/// The endpoint of a seat whose champion never started; the match never calls it.
struct Absent;

impl Endpoint for Absent {
    fn unexpected_output(&mut self) -> Option<String> {
        None
    }
    fn begin(&mut self, _: &str, _: crate::endpoint::CallLimits) -> Result<(), Fault> {
        unreachable!("a seat that did not start is never called")
    }
    fn recv(&mut self) -> Result<String, Fault> {
        unreachable!("a seat that did not start is never called")
    }
    fn send(&mut self, _: &str) -> Result<(), Fault> {
        unreachable!("a seat that did not start is never called")
    }
    fn end(&mut self) -> crate::endpoint::CallTiming {
        Default::default()
    }
    fn finish(&mut self, _: std::time::Duration) {}
    fn kill(&mut self) {}
}
