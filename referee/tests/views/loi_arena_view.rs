//! The 2009 game's views built from the arena's record (`view::loi_arena`) against the
//! views of the 2009 game's record of before, for the same matches: each match was played
//! by the referee of before (`referee match ... --full-log --html`, kept in
//! `fixtures/records/loi-v4-views`), then is played again through the arena by champions
//! that say what the record says they said (`viewer_page::arena`), and the two records'
//! views must agree: the replay page byte for byte but for the footer's "(full log read)"
//! (the arena's record holds every action, no log is read), the table `referee match`
//! printed, the timeline, and every step on the terminal with its console. Matches: the
//! built-in bots over many seeds, and example champions that write on stderr, are refused
//! actions, send a line that means nothing, run out of time, crash, or never start.

use crate::viewer_page;

use arena::{GameFault, GameRecord};
use jail::fault::FaultKind;
use referee::record::{FaultRecord, MatchRecord};
use referee::view::console::Console;
use referee::view::{console_text, html, loi_arena, terminal, Timeline};
use std::path::{Path, PathBuf};

/// A champion of `tests/fixtures`, as the match was given it.
fn fixture(path: &str) -> String {
    format!("tests/fixtures/{path}")
}

/// An example champion, as the match was given it.
fn example(path: &str) -> String {
    format!("champions/{path}")
}

/// The match `name` the referee of before played (`champions`, built-in ones by name, the
/// others by a path ending so, with `seed`), kept with its full log and stderr files: the
/// record, the arena's record of the same match, and the directory.
fn play(name: &str, champions: &[String], seed: u64) -> (MatchRecord, GameRecord, PathBuf) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/records/loi-v4-views")
        .join(name);
    let record = MatchRecord::load(&dir.join("record.json")).unwrap();
    assert_eq!(record.seed, seed, "{name}");
    for (seat, champion) in record.seats.iter().zip(champions) {
        assert!(
            seat.path == format!("builtin:{champion}") || seat.path.ends_with(champion.as_str()),
            "{name}: {} is not {champion}",
            seat.path
        );
    }
    // The page the referee of before wrote, where it was kept: today's of that record.
    if let Ok(written) = std::fs::read_to_string(dir.join("replay.html")) {
        assert_eq!(written, html::replay_page_in(&record, Some(&dir)).unwrap());
    }
    let arena = viewer_page::arena::arena_record(&record, &dir);
    (record, arena, dir)
}

