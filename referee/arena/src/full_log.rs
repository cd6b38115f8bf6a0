//! The full request log (`--full-log`): every request of a match and its answer, streamed
//! into a gzip file beside the record as the match is played (the referee holds none of it),
//! and read back the same way by `referee replay`.
//!
//! One line per request: `<callback index>\t<request>\t<answer>\n`, where the index is the
//! callback's position in the record's `callbacks` and the request is the line the champion
//! sent with its words joined by single spaces (`etat`, or a call as the engine prints it;
//! in a game on the arena, `arena::machine::logged_form`): no tab of a champion's line
//! reaches the log's fields.
//!
//! A log is bounded whatever a champion asks: once its compressed size reaches its cap
//! (64 MiB by default, `--full-log-cap`), it takes no more requests, and the record notes
//! where it stopped ([`Cut`]); a replay checks every request up to there and the actions
//! alone after.

use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The log's file name, beside `record.json`.
pub const FILE: &str = "requests.log.gz";

/// The default cap of a log, in MiB of compressed log.
pub const DEFAULT_CAP_MIB: u64 = 64;

/// Where a log that reached its cap stops: it holds every request of the callbacks before
/// `callback` (an index into the record's `callbacks`), the first `requests` of that one,
/// and nothing after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cut {
    pub callback: usize,
    pub requests: u64,
}

/// Where the requests of a match go, one at a time.
pub trait Sink {
    /// Request `line` of callback #`callback`, answered `answer`.
    fn request(&mut self, callback: usize, line: &str, answer: i32);
}

/// Entries kept in memory: for tests.
impl Sink for Vec<(usize, String, i32)> {
    fn request(&mut self, callback: usize, line: &str, answer: i32) {
        self.push((callback, line.to_string(), answer));
    }
}

/// A log being written. The first write error is kept and returned by [`Writer::finish`];
/// the match goes on meanwhile.
pub struct Writer {
    path: PathBuf,
    /// Buffered before the encoder: one deflate call per 64 KiB, not per request.
    out: BufWriter<GzEncoder<Counted>>,
    error: Option<io::Error>,
    /// Compressed bytes past which the log takes no more requests.
    cap: u64,
    /// The callback of the last request logged, and how many of its requests were.
    last: Option<(usize, u64)>,
    cut: Option<Cut>,
}

/// The log's file, counting the compressed bytes written into it.
struct Counted {
    file: File,
    written: u64,
}

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Writer {
    /// Creates the log at `path` (a new file), to be cut at `cap_mib` MiB compressed.
    pub fn create(path: &Path, cap_mib: u64) -> anyhow::Result<Writer> {
        let (folder, name) = crate::run_files::Folder::of_file(path)?;
        Writer::create_in(&folder, &name, cap_mib)
    }

    /// Creates the log `name` (a new file) in `folder`, to be cut at `cap_mib` MiB
    /// compressed.
    pub fn create_in(
        folder: &crate::run_files::Folder,
        name: &str,
        cap_mib: u64,
    ) -> anyhow::Result<Writer> {
        let file = folder.open_file(name, crate::run_files::Access::Create)?;
        Ok(Writer::writing(file, folder.path().join(name), cap_mib))
    }

    /// A log written into `file`, named `path` in messages.
    fn writing(file: std::fs::File, path: PathBuf, cap_mib: u64) -> Writer {
        let file = Counted { file, written: 0 };
        Writer {
            path,
            // Level 1: the log compresses about tenfold at it, and a slower level would
            // cost more CPU per request than answering it.
            out: BufWriter::with_capacity(1 << 16, GzEncoder::new(file, Compression::fast())),
            error: None,
            cap: cap_mib.saturating_mul(1 << 20),
            last: None,
            cut: None,
        }
    }

    /// Flushes and closes the log; where it stopped, if it reached its cap. The file may
    /// pass the cap by what the buffers held when it was reached (under 1 MiB).
    pub fn finish(self) -> anyhow::Result<Option<Cut>> {
        use anyhow::Context;
        let path = self.path;
        if let Some(e) = self.error {
            return Err(e).with_context(|| format!("cannot write {}", path.display()));
        }
        self.out
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|encoder| encoder.finish())
            .and_then(|counted| counted.file.sync_all())
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(self.cut)
    }
}

impl Sink for Writer {
    fn request(&mut self, callback: usize, line: &str, answer: i32) {
        if self.error.is_some() || self.cut.is_some() {
            return;
        }
        let logged = match self.last {
            Some((last, n)) if last == callback => n,
            _ => 0,
        };
        // What reached the file so far (the encoder's buffers hold the rest).
        if self.out.get_ref().get_ref().written >= self.cap {
            self.cut = Some(Cut {
                callback,
                requests: logged,
            });
            return;
        }
        match writeln!(self.out, "{callback}\t{line}\t{answer}") {
            Ok(()) => self.last = Some((callback, logged + 1)),
            Err(e) => self.error = Some(e),
        }
    }
}

