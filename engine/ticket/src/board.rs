//! A board (rule 2): its cities, its routes (a double route is two routes between the same
//! cities, twins), its destination tickets and the wagons each player starts with; read
//! from the board file format (`usa`, `small`, or any file in that format), checked, each
//! fault named.

use crate::card::Colour;
use serde::Deserialize;

/// A city, with where to draw it (the board picture's pixels).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct City {
    pub name: String,
    pub x: i32,
    pub y: i32,
}

/// One route: one track between two cities (a double route is two of these, twins).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub from: usize,
    pub to: usize,
    /// Its length in wagons, 1 to 6.
    pub length: u8,
    /// Its colour; `None` is grey (any one colour claims it).
    pub colour: Option<Colour>,
    /// The other track of a double route.
    pub twin: Option<usize>,
}

/// A destination ticket: connect `from` and `to` by one's own routes for `points`, or lose
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Ticket {
    pub from: usize,
    pub to: usize,
    pub points: i64,
}

/// A board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub name: String,
    /// Wagons each player starts with.
    pub wagons: u32,
    pub cities: Vec<City>,
    pub routes: Vec<Route>,
    pub tickets: Vec<Ticket>,
    digest: u64,
}

/// The boards this crate carries, by name.
pub const BUILT_IN: [&str; 2] = ["usa", "small"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileBoard {
    map: String,
    wagons_per_player: u32,
    cities: Vec<FileCity>,
    tracks: Vec<FileTrack>,
    objectives: Vec<FileTicket>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCity {
    name: String,
    x: Option<i32>,
    y: Option<i32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileTrack {
    from: String,
    to: String,
    length: u8,
    colors: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileTicket {
    from: String,
    to: String,
    points: i64,
}

impl Board {
    /// The built-in board `name` ([`BUILT_IN`]).
    pub fn built_in(name: &str) -> Option<Board> {
        let text = match name {
            "usa" => include_str!("../boards/usa.json"),
            "small" => include_str!("../boards/small.json"),
            _ => return None,
        };
        Some(Board::parse(text).expect("the built-in boards are valid"))
    }

    /// The board of option `board`: a built-in name, or the path of a board file.
    pub fn load(value: &str) -> Result<Board, String> {
        if let Some(board) = Board::built_in(value) {
            return Ok(board);
        }
        let text = std::fs::read_to_string(value).map_err(|e| {
            format!(
                "option `board`: `{value}` is neither {} nor a readable board file ({e})",
                BUILT_IN.join(" nor ")
            )
        })?;
        Board::parse(&text).map_err(|e| format!("board file `{value}`: {e}"))
    }

    /// The board written in the board file format (JSON: `map`, `wagons_per_player`,
    /// `cities` with `name` and optional `x`, `y`, `tracks` with `from`, `to`, `length` and
    /// one or two `colors`, `objectives` with `from`, `to`, `points`).
    pub fn parse(text: &str) -> Result<Board, String> {
        let file: FileBoard =
            serde_json::from_str(text).map_err(|e| format!("not a board file: {e}"))?;
        if !(1..=255).contains(&file.wagons_per_player) {
            return Err(format!(
                "`wagons_per_player` is {}: give 1 to 255",
                file.wagons_per_player
            ));
        }
        if file.cities.len() < 2 || file.cities.len() > 255 {
            return Err(format!(
                "{} cities: a board has 2 to 255",
                file.cities.len()
            ));
        }
        let mut cities: Vec<City> = Vec::new();
        for (i, c) in file.cities.iter().enumerate() {
            if c.name.trim().is_empty() || cities.iter().any(|k| k.name == c.name) {
                return Err(format!(
                    "city {i} (`{}`): each city needs a name of its own",
                    c.name
                ));
            }
            cities.push(City {
                name: c.name.clone(),
                x: c.x.unwrap_or(0),
                y: c.y.unwrap_or(0),
            });
        }
        let city = |name: &str, what: &str| {
            cities
                .iter()
                .position(|c| c.name == name)
                .ok_or_else(|| format!("{what} names `{name}`, which is no city of the board"))
        };
        let mut routes = Vec::new();
        for (i, t) in file.tracks.iter().enumerate() {
            let what = format!("track {i} ({} - {})", t.from, t.to);
            let (from, to) = (city(&t.from, &what)?, city(&t.to, &what)?);
            if from == to {
                return Err(format!("{what} joins a city to itself"));
            }
            if !(1..=6).contains(&t.length) {
                return Err(format!("{what} has length {}: give 1 to 6", t.length));
            }
            if t.colors.is_empty() || t.colors.len() > 2 {
                return Err(format!(
                    "{what} has {} colours: give one, or two for a double route",
                    t.colors.len()
                ));
            }
            let first = routes.len();
            for name in &t.colors {
                let colour = Colour::from_board(name).ok_or_else(|| {
                    format!(
                        "{what} has colour `{name}`: give Purple, White, Blue, Yellow, \
                         Orange, Black, Red, Green or Multicolor (grey)"
                    )
                })?;
                routes.push(Route {
                    from,
                    to,
                    length: t.length,
                    colour,
                    twin: None,
                });
            }
            if t.colors.len() == 2 {
                routes[first].twin = Some(first + 1);
                routes[first + 1].twin = Some(first);
            }
        }
        let mut tickets = Vec::new();
        for (i, t) in file.objectives.iter().enumerate() {
            let what = format!("objective {i} ({} - {})", t.from, t.to);
            let (from, to) = (city(&t.from, &what)?, city(&t.to, &what)?);
            if from == to || !(1..=99).contains(&t.points) {
                return Err(format!(
                    "{what}: a ticket joins two cities for 1 to 99 points"
                ));
            }
            tickets.push(Ticket {
                from,
                to,
                points: t.points,
            });
        }
        if routes.is_empty() || tickets.len() < 3 || tickets.len() > 999 {
            return Err(format!(
                "{} routes and {} tickets: a board needs routes and 3 to 999 tickets",
                routes.len(),
                tickets.len()
            ));
        }
        let mut board = Board {
            name: file.map,
            wagons: file.wagons_per_player,
            cities,
            routes,
            tickets,
            digest: 0,
        };
        board.digest = game::fnv1a(board.canonical().as_bytes());
        Ok(board)
    }

    /// Every fact of the board in one text (what its digest is made of).
    fn canonical(&self) -> String {
        let mut text = format!("{}\n{}\n", self.name, self.wagons);
        for c in &self.cities {
            text += &format!("{} {} {}\n", c.name, c.x, c.y);
        }
        for r in &self.routes {
            let colour = r.colour.map_or("grey", Colour::name);
            text += &format!("{} {} {} {colour} {:?}\n", r.from, r.to, r.length, r.twin);
        }
        for t in &self.tickets {
            text += &format!("{} {} {}\n", t.from, t.to, t.points);
        }
        text
    }

    /// A digest of everything on the board (a state's digest includes it).
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// The routes between `a` and `b`, either way round.
    pub fn between(&self, a: usize, b: usize) -> impl Iterator<Item = usize> + '_ {
        self.routes
            .iter()
            .enumerate()
            .filter(move |(_, r)| (r.from, r.to) == (a, b) || (r.from, r.to) == (b, a))
            .map(|(i, _)| i)
    }
}

/// The points a route of `length` wagons scores (rule 18).
pub fn route_points(length: u8) -> i64 {
    [0, 1, 2, 4, 7, 10, 15][usize::from(length).min(6)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_boards() {
        let usa = Board::built_in("usa").unwrap();
        assert_eq!(
            (usa.cities.len(), usa.routes.len(), usa.tickets.len()),
            (36, 100, 30)
        );
        assert_eq!(usa.wagons, 45);
        let small = Board::built_in("small").unwrap();
        assert_eq!(
            (small.cities.len(), small.routes.len(), small.tickets.len()),
            (8, 11, 9)
        );
        assert!(small.cities.iter().all(|c| c.x > 0 && c.y > 0));
        assert_ne!(usa.digest(), small.digest());
    }

    #[test]
    fn faults_of_a_board_file_are_named() {
        let good = include_str!("../boards/small.json");
        let bad = |from: &str, to: &str| Board::parse(&good.replacen(from, to, 1)).unwrap_err();
        assert!(bad("\"length\": 6", "\"length\": 7").contains("give 1 to 6"));
        assert!(bad("\"to\": \"Six\"", "\"to\": \"Moon\"").contains("`Moon`"));
        assert!(bad("\"Multicolor\"", "\"Pink\"").contains("colour `Pink`"));
        assert!(bad("\"wagons_per_player\": 15", "\"wagons_per_player\": 0").contains("1 to 255"));
        assert!(bad("\"map\"", "\"mop\"").contains("not a board file"));
        assert!(Board::load("/nonexistent/board.json")
            .unwrap_err()
            .contains("neither usa nor small"));
    }
}
