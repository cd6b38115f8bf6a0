//! protocol.md on the game model: the 2009 game's callbacks are its rules' turns (every
//! seat for `init_game`, `enchere` and `end_game`, one for `jouer` and `placement`); a
//! champion's line is read as today (`protocol::Request`): a question answered from the
//! seat's look at the state (`etat` the whole state), an action function an action for the
//! rules answered with its code (`0`, or the API's error code: a refusal is no fault), and
//! `fin` the action that ends the seat's callback.

use crate::protocol::Request;
use arena::{Adapter, Line};
use engine::model::{Action, Loi, LoiState};
use engine::{Callback, Function};
use game::Illegal;

/// The 2009 game's protocol (protocol.md).
pub struct LoiWire;

impl Adapter for LoiWire {
    type Game = Loi;

    fn game(&self) -> &Loi {
        &Loi
    }

    fn opening(&self) -> &'static [&'static str] {
        &[]
    }

    fn closing(&self) -> &'static [&'static str] {
        &[]
    }

    fn turn(&self, state: &LoiState, _: usize) -> &'static str {
        state.callback().map_or("end_game", Callback::name)
    }

    fn read(
        &self,
        state: &LoiState,
        seat: usize,
        callback: &str,
        line: &str,
    ) -> Result<Line<Action>, String> {
        let callback = Callback::from_name(callback).unwrap_or(Callback::EndGame);
        let look = || {
            state
                .look(seat)
                .ok_or_else(|| "a question before the setup is drawn".to_string())
        };
        Ok(match Request::parse(line, callback)? {
            Request::Fin => Line::Act(Action::Fin),
            Request::Etat => Line::Answer(loi_protocol::etat::encode(&mut look()?)),
            Request::Call(call) if call.function.is_action() => Line::Act(Action::Call(call)),
            Request::Call(call) => Line::Answer(call.apply(&mut look()?).to_string()),
        })
    }

    /// `fin` ends the seat's callback.
    fn is_last(&self, action: &Action) -> bool {
        *action == Action::Fin
    }

    /// The code: `0`, or the API's error code the rules refused it with (`-9`).
    fn answer(&self, answer: &Result<String, Illegal>) -> Option<String> {
        Some(match answer {
            Ok(code) => code.clone(),
            Err(Illegal(code)) => code.clone(),
        })
    }

    /// An action function of the API (`construire_maison`, not `fin` nor a question),
    /// refused with a code its rules can give it (`Function::refusals`: `encherir` is
    /// never off the map). Which calls the counted refusals were is not checked: the record
    /// keeps only their number.
    fn refusal_known(&self, key: &str) -> bool {
        let Some((function, code)) = key.split_once(' ') else {
            return false;
        };
        let (Some(function), Ok(code)) = (Function::from_name(function), code.parse::<i32>())
        else {
            return false;
        };
        function.refusals().iter().any(|e| e.code() == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::{Acting, Game as _, State as _};

    /// protocol.md's examples of how a line is read (section 1), each fed to the adapter
    /// once the setup is drawn: read as the canonical line the page gives, or a fault whose
    /// message holds the page's words.
    #[test]
    fn the_protocol_page_s_example_lines_are_read_as_it_says() {
        let mut state = Loi
            .start(3, &game::Options::defaults(Loi.options()))
            .unwrap();
        let mut stream = draw::Stream::new(2009);
        while let Acting::Chance(c) = state.acting() {
            state.chance(&c.draw(2009, &mut stream)).unwrap();
        }
        let rows = arena::wire_examples::check(
            include_str!("../../../protocol.md"),
            |line| LoiWire.read(&state, 0, "jouer", line),
            Action::to_string,
        );
        assert!(rows >= 10, "{rows} examples read");
    }
}
