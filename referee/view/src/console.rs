//! The champions' console, step by step: what each seat wrote on stderr during each
//! callback (the byte ranges of the record's `timings`, read from the `seat<N>.stderr`
//! files beside it) and what each callback cost against its budget, from a record of
//! either kind (the 2009 game's own, or the one record of every game on the model). The
//! terminal view (`console_text.rs`) and the replay page (`console_page.rs`) show it; the
//! text here is the champion's bytes, each view escapes it.

use arena::parts::BudgetRecord;
use arena::GameRecord;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Most bytes read of a stderr file (the referee keeps 1 MiB and a marker).
const MAX_FILE: u64 = 4 << 20;

/// A match's stderr, by callback.
pub struct Console {
    /// Per seat, its stderr file.
    pub files: Vec<SeatFile>,
    /// Per callback of the record, in order.
    pub calls: Vec<Call>,
    /// Why no callback has a byte range, when none has (an older record).
    pub unrecorded: Option<String>,
}

/// A seat's stderr file, as far as it could be read.
pub struct SeatFile {
    pub path: PathBuf,
    /// The bytes the file kept (without the truncation marker).
    kept: Vec<u8>,
    /// Whether the referee cut the file at its cap.
    pub truncated: bool,
    /// Why it could not be read, if it could not.
    pub error: Option<String>,
}

/// One callback of one seat: what it cost, what it was allowed, where its stderr is.
#[derive(Clone, Debug)]
pub struct Call {
    pub seat: u8,
    /// Its name (`jouer`).
    pub callback: String,
    /// The 2009 game's turn and phase (0 outside turns, and in a game without them).
    pub turn: u8,
    pub phase: u8,
    pub cpu_us: u64,
    pub wall_us: u64,
    pub budget: Option<BudgetRecord>,
    /// Its bytes `[start, end)` of the seat's stderr stream, if recorded.
    pub range: Option<[u64; 2]>,
}

/// A record whose callbacks a [`Console`] lays out, other than the one record of every
/// game ([`Console::of_game`]): the 2009 game's own, read by the referee.
pub trait Callbacks {
    /// Each seat's number, in seat order.
    fn seat_numbers(&self) -> Vec<u8>;
    /// Each callback, in order, with its stderr's byte range if recorded.
    fn calls(&self) -> Vec<Call>;
    /// Why no callback has a byte range, when none has.
    fn unrecorded(&self) -> &'static str;
}

/// What a range of a seat's stderr holds, as far as the file kept it.
pub struct Output<'a> {
    /// The bytes the file kept of the range.
    pub bytes: &'a [u8],
    /// Bytes written in the range.
    pub written: u64,
    /// Bytes written but not in the file: dropped past its cap, or the file unreadable.
    pub lost: u64,
    pub range: [u64; 2],
    pub file: &'a SeatFile,
}

impl Output<'_> {
    /// What [`Excerpt::last`] left out before the lines it shows, and where it is, naming
    /// the seat's file `file`: said before those lines.
    pub fn skipped_note(&self, excerpt: &Excerpt, file: &str) -> Option<String> {
        let start = self.range[0];
        (excerpt.skipped_lines > 0).then(|| {
            format!(
                "the first {} line(s) are not shown ({} byte(s); see {file}, bytes {start}..{}); \
                 the last {} follow",
                excerpt.skipped_lines,
                excerpt.skipped_bytes,
                start + excerpt.skipped_bytes,
                excerpt.lines.len()
            )
        })
    }

    /// What `excerpt` (of these bytes) does not show after its lines, and where it is,
    /// naming the seat's file `file`.
    pub fn notes(&self, excerpt: &Excerpt, file: &str) -> Vec<String> {
        let start = self.range[0];
        let mut notes = Vec::new();
        if excerpt.unfinished && self.lost == 0 {
            notes.push("no newline at the end".to_string());
        }
        if excerpt.cut_lines > 0 || excerpt.cut_bytes > 0 {
            let lines = match excerpt.cut_lines {
                0 => String::new(),
                n => format!(", {n} more line(s)"),
            };
            notes.push(format!(
                "not shown: {} byte(s){lines}; see {file}, bytes {start}..{}",
                excerpt.cut_bytes,
                start + self.bytes.len() as u64
            ));
        }
        if self.lost > 0 {
            notes.push(match &self.file.error {
                Some(error) => format!("{} byte(s) not shown: {error}", self.lost),
                None if self.file.truncated => format!(
                    "{} byte(s) dropped past the cap of {file}, which keeps the first {} \
                     byte(s) the seat wrote",
                    self.lost,
                    self.file.kept_len()
                ),
                None => format!("{} byte(s) not in {file}", self.lost),
            });
        }
        notes
    }
}

