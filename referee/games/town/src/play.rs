//! Little Town's parts for the runner ([`Parts`]): four places' points (7/3/1/0), four
//! seats by default, the built-in players, a person's seat, the state after any action as
//! text (`show`, and the person's board); the states of a match, replayed from its record;
//! its records of version 1 ([`crate::v1`]). The referee registers it with its replay
//! page.

use crate::wire::TownWire;
use arena::model::Parts;
use arena::standings::{PointsTable, PLACES_4};
use arena::GameRecord;
use game::{Game as _, State as _, Step};
use std::path::Path;
use town::{extension, Cell, Kind, Resource, Town, TownState, TownView, Why, COLOURS};

/// The match of `record` (a checked one) before each action it took (after chance drew
/// what came before it), then at its end: `states[n]` is the match after `n` actions.
pub fn states(record: &GameRecord) -> Vec<TownState> {
    let mut state = Town
        .start(record.seats.len(), &record.options)
        .expect("a checked record's options start a match");
    let mut states = Vec::new();
    for step in record.history() {
        match step {
            Step::Chance(drawn) => state
                .chance(drawn)
                .expect("a checked record's draws are the rules'"),
            Step::Act {
                seat,
                action,
                answer: Ok(_),
            } => {
                states.push(state.clone());
                let action: town::Action =
                    action.parse().expect("a checked record's actions parse");
                state
                    .act(*seat, &action)
                    .expect("a checked record's actions are legal");
            }
            Step::Act { .. } => {}
            Step::Retire(seat) => state.retire(*seat),
        }
    }
    states.push(state);
    states
}

/// `state` as text: the board (a position as two characters: `..` free, `  ` not a
/// position, `C.` `F.` `W.` `S.` a mine of corn, fish, wood or stone, `f0` `s1` `p2` `q3`
/// a farm, sawmill, pontoon or quarry and its owner's seat, `c` `k` `w` `m` a cathedral,
/// castle, watchtower or market; a worker's seat after it), then the round and each seat's
/// holdings.
pub fn text(state: &TownState, names: &[String]) -> String {
    view_text(&state.observe(0), state.is_over(), names)
}

/// A seat's view as [`text`] draws a state (nothing is hidden in Little Town: any seat's
/// view is the whole match); `over` once the match is over.
pub fn view_text(view: &TownView, over: bool, names: &[String]) -> String {
    let mut out = String::new();
    let width = usize::from(view.width);
    for y in 0..usize::from(view.height) {
        let mut row = Vec::new();
        for x in 0..width {
            let cell = match view.cells.get(y * width + x) {
                Some(Cell::Free) => "..".to_string(),
                Some(Cell::Mine(r)) => format!("{}.", r.name()[..1].to_uppercase()),
                Some(Cell::Building { kind, owner }) => format!("{}{owner}", kind.letter()),
                _ => "  ".to_string(),
            };
            let worker = view
                .workers
                .get(y * width + x)
                .copied()
                .flatten()
                .map_or(" ".to_string(), |w| w.to_string());
            row.push(format!("{cell}{worker}"));
        }
        out.push_str(row.join(" ").trim_end());
        out.push('\n');
    }
    out.push_str(&match (over, view.round) {
        (true, _) => "the match is over\n".to_string(),
        (false, 0) => "setup\n".to_string(),
        (false, r) => format!("round {r} of {}\n", view.rounds),
    });
    for (seat, p) in view.players.iter().enumerate() {
        let out_why = match p.out {
            None => String::new(),
            Some((_, Why::Eliminated)) => ", eliminated".into(),
            Some((_, Why::Excluded)) => ", excluded".into(),
        };
        let stock: Vec<String> = Resource::ALL
            .iter()
            .map(|r| format!("{} {}", r.name(), p.stock.get(*r)))
            .collect();
        // A person's own board names no champion.
        let name = match names.get(seat) {
            Some(name) => format!(" ({})", jail::untrusted::printable(name)),
            None => String::new(),
        };
        out.push_str(&format!(
            "seat {seat} {}{name}: {}; workers left {}, buildings {}{out_why}\n",
            COLOURS.get(seat).copied().unwrap_or("?"),
            stock.join(", "),
            p.free_workers,
            p.buildings
        ));
    }
    out
}

/// The gold the powers paid each seat (rule 22) at the round's end reached between `before`
/// and `state` (the states before and after a move), and that round; `None` if no round
/// ended there with the powers in play.
pub fn powers_paid(before: Option<&TownState>, state: &TownState) -> Option<(usize, Vec<u32>)> {
    let ended = state.powers_paid().len();
    (ended > before.map_or(0, |b| b.powers_paid().len()))
        .then(|| (ended, state.powers_paid()[ended - 1].clone()))
}

