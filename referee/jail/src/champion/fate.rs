//! How a champion ended, in words: wait statuses as "exit 1" / "signal 9 (SIGKILL)", and
//! what tells a memory fault from a plain crash.
//!
//! A fault's class comes from what the kernel and the referee observed, never from what the
//! champion wrote. A death that is not a clean `exit 0` is a **Memory** fault when
//! 1. its memory cgroup counted an OOM kill (`memory.events`), or
//! 2. the largest data segment (`VmData`, sampled at poll slices) or resident set (sampled;
//!    in a jail, the private resident memory of all its processes together) reached 90% of
//!    the memory limit, or the largest virtual size reached 90% of the address-space limit
//!    (`RLIMIT_DATA` makes allocations fail near there). `ru_maxrss` counts only beyond the
//!    referee's size when it forked the champion (without a jail; a jailed champion is
//!    cloned from a small zygote and measured by the jail): it includes what a process
//!    inherited at fork, and a referee of gigabytes would make every crash look like a
//!    memory fault.
//!
//! Otherwise it is a **Crash**, except SIGXCPU sent by the lifetime CPU backstop, a
//! **Timeout**: only when the CPU measured reached (nearly) that allowance, since a
//! champion may send itself SIGXCPU, or lower its own `RLIMIT_CPU`, and would otherwise
//! pass a crash for a timeout (one that its record's check then refuses).
//! A crash whose stderr ends with the out-of-memory message of a known runtime (Python's
//! `MemoryError`, C++'s `std::bad_alloc`, ...) says so, and that no limit was hit that the
//! referee could see: anyone can print `MemoryError`, and without a memory cgroup a failed
//! allocation under `RLIMIT_DATA` leaves no other trace.

use nix::sys::signal::Signal;

use crate::fault::{Fault, FaultKind};
use crate::limits::Limits;

/// Out-of-memory messages of common runtimes, matched case-insensitively in the stderr tail:
/// quoted in a crash's message, never a reason to call it a memory fault.
const OOM_MARKERS: &[&str] = &[
    "memoryerror",
    "bad_alloc",
    "out of memory",
    "outofmemoryerror",
    "cannot allocate memory",
    "memory allocation of",
    "heap out of memory",
    "failed to allocate",
    "allocation failed",
];

/// Fraction of a limit that counts as having reached it.
const NEAR_LIMIT: f64 = 0.9;

/// `"exit 0"`, `"signal 9 (SIGKILL)"`.
pub(crate) fn describe_status(status: i32) -> String {
    if libc_wifexited(status) {
        format!("exit {}", (status >> 8) & 0xff)
    } else if libc_wifsignaled(status) {
        let sig = status & 0x7f;
        match Signal::try_from(sig) {
            Ok(s) => format!("signal {sig} ({})", s.as_str()),
            Err(_) => format!("signal {sig}"),
        }
    } else {
        format!("status {status:#x}")
    }
}

fn libc_wifexited(status: i32) -> bool {
    status & 0x7f == 0
}

fn libc_wifsignaled(status: i32) -> bool {
    ((status & 0x7f) + 1) as i8 >> 1 > 0
}

/// The signal that killed the process, if any.
pub(crate) fn term_signal(status: i32) -> Option<i32> {
    libc_wifsignaled(status).then_some(status & 0x7f)
}

/// Whether the status is a clean `exit 0`.
pub(crate) fn is_clean(status: i32) -> bool {
    status == 0
}

/// What was observed of a dead champion, for classification.
pub(crate) struct Evidence<'a> {
    pub status: i32,
    pub peak_data: u64,
    pub peak_rss: u64,
    pub peak_vsize: u64,
    pub stderr_tail: &'a str,
    pub limits: &'a Limits,
    /// The champion's memory cgroup counted an OOM kill (`memory.events`).
    pub oom_killed: bool,
    /// The CPU measured of its whole tree so far.
    pub cpu: std::time::Duration,
}

