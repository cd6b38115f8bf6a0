//! What the replay page's frame shows of an Amazons match ([`replay_view::frame::Frame`]): each
//! step's label (`Move 5/77 · White d1-d7/g7`), the isolation and the faults on the
//! timeline, each seat's mobility as the chart's series (the squares its amazons can
//! reach, from the `amazons` crate), the result and the footer.

use crate::page::PageData;
use amazons::{Board, Color};
use arena::GameRecord;
use replay_view::frame::{Frame, Mark, Seat, Series, Step};

const COLOUR: [&str; 2] = ["White", "Black"];

/// The frame of `record`'s page, whose data is `data` and boards `boards` (the start
/// first).
pub(crate) fn frame(record: &GameRecord, data: &PageData, boards: &[Board]) -> Frame {
    let last = data.moves.len();
    let seat_name = |s: u8| {
        format!(
            "{} ({})",
            record.seats[usize::from(s)].name,
            COLOUR[usize::from(s)]
        )
    };
    let iso = data.isolated_after;
    let steps = (0..=last)
        .map(|n| {
            let head = match n {
                0 => "Start".to_string(),
                n => format!(
                    "Move {n}/{last} · {} {}",
                    COLOUR[(n - 1) % 2],
                    data.moves[n - 1]
                ),
            };
            let isolated = iso.is_some_and(|i| n >= i);
            Step {
                label: head + if isolated { " · isolated" } else { "" },
                group: None,
            }
        })
        .collect();
    let mut marks: Vec<Mark> = iso
        .map(|n| Mark {
            step: n,
            kind: "note",
            text: format!(
                "The amazons were isolated from each other after move {n}: from then on each \
                 player only fills their own region."
            ),
        })
        .into_iter()
        .collect();
    marks.extend(data.faults.iter().map(|f| Mark {
        step: f.step,
        kind: "fault",
        text: format!(
            "step {}: fault of {} ({})",
            f.step,
            seat_name(f.seat),
            f.kind
        ),
    }));
    let mobility = [Color::White, Color::Black]
        .iter()
        .map(|&c| {
            boards
                .iter()
                .map(|b| b.amazons(c).map(|s| b.reach_count(s) as i64).sum())
                .collect()
        })
        .collect();
    Frame {
        game: "amazons",
        seats: Seat::all_of(record, &COLOUR),
        steps,
        first: 0,
        group_name: "",
        groups: Vec::new(),
        marks,
        series: vec![Series {
            title: "mobility: the squares each player's amazons can reach".into(),
            values: mobility,
        }],
        result: Some(result(data, last, &seat_name)),
        footer: vec![
            "Game of the Amazons".into(),
            format!("seed {}", record.seed),
            format!("{last} moves"),
            replay_view::sandbox_words::words(&record.sandbox),
        ],
        footer_spoiler: Vec::new(),
        footer_after: Vec::new(),
    }
}

/// The result, in words.
fn result(data: &PageData, last: usize, seat_name: &impl Fn(u8) -> String) -> String {
    let Some(w) = data.winner else {
        return "No winner: both champions faulted".into();
    };
    let l = 1 - w;
    let loser = COLOUR[usize::from(l)];
    let why = match data.faults.iter().find(|f| f.seat == l) {
        _ if data.stuck && last % 2 == usize::from(l) => format!("{loser} cannot move"),
        Some(f) => format!("{loser} faulted ({})", f.kind),
        None => format!("{loser} lost"),
    };
    let plural = if last == 1 { "" } else { "s" };
    format!("{} wins after {last} move{plural}: {why}", seat_name(w))
}
