//! The clients waiting for a free game (`WAIT_GAME [options]`) and how they are paired: a
//! waiting client's connection waits here, sent `NOT_READY` as the subject's server does
//! (first after 5 s, then every 3 s) so that a client gone is seen and leaves the queue;
//! the client whose request fills a table takes the others' connections, plays the match
//! on its own thread, and gives each connection back to its waiting thread (or, if that
//! thread panics, lets each go: [`Seated`]). No socket is written to under a lock that
//! another thread waits on without a bound: a `NOT_READY` is sent without waiting, and a
//! client that cannot take it (one that does not read) leaves the queue.

use super::remote::Link;
use super::request::Training;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// The first wait before a `NOT_READY`, and the wait between two (the subject's server's).
pub const FIRST_NOT_READY: Duration = Duration::from_secs(5);
pub const NOT_READY_EVERY: Duration = Duration::from_secs(3);

/// What the players of a free game agree on: only requests that ask the same are paired.
#[derive(Clone, Debug, PartialEq)]
struct Table {
    game: &'static str,
    board: &'static str,
    seats: usize,
    timeout: Duration,
}

impl Table {
    fn of(wanted: &Training) -> Table {
        Table {
            game: wanted.game,
            board: wanted.board,
            seats: wanted.seats,
            timeout: wanted.timeout,
        }
    }
}

/// Where a waiting client's connection is.
enum Slot {
    /// Here, waiting for a table.
    Waiting(Link),
    /// In a match, on the thread of the client that filled the table.
    Playing,
    /// Given back after the match, with the loss to tell the client if it lost by a fault.
    Back(Link, Option<String>),
    /// Gone: the client left, or its connection was lost in the match.
    Gone,
}

/// A client waiting for a free game.
pub struct Waiter {
    pub name: String,
    /// Its `seed=`, if it gave one.
    pub seed: Option<u64>,
    table: Table,
    slot: Mutex<Slot>,
    changed: Condvar,
}

