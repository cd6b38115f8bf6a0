//! What the replay page's frame shows of a 2009 match ([`super::frame::Frame`]), from its
//! timeline: each step's label (`Turn 3 · phase II · jouer of greedy (B, seat 1)`), the
//! turns as the steps' groups, the faults on the timeline, the final scores as the chart's
//! series, the footer.

use super::frame::{Frame, Group, Mark, Seat, Series, Step};
use super::timeline::{roman, Step as TimelineStep, StepKind, Timeline};
use engine::turn::Callback;

/// Each seat's letter on the board and the cards.
const LETTER: [&str; 3] = ["A", "B", "C"];
/// The group of the steps outside turns: the start, and the end.
const START: u32 = 0;
const END: u32 = 99;

/// The frame of `timeline`'s page.
pub fn frame(timeline: &Timeline) -> Frame {
    let who = |seat: u8| {
        let s = usize::from(seat);
        format!("{} ({}, seat {seat})", timeline.seats[s].name, LETTER[s])
    };
    let labels: Vec<String> = timeline.steps.iter().map(|st| label(st, &who)).collect();
    let group = |st: &TimelineStep| match (st.phase, st.callback) {
        (0, Callback::InitGame) => START,
        (0, _) => END,
        _ => u32::from(st.turn),
    };
    let groups = timeline
        .steps
        .iter()
        .enumerate()
        .filter(|(i, st)| {
            st.phase != 0 && (*i == 0 || group(&timeline.steps[i - 1]) != u32::from(st.turn))
        })
        .map(|(step, st)| Group {
            label: st.turn.to_string(),
            step,
        })
        .collect();
    let marks = timeline
        .steps
        .iter()
        .enumerate()
        .filter(|(_, st)| !st.faults.is_empty())
        .map(|(step, st)| Mark {
            step,
            kind: "fault",
            text: std::iter::once(labels[step].clone())
                .chain(
                    st.faults
                        .iter()
                        .map(|f| format!("{} {}: {}", who(f.seat), f.kind, f.message)),
                )
                .collect::<Vec<_>>()
                .join("\n"),
        })
        .collect();
    let finals = (0..timeline.seats.len())
        .map(|s| {
            timeline
                .steps
                .iter()
                .map(|st| i64::from(st.final_score[s]))
                .collect()
        })
        .collect();
    let requests = format!(
        "{} requests{}",
        timeline.requests,
        if timeline.log_read {
            " (full log read)"
        } else {
            ""
        }
    );
    let order: Vec<String> = timeline.monument_order.iter().map(u8::to_string).collect();
    Frame {
        game: "loi",
        seats: timeline
            .seats
            .iter()
            .map(|s| Seat {
                name: s.name.clone(),
                path: s.path.clone(),
                mark: LETTER[usize::from(s.seat)].to_string(),
                stopped_at: s.stopped_at,
            })
            .collect(),
        steps: timeline
            .steps
            .iter()
            .zip(labels)
            .map(|(st, label)| Step {
                label,
                group: Some(group(st)),
            })
            .collect(),
        first: 1,
        group_name: "turn",
        groups,
        marks,
        series: vec![Series {
            title: "final scores over the turns".into(),
            values: finals,
        }],
        result: None,
        // No seed while the game is played (the live site's timeline has none).
        footer: [
            (!timeline.seed.is_empty()).then(|| format!("Seed {}", timeline.seed)),
            Some(format!("{} steps", timeline.steps.len())),
            Some(requests),
            Some(format!("first player: seat {}", timeline.first_player)),
        ]
        .into_iter()
        .flatten()
        .collect(),
        // None before the first monument is drawn (a game still being played).
        footer_spoiler: (!order.is_empty())
            .then(|| format!("monument order {}", order.join(",")))
            .into_iter()
            .collect(),
        footer_after: timeline.log_note.iter().cloned().collect(),
    }
}

/// A step's label: when it is, and what happened.
fn label(st: &TimelineStep, who: &impl Fn(u8) -> String) -> String {
    let when = match (st.phase, st.callback) {
        (0, Callback::InitGame) => "Start".to_string(),
        (0, _) => "End".to_string(),
        (p, _) => format!("Turn {} · phase {}", st.turn, roman(p)),
    };
    match (st.kind, st.seat) {
        (StepKind::Callback, Some(seat)) => format!("{when} · {} of {}", st.callback, who(seat)),
        _ if st.phase == 0 => format!("{when} · after {}", st.callback),
        _ => {
            let what = [
                "",
                "end of the builds",
                "auction resolved",
                "placement done",
            ];
            format!("{when} · {}", what[usize::from(st.phase.min(3))])
        }
    }
}
