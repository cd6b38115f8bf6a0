//! The answer to the `etat` request (protocol.md section 4): the whole state seen by one
//! champion on one line. The referee encodes it with [`encode`]; the kit decodes it with
//! [`decode`] and answers the cached API functions from the [`Etat`]. One module for both
//! ends, so that they cannot drift apart.

use engine::board::{Board, Cell, Kind, Pos, CELLS};
use engine::constants::*;
use engine::{Api, Player, Seat};
use std::fmt;

/// The whole state as one champion sees it; ids relative to it (rule 3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Etat {
    pub numero_tour: i32,
    pub mon_tour: i32,
    pub commence: i32,
    pub monument_en_cours: i32,
    pub vainqueur_encheres: i32,
    pub cout_achat_maison: i32,
    pub cout_achat_route: i32,
    pub finances: [i32; 3],
    pub score: [i32; 3],
    pub montant_encheres: [i32; 3],
    /// `type_case` of each cell, index `y * 100 + x`.
    pub kinds: Vec<u8>,
    /// `appartenance` of each cell: 0..=2, or `MAIRIE`.
    pub owners: Vec<u8>,
    /// `type_monument` of each cell: the id, or `None`.
    pub monuments: Vec<Option<u8>>,
    /// `valeur_case` of each cell.
    pub values: Vec<i8>,
}

/// Why an `etat` line does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EtatError(String);

impl fmt::Display for EtatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad `etat` answer: {}", self.0)
    }
}

impl std::error::Error for EtatError {}

/// The index of cell `(x, y)`, `None` off the map.
fn cell(x: i32, y: i32) -> Option<usize> {
    Pos::new(x, y).map(Pos::index)
}

fn player(j: i32) -> Option<usize> {
    (0..3).contains(&j).then_some(j as usize)
}

impl Etat {
    /// `type_case`, `HORS_TERRAIN` off the map.
    pub fn type_case(&self, x: i32, y: i32) -> i32 {
        cell(x, y).map_or(HORS_TERRAIN, |i| i32::from(self.kinds[i]))
    }

    /// `valeur_case`, `HORS_TERRAIN` off the map.
    pub fn valeur_case(&self, x: i32, y: i32) -> i32 {
        cell(x, y).map_or(HORS_TERRAIN, |i| i32::from(self.values[i]))
    }

    /// `appartenance`, `HORS_TERRAIN` off the map.
    pub fn appartenance(&self, x: i32, y: i32) -> i32 {
        cell(x, y).map_or(HORS_TERRAIN, |i| i32::from(self.owners[i]))
    }

    /// The board as this champion sees it (itself seat 0, the town hall no seat): what the
    /// rules of the board (`engine::api::rules`) read, with `Seat(0)` asking.
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for (i, (&kind, &owner)) in self.kinds.iter().zip(&self.owners).enumerate() {
            let kind = match i32::from(kind) {
                MAISON => Kind::Maison,
                RESERVATION => Kind::Reservation,
                MONUMENT => Kind::Monument,
                ROUTE => Kind::Route,
                _ => continue,
            };
            let owner = (owner < 3).then_some(Seat(owner));
            let monument = self.monuments[i];
            board.set(
                Pos::from_index(i),
                Cell {
                    kind,
                    owner,
                    monument,
                },
            );
        }
        board
    }

    /// `type_monument`: `HORS_TERRAIN` off the map, `PAS_DE_MONUMENT` without one.
    pub fn type_monument(&self, x: i32, y: i32) -> i32 {
        cell(x, y).map_or(HORS_TERRAIN, |i| {
            self.monuments[i].map_or(PAS_DE_MONUMENT, i32::from)
        })
    }

    /// `score(j)`, `JOUEUR_INCORRECT` for `j` outside 0..=2.
    pub fn score(&self, j: i32) -> i32 {
        player(j).map_or(JOUEUR_INCORRECT, |j| self.score[j])
    }

    /// `finances(j)`, `JOUEUR_INCORRECT` for `j` outside 0..=2.
    pub fn finances(&self, j: i32) -> i32 {
        player(j).map_or(JOUEUR_INCORRECT, |j| self.finances[j])
    }

    /// `montant_encheres(j)`, `JOUEUR_INCORRECT` for `j` outside 0..=2.
    pub fn montant_encheres(&self, j: i32) -> i32 {
        player(j).map_or(JOUEUR_INCORRECT, |j| self.montant_encheres[j])
    }
}

