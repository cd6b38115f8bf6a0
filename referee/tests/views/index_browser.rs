//! A tournament's `index.html`, its champions' pages and the replays they link, in a real
//! browser: headless Chromium driven by `tests/browser/index.mjs` (Node, the DevTools
//! protocol over a pipe, no npm package), clicking and typing as a person would. For both
//! games (three seats and two), a run, shards merged, and a resumed run:
//!
//! - the index leads with the leaderboard; every row of the match list starts with its
//!   replay link, which opens; the record and stderr links point at the files;
//! - the list sorts by a column's title (again: the other way) and filters by a name;
//! - a champion's page lists exactly its matches of `matches.csv`, and each fault links
//!   to the replay's step where the timeline shows that fault;
//! - a replay links back to the index and to the previous and next match;
//! - a 1,000-match index becomes interactive within a bound (`performance.now()` from the
//!   navigation's start; the figure is printed, run with `--nocapture`, and kept in
//!   `referee/BENCHMARKS.md`);
//! - no page logs a console error.
//!
//! Skipped, with a message, when `chromium` or `node` is missing, and a failure under
//! `CI=true` (CI installs both, `scripts/ci-install.sh`).

use crate::common;

use referee::view::index;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
/// The crashing champion's file name: markup, to be shown as text.
const BAD: &str = "<b>bad&<i>.sh";

/// A champion that plays `fin` until its third `jouer`, then exits 3 (a crash fault),
/// printing each callback's name on stderr.
fn crashing(dir: &Path) -> PathBuf {
    crashing_at(dir.join(BAD))
}

/// The crashing champion at `path`.
fn crashing_at(path: PathBuf) -> PathBuf {
    std::fs::write(
        &path,
        "#!/bin/sh\nn=0\nwhile read -r callback; do\n  echo \"callback $callback <i>\" >&2\n  \
         if [ \"$callback\" = jouer ]; then n=$((n+1)); fi\n  if [ $n -ge 3 ]; then exit 3; fi\n  \
         echo fin\ndone\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn run(args: &[&str]) {
    let out = Command::new(REFEREE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "referee {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The 2009 tournament the tests share: random, greedy, builder.sh and the crashing
/// champion, 3 rounds (12 matches, 9 with a crash), with `--html`.
fn loi() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = common::fresh_dir("index-browser", "loi");
        let bad = crashing(&dir);
        let builder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../champions/shell/builder.sh");
        run(&[
            "tournament",
            "random",
            "greedy",
            builder.to_str().unwrap(),
            bad.to_str().unwrap(),
            "--rounds",
            "3",
            "--seed",
            "5",
            "--name",
            "t",
            "--html",
            "--results",
            dir.to_str().unwrap(),
        ]);
        dir.join("t")
    })
}

/// The page's states: when ready, then after each action; fails on a console error.
fn drive(chromium: &Path, page: &Path, actions: &[&str]) -> Vec<Value> {
    drive_sized(chromium, page, actions, &[])
}

fn drive_sized(chromium: &Path, page: &Path, actions: &[&str], extra: &[&str]) -> Vec<Value> {
    let args: Vec<&str> = actions.iter().chain(extra).copied().collect();
    let json = common::drive_page("index.mjs", chromium, page, &args);
    json["states"].as_array().unwrap().clone()
}

/// The file a `file://` link points at (percent-decoded), and its `#` part.
fn target(href: &Value) -> (PathBuf, String) {
    let href = href.as_str().unwrap().strip_prefix("file://").unwrap();
    let (path, hash) = href.split_once('#').unwrap_or((href, ""));
    let mut bytes = Vec::new();
    let mut raw = path.bytes();
    while let Some(b) = raw.next() {
        if b == b'%' {
            let hex: String = [raw.next().unwrap(), raw.next().unwrap()]
                .iter()
                .map(|&c| char::from(c))
                .collect();
            bytes.push(u8::from_str_radix(&hex, 16).unwrap());
        } else {
            bytes.push(b);
        }
    }
    (
        PathBuf::from(String::from_utf8(bytes).unwrap()),
        hash.to_string(),
    )
}