/// Classifies an ended champion; `context` says when it happened ("while the referee waited
/// for a request").
pub(crate) fn classify(ev: &Evidence<'_>, context: &str) -> Fault {
    let status = describe_status(ev.status);
    let tail = ev.stderr_tail.to_ascii_lowercase();
    let marker = OOM_MARKERS.iter().find(|m| tail.contains(*m));
    let near = |used: u64, limit: u64| limit > 0 && used as f64 >= NEAR_LIMIT * limit as f64;
    let mem_peak = ev.peak_data.max(ev.peak_rss);
    if ev.oom_killed && !is_clean(ev.status) {
        return Fault::new(
            FaultKind::Memory,
            format!(
                "ended ({status}) {context}: killed by the kernel for exceeding its {} memory \
                 limit (cgroup memory.max); expected it to stay within the limit",
                mib(ev.limits.memory)
            ),
        );
    }
    if !is_clean(ev.status) && near(mem_peak, ev.limits.memory) {
        return Fault::new(
            FaultKind::Memory,
            format!(
                "ended ({status}) {context} after using {} of its {} memory limit; expected it \
                 to stay within the limit",
                mib(mem_peak),
                mib(ev.limits.memory)
            ),
        );
    }
    if !is_clean(ev.status) && near(ev.peak_vsize, ev.limits.address_space) {
        return Fault::new(
            FaultKind::Memory,
            format!(
                "ended ({status}) {context} after mapping {} of its {} address-space limit",
                mib(ev.peak_vsize),
                mib(ev.limits.address_space)
            ),
        );
    }
    let backstop = ev.limits.cpu_backstop;
    let by_backstop = ev.cpu.as_secs_f64() >= NEAR_LIMIT * backstop.as_secs_f64();
    if term_signal(ev.status) == Some(nix::libc::SIGXCPU) && by_backstop {
        return Fault::new(
            FaultKind::Timeout,
            format!(
                "ended ({status}) {context}: it used its whole {} of {} s",
                crate::fault::LIFETIME_CPU,
                ev.limits.cpu_backstop.as_secs()
            ),
        );
    }
    let mut message = format!("ended ({status}) {context}");
    if let Some(marker) = marker {
        // Only its output tells: say what it printed, and that no limit was seen.
        let line = ev
            .stderr_tail
            .lines()
            .rev()
            .find(|l| l.to_ascii_lowercase().contains(marker))
            .map(|l| shorten(l.trim()))
            .unwrap_or_else(|| (*marker).to_string());
        message.push_str(&format!(
            " after printing \"{line}\"; no memory limit was hit that the referee could see \
             (peak memory {} of a {} limit, no out-of-memory kill)",
            mib(mem_peak),
            mib(ev.limits.memory),
        ));
        return Fault::new(FaultKind::Crash, message);
    }
    if term_signal(ev.status) == Some(nix::libc::SIGXCPU) {
        message.push_str(&format!(
            "; not its lifetime CPU backstop: it had used {:.1} s of CPU of its {} s \
             allowance (it sent itself the signal or lowered its own limit)",
            ev.cpu.as_secs_f64(),
            backstop.as_secs()
        ));
    }
    if term_signal(ev.status) == Some(nix::libc::SIGXFSZ) {
        message.push_str(&format!(
            "; it wrote a file larger than the {} limit",
            mib(ev.limits.file_size)
        ));
    }
    message.push_str(&what_it_said(ev.stderr_tail));
    Fault::new(FaultKind::Crash, message)
}

/// What a crash's message adds from the champion's stderr: `; its error: <the line that
/// says why>` ([`error_line`]), else `; stderr ends with: <its last lines>`, else nothing.
pub(crate) fn what_it_said(stderr_tail: &str) -> String {
    if let Some(error) = error_line(stderr_tail) {
        format!("; its error: {error}")
    } else {
        let last = last_lines(stderr_tail, 3);
        if last.is_empty() {
            String::new()
        } else {
            format!("; stderr ends with: {last}")
        }
    }
}

