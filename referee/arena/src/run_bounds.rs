//! The most the referee reads of each kind of a run's file: whoever can write a results
//! folder can put a file of any size there (a sparse file of gigabytes costs nothing on
//! disk), and a file read whole is memory. Each bound is far above what the referee
//! writes (a record of a long match is well under a MiB, a row of `matches.csv` under
//! 2 KiB), and a file above it is refused before it is read, naming the file, its size and
//! the bound ([`Bound::check`]). The referee checks a record against its bound before it
//! writes one too ([`Bound::check_written`]): a file it wrote is never one it refuses.

/// A kind of file of a run and the most the referee reads of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// What such a file is, for the error: `a match record`.
    pub kind: &'static str,
    /// Its largest size in bytes.
    pub max: u64,
}

/// `tournament.json`, `gauntlet.json` (the champions' paths and hashes, the limits: a few
/// KiB for a hundred champions).
pub const DESCRIPTION: Bound = Bound {
    kind: "a run's description",
    max: 16 << 20,
};

/// A description's MAC file (`tournament.json.mac`: one line of hex).
pub const MAC: Bound = Bound {
    kind: "a MAC file",
    max: 4 << 10,
};

/// A match's record (`record.json`): a 2009 match of random champions is about 30 KiB,
/// the longest matches a few MiB. Records are checked in parallel, one per thread.
pub const RECORD: Bound = Bound {
    kind: "a match record",
    max: 64 << 20,
};

/// A line of `matches.csv` (a row: names, numbers, the reproduce command).
pub const ROW: Bound = Bound {
    kind: "a row of matches.csv",
    max: 64 << 10,
};

/// A match's seal (`matches/<id>/mac`): two MACs and its row.
pub const SEAL: Bound = Bound {
    kind: "a match's seal",
    max: ROW.max + (4 << 10),
};

/// `matches.csv` of a whole run (a million matches at about 300 bytes a row is 300 MiB).
pub const MATCHES_CSV: Bound = Bound {
    kind: "a matches.csv",
    max: 1 << 30,
};

/// The tables the referee writes beside `matches.csv` (`leaderboard.csv`, `pairwise.csv`,
/// `seats.csv`), read back for `index.html`.
pub const TABLE: Bound = Bound {
    kind: "a results table",
    max: MATCHES_CSV.max,
};

/// `progress.json` (a few numbers and a host name).
pub const PROGRESS: Bound = Bound {
    kind: "a progress file",
    max: 64 << 10,
};

/// A full log's text once decompressed (`requests.log.gz`): a log at its default cap of
/// 64 MiB of gzip is about 0.5 GiB of text (requests compress about 8 to 1); a log is also
/// read no further than its record's count of requests of each callback (and one more).
pub const FULL_LOG_TEXT: Bound = Bound {
    kind: "a full log's text",
    max: 4 << 30,
};

impl Bound {
    /// `Ok` if a file of `size` bytes at `path` is within the bound; otherwise the error
    /// that names it, its size and the bound.
    pub fn check(&self, path: &std::path::Path, size: u64) -> anyhow::Result<()> {
        anyhow::ensure!(
            size <= self.max,
            "{} is {}, more than {} may be ({}): it is not a file the referee wrote \
             (someone who can write the results put it there); restore the file the referee \
             wrote",
            jail::untrusted::printable_path(path),
            size_text(size),
            self.kind,
            size_text(self.max)
        );
        Ok(())
    }

    /// `Ok` if a file of `size` bytes the referee is about to write at `path` is within the
    /// bound it reads such a file with; otherwise the error that says so (a file the
    /// referee writes is never one it refuses to read back).
    pub fn check_written(&self, path: &std::path::Path, size: u64) -> anyhow::Result<()> {
        anyhow::ensure!(
            size <= self.max,
            "{} would be {}, more than {} may be ({}): the referee did not write it, since it \
             would refuse to read it back; this is a fault of the referee, please report it \
             with the command that made it",
            jail::untrusted::printable_path(path),
            size_text(size),
            self.kind,
            size_text(self.max)
        );
        Ok(())
    }
}

/// `1234 bytes`, `3.0 GiB`.
pub fn size_text(bytes: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if bytes >= size {
            return format!("{:.1} {unit} ({bytes} bytes)", bytes as f64 / size as f64);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file above its bound is named with its size and the bound; at the bound it passes.
    #[test]
    fn a_file_above_its_bound_is_named_with_its_size_and_the_bound() {
        let path = std::path::Path::new("run/matches/0/record.json");
        assert!(RECORD.check(path, RECORD.max).is_ok());
        let err = format!("{:#}", RECORD.check(path, 3 << 30).unwrap_err());
        assert!(
            err.starts_with(
                "run/matches/0/record.json is 3.0 GiB (3221225472 bytes), more than a match \
                 record may be (64.0 MiB (67108864 bytes))"
            ),
            "{err}"
        );
        assert_eq!(size_text(12), "12 bytes");
    }

    /// A record the referee would write above the bound it reads with is refused before it
    /// is written, as the referee's own fault; at the bound it passes.
    #[test]
    fn a_file_written_above_its_bound_is_the_referee_s_fault() {
        let path = std::path::Path::new("m/record.json");
        assert!(RECORD.check_written(path, RECORD.max).is_ok());
        let err = format!(
            "{:#}",
            RECORD.check_written(path, RECORD.max + 1).unwrap_err()
        );
        assert!(
            err.starts_with(
                "m/record.json would be 64.0 MiB (67108865 bytes), more than a match record may be"
            ) && err.contains("a fault of the referee"),
            "{err}"
        );
    }
}
