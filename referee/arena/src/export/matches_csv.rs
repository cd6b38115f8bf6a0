//! `matches.csv`: one row per match (docs/results.md), for games of any number of seats.
//! Rows are written one at a time so the file can be appended and flushed match by match,
//! and read back for resume and merge. A row is a `Head`, then each field of `SeatCells`
//! once per seat (`champion0, champion1, champion2, place0, ...`), then a `Tail`: serde
//! names the columns, the seat number is appended. Rows of results schema 3 (no `place`
//! columns) are read too, their places derived from their scores, and
//! [`migrate_line`] writes them again in today's schema.

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
    /// The seat's place in the game's ranking; schema 3 has none, its rows read 0 here
    /// and take the places derived from their scores.
    #[serde(default)]
    place: u8,
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

/// The results schema before rows had places: its rows have no `place` columns, and their
/// scores were written in the order of the ranking (a seat placed below another with more
/// points had its score lowered to one below the worst score placed before it).
pub const SCHEMA_3: u32 = 3;

/// The per-seat column names (without their seat number) of results schema `schema`.
fn seat_columns(schema: u32) -> Vec<String> {
    let mut names = column_names::<SeatCells>();
    if schema == SCHEMA_3 {
        names.retain(|n| n != "place");
    }
    names
}

/// The column names of a game of `seats` seats, in order.
pub fn columns(seats: usize) -> Vec<String> {
    columns_of(seats, super::RESULTS_SCHEMA)
}

/// The column names of a game of `seats` seats in results schema `schema`, in order.
fn columns_of(seats: usize, schema: u32) -> Vec<String> {
    let mut names = column_names::<Head>();
    for name in seat_columns(schema) {
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

/// The results schema whose header for a game of `seats` seats is `line` (today's or
/// schema 3), if any.
pub fn header_schema(line: &[u8], seats: usize) -> Option<u32> {
    [super::RESULTS_SCHEMA, SCHEMA_3]
        .into_iter()
        .find(|&schema| line == csv_line(columns_of(seats, schema)))
}

/// One row (with its `\n`). `first_player` is the seat that moved first.
pub fn row(row: &MatchRow, first_player: u8) -> Vec<u8> {
    row_of(row, first_player, super::RESULTS_SCHEMA)
}

/// One row in results schema `schema` (schema 3 only to check that a row read is as the
/// referee of then wrote it).
fn row_of(row: &MatchRow, first_player: u8, schema: u32) -> Vec<u8> {
    let place = seat_columns(super::RESULTS_SCHEMA)
        .iter()
        .position(|n| n == "place")
        .expect("a place column");
    let seats: Vec<Vec<String>> = (0..row.seats())
        .map(|s| {
            let mut cells = fields_of(&SeatCells {
                champion: row.champions[s].clone(),
                place: row.places[s],
                score: row.scores[s],
                points: row.points[s],
                fault: row.faults[s].map(FaultKind::name).unwrap_or("").into(),
                calls: row.calls[s],
                cpu_us: row.cpu_us[s],
                max_cpu_us: row.max_cpu_us[s],
            });
            if schema == SCHEMA_3 {
                cells.remove(place);
            }
            cells
        })
        .collect();
    let mut fields = fields_of(&Head {
        id: row.id,
        seed: row.seed,
        first_player,
    });
    for f in 0..seat_columns(schema).len() {
        fields.extend(seats.iter().map(|cells| cells[f].clone()));
    }
    fields.extend(fields_of(&Tail {
        duration_ms: row.duration_ms,
        digest: row.digest.clone(),
        reproduce: row.reproduce.clone(),
        schema,
    }));
    csv_line(fields)
}

/// A parsed row and its `first_player`.
pub type ParsedRow = (MatchRow, u8);

/// Parse one line (without or with its `\n`) of a game of `seats` seats, or say what is
/// wrong with it. A row of results schema 3 is read too, its places derived from its
/// scores.
pub fn parse_line(line: &[u8], seats: usize) -> Result<ParsedRow, String> {
    let record = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line)
        .into_records()
        .next()
        .ok_or("empty line")?
        .map_err(|e| e.to_string())?;
    let old = columns_of(seats, SCHEMA_3);
    let schema = match record.len() == old.len() && record.get(old.len() - 1) == Some("3") {
        true => SCHEMA_3,
        false => super::RESULTS_SCHEMA,
    };
    let columns = columns_of(seats, schema);
    if record.len() != columns.len() {
        return Err(format!(
            "{} fields, expected {} (a game of {seats} seats)",
            record.len(),
            columns.len()
        ));
    }
    let seat_keys = seat_columns(schema);
    let (head_len, seat_len) = (column_names::<Head>().len(), seat_keys.len());
    let tail_start = head_len + seat_len * seats;
    // The fields and the column names of the indices `at`, in order.
    let part = |at: &mut dyn Iterator<Item = usize>| -> (csv::StringRecord, Vec<String>) {
        at.map(|i| (&record[i], columns[i].clone())).unzip()
    };
    let (fields, names) = part(&mut (0..head_len));
    let head: Head = parse_fields(&fields, &names, &names)?;
    let (fields, names) = part(&mut (tail_start..record.len()));
    let tail: Tail = parse_fields(&fields, &names, &names)?;
    if tail.schema != schema {
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
        places: Vec::new(),
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
        let cells: SeatCells = parse_fields(&fields, &seat_keys, &names)?;
        if !(1..=seats).contains(&usize::from(cells.place)) && schema != SCHEMA_3 {
            return Err(format!(
                "column place{s}: {} is not a place of a game of {seats} seats",
                cells.place
            ));
        }
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
        row.places.push(cells.place);
        row.scores.push(cells.score);
        row.points.push(cells.points);
        row.faults.push(fault);
        row.calls.push(cells.calls);
        row.cpu_us.push(cells.cpu_us);
        row.max_cpu_us.push(cells.max_cpu_us);
    }
    if schema == SCHEMA_3 {
        row.places = crate::standings::places_of(&row.scores);
    }
    // The row must be as [`row()`] writes it: a number another way (`02`, `+2`), a needless
    // quote or space would be read as the referee's own and copied as it is by a merge.
    let written = row_of(&row, head.first_player, schema);
    if line.strip_suffix(b"\n").unwrap_or(line) != &written[..written.len() - 1] {
        return Err(
            "not written as the referee writes its rows (a number with a sign or \
             leading zeros, a needless quote or space)"
                .into(),
        );
    }
    Ok((row, head.first_player))
}

/// The results schema a row says it is of (its last field), if it says one.
pub fn schema_of(line: &[u8]) -> Option<u32> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let at = line.iter().rposition(|&b| b == b',')?;
    std::str::from_utf8(&line[at + 1..]).ok()?.parse().ok()
}