/// How many recent moves `show` lists.
const RECENT: usize = 8;

/// The buildings left to build; with the powers, the gold they would pay if the round ended
/// now; with the objectives, those each seat still in meets now (rules 21 and 22).
fn extension_text(state: &TownState) -> String {
    let rules = state.rules();
    let left: Vec<String> = Kind::in_play(rules.powers)
        .iter()
        .map(|&k| format!("{} {}", k.name(), state.left(k)))
        .collect();
    let mut out = format!("buildings left: {}\n", left.join(", "));
    if rules.powers {
        let gold: Vec<String> = extension::powers(state)
            .iter()
            .enumerate()
            .map(|(seat, g)| format!("seat {seat} +{g}"))
            .collect();
        out += &format!("powers if the round ended now: {}\n", gold.join(", "));
    }
    if rules.objectives {
        for (seat, p) in state.players().iter().enumerate() {
            if p.out.is_some() {
                continue;
            }
            let met: Vec<String> = extension::objectives_met(state, seat)
                .iter()
                .map(|o| format!("{} (+{})", o.text(), o.gold()))
                .collect();
            out += &format!(
                "seat {seat} objectives met: {}\n",
                if met.is_empty() {
                    "none".to_string()
                } else {
                    met.join(", ")
                }
            );
        }
    }
    out
}

impl Parts for TownWire {
    fn kits(&self) -> Option<arena::model::KitFolder> {
        Some(arena::model::KitFolder {
            folder: "champions/little-town",
            prefix: "little-town-",
        })
    }
    fn points(&self) -> PointsTable {
        PLACES_4
    }

    fn default_seats(&self) -> usize {
        town::DEFAULT_SEATS
    }

    fn builtins(&self) -> &'static [&'static str] {
        &town::bots::NAMES
    }

    fn human(&self) -> Option<Box<dyn arena::human::Driver>> {
        Some(Box::new(crate::human::TownSeat::new()))
    }

    fn short_title(&self) -> &'static str {
        "Little Town"
    }

    fn marks(&self) -> &'static [&'static str] {
        &COLOURS
    }

    fn describe(&self, record: &GameRecord) -> Vec<String> {
        let last = states(record).pop().expect("the setup at least");
        let mut lines = vec![format!(
            "board spread {}; scores (each seat's gold, 0 for a seat out): {}",
            last.spread(),
            arena::model::scores_in_words(&COLOURS, &record.ranking.scores)
        )];
        for (seat, p) in last.players().iter().enumerate() {
            if let Some((_, why)) = p.out {
                let why = match why {
                    Why::Eliminated => "eliminated (could not pay its workers' upkeep)",
                    Why::Excluded => "excluded (a fault)",
                };
                lines.push(format!(
                    "{} ({}) {why}",
                    jail::untrusted::printable(&record.seats[seat].name),
                    COLOURS[seat]
                ));
            }
        }
        lines
    }

    /// The match after `step` actions, the buildings left, what the fourth extension
    /// would pay now when it is on, then the moves that led there.
    fn show(&self, record: &GameRecord, step: usize) -> String {
        let states = states(record);
        let names: Vec<String> = record.seats.iter().map(|s| s.name.clone()).collect();
        let at = step.min(states.len() - 1);
        let state = &states[at];
        let mut out = text(state, &names);
        if let Some((round, paid)) = powers_paid(at.checked_sub(1).map(|b| &states[b]), state) {
            let gold: Vec<String> = paid
                .iter()
                .enumerate()
                .map(|(seat, g)| format!("seat {seat} +{g}"))
                .collect();
            out += &format!(
                "powers paid at round {round}'s end: {}
",
                gold.join(", ")
            );
        }
        out += &extension_text(state);
        let moves = arena::model::recent_moves(record, step, RECENT);
        if !moves.is_empty() {
            out += "recent moves:\n";
        }
        for (seat, action) in moves {
            let colour = COLOURS.get(seat).copied().unwrap_or("?");
            out += &format!("  seat {seat} {colour}: {action}\n");
        }
        out
    }

    fn bot(&self, name: &str) -> anyhow::Result<()> {
        crate::bot::serve(name)
    }

    /// A record of version 1 (a seat out scored below 0): checked as then, made again.
    fn legacy(
        &self,
        schema: Option<u64>,
        text: &str,
        path: &Path,
    ) -> Option<Result<GameRecord, String>> {
        crate::v1::legacy(schema, text, path)
    }

    /// A record of version 1 made again, with version 1's scores.
    fn as_played(&self, record: &GameRecord) -> GameRecord {
        crate::v1::as_then(record)
    }
}
