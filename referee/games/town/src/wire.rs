//! `protocol-little-town.md` on the game model: Little Town's callbacks (`init_game` to
//! every seat, `jouer` to the seat whose turn it is, `end_game`), what each line of a
//! champion means (questions answered from the match, an action for the rules, `fin`), and
//! the `etat` line both ways (the referee writes it, the built-in champions read it back).

use arena::words::Words;
use arena::{Adapter, Line};
use game::{Acting, Illegal, State as _};
use town::board::{Grid, Shape};
use town::{Action, Cell, Kind, Player, Resource, Stock, Town, TownState, TownView, Why};

/// Little Town's protocol.
pub struct TownWire;

/// The `etat` line of `view` (protocol-little-town.md section 4): integers separated by
/// single spaces.
pub fn etat_line(view: &TownView) -> String {
    let board = Shape::NAMES
        .iter()
        .position(|n| *n == view.board)
        .unwrap_or(0);
    let or_none = |v: Option<usize>| v.map_or(-1, |s| s as i64);
    let mut words: Vec<i64> = vec![
        i64::from(view.width),
        i64::from(view.height),
        board as i64,
        i64::from(view.round),
        i64::from(view.rounds),
        view.players.len() as i64,
        view.seat as i64,
        or_none(view.to_play),
        or_none(view.first),
        i64::from(view.workers_each),
        i64::from(view.max_buildings),
        i64::from(view.upkeep),
        i64::from(view.food_price),
    ];
    for (cell, worker) in view.cells.iter().zip(&view.workers) {
        let (content, owner) = match *cell {
            Cell::Invalid => (-1, -1),
            Cell::Free => (0, -1),
            Cell::Mine(r) => (1 + r as i64, -1),
            Cell::Building { kind, owner } => (5 + kind as i64, owner as i64),
        };
        words.extend([content, owner, or_none(*worker)]);
    }
    for p in &view.players {
        words.extend(p.stock.0.iter().map(|&n| i64::from(n)));
        words.extend([
            i64::from(p.free_workers),
            i64::from(p.buildings),
            match p.out {
                None => 0,
                Some((_, Why::Eliminated)) => 1,
                Some((_, Why::Excluded)) => 2,
            },
        ]);
    }
    words.extend(view.supply.iter().map(|(_, n)| i64::from(*n)));
    let text: Vec<String> = words.iter().map(i64::to_string).collect();
    text.join(" ")
}