/// The line of a stderr tail that says why a program died, as its runtime prints it: the
/// exception line that ends a Python traceback, a Rust `panicked at` with its message, a C
/// `assert` or a C++ `terminate called ...` with its `what()`, a Free Pascal exception or
/// runtime error with the first source line of its backtrace (built with `-gl`), a Go
/// `panic:`, an OCaml uncaught exception, a Java or JavaScript exception; before all of
/// these, the line in which a kit of `champions/` names the error that ended its champion
/// (`prologin kit (<language>): error in <callback>: ...`). At most 300 characters.
fn error_line(tail: &str) -> Option<String> {
    let lines: Vec<&str> = tail.lines().map(str::trim_end).collect();
    let last_with = |needle: &str| lines.iter().rposition(|l| l.contains(needle));
    let with_next = |i: usize| match lines.get(i + 1).map(|l| l.trim()) {
        Some(next) if !next.is_empty() => format!("{} {next}", lines[i].trim()),
        _ => lines[i].trim().to_string(),
    };
    let found = if let Some(i) = lines
        .iter()
        .rposition(|l| l.starts_with("prologin kit (") && l.contains("): error in "))
    {
        // A kit's own account of the error that ended its champion, written last
        // (`prologin kit (Java): error in jouer: java.lang.ArithmeticException: / by zero`).
        Some(lines[i].trim().to_string())
    } else if let Some(i) = last_with("panicked at") {
        // `thread 'main' panicked at src/main.rs:2:5:` then the message on the next line.
        Some(with_next(i))
    } else if let Some(i) = last_with("Traceback (most recent call last)") {
        // The exception: the last line after the traceback that is not indented.
        lines[i + 1..]
            .iter()
            .rev()
            .find(|l| !l.is_empty() && !l.starts_with(char::is_whitespace))
            .map(|l| l.to_string())
    } else if let Some(i) = last_with("terminate called") {
        Some(with_next(i))
    } else if let Some(i) = last_with("An unhandled exception occurred at $") {
        // Free Pascal: the exception's class and message on the next line, then the
        // backtrace, one address a line, `JOUER,  line 33 of prologin.pas` after it with -gl.
        let exception = lines.get(i + 1).map(|l| l.trim()).filter(|l| !l.is_empty());
        exception.map(|e| pascal_where(e, &lines[i + 2..]))
    } else if let Some(i) = last_with("Runtime error ") {
        // Free Pascal without SysUtils: `Runtime error 200 at $...`, then the backtrace.
        Some(pascal_where(lines[i].trim(), &lines[i + 1..]))
    } else if let Some(i) = lines.iter().rposition(|l| l.starts_with("panic: ")) {
        // Go: `panic: runtime error: ...`, then the goroutines' traces.
        Some(lines[i].trim().to_string())
    } else if let Some(i) = last_with("Fatal error: exception ") {
        // OCaml: `Fatal error: exception Not_found`, then `Raised at ...` with OCAMLRUNPARAM=b.
        Some(lines[i].trim().to_string())
    } else {
        [
            "Assertion",
            "assertion failed",
            "Exception in thread",
            "Error: ",
        ]
        .iter()
        .find_map(|needle| last_with(needle))
        .map(|i| lines[i].trim().to_string())
    };
    found.map(|line| shorten(&line))
}

/// A Free Pascal error and where: ` (in JOUER, line 33 of prologin.pas)` from the first
/// line of `backtrace` that names a source line; the error alone when none does.
fn pascal_where(error: &str, backtrace: &[&str]) -> String {
    let place = backtrace.iter().find_map(|l| {
        let l = l.trim();
        let rest = l.strip_prefix('$')?;
        let (_, place) = rest.split_once(char::is_whitespace)?;
        let place = place.split_whitespace().collect::<Vec<_>>().join(" ");
        place.contains(" line ").then_some(place)
    });
    match place {
        Some(place) => format!("{error} (in {place})"),
        None => error.to_string(),
    }
}

/// `line`, cut to 300 characters.
fn shorten(line: &str) -> String {
    if line.chars().count() > 300 {
        format!("{}...", line.chars().take(300).collect::<String>())
    } else {
        line.to_string()
    }
}

