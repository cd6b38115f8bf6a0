//! The tournaments a server plays (docs/server.md, section 6), of every game served: a
//! registered client joins with `WAIT_GAME TOURNAMENT <name> token=<token>` and waits there
//! (sent `NOT_READY` as in the lobby) for each of its games, one waiter per member (a new
//! wait of the member replaces the old), in the subject's protocol or its game's own
//! (`protocol=lines`, a kit's: each game the connection's last, the member back on a new
//! one for its next); a watcher takes the tournaments the organiser started (the store's
//! `starting`) and a director plays each one's rounds, seeded by the tournament's secret
//! draw, its matches at once on threads of their own (a knockout meeting the best of the
//! plan's `best_of` games), with the members' connections taken
//! from here (once every player of a game waits) and given back after each game. A member
//! gone, or not waiting for its game in time (its first within [`super::session::IDLE`],
//! the next within the tournament's turn clock, `--timeout`), plays it with a closed
//! connection: it is lost by a `crash` fault, recorded, and the tournament goes on; a game
//! every seat of which faulted counts for no one.

use super::address::Source;
use super::games::Served;
use super::remote::Link;
use super::request::Training;
use super::tournament_plan::{self as plan, Format};
use super::tournament_store::TournamentRow;
use super::wire::Conn;
use super::Server;
use crate::standings::{MatchRow, PointsTable};
use jail::untrusted::printable;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::net::{TcpListener, TcpStream};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How many times at most a knockout game is played while it counts for no one.
const KNOCKOUT_TRIES: usize = 3;

/// How often the watcher looks for tournaments the organiser started.
const WATCH_EVERY: Duration = Duration::from_millis(250);

/// Where a member's connection is.
enum Slot {
    /// With its session (between two games), or never connected since the start.
    Away,
    /// Here, waiting for its next game.
    Waiting(Link),
    /// In a game.
    Playing,
    /// Given back after a game, with the loss to tell.
    Back(Link, Option<String>),
    /// Its game in its game's own protocol ended, and the connection with it (a kit's game
    /// is its connection's last): it comes back on a new one for its next game.
    Between,
    /// Its client left (its closed connection, if it was here).
    Gone(Option<Link>),
    /// The tournament is over (its members were told).
    Over,
}

/// One player of one tournament.
struct Member {
    slot: Mutex<Slot>,
    changed: Condvar,
    /// The number of the member's latest wait: an older wait's thread returns.
    owner: std::sync::atomic::AtomicU64,
    /// A game of the tournament was played for it: its next one waits for it a turn's
    /// clock at most (the tournament's `--timeout`), not [`super::session::IDLE`].
    played: AtomicBool,
}

impl Member {
    fn slot(&self) -> MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, slot: Slot) {
        *self.slot() = slot;
        self.changed.notify_all();
    }
}

/// The members of the tournaments, by (tournament, player).
#[derive(Default)]
pub struct Tournaments {
    members: Mutex<Members>,
}

/// The members of the tournaments in play, and the names of those over: a member asked
/// of one over (its client's `WAIT_GAME` answered `OK` while its last game ended) is over
/// too, never a new member waiting for a game no director will play.
#[derive(Default)]
struct Members {
    playing: HashMap<(String, String), Arc<Member>>,
    over: HashSet<String>,
}

impl Tournaments {
    fn members(&self) -> MutexGuard<'_, Members> {
        self.members.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The member `player` of `tournament`, made if new (away); in `Slot::Over` once the
    /// tournament is over.
    fn member(&self, tournament: &str, player: &str) -> Arc<Member> {
        let new = |slot| {
            Arc::new(Member {
                slot: Mutex::new(slot),
                changed: Condvar::new(),
                owner: std::sync::atomic::AtomicU64::new(0),
                played: AtomicBool::new(false),
            })
        };
        let mut members = self.members();
        if members.over.contains(tournament) {
            return new(Slot::Over);
        }
        let key = (tournament.to_string(), player.to_string());
        Arc::clone(
            members
                .playing
                .entry(key)
                .or_insert_with(|| new(Slot::Away)),
        )
    }

