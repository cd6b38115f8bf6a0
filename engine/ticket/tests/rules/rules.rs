//! A test per rule of `docs/rules-ticket-to-ride.md`, each named after its rule, each game
//! set up through the game model as the runner plays it: chance outcomes chosen by the test
//! (the pile's and the ticket deck's orders) and the moves written as records keep them.
//! The last test checks that every rule of the book has its test here.

use game::{Acting, Chance, Drawn, Game, Options, State};
use std::sync::Arc;
use ticket::Colour::{self, *};
use ticket::{Board, TicketState, TicketToRide, OPTIONS};

/// An order of the 110 cards (listed colour by colour) whose pile deals `top` first.
fn pile_order(top: &[Colour]) -> Vec<u32> {
    let deck = ticket::card::deck();
    let mut used = vec![false; deck.len()];
    let mut first = Vec::new();
    for &c in top {
        let i = (0..deck.len())
            .find(|&i| deck[i] == c && !used[i])
            .expect("no more cards of that colour");
        used[i] = true;
        first.push(i as u32);
    }
    let mut order: Vec<u32> = (0..deck.len() as u32)
        .filter(|&i| !used[i as usize])
        .collect();
    order.extend(first.into_iter().rev());
    order
}

/// An order of `n` tickets whose deck deals `top` first.
fn ticket_order(n: u32, top: &[u32]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n).filter(|i| !top.contains(i)).collect();
    order.extend(top.iter().rev());
    order
}

fn options(board: &str) -> Options {
    Options::parse(OPTIONS, &[format!("board={board}")]).unwrap()
}

/// A match on `board` whose pile deals `cards` first and whose ticket deck deals
/// `tickets` first (4 cards to each seat, seat 0 first, then the row).
fn dealt(board: &str, seats: usize, cards: &[Colour], tickets: &[u32]) -> TicketState {
    let state = TicketToRide.start(seats, &options(board)).unwrap();
    deal(state, cards, tickets)
}

fn deal(mut state: TicketState, cards: &[Colour], tickets: &[u32]) -> TicketState {
    let n = state.board().tickets.len() as u32;
    state.chance(&Drawn::Order(pile_order(cards))).unwrap();
    state
        .chance(&Drawn::Order(ticket_order(n, tickets)))
        .unwrap();
    state
}

/// A match on a board given as text (the board file format).
fn on_board(text: &str, seats: usize, cards: &[Colour], tickets: &[u32]) -> TicketState {
    let board = Board::parse(text).unwrap();
    deal(TicketState::new(Arc::new(board), seats), cards, tickets)
}

/// `seat` moves `text`: the answer, or the rule broken.
fn mv(state: &mut TicketState, seat: usize, text: &str) -> Result<String, String> {
    let action = text.parse().unwrap();
    state.act(seat, &action).map_err(|e| e.0)
}

/// Every seat's first turn: draws tickets and keeps all three.
fn first_turns(state: &mut TicketState) {
    for seat in 0..state.seats() {
        mv(state, seat, "tickets").unwrap();
        mv(state, seat, "keep 1 1 1").unwrap();
    }
}

fn hand(state: &TicketState, seat: usize) -> Vec<(Colour, u8)> {
    state.observe(seat).hand.into_iter().collect()
}

/// Four cards of `c`.
fn four(c: Colour) -> [Colour; 4] {
    [c; 4]
}

/// The row used where it does not matter: no locomotive.
const ROW: [Colour; 5] = [Purple, White, Blue, Yellow, Orange];

/// A board of six cities in a line and a double route, for the end's rules.
const LINE: &str = r#"{"map": "line", "wagons_per_player": 5,
  "cities": [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}, {"name": "E"}, {"name": "F"}],
  "tracks": [
    {"from": "A", "to": "B", "length": 2, "colors": ["Multicolor"]},
    {"from": "B", "to": "C", "length": 1, "colors": ["Multicolor"]},
    {"from": "D", "to": "E", "length": 2, "colors": ["Multicolor"]},
    {"from": "E", "to": "F", "length": 1, "colors": ["Red", "Blue"]}],
  "objectives": [
    {"from": "A", "to": "C", "points": 5}, {"from": "D", "to": "F", "points": 5},
    {"from": "A", "to": "F", "points": 9}, {"from": "C", "to": "D", "points": 3},
    {"from": "B", "to": "E", "points": 4}, {"from": "A", "to": "E", "points": 8},
    {"from": "A", "to": "B", "points": 1}, {"from": "A", "to": "B", "points": 1},
    {"from": "A", "to": "B", "points": 1}, {"from": "A", "to": "B", "points": 1},
    {"from": "A", "to": "B", "points": 1}, {"from": "A", "to": "B", "points": 1}]}"#;