/// The last `n` non-empty lines of `text`, joined with " | ", at most 300 characters.
fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let joined = lines[lines.len().saturating_sub(n)..].join(" | ");
    if joined.chars().count() > 300 {
        let cut: String = joined
            .chars()
            .rev()
            .take(300)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!("...{cut}")
    } else {
        joined
    }
}

/// Bytes as MiB, for messages.
/// Bytes in MiB for a message: whole MiB as such, otherwise to a tenth (never rounded to
/// the limit it is compared with: 64.3 MiB is not shown as "64 MiB of its 64 MiB").
pub(crate) fn mib(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        let tenths = (bytes * 10).div_ceil(MIB);
        format!("{}.{} MiB", tenths / 10, tenths % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mib_is_never_rounded_down_to_a_limit() {
        assert_eq!(mib(64 << 20), "64 MiB");
        assert_eq!(mib((64 << 20) + 1), "64.1 MiB");
        assert_eq!(mib((64 << 20) + (1 << 19)), "64.5 MiB");
        assert_eq!(mib(1 << 19), "0.5 MiB");
        assert_eq!(mib(0), "0 MiB");
    }

    #[test]
    fn statuses() {
        assert_eq!(describe_status(0), "exit 0");
        assert_eq!(describe_status(3 << 8), "exit 3");
        assert_eq!(describe_status(9), "signal 9 (SIGKILL)");
        assert_eq!(describe_status(11 | 0x80), "signal 11 (SIGSEGV)");
    }

    fn ev(status: i32, peak: u64, tail: &str, limits: &Limits) -> Fault {
        classify(
            &Evidence {
                status,
                peak_data: peak,
                peak_rss: 0,
                peak_vsize: 0,
                stderr_tail: tail,
                limits,
                oom_killed: false,
                cpu: std::time::Duration::ZERO,
            },
            "during a test",
        )
    }

    /// The crash messages of the common runtimes quote the line that says why.
    #[test]
    fn crashes_quote_their_error_line() {
        let limits = Limits::default();
        let crash = |tail: &str| ev(1 << 8, 0, tail, &limits).message;
        insta::assert_snapshot!(
            "crash_python",
            crash(
                "debug: turn 3\nTraceback (most recent call last):\n  File \"/champion/x.py\", \
                 line 4, in <module>\n    jouer()\n  File \"/champion/x.py\", line 2, in \
                 jouer\n    raise ValueError(\"bad\")\nValueError: bad\n"
            )
        );
        insta::assert_snapshot!(
            "crash_rust",
            crash(
                "thread 'main' panicked at src/main.rs:2:5:\nindex out of bounds: the len is \
                 3 but the index is 7\nnote: run with `RUST_BACKTRACE=1` environment \
                 variable to display a backtrace\n"
            )
        );
        insta::assert_snapshot!(
            "crash_c_assert",
            crash("champion: prologin.c:12: jouer: Assertion `x < 100' failed.\n")
        );
        insta::assert_snapshot!(
            "crash_cpp_throw",
            crash(
                "terminate called after throwing an instance of 'std::out_of_range'\n  \
                 what():  vector::_M_range_check\n"
            )
        );
        insta::assert_snapshot!(
            "crash_java",
            crash(
                "Exception in thread \"main\" java.lang.NullPointerException\n\tat \
                 Prologin.jouer(Prologin.java:5)\n"
            )
        );
        insta::assert_snapshot!(
            "crash_go_panic",
            crash(
                "panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\n\
                 main.Jouer()\n\t/champion/prologin.go:7 +0x2e\nmain.main()\n\t\
                 /champion/main.go:54 +0x1e2\n"
            )
        );
        // A kit's line after a trace: the kit's line, whatever the trace holds.
        insta::assert_snapshot!(
            "crash_kit_line",
            crash(
                "java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length \
                 1\n\tat Prologin.jouer(Prologin.java:5)\n\tat ProloginMain.main(\
                 ProloginMain.java:69)\nprologin kit (Java): error in jouer: \
                 java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length \
                 1 (Prologin.java:5)\n"
            )
        );
        // Nothing recognised: the last lines.
        insta::assert_snapshot!("crash_other", crash("one\ntwo\nthree\nfour\n"));
    }

    #[test]
    fn memory_heuristic() {
        let limits = Limits::default();
        assert_eq!(ev(11, limits.memory, "", &limits).kind, FaultKind::Memory);
        assert_eq!(
            ev(11, limits.memory / 2, "", &limits).kind,
            FaultKind::Crash
        );
        assert_eq!(ev(0, limits.memory, "", &limits).kind, FaultKind::Crash);
    }

    /// Only a death by a signal has a signal: an exit status has none, a stopped status
    /// (`WIFSTOPPED`, 0x7f in its low bits) is neither, and every signal from 1 up is one.
    #[test]
    fn only_a_death_by_a_signal_has_a_signal() {
        assert_eq!(term_signal(3 << 8), None);
        assert_eq!(term_signal(0), None);
        assert_eq!(term_signal(1), Some(1));
        assert_eq!(term_signal(9), Some(9));
        assert_eq!(term_signal(11 | 0x80), Some(11));
        assert_eq!(term_signal((19 << 8) | 0x7f), None);
        assert_eq!(describe_status((19 << 8) | 0x7f), "status 0x137f");
        assert_eq!(describe_status(1), "signal 1 (SIGHUP)");
    }

    /// What the kernel and the limits saw decides a memory fault: a memory cgroup's OOM
    /// kill (whatever the peaks), or a virtual size near the address-space limit; a limit
    /// of 0 (none) is never reached.
    #[test]
    fn an_oom_kill_or_the_address_space_limit_is_a_memory_fault() {
        let limits = Limits::default();
        let with = |status: i32, vsize: u64, oom_killed: bool, limits: &Limits| {
            classify(
                &Evidence {
                    status,
                    peak_data: 0,
                    peak_rss: 0,
                    peak_vsize: vsize,
                    stderr_tail: "",
                    limits,
                    oom_killed,
                    cpu: std::time::Duration::ZERO,
                },
                "during a test",
            )
        };
        let killed = with(9, 0, true, &limits);
        assert_eq!(killed.kind, FaultKind::Memory, "{killed}");
        assert!(killed.message.contains("cgroup memory.max"), "{killed}");
        let mapped = with(11, limits.address_space, false, &limits);
        assert_eq!(mapped.kind, FaultKind::Memory, "{mapped}");
        assert!(mapped.message.contains("address-space limit"), "{mapped}");
        assert_eq!(
            with(11, limits.address_space / 2, false, &limits).kind,
            FaultKind::Crash
        );
        let none = Limits {
            memory: 0,
            address_space: 0,
            ..Limits::default()
        };
        assert_eq!(with(11, 0, false, &none).kind, FaultKind::Crash);
    }

    /// The error line of a crash: a panic's line alone when no message follows it, a
    /// Python traceback's exception line (none when the traceback is cut before it, never
    /// an empty line after it), and lines of 300 characters kept whole, longer ones cut.
    #[test]
    fn error_lines_and_their_cuts() {
        assert_eq!(
            error_line("thread 'main' panicked at a.rs:1:1:\n\nmore\n").as_deref(),
            Some("thread 'main' panicked at a.rs:1:1:")
        );
        assert_eq!(
            error_line("debug\nTraceback (most recent call last):\n  File \"x.py\", line 1\n"),
            None
        );
        assert_eq!(
            error_line("Traceback (most recent call last):\n  File \"x.py\"\nValueError: bad\n\n")
                .as_deref(),
            Some("ValueError: bad")
        );
        // Free Pascal, with its line (-gl) and without; OCaml.
        let pascal = "An unhandled exception occurred at $0000000000428598:\n\
                      EDivByZero: Division by zero\n  $0000000000428598  JOUER,  line 33 of \
                      prologin.pas\n  $0000000000401234\n";
        assert_eq!(
            error_line(pascal).as_deref(),
            Some("EDivByZero: Division by zero (in JOUER, line 33 of prologin.pas)")
        );
        assert_eq!(
            error_line(
                "An unhandled exception occurred at $0000000000425A33:\nEDivByZero: \
                        Division by zero\n  $0000000000425A33\n  $0000000000425786\n"
            )
            .as_deref(),
            Some("EDivByZero: Division by zero")
        );
        assert_eq!(
            error_line(
                "Runtime error 201 at $00000000004011C8\n  $00000000004011C8  JOUER,  \
                        line 9 of prologin.pas\n"
            )
            .as_deref(),
            Some("Runtime error 201 at $00000000004011C8 (in JOUER, line 9 of prologin.pas)")
        );
        assert_eq!(
            error_line("Fatal error: exception Not_found\nRaised at Stdlib__List.assoc\n")
                .as_deref(),
            Some("Fatal error: exception Not_found")
        );
        let exact = format!("Error: {}", "x".repeat(293));
        assert_eq!(error_line(&exact), Some(exact.clone()));
        assert_eq!(last_lines(&exact, 3), exact);
        let long = format!("Error: {}", "x".repeat(393));
        let cut = error_line(&long).unwrap();
        assert_eq!(cut.chars().count(), 303, "{cut}");
        assert!(cut.ends_with("..."), "{cut}");
        let tail = last_lines(&long, 3);
        assert_eq!(tail.chars().count(), 303, "{tail}");
        assert!(tail.starts_with("..."), "{tail}");
    }

    /// SIGXCPU is the lifetime backstop's only when the CPU measured reached it: a champion
    /// that sends it to itself (or lowers its own `RLIMIT_CPU`) has crashed.
    #[test]
    fn sigxcpu_is_a_timeout_only_at_the_backstop() {
        let limits = Limits::default();
        let with_cpu = |cpu: std::time::Duration| {
            classify(
                &Evidence {
                    status: nix::libc::SIGXCPU,
                    peak_data: 0,
                    peak_rss: 0,
                    peak_vsize: 0,
                    stderr_tail: "",
                    limits: &limits,
                    oom_killed: false,
                    cpu,
                },
                "during a test",
            )
        };
        let at = with_cpu(limits.cpu_backstop);
        assert_eq!(at.kind, FaultKind::Timeout, "{at}");
        assert!(at.message.contains(crate::fault::LIFETIME_CPU), "{at}");
        let early = with_cpu(std::time::Duration::from_millis(2));
        assert_eq!(early.kind, FaultKind::Crash, "{early}");
        let half = with_cpu(limits.cpu_backstop / 2);
        assert_eq!(half.kind, FaultKind::Crash, "{half}");
        assert!(early.message.contains("SIGXCPU"), "{early}");
        assert!(
            !early.message.contains(crate::fault::LIFETIME_CPU),
            "{early}"
        );
    }

    /// What a champion prints never makes its fault a memory fault: `MemoryError` then
    /// `exit 3`, far below any limit, is a crash that quotes what it printed and says that
    /// no limit was seen; printed near the limit, the peak makes it a memory fault.
    #[test]
    fn printing_an_out_of_memory_message_is_not_a_memory_fault() {
        let limits = Limits::default();
        for tail in [
            "MemoryError\n",
            "Traceback (most recent call last):\n  File \"x.py\", line 1\nMemoryError\n",
            "terminate called after throwing an instance of 'std::bad_alloc'\n",
        ] {
            let fault = ev(3 << 8, 4 << 20, tail, &limits);
            assert_eq!(fault.kind, FaultKind::Crash, "{fault}");
            assert!(
                fault
                    .message
                    .starts_with("ended (exit 3) during a test after printing \""),
                "{fault}"
            );
            assert!(
                fault
                    .message
                    .contains("no memory limit was hit that the referee could see (peak memory 4 MiB of a 1024 MiB limit"),
                "{fault}"
            );
        }
        let fault = ev(3 << 8, 0, "debug\nMemoryError\nbye\n", &limits);
        assert!(
            fault.message.contains("after printing \"MemoryError\""),
            "{fault}"
        );
        let near = ev(1 << 8, limits.memory, "MemoryError\n", &limits);
        assert_eq!(near.kind, FaultKind::Memory, "{near}");
    }
}