/// A log being read, entry by entry.
pub struct Reader {
    path: PathBuf,
    /// Every gzip member of the file, in order (a member appended after the log is read
    /// too, and then refused as requests of no callback).
    input: BufReader<io::Take<MultiGzDecoder<BufReader<File>>>>,
    peeked: Option<(usize, String, i32)>,
    line_number: u64,
    /// Bytes of text read so far, never more than [`crate::run_bounds::FULL_LOG_TEXT`].
    text: u64,
}

impl Reader {
    /// The full log `name` that the record at `record` names: a file beside it.
    pub fn beside(record: &Path, name: &str) -> Result<Reader, String> {
        if name.contains('/') || name == ".." || name.is_empty() {
            return Err(format!(
                "{} names its full log `{}`, which is not a file name beside it",
                record.display(),
                jail::untrusted::printable(name)
            ));
        }
        let path = record.parent().unwrap_or(Path::new(".")).join(name);
        Reader::open(&path).map_err(|e| {
            format!("{e}; the record was played with a full log, which must stay beside it")
        })
    }

    /// Opens the log at `path`.
    pub fn open(path: &Path) -> Result<Reader, String> {
        let file = crate::store::open_file(path).map_err(|e| format!("{e:#}"))?;
        Ok(Reader {
            path: path.to_path_buf(),
            input: BufReader::new(
                MultiGzDecoder::new(BufReader::new(file))
                    .take(crate::run_bounds::FULL_LOG_TEXT.max + 1),
            ),
            peeked: None,
            line_number: 0,
            text: 0,
        })
    }

    /// The next entry if it belongs to callback #`callback`; entries of an earlier callback
    /// left unread, or of a later one, are not taken.
    pub fn next_of(&mut self, callback: usize) -> Result<Option<(String, i32)>, String> {
        if self.peeked.is_none() {
            self.peeked = self.read()?;
        }
        match self.peeked.take() {
            Some((index, line, answer)) if index == callback => Ok(Some((line, answer))),
            other => {
                self.peeked = other;
                Ok(None)
            }
        }
    }

    /// The next entry, whichever callback it belongs to.
    pub fn next_entry(&mut self) -> Result<Option<(usize, String, i32)>, String> {
        match self.peeked.take() {
            Some(entry) => Ok(Some(entry)),
            None => self.read(),
        }
    }

    /// The callback index of the next entry, if any.
    pub fn pending(&mut self) -> Result<Option<usize>, String> {
        if self.peeked.is_none() {
            self.peeked = self.read()?;
        }
        Ok(self.peeked.as_ref().map(|(index, _, _)| *index))
    }

