//! [`Client`]: the [`Api`] (docs/rules.md section 6) spoken over protocol.md v1, and the
//! callback loop.
//!
//! The state is cached from `etat` (protocol.md section 8): marked dirty at the start of
//! each callback and after each action answering `SUCCES`, fetched again by the next cached
//! read. Argument checks (`HORS_TERRAIN`, `JOUEUR_INCORRECT`, `PAS_DE_MONUMENT`) are made
//! locally. `distance`, `route_possible` and `construction_possible`: with
//! [`Client::with_local_rules`] (the kit's own client, [`Client::stdio`]), the engine's own
//! rules (`engine::api::rules`) on the board of the cached `etat`, built once per fill of
//! the cache (2009's cost, a function call, for a champion asking them 500,000 times a
//! callback); else asked of the referee, a round trip each (the conversations the arena's
//! tests keep). Every action goes to the referee.

use crate::etat::{self, Etat};
use engine::api::rules;
use engine::bots::Champion;
use engine::constants::*;
use engine::monument::monument;
use engine::{Api, Board, Callback, Seat};
use std::fmt;
use std::io::{self, BufRead, Write};

/// A failure of the kit itself (not of the game): the referee's side of the protocol went
/// wrong. The champion cannot go on; [`crate::run`] reports it and exits non-zero.
#[derive(Debug)]
pub enum KitError {
    /// Reading or writing the protocol failed.
    Io(io::Error),
    /// The input ended in the middle of a callback or before `end_game`.
    Eof(String),
    /// A line that is not a callback name where one was expected.
    UnknownCallback(String),
    /// An answer that is not an integer.
    BadAnswer { request: String, answer: String },
    /// An `etat` answer that does not parse.
    BadEtat(etat::EtatError),
}