    /// The client `player` disconnected: in the tournaments where it is not waiting, it is
    /// gone (its games are lost by a fault at once, not after a wait).
    pub fn left(&self, player: &str) {
        for ((_, p), member) in self.members().playing.iter() {
            if p == player && matches!(*member.slot(), Slot::Away) {
                member.set(Slot::Gone(None));
            }
        }
    }

    /// `tournament` is over: its waiting members are sent `message` (without waiting:
    /// the lock of every member is held) and disconnected. A member whose last game was
    /// given back and not yet taken by its thread keeps it: its end is told, and its next
    /// request is answered that the tournament is over (its connection is not cut).
    fn over(&self, tournament: &str, message: &str) {
        let mut members = self.members();
        members.over.insert(tournament.to_string());
        members.playing.retain(|(t, _), member| {
            if t != tournament {
                return true;
            }
            let mut slot = member.slot();
            match std::mem::replace(&mut *slot, Slot::Over) {
                Slot::Waiting(mut link) => {
                    let _ = link.conn.try_send(message);
                }
                back @ Slot::Back(..) => *slot = back,
                _ => {}
            }
            member.changed.notify_all();
            false
        });
    }
}

/// Whether `command` asks a tournament's game (`WAIT_GAME TOURNAMENT ...`).
pub fn is_asked(command: &str) -> bool {
    let mut words = command.split_whitespace();
    words.next() == Some("WAIT_GAME") && words.next() == Some("TOURNAMENT")
}

/// `WAIT_GAME TOURNAMENT <name> [token=...]` of the client `name` (its token proven by the
/// session): it joins the tournament (or is back in it), answered `OK`, and waits for its next game there, then plays it;
/// its connection back after the game, or `None` when it left, was refused or the
/// tournament is over.
pub fn wait(
    server: &Server,
    source: Source,
    name: &str,
    link: Rc<RefCell<Link>>,
    command: &str,
) -> Option<Rc<RefCell<Link>>> {
    // Within the log's bound of the client's source, as every refusal (a client asking in
    // a loop writes no more than its share).
    let refuse = |message: String| {
        let _ = link.borrow_mut().conn.send(&message);
        server.refusals.say(
            source,
            &format!("client {name}: refused: {}", printable(&message)),
        );
        None
    };
    let terms: Vec<&str> = command.split_whitespace().skip(2).collect();
    let Some(tournament) = terms.first() else {
        return refuse(
            "Bad protocol: send 'WAIT_GAME TOURNAMENT <NAME> [token=<token>]'".to_string(),
        );
    };
    // A tournament's name is a client's name: any other is none, quoted cut.
    if super::request::valid_name(tournament).is_err() {
        return refuse(format!(
            "The tournament '{}' doesn't exist",
            super::request::quoted_cut(tournament)
        ));
    }
    let tournament = tournament.to_string();
    // Its protocol checked before it joins: a member refused is not one.
    let lines = match speaks(server, &tournament, &terms[1..]) {
        Ok(lines) => lines,
        Err(message) => return refuse(message),
    };
    if let Err(message) = server.store.join(&tournament, name) {
        return refuse(message);
    }
    if link.borrow_mut().conn.send("OK").is_err() {
        return None;
    }
    server.connection_lines.say(
        source,
        &format!("client {name}: waits in tournament {tournament}"),
    );
    let member = server.tournaments.member(&tournament, name);
    let mut own = Rc::into_inner(link)?.into_inner();
    own.lines = lines;
    // This wait owns the member now: a wait of before (a connection the client left, its
    // thread still here) returns at its next wake.
    let owner = member.owner.fetch_add(1, Ordering::SeqCst) + 1;
    let superseded = || member.owner.load(Ordering::SeqCst) != owner;
    {
        let mut slot = member.slot();
        if let Slot::Over = *slot {
            drop(slot);
            let mut own = own;
            let _ = own
                .conn
                .send(&format!("The tournament '{tournament}' is over"));
            return None;
        }
        // The connection of a wait of before, if it was here: told (without waiting: the
        // slot's lock is held) and closed.
        if let Slot::Waiting(mut old) = std::mem::replace(&mut *slot, Slot::Waiting(own)) {
            let _ = old.conn.try_send(&format!(
                "A new connection of '{name}' waits in the tournament '{tournament}' now: \
                 this one is closed"
            ));
        }
        member.changed.notify_all();
    }
    let mut pause = super::lobby::FIRST_NOT_READY;
    loop {
        let slot = member.slot();
        let (mut slot, _) = member
            .changed
            .wait_timeout_while(slot, pause, |s| {
                !superseded()
                    && !matches!(
                        s,
                        Slot::Back(..) | Slot::Between | Slot::Gone(_) | Slot::Over | Slot::Away
                    )
            })
            .unwrap_or_else(|e| e.into_inner());
        pause = super::lobby::NOT_READY_EVERY;
        if superseded() {
            // The slot holds the new connection: not this thread's.
            println!("client {name}: a newer connection waits in tournament {tournament}");
            return None;
        }
        match std::mem::replace(&mut *slot, Slot::Away) {
            Slot::Back(back, loss) => {
                drop(slot);
                let back = Rc::new(RefCell::new(back));
                // Waited at most a turn's clock: the member's next game waits for it.
                let turn = server
                    .store
                    .tournament(&tournament)
                    .ok()
                    .flatten()
                    .map_or(super::session::IDLE, |t| {
                        Duration::from_secs(t.timeout.into())
                    });
                super::session::tell_loss_within(&back, loss.as_deref(), turn);
                return Some(back);
            }
            Slot::Playing => *slot = Slot::Playing,
            Slot::Waiting(mut link) => {
                // Without waiting, as the lobby's: the slot's lock is the organiser's too.
                if link.conn.try_send("NOT_READY").is_ok() && link.conn.is_alive() {
                    *slot = Slot::Waiting(link);
                    continue;
                }
                *slot = Slot::Gone(Some(link));
                return None;
            }
            Slot::Over => {
                *slot = Slot::Over;
                return None;
            }
            other @ (Slot::Gone(_) | Slot::Away | Slot::Between) => {
                *slot = other;
                return None;
            }
        }
    }
}

