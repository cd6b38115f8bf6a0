//! The site's costly answers, computed once for each version of what they show: a
//! finished game's board (its record, written once), a game in play's board and its growth
//! (its record so far, by the hub's version of that game). A page's computation cannot be
//! stopped when its visitor leaves (`tiny_http` tells a request's thread nothing until it
//! writes), so it ends and is kept: visitors asking it meanwhile wait for that one
//! computation instead of starting their own, and a storm of reloads, or of visitors who
//! ask and leave at once, costs one computation a version. Finished boards and the answers
//! of games in play are kept apart, each at most [`KEPT`] answers and [`KEPT_BYTES`], the
//! oldest forgotten first: games in play, which make a new version at each callback, never
//! push a finished board out.

use std::sync::{Arc, Mutex, OnceLock};

/// Most answers kept of each kind (finished boards; answers of games in play).
pub const KEPT: usize = 16;
/// Most bytes of answers kept of each kind (one larger answer is kept alone).
pub const KEPT_BYTES: usize = 32 << 20;

/// An answer computed: the page, or why it could not be made.
pub type Answer = Result<Arc<str>, Arc<anyhow::Error>>;

/// What an answer shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum What {
    /// A finished game's board: its record is written once, its version never changes.
    Board,
    /// A game in play's board, at one version of its record so far.
    LiveBoard,
    /// A game in play's growth (its board's script grows by it), at one version.
    Growth,
}

impl What {
    /// Where its answers are kept: finished boards apart from the answers of games in play.
    fn shelf(self) -> usize {
        match self {
            What::Board => 0,
            What::LiveBoard | What::Growth => 1,
        }
    }
}

/// One answer: what it is, of which game, at which version; computed once.
struct Kept {
    what: What,
    name: String,
    version: u64,
    answer: Arc<OnceLock<Answer>>,
}

/// The answers kept (one site a server): finished boards, then the answers of games in
/// play ([`What::shelf`]), each oldest first.
pub struct Computed {
    kept: Mutex<[Vec<Kept>; 2]>,
}

/// The site's answers.
pub static PAGES: Computed = Computed::new();

impl Computed {
    pub const fn new() -> Computed {
        Computed {
            kept: Mutex::new([Vec::new(), Vec::new()]),
        }
    }

    /// The answer `what` of game `name` at `version`: the one kept, the one being
    /// computed (waited for), or `compute`'s, then kept in place of older versions'.
    pub fn answer(
        &self,
        what: What,
        name: &str,
        version: u64,
        compute: impl FnOnce() -> anyhow::Result<String>,
    ) -> Answer {
        let cell = {
            let mut shelves = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            let kept = &mut shelves[what.shelf()];
            let at = kept.iter().position(|k| k.what == what && k.name == name);
            match at.map(|i| (i, kept[i].version == version)) {
                Some((i, true)) => Arc::clone(&kept[i].answer),
                found => {
                    if let Some((i, _)) = found {
                        kept.remove(i);
                    }
                    let answer = Arc::new(OnceLock::new());
                    kept.push(Kept {
                        what,
                        name: name.to_string(),
                        version,
                        answer: Arc::clone(&answer),
                    });
                    forget_the_oldest(kept);
                    answer
                }
            }
        };
        let answer = cell
            .get_or_init(|| compute().map(Arc::from).map_err(Arc::new))
            .clone();
        // Its size is known now.
        let mut shelves = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        forget_the_oldest(&mut shelves[what.shelf()]);
        answer
    }
}

impl Default for Computed {
    fn default() -> Computed {
        Computed::new()
    }
}

/// Forgets the oldest answers of a shelf past [`KEPT`] or [`KEPT_BYTES`] (the newest
/// always stays).
fn forget_the_oldest(kept: &mut Vec<Kept>) {
    let bytes = |kept: &[Kept]| -> usize {
        kept.iter()
            .filter_map(|k| k.answer.get())
            .map(|a| a.as_ref().map_or(0, |page| page.len()))
            .sum()
    };
    while kept.len() > KEPT || (kept.len() > 1 && bytes(kept) > KEPT_BYTES) {
        kept.remove(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Visitors asking one page at once, and again, cost one computation; a new version
    /// one more; an error is kept as a page is.
    #[test]
    fn a_page_is_computed_once_a_version_however_many_ask_it() {
        let pages = Computed::new();
        let made = AtomicU64::new(0);
        let computations = || made.load(Ordering::SeqCst);
        let page = |version: u64| {
            pages.answer(What::Board, "g1", version, || {
                made.fetch_add(1, Ordering::SeqCst);
                Ok(format!("page {version}"))
            })
        };
        std::thread::scope(|s| {
            for _ in 0..16 {
                s.spawn(|| assert_eq!(&*page(1).unwrap(), "page 1"));
            }
        });
        assert_eq!(computations(), 1);
        assert_eq!(&*page(1).unwrap(), "page 1");
        assert_eq!(computations(), 1);
        assert_eq!(&*page(2).unwrap(), "page 2");
        assert_eq!(computations(), 2);
        let failing = || {
            pages.answer(What::Board, "bad", 0, || {
                made.fetch_add(1, Ordering::SeqCst);
                anyhow::bail!("torn record")
            })
        };
        assert_eq!(failing().unwrap_err().to_string(), "torn record");
        assert_eq!(failing().unwrap_err().to_string(), "torn record");
        assert_eq!(computations(), 3);
    }

    /// The answers kept are bounded in number and in bytes, the oldest forgotten first.
    #[test]
    fn the_oldest_answers_are_forgotten() {
        let pages = Computed::new();
        for i in 0..KEPT + 4 {
            let _ = pages.answer(What::Board, &format!("g{i}"), 0, || Ok(String::new()));
        }
        assert_eq!(pages.kept.lock().unwrap()[0].len(), KEPT);
        let big = "x".repeat(KEPT_BYTES / 2 + 1);
        let _ = pages.answer(What::Board, "big1", 0, || Ok(big.clone()));
        let _ = pages.answer(What::Board, "big2", 0, || Ok(big.clone()));
        let shelves = pages.kept.lock().unwrap();
        let kept = &shelves[0];
        assert_eq!(kept.last().map(|k| k.name.as_str()), Some("big2"));
        assert!(kept.iter().all(|k| k.name != "big1"));
    }

    /// Games in play, a new version at each callback, never push a finished board out
    /// (red team 15: eight watched games in play made every visit of a finished board
    /// replay its record again).
    #[test]
    fn the_answers_of_games_in_play_leave_the_finished_boards_kept() {
        let pages = Computed::new();
        let made = AtomicU64::new(0);
        let board = || {
            pages.answer(What::Board, "done", 0, || {
                made.fetch_add(1, Ordering::SeqCst);
                Ok("board".to_string())
            })
        };
        board().unwrap();
        for version in 0..4 {
            for game in 0..KEPT {
                let name = format!("live{game}");
                for what in [What::LiveBoard, What::Growth] {
                    let _ = pages.answer(what, &name, version, || Ok(String::new()));
                }
            }
        }
        board().unwrap();
        assert_eq!(made.load(Ordering::SeqCst), 1);
        assert_eq!(pages.kept.lock().unwrap()[1].len(), KEPT);
    }
}