    fn read(&mut self) -> Result<Option<(usize, String, i32)>, String> {
        // A line is at most a request (256 bytes) and two numbers: longer is not a log.
        const MAX_LINE: u64 = 512;
        let mut bytes = Vec::new();
        let read = (&mut self.input)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("{} line {}: {e}", self.path.display(), self.line_number + 1))?;
        if read == 0 {
            return Ok(None);
        }
        self.text += read as u64;
        crate::run_bounds::FULL_LOG_TEXT
            .check(&self.path, self.text)
            .map_err(|e| format!("{e:#}"))?;
        self.line_number += 1;
        let at = || format!("{} line {}", self.path.display(), self.line_number);
        if bytes.pop() != Some(b'\n') {
            return Err(format!("{}: longer than {MAX_LINE} bytes, or cut", at()));
        }
        let line = String::from_utf8(bytes).map_err(|_| format!("{}: not text", at()))?;
        let mut fields = line.split('\t');
        let parsed = (|| {
            let index = fields.next()?.parse().ok()?;
            let request = fields.next()?.to_string();
            let answer = fields.next()?.parse().ok()?;
            fields.next().is_none().then_some((index, request, answer))
        })();
        parsed
            .map(Some)
            .ok_or_else(|| format!("{}: expected `<callback>\\t<request>\\t<answer>`", at()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_callback_by_callback() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let mut writer = Writer::create(&path, DEFAULT_CAP_MIB).unwrap();
        writer.request(0, "etat", 0);
        writer.request(0, "valeur_case 1 2", 7);
        writer.request(2, "fin_tour", -1);
        writer.finish().unwrap();
        let mut reader = Reader::open(&path).unwrap();
        assert_eq!(reader.next_of(1), Ok(None));
        assert_eq!(reader.next_of(0), Ok(Some(("etat".into(), 0))));
        assert_eq!(reader.next_of(0), Ok(Some(("valeur_case 1 2".into(), 7))));
        assert_eq!(reader.next_of(0), Ok(None));
        assert_eq!(reader.pending(), Ok(Some(2)));
        assert_eq!(reader.next_entry(), Ok(Some((2, "fin_tour".into(), -1))));
        assert_eq!(reader.pending(), Ok(None));
        assert_eq!(reader.next_entry(), Ok(None));
    }

    /// A log that cannot be written says so when it is finished (the match goes on).
    #[test]
    fn a_write_error_is_reported_at_the_end() {
        // A device that is always full: the log is created in a run's folder otherwise.
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let mut writer = Writer::writing(full, PathBuf::from("/dev/full"), DEFAULT_CAP_MIB);
        for i in 0..100_000 {
            writer.request(i, "valeur_case 1 2", 0);
        }
        let err = writer.finish().unwrap_err();
        assert!(
            format!("{err:#}").contains("cannot write /dev/full"),
            "{err:#}"
        );
    }

    /// A gzip member appended to a log is read too (and a line too long for a log is
    /// refused without reading it whole).
    #[test]
    fn appended_members_are_read_and_long_lines_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let mut writer = Writer::create(&path, DEFAULT_CAP_MIB).unwrap();
        writer.request(0, "etat", 0);
        writer.finish().unwrap();
        let mut extra = GzEncoder::new(Vec::new(), Compression::fast());
        extra.write_all(b"999\tFORGED\t42\n").unwrap();
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        file.write_all(&extra.finish().unwrap()).unwrap();
        let mut reader = Reader::open(&path).unwrap();
        assert_eq!(reader.next_entry(), Ok(Some((0, "etat".into(), 0))));
        assert_eq!(reader.next_entry(), Ok(Some((999, "FORGED".into(), 42))));
        let mut long = GzEncoder::new(File::create(&path).unwrap(), Compression::fast());
        long.write_all(&vec![b'7'; 100_000]).unwrap();
        long.finish().unwrap();
        let err = Reader::open(&path).unwrap().next_entry().unwrap_err();
        assert!(
            err.ends_with("line 1: longer than 512 bytes, or cut"),
            "{err}"
        );
    }

    /// A log whose file goes on with bytes that are no gzip member (a damaged disk, an
    /// edit): the error names the line being read, after the good ones.
    #[test]
    fn a_damaged_log_names_the_line_it_stopped_at() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let mut out = GzEncoder::new(File::create(&path).unwrap(), Compression::fast());
        out.write_all(b"0\tetat\t0\n0\tfin_tour\t0\n1\tetat\t0\n")
            .unwrap();
        let mut file = out.finish().unwrap();
        file.write_all(b"not gzip at all").unwrap();
        drop(file);
        let mut reader = Reader::open(&path).unwrap();
        for _ in 0..3 {
            assert!(reader.next_entry().unwrap().is_some());
        }
        let err = reader.next_entry().unwrap_err();
        assert!(
            err.starts_with(&format!("{} line 4: ", path.display())),
            "{err}"
        );
    }

    /// A line of 512 bytes before its newline is read; one byte more is refused.
    #[test]
    fn a_line_is_at_most_512_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let request = |len: usize| "x".repeat(len);
        for (len, read) in [(508, true), (509, false)] {
            let mut out = GzEncoder::new(File::create(&path).unwrap(), Compression::fast());
            let line = format!("0\t{}\t0\n", request(len));
            assert_eq!(line.len(), len + 5);
            out.write_all(line.as_bytes()).unwrap();
            out.finish().unwrap();
            let entry = Reader::open(&path).unwrap().next_entry();
            match read {
                true => assert_eq!(entry, Ok(Some((0, request(len), 0)))),
                false => assert!(
                    entry
                        .as_ref()
                        .unwrap_err()
                        .ends_with("line 1: longer than 512 bytes, or cut"),
                    "{entry:?}"
                ),
            }
        }
    }

    #[test]
    fn a_malformed_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let mut out = GzEncoder::new(File::create(&path).unwrap(), Compression::fast());
        out.write_all(b"0\tetat\t0\nzero\tetat\t0\n").unwrap();
        out.finish().unwrap();
        let mut reader = Reader::open(&path).unwrap();
        assert!(reader.next_of(0).unwrap().is_some());
        let err = reader.next_of(0).unwrap_err();
        assert!(
            err.ends_with("line 2: expected `<callback>\\t<request>\\t<answer>`"),
            "{err}"
        );
    }
}