impl Console {
    /// The console of `record` (a record of before the one record of every game: the 2009
    /// game's own), its stderr files read from `dir` (`None`: not available).
    pub fn load(record: &impl Callbacks, dir: Option<&Path>) -> Console {
        let files = record
            .seat_numbers()
            .into_iter()
            .map(|seat| SeatFile::read(dir, seat))
            .collect();
        let calls = record.calls();
        let unrecorded = (!calls.is_empty() && calls.iter().all(|c| c.range.is_none()))
            .then(|| record.unrecorded().to_string());
        Console {
            files,
            calls,
            unrecorded,
        }
    }

    /// The console of `record`, a record of a game on the model, its stderr files read
    /// from `dir` (`None`: not available); `when(i)` gives callback `i`'s turn and phase,
    /// for a game that has them (else `(0, 0)`). A zero budget (a record remade from one
    /// that kept none) is shown as none.
    pub fn of_game(
        record: &GameRecord,
        dir: Option<&Path>,
        when: impl Fn(usize) -> (u8, u8),
    ) -> Console {
        let files = record
            .seats
            .iter()
            .map(|s| SeatFile::read(dir, s.seat))
            .collect();
        let calls: Vec<Call> = record
            .callbacks
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let timing = record.timings.get(i).copied().unwrap_or_default();
                let budget = match c.callback.as_str() {
                    "init_game" => record.budgets.init,
                    _ => record.budgets.call,
                };
                let (turn, phase) = when(i);
                Call {
                    seat: c.seat,
                    callback: c.callback.clone(),
                    turn,
                    phase,
                    cpu_us: timing.cpu_us,
                    wall_us: timing.wall_us,
                    budget: Some(budget).filter(|b| b.cpu_us > 0),
                    range: timing.stderr,
                }
            })
            .collect();
        // Only the 2009 records of schema 3 kept neither ranges nor budgets.
        let of_schema_3 = record.budgets.init.cpu_us == 0 && record.budgets.call.cpu_us == 0;
        let unrecorded = (!calls.is_empty() && calls.iter().all(|c| c.range.is_none())).then(
            || match of_schema_3 {
                true => "stderr by callback was not recorded (a record of schema 3)".to_string(),
                false => "stderr by callback was not recorded".to_string(),
            },
        );
        Console {
            files,
            calls,
            unrecorded,
        }
    }

    /// What callback `index` wrote, if its range was recorded.
    pub fn output(&self, index: usize) -> Option<Output<'_>> {
        let call = self.calls.get(index)?;
        let range = call.range?;
        Some(self.slice(call.seat, range))
    }

    /// What `seat` wrote after its last callback ended (up to the end of its file), if
    /// anything is there.
    pub fn after(&self, seat: u8) -> Option<Output<'_>> {
        let last = self.calls.iter().rev().find(|c| c.seat == seat)?.range?[1];
        self.files.get(usize::from(seat))?.after(last)
    }

    fn slice(&self, seat: u8, range: [u64; 2]) -> Output<'_> {
        self.files[usize::from(seat).min(self.files.len() - 1)].slice(range)
    }
}

impl SeatFile {
    /// Bytes the file kept (without the truncation marker).
    pub fn kept_len(&self) -> u64 {
        self.kept.len() as u64
    }