/// The `etat` line (without its `\n`) for `player`, exactly as its API answers now.
///
/// ```
/// use engine::{Game, Seat, Setup};
/// let mut game = Game::new(Setup::from_seed(1));
/// let line = loi_protocol::etat::encode(&mut game.player(Seat(0)));
/// let etat = loi_protocol::etat::decode(&line).unwrap();
/// assert_eq!(etat.type_case(50, 50), engine::constants::ROUTE);
/// ```
pub fn encode(player: &mut Player) -> String {
    let figures = [
        player.numero_tour(),
        player.mon_tour(),
        player.commence(),
        player.monument_en_cours(),
        player.vainqueur_encheres(),
        player.cout_achat_maison(),
        player.cout_achat_route(),
        player.finances(0),
        player.finances(1),
        player.finances(2),
        player.score(0),
        player.score(1),
        player.score(2),
        player.montant_encheres(0),
        player.montant_encheres(1),
        player.montant_encheres(2),
    ];
    let mut line = String::with_capacity(4 * CELLS + 100);
    for figure in figures {
        line.push_str(&figure.to_string());
        line.push(' ');
    }
    let me = player.seat();
    let board = &player.view().board;
    let cells = board.cells();
    line.extend(cells.iter().map(|c| char::from(b'0' + c.kind as u8)));
    line.push(' ');
    line.extend(
        cells
            .iter()
            .map(|c| char::from(b'0' + c.owner.map_or(MAIRIE, |s| s.relative_to(me)) as u8)),
    );
    line.push(' ');
    line.extend(
        cells
            .iter()
            .map(|c| c.monument.map_or('.', |m| char::from(b'a' + m))),
    );
    line.push(' ');
    line.extend((0..CELLS).map(|i| char::from((64 + board.value(Pos::from_index(i))) as u8)));
    line
}

