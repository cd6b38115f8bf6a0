//! `matches.csv`: one row per match (docs/results.md), for games of any number of seats.
//! Rows are written one at a time so the file can be appended and flushed match by match,
//! and read back for resume and merge. A row is a `Head`, then each field of `SeatCells`
//! once per seat (`champion0, champion1, champion2, score0, ...`), then a `Tail`: serde
//! names the columns, the seat number is appended.

use super::{column_names, csv_line, fields_of, parse_fields};
use crate::standings::MatchRow;
use jail::fault::FaultKind;
use serde::{Deserialize, Serialize};

/// The first columns.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
struct Head {
    id: u64,
    seed: u64,
    first_player: u8,
}

/// The columns of one seat, each repeated for every seat with its number appended.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
struct SeatCells {
    champion: String,
    score: i32,
    points: u32,
    /// A fault's name ([`FaultKind::name`]), or empty.
    fault: String,
    calls: u64,
    cpu_us: u64,
    max_cpu_us: u64,
}

/// The last columns.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
struct Tail {
    duration_ms: u64,
    digest: String,
    reproduce: String,
    schema: u32,
}

/// Columns that measure time and so differ between two runs of the same matches (the
/// per-seat ones without their seat number).
pub const TIMING_COLUMNS: [&str; 3] = ["cpu_us", "max_cpu_us", "duration_ms"];

/// The column names of a game of `seats` seats, in order.
pub fn columns(seats: usize) -> Vec<String> {
    let mut names = column_names::<Head>();
    for name in column_names::<SeatCells>() {
        names.extend((0..seats).map(|s| format!("{name}{s}")));
    }
    names.extend(column_names::<Tail>());
    names
}

/// Whether `column` measures time ([`TIMING_COLUMNS`], with or without a seat number).
pub fn is_timing(column: &str) -> bool {
    TIMING_COLUMNS.contains(&column.trim_end_matches(|c: char| c.is_ascii_digit()))
}

/// The header line of a game of `seats` seats.
pub fn header(seats: usize) -> Vec<u8> {
    csv_line(columns(seats))
}

/// One row (with its `\n`). `first_player` is the seat that moved first.
pub fn row(row: &MatchRow, first_player: u8) -> Vec<u8> {
    let seats: Vec<Vec<String>> = (0..row.seats())
        .map(|s| {
            fields_of(&SeatCells {
                champion: row.champions[s].clone(),
                score: row.scores[s],
                points: row.points[s],
                fault: row.faults[s].map(FaultKind::name).unwrap_or("").into(),
                calls: row.calls[s],
                cpu_us: row.cpu_us[s],
                max_cpu_us: row.max_cpu_us[s],
            })
        })
        .collect();
    let mut fields = fields_of(&Head {
        id: row.id,
        seed: row.seed,
        first_player,
    });
    for f in 0..column_names::<SeatCells>().len() {
        fields.extend(seats.iter().map(|cells| cells[f].clone()));
    }
    fields.extend(fields_of(&Tail {
        duration_ms: row.duration_ms,
        digest: row.digest.clone(),
        reproduce: row.reproduce.clone(),
        schema: super::RESULTS_SCHEMA,
    }));
    csv_line(fields)
}

/// A parsed row and its `first_player`.
pub type ParsedRow = (MatchRow, u8);

