//! Output formats of results (a tournament's CSV files, the terminal tables), one file each;
//! every function returns bytes (or text) and never touches the filesystem. Column names and
//! meanings: docs/results.md.

pub mod leaderboard_csv;
pub mod matches_csv;
pub mod pairwise_csv;
pub mod seats_csv;
pub mod table;

/// Version of the results schema (`matches.csv`, `leaderboard.csv`, `pairwise.csv`,
/// `seats.csv`, `tournament.json`); bumped on any change of a column's name or meaning.
/// 3: `leaderboard.csv` gained `mean_points`, `mean_points_low`, `mean_points_high`,
/// `p_ahead_of_next`, `rating` and `rating_sigma` (`confidence.rs`), `seats.csv` is
/// new, and a three-seat round-robin plays each set of champions' three rotations of the
/// seats on one seed (`schedule.rs`: match seeds changed).
/// 4: `matches.csv` gained a `place` column per seat (the game's ranking), its scores are
/// the game's own (no longer lowered to follow the places), and every table ranks by
/// places; runs of schema 3 are read, their rows migrated ([`matches_csv::migrate_line`]).
pub const RESULTS_SCHEMA: u32 = 4;

/// Whether this referee reads the results of schema `schema` (a run's `tournament.json`,
/// `gauntlet.json`): today's, and schema 3, whose rows it migrates.
pub fn reads_schema(schema: u64) -> bool {
    schema == u64::from(RESULTS_SCHEMA) || schema == u64::from(matches_csv::SCHEMA_3)
}

/// Serialise one CSV record (with its `\n`), each field
/// [`printable`](jail::untrusted::printable): a CSV file is read by people, in a pager or
/// a spreadsheet, and a champion's name must not carry escape sequences there. (Names are
/// already [`label`](jail::untrusted::label)s, which also keep them from starting like a
/// formula; the other text cells are numbers, hex digests and the `referee match` command.)
pub fn csv_line<I, T>(fields: I) -> Vec<u8>
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
                .map(|f| jail::untrusted::printable(f.as_ref()).into_owned()),
        )
        .expect("writing to memory");
    writer.into_inner().expect("writing to memory")
}

/// The field names of `T`, in order: the columns of rows of `T`.
pub(crate) fn column_names<T: serde::Serialize + Default>() -> Vec<String> {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    writer.serialize(T::default()).expect("writing to memory");
    let bytes = writer.into_inner().expect("writing to memory");
    first_record(&bytes)
}

/// The header line of rows of `T`: its field names, in order.
pub(crate) fn csv_header<T: serde::Serialize + Default>() -> Vec<u8> {
    csv_line(column_names::<T>())
}

/// The fields of `row` as text, in order (not yet made printable).
pub(crate) fn fields_of<T: serde::Serialize>(row: &T) -> Vec<String> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer.serialize(row).expect("writing to memory");
    first_record(&writer.into_inner().expect("writing to memory"))
}

/// The fields of the first record of CSV `bytes` (written by this module: UTF-8).
///
/// Read with one parser per thread, reset for each record: a parser's tables take longer
/// to build than a row takes to read, and every row of every match is read here.
fn first_record(bytes: &[u8]) -> Vec<String> {
    thread_local! {
        static READER: std::cell::RefCell<csv_core::Reader> =
            std::cell::RefCell::new(csv_core::Reader::new());
    }
    READER.with_borrow_mut(|reader| {
        reader.reset();
        let (mut input, mut fields, mut field) = (bytes, Vec::new(), Vec::new());
        let mut out = [0u8; 1024];
        loop {
            let (result, read, written) = reader.read_field(input, &mut out);
            input = &input[read..];
            field.extend_from_slice(&out[..written]);
            match result {
                csv_core::ReadFieldResult::InputEmpty | csv_core::ReadFieldResult::OutputFull => {}
                csv_core::ReadFieldResult::Field { record_end } => {
                    fields.push(String::from_utf8_lossy(&field).into_owned());
                    field.clear();
                    if record_end {
                        return fields;
                    }
                }
                csv_core::ReadFieldResult::End => return fields,
            }
        }
    })
}

/// One row of `T` (with its `\n`), every field made [`printable`](jail::untrusted::printable)
/// as [`csv_line`] does.
pub(crate) fn csv_record<T: serde::Serialize>(row: &T) -> Vec<u8> {
    csv_line(fields_of(row))
}