/// Whether two rows of a game of `seats` seats are the same row, each read in its results
/// schema (a match's seal of schema 3 and its row migrated to today's).
pub fn same_row(a: &[u8], b: &[u8], seats: usize) -> bool {
    a == b || matches!((migrate_line(a, seats), migrate_line(b, seats)), (Ok(a), Ok(b)) if a == b)
}

/// `line`, a row of a game of `seats` seats, in today's results schema: a row of schema 3
/// gains its places (derived from its scores) and keeps all else; a row of today's is
/// returned as it is.
pub fn migrate_line(line: &[u8], seats: usize) -> Result<Vec<u8>, String> {
    let (row, first_player) = parse_line(line, seats)?;
    Ok(self::row(&row, first_player))
}

/// The scores that results schema 3 wrote for a ranking of `places` and `scores`: in the
/// order of the places (where they disagree, a seat's score lowered to one below the worst
/// score placed before it; seats that share a place share the lowest of their scores).
/// What a row of schema 3 says for a record that says `places` and `scores`.
pub fn schema3_scores(places: &[u8], scores: &[i32]) -> Vec<i32> {
    let n = scores.len().min(places.len());
    let mut seats: Vec<usize> = (0..n).collect();
    seats.sort_by_key(|&s| places[s]);
    let mut out = scores.to_vec();
    let mut ceiling: Option<i32> = None;
    for same in seats.chunk_by(|&a, &b| places[a] == places[b]) {
        let mut score = same.iter().map(|&s| scores[s]).min().unwrap_or(0);
        if let Some(c) = ceiling {
            score = score.min(c.saturating_sub(1));
        }
        for &s in same {
            out[s] = score;
        }
        ceiling = Some(score);
    }
    out
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
            places: vec![3, 2, 1],
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
            "3 fields, expected 31 (a game of 3 seats)"
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
            places: vec![2, 1],
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
            "id,seed,first_player,champion0,champion1,place0,place1,score0,score1,points0,\
             points1,fault0,fault1,calls0,calls1,cpu_us0,cpu_us1,max_cpu_us0,max_cpu_us1,duration_ms,digest,\
             reproduce,schema\n"
        );
        let line = super::row(&row, 0);
        assert_eq!(
            String::from_utf8(line.clone()).unwrap(),
            "3,9,0,w,b,2,1,0,1,0,1,protocol,,20,21,4,5,7,8,10,ab,\
             referee --game amazons match w b --seed 9,4\n"
        );
        assert_eq!(parse_line(&line, 2).unwrap(), (row, 0));
        assert!(parse_line(&line, 3).is_err());
    }

    /// A row of results schema 3 (a run of before): read with its places derived from its
    /// scores, written again in today's schema with all else kept; a place out of the
    /// seats' range in today's schema is refused.
    #[test]
    fn a_row_of_schema_3_is_read_and_migrated() {
        let old = "0,3227087749555143090,0,random,greedy,passive.sh,51,72,10,1,3,0,,,,36,37,34,\
                   29940,34554,1493,1853,2464,96,1251,d733b9363f3fbc7a,referee match random \
                   greedy passive.sh --seed 3227087749555143090,3\n";
        let old_header = "id,seed,first_player,champion0,champion1,champion2,score0,score1,\
                          score2,points0,points1,points2,fault0,fault1,fault2,calls0,calls1,\
                          calls2,cpu_us0,cpu_us1,cpu_us2,max_cpu_us0,max_cpu_us1,max_cpu_us2,\
                          duration_ms,digest,reproduce,schema\n";
        assert_eq!(header_schema(old_header.as_bytes(), 3), Some(SCHEMA_3));
        assert_eq!(
            header_schema(&header(3), 3),
            Some(super::super::RESULTS_SCHEMA)
        );
        assert_eq!(header_schema(&header(3), 4), None);
        let (row, first) = parse_line(old.as_bytes(), 3).unwrap();
        assert_eq!((row.places.as_slice(), first), ([2, 1, 3].as_slice(), 0));
        assert_eq!(row.scores, [51, 72, 10]);
        let new = String::from_utf8(migrate_line(old.as_bytes(), 3).unwrap()).unwrap();
        assert!(
            new.starts_with("0,3227087749555143090,0,random,greedy,passive.sh,2,1,3,51,72,10,"),
            "{new}"
        );
        assert!(new.ends_with(",4\n"), "{new}");
        assert_eq!(parse_line(new.as_bytes(), 3).unwrap(), (row, 0));
        assert_eq!(migrate_line(new.as_bytes(), 3).unwrap(), new.as_bytes());
        // Schema 3 written another way is refused as today's would be.
        let err = parse_line(old.replace(",51,", ",051,").as_bytes(), 3).unwrap_err();
        assert!(
            err.starts_with("not written as the referee writes"),
            "{err}"
        );
        let err = parse_line(new.replacen(",2,1,3,", ",2,1,4,", 1).as_bytes(), 3).unwrap_err();
        assert_eq!(err, "column place2: 4 is not a place of a game of 3 seats");
    }

    /// Schema 3's scores followed the places: agreeing scores kept, ties too; a seat placed
    /// below another with more points lowered below it; a shared place its lowest score.
    #[test]
    fn schema_3_wrote_its_scores_in_the_order_of_the_places() {
        assert_eq!(schema3_scores(&[1, 2], &[50, 40]), [50, 40]);
        assert_eq!(schema3_scores(&[1, 1, 3], &[7, 7, 2]), [7, 7, 2]);
        assert_eq!(schema3_scores(&[2, 1], &[50, 40]), [39, 40]);
        assert_eq!(schema3_scores(&[1, 2, 3], &[60, 60, 60]), [60, 59, 58]);
        assert_eq!(schema3_scores(&[1, 1, 3], &[9, 7, 8]), [7, 7, 6]);
    }

    #[test]
    fn header_is_the_documented_one() {
        assert_eq!(
            String::from_utf8(header(3)).unwrap(),
            "id,seed,first_player,champion0,champion1,champion2,place0,place1,place2,\
             score0,score1,score2,points0,points1,points2,fault0,fault1,fault2,calls0,calls1,calls2,cpu_us0,\
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