/// The two records' views agree; `what` names the match in a failure.
fn same_views(what: &str, record: &MatchRecord, arena: &GameRecord, dir: &Path) {
    let old = Timeline::build_in(record, Some(dir)).unwrap();
    let new = loi_arena::timeline(arena).unwrap();
    assert!(old.log_read && !new.log_read, "{what}");
    let (mut got, mut want) = (
        serde_json::to_value(&new).unwrap(),
        serde_json::to_value(&old).unwrap(),
    );
    let (got_steps, want_steps) = (got["steps"].take(), want["steps"].take());
    for (index, (g, w)) in got_steps
        .as_array()
        .unwrap()
        .iter()
        .zip(want_steps.as_array().unwrap())
        .enumerate()
    {
        assert_eq!(g, w, "{what}: step {} of the timeline", index + 1);
    }
    assert_eq!(got_steps, want_steps, "{what}: the steps");
    assert_eq!(got, want, "{what}: the timeline");
    // The page: today's, as `referee match --html` writes it, but for the footer.
    let today = html::replay_page_in(record, Some(dir)).unwrap();
    let requests = format!("{} requests", old.requests);
    let today = today.replacen(&format!("{requests} (full log read)"), &requests, 1);
    let page = loi_arena::page(arena, Some(dir)).unwrap();
    if page != today {
        let at = page
            .bytes()
            .zip(today.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(page.len().min(today.len()));
        panic!(
            "{what}: the page differs at byte {at}: {:?} from the arena's record, {:?} today",
            &page[at.saturating_sub(60)..(at + 60).min(page.len())],
            &today[at.saturating_sub(60)..(at + 60).min(today.len())]
        );
    }
    assert_eq!(
        crate::common::loi::without_fault_places(&loi_arena::summary(arena)),
        referee::view::seat_table::match_result(record),
        "{what}: the table `referee match` prints"
    );
    let console = Console::load(record, Some(dir));
    let arena_console = loi_arena::console(arena, Some(dir), &new);
    for index in 0..old.steps.len() {
        let today =
            terminal::render(&old, index, true) + &console_text::render(&console, &old, index);
        let shown = terminal::render(&new, index, true)
            + &console_text::render(&arena_console, &new, index);
        assert_eq!(shown, today, "{what}: step {} on the terminal", index + 1);
    }
    let last = old.steps.len() - 1;
    assert_eq!(
        loi_arena::show(arena, Some(dir), last, false).unwrap(),
        terminal::render(&old, last, false) + &console_text::render(&console, &old, last),
        "{what}: `show` at the end"
    );
}

#[test]
fn the_built_in_bots_views_agree_over_many_seeds() {
    let lineups = [
        ["random", "greedy", "random"],
        ["greedy", "greedy", "random"],
        ["random", "random", "random"],
        ["greedy", "random", "greedy"],
    ];
    for seed in 0..8u64 {
        let names = lineups[seed as usize % lineups.len()].map(String::from);
        let (record, arena, dir) = play(&format!("bots-{seed}"), &names, seed);
        same_views(&format!("seed {seed} {names:?}"), &record, &arena, &dir);
    }
}

#[test]
fn examples_with_stderr_and_refused_actions_show_alike() {
    // Stderr in every callback (3000 lines in one, escapes, a line left unfinished, a line
    // after the match), a Python example's stderr, 20,000 refused roads in one callback
    // and a lost monument.
    let champions = [
        fixture("console/console.sh"),
        example("python/random/champion"),
        fixture("viewer/actor.sh"),
    ];
    let (record, arena, dir) = play("stderr", &champions, 5);
    assert!(record.callbacks.iter().any(|c| !c.refused.is_empty()));
    same_views("stderr and refusals", &record, &arena, &dir);
    // The browser tests' match: a crash at turn 5, first player given.
    let champions = [
        fixture("viewer/actor.sh"),
        fixture("viewer/actor.sh"),
        fixture("viewer/quitter.sh"),
    ];
    let (record, arena, dir) = play("actors", &champions, 1);
    assert_eq!(record.first_player, 0);
    same_views("actors", &record, &arena, &dir);
}

#[test]
fn faults_show_alike_timeout_crash_a_line_that_means_nothing_a_seat_that_never_started() {
    let kinds = |record: &MatchRecord| -> Vec<&str> {
        record.faults.iter().map(|f| f.kind.name()).collect()
    };
    // A CPU timeout and a crash quoting its stderr, then a bot alone to the end.
    let champions = [
        fixture("match/busy.sh"),
        fixture("untrusted/stderr_crash.sh"),
        "greedy".to_string(),
    ];
    let (record, arena, dir) = play("faults", &champions, 3);
    assert_eq!(kinds(&record), ["crash", "timeout"], "{:?}", record.faults);
    same_views("a timeout, a crash", &record, &arena, &dir);
    // A seat that cannot start, a debug line on stdout (a line that means nothing), a bot.
    let champions = [
        fixture("match/badshebang.sh"),
        fixture("match/garbage.sh"),
        "random".to_string(),
    ];
    let (record, arena, dir) = play("spawn", &champions, 4);
    assert_eq!(kinds(&record), ["spawn", "protocol"], "{:?}", record.faults);
    assert!(record.faults[0].callback.is_none());
    same_views("a spawn fault, a protocol fault", &record, &arena, &dir);
    // Output after the end (a line on stdout once `end_game` is over, which a real
    // champion's timing makes a race to play): the fault each record keeps of it, added to
    // both, shows on the same step with the same words.
    let (mut record, mut arena) = (record, arena);
    let turn = record.callbacks.last().unwrap().turn;
    record.faults.push(FaultRecord::late_output(
        2,
        turn,
        Some(engine::Callback::EndGame),
        "bye",
    ));
    arena.faults.push(GameFault {
        seat: 2,
        callback: None,
        kind: FaultKind::Protocol,
        message: record.faults.last().unwrap().message.clone(),
    });
    same_views("output after the end", &record, &arena, &dir);
}

/// A record edited anywhere the rules decide (an answer, a callback's digest, who plays a
/// callback, the ranking, the game) gets no view: the page fails naming where the record parts ways with the
/// rules, and the table says so instead of a result.
#[test]
fn an_edited_arena_record_gets_no_view_and_says_where() {
    let names = ["greedy", "random", "random"].map(String::from);
    let (_, arena, dir) = play("edited", &names, 2);
    let refused = |record: &GameRecord, needle: &str| {
        let error = format!("{:#}", loi_arena::page(record, Some(&dir)).unwrap_err());
        assert!(
            error.contains("does not replay") && error.contains(needle),
            "{error}"
        );
        let summary = loi_arena::summary(record);
        assert!(
            summary.starts_with("the record does not replay"),
            "{summary}"
        );
    };
    let mut answer = arena.clone();
    let (index, step) = answer
        .callbacks
        .iter_mut()
        .enumerate()
        .find_map(|(i, c)| {
            c.steps.iter_mut().find_map(|s| match s {
                game::Step::Act { action, answer, .. } if action != "fin" => Some((i, answer)),
                _ => None,
            })
        })
        .expect("an action");
    *step = Err(game::Illegal("-9".into()));
    refused(&answer, &format!("callback #{index}"));
    let mut digest = arena.clone();
    digest.callbacks[3].digest = "0123456789abcdef".into();
    refused(&digest, "callback #3: the game's digest is");
    let mut ranking = arena.clone();
    ranking.ranking.scores[0] += 1;
    refused(&ranking, "ranked");
    let mut seat = arena.clone();
    let jouer = seat
        .callbacks
        .iter()
        .position(|c| c.callback == "jouer")
        .unwrap();
    seat.callbacks[jouer].seat = (seat.callbacks[jouer].seat + 1) % 3;
    refused(&seat, &format!("callback #{jouer} (jouer of seat"));
    let mut other = arena.clone();
    other.game = "amazons".into();
    refused(&other, "not of La loi du plus riche");
}