#[test]
fn rule_01_two_to_five_seats_seat_0_first_then_in_turn() {
    assert_eq!(TicketToRide.seats(), 2..=5);
    assert_eq!(TicketToRide.defaults().get("board"), "usa");
    for bad in [1, 6] {
        let err = TicketToRide
            .start(bad, &TicketToRide.defaults())
            .unwrap_err();
        assert!(err.contains("2 to 5"), "{err}");
    }
    let mut state = dealt("usa", 3, &[], &[]);
    for seat in 0..3 {
        assert_eq!(state.acting(), Acting::Seats(vec![seat]));
        mv(&mut state, seat, "tickets").unwrap();
        assert_eq!(state.acting(), Acting::Seats(vec![seat]));
        mv(&mut state, seat, "keep 1 1 0").unwrap();
    }
    assert_eq!(state.acting(), Acting::Seats(vec![0]));
}

#[test]
fn rule_02_the_board_option_usa_small_or_a_file() {
    let usa = dealt("usa", 2, &[], &[]);
    assert_eq!(
        (
            usa.board().cities.len(),
            usa.board().routes.len(),
            usa.board().tickets.len()
        ),
        (36, 100, 30)
    );
    let small = dealt("small", 2, &[], &[]);
    assert_eq!(
        (
            small.board().cities.len(),
            small.board().routes.len(),
            small.board().tickets.len()
        ),
        (8, 11, 9)
    );
    assert!(
        small.board().cities.iter().all(|c| c.x > 0 && c.y > 0),
        "placed"
    );
    // A double route is two routes, twins; Multicolor is grey.
    let board = Board::parse(LINE).unwrap();
    assert_eq!(board.routes.len(), 5);
    assert_eq!(
        (board.routes[3].twin, board.routes[4].twin),
        (Some(4), Some(3))
    );
    assert_eq!(
        (board.routes[3].colour, board.routes[0].colour),
        (Some(Red), None)
    );
    // A board file, by its path.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("rule_02");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("line.json");
    std::fs::write(&path, LINE).unwrap();
    let state = TicketToRide
        .start(2, &options(path.to_str().unwrap()))
        .unwrap();
    assert_eq!(state.board().name, "line");
    std::fs::write(&path, LINE.replace("\"length\": 1", "\"length\": 7")).unwrap();
    let err = TicketToRide
        .start(2, &options(path.to_str().unwrap()))
        .unwrap_err();
    assert!(err.contains("length 7: give 1 to 6"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    let err = TicketToRide.start(2, &options("moon")).unwrap_err();
    assert!(err.contains("neither usa nor small"), "{err}");
}

#[test]
fn rule_03_each_player_starts_with_the_boards_wagons() {
    for (board, wagons) in [("usa", 45), ("small", 15)] {
        let state = dealt(board, 4, &[], &[]);
        assert!(state.observe(0).seats.iter().all(|s| s.wagons == wagons));
    }
}

#[test]
fn rule_04_one_hundred_and_ten_cards() {
    let state = dealt("usa", 5, &[], &[]);
    state.audit().unwrap();
    let mut count = [0usize; 9];
    for seat in 0..5 {
        for (c, n) in hand(&state, seat) {
            count[c as usize] += usize::from(n);
        }
    }
    for c in state.row().iter().flatten() {
        count[*c as usize] += 1;
    }
    let seen: usize = count.iter().sum();
    assert_eq!(seen + state.pile_len() + state.discard_len(), 110);
    assert_eq!(
        ticket::card::deck().iter().filter(|&&c| c == Red).count(),
        12
    );
    assert_eq!(
        ticket::card::deck()
            .iter()
            .filter(|&&c| c == Locomotive)
            .count(),
        14
    );
}

#[test]
fn rule_05_the_tickets_make_one_deck() {
    let state = dealt("usa", 2, &[], &[]);
    assert_eq!(state.observe(0).ticket_deck, 30);
    state.audit().unwrap();
}

#[test]
fn rule_06_chance_draws_the_orders_of_the_pile_and_the_ticket_deck() {
    let state = TicketToRide.start(2, &options("small")).unwrap();
    assert_eq!(state.acting(), Acting::Chance(Chance::Order(110)));
    let mut a = state.clone();
    a.chance(&Drawn::Order(pile_order(&[]))).unwrap();
    assert_eq!(a.acting(), Acting::Chance(Chance::Order(9)));
    assert!(
        a.clone().chance(&Drawn::Order(vec![0, 1])).is_err(),
        "not an order of 9"
    );
    a.chance(&Drawn::Order(ticket_order(9, &[]))).unwrap();
    assert_eq!(a.acting(), Acting::Seats(vec![0]));
    // The same outcomes, the same game; another order, another.
    let b = deal(state.clone(), &[], &[]);
    assert_eq!(a.digest(), b.digest());
    let c = deal(state, &[Red], &[]);
    assert_ne!(a.digest(), c.digest());
    assert!(
        a.clone().chance(&Drawn::Order(vec![])).is_err(),
        "nothing to draw"
    );
}

#[test]
fn rule_07_four_cards_each_seat_0_first_then_five_face_up() {
    let mut top = vec![Red, Red, Red, Red, Blue, Blue, Blue, Green];
    top.extend([Black, White, Black, White, Orange]);
    let state = dealt("usa", 2, &top, &[]);
    assert_eq!(hand(&state, 0), [(Red, 4)]);
    assert_eq!(hand(&state, 1), [(Blue, 3), (Green, 1)]);
    assert_eq!(state.row(), [Black, White, Black, White, Orange].map(Some));
    assert_eq!(state.pile_len(), 110 - 8 - 5);
}

#[test]
fn rule_08_three_face_up_locomotives_and_the_row_is_laid_again() {
    let mut top = [four(Red), four(Blue)].concat();
    top.extend([Locomotive, Green, Locomotive, Green, Locomotive]);
    top.extend(ROW);
    let state = dealt("usa", 2, &top, &[]);
    assert_eq!(state.row(), ROW.map(Some));
    assert_eq!(state.discard_len(), 5);
    // Two locomotives stay.
    let mut top = [four(Red), four(Blue)].concat();
    top.extend([Locomotive, Green, Locomotive, Green, Black]);
    let state = dealt("usa", 2, &top, &[]);
    assert_eq!(state.discard_len(), 0);
}

#[test]
fn rule_09_a_face_up_card_taken_is_replaced_from_the_pile() {
    let mut top = [four(Red), four(Blue)].concat();
    top.extend(ROW);
    top.push(Green);
    let mut state = dealt("usa", 2, &top, &[]);
    first_turns(&mut state);
    assert_eq!(mv(&mut state, 0, "take blue").unwrap(), "blue");
    assert_eq!(
        state.row(),
        [Purple, White, Green, Yellow, Orange].map(Some)
    );
    assert_eq!(hand(&state, 0), [(Blue, 1), (Red, 4)]);
    assert_eq!(
        mv(&mut state, 0, "take black").unwrap_err(),
        "no black card is face up"
    );
}

#[test]
fn rule_10_the_discard_is_reshuffled_as_soon_as_the_pile_is_empty() {
    let mut state = dealt(
        "small",
        2,
        &[&four(Red)[..], &four(Blue), &ROW].concat(),
        &[],
    );
    first_turns(&mut state);
    assert_eq!(mv(&mut state, 0, "claim 0 1 red 0").unwrap(), "2");
    assert_eq!(state.discard_len(), 2);
    let mut seat = 1;
    while state.pile_len() > 0 {
        mv(&mut state, seat, "blind").unwrap();
        if state.acting() != Acting::Seats(vec![seat]) {
            seat = 1 - seat;
        }
    }
    // The two cards paid, and rows laid again on three locomotives (rule 8).
    let n = state.discard_len();
    assert!(n >= 2);
    assert_eq!(state.acting(), Acting::Chance(Chance::Order(n as u32)));
    assert!(
        state.legal(seat).is_empty(),
        "nobody moves before the reshuffle"
    );
    state
        .chance(&Drawn::Order((0..n as u32).rev().collect()))
        .unwrap();
    assert_eq!((state.pile_len(), state.discard_len()), (n, 0));
    state.audit().unwrap();
}

#[test]
fn rule_11_the_moves_and_how_they_are_written() {
    for text in [
        "blind",
        "take red",
        "tickets",
        "keep 1 0 1",
        "claim 3 5 red 1",
        "claim 0 1 locomotive 2",
    ] {
        let action: ticket::Action = text.parse().unwrap();
        assert_eq!(action.to_string(), text);
    }
    let err = "draw".parse::<ticket::Action>().unwrap_err();
    assert!(
        err.contains("`claim <city> <city> <colour> <locomotives>`"),
        "{err}"
    );
    let mut state = dealt("usa", 2, &[four(Red), four(Blue)].concat(), &[]);
    first_turns(&mut state);
    let legal: Vec<String> = state.legal(0).iter().map(ToString::to_string).collect();
    assert_eq!(legal[0], "blind");
    assert!(legal.contains(&"tickets".to_string()));
    assert!(legal.iter().any(|a| a.starts_with("take ")));
    assert!(legal.iter().any(|a| a.starts_with("claim ")));
}

#[test]
fn rule_12_the_first_turn_draws_tickets_and_keeps_two() {
    let mut state = dealt("usa", 2, &[], &[]);
    let err = mv(&mut state, 0, "blind").unwrap_err();
    assert!(err.contains("first move draws tickets"), "{err}");
    assert_eq!(state.legal(0), ["tickets".parse().unwrap()]);
    mv(&mut state, 0, "tickets").unwrap();
    let err = mv(&mut state, 0, "keep 0 1 0").unwrap_err();
    assert!(err.contains("at least 2"), "{err}");
    assert_eq!(mv(&mut state, 0, "keep 0 1 1").unwrap(), "2");
    assert_eq!(state.observe(0).tickets.len(), 2);
}

#[test]
fn rule_13_two_cards_a_turn_a_face_up_locomotive_is_the_whole_turn() {
    let mut top = [four(Red), four(Blue)].concat();
    top.extend([
        Locomotive, White, Blue, Yellow, Orange, Green, Black, Purple,
    ]);
    let mut state = dealt("usa", 2, &top, &[]);
    first_turns(&mut state);
    assert_eq!(mv(&mut state, 0, "blind").unwrap(), "green");
    assert_eq!(state.observe(0).phase, "second-card");
    assert_eq!(mv(&mut state, 0, "take white").unwrap(), "white");
    assert_eq!(state.acting(), Acting::Seats(vec![1]));
    mv(&mut state, 1, "take locomotive").unwrap();
    assert_eq!(
        state.acting(),
        Acting::Seats(vec![0]),
        "one locomotive, the whole turn"
    );
    assert_eq!(hand(&state, 1), [(Blue, 4), (Locomotive, 1)]);
}

#[test]
fn rule_14_a_face_up_locomotive_is_never_the_second_card() {
    let mut top = [four(Red), four(Blue)].concat();
    top.extend([Locomotive, White, Blue, Yellow, Orange, Green]);
    let mut state = dealt("usa", 2, &top, &[]);
    first_turns(&mut state);
    mv(&mut state, 0, "take white").unwrap();
    let before = state.digest();
    let err = mv(&mut state, 0, "take locomotive").unwrap_err();
    assert!(err.contains("cannot be the second card"), "{err}");
    assert_eq!(state.digest(), before);
    assert!(!state.legal(0).contains(&"take locomotive".parse().unwrap()));
}

#[test]
fn rule_15_three_tickets_keep_one_the_rest_back_on_top() {
    let mut state = dealt("usa", 2, &[], &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
    first_turns(&mut state);
    let answer = mv(&mut state, 0, "tickets").unwrap();
    let tickets = state.board().tickets.clone();
    let t = |i: usize| tickets[i];
    let text = |i: usize| format!("{} {} {}", t(i).from, t(i).to, t(i).points);
    assert_eq!(answer, format!("{}, {}, {}", text(6), text(7), text(8)));
    assert_eq!(state.observe(0).offered.len(), 3);
    assert!(
        state.observe(1).offered.is_empty(),
        "only the drawer sees them"
    );
    assert!(mv(&mut state, 0, "keep 0 0 0")
        .unwrap_err()
        .contains("at least 1"));
    assert!(mv(&mut state, 0, "blind")
        .unwrap_err()
        .contains("keep at least one"));
    assert_eq!(mv(&mut state, 0, "keep 0 1 0").unwrap(), "1");
    // Ticket 8 was returned last: it is on top, then ticket 6.
    mv(&mut state, 1, "tickets").unwrap();
    assert_eq!(state.observe(1).offered[..2], [t(8), t(6)]);
}

#[test]
fn rule_16_claiming_a_route_pays_its_length_in_one_colour_and_locomotives() {
    let usa = Board::built_in("usa").unwrap();
    let city = |name: &str| usa.cities.iter().position(|c| c.name == name).unwrap();
    let (den, kc, slc) = (city("Denver"), city("Kansas City"), city("Salt Lake City"));
    // Denver - Kansas City: black or orange, 4; Denver - Salt Lake City: red or yellow, 3.
    let mut top = vec![
        Black, Black, Black, Locomotive, Red, Red, Locomotive, Locomotive,
    ];
    top.extend(ROW);
    let mut state = dealt("usa", 2, &top, &[]);
    first_turns(&mut state);
    let claim = |c: &str, l: u8| format!("claim {den} {kc} {c} {l}");
    let err = mv(&mut state, 0, &claim("red", 1)).unwrap_err();
    assert!(err.contains("not paid in red"), "{err}");
    let err = mv(&mut state, 0, &claim("black", 0)).unwrap_err();
    assert!(err.contains("you hold 3 black and 1 locomotives"), "{err}");
    let err = mv(&mut state, 0, &claim("black", 5)).unwrap_err();
    assert!(err.contains("at most 4"), "{err}");
    let err = mv(&mut state, 0, &claim("black", 2)).unwrap_err();
    assert!(err.contains("with 2 black and 2 locomotives"), "{err}");
    assert_eq!(mv(&mut state, 0, &claim("black", 1)).unwrap(), "7");
    assert!(hand(&state, 0).is_empty());
    assert_eq!(state.discard_len(), 4);
    assert_eq!(state.observe(1).seats[0].wagons, 41);
    // Only locomotives: written with the route's colour.
    let err = mv(&mut state, 1, &format!("claim {den} {slc} locomotive 2")).unwrap_err();
    assert!(err.contains("not paid in locomotive"), "{err}");
    assert_eq!(
        mv(&mut state, 1, &format!("claim {slc} {den} red 1")).unwrap(),
        "4"
    );
    // A grey route takes any one colour; too few wagons is refused.
    let small = r#"{"map": "g", "wagons_per_player": 2, "cities": [{"name": "A"}, {"name": "B"}],
      "tracks": [{"from": "A", "to": "B", "length": 3, "colors": ["Multicolor"]},
                 {"from": "B", "to": "A", "length": 2, "colors": ["Multicolor"]}],
      "objectives": [{"from": "A", "to": "B", "points": 1}, {"from": "A", "to": "B", "points": 2},
                     {"from": "A", "to": "B", "points": 3}, {"from": "A", "to": "B", "points": 4},
                     {"from": "A", "to": "B", "points": 5}, {"from": "A", "to": "B", "points": 6}]}"#;
    let mut top = [four(Locomotive), four(Green)].concat();
    top.extend(ROW);
    let mut state = on_board(small, 2, &top, &[]);
    first_turns(&mut state);
    let err = mv(&mut state, 0, "claim 0 1 locomotive 3").unwrap_err();
    assert!(err.contains("needs 3 wagons: you have 2 left"), "{err}");
    let err = mv(&mut state, 0, "claim 0 1 locomotive 1").unwrap_err();
    assert!(err.contains("written `claim 0 1 locomotive 3`"), "{err}");
}

#[test]
fn rule_17_double_routes_closed_at_two_and_three_seats_open_at_four_and_five() {
    let mut top = vec![Red; 4];
    top.extend([Blue; 4]);
    top.extend([Red, Blue, Green, Green, Green, Green]);
    top.extend([Blue, Blue, Black, Black, Black, Black]);
    // E - F is red or blue, 1 wagon: routes 3 and 4 of LINE.
    let mut state = on_board(LINE, 2, &top, &[]);
    first_turns(&mut state);
    mv(&mut state, 0, "claim 4 5 red 0").unwrap();
    let err = mv(&mut state, 1, "claim 4 5 blue 0").unwrap_err();
    assert!(err.contains("claimed once"), "{err}");
    let mut top4 = vec![Red; 4];
    top4.extend([Blue; 4]);
    top4.extend([Green; 4]);
    top4.extend([Black; 4]);
    top4.extend(ROW);
    let mut state = on_board(LINE, 4, &top4, &[]);
    first_turns(&mut state);
    mv(&mut state, 0, "claim 4 5 red 0").unwrap();
    assert_eq!(mv(&mut state, 1, "claim 5 4 blue 0").unwrap(), "1");
    assert_eq!(state.owners()[3..5], [Some(0), Some(1)]);
    // The same seat never takes both: seat 0 holds red only, so it tries the blue track
    // with locomotives in a fresh game.
    let mut top4 = vec![Red, Red, Locomotive, Locomotive];
    top4.extend([Green; 12]);
    top4.extend(ROW);
    let mut state = on_board(LINE, 4, &top4, &[]);
    first_turns(&mut state);
    mv(&mut state, 0, "claim 4 5 red 0").unwrap();
    for seat in 1..4 {
        mv(&mut state, seat, "blind").unwrap();
        mv(&mut state, seat, "blind").unwrap();
    }
    let err = mv(&mut state, 0, "claim 4 5 blue 1").unwrap_err();
    assert!(err.contains("you own its other track"), "{err}");
}

#[test]
fn rule_18_a_route_scores_by_its_length() {
    let points: Vec<i64> = (1..=6).map(ticket::route_points).collect();
    assert_eq!(points, [1, 2, 4, 7, 10, 15]);
    let mut top = [four(Red), four(Blue)].concat();
    top.extend(ROW);
    let mut state = dealt("small", 2, &top, &[]);
    first_turns(&mut state);
    assert_eq!(mv(&mut state, 0, "claim 1 4 red 0").unwrap(), "4");
    assert_eq!(state.observe(1).seats[0].points, 4);
}

/// Two seats on LINE (5 wagons), past their first turns: seat 0 holds four red, seat 1
/// four blue.
fn line_game() -> TicketState {
    let mut top = [four(Red), four(Blue)].concat();
    top.extend(ROW);
    let mut state = on_board(LINE, 2, &top, &[0, 1, 2, 3, 4, 5]);
    first_turns(&mut state);
    state
}

#[test]
fn rule_19_two_wagons_or_fewer_start_the_last_round() {
    let mut state = line_game();
    mv(&mut state, 0, "claim 0 1 red 0").unwrap();
    assert!(!state.observe(1).last_round, "3 wagons left");
    mv(&mut state, 1, "blind").unwrap();
    mv(&mut state, 1, "blind").unwrap();
    mv(&mut state, 0, "claim 1 2 red 0").unwrap();
    assert!(state.observe(1).last_round, "2 wagons left");
    mv(&mut state, 1, "blind").unwrap();
    mv(&mut state, 1, "blind").unwrap();
    assert_eq!(state.acting(), Acting::Seats(vec![0]), "its own last turn");
    mv(&mut state, 0, "blind").unwrap();
    mv(&mut state, 0, "blind").unwrap();
    assert_eq!(state.acting(), Acting::Over);
    assert_eq!(state.end(), Some(ticket::End::Counted));
}

#[test]
fn rule_20_no_card_left_ends_the_game_fewer_cards_win() {
    let mut state = line_game();
    let mut seat = 0;
    loop {
        mv(&mut state, seat, "blind").unwrap();
        if state.acting() == Acting::Over {
            break;
        }
        if state.acting() != Acting::Seats(vec![seat]) {
            seat = 1 - seat;
        }
    }
    assert_eq!(state.end(), Some(ticket::End::CardsOut { drawer: seat }));
    let cards = |s: usize| state.observe(s).seats[s].cards;
    let ranking = state.ranking().unwrap();
    // Drawing alternately, the drawer holds as many or more: it loses.
    assert!(cards(seat) >= cards(1 - seat));
    assert_eq!(ranking.places[seat], 2);
    assert_eq!(ranking.scores, [0, 0], "nothing counted");
    // As many cards: the drawer loses. Three cards paid for routes come back through the
    // discard; the pile runs out at seat 0's turn, one card short of seat 1's hand, and
    // seat 0 takes a face-up card that cannot be replaced.
    let mut state = line_game();
    mv(&mut state, 0, "claim 0 1 red 0").unwrap();
    mv(&mut state, 1, "claim 4 5 blue 0").unwrap();
    let mut seat = 0;
    while state.pile_len() + state.discard_len() > 0 {
        if let Acting::Chance(Chance::Order(n)) = state.acting() {
            state.chance(&Drawn::Order((0..n).collect())).unwrap();
            continue;
        }
        mv(&mut state, seat, "blind").unwrap();
        seat = state.turn();
    }
    let cards = |state: &TicketState, s: usize| state.observe(s).seats[s].cards;
    assert_eq!((seat, cards(&state, 0) + 1), (0, cards(&state, 1)));
    mv(&mut state, 0, "take purple").unwrap();
    assert_eq!(state.end(), Some(ticket::End::CardsOut { drawer: 0 }));
    assert_eq!(cards(&state, 0), cards(&state, 1));
    assert_eq!(state.ranking().unwrap().places, [2, 1]);
}

#[test]
fn rule_21_too_few_tickets_ends_the_game_fewer_tickets_win() {
    let mut state = dealt("small", 2, &[], &[]);
    first_turns(&mut state);
    mv(&mut state, 0, "tickets").unwrap();
    mv(&mut state, 0, "keep 1 0 0").unwrap();
    assert_eq!(state.observe(1).ticket_deck, 2);
    let answer = mv(&mut state, 1, "tickets").unwrap();
    assert!(answer.contains("the game ends"), "{answer}");
    assert_eq!(state.end(), Some(ticket::End::TicketsOut { drawer: 1 }));
    assert_eq!(state.ranking().unwrap().places, [2, 1], "3 tickets beat 4");
    // As many tickets: the drawer wins. On `usa` the 30 tickets are all kept, 15 each.
    let mut state = dealt("usa", 2, &[], &[]);
    first_turns(&mut state);
    for _ in 0..4 {
        first_turns(&mut state);
    }
    assert_eq!(state.observe(0).ticket_deck, 0);
    mv(&mut state, 0, "tickets").unwrap();
    assert_eq!(state.end(), Some(ticket::End::TicketsOut { drawer: 0 }));
    assert_eq!(state.ranking().unwrap().places, [1, 2]);
}

#[test]
fn rule_22_tickets_completed_score_the_others_lose() {
    let mut state = line_game();
    // Seat 0 keeps A-C (5), D-F (5), A-F (9); seat 1 C-D (3), B-E (4), A-E (8).
    assert_eq!(state.observe(0).tickets.len(), 3);
    mv(&mut state, 0, "claim 0 1 red 0").unwrap();
    mv(&mut state, 1, "claim 4 3 blue 0").unwrap();
    mv(&mut state, 0, "claim 1 2 red 0").unwrap();
    let count = state.count();
    assert_eq!(count[0].completed, [true, false, false]);
    assert_eq!(count[0].tickets, 5 - 5 - 9);
    assert_eq!(count[1].tickets, -3 - 4 - 8);
    assert_eq!(count[0].score, 2 + 1 - 9 + 10);
}

#[test]
fn rule_23_ten_points_for_the_longest_continuous_path() {
    let usa = Board::built_in("usa").unwrap();
    let route = |a: &str, b: &str| {
        let city = |n: &str| usa.cities.iter().position(|c| c.name == n).unwrap();
        usa.between(city(a), city(b)).next().unwrap()
    };
    // A loop with a tail, walked once round and out: Helena - Denver (4), Denver - Salt
    // Lake City (3), Salt Lake City - Helena (3), Denver - Omaha (4).
    let routes = [
        route("Helena", "Denver"),
        route("Denver", "Salt Lake City"),
        route("Salt Lake City", "Helena"),
        route("Denver", "Omaha"),
    ];
    assert_eq!(ticket::longest_path(&usa, &routes), 14);
    // A fork: the longer two branches only.
    let fork = [
        route("Denver", "Omaha"),
        route("Denver", "Kansas City"),
        route("Denver", "Phoenix"),
    ];
    assert_eq!(ticket::longest_path(&usa, &fork), 9);
    assert_eq!(ticket::longest_path(&usa, &[]), 0);
    // Both seats with 2-wagon paths tie: both score 10; with no route, nobody.
    let mut state = line_game();
    assert!(state.count().iter().all(|c| c.bonus == 0));
    mv(&mut state, 0, "claim 0 1 red 0").unwrap();
    mv(&mut state, 1, "claim 3 4 blue 0").unwrap();
    assert!(state
        .count()
        .iter()
        .all(|c| c.bonus == 10 && c.longest == 2));
    mv(&mut state, 0, "claim 1 2 red 0").unwrap();
    let count = state.count();
    assert_eq!((count[0].bonus, count[1].bonus), (10, 0));
}

#[test]
fn rule_24_ties_by_path_tickets_cards_then_a_coin() {
    // Both seats claim two wagons and keep tickets worth the same; both fail them all.
    let mirror = r#"{"map": "m", "wagons_per_player": 4,
      "cities": [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}, {"name": "E"}],
      "tracks": [{"from": "A", "to": "B", "length": 2, "colors": ["Multicolor"]},
                 {"from": "C", "to": "D", "length": 2, "colors": ["Multicolor"]},
                 {"from": "D", "to": "E", "length": 1, "colors": ["Multicolor"]}],
      "objectives": [{"from": "A", "to": "E", "points": 1}, {"from": "A", "to": "E", "points": 1},
                     {"from": "A", "to": "E", "points": 1}, {"from": "A", "to": "E", "points": 1},
                     {"from": "A", "to": "E", "points": 1}, {"from": "A", "to": "E", "points": 1},
                     {"from": "A", "to": "E", "points": 1}]}"#;
    let game = |last: &str| {
        let mut top = [four(Red), four(Blue)].concat();
        top.extend([Locomotive, Purple, White, Yellow, Orange]);
        let mut state = on_board(mirror, 2, &top, &[]);
        first_turns(&mut state);
        mv(&mut state, 0, "blind").unwrap();
        mv(&mut state, 0, "blind").unwrap();
        mv(&mut state, 1, "claim 2 3 blue 0").unwrap(); // 2 wagons left: the last round
        mv(&mut state, 0, "claim 0 1 red 0").unwrap();
        for m in last.split(", ") {
            mv(&mut state, 1, m).unwrap();
        }
        assert_eq!(state.count()[0].score, state.count()[1].score);
        state
    };
    // Seat 1 ends with 4 cards, seat 0 with 4: a coin.
    let mut state = game("blind, blind");
    assert_eq!(state.acting(), Acting::Chance(Chance::Order(2)));
    assert_eq!(state.ranking(), None, "not before the coin");
    state.chance(&Drawn::Order(vec![1, 0])).unwrap();
    assert_eq!(state.ranking().unwrap().places, [2, 1]);
    // Seat 1 ends with 3 cards: fewer cards win, no coin.
    let state = game("take locomotive");
    assert_eq!(state.acting(), Acting::Over);
    assert_eq!(state.ranking().unwrap().places, [2, 1]);
}