impl fmt::Display for KitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KitError::Io(e) => write!(f, "protocol I/O failed: {e}"),
            KitError::Eof(when) => write!(f, "the referee closed the input {when}"),
            KitError::UnknownCallback(line) => write!(
                f,
                "expected a callback name (init_game, jouer, enchere, placement, end_game), \
                 got `{}`",
                line.chars().take(60).collect::<String>()
            ),
            KitError::BadAnswer { request, answer } => write!(
                f,
                "the answer to `{request}` is not an integer: `{}`",
                answer.chars().take(60).collect::<String>()
            ),
            KitError::BadEtat(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for KitError {}

impl From<io::Error> for KitError {
    fn from(e: io::Error) -> KitError {
        KitError::Io(e)
    }
}

/// What every API function answers once the kit has failed: the contestant's callback runs
/// to its end without more I/O, then [`Client::run`] returns the error.
const BROKEN: i32 = ACTION_INTERDITE;

/// The API of one champion over the protocol: requests on `writer`, answers on `reader`.
///
/// ```
/// use engine::Api;
/// let input = b"42\n" as &[u8];
/// let mut client = loi_protocol::Client::new(input, Vec::new());
/// assert_eq!(client.distance(50, 50, 51, 50), 42);
/// assert_eq!(client.type_case(-1, 0), engine::constants::HORS_TERRAIN); // no round trip
/// assert_eq!(client.into_writer(), b"distance 50 50 51 50\n");
/// ```
pub struct Client<R, W> {
    reader: R,
    writer: W,
    cache: Option<Etat>,
    /// The board of `cache`, built at the first rule asked of it.
    board: Option<Board>,
    /// Whether the rules of the board are answered here (else asked).
    local_rules: bool,
    error: Option<KitError>,
    line: String,
}

impl<R: BufRead, W: Write> Client<R, W> {
    /// A client reading the referee's lines from `reader` and writing to `writer`.
    pub fn new(reader: R, writer: W) -> Client<R, W> {
        Client {
            reader,
            writer,
            cache: None,
            board: None,
            local_rules: false,
            error: None,
            line: String::new(),
        }
    }

    /// This client answering `distance`, `route_possible` and `construction_possible` from
    /// the cached `etat` with the engine's rules, without a round trip.
    pub fn with_local_rules(mut self) -> Self {
        self.local_rules = true;
        self
    }

    /// The writer back, e.g. to look at what was sent.
    pub fn into_writer(self) -> W {
        self.writer
    }

    /// Play callbacks until the input ends after `end_game`: read a callback name, run
    /// the champion's hook, send `fin`.
    pub fn run(&mut self, champion: &mut dyn Champion) -> Result<(), KitError> {
        let mut ended = false;
        loop {
            let Some(line) = self.read_line()? else {
                return if ended {
                    Ok(())
                } else {
                    Err(KitError::Eof("while waiting for a callback".into()))
                };
            };
            let callback = Callback::from_name(line.trim_ascii())
                .ok_or_else(|| KitError::UnknownCallback(line.clone()))?;
            self.cache = None;
            champion.play(callback, self);
            if let Some(error) = self.error.take() {
                return Err(error);
            }
            self.writer.write_all(b"fin\n")?;
            self.writer.flush()?;
            ended |= callback == Callback::EndGame;
        }
    }

    /// The next line without its end, `None` at end of input.
    fn read_line(&mut self) -> Result<Option<String>, KitError> {
        self.line.clear();
        if self.reader.read_line(&mut self.line)? == 0 {
            return Ok(None);
        }
        let line = self.line.strip_suffix('\n').unwrap_or(&self.line);
        Ok(Some(line.strip_suffix('\r').unwrap_or(line).to_string()))
    }

    /// Send `request`, read its answer line.
    fn exchange(&mut self, request: &str) -> Result<String, KitError> {
        self.writer.write_all(request.as_bytes())?;
        self.writer.write_all(b"\n")?;
        self.writer.flush()?;
        self.read_line()?
            .ok_or_else(|| KitError::Eof(format!("waiting for the answer to `{request}`")))
    }

    /// Ask the referee; `BROKEN` once the kit has failed.
    fn ask(&mut self, request: String) -> i32 {
        if self.error.is_some() {
            return BROKEN;
        }
        let answer = self.exchange(&request).and_then(|answer| {
            answer
                .trim_ascii()
                .parse()
                .map_err(|_| KitError::BadAnswer { request, answer })
        });
        answer.unwrap_or_else(|e| {
            self.error = Some(e);
            BROKEN
        })
    }

    /// Run an action on the referee; a success makes the cache dirty.
    fn act(&mut self, request: String) -> i32 {
        let result = self.ask(request);
        if result == SUCCES {
            self.cache = None;
        }
        result
    }

    /// The cached state, fetched with `etat` when dirty; `None` once the kit has failed.
    pub fn etat(&mut self) -> Option<&Etat> {
        if self.cache.is_none() && self.error.is_none() {
            match self
                .exchange("etat")
                .and_then(|line| etat::decode(&line).map_err(KitError::BadEtat))
            {
                Ok(etat) => {
                    self.cache = Some(etat);
                    self.board = None;
                }
                Err(e) => self.error = Some(e),
            }
        }
        self.cache.as_ref()
    }

    fn cached(&mut self, read: impl FnOnce(&Etat) -> i32) -> i32 {
        self.etat().map_or(BROKEN, read)
    }

    /// A rule of the board, answered from the cached state's board for `Seat(0)` (the
    /// champion itself, as `etat` numbers the players).
    fn rule(&mut self, answer: impl FnOnce(&Board, Seat) -> i32) -> i32 {
        if self.etat().is_some() && self.board.is_none() {
            self.board = self.cache.as_ref().map(Etat::board);
        }
        self.board
            .as_ref()
            .map_or(BROKEN, |board| answer(board, Seat(0)))
    }

    /// A cell query: off the map is answered locally.
    fn cell(&mut self, x: i32, y: i32, read: impl FnOnce(&Etat) -> i32) -> i32 {
        if !(0..TAILLE_CARTE).contains(&x) || !(0..TAILLE_CARTE).contains(&y) {
            return HORS_TERRAIN;
        }
        self.cached(read)
    }

    /// A player query: a bad id is answered locally.
    fn of_player(&mut self, j: i32, read: impl FnOnce(&Etat) -> i32) -> i32 {
        if !(0..3).contains(&j) {
            return JOUEUR_INCORRECT;
        }
        self.cached(read)
    }
}

impl<R: BufRead, W: Write> Api for Client<R, W> {
    fn type_case(&mut self, x: i32, y: i32) -> i32 {
        self.cell(x, y, |e| e.type_case(x, y))
    }

    fn valeur_case(&mut self, x: i32, y: i32) -> i32 {
        self.cell(x, y, |e| e.valeur_case(x, y))
    }

    fn appartenance(&mut self, x: i32, y: i32) -> i32 {
        self.cell(x, y, |e| e.appartenance(x, y))
    }

    fn type_monument(&mut self, x: i32, y: i32) -> i32 {
        self.cell(x, y, |e| e.type_monument(x, y))
    }

    fn portee_monument(&mut self, num_monument: i32) -> i32 {
        monument(num_monument).map_or(PAS_DE_MONUMENT, |m| m.range)
    }

    fn prestige_monument(&mut self, num_monument: i32) -> i32 {
        monument(num_monument).map_or(PAS_DE_MONUMENT, |m| m.prestige)
    }

    fn numero_tour(&mut self) -> i32 {
        self.cached(|e| e.numero_tour)
    }

    fn commence(&mut self) -> i32 {
        self.cached(|e| e.commence)
    }

    fn montant_encheres(&mut self, num_joueur: i32) -> i32 {
        self.of_player(num_joueur, |e| e.montant_encheres(num_joueur))
    }

    fn vainqueur_encheres(&mut self) -> i32 {
        self.cached(|e| e.vainqueur_encheres)
    }

    fn score(&mut self, num_joueur: i32) -> i32 {
        self.of_player(num_joueur, |e| e.score(num_joueur))
    }

    fn finances(&mut self, num_joueur: i32) -> i32 {
        self.of_player(num_joueur, |e| e.finances(num_joueur))
    }

    fn monument_en_cours(&mut self) -> i32 {
        self.cached(|e| e.monument_en_cours)
    }

    fn distance(&mut self, x1: i32, y1: i32, x2: i32, y2: i32) -> i32 {
        if !self.local_rules {
            return self.ask(format!("distance {x1} {y1} {x2} {y2}"));
        }
        self.rule(|board, me| rules::distance_for(board, me, x1, y1, x2, y2))
    }

    fn route_possible(&mut self, x: i32, y: i32) -> i32 {
        if !self.local_rules {
            return self.ask(format!("route_possible {x} {y}"));
        }
        self.rule(|board, me| rules::route_possible_for(board, me, x, y))
    }

    fn construction_possible(&mut self, x: i32, y: i32) -> i32 {
        if !self.local_rules {
            return self.ask(format!("construction_possible {x} {y}"));
        }
        self.rule(|board, me| rules::construction_possible_for(board, me, x, y))
    }

    fn cout_achat_maison(&mut self) -> i32 {
        self.cached(|e| e.cout_achat_maison)
    }

    fn cout_achat_route(&mut self) -> i32 {
        self.cached(|e| e.cout_achat_route)
    }

    fn mon_tour(&mut self) -> i32 {
        if self.error.is_some() {
            return 0;
        }
        self.cached(|e| e.mon_tour)
    }

    fn construire_route(&mut self, x: i32, y: i32) -> i32 {
        self.act(format!("construire_route {x} {y}"))
    }

    fn construire_maison(&mut self, x: i32, y: i32) -> i32 {
        self.act(format!("construire_maison {x} {y}"))
    }

    fn reserver_case(&mut self, x: i32, y: i32) -> i32 {
        self.act(format!("reserver_case {x} {y}"))
    }

    fn detruire_maison(&mut self, x: i32, y: i32) -> i32 {
        self.act(format!("detruire_maison {x} {y}"))
    }

    fn vendre_maison(&mut self, x: i32, y: i32) -> i32 {
        self.act(format!("vendre_maison {x} {y}"))
    }

    fn encherir(&mut self, montant: i32) -> i32 {
        self.act(format!("encherir {montant}"))
    }

    fn construire_monument(&mut self, x: i32, y: i32) -> i32 {
        self.act(format!("construire_monument {x} {y}"))
    }
}
