//! The subject's numbers for Ticket to Ride (`t_color`, `t_typeMove`, the game data
//! `getMap` parses) turned into the words of `protocol-ticket-to-ride.md` and back: pure
//! text, no connection.

use ticket::card::ALL;
use ticket::Board;

/// The subject's code of a colour word of our protocol: `none` 0, `purple` 1 ...
/// `locomotive` and a grey route's `grey` 9 (`MULTICOLOR`).
pub fn colour_code(word: &str) -> u8 {
    match word {
        "grey" => 9,
        _ => ALL
            .iter()
            .position(|c| c.name() == word)
            .map_or(0, |i| i as u8 + 1),
    }
}

/// The colour word of the subject's code 1 to 9.
fn colour_word(code: &str) -> Option<&'static str> {
    let n: usize = code.parse().ok()?;
    (1..=9).contains(&n).then(|| ALL[n - 1].name())
}

/// The tracks as the subject counts them: a double route is one track with two colours.
/// `(city, city, length, colour, second colour or 0)`.
pub fn tracks(board: &Board) -> Vec<[u32; 5]> {
    let code = |c: Option<ticket::Colour>| c.map_or(9, |c| colour_code(c.name())) as u32;
    board
        .routes
        .iter()
        .enumerate()
        .filter(|(i, r)| r.twin.is_none_or(|t| t > *i))
        .map(|(_, r)| {
            let second = r.twin.map_or(0, |t| code(board.routes[t].colour));
            [
                r.from as u32,
                r.to as u32,
                u32::from(r.length),
                code(r.colour),
                second,
            ]
        })
        .collect()
}

/// What `GET_GAME_DATA` sends: the cities' names (a space as `_`), five numbers a track,
/// the five face-up cards and the cards in hand, from our `row` and `hand` answers.
pub fn game_data(board: &Board, row: &str, hand: &str) -> String {
    let mut words: Vec<String> = board
        .cities
        .iter()
        .map(|c| c.name.replace(char::is_whitespace, "_"))
        .collect();
    for t in tracks(board) {
        words.extend(t.iter().map(u32::to_string));
    }
    words.push(row_codes(row));
    for (i, count) in hand.split_whitespace().enumerate() {
        for _ in 0..count.parse::<usize>().unwrap_or(0) {
            words.push((i + 1).to_string());
        }
    }
    words.join(" ")
}

