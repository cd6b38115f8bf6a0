//! A seat's moves (rules 11-17, 19-21, 25): what it may do now ([`TicketState::legal`]),
//! what each move does or the rule it breaks ([`TicketState::play`]), the end of a turn and
//! the last round, and a seat that leaves.

use crate::action::Action;
use crate::board::route_points;
use crate::card::Colour;
use crate::state::{End, Phase, TicketState, DRAWN_TICKETS};
use game::Illegal;

/// Wagons left that start the last round (rule 19).
pub const LAST_ROUND_WAGONS: u32 = 2;

fn illegal<T>(why: String) -> Result<T, Illegal> {
    Err(Illegal(why))
}

impl TicketState {
    /// Whether `seat` is to move now (no chance to draw, the match not over).
    pub fn is_to_move(&self, seat: usize) -> bool {
        self.end.is_none() && self.chance_needed().is_none() && self.turn == seat
    }

    /// Seats still in.
    fn active(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.seats()).filter(|&s| !self.out[s])
    }

    /// The actions `seat` may take now, each payment of a route in one spelling: what its
    /// view allows ([`crate::View::legal`]).
    pub fn legal(&self, seat: usize) -> Vec<Action> {
        if !self.is_to_move(seat) {
            return Vec::new();
        }
        self.view(seat).legal(&self.board)
    }

    /// Why `seat` may not claim route `r`, if it may not (rule 17).
    fn why_closed(&self, seat: usize, r: usize) -> Option<String> {
        crate::legal::why_closed(&self.board, &self.owners, self.seats(), seat, r)
    }

    /// `seat` plays `action`: its answer, or the rule it breaks (and nothing changes).
    pub fn play(&mut self, seat: usize, action: &Action) -> Result<String, Illegal> {
        if !self.is_to_move(seat) {
            return illegal(format!("seat {seat} moved out of its turn"));
        }
        match (self.phase, *action) {
            (Phase::Turn, _) if !self.started[seat] && *action != Action::Tickets => {
                illegal("your first move draws tickets (`tickets`), and keeps at least two".into())
            }
            (Phase::Choose(offered), Action::Keep(keep)) => self.keep(seat, offered, keep),
            (Phase::Choose(_), _) => {
                illegal("you drew tickets: now keep at least one (`keep 1 0 1`)".into())
            }
            (_, Action::Keep(_)) => illegal("`keep` follows `tickets` only".into()),
            (Phase::Turn | Phase::Second, Action::Blind) => Ok(self.blind(seat)),
            (Phase::Turn | Phase::Second, Action::Take(c)) => self.take(seat, c),
            (Phase::Second, _) => {
                illegal("you drew one card: draw the second (`blind` or `take <colour>`)".into())
            }
            (Phase::Turn, Action::Tickets) => Ok(self.draw_tickets(seat)),
            (Phase::Turn, Action::Claim { .. }) => self.claim(seat, action),
        }
    }

    /// After a card drawn: a second card, or the turn is over.
    fn card_drawn(&mut self, seat: usize) {
        match self.phase {
            Phase::Turn => self.phase = Phase::Second,
            _ => self.end_turn(seat, false),
        }
    }

    fn blind(&mut self, seat: usize) -> String {
        let Some(card) = self.pop() else {
            self.end = Some(End::CardsOut { drawer: seat });
            return "no card left: the game ends".into();
        };
        self.hands[seat][card as usize] += 1;
        self.card_drawn(seat);
        card.to_string()
    }

    fn take(&mut self, seat: usize, colour: Colour) -> Result<String, Illegal> {
        let Some(slot) = self.row.iter().position(|c| *c == Some(colour)) else {
            return illegal(format!("no {colour} card is face up"));
        };
        if colour == Colour::Locomotive && self.phase == Phase::Second {
            return illegal("a face-up locomotive cannot be the second card of a turn".into());
        }
        self.row[slot] = None;
        self.hands[seat][colour as usize] += 1;
        self.filler = seat;
        self.settle();
        if self.end.is_none() {
            match colour {
                Colour::Locomotive => self.end_turn(seat, false),
                _ => self.card_drawn(seat),
            }
        }
        Ok(colour.to_string())
    }

    fn draw_tickets(&mut self, seat: usize) -> String {
        let deck = self.deck.as_mut().expect("drawn before any move");
        if deck.len() < DRAWN_TICKETS {
            self.end = Some(End::TicketsOut { drawer: seat });
            return "fewer than three tickets left: the game ends".into();
        }
        let offered = [deck.pop(), deck.pop(), deck.pop()].map(|t| t.expect("three"));
        self.phase = Phase::Choose(offered);
        offered
            .iter()
            .map(|&t| {
                let t = self.board.tickets[usize::from(t)];
                format!("{} {} {}", t.from, t.to, t.points)
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn keep(&mut self, seat: usize, offered: [u16; 3], keep: [bool; 3]) -> Result<String, Illegal> {
        let kept = keep.iter().filter(|&&k| k).count();
        let least = if self.started[seat] { 1 } else { 2 };
        if kept < least {
            return illegal(format!(
                "keep at least {least} of the tickets drawn{}",
                if least == 2 {
                    " on your first turn"
                } else {
                    ""
                }
            ));
        }
        let deck = self.deck.as_mut().expect("drawn before any move");
        for (t, k) in offered.into_iter().zip(keep) {
            match k {
                true => self.tickets[seat].push(t),
                false => deck.push(t),
            }
        }
        self.end_turn(seat, false);
        Ok(kept.to_string())
    }

    fn claim(&mut self, seat: usize, action: &Action) -> Result<String, Illegal> {
        let &Action::Claim {
            from,
            to,
            colour,
            locomotives,
        } = action
        else {
            unreachable!("a claim")
        };
        let cities = self.board.cities.len();
        if from >= cities || to >= cities {
            return illegal(format!("the cities are numbered 0 to {}", cities - 1));
        }
        let name = |c: usize| self.board.cities[c].name.clone();
        let what = format!("the route {} - {}", name(from), name(to));
        let routes: Vec<usize> = self.board.between(from, to).collect();
        if routes.is_empty() {
            return illegal(format!(
                "there is no route between {} and {}",
                name(from),
                name(to)
            ));
        }
        let payable: Vec<usize> = routes
            .iter()
            .copied()
            .filter(|&r| match self.board.routes[r].colour {
                None => true,
                Some(c) => c == colour,
            })
            .collect();
        if payable.is_empty() {
            let colours: Vec<&str> = routes
                .iter()
                .filter_map(|&r| self.board.routes[r].colour.map(Colour::name))
                .collect();
            return illegal(format!(
                "{what} is {}: it is not paid in {colour}",
                colours.join(" or ")
            ));
        }
        let Some(r) = payable
            .iter()
            .copied()
            .find(|&r| self.why_closed(seat, r).is_none())
        else {
            let why = self.why_closed(seat, payable[0]).unwrap_or_default();
            return illegal(format!("{what} cannot be claimed: {why}"));
        };
        let length = self.board.routes[r].length;
        if locomotives > length {
            return illegal(format!(
                "{locomotives} locomotives for {what}, of {length} wagons: at most {length}"
            ));
        }
        if colour == Colour::Locomotive && locomotives != length {
            return illegal(format!(
                "paying {what} in locomotives only is written `claim {from} {to} locomotive {length}`"
            ));
        }
        if self.wagons[seat] < u32::from(length) {
            return illegal(format!(
                "{what} needs {length} wagons: you have {} left",
                self.wagons[seat]
            ));
        }
        let hand = &mut self.hands[seat];
        let cards = length - locomotives;
        let (have_colour, have_locos) = (hand[colour as usize], hand[Colour::Locomotive as usize]);
        let short = match colour {
            Colour::Locomotive => have_locos < length,
            _ => have_colour < cards || have_locos < locomotives,
        };
        if short {
            return illegal(format!(
                "{what} with {cards} {colour} and {locomotives} locomotives: you hold \
                 {have_colour} {colour} and {have_locos} locomotives"
            ));
        }
        hand[colour as usize] -= cards;
        hand[Colour::Locomotive as usize] -= locomotives;
        self.discard
            .extend(std::iter::repeat_n(Colour::Locomotive, locomotives.into()));
        self.discard
            .extend(std::iter::repeat_n(colour, cards.into()));
        self.owners[r] = Some(seat);
        self.wagons[seat] -= u32::from(length);
        let points = route_points(length);
        self.points[seat] += points;
        let starts_last_round = self.wagons[seat] <= LAST_ROUND_WAGONS && self.last_round.is_none();
        if starts_last_round {
            self.last_round = Some((0..self.seats()).map(|s| !self.out[s]).collect());
        }
        self.end_turn(seat, starts_last_round);
        Ok(points.to_string())
    }

    /// `seat`'s turn is over (`seat` started the last round in it if `starting`): the
    /// match ends after the last round, or the next seat still in plays.
    fn end_turn(&mut self, seat: usize, starting: bool) {
        self.started[seat] = true;
        self.phase = Phase::Turn;
        if let Some(owed) = &mut self.last_round {
            if !starting {
                owed[seat] = false;
            }
            let owed = owed.clone();
            if !self.active().any(|s| owed[s]) {
                self.end = Some(End::Counted);
                return;
            }
        }
        self.pass_turn();
    }

    fn pass_turn(&mut self) {
        let n = self.seats();
        if let Some(next) = (1..=n).map(|k| (self.turn + k) % n).find(|&s| !self.out[s]) {
            self.turn = next;
        }
    }

    /// `seat` is out (a fault: rule 25): tickets it was choosing go back on the deck; with
    /// one seat or none left in, the match is over; else it goes on without it.
    pub fn leave(&mut self, seat: usize) {
        if self.out[seat] {
            return;
        }
        self.out[seat] = true;
        if self.end.is_some() {
            return;
        }
        if self.turn == seat {
            if let Phase::Choose(offered) = self.phase {
                self.deck
                    .as_mut()
                    .expect("drawn before any move")
                    .extend(offered);
            }
            self.phase = Phase::Turn;
        }
        if self.active().count() <= 1 {
            self.end = Some(End::Retired);
            return;
        }
        if let Some(owed) = &self.last_round {
            if !self.active().any(|s| owed[s]) {
                self.end = Some(End::Counted);
                return;
            }
        }
        if self.turn == seat {
            self.pass_turn();
        }
    }
}