fn ids(state: &Value) -> Vec<u64> {
    state["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_u64().unwrap())
        .collect()
}

/// The path of a page as the driver reports it (`url` without the hash).
fn at(state: &Value) -> PathBuf {
    let url = state["url"].as_str().unwrap();
    PathBuf::from(url.split('#').next().unwrap())
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap()
}

#[test]
fn the_index_leads_with_the_leaderboard_and_each_row_opens_its_replay() {
    let Some(chromium) =
        common::browser_ready("the_index_leads_with_the_leaderboard_and_each_row_opens_its_replay")
    else {
        return;
    };
    let t = canonical(loi());
    let matches = common::tables::table(&t.join("matches.csv"));
    let states = drive(
        &chromium,
        &t.join("index.html"),
        &[
            "follow:#matches tbody tr:nth-child(4) a.replay",
            "follow:#nav-next",
            "follow:#nav-prev",
            "follow:#nav-prev",
            "follow:#nav-index",
        ],
    );
    let index = &states[0];
    assert_eq!(index["page"], "index");
    // The leaderboard comes first, in view, in leaderboard.csv's order.
    assert_eq!(index["h2"][0], "Leaderboard");
    assert_eq!(index["first_table"], "leaderboard");
    assert!(
        index["first_table_top"].as_f64().unwrap() < 400.0,
        "{}",
        index["first_table_top"]
    );
    let board: Vec<String> = common::tables::table(&t.join("leaderboard.csv"))
        .iter()
        .map(|r| r["champion"].clone())
        .collect();
    let shown: Vec<&str> = index["leaderboard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[1].as_str().unwrap())
        .collect();
    assert_eq!(shown, board, "names as text, markup included");
    assert!(board.iter().any(|n| n == BAD));
    // Every match, its replay link first; record and stderr links point at the files.
    assert_eq!(index["total_rows"], matches.len() as u64);
    for (row, expected) in index["rows"].as_array().unwrap().iter().zip(&matches) {
        let id = &expected["id"];
        assert_eq!(row["id"].to_string(), *id);
        let first = &row["first"];
        assert_eq!(
            (first["tag"].as_str(), first["cls"].as_str()),
            (Some("A"), Some("replay"))
        );
        let (page, _) = target(&first["href"]);
        assert_eq!(page, t.join(format!("matches/{id}/replay.html")));
        assert!(page.is_file());
        let links = row["links"].as_array().unwrap();
        let of = |cls: &str| links.iter().filter(|l| l["cls"] == cls).collect::<Vec<_>>();
        assert_eq!(
            target(&of("record")[0]["href"]).0,
            t.join(format!("matches/{id}/record.json"))
        );
        let stderr: Vec<PathBuf> = of("stderr").iter().map(|l| target(&l["href"]).0).collect();
        let expected: Vec<PathBuf> = (0..3)
            .map(|s| t.join(format!("matches/{id}/seat{s}.stderr")))
            .collect();
        assert_eq!(stderr, expected);
    }
    // The replay of match 3 opens; next is 4, previous 3 again, then 2; back to the index.
    let replays: Vec<(&Value, u64)> = states[1..5].iter().zip([3, 4, 3, 2]).collect();
    for (state, id) in replays {
        assert_eq!(state["page"], "replay", "{state}");
        assert_eq!(at(state), t.join(format!("matches/{id}/replay.html")));
        assert_eq!(state["step"], 0);
        let nav: BTreeMap<&str, PathBuf> = state["nav"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| (a["id"].as_str().unwrap(), target(&a["href"]).0))
            .collect();
        assert_eq!(nav["nav-index"], t.join("index.html"));
        assert_eq!(
            nav["nav-prev"],
            t.join(format!("matches/{}/replay.html", id - 1))
        );
        assert_eq!(
            nav["nav-next"],
            t.join(format!("matches/{}/replay.html", id + 1))
        );
    }
    assert_eq!(states[5]["page"], "index");
    assert_eq!(at(&states[5]), t.join("index.html"));
}

#[test]
fn the_match_list_sorts_by_a_column_and_filters_by_a_name() {
    let Some(chromium) =
        common::browser_ready("the_match_list_sorts_by_a_column_and_filters_by_a_name")
    else {
        return;
    };
    let t = canonical(loi());
    let matches = common::tables::table(&t.join("matches.csv"));
    // Columns: replay, id, champion0..2, score0..2: score1 is the 7th.
    let states = drive(
        &chromium,
        &t.join("index.html"),
        &[
            "click:#matches thead th:nth-child(7)",
            "click:#matches thead th:nth-child(7)",
            "type:#filter=GREE",
            "check:#faults-only",
        ],
    );
    let score1 = |state: &Value| -> Vec<i64> {
        state["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["cells"][6].as_str().unwrap().parse().unwrap())
            .collect()
    };
    let mut up: Vec<i64> = matches
        .iter()
        .map(|r| r["score1"].parse().unwrap())
        .collect();
    up.sort();
    assert_eq!(
        states[1]["sorted"],
        serde_json::json!(["Score 1 ascending"])
    );
    assert_eq!(score1(&states[1]), up);
    let down: Vec<i64> = up.iter().rev().copied().collect();
    assert_eq!(score1(&states[2]), down);
    assert_eq!(
        states[2]["sorted"],
        serde_json::json!(["Score 1 descending"])
    );
    // Filtered by a part of a name, any case: exactly the matches greedy played.
    let played =
        |r: &BTreeMap<String, String>| (0..3).any(|s| r[&format!("champion{s}")] == "greedy");
    let mut expected: Vec<u64> = matches
        .iter()
        .filter(|r| played(r))
        .map(|r| r["id"].parse().unwrap())
        .collect();
    let mut shown = ids(&states[3]);
    shown.sort();
    expected.sort();
    assert_eq!(shown, expected);
    assert_eq!(
        states[3]["shown"],
        format!("{} of {} matches", expected.len(), matches.len())
    );
    // ... and with a fault.
    let mut faulty: Vec<u64> = matches
        .iter()
        .filter(|r| played(r) && (0..3).any(|s| !r[&format!("fault{s}")].is_empty()))
        .map(|r| r["id"].parse().unwrap())
        .collect();
    let mut shown = ids(&states[4]);
    shown.sort();
    faulty.sort();
    assert!(!faulty.is_empty() && faulty.len() < expected.len());
    assert_eq!(shown, faulty);
}

#[test]
fn a_champion_page_lists_its_matches_and_links_each_fault_to_its_step() {
    let Some(chromium) =
        common::browser_ready("a_champion_page_lists_its_matches_and_links_each_fault_to_its_step")
    else {
        return;
    };
    let t = canonical(loi());
    let matches = common::tables::table(&t.join("matches.csv"));
    let board = common::tables::table(&t.join("leaderboard.csv"));
    for (rank, champion) in board.iter().enumerate() {
        let name = &champion["champion"];
        let link = format!("follow:#leaderboard tbody tr:nth-child({}) a", rank + 1);
        let states = drive(&chromium, &t.join("index.html"), &[&link]);
        let page = &states[1];
        assert_eq!(page["page"], "champion");
        assert_eq!(page["title"], format!("{name} - tournament t"));
        let mut expected: Vec<u64> = matches
            .iter()
            .filter(|r| (0..3).any(|s| r[&format!("champion{s}")] == *name))
            .map(|r| r["id"].parse().unwrap())
            .collect();
        expected.sort();
        assert_eq!(ids(page), expected, "{name}'s matches");
        assert_eq!(page["total_rows"], expected.len() as u64);
        // Its pre-run check's stderr: check/<i>.stderr, i its place in tournament.json.
        let spec: Value =
            serde_json::from_slice(&std::fs::read(t.join("tournament.json")).unwrap()).unwrap();
        let i = spec["champions"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c["name"] == *name)
            .unwrap();
        let html = std::fs::read_to_string(at(page)).unwrap();
        assert!(
            html.contains(&format!("id=\"check\" href=\"../check/{i}.stderr\"")),
            "{name}"
        );
        assert!(t.join(format!("check/{i}.stderr")).is_file());
        let faults = page["faults"].as_array().unwrap();
        let faulted = matches
            .iter()
            .filter(|r| {
                (0..3).any(|s| {
                    r[&format!("champion{s}")] == *name && !r[&format!("fault{s}")].is_empty()
                })
            })
            .count();
        // Each fault twice: in the list of faults and on its match's row.
        assert_eq!(faults.len(), 2 * faulted, "{name}");
        if name != BAD {
            continue;
        }
        assert_eq!(faulted, 9);
        // Every fault's link: the replay of its match at the step of that fault.
        for fault in faults {
            let (page, hash) = target(&fault["href"]);
            let step: usize = hash.strip_prefix("step=").unwrap().parse().unwrap();
            let dir = page.parent().unwrap();
            let record = common::loi::load_in(dir);
            let seat = record.seats.iter().position(|s| s.name == *name).unwrap();
            let timeline = common::loi::timeline(&record);
            // The page's and `show --step`'s numbers start at 1.
            assert!(
                timeline.steps[step - 1]
                    .faults
                    .iter()
                    .any(|f| usize::from(f.seat) == seat),
                "{fault}"
            );
        }
        // Following the first opens the replay at that step.
        let states = drive(
            &chromium,
            &t.join("index.html"),
            &[&link, "follow:#faults a.fault"],
        );
        let (page, hash) = target(&states[1]["faults"][0]["href"]);
        assert_eq!(at(&states[2]), page);
        // The page's own index of a step starts at 0, its URL's number at 1.
        assert_eq!(
            (states[2]["step"].as_u64().unwrap() + 1).to_string(),
            hash.strip_prefix("step=").unwrap()
        );
        assert!(states[2]["step"].as_u64().unwrap() > 0);
    }
}

/// The 2009 tournament of the head-to-head test: the built-in `random`, a crashing
/// program also called `random` (so named `x/random`), greedy and builder.sh, one round.
fn namesakes() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = common::fresh_dir("index-browser", "namesakes");
        std::fs::create_dir(dir.join("x")).unwrap();
        let namesake = crashing_at(dir.join("x/random"));
        let builder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../champions/shell/builder.sh");
        run(&[
            "tournament",
            "random",
            namesake.to_str().unwrap(),
            "greedy",
            builder.to_str().unwrap(),
            "--rounds",
            "1",
            "--seed",
            "3",
            "--name",
            "t",
            "--html",
            "--results",
            dir.to_str().unwrap(),
        ]);
        dir.join("t")
    })
}