/// Whether a member of `tournament` whose `WAIT_GAME` gave `options` speaks its game's own
/// line protocol, or the message of its refusal: `game=`, if given, must be the
/// tournament's; `protocol=` as for any game ([`super::request::lines`]).
fn speaks(server: &Server, tournament: &str, options: &[&str]) -> Result<bool, String> {
    let game = match server.store.tournament(tournament) {
        Ok(Some(row)) => row.game,
        Ok(None) => return Err(format!("The tournament '{tournament}' doesn't exist")),
        Err(_) => return Err("The server cannot read its store; try again later".to_string()),
    };
    if let Some(asked) = options.iter().find_map(|o| o.strip_prefix("game=")) {
        if asked != game {
            return Err(format!(
                "The tournament '{tournament}' plays {game}, not '{}': join it with game={game} \
                 (or no game=)",
                super::request::quoted_cut(asked)
            ));
        }
    }
    super::request::lines(&game, super::request::protocol_of(options)?)
}

/// Starts the thread that takes the tournaments the organiser started, each played by a
/// director thread of its own.
pub fn watch(server: &Arc<Server>) {
    let server = Arc::clone(server);
    let _ = std::thread::Builder::new()
        .name("tournaments".into())
        .spawn(move || loop {
            match server.store.take_started() {
                Ok(started) => {
                    for row in started {
                        let server = Arc::clone(&server);
                        let _ = std::thread::Builder::new()
                            .name("tournament".into())
                            .spawn(move || direct(&server, &row));
                    }
                }
                Err(e) => println!("tournaments: the store cannot be read: {e:#}"),
            }
            std::thread::sleep(WATCH_EVERY);
        });
}

