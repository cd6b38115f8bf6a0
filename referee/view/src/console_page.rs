//! The console as the replay page's JSON (`<script id="console-data">`, drawn by
//! `assets/console.js`): per callback its step, seat, time and budget and its stderr as
//! text (at most [`PAGE_LINES`] lines, control characters escaped like the terminal's),
//! with a note of what was cut; per step the callbacks it shows. The page sets the text
//! with `textContent` only, and the JSON is escaped for its `<script>` element.

use crate::console::{Console, Excerpt, Output};
use jail::untrusted::printable;
use serde::Serialize;

/// Most lines of one callback's stderr on the page.
pub const PAGE_LINES: usize = 1000;
/// Most characters of one line on the page.
pub const PAGE_CHARS: usize = 2000;

/// The console of a match, for the page.
#[derive(Clone, Debug, Serialize)]
pub struct ConsoleView {
    /// Why stderr is not shown, when it is not (an older record, files not given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Each seat's name.
    pub names: Vec<String>,
    /// How the page marks each seat besides its colour (`A`, `B`, `C`; `White`, `Black`).
    pub marks: Vec<String>,
    /// The shape of each seat's dots on the CPU chart, when the page's board gives its
    /// seats shapes (the Amazons' `disc`, `square`); empty: square, diamond, triangle, disc,
    /// ring (a hollow disc), for up to five seats.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<String>,
    pub calls: Vec<CallView>,
    /// Per step of the timeline, the callbacks it shows: `[first, end)` in `calls`.
    pub steps: Vec<[usize; 2]>,
    /// Per seat, what it wrote after its last callback (shown on the last step).
    pub after: Vec<Option<TextView>>,
}

/// One callback on the page.
#[derive(Clone, Debug, Serialize)]
pub struct CallView {
    /// Its step in the timeline.
    pub step: usize,
    pub seat: u8,
    pub callback: String,
    pub cpu_us: u64,
    pub wall_us: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_budget_us: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_budget_us: Option<u64>,
    /// Its stderr, if recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr: Option<TextView>,
}

/// Some stderr, as shown.
#[derive(Clone, Debug, Serialize)]
pub struct TextView {
    /// The lines shown, escaped, joined by newlines.
    pub text: String,
    /// Bytes written.
    pub bytes: u64,
    /// What was not shown, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl ConsoleView {
    /// The page's view of `console`, whatever the game: the seats' `names` and `marks`,
    /// the page's step of each callback (`call_steps`, in order) and the callbacks each
    /// step shows (`steps`, `[first, end)`).
    pub fn new(
        console: &Console,
        names: Vec<String>,
        marks: Vec<String>,
        call_steps: &[usize],
        steps: Vec<[usize; 2]>,
    ) -> ConsoleView {
        let calls = console
            .calls
            .iter()
            .zip(call_steps)
            .enumerate()
            .map(|(i, (call, &step))| CallView {
                step,
                seat: call.seat,
                callback: call.callback.clone(),
                cpu_us: call.cpu_us,
                wall_us: call.wall_us,
                cpu_budget_us: call.budget.map(|b| b.cpu_us),
                wall_budget_us: call.budget.map(|b| b.wall_us),
                stderr: console.output(i).map(|o| text(&o)),
            })
            .collect();
        let missing: Vec<&str> = console
            .files
            .iter()
            .filter_map(|f| f.error.as_deref())
            .collect();
        let note = console.unrecorded.clone().or_else(|| {
            (!missing.is_empty()).then(|| format!("not shown: {}", missing.join("; ")))
        });
        let after = (0..names.len() as u8)
            .map(|seat| console.after(seat).map(|o| text(&o)))
            .collect();
        ConsoleView {
            note,
            names,
            marks,
            shapes: Vec::new(),
            calls,
            steps,
            after,
        }
    }
}

impl ConsoleView {
    /// This view with its seats' dots drawn as `shapes` (`disc`, `square`, `diamond`,
    /// `triangle`, `ring`), those of the page's board.
    pub fn with_shapes(mut self, shapes: &[&str]) -> ConsoleView {
        self.shapes = shapes.iter().map(|s| s.to_string()).collect();
        self
    }
}

/// `output` as the page shows it: each line escaped as [`printable`] does, tabs kept.
fn text(output: &Output<'_>) -> TextView {
    let excerpt = Excerpt::of(output.bytes, PAGE_LINES, PAGE_CHARS);
    let lines: Vec<String> = excerpt
        .lines
        .iter()
        .map(|line| {
            line.split('\t')
                .map(|part| printable(part).into_owned())
                .collect::<Vec<_>>()
                .join("\t")
        })
        .collect();
    let name = output
        .file
        .path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let notes = output.notes(&excerpt, &name);
    TextView {
        text: lines.join("\n"),
        bytes: output.written,
        notes,
    }
}