/// The view an `etat` line describes (what [`etat_line`] wrote); `None` if it is not one.
/// The order in which players went out is not in the line: each player out reads as out
/// first.
pub fn view_from_etat(line: &str) -> Option<TownView> {
    let numbers: Vec<i64> = line
        .split_ascii_whitespace()
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    let mut it = numbers.into_iter();
    let mut next = || it.next();
    let seat_or_none = |v: i64| usize::try_from(v).ok();
    let (width, height) = (u16::try_from(next()?).ok()?, u16::try_from(next()?).ok()?);
    let board = *Shape::NAMES.get(usize::try_from(next()?).ok()?)?;
    let (round, rounds) = (u8::try_from(next()?).ok()?, u8::try_from(next()?).ok()?);
    let players = usize::try_from(next()?).ok()?;
    let seat = usize::try_from(next()?).ok()?;
    let (to_play, first) = (seat_or_none(next()?), seat_or_none(next()?));
    let (workers_each, max_buildings) = (u8::try_from(next()?).ok()?, u8::try_from(next()?).ok()?);
    let (upkeep, food_price) = (u32::try_from(next()?).ok()?, u32::try_from(next()?).ok()?);
    let mut cells = Vec::new();
    let mut workers = Vec::new();
    for _ in 0..usize::from(width) * usize::from(height) {
        let (content, owner, worker) = (next()?, next()?, next()?);
        cells.push(match content {
            -1 => Cell::Invalid,
            0 => Cell::Free,
            1..=4 => Cell::Mine(Resource::MINED[content as usize - 1]),
            5..=12 => Cell::Building {
                kind: Kind::ALL[content as usize - 5],
                owner: usize::try_from(owner).ok()?,
            },
            _ => return None,
        });
        workers.push(seat_or_none(worker));
    }
    let mut all = Vec::new();
    for _ in 0..players {
        let mut stock = Stock::EMPTY;
        for r in Resource::ALL {
            stock.set(r, u32::try_from(next()?).ok()?);
        }
        let (free_workers, buildings) = (u8::try_from(next()?).ok()?, u8::try_from(next()?).ok()?);
        let out = match next()? {
            0 => None,
            1 => Some((0, Why::Eliminated)),
            2 => Some((0, Why::Excluded)),
            _ => return None,
        };
        all.push(Player {
            stock,
            free_workers,
            buildings,
            out,
        });
    }
    // The kinds in play: the default set's four, or eight with the powers (rule 22).
    let rest: Vec<u32> = std::iter::from_fn(&mut next)
        .map(|n| u32::try_from(n).ok())
        .collect::<Option<_>>()?;
    if rest.len() != Kind::BASE.len() && rest.len() != Kind::ALL.len() {
        return None;
    }
    let supply: Vec<(Kind, u32)> = Kind::ALL.into_iter().zip(rest).collect();
    let spread = Grid::new(Shape::named(board)?, width, height).spread(
        &(0..cells.len() as u16)
            .filter(|&p| matches!(cells[usize::from(p)], Cell::Mine(_)))
            .collect::<Vec<_>>(),
    );
    (seat < players && next().is_none()).then_some(TownView {
        seat,
        board,
        width,
        height,
        cells,
        workers,
        supply,
        players: all,
        round,
        rounds,
        first,
        to_play,
        spread,
        workers_each,
        max_buildings,
        upkeep,
        food_price,
    })
}

/// The `voisins X Y` answer: the neighbours of `x,y`, each `X,Y`, separated by spaces
/// (empty for a position that is not a valid one).
fn neighbours_line(state: &TownState, x: i32, y: i32) -> String {
    let grid = &state.rules().grid;
    let pos = match (u16::try_from(x), u16::try_from(y)) {
        (Ok(x), Ok(y)) => grid.at(x, y).filter(|&p| grid.is_valid(p)),
        _ => None,
    };
    let Some(pos) = pos else {
        return String::new();
    };
    let words: Vec<String> = grid
        .neighbours(pos)
        .iter()
        .map(|&n| {
            let (x, y) = grid.xy(n);
            format!("{x},{y}")
        })
        .collect();
    words.join(" ")
}

impl Adapter for TownWire {
    type Game = Town;

    fn game(&self) -> &Town {
        &Town
    }

    fn read(
        &self,
        state: &TownState,
        seat: usize,
        callback: &str,
        line: &str,
    ) -> Result<Line<Action>, String> {
        // protocol.md section 1's line rules, as every game reads its lines.
        let words = Words::of(line, callback)?;
        let quoted = || jail::fault::quote(words.line.as_bytes());
        let name = words.name();
        let no_argument = || match words.arguments().is_empty() {
            true => Ok(()),
            false => Err(format!(
                "`{}` during {callback}: `{name}` takes no argument",
                quoted()
            )),
        };
        let my_turn =
            callback == "jouer" && matches!(state.acting(), Acting::Seats(s) if s.contains(&seat));
        let answer = match name {
            "fin" => {
                no_argument()?;
                if my_turn {
                    return Err(
                        "ended jouer without an action; a player whose turn it is places a \
                         worker (protocol-little-town.md section 2)"
                            .to_string(),
                    );
                }
                return Ok(Line::End);
            }
            "moi" => {
                no_argument()?;
                seat.to_string()
            }
            "etat" => {
                no_argument()?;
                etat_line(&state.observe(seat))
            }
            "legal" => {
                no_argument()?;
                state.legal_text(seat).to_string()
            }
            "voisins" => {
                let args = words.integers().filter(|a| a.len() == 2).ok_or_else(|| {
                    format!(
                        "`{}` during {callback}: `voisins` takes two 32-bit integers, X \
                             and Y",
                        quoted()
                    )
                })?;
                neighbours_line(state, args[0], args[1])
            }
            "collect" | "build" => {
                let action: Action =
                    words
                        .canonical()
                        .parse()
                        .map_err(|e: town::action::BadAction| {
                            format!("`{}` during {callback}: {e}", quoted())
                        })?;
                return Ok(Line::Act(action));
            }
            _ => {
                return Err(format!(
                    "unknown request `{}` during {callback}: expected moi, etat, legal, \
                     voisins, collect, build or fin (protocol-little-town.md section 3); {}",
                    quoted(),
                    jail::fault::LOGS_ON_STDERR
                ))
            }
        };
        Ok(Line::Answer(answer))
    }