/// One tournament being played.
struct Director<'a> {
    server: &'a Server,
    row: &'a TournamentRow,
    /// Its game.
    game: Served,
    /// The game's points table: its standings' and its knockout meetings'.
    points: PointsTable,
    /// Its players in their seeding order (best seed first): the indices of its games.
    players: Vec<String>,
    members: Vec<Arc<Member>>,
    /// The seed of its seeding, and of its standings' bootstrap (`confidence.rs`).
    seed: u64,
    /// Every game played, as rows of results (ids in order).
    rows: Mutex<Vec<MatchRow>>,
}

/// Plays tournament `row` to its end: its games, its standings, its winner.
fn direct(server: &Server, row: &TournamentRow) {
    let t = &row.name;
    let Some(game) = Served::by_name(&row.game) else {
        println!(
            "tournament {t}: its game {:?} is not one this server plays ({}): not played",
            printable(&row.game),
            super::games::names()
        );
        return;
    };
    // A tournament started before seeds were drawn has none: drawn now.
    let seed = row.seed.unwrap_or_else(rand::random);
    let players: Vec<String> = plan::seeding(row.players.len(), seed)
        .into_iter()
        .map(|i| row.players[i].clone())
        .collect();
    println!(
        "tournament {t}: starts ({}, {}, {} players, seeded by the draw: {})",
        row.game,
        row.plan.format.name(),
        players.len(),
        players.join(", ")
    );
    let director = Director {
        server,
        row,
        game,
        points: game.runner().points(),
        members: players
            .iter()
            .map(|p| server.tournaments.member(t, p))
            .collect(),
        players,
        seed,
        rows: Mutex::new(Vec::new()),
    };
    let all: Vec<usize> = (0..director.players.len()).collect();
    let winner = match row.plan.format {
        Format::League => Some(director.league(&all)),
        Format::SingleElimination => director.knockout(all),
        Format::PoolsKnockout => {
            let pools = plan::split(&all, row.plan.pool);
            let ranked = director.pools(&pools);
            // The pools' firsts, then their seconds...: firsts meet seconds, not firsts.
            let mut seeded = Vec::new();
            for place in 0..row.plan.qualify {
                seeded.extend(ranked.iter().filter_map(|r| r.get(place).copied()));
            }
            director.went_on("pools", &seeded);
            director.knockout(seeded)
        }
    };
    let rows = director
        .rows
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    // The winner has played: a counted game of its own without a fault (none counted,
    // every one lost by all its seats: nobody won).
    let winner = winner
        .filter(|&p| rows.iter().any(|r| !director.faulted(r, p)))
        .map_or(String::new(), |p| director.players[p].clone());
    let players = director.players;
    let standings =
        super::tournament_results::standings(director.points, &players, row.plan.seats, &rows);
    let dir = server.results.join("tournaments").join(t);
    let winner = &winner;
    if let Err(e) = super::tournament_results::write(&dir, &standings, seed) {
        println!("tournament {t}: its standings could not be written: {e:#}");
    }
    let ranked: Vec<(usize, String, u64)> = standings
        .ranked()
        .iter()
        .map(|(rank, name, line)| (*rank, name.to_string(), line.points))
        .collect();
    if let Err(e) = server.store.finish_tournament(t, winner, &ranked) {
        println!("tournament {t}: the store could not note its end: {e:#}");
    }
    server.web.tournament_changed(t);
    let outcome = match winner.is_empty() {
        true => "no game counted, no winner".to_string(),
        false => format!("{winner} wins"),
    };
    server
        .tournaments
        .over(t, &format!("The tournament '{t}' is over: {outcome}"));
    println!(
        "tournament {t}: over after {} counted games; {outcome}; standings {}",
        rows.len(),
        dir.join("leaderboard.csv").display()
    );
}

