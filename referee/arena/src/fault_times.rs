//! Whether a record's `timeout` faults agree with what it recorded of their callbacks'
//! time and with its budgets: what `replay` can check of a fault the referee observed
//! (the records of both games). A timeout is over the callback's CPU or wall budget,
//! found before the callback ran (work while frozen), or the lifetime CPU backstop of a
//! process; a record whose timeout fits none of them is refused, naming the times.

use crate::parts::{BudgetRecord, TimingRecord};
use jail::fault::{Fault, FaultKind};

// How a timeout found between two callbacks begins: the callback it ends never ran, so
// it answered no request.
use jail::fault::WORKED_WHILE_FROZEN as FROZEN;
// What a timeout of the lifetime CPU backstop says.
use jail::fault::LIFETIME_CPU as BACKSTOP;

/// Checks that `fault`, if a `timeout`, agrees with its callback's `timing`, its `budget`
/// and its `requests` answered, and with `seat_cpu_us`, the CPU its seat used in all its
/// callbacks up to this one; what disagrees otherwise.
pub fn timeout_agrees(
    fault: &Fault,
    timing: &TimingRecord,
    budget: &BudgetRecord,
    requests: u64,
    seat_cpu_us: u64,
) -> Result<(), String> {
    if fault.kind != FaultKind::Timeout
        || timing.cpu_us >= budget.cpu_us
        || timing.wall_us >= budget.wall_us
    {
        return Ok(());
    }
    if requests == 0 && fault.message.starts_with(FROZEN) {
        return Ok(());
    }
    // RLIMIT_CPU of each process: its seat's callbacks used at least that much, nearly
    // (what ran between two callbacks, a few ms each at most, is not in their timings).
    let backstop = jail::limits::Limits::default().cpu_backstop.as_micros() as u64;
    if fault.message.contains(BACKSTOP) && seat_cpu_us >= backstop / 10 * 9 {
        return Ok(());
    }
    Err(format!(
        "its `timeout` fault (\"{}\") disagrees with its recorded time: {} of CPU and {} of \
         wall time, within its budget of {} of CPU and {} of wall time, {} requests \
         answered, and {} of CPU in its seat's callbacks so far (the lifetime backstop is {})",
        jail::untrusted::printable(&fault.message),
        ms(timing.cpu_us),
        ms(timing.wall_us),
        ms(budget.cpu_us),
        ms(budget.wall_us),
        requests,
        ms(seat_cpu_us),
        ms(backstop)
    ))
}

/// Microseconds as milliseconds, for a message: `1.6 ms`.
fn ms(us: u64) -> String {
    format!("{:.1} ms", us as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUDGET: BudgetRecord = BudgetRecord {
        cpu_us: 1_000_000,
        wall_us: 4_000_000,
    };

    fn timing(cpu_us: u64, wall_us: u64) -> TimingRecord {
        TimingRecord {
            cpu_us,
            wall_us,
            stderr: None,
        }
    }

    fn timeout(message: &str) -> Fault {
        Fault::new(FaultKind::Timeout, message)
    }

    #[test]
    fn a_timeout_needs_its_time_over_a_budget_or_a_cause_that_takes_none() {
        let over = "used 1200 ms of CPU (all its processes) in this callback";
        assert!(
            timeout_agrees(&timeout(over), &timing(1_200_000, 1_300_000), &BUDGET, 3, 0).is_ok()
        );
        assert!(timeout_agrees(
            &timeout("no complete line"),
            &timing(2_000, 4_000_100),
            &BUDGET,
            3,
            0
        )
        .is_ok());
        let frozen = format!("{FROZEN} (used 35 ms of CPU)");
        assert!(timeout_agrees(&timeout(&frozen), &timing(100, 200), &BUDGET, 0, 0).is_ok());
        let backstop =
            "ended (killed by SIGXCPU): it used its whole lifetime CPU allowance of 300 s";
        assert!(timeout_agrees(
            &timeout(backstop),
            &timing(100, 200),
            &BUDGET,
            2,
            299_000_000
        )
        .is_ok());
        let said =
            timeout_agrees(&timeout(over), &timing(1_600, 2_000), &BUDGET, 3, 0).unwrap_err();
        assert!(
            said.contains("1.6 ms of CPU") && said.contains("1000.0 ms of CPU"),
            "{said}"
        );
        assert!(timeout_agrees(&timeout(&frozen), &timing(100, 200), &BUDGET, 1, 0).is_err());
        assert!(
            timeout_agrees(&timeout(backstop), &timing(100, 200), &BUDGET, 2, 5_000_000).is_err()
        );
        let crash = Fault::new(FaultKind::Crash, "ended (exit status 1)");
        assert!(timeout_agrees(&crash, &timing(1, 1), &BUDGET, 1, 0).is_ok());
    }
}
