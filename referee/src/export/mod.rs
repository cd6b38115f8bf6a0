//! Output formats of results (a tournament's CSV files, the terminal tables), one file each;
//! every function returns bytes (or text) and never touches the filesystem. Column names and
//! meanings: docs/results.md.

pub mod leaderboard_csv;
pub mod matches_csv;
pub mod pairwise_csv;
pub mod table;

/// Version of the results schema (`matches.csv`, `leaderboard.csv`, `pairwise.csv`,
/// `tournament.json`); bumped on any change of a column's name or meaning.
pub const RESULTS_SCHEMA: u32 = 2;

/// Serialise one CSV record (with its `\n`), each field
/// [`printable`](crate::untrusted::printable): a CSV file is read by people, in a pager or
/// a spreadsheet, and a champion's name must not carry escape sequences there. (Names are
/// already [`label`](crate::untrusted::label)s, which also keep them from starting like a
/// formula; the other text cells are numbers, hex digests and the `referee match` command.)
pub(crate) fn csv_line<I, T>(fields: I) -> Vec<u8>
where
    I: IntoIterator<Item = T>,
    T: AsRef<str>,
{
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    writer
        .write_record(
            fields
                .into_iter()
                .map(|f| crate::untrusted::printable(f.as_ref()).into_owned()),
        )
        .expect("writing to memory");
    writer.into_inner().expect("writing to memory")
}
