//! High card (`game::testing::HighCard`: 2 to 8 seats, a `deck` option) behind a small
//! protocol written for the tests: `carte` asks one's own card, `garder`/`passer` choose,
//! `fin` ends a callback; and as a game of the runner ([`GAME`]), which no registry holds.

use arena::{Adapter, GameRecord, Line};
use game::testing::{Choice, HighCard, HighCardState};
use game::Illegal;
use referee::games::model::{ModelGame, Pages, Parts};
use referee::standings::PointsTable;
use std::path::Path;

/// High card's protocol.
pub struct HighCardWire;

impl Adapter for HighCardWire {
    type Game = HighCard;
    fn game(&self) -> &HighCard {
        &HighCard
    }
    fn turn(&self, _: &HighCardState, _: usize) -> &'static str {
        "choisir"
    }
    fn read(
        &self,
        state: &HighCardState,
        seat: usize,
        _: &str,
        line: &str,
    ) -> Result<Line<Choice>, String> {
        match line {
            "carte" => Ok(Line::Answer(
                game::State::observe(state, seat)
                    .mine
                    .map_or("-1".into(), |c| c.to_string()),
            )),
            "garder" => Ok(Line::Act(Choice::Keep)),
            "passer" => Ok(Line::Act(Choice::Fold)),
            "fin" => Ok(Line::End),
            other => Err(format!("unknown request `{other}`")),
        }
    }
    fn answer(&self, answer: &Result<String, Illegal>) -> Option<String> {
        answer.as_ref().ok().cloned()
    }
}

/// Points of the places: the winner 1, the others 0.
const WIN: PointsTable = &[1];

impl Parts for HighCardWire {
    fn points(&self) -> PointsTable {
        WIN
    }
    fn show(&self, record: &GameRecord, step: usize) -> String {
        format!("{} actions of {}\n", step, record.actions().count())
    }
}

/// High card has no replay page.
fn no_page(_: &GameRecord, _: Option<&Path>) -> anyhow::Result<String> {
    anyhow::bail!("High card has no replay page")
}

/// High card as a game of the runner.
pub static GAME: ModelGame<HighCardWire> = ModelGame::new(
    &HighCardWire,
    Pages {
        page: no_page,
        live: None,
    },
    &referee::cli::words::REFEREE,
);

/// The champion of `fixtures/champions/high_card.sh`: keeps a card of 10 or more.
pub fn champion() -> String {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/champions/high_card.sh")
        .display()
        .to_string()
}