/// Parse an `etat` answer (protocol.md section 4).
pub fn decode(line: &str) -> Result<Etat, EtatError> {
    let fields: Vec<&str> = line.split_ascii_whitespace().collect();
    if fields.len() != 20 {
        return Err(EtatError(format!(
            "expected 20 fields, got {}",
            fields.len()
        )));
    }
    let mut figures = [0i32; 16];
    for (i, (figure, field)) in figures.iter_mut().zip(&fields).enumerate() {
        *figure = field
            .parse()
            .map_err(|_| EtatError(format!("field {} `{field}` is not an integer", i + 1)))?;
    }
    let strings = &fields[16..];
    for (i, s) in strings.iter().enumerate() {
        if s.len() != CELLS {
            return Err(EtatError(format!(
                "field {} has {} characters, expected {CELLS}",
                17 + i,
                s.len()
            )));
        }
    }
    let bad = |field: usize, i: usize, b: u8| {
        EtatError(format!(
            "field {field}: bad character {:?} at cell {i}",
            char::from(b)
        ))
    };
    let table = |field: usize, f: &dyn Fn(u8) -> Option<u8>| -> Result<Vec<u8>, EtatError> {
        strings[field - 17]
            .bytes()
            .enumerate()
            .map(|(i, b)| f(b).ok_or_else(|| bad(field, i, b)))
            .collect()
    };
    let kinds = table(17, &|b| matches!(b, b'0'..=b'4').then(|| b - b'0'))?;
    let owners = table(18, &|b| matches!(b, b'0'..=b'3').then(|| b - b'0'))?;
    let monuments = strings[2]
        .bytes()
        .enumerate()
        .map(|(i, b)| match b {
            b'.' => Ok(None),
            b'a'..=b'n' => Ok(Some(b - b'a')),
            _ => Err(bad(19, i, b)),
        })
        .collect::<Result<_, _>>()?;
    let values = strings[3]
        .bytes()
        .enumerate()
        .map(|(i, b)| {
            (b'!'..=b'~')
                .contains(&b)
                .then(|| (i32::from(b) - 64) as i8)
                .ok_or_else(|| bad(20, i, b))
        })
        .collect::<Result<_, _>>()?;
    let f = figures;
    Ok(Etat {
        numero_tour: f[0],
        mon_tour: f[1],
        commence: f[2],
        monument_en_cours: f[3],
        vainqueur_encheres: f[4],
        cout_achat_maison: f[5],
        cout_achat_route: f[6],
        finances: [f[7], f[8], f[9]],
        score: [f[10], f[11], f[12]],
        montant_encheres: [f[13], f[14], f[15]],
        kinds,
        owners,
        monuments,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::bots::{by_name, Champion};
    use engine::{Game, Setup};

    /// Every cached answer of the decoded line equals the engine's answer.
    fn check(player: &mut Player) {
        let etat = decode(&encode(player)).expect("our own line parses");
        assert_eq!(etat.numero_tour, player.numero_tour());
        assert_eq!(etat.mon_tour, player.mon_tour());
        assert_eq!(etat.commence, player.commence());
        assert_eq!(etat.monument_en_cours, player.monument_en_cours());
        assert_eq!(etat.vainqueur_encheres, player.vainqueur_encheres());
        assert_eq!(etat.cout_achat_maison, player.cout_achat_maison());
        assert_eq!(etat.cout_achat_route, player.cout_achat_route());
        for j in -1..=3 {
            assert_eq!(etat.finances(j), player.finances(j));
            assert_eq!(etat.score(j), player.score(j));
            assert_eq!(etat.montant_encheres(j), player.montant_encheres(j));
        }
        for y in -1..=100 {
            for x in -1..=100 {
                assert_eq!(etat.type_case(x, y), player.type_case(x, y), "({x}, {y})");
                assert_eq!(etat.valeur_case(x, y), player.valeur_case(x, y));
                assert_eq!(etat.appartenance(x, y), player.appartenance(x, y));
                assert_eq!(etat.type_monument(x, y), player.type_monument(x, y));
            }
        }
    }

    #[test]
    fn round_trip_through_a_game() {
        let mut game = Game::new(Setup::from_seed(5));
        let mut bots: Vec<_> = ["greedy", "random", "greedy"]
            .iter()
            .enumerate()
            .map(|(i, name)| by_name(name, i as u64).unwrap())
            .collect();
        let mut stage = 0;
        let mut checked = 0;
        while let Some(callback) = game.callback() {
            for seat in game.seats_to_play() {
                let mut player = game.player(seat);
                let deep = stage % 7 == 0 || stage > 50;
                if deep {
                    check(&mut player);
                }
                bots[seat.index()].play(callback, &mut player);
                if deep {
                    check(&mut player); // mid-callback: counters and private views
                    checked += 1;
                }
            }
            game.advance();
            stage += 1;
        }
        assert!(checked > 10);
        let mut player = game.player(engine::Seat(1));
        check(&mut player);
        assert!(player.score(0) + player.score(1) + player.score(2) > 0);
    }

    /// A bad line is refused with a message that names the field and what is wrong (what
    /// a kit prints when it cannot read the referee's answer).
    #[test]
    fn decode_rejects_bad_lines() {
        let message = |line: &str| decode(line).unwrap_err().to_string();
        assert_eq!(
            message("1 2 3"),
            "bad `etat` answer: expected 20 fields, got 3"
        );
        let mut game = Game::new(Setup::from_seed(1));
        let line = encode(&mut game.player(engine::Seat(0)));
        assert!(decode(&line).is_ok());
        let mut broken = line.clone();
        broken.pop();
        assert_eq!(
            message(&broken),
            format!(
                "bad `etat` answer: field 20 has {} characters, expected {CELLS}",
                CELLS - 1
            )
        );
        // numero_tour
        assert_eq!(
            message(&format!("x{}", &line[1..])),
            "bad `etat` answer: field 1 `x` is not an integer"
        );
        let kinds = line.match_indices(' ').nth(15).unwrap().0 + 1;
        let mut bad_kind = line.clone();
        bad_kind.replace_range(kinds..=kinds, "9");
        assert_eq!(
            message(&bad_kind),
            "bad `etat` answer: field 17: bad character '9' at cell 0"
        );
    }
}