impl Waiter {
    fn slot(&self) -> MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Gives the connection back after the match (`None`: it cannot be, the client is
    /// gone), with the loss to tell.
    pub fn give_back(&self, link: Option<Link>, loss: Option<String>) {
        *self.slot() = match link {
            Some(link) => Slot::Back(link, loss),
            None => Slot::Gone,
        };
        self.changed.notify_all();
    }
}

/// The waiting players of a match being played, taken from the lobby: dropped, it lets
/// go each one whose connection was not given back, so that a match's thread that panics
/// leaves no one waiting forever (their connections close with that thread's unwinding).
pub struct Seated(pub Vec<Arc<Waiter>>);

impl Drop for Seated {
    fn drop(&mut self) {
        for waiter in &self.0 {
            let mut slot = waiter.slot();
            if let Slot::Playing = *slot {
                *slot = Slot::Gone;
                waiter.changed.notify_all();
            }
        }
    }
}

/// Waiting clients taken from the queue, with their connections.
pub type Taken = Vec<(Arc<Waiter>, Link)>;

/// Whether the waiting client `name` of a connection may be seated: the server's check of
/// the token it proved (`session::proves`), made again as it is seated.
pub type MayPlay<'a> = &'a dyn Fn(&str, &Link) -> bool;

/// What joining the lobby gave.
pub enum Joined {
    /// The table is full: play now, with these waiting clients and their connections
    /// (arrived first, first), and the joining client's connection.
    Start(Vec<(Arc<Waiter>, Link)>, Link),
    /// Wait: the connection is in the lobby until [`Lobby::wait`] gives it back.
    Wait(Arc<Waiter>),
    /// The joining client is gone already.
    Gone,
}

/// The queue of waiting clients.
#[derive(Default)]
pub struct Lobby {
    waiting: Mutex<Vec<Arc<Waiter>>>,
}

impl Lobby {
    fn waiting(&self) -> MutexGuard<'_, Vec<Arc<Waiter>>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many clients wait.
    pub fn len(&self) -> usize {
        self.waiting().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The clients waiting, oldest first: (name, game, board), for the organiser's form.
    pub fn waiting_players(&self) -> Vec<(String, &'static str, &'static str)> {
        self.waiting()
            .iter()
            .map(|w| (w.name.clone(), w.table.game, w.table.board))
            .collect()
    }

    /// The organiser seats the waiting clients `names` (in this order) at a game of their
    /// own: their connections, taken from the queue, and the table of the first (its game,
    /// board and clock); or why not (one is not waiting, or waits for another game, the
    /// game seats not as many players, or `may_play` refuses one), with nothing taken. A
    /// waiter `may_play` refuses (its name registered since it came, or given a new token,
    /// without it) is let go (it leaves the queue, disconnected), as [`Lobby::join`] lets
    /// it go: the organiser is told.
    pub fn take(&self, names: &[String], may_play: MayPlay) -> Result<(Taken, Training), String> {
        if names.len() < 2 {
            return Err("a game needs two players at least".into());
        }
        let mut waiting = self.waiting();
        let mut chosen: Vec<Arc<Waiter>> = Vec::new();
        for name in names {
            let Some(w) = waiting.iter().find(|w| &w.name == name) else {
                return Err(format!("{name} is not waiting for a free game"));
            };
            if chosen.iter().any(|c| Arc::ptr_eq(c, w)) {
                return Err(format!("{name} is chosen twice"));
            }
            if let Some(first) = chosen.first() {
                if first.table.game != w.table.game {
                    return Err(format!(
                        "{name} waits for {}, {} for {}: a game's players wait for the same game",
                        w.table.game, first.name, first.table.game
                    ));
                }
            }
            chosen.push(Arc::clone(w));
        }
        // As many players as the game seats: a game of another size fails once its
        // clients were told it, each losing its place in the queue.
        let game = super::games::Served::by_name(chosen[0].table.game)
            .expect("a game served")
            .runner();
        let range = game.seat_range();
        if !range.contains(&chosen.len()) {
            return Err(format!(
                "{} is played by {} to {} players, not {}",
                game.title(),
                range.start(),
                range.end(),
                chosen.len()
            ));
        }
        let mut taken = Vec::new();
        for w in &chosen {
            let mut slot = w.slot();
            let refused = match std::mem::replace(&mut *slot, Slot::Playing) {
                Slot::Waiting(l) if l.conn.is_alive() && may_play(&w.name, &l) => {
                    taken.push((Arc::clone(w), l));
                    continue;
                }
                Slot::Waiting(l) if l.conn.is_alive() => {
                    *slot = Slot::Gone;
                    w.changed.notify_all();
                    drop((slot, l));
                    waiting.retain(|o| !Arc::ptr_eq(o, w));
                    format!(
                        "{} waits without the token the name {} has now (registered, or \
                         given a new one, since it came): it was let go",
                        w.name, w.name
                    )
                }
                other => {
                    *slot = other;
                    format!("{} is no longer waiting", w.name)
                }
            };
            // Those taken wait on, as they were.
            for (t, l) in taken {
                *t.slot() = Slot::Waiting(l);
            }
            return Err(refused);
        }
        waiting.retain(|w| !chosen.iter().any(|c| Arc::ptr_eq(c, w)));
        let table = &chosen[0].table;
        let wanted = Training {
            game: table.game,
            lines: false,
            bot: None,
            seats: chosen.len(),
            timeout: table.timeout,
            seed: None,
            first: None,
            board: table.board,
            token: None,
        };
        Ok((taken, wanted))
    }

    /// The client `name` asks `wanted` (a free game): it fills a table with clients
    /// waiting for the same one (those gone are dropped from the queue), or waits.
    /// A waiter `may_play` refuses (its name registered since it came, without its
    /// token) is let go (it leaves the queue, disconnected), never seated.
    pub fn join(&self, name: &str, wanted: &Training, link: Link, may_play: MayPlay) -> Joined {
        if !link.conn.is_alive() {
            return Joined::Gone;
        }
        let table = Table::of(wanted);
        let mut waiting = self.waiting();
        let mut taken: Vec<(Arc<Waiter>, Link)> = Vec::new();
        waiting.retain(|w| {
            if w.table != table || taken.len() + 1 >= table.seats {
                return true;
            }
            let mut slot = w.slot();
            match std::mem::replace(&mut *slot, Slot::Playing) {
                Slot::Waiting(l) if l.conn.is_alive() && may_play(&w.name, &l) => {
                    taken.push((Arc::clone(w), l));
                    true
                }
                Slot::Waiting(_) | Slot::Gone => {
                    *slot = Slot::Gone;
                    w.changed.notify_all();
                    false
                }
                other => {
                    *slot = other;
                    true
                }
            }
        });
        if taken.len() + 1 >= table.seats {
            waiting.retain(|w| !taken.iter().any(|(t, _)| Arc::ptr_eq(t, w)));
            return Joined::Start(taken, link);
        }
        for (w, l) in taken {
            *w.slot() = Slot::Waiting(l);
        }
        let waiter = Arc::new(Waiter {
            name: name.to_string(),
            seed: wanted.seed,
            table,
            slot: Mutex::new(Slot::Waiting(link)),
            changed: Condvar::new(),
        });
        waiting.push(Arc::clone(&waiter));
        Joined::Wait(waiter)
    }

    /// Waits until `waiter`'s game is played and gives its connection back, with the loss
    /// to tell; `None` when the client left (or was lost in the match): it is out of the
    /// queue. Sends `NOT_READY` while no game starts.
    pub fn wait(&self, waiter: &Arc<Waiter>) -> Option<(Link, Option<String>)> {
        let mut pause = FIRST_NOT_READY;
        loop {
            let slot = waiter.slot();
            let (mut slot, _) = waiter
                .changed
                .wait_timeout_while(slot, pause, |s| !matches!(s, Slot::Back(..) | Slot::Gone))
                .unwrap_or_else(|e| e.into_inner());
            pause = NOT_READY_EVERY;
            match std::mem::replace(&mut *slot, Slot::Gone) {
                Slot::Back(link, loss) => return Some((link, loss)),
                Slot::Playing => *slot = Slot::Playing,
                Slot::Waiting(mut link) => {
                    // Under the slot's lock, which `join` takes under the queue's: a send
                    // that waited for a client that does not read would freeze every table.
                    if link.conn.try_send("NOT_READY").is_ok() && link.conn.is_alive() {
                        *slot = Slot::Waiting(link);
                        continue;
                    }
                    drop(slot);
                    self.waiting().retain(|w| !Arc::ptr_eq(w, waiter));
                    return None;
                }
                Slot::Gone => {
                    drop(slot);
                    self.waiting().retain(|w| !Arc::ptr_eq(w, waiter));
                    return None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::request::wait_game;
    use crate::serve::wire::Conn;
    use std::net::{TcpListener, TcpStream};
    use std::sync::mpsc;

    /// A connection as the server holds it, and its client's end.
    fn connection() -> (Link, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (served, _) = listener.accept().unwrap();
        let link = std::rc::Rc::into_inner(Link::new(Conn::new(served))).unwrap();
        (link.into_inner(), client)
    }

    /// What `run` gives on a thread of its own, or a failure if it has not ended when
    /// the generous bound of a hang is past.
    fn ends<T: Send + 'static>(what: &str, run: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || tx.send(run()));
        rx.recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|_| panic!("{what}: still not over"))
    }

    #[test]
    fn a_panic_in_the_match_lets_every_waiting_player_go() {
        let lobby = Arc::new(Lobby::default());
        let wanted = wait_game("WAIT_GAME seats=3").unwrap();
        let mut waiters = Vec::new();
        let mut clients = Vec::new();
        for name in ["ann", "bob"] {
            let (link, client) = connection();
            clients.push(client);
            let Joined::Wait(waiter) = lobby.join(name, &wanted, link, &|_, _| true) else {
                panic!("{name} waits")
            };
            let (lobby, waiter) = (Arc::clone(&lobby), Arc::clone(&waiter));
            waiters.push(std::thread::spawn(move || lobby.wait(&waiter).is_none()));
        }
        let (link, _filler) = connection();
        let Joined::Start(others, _own) = lobby.join("cat", &wanted, link, &|_, _| true) else {
            panic!("the table is full")
        };
        let game = std::thread::spawn(move || {
            let (seated, _links): (Vec<_>, Vec<_>) = others.into_iter().unzip();
            let _seated = Seated(seated);
            panic!("a bug in the match");
        });
        assert!(game.join().is_err());
        for waiter in waiters {
            let let_go = ends("a waiting player", move || waiter.join().unwrap());
            assert!(let_go, "told it is out of the queue");
        }
        assert!(lobby.is_empty());
    }

    #[test]
    fn a_client_that_does_not_read_leaves_the_queue_and_freezes_no_one() {
        use nix::sys::socket::{setsockopt, sockopt};
        use std::io::Write;
        let lobby = Arc::new(Lobby::default());
        let wanted = wait_game("WAIT_GAME").unwrap();
        let (link, deaf) = connection();
        // Its buffers full: a `NOT_READY` cannot be taken, and a send that waited would
        // wait forever (no write timeout: the socket's, shared by its handles).
        setsockopt(&deaf, sockopt::RcvBuf, &4096).unwrap();
        let served = link.conn.handle().unwrap();
        setsockopt(&served, sockopt::SndBuf, &4096).unwrap();
        served.set_nonblocking(true).unwrap();
        while (&served).write(&[0u8; 4096]).is_ok() {}
        served.set_nonblocking(false).unwrap();
        served.set_write_timeout(None).unwrap();
        let Joined::Wait(waiter) = lobby.join("deaf", &wanted, link, &|_, _| true) else {
            panic!("it waits")
        };
        let left = {
            let (lobby, waiter) = (Arc::clone(&lobby), Arc::clone(&waiter));
            ends("the wait of a client that does not read", move || {
                lobby.wait(&waiter).is_none()
            })
        };
        assert!(left, "out of the queue");
        assert!(lobby.is_empty());
        // The others are paired as before.
        let (a, _a) = connection();
        let (b, _b) = connection();
        assert!(matches!(
            lobby.join("a", &wanted, a, &|_, _| true),
            Joined::Wait(_)
        ));
        assert!(matches!(
            lobby.join("b", &wanted, b, &|_, _| true),
            Joined::Start(..)
        ));
        drop(deaf);
    }
}