/// What a person reads on the index: the leaderboard's columns titled in words, the first
/// view 1366 pixels wide and every column on demand; a whole name filters that champion
/// only (`random`, not `x/random`), two names their matches together, and a cell of the
/// pairwise matrix says what it counts and lists those matches; the winner of each match
/// is marked, and a fault is named by its champion.
#[test]
fn the_index_speaks_in_words_fits_the_screen_and_filters_head_to_head() {
    let Some(chromium) =
        common::browser_ready("the_index_speaks_in_words_fits_the_screen_and_filters_head_to_head")
    else {
        return;
    };
    let t = canonical(namesakes());
    let matches = common::tables::table(&t.join("matches.csv"));
    let pairwise = common::tables::table(&t.join("pairwise.csv"));
    let names = |r: &BTreeMap<String, String>| -> Vec<String> {
        (0..3).map(|s| r[&format!("champion{s}")].clone()).collect()
    };
    assert!(matches
        .iter()
        .any(|r| names(r).iter().any(|n| n == "x/random")));
    let ids_with = |wanted: &[&str]| -> Vec<u64> {
        let mut ids: Vec<u64> = matches
            .iter()
            .filter(|r| wanted.iter().all(|w| names(r).iter().any(|n| n == w)))
            .map(|r| r["id"].parse().unwrap())
            .collect();
        ids.sort();
        ids
    };
    let sorted = |state: &Value| {
        let mut v = ids(state);
        v.sort();
        v
    };
    let states = drive(
        &chromium,
        &t.join("index.html"),
        &[
            "check:input.all-columns",
            "type:#filter=random",
            "type:#against=greedy",
            "click:#pairwise-matrix a.versus[href='#champion=random&against=x%2Frandom']",
        ],
    );
    let index = &states[0];
    // Words, not CSV names; the first view fits the screen; every column on demand.
    let shown: Vec<&str> = index["leaderboard_shown"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    for words in [
        "Rank",
        "Champion",
        "Points",
        "1st",
        "Points a match",
        "Surely above next",
    ] {
        assert!(shown.contains(&words), "{words} in {shown:?}");
    }
    let header = std::fs::read_to_string(t.join("leaderboard.csv")).unwrap();
    let columns = header.lines().next().unwrap().split(',').count();
    assert!(shown.len() < columns, "{shown:?}");
    assert!(shown.iter().all(|h| !h.contains('_')), "{shown:?}");
    let fits = |state: &Value| {
        state["leaderboard_right"].as_f64().unwrap() <= state["viewport"].as_f64().unwrap()
    };
    assert!(fits(index), "{index}", index = index["leaderboard_right"]);
    let every = states[1]["leaderboard_shown"].as_array().unwrap();
    assert_eq!(every.len(), columns);
    assert!(
        every.iter().all(|h| !h.as_str().unwrap().contains('_')),
        "{every:?}"
    );
    // The whole name `random` is the built-in only; with `greedy`, their matches together.
    assert_eq!(sorted(&states[2]), ids_with(&["random"]));
    assert!(ids_with(&["random"]).len() < matches.len());
    assert_eq!(sorted(&states[3]), ids_with(&["random", "greedy"]));
    // The matrix: each cell in words, its sentence, and the link that lists those matches.
    let cells = index["matrix"].as_array().unwrap();
    assert_eq!(cells.len(), pairwise.len());
    for (cell, row) in cells.iter().zip(&pairwise) {
        let tied = if row["tied"] == "0" {
            String::new()
        } else {
            format!(", {} tied", row["tied"])
        };
        assert_eq!(
            cell["text"],
            format!("{} ahead, {} behind{tied}", row["ahead"], row["behind"])
        );
        assert!(cell["title"].as_str().unwrap().starts_with(&format!(
            "{} met {} in {} matches",
            row["champion"], row["opponent"], row["met"]
        )));
    }
    let last = &states[4];
    assert_eq!(last["filter"], "random");
    assert_eq!(last["against"], "x/random");
    assert_eq!(sorted(last), ids_with(&["random", "x/random"]));
    // Each row marks its winner: the seats of the best score, unless all tie.
    let mut faults = 0;
    for row in index["rows"].as_array().unwrap() {
        let id = row["id"].as_u64().unwrap().to_string();
        let m = matches.iter().find(|r| r["id"] == id).unwrap();
        let scores: Vec<i64> = (0..3)
            .map(|s| m[&format!("score{s}")].parse().unwrap())
            .collect();
        let best = *scores.iter().max().unwrap();
        let mut won: Vec<u64> = (0..3)
            .filter(|&s| scores[s] == best && scores.iter().any(|&o| o != best))
            .map(|s| s as u64 + 2)
            .collect();
        won.sort();
        let marked: Vec<u64> = row["winners"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        assert_eq!(marked, won, "match {id}: the winners' cells");
        // A fault names its champion.
        for link in row["links"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["cls"] == "fault")
        {
            faults += 1;
            let text = link["text"].as_str().unwrap();
            assert!(text.starts_with("x/random: crash at step "), "{text}");
        }
    }
    assert_eq!(faults, ids_with(&["x/random"]).len());
}

/// `cp -a from to`.
fn copy(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// The Amazons (two seats) in two shards merged with `--html`: the merged index links
/// each shard's replays, a replay's links lead across the shards and back to the merged
/// index, and a fault leads to the step of its move.
#[test]
fn an_amazons_tournament_merged_from_shards_links_across_them() {
    let Some(chromium) =
        common::browser_ready("an_amazons_tournament_merged_from_shards_links_across_them")
    else {
        return;
    };
    let dir = common::fresh_dir("index-browser", "amazons");
    let crash = common::amazons_crashing_champion(&dir, "crash.py", 3);
    for shard in ["1/2", "2/2"] {
        run(&[
            "--game",
            "amazons",
            "tournament",
            "mobility",
            "random",
            crash.to_str().unwrap(),
            "--rounds",
            "2",
            "--seed",
            "8",
            "--name",
            "t",
            "--shard",
            shard,
            "--results",
            dir.to_str().unwrap(),
        ]);
    }
    let t = canonical(&dir.join("t"));
    let shards = [t.join("shard-1-of-2"), t.join("shard-2-of-2")];
    run(&[
        "--game",
        "amazons",
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--html",
    ]);
    let matches = common::tables::table(&t.join("matches.csv"));
    assert_eq!(matches.len(), 6);
    let states = drive(
        &chromium,
        &t.join("index.html"),
        &[
            "follow:#matches tbody tr:nth-child(1) a.replay",
            "follow:#nav-next",
            "follow:#nav-index",
            "type:#filter=crash",
            "follow:#matches a.fault",
        ],
    );
    let index = &states[0];
    assert_eq!(index["total_rows"], 6);
    for row in index["rows"].as_array().unwrap() {
        let id = row["id"].as_u64().unwrap();
        // Ids alternate between the shards: id % 2 == shard - 1.
        let page = shards[(id % 2) as usize].join(format!("matches/{id}/replay.html"));
        assert_eq!(target(&row["first"]["href"]).0, page);
        assert_eq!(
            row["cells"].as_array().unwrap().len(),
            2 + 2 + 2 + 2 + 3,
            "two seats"
        );
    }
    assert_eq!(at(&states[1]), shards[0].join("matches/0/replay.html"));
    assert_eq!(at(&states[2]), shards[1].join("matches/1/replay.html"));
    assert_eq!(at(&states[3]), t.join("index.html"));
    // The crashing champion's first fault: its replay at the fault's move.
    let fault = &states[4]["faults"][0];
    let (page, hash) = target(&fault["href"]);
    let record: arena::GameRecord =
        serde_json::from_slice(&std::fs::read(page.parent().unwrap().join("record.json")).unwrap())
            .unwrap();
    let turn = record.fault_steps()[0];
    assert_eq!(hash, format!("step={turn}"));
    assert_eq!(at(&states[5]), page);
    assert_eq!(states[5]["step"], turn as u64);
    assert!(states[5]["url"]
        .as_str()
        .unwrap()
        .ends_with(&format!("#step={turn}")));
}

/// A tournament resumed after its index was written: the new match gets its page, and
/// the page before it now links to it.
#[test]
fn a_resumed_tournament_brings_the_replays_links_up_to_date() {
    let dir = common::fresh_dir("index-browser", "resume");
    copy(loi(), &dir.join("t"));
    let t = canonical(&dir.join("t"));
    // The copy resumes under a copy of the original's key and journal, out of its results
    // (the original's stay as they are for the other tests).
    let key = common::fresh_dir("index-browser", "resume-key").join("key");
    common::tables::copy_key(&common::default_key(loi()), &key);
    // Match 11 not played yet (the run killed while it played): its row and folder gone,
    // the journal cut there, the index written.
    common::tables::forget_match(&t, "11", &key);
    index::write(
        &t,
        &referee::games::loi_play::LOI,
        &index::Layout::default(),
    )
    .unwrap();
    let page10 = || std::fs::read_to_string(t.join("matches/10/replay.html")).unwrap();
    assert!(page10().contains("match 10 (11 of 11)") && !page10().contains("nav-next"));
    run(&[
        "tournament",
        "--resume",
        "--name",
        "t",
        "--html",
        "--key",
        key.to_str().unwrap(),
        "--results",
        dir.to_str().unwrap(),
    ]);
    assert!(page10().contains("match 10 (11 of 12)"), "{}", page10());
    assert!(page10().contains("<a id=\"nav-next\" rel=\"next\" href=\"../11/replay.html\">"));
    let page11 = std::fs::read_to_string(t.join("matches/11/replay.html")).unwrap();
    assert!(page11.contains("href=\"../10/replay.html\""));
    assert_eq!(page11.matches("<nav id=\"match-nav\">").count(), 1);
}

/// 1,000 matches (the 12 of the shared tournament, each copied as many times as needed,
/// ids 0..999): the index is written (each replay page's links rewritten) and becomes
/// interactive in the browser (the time it takes is printed: a figure of
/// referee/BENCHMARKS.md, not a bound); sorting and filtering still work.
#[test]
fn a_1000_match_index_becomes_interactive() {
    let Some(chromium) = common::browser_ready("a_1000_match_index_becomes_interactive") else {
        return;
    };
    let dir = common::fresh_dir("index-browser", "thousand");
    let t = dir.join("t");
    copy(loi(), &t);
    let csv = std::fs::read_to_string(t.join("matches.csv")).unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    let played: Vec<&str> = lines.collect();
    let mut out = format!("{header}\n");
    for id in 0..1000 {
        let row = played[id % played.len()];
        let (_, rest) = row.split_once(',').unwrap();
        out.push_str(&format!("{id},{rest}\n"));
        if id >= played.len() {
            copy(
                &t.join(format!("matches/{}", id % played.len())),
                &t.join(format!("matches/{id}")),
            );
        }
    }
    std::fs::write(t.join("matches.csv"), out).unwrap();
    let started = std::time::Instant::now();
    index::write(
        &t,
        &referee::games::loi_play::LOI,
        &index::Layout::default(),
    )
    .unwrap();
    let written = started.elapsed();
    let states = drive(
        &chromium,
        &t.join("index.html"),
        &[
            "click:#matches thead th:nth-child(2)",
            "type:#filter=random",
        ],
    );
    let ready_ms = states[0]["ready_ms"].as_f64().unwrap();
    println!(
        "index: 1000 matches, {} KiB: written in {} ms (every replay's links), interactive in the browser in {ready_ms:.0} ms",
        std::fs::metadata(t.join("index.html")).unwrap().len() / 1024,
        written.as_millis()
    );
    assert_eq!(states[0]["total_rows"], 1000);
    let down = ids(&states[1]);
    assert_eq!(down.first(), Some(&0), "ascending by id");
    assert_eq!(down.len(), 1000);
    assert!(states[2]["rows"].as_array().unwrap().len() < 1000);
    let last = std::fs::read_to_string(t.join("matches/999/replay.html")).unwrap();
    assert!(
        last.contains("match 999 (1000 of 1000)") && last.contains("href=\"../998/replay.html\"")
    );
    // How long it takes is a figure of the benchmark (referee/BENCHMARKS.md, the command
    // above prints it), never a bound of a test: a loaded machine is no bug.
    assert!(ready_ms > 0.0, "the page never said it was ready");
}