#[test]
fn rule_25_an_illegal_move_loses_the_game() {
    let mut state = line_game();
    let before = state.digest();
    assert!(mv(&mut state, 1, "blind")
        .unwrap_err()
        .contains("out of its turn"));
    assert!(mv(&mut state, 0, "claim 0 2 red 0")
        .unwrap_err()
        .contains("no route"));
    assert_eq!(state.digest(), before, "an illegal move changes nothing");
    state.retire(0);
    assert_eq!(state.acting(), Acting::Over);
    assert_eq!(state.ranking().unwrap().places, [2, 1]);
    // At three seats the game goes on without it; its tickets drawn go back on top.
    let mut state = dealt("usa", 3, &[], &[]);
    first_turns(&mut state);
    mv(&mut state, 0, "tickets").unwrap();
    state.retire(0);
    assert_eq!(state.observe(1).ticket_deck, 30 - 9);
    assert_eq!(state.acting(), Acting::Seats(vec![1]));
    mv(&mut state, 1, "blind").unwrap();
    mv(&mut state, 1, "blind").unwrap();
    assert_eq!(state.acting(), Acting::Seats(vec![2]));
    mv(&mut state, 2, "blind").unwrap();
    mv(&mut state, 2, "blind").unwrap();
    assert_eq!(state.acting(), Acting::Seats(vec![1]), "seat 0 is skipped");
    state.retire(2);
    assert_eq!(state.ranking().unwrap().places, [2, 1, 2]);
}