impl Director<'_> {
    /// A league among `players`: its winner by the standings of its games.
    fn league(&self, players: &[usize]) -> usize {
        self.pools(&[players.to_vec()])[0][0]
    }

    /// A league in each pool, the pools' games played side by side: each pool's players
    /// ranked by the standings of its games.
    fn pools(&self, pools: &[Vec<usize>]) -> Vec<Vec<usize>> {
        let seats = self.row.plan.seats;
        let mut leagues = Vec::new();
        for pool in pools {
            let size = seats.min(pool.len());
            if size >= 2 {
                leagues.push(plan::league(pool, size, self.row.plan.rounds));
            }
        }
        let phase = if pools.len() == 1 { "league" } else { "pools" };
        for round in plan::side_by_side(leagues) {
            self.round(phase, &round);
        }
        let rows = self.rows.lock().unwrap_or_else(|e| e.into_inner()).clone();
        pools
            .iter()
            .map(|pool| {
                let names: Vec<String> = pool.iter().map(|&p| self.players[p].clone()).collect();
                let own: Vec<MatchRow> = rows
                    .iter()
                    .filter(|r| r.champions.iter().all(|c| names.contains(c)))
                    .cloned()
                    .collect();
                let standings =
                    super::tournament_results::standings(self.points, &names, seats, &own);
                // Equal standings: the better seed (the draw's, never the name) first.
                let mut ranked: Vec<(usize, usize)> = standings
                    .ranked()
                    .iter()
                    .filter_map(|(rank, name, _)| {
                        let p = pool.iter().copied().find(|&p| self.players[p] == *name)?;
                        Some((*rank, p))
                    })
                    .collect();
                ranked.sort();
                ranked.into_iter().map(|(_, p)| p).collect()
            })
            .collect()
    }

    /// A knockout among `players` (best seeded first) until one is left: its winner, if
    /// one is left. Each meeting is the best of the plan's `best_of` games
    /// ([`Self::meetings`]); if none of its games counted, nobody of its group goes on, and
    /// nobody who lost every game of it by a fault goes on: a member who played nothing
    /// never wins.
    fn knockout(&self, mut players: Vec<usize>) -> Option<usize> {
        let (seats, advance) = (self.row.plan.seats, self.row.plan.advance);
        let mut stage = 1;
        while players.len() > 1 {
            let groups = plan::split(&players, seats);
            let phase = if groups.len() == 1 {
                "final".to_string()
            } else {
                format!("knockout {stage}")
            };
            let played: Vec<Vec<usize>> = groups.iter().filter(|g| g.len() > 1).cloned().collect();
            let meetings = self.meetings(&phase, &played);
            let mut next = Vec::new();
            for group in &groups {
                let n = plan::going_on(group.len(), advance);
                match played.iter().position(|g| g == group) {
                    None => next.extend(group),
                    Some(i) if meetings[i].is_empty() => println!(
                        "tournament {}: {phase}: no game of {} counted: none of them goes on",
                        self.row.name,
                        self.names(group)
                    ),
                    Some(i) => {
                        let rows = &meetings[i];
                        let ranked = super::tournament_results::ranked(group, &self.players, rows);
                        let going: Vec<usize> = ranked
                            .iter()
                            .copied()
                            .filter(|&p| {
                                !super::tournament_results::meeting(rows, &self.players[p]).1
                            })
                            .take(n)
                            .collect();
                        if self.row.plan.best_of > 1 {
                            self.said_meeting(&phase, &ranked, rows);
                        }
                        next.extend(going);
                    }
                }
            }
            self.went_on(&phase, &next);
            players = next;
            stage += 1;
            if groups.len() == 1 {
                break;
            }
        }
        players.first().copied()
    }

    /// Plays the knockout meetings `groups` of `phase` side by side, each the best of the
    /// plan's `best_of` games (each game's seats drawn by its seed, as every game's): a meeting ends once those
    /// going on cannot be caught on points ([`plan::decided`]), or its games are played. A
    /// game that counts for no one is played again, [`KNOCKOUT_TRIES`] times in a row at
    /// most. Each meeting's counted games.
    fn meetings(&self, phase: &str, groups: &[Vec<usize>]) -> Vec<Vec<MatchRow>> {
        let plan = &self.row.plan;
        let most = u64::from(self.points.first().copied().unwrap_or(0));
        let mut counted: Vec<Vec<MatchRow>> = vec![Vec::new(); groups.len()];
        let mut missed = vec![0; groups.len()];
        loop {
            let on: Vec<usize> = (0..groups.len())
                .filter(|&i| {
                    let rows = &counted[i];
                    let points: Vec<u64> = groups[i]
                        .iter()
                        .map(|&p| super::tournament_results::meeting(rows, &self.players[p]).0)
                        .collect();
                    let left = plan.best_of.saturating_sub(rows.len() as u32);
                    let n = plan::going_on(groups[i].len(), plan.advance);
                    missed[i] < KNOCKOUT_TRIES && !plan::decided(&points, n, left, most)
                })
                .collect();
            if on.is_empty() {
                return counted;
            }
            let seated: Vec<Vec<usize>> = on.iter().map(|&i| groups[i].clone()).collect();
            let mut again = 0;
            for (&i, row) in on.iter().zip(self.round(phase, &seated)) {
                match row {
                    Some(row) => {
                        counted[i].push(row);
                        missed[i] = 0;
                    }
                    None => {
                        missed[i] += 1;
                        again += usize::from(missed[i] < KNOCKOUT_TRIES);
                    }
                }
            }
            if again > 0 {
                println!(
                    "tournament {}: {phase}: {again} game(s) counted for no one, played again",
                    self.row.name
                );
            }
        }
    }

    /// Logs a best-of meeting's outcome: its players (`ranked`, first first) with their
    /// points over its games `rows`.
    fn said_meeting(&self, phase: &str, ranked: &[usize], rows: &[MatchRow]) {
        let scores: Vec<String> = ranked
            .iter()
            .map(|&p| {
                let name = &self.players[p];
                format!(
                    "{name} {}",
                    super::tournament_results::meeting(rows, name).0
                )
            })
            .collect();
        println!(
            "tournament {}: {phase}: meeting of {} game(s): {}",
            self.row.name,
            rows.len(),
            scores.join(", ")
        );
    }

    /// Whether `p` lost the game `row` by a fault (or had no seat in it).
    fn faulted(&self, row: &MatchRow, p: usize) -> bool {
        let seat = row.champions.iter().position(|c| *c == self.players[p]);
        seat.is_none_or(|s| row.faults[s].is_some())
    }

    /// The names of the players `group`, for the log.
    fn names(&self, group: &[usize]) -> String {
        let names: Vec<&str> = group.iter().map(|&p| self.players[p].as_str()).collect();
        names.join(", ")
    }

    /// Plays the matches of one round at once; their rows in the same order, `None` for a
    /// game that counts for no one (every seat lost by a fault, or the server could not
    /// play it).
    fn round(&self, phase: &str, matches: &[Vec<usize>]) -> Vec<Option<MatchRow>> {
        std::thread::scope(|scope| {
            let games: Vec<_> = matches
                .iter()
                .map(|group| scope.spawn(move || self.game(phase, group)))
                .collect();
            games
                .into_iter()
                .map(|game| game.join().ok().flatten())
                .collect()
        })
    }

    /// One game of the players of `group`, in this order; its row of results (`None` if
    /// it counts for no one: the server could not play it, or every seat faulted).
    fn game(&self, phase: &str, group: &[usize]) -> Option<MatchRow> {
        let t = &self.row.name;
        // A member is waited for a turn's clock once it played a game of the tournament
        // (it asks its next game as soon as one ends: a member slower than a turn would
        // hold every game of its own at no cost), [`super::session::IDLE`] for its first.
        let start = Instant::now();
        let turn = Duration::from_secs(self.row.timeout.into());
        let deadline = |p: usize| match self.members[p].played.load(Ordering::SeqCst) {
            true => start + turn,
            false => start + super::session::IDLE,
        };
        // Taken once every player is here (or gone, or late): those waiting meanwhile are
        // sent `NOT_READY` by their own wait.
        for &p in group {
            ready(&self.members[p], deadline(p));
        }
        let mut seats = Vec::new();
        // What a seat's fault says when its member is not there by its deadline.
        let late = |p: usize| match self.members[p].played.load(Ordering::SeqCst) {
            true => format!(
                "absent: did not ask its next game of tournament {t} (WAIT_GAME) within \
                 the tournament's turn clock of {} s",
                turn.as_secs()
            ),
            false => format!(
                "absent: not waiting for its first game of tournament {t} within {} s",
                super::session::IDLE.as_secs()
            ),
        };
        // A member's connection is seated only while the token it proved is the name's: a
        // token the organiser replaced since (`register` again) plays no game.
        let proves = |p: usize, link: &Link| {
            let name = &self.players[p];
            let proved = super::session::proves(self.server, name, link);
            if let Err(why) = &proved {
                println!(
                    "tournament {t}: {phase}: {name}'s waiting connection is let go, not seated: {}",
                    printable(why)
                );
            }
            proved
        };
        for &p in group {
            match take(&self.members[p], deadline(p), || late(p), |l| proves(p, l)) {
                Ok((link, own)) => {
                    seats.push((self.players[p].clone(), Rc::new(RefCell::new(link)), own))
                }
                Err(e) => {
                    println!("tournament {t}: {phase}: a game could not be played: {e}");
                    // Those taken wait on for a game (they were sent nothing).
                    for ((_, link, own), &p) in seats.into_iter().zip(group) {
                        if let (Some(link), true) = (Rc::into_inner(link), own) {
                            self.members[p].set(Slot::Waiting(link.into_inner()));
                        }
                    }
                    return None;
                }
            }
        }
        let players: Vec<(String, Rc<RefCell<Link>>)> = seats
            .iter()
            .map(|(n, l, _)| (n.clone(), Rc::clone(l)))
            .collect();
        // Each member's protocol is its connection's (its `WAIT_GAME`'s); the board is
        // Ticket to Ride's only option.
        let wanted = Training {
            game: self.game.runner().name(),
            lines: self.game != Served::TICKET,
            bot: None,
            seats: group.len(),
            timeout: Duration::from_secs(self.row.timeout.into()),
            seed: None,
            first: None,
            board: if self.row.map == "small" {
                "small"
            } else {
                "usa"
            },
            token: None,
        };
        let kind = super::session::Kind::Tournament { name: t, phase };
        let played = super::session::play_game(self.server, &players, &wanted, kind, None);
        drop(players);
        for &p in group {
            self.members[p].played.store(true, Ordering::SeqCst);
        }
        let (losses, row) = match played {
            Ok((losses, game, record)) => {
                println!("tournament {t}: {phase}: game {game} played");
                let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
                let mut row = record.row(self.points, String::new());
                row.id = rows.len() as u64;
                // A game every seat lost by a fault counts for no one.
                let counted = row.faults.iter().any(Option::is_none);
                if counted {
                    rows.push(row.clone());
                    // The standings so far, for the site (under the lock: one writer).
                    self.write_standings(&rows);
                }
                (losses, counted.then_some(row))
            }
            Err(e) => {
                // As for a free game: the players were told and are disconnected (where the
                // game stopped is not known), and lose the tournament's next games.
                println!("tournament {t}: {phase}: a game could not be played: {e:#}");
                (vec![None; group.len()], None)
            }
        };
        for ((&p, (_, link, own)), loss) in group.iter().zip(seats).zip(losses) {
            let Some(link) = Rc::into_inner(link).map(RefCell::into_inner) else {
                continue;
            };
            if own {
                // Unless the client came back on a new connection meanwhile.
                let member = &self.members[p];
                let mut slot = member.slot();
                if let Slot::Playing = *slot {
                    // A game in its game's own protocol closed its connection as it ends:
                    // the member is back on a new one (or late) for its next game.
                    *slot = match (link.close, link.lines) {
                        (true, true) => Slot::Between,
                        (true, false) => Slot::Gone(Some(link)),
                        (false, _) => Slot::Back(link, loss),
                    };
                    member.changed.notify_all();
                }
            }
        }
        self.server.web.tournament_changed(t);
        row
    }

    /// Notes who went on from `phase` (indices of `players`): the bracket of its page.
    fn went_on(&self, phase: &str, players: &[usize]) {
        let t = &self.row.name;
        let names: Vec<&str> = players.iter().map(|&p| self.players[p].as_str()).collect();
        if let Err(e) = self.server.store.went_on(t, phase, &names) {
            println!("tournament {t}: the store could not note who went on: {e:#}");
        }
        self.server.web.tournament_changed(t);
    }

    /// Writes the standings of `rows` (the games counted so far) into the tournament's
    /// folder: its page shows them as the games end.
    fn write_standings(&self, rows: &[MatchRow]) {
        let t = &self.row.name;
        let standings = super::tournament_results::standings(
            self.points,
            &self.players,
            self.row.plan.seats,
            rows,
        );
        let dir = self.server.results.join("tournaments").join(t);
        if let Err(e) = super::tournament_results::write(&dir, &standings, self.seed) {
            println!("tournament {t}: its standings could not be written: {e:#}");
        }
    }
}