/// A `T` from `record`, whose fields are `T`'s fields `keys` (in any order: a field of `T`
/// absent from `keys` takes its serde default, if it has one) shown as the columns
/// `columns`; an error names the column.
pub(crate) fn parse_fields<T: serde::de::DeserializeOwned>(
    record: &csv::StringRecord,
    keys: &[String],
    columns: &[String],
) -> Result<T, String> {
    record
        .deserialize(Some(&csv::StringRecord::from(keys)))
        .map_err(|e| match e.kind() {
            csv::ErrorKind::Deserialize { err, .. } => {
                let field = err.field().map(|i| i as usize);
                let column = field
                    .and_then(|i| columns.get(i))
                    .map_or("?", String::as_str);
                let text = field.and_then(|i| record.get(i)).unwrap_or("");
                format!(
                    "column {column}: `{text}` is not valid there ({})",
                    err.kind()
                )
            }
            _ => e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    //! Snapshots of every results file and of the printed leaderboard, from fixed rows.
    //! A change of format fails here with a diff; accept it, after a look, with
    //! `cargo insta review` (or `INSTA_UPDATE=always cargo test`), and bump
    //! [`RESULTS_SCHEMA`](super::RESULTS_SCHEMA) if a column changed name or meaning.

    use super::*;
    use crate::standings::{MatchRow, Standings};
    use jail::fault::FaultKind;

    #[test]
    fn fields_come_back_as_written_whatever_they_hold() {
        #[derive(serde::Serialize)]
        struct Row {
            a: String,
            b: String,
            c: u32,
            d: String,
        }
        let long = "x".repeat(3000);
        let row = Row {
            a: "a \"quoted\", with commas,".into(),
            b: String::new(),
            c: 7,
            d: format!("two\nlines {long}"),
        };
        for _ in 0..2 {
            assert_eq!(
                fields_of(&row),
                [row.a.clone(), String::new(), "7".into(), row.d.clone()]
            );
        }
        assert!(first_record(b"").is_empty());
    }

    fn rows() -> Vec<(MatchRow, u8)> {
        let row = |id: u64, champions: [&str; 3], scores: [i32; 3]| MatchRow {
            id,
            seed: 1000 + id,
            champions: champions.map(String::from).to_vec(),
            places: crate::standings::places_of(&scores),
            scores: scores.to_vec(),
            points: crate::standings::points_with(
                crate::standings::RULE_26,
                &crate::standings::places_of(&scores),
            ),
            faults: vec![None; 3],
            calls: vec![107, 107, 107],
            cpu_us: vec![1_000 * id, 2_000, 3_000],
            max_cpu_us: vec![500, 600, 700],
            duration_ms: 40 + id,
            digest: format!("{:016x}", id * 0x1234_5678),
            reproduce: format!("referee match {} --seed {}", champions.join(" "), 1000 + id),
        };
        let mut faulty = row(2, ["c/random", "greedy", "it's, \"quoted\""], [10, 80, 0]);
        faulty.faults[2] = Some(FaultKind::Timeout);
        vec![
            (
                row(0, ["c/random", "greedy", "it's, \"quoted\""], [54, 87, 28]),
                1,
            ),
            (
                row(1, ["greedy", "it's, \"quoted\"", "c/random"], [87, 87, 3]),
                2,
            ),
            (faulty, 0),
        ]
    }

    fn standings() -> Standings {
        let mut standings = Standings::default();
        for (row, _) in rows() {
            standings.add(&row);
        }
        standings
    }

    #[test]
    fn matches_csv() {
        let mut file = matches_csv::header(3);
        for (row, first) in rows() {
            file.extend(matches_csv::row(&row, first));
        }
        insta::assert_snapshot!(String::from_utf8(file).unwrap());
    }

    #[test]
    fn leaderboard_csv() {
        let standings = standings();
        let confidence = crate::confidence::compute(&standings, 2009);
        let file = leaderboard_csv::render(&standings, &confidence);
        insta::assert_snapshot!(String::from_utf8(file).unwrap());
    }

    #[test]
    fn pairwise_csv() {
        let file = pairwise_csv::render(&standings());
        insta::assert_snapshot!(String::from_utf8(file).unwrap());
    }

    #[test]
    fn seats_csv() {
        let standings = standings();
        let confidence = crate::confidence::compute(&standings, 2009);
        insta::assert_snapshot!(String::from_utf8(seats_csv::render(&confidence, 3)).unwrap());
        insta::assert_snapshot!("seats_table", table::seats(&confidence));
    }

    /// A five-seat game: five place columns in `leaderboard.csv` and in the printed table,
    /// five rows of `seats.csv`; points by a table of four places, ties sharing the lower.
    #[test]
    fn five_seats() {
        let names = ["a", "b", "c", "d", "e"];
        let mut standings = Standings::new(&[10, 6, 3, 1], 5);
        for (id, scores) in [[5, 3, 3, 1, 0], [2, 2, 2, 2, 9], [0, 1, 2, 3, 4]]
            .into_iter()
            .enumerate()
        {
            let mut champions = names.map(String::from).to_vec();
            champions.rotate_left(id);
            standings.add(&MatchRow {
                id: id as u64,
                seed: id as u64,
                champions,
                places: crate::standings::places_of(&scores),
                points: crate::standings::points_with(
                    standings.table,
                    &crate::standings::places_of(&scores),
                ),
                scores: scores.to_vec(),
                faults: vec![None; 5],
                calls: vec![1; 5],
                cpu_us: vec![10; 5],
                max_cpu_us: vec![10; 5],
                duration_ms: 1,
                digest: String::new(),
                reproduce: String::new(),
            });
        }
        let confidence = crate::confidence::compute(&standings, 5);
        let file = leaderboard_csv::render(&standings, &confidence);
        insta::assert_snapshot!(
            "five_seats_leaderboard_csv",
            String::from_utf8(file).unwrap()
        );
        insta::assert_snapshot!(
            "five_seats_seats_csv",
            String::from_utf8(seats_csv::render(&confidence, 3)).unwrap()
        );
        insta::assert_snapshot!(
            "five_seats_leaderboard_table",
            table::leaderboard(&standings, &confidence)
        );
    }

    #[test]
    fn leaderboard_table() {
        let standings = standings();
        let confidence = crate::confidence::compute(&standings, 2009);
        insta::assert_snapshot!(table::leaderboard(&standings, &confidence));
    }
}