    /// An action the rules take ends the seat's `jouer` (its turn is one action; the next
    /// turn, its own again when a round ends and chance names it first, is another `jouer`).
    fn is_last(&self, _: &Action) -> bool {
        true
    }

    /// An action the rules take ends the callback ([`Adapter::is_last`]): its `ok` is never
    /// sent. One they refuse is a fault (rule 15: the player is excluded).
    fn answer(&self, answer: &Result<String, Illegal>) -> Option<String> {
        answer.as_ref().ok().map(|_| "ok".to_string())
    }

    /// The number of actions taken and each seat's score (its gold, 0 for a seat out:
    /// rule 18).
    fn summary(&self, record: &arena::GameRecord) -> serde_json::Value {
        serde_json::json!({
            "actions": record.actions().count(),
            "scores": record.ranking.scores,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Game as _;

    /// protocol-little-town.md's examples of how a line is read (section 3), each fed to the
    /// adapter in the first `jouer` of a match: read as the canonical line the page gives
    /// (the same answer, the same action), or a fault whose message holds the page's words.
    #[test]
    fn the_protocol_page_s_example_lines_are_read_as_it_says() {
        let mut state = Town
            .start(2, &game::Options::defaults(Town.options()))
            .unwrap();
        let mut stream = draw::Stream::new(29);
        while let Acting::Chance(c) = state.acting() {
            state.chance(&c.draw(1, &mut stream)).unwrap();
        }
        let Acting::Seats(seats) = state.acting() else {
            panic!("a match starts with a turn")
        };
        let rows = arena::wire_examples::check(
            include_str!("../../../../protocol-little-town.md"),
            |line| TownWire.read(&state, seats[0], "jouer", line),
            Action::to_string,
        );
        assert!(rows >= 10, "{rows} examples read");
    }

    #[test]
    fn an_etat_line_reads_back_as_the_view_it_describes() {
        for seats in 2..=4 {
            for board in Shape::NAMES {
                let options =
                    game::Options::parse(Town.options(), &[format!("board={board}")]).unwrap();
                let mut state = Town.start(seats, &options).unwrap();
                let mut stream = draw::Stream::new(seats as u64);
                for _ in 0..40 {
                    match state.acting() {
                        Acting::Chance(c) => state.chance(&c.draw(1, &mut stream)).unwrap(),
                        Acting::Seats(s) => {
                            let a = town::bots::random(&state, s[0], &mut stream).unwrap();
                            state.act(s[0], &a).unwrap();
                        }
                        Acting::Over => break,
                    }
                }
                state.retire(seats - 1);
                let view = state.observe(0);
                let mut back = view_from_etat(&etat_line(&view)).unwrap();
                back.players[seats - 1].out = view.players[seats - 1].out;
                assert_eq!(back, view, "{board}, {seats} seats");
            }
        }
        assert!(view_from_etat("6 6 0").is_none());
        assert!(view_from_etat("").is_none());
    }
}