/// Waits until `member` waits for its game, is gone, or `deadline` passed.
fn ready(member: &Member, deadline: Instant) {
    let slot = member.slot();
    let left = deadline.saturating_duration_since(Instant::now());
    let _ = member.changed.wait_timeout_while(slot, left, |s| {
        matches!(
            s,
            Slot::Away | Slot::Playing | Slot::Back(..) | Slot::Between
        )
    });
}

/// The connection of `member` for its next game: its own once it waits (or the closed one
/// it left), else, once it is gone or `deadline` passed, a closed connection (its game is
/// lost by a fault that says why: `late()` when the deadline passed). Whether it is its own.
/// A connection `proves` refuses (the token it proved is no longer the name's) is told why
/// and let go, as if the member were not there yet: the name's owner may still come.
fn take(
    member: &Member,
    deadline: Instant,
    late: impl Fn() -> String,
    proves: impl Fn(&Link) -> Result<(), String>,
) -> std::io::Result<(Link, bool)> {
    let mut slot = member.slot();
    loop {
        match std::mem::replace(&mut *slot, Slot::Playing) {
            Slot::Waiting(mut link) | Slot::Gone(Some(mut link)) => match proves(&link) {
                Ok(()) => return Ok((link, true)),
                Err(why) => {
                    // Without waiting: the slot's lock is held. Its wait wakes and ends.
                    let _ = link.conn.try_send(&why);
                    drop(link);
                    *slot = Slot::Away;
                    member.changed.notify_all();
                }
            },
            other => *slot = other,
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let absent = match *slot {
            Slot::Gone(None) => Some("absent: left the tournament before this game".to_string()),
            Slot::Over => Some("absent: the tournament was over for it".to_string()),
            _ if left.is_zero() => Some(late()),
            _ => None,
        };
        if let Some(why) = absent {
            let mut link = closed()?;
            link.absent = Some(why);
            return Ok((link, false));
        }
        slot = member
            .changed
            .wait_timeout(slot, left)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

/// A connection whose other end is closed: a seat of a player gone reads its end at once.
fn closed() -> std::io::Result<Link> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let stream = TcpStream::connect(listener.local_addr()?)?;
    drop(listener.accept()?);
    let link = Link::new(Conn::new(stream));
    Rc::into_inner(link)
        .map(RefCell::into_inner)
        .ok_or_else(|| std::io::Error::other("a link shared"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client asking its next game as its tournament ends (its `WAIT_GAME` answered `OK`
    /// while the store still said playing) finds it over, never a new member waiting for
    /// ever for a game nobody directs (red team 16: the league's last player waited so).
    #[test]
    fn a_member_asked_once_its_tournament_is_over_is_told_it_is_over() {
        let tournaments = Tournaments::default();
        let ann = tournaments.member("cup", "ann");
        tournaments.over("cup", "The tournament 'cup' is over");
        assert!(matches!(*ann.slot(), Slot::Over));
        let late = tournaments.member("cup", "ann");
        assert!(matches!(*late.slot(), Slot::Over), "asked after the end");
        assert!(matches!(
            *tournaments.member("cup", "bob").slot(),
            Slot::Over
        ));
        assert!(matches!(
            *tournaments.member("other", "ann").slot(),
            Slot::Away
        ));
    }
}
