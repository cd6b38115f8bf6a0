//! What the Amazons tests read of a match's record: its moves, its winner, the move after
//! which the colours were isolated.

use arena::GameRecord;

/// The moves, in order.
pub fn moves(record: &GameRecord) -> Vec<String> {
    record.actions().map(String::from).collect()
}

/// The winning seat (`None`: both seats faulted).
pub fn winner(record: &GameRecord) -> Option<u8> {
    match record.ranking.winners().as_slice() {
        [w] => Some(*w as u8),
        _ => None,
    }
}

/// The moves after which no amazon could reach one of the other colour, if that happened.
pub fn isolated_after(record: &GameRecord) -> Option<usize> {
    referee::games::amazons_play::boards(record)
        .iter()
        .position(amazons::Board::isolated)
}