/// Our `row` answer (five colour words) as five codes.
pub fn row_codes(row: &str) -> String {
    row.split_whitespace()
        .map(|w| colour_code(w).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The move of `protocol-ticket-to-ride.md` that the subject's `PLAY_MOVE` text asks, or
/// why it is none.
pub fn move_line(text: &str) -> Result<String, String> {
    let w: Vec<&str> = text.split_whitespace().collect();
    let number = |s: &str| s.parse::<u32>().is_ok();
    let line = match w.as_slice() {
        ["1", a, b, c, n] if number(a) && number(b) && number(n) => {
            colour_word(c).map(|c| format!("claim {a} {b} {c} {n}"))
        }
        ["2"] => Some("blind".to_string()),
        ["3", c] => colour_word(c).map(|c| format!("take {c}")),
        ["4"] => Some("tickets".to_string()),
        ["5", k @ ..] if k.len() == 3 && k.iter().all(|k| number(k)) => Some(format!(
            "keep {}",
            k.iter()
                .map(|k| if *k == "0" { "0" } else { "1" })
                .collect::<Vec<_>>()
                .join(" ")
        )),
        _ => None,
    };
    line.ok_or_else(|| {
        format!(
            "`{}` is not a move of the subject's client: `1 CITY CITY COLOUR LOCOMOTIVES` \
             (claim a route), `2` (a blind card), `3 COLOUR` (a face-up card), `4` (draw \
             tickets), `5 K1 K2 K3` (keep them); colours 1 to 9",
            jail::fault::quote(text.as_bytes())
        )
    })
}

/// The message `PLAY_MOVE` sends back for our move `line` answered `answer`: the card
/// drawn, the face-up row after a take (`row`), the three tickets, the number kept.
pub fn move_message(line: &str, answer: &str, row: &str) -> String {
    match line.split_whitespace().next() {
        Some("blind") => match colour_code(answer) {
            0 => answer.to_string(),
            c => c.to_string(),
        },
        Some("take") => row_codes(row),
        Some("tickets") if answer.matches(", ").count() == 2 => answer.replace(", ", " "),
        Some("claim") => String::new(),
        _ => answer.to_string(),
    }
}

/// An opponent's move of our `moves` answer (`take red`, `blind`, `claim 1 2 red 0`,
/// `tickets`, `keep 2`) as `GET_MOVE` sends it: the subject's move text and its message.
/// `drawing` says whether that opponent drew its first card of the turn already (its
/// next card ends the turn); `row` is the face-up row now.
pub fn opponent_move(public: &str, drawing: &mut bool, row: &str) -> (String, String) {
    let w: Vec<&str> = public.split_whitespace().collect();
    let mut card = |locomotive: bool| {
        let replay = !*drawing && !locomotive;
        *drawing = replay;
        u8::from(replay)
    };
    match w.as_slice() {
        ["claim", a, b, c, n] => (format!("1 {a} {b} {} {n}", colour_code(c)), String::new()),
        ["blind", ..] => ("2".to_string(), format!("{}", card(false))),
        ["take", c] => {
            let replay = card(*c == "locomotive");
            (
                format!("3 {}", colour_code(c)),
                format!("{replay} {} {}", colour_code(c), row_codes(row)),
            )
        }
        ["tickets"] => ("4".to_string(), String::new()),
        ["keep", n] => {
            let kept = n.parse::<usize>().unwrap_or(0).min(3);
            let flags: Vec<&str> = (0..3).map(|i| if i < kept { "1" } else { "0" }).collect();
            (format!("5 {}", flags.join(" ")), String::new())
        }
        _ => (public.to_string(), String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subject_s_moves_become_ours() {
        assert_eq!(move_line("1 3 5 9 2").unwrap(), "claim 3 5 locomotive 2");
        assert_eq!(move_line("1 3 5 1 0").unwrap(), "claim 3 5 purple 0");
        assert_eq!(move_line("2").unwrap(), "blind");
        assert_eq!(move_line("3 8").unwrap(), "take green");
        assert_eq!(move_line("4").unwrap(), "tickets");
        assert_eq!(move_line("5 1 0 7").unwrap(), "keep 1 0 1");
        for bad in [
            "",
            "6",
            "1 3 5 10 0",
            "3 0",
            "5 1 1",
            "2 2",
            "game",
            "1 a b 3 0",
        ] {
            assert!(move_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn opponents_moves_tell_whether_they_play_again() {
        let row = "red none locomotive blue blue";
        let mut drawing = false;
        assert_eq!(
            opponent_move("take red", &mut drawing, row),
            ("3 7".into(), "1 7 7 0 9 3 3".into())
        );
        assert_eq!(opponent_move("blind", &mut drawing, row).1, "0");
        assert_eq!(
            opponent_move("take locomotive", &mut drawing, row).1,
            "0 9 7 0 9 3 3"
        );
        assert_eq!(opponent_move("keep 2", &mut drawing, row).0, "5 1 1 0");
        assert_eq!(
            opponent_move("claim 1 2 grey 0", &mut drawing, row).0,
            "1 1 2 9 0"
        );
    }

    #[test]
    fn the_game_data_counts_a_double_route_once() {
        let board = Board::built_in("usa").unwrap();
        let doubles = board.routes.iter().filter(|r| r.twin.is_some()).count();
        assert_eq!(tracks(&board).len(), board.routes.len() - doubles / 2);
        let data = game_data(&board, "red red red red red", "1 0 0 0 0 0 0 0 3");
        assert!(data.ends_with(" 7 7 7 7 7 1 9 9 9"), "{data}");
        assert!(!board
            .cities
            .iter()
            .any(|c| data.contains(&c.name) && c.name.contains(' ')));
    }
}
