//! The console of one step as terminal text (`show`): each callback of the step with its
//! CPU and wall time against its budget, then the lines its champion wrote on stderr,
//! escaped ([`printable`]: never a raw control character), the last [`MAX_LINES`] lines (a
//! crash's traceback is at the end) of [`MAX_CHARS`] characters a callback, with a note of
//! what was cut and where all of it is.

use super::console::{Call, Console, Excerpt, Output};
use super::timeline::{roman, StepKind, Timeline};
use jail::untrusted::printable;
use std::fmt::Write;

/// Most lines shown of one callback's stderr.
pub const MAX_LINES: usize = 40;
/// Most characters shown of one line.
pub const MAX_CHARS: usize = 300;

/// The console of step `index` of `timeline`.
pub fn render(console: &Console, timeline: &Timeline, index: usize) -> String {
    let index = index.min(timeline.steps.len() - 1);
    let mut out = String::from(
        "\nconsole (stderr of each callback; CPU and wall time against the budget):\n",
    );
    if let Some(why) = &console.unrecorded {
        let _ = writeln!(out, "  {why}");
    }
    let name = |seat: u8| {
        timeline
            .seats
            .get(usize::from(seat))
            .map_or_else(String::new, |s| printable(&s.name).into_owned())
    };
    let calls = super::console::calls_of_step(timeline, index);
    if calls.is_empty() {
        out.push_str("  no callback in this step\n");
    }
    for i in calls {
        let Some(call) = console.calls.get(i) else {
            continue;
        };
        let output = console.output(i);
        let _ = writeln!(
            out,
            "  seat {} {}, {}: {}{}",
            call.seat,
            name(call.seat),
            when(call),
            cost(call),
            match &output {
                Some(o) if o.written == 0 => "; no output".to_string(),
                Some(o) => format!("; {} byte(s) of stderr", o.written),
                None => String::new(),
            }
        );
        if let Some(output) = output {
            lines(&mut out, &output);
        }
    }
    let last =
        index + 1 == timeline.steps.len() && timeline.steps[index].kind == StepKind::StageEnd;
    if last {
        for seat in &timeline.seats {
            if let Some(output) = console.after(seat.seat) {
                let _ = writeln!(
                    out,
                    "  seat {} {}, after its last callback: {} byte(s) of stderr",
                    seat.seat,
                    name(seat.seat),
                    output.written
                );
                lines(&mut out, &output);
            }
        }
    }
    out
}

/// `jouer of turn 3 phase I`, `init_game`.
pub fn when(call: &Call) -> String {
    match call.phase {
        0 => call.callback.to_string(),
        p => format!("{} of turn {} phase {}", call.callback, call.turn, roman(p)),
    }
}

/// `CPU 1.2 ms of 1000 ms, wall 3.4 ms of 4000 ms`.
fn cost(call: &Call) -> String {
    match call.budget {
        Some(b) => format!(
            "CPU {} of {}, wall {} of {}",
            ms(call.cpu_us),
            ms(b.cpu_us),
            ms(call.wall_us),
            ms(b.wall_us)
        ),
        None => format!("CPU {}, wall {}", ms(call.cpu_us), ms(call.wall_us)),
    }
}

/// Microseconds as read by a person: `40 µs`, `1.2 ms`, `31 ms`.
pub fn ms(us: u64) -> String {
    if us < 1000 {
        format!("{us} µs")
    } else if us < 10_000 {
        format!("{:.1} ms", us as f64 / 1000.0)
    } else {
        format!("{} ms", us / 1000)
    }
}

/// The lines of `output`, each after `    | `, then what was cut or lost.
fn lines(out: &mut String, output: &Output<'_>) {
    let excerpt = Excerpt::last(output.bytes, MAX_LINES, MAX_CHARS);
    let path = output.file.path.to_string_lossy();
    if let Some(note) = output.skipped_note(&excerpt, &path) {
        let _ = writeln!(out, "    [{}]", printable(&note));
    }
    for line in &excerpt.lines {
        let _ = writeln!(out, "    | {}", printable(line));
    }
    for note in output.notes(&excerpt, &path) {
        let _ = writeln!(out, "    [{}]", printable(&note));
    }
}