    /// What the bytes `range` of the seat's stream hold, as far as the file kept them.
    pub fn slice(&self, range: [u64; 2]) -> Output<'_> {
        let kept = self.kept.len() as u64;
        let (start, end) = (range[0].min(kept), range[1].min(kept));
        let bytes = &self.kept[start as usize..end.max(start) as usize];
        let written = range[1].saturating_sub(range[0]);
        Output {
            bytes,
            written,
            lost: written - bytes.len() as u64,
            range,
            file: self,
        }
    }

    /// What the file holds from byte `start` to its end, if anything.
    pub fn after(&self, start: u64) -> Option<Output<'_>> {
        let end = self.kept_len();
        (end > start).then(|| self.slice([start, end]))
    }

    /// The stderr file of `seat` in the match directory `dir` (`None`: not given), read
    /// up to 4 MiB, the referee's truncation marker taken off.
    pub fn read(dir: Option<&Path>, seat: u8) -> SeatFile {
        let name = format!("seat{seat}.stderr");
        let path = dir.map_or_else(|| PathBuf::from(&name), |d| d.join(&name));
        let mut file = SeatFile {
            path,
            kept: Vec::new(),
            truncated: false,
            error: None,
        };
        if dir.is_none() {
            file.error = Some(format!("{name} was not given"));
            return file;
        }
        // Never through a link put in its place (`run_files`): a page is written from it.
        let read = arena::store::open_file(&file.path)
            .map_err(|e| format!("{e:#}"))
            .and_then(|f| {
                f.take(MAX_FILE)
                    .read_to_end(&mut file.kept)
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = read {
            file.error = Some(format!("{name} cannot be read: {e}"));
        }
        let marker = jail::champion::TRUNCATED_MARKER.as_bytes();
        if file.kept.ends_with(marker) {
            file.kept.truncate(file.kept.len() - marker.len());
            file.truncated = true;
        }
        file
    }
}

/// A piece of text cut to at most `max_lines` lines of at most `max_chars` characters each
/// (the rest of a longer line is counted, not shown).
pub struct Excerpt {
    /// The lines shown, without their newline (lossy UTF-8, unescaped).
    pub lines: Vec<String>,
    /// Whether the text ended without a newline.
    pub unfinished: bool,
    /// Lines not shown, and their bytes; bytes of the long lines not shown.
    pub cut_lines: usize,
    pub cut_bytes: u64,
    /// Lines not shown before the first one shown ([`Excerpt::last`]), and their bytes
    /// (with their newlines).
    pub skipped_lines: usize,
    pub skipped_bytes: u64,
}

impl Excerpt {
    pub fn of(bytes: &[u8], max_lines: usize, max_chars: usize) -> Excerpt {
        let unfinished = !bytes.is_empty() && !bytes.ends_with(b"\n");
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let mut excerpt = Excerpt {
            lines: Vec::new(),
            unfinished,
            cut_lines: 0,
            cut_bytes: 0,
            skipped_lines: 0,
            skipped_bytes: 0,
        };
        if bytes.is_empty() {
            return excerpt;
        }
        for line in body.split(|b| *b == b'\n') {
            if excerpt.lines.len() >= max_lines {
                excerpt.cut_lines += 1;
                excerpt.cut_bytes += line.len() as u64 + 1;
                continue;
            }
            let text = String::from_utf8_lossy(line);
            match text.char_indices().nth(max_chars) {
                Some((at, _)) => {
                    excerpt.cut_bytes += (text.len() - at) as u64;
                    excerpt.lines.push(text[..at].to_string());
                }
                None => excerpt.lines.push(text.into_owned()),
            }
        }
        excerpt
    }

    /// The last `max_lines` lines of `bytes` (where a crash's traceback is), each cut at
    /// `max_chars` characters; the lines before them are counted as skipped.
    pub fn last(bytes: &[u8], max_lines: usize, max_chars: usize) -> Excerpt {
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let total = body.split(|b| *b == b'\n').count();
        let skipped_lines = match bytes.is_empty() {
            true => 0,
            false => total.saturating_sub(max_lines),
        };
        let skipped_bytes: u64 = body
            .split(|b| *b == b'\n')
            .take(skipped_lines)
            .map(|line| line.len() as u64 + 1)
            .sum::<u64>()
            .min(bytes.len() as u64);
        let rest = &bytes[skipped_bytes as usize..];
        Excerpt {
            skipped_lines,
            skipped_bytes,
            ..Excerpt::of(rest, max_lines, max_chars)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_cuts_lines_and_long_lines_and_counts_the_rest() {
        let e = Excerpt::of(b"a\nbb\nccc\ndddd\n", 2, 10);
        assert_eq!(e.lines, ["a", "bb"]);
        assert_eq!((e.cut_lines, e.cut_bytes, e.unfinished), (2, 9, false));
        let e = Excerpt::of(b"abcdef", 5, 4);
        assert_eq!(e.lines, ["abcd"]);
        assert_eq!((e.cut_lines, e.cut_bytes, e.unfinished), (0, 2, true));
        let e = Excerpt::of(b"", 5, 4);
        assert!(e.lines.is_empty() && !e.unfinished);
        let e = Excerpt::of(b"\n", 5, 4);
        assert_eq!(e.lines, [""]);
    }

    #[test]
    fn the_last_lines_of_an_excerpt_are_its_end_and_count_what_came_before() {
        let e = Excerpt::last(b"a\nbb\nccc\ndddd\n", 2, 3);
        assert_eq!(e.lines, ["ccc", "ddd"]);
        assert_eq!((e.skipped_lines, e.skipped_bytes), (2, 5));
        assert_eq!((e.cut_lines, e.cut_bytes, e.unfinished), (0, 1, false));
        let e = Excerpt::last(b"a\nbb", 5, 4);
        assert_eq!(e.lines, ["a", "bb"]);
        assert_eq!((e.skipped_lines, e.unfinished), (0, true));
        let e = Excerpt::last(b"", 5, 4);
        assert!(e.lines.is_empty() && e.skipped_lines == 0);
        let e = Excerpt::last(b"a\nb\n", 0, 4);
        assert!(e.lines.is_empty());
        assert_eq!((e.skipped_lines, e.skipped_bytes), (2, 4));
        let e = Excerpt::last(b"a\nbb", 0, 4);
        assert_eq!((e.skipped_lines, e.skipped_bytes), (2, 4));
    }
}
