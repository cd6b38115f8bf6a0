//! The Game of the Amazons' parts for the runner ([`Parts`]): a win earns 1 point, the
//! built-in players, a person's seat, what its rows must say, `match`'s and `show`'s words,
//! its records of before. The referee registers it with its replay page.

use crate::human::AmazonsSeat;
use crate::wire::{boards, AmazonsWire};
use arena::human::Driver;
use arena::model::Parts;
use arena::standings::{MatchRow, PointsTable, WIN_LOSS};
use arena::GameRecord;
use std::path::Path;

impl Parts for AmazonsWire {
    fn kits(&self) -> Option<arena::model::KitFolder> {
        Some(arena::model::KitFolder {
            folder: "champions/amazons",
            prefix: "amazons-",
        })
    }
    fn points(&self) -> PointsTable {
        WIN_LOSS
    }

    fn builtins(&self) -> &'static [&'static str] {
        &amazons::bots::NAMES
    }

    fn human(&self) -> Option<Box<dyn Driver>> {
        Some(Box::new(AmazonsSeat::new()))
    }

    /// A winner scores 1 and the loser 0; no winner only when both seats faulted; White
    /// (seat 0) moves first.
    fn check_row(&self, row: &MatchRow, first_player: u8) -> Result<(), String> {
        if first_player != 0 {
            return Err(format!(
                "first_player is {first_player}, but seat 0 (White) moves first"
            ));
        }
        match row.scores.as_slice() {
            [1, 0] | [0, 1] => Ok(()),
            [0, 0] if row.faults.iter().all(Option::is_some) => Ok(()),
            scores => Err(format!(
                "scores {scores:?}: an Amazons match scores 1 for the winner and 0 for the \
                 loser (0 for both only when both faulted)"
            )),
        }
    }

    fn short_title(&self) -> &'static str {
        "Amazons"
    }

    fn marks(&self) -> &'static [&'static str] {
        &["White", "Black"]
    }

    fn no_winner(&self) -> &'static str {
        "both champions faulted"
    }

    fn first_mover(&self) -> &'static str {
        " (seat 0 plays White and moves first)"
    }

    fn describe(&self, record: &GameRecord) -> Vec<String> {
        boards(record)
            .iter()
            .position(amazons::Board::isolated)
            .map(|after| format!("the amazons were isolated from each other after move {after}"))
            .into_iter()
            .collect()
    }

    /// The moment the colours were isolated (before or after `step`), then the board.
    fn show(&self, record: &GameRecord, step: usize) -> String {
        let boards = boards(record);
        let isolated = match boards.iter().position(amazons::Board::isolated) {
            Some(after) if after <= step => format!(
                "isolated: since move {after} no amazon can reach one of the other colour; \
                 each player only fills their own region\n"
            ),
            Some(after) => format!("isolated: not yet (it happens after move {after})\n"),
            None => String::new(),
        };
        format!("{isolated}{}", boards[step])
    }

    fn bot(&self, name: &str) -> anyhow::Result<()> {
        crate::bot::serve(name)
    }

    /// Schema 1, the Amazons' own record of before: checked as then, made again.
    fn legacy(
        &self,
        schema: Option<u64>,
        text: &str,
        _: &Path,
    ) -> Option<Result<GameRecord, String>> {
        if schema != Some(1) {
            return None;
        }
        Some(
            serde_json::from_str::<crate::v1::AmazonsRecord>(text)
                .map_err(|e| format!("not an Amazons record of schema 1 ({e})"))
                .and_then(|old| crate::v1::to_game_record(&old)),
        )
    }
}