/// Parse one line (without or with its `\n`) of a game of `seats` seats, or say what is
/// wrong with it.
pub fn parse_line(line: &[u8], seats: usize) -> Result<ParsedRow, String> {
    let columns = columns(seats);
    let record = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line)
        .into_records()
        .next()
        .ok_or("empty line")?
        .map_err(|e| e.to_string())?;
    if record.len() != columns.len() {
        return Err(format!(
            "{} fields, expected {} (a game of {seats} seats)",
            record.len(),
            columns.len()
        ));
    }
    let (head_len, seat_len) = (
        column_names::<Head>().len(),
        column_names::<SeatCells>().len(),
    );
    let tail_start = head_len + seat_len * seats;
    // The fields and the column names of the indices `at`, in order.
    let part = |at: &mut dyn Iterator<Item = usize>| -> (csv::StringRecord, Vec<String>) {
        at.map(|i| (&record[i], columns[i].clone())).unzip()
    };
    let (fields, names) = part(&mut (0..head_len));
    let head: Head = parse_fields(&fields, &names)?;
    let (fields, names) = part(&mut (tail_start..record.len()));
    let tail: Tail = parse_fields(&fields, &names)?;
    if tail.schema != super::RESULTS_SCHEMA {
        return Err(format!(
            "results schema {}; this referee reads schema {}",
            tail.schema,
            super::RESULTS_SCHEMA
        ));
    }
    let mut row = MatchRow {
        id: head.id,
        seed: head.seed,
        champions: Vec::new(),
        scores: Vec::new(),
        points: Vec::new(),
        faults: Vec::new(),
        calls: Vec::new(),
        cpu_us: Vec::new(),
        max_cpu_us: Vec::new(),
        duration_ms: tail.duration_ms,
        digest: tail.digest,
        reproduce: tail.reproduce,
    };
    for s in 0..seats {
        let (fields, names) = part(&mut (0..seat_len).map(|f| head_len + f * seats + s));
        let cells: SeatCells = parse_fields(&fields, &names)?;
        let fault = match cells.fault.as_str() {
            "" => None,
            text => Some(
                FaultKind::ALL
                    .into_iter()
                    .find(|kind| kind.name() == text)
                    .ok_or_else(|| format!("column fault{s}: unknown fault `{text}`"))?,
            ),
        };
        row.champions.push(cells.champion);
        row.scores.push(cells.score);
        row.points.push(cells.points);
        row.faults.push(fault);
        row.calls.push(cells.calls);
        row.cpu_us.push(cells.cpu_us);
        row.max_cpu_us.push(cells.max_cpu_us);
    }
    // The row must be as [`row()`] writes it: a number another way (`02`, `+2`), a needless
    // quote or space would be read as the referee's own and copied as it is by a merge.
    let written = self::row(&row, head.first_player);
    if line.strip_suffix(b"\n").unwrap_or(line) != &written[..written.len() - 1] {
        return Err(
            "not written as the referee writes its rows (a number with a sign or \
             leading zeros, a needless quote or space)"
                .into(),
        );
    }
    Ok((row, head.first_player))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let row = MatchRow {
            id: 7,
            seed: u64::MAX,
            champions: vec!["a,b".into(), "c\"d".into(), "e".into()],
            scores: vec![-1, 2, 3],
            points: vec![0, 1, 3],
            faults: vec![Some(FaultKind::Timeout), None, Some(FaultKind::Spawn)],
            calls: vec![1, 2, 3],
            cpu_us: vec![4, 5, 6],
            max_cpu_us: vec![7, 8, 9],
            duration_ms: 10,
            digest: "00ff".into(),
            reproduce: "referee match 'a b' c --seed 1".into(),
        };
        let line = super::row(&row, 2);
        assert_eq!(line.last(), Some(&b'\n'));
        assert_eq!(parse_line(&line, 3).unwrap(), (row.clone(), 2));
        assert_eq!(
            parse_line(b"1,2,3", 3).unwrap_err(),
            "3 fields, expected 28 (a game of 3 seats)"
        );
        // A bad cell is named by its column.
        let text = String::from_utf8(line)
            .unwrap()
            .replace(",-1,2,3,", ",-1,x,3,");
        let err = parse_line(text.as_bytes(), 3).unwrap_err();
        assert!(
            err.starts_with("column score1: `x` is not valid there"),
            "{err}"
        );
        let text = String::from_utf8(super::row(&row, 2))
            .unwrap()
            .replace("timeout", "tired");
        let err = parse_line(text.as_bytes(), 3).unwrap_err();
        assert_eq!(err, "column fault0: unknown fault `tired`");
        // The same values written another way: refused, not read as the referee's row.
        let written = String::from_utf8(super::row(&row, 2)).unwrap();
        for (from, to) in [
            ("7,", "07,"),
            ("7,", "+7,"),
            ("7,", "\"7\","),
            (
                ",referee match 'a b' c --seed 1,",
                ",\"referee match 'a b' c --seed 1\",",
            ),
            ("\n", "\r\n"),
        ] {
            let text = written.replacen(from, to, 1);
            assert_ne!(text, written);
            let err = parse_line(text.as_bytes(), 3).unwrap_err();
            assert!(
                err.starts_with("not written as the referee writes"),
                "{text}: {err}"
            );
        }
        assert_eq!(
            parse_line(written.trim_end().as_bytes(), 3).unwrap(),
            (row, 2)
        );
    }

    /// The columns of docs/results.md, in order: the file's format does not change with
    /// the code that writes it.
    /// A two-seat game's row: each per-seat column twice, read back as written.
    #[test]
    fn two_seats_round_trip() {
        let row = MatchRow {
            id: 3,
            seed: 9,
            champions: vec!["w".into(), "b".into()],
            scores: vec![0, 1],
            points: vec![0, 1],
            faults: vec![Some(FaultKind::Protocol), None],
            calls: vec![20, 21],
            cpu_us: vec![4, 5],
            max_cpu_us: vec![7, 8],
            duration_ms: 10,
            digest: "ab".into(),
            reproduce: "referee --game amazons match w b --seed 9".into(),
        };
        assert_eq!(
            String::from_utf8(header(2)).unwrap(),
            "id,seed,first_player,champion0,champion1,score0,score1,points0,points1,fault0,\
             fault1,calls0,calls1,cpu_us0,cpu_us1,max_cpu_us0,max_cpu_us1,duration_ms,digest,\
             reproduce,schema\n"
        );
        let line = super::row(&row, 0);
        assert_eq!(
            String::from_utf8(line.clone()).unwrap(),
            "3,9,0,w,b,0,1,0,1,protocol,,20,21,4,5,7,8,10,ab,\
             referee --game amazons match w b --seed 9,3\n"
        );
        assert_eq!(parse_line(&line, 2).unwrap(), (row, 0));
        assert!(parse_line(&line, 3).is_err());
    }

    #[test]
    fn header_is_the_documented_one() {
        assert_eq!(
            String::from_utf8(header(3)).unwrap(),
            "id,seed,first_player,champion0,champion1,champion2,score0,score1,score2,\
             points0,points1,points2,fault0,fault1,fault2,calls0,calls1,calls2,cpu_us0,\
             cpu_us1,cpu_us2,max_cpu_us0,max_cpu_us1,max_cpu_us2,duration_ms,digest,\
             reproduce,schema\n"
        );
        let header = String::from_utf8(header(3)).unwrap();
        let timing: Vec<&str> = header
            .trim_end()
            .split(',')
            .filter(|c| is_timing(c))
            .collect();
        assert_eq!(
            timing,
            [
                "cpu_us0",
                "cpu_us1",
                "cpu_us2",
                "max_cpu_us0",
                "max_cpu_us1",
                "max_cpu_us2",
                "duration_ms"
            ]
        );
    }
}