#[test]
fn rule_26_each_seat_sees_its_hand_and_tickets_and_only_counts_of_the_others() {
    let mut top = [four(Red), four(Blue)].concat();
    top.extend(ROW);
    let mut state = dealt("usa", 2, &top, &[]);
    first_turns(&mut state);
    let (mine, theirs) = (state.observe(0), state.observe(1));
    assert_eq!(mine.hand.get(&Red), Some(&4));
    assert_eq!(theirs.hand.get(&Red), None);
    assert_eq!(theirs.seats[0].cards, 4);
    assert_eq!(theirs.seats[0].tickets, 3);
    assert_eq!(mine.tickets.len(), 3);
    assert_eq!(mine.row, ROW.map(Some));
    assert_eq!(mine.pile, 110 - 13);
    assert!(mine.to_move && !theirs.to_move);
    let json = serde_json::to_string(&theirs).unwrap();
    assert!(!json.contains("\"red\":4"), "{json}");
    // What seat 1 sees does not depend on seat 0's hand.
    let mut other = [four(Green), four(Blue)].concat();
    other.extend(ROW);
    let mut state2 = dealt("usa", 2, &other, &[]);
    first_turns(&mut state2);
    assert_eq!(state2.observe(1), state.observe(1));
}

/// Every numbered rule of the book has a test here named after it, and every test names a
/// rule of the book.
#[test]
fn every_rule_of_the_book_has_its_test() {
    let book = include_str!("../../../../docs/rules-ticket-to-ride.md");
    let rules: Vec<u32> = book
        .lines()
        .filter_map(|l| l.split_once(". "))
        .filter(|(_, text)| !text.starts_with('['))
        .filter_map(|(n, _)| n.parse().ok())
        .filter(|&n| n > 0)
        .collect();
    assert_eq!(
        rules,
        (1..=26).collect::<Vec<u32>>(),
        "numbered 1 to 26, in order"
    );
    let tests = include_str!("rules.rs");
    let named: Vec<u32> = tests
        .lines()
        .filter_map(|l| l.strip_prefix("fn rule_"))
        .filter_map(|l| l.get(..2)?.parse().ok())
        .collect();
    for rule in &rules {
        assert!(
            named.contains(rule),
            "rule {rule} has no test `rule_{rule:02}_...`"
        );
    }
    for n in &named {
        assert!(
            rules.contains(n),
            "test rule_{n:02} names no rule of the book"
        );
    }
}
