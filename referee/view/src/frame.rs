//! The replay page's frame, the same for every game (this crate's `assets/frame/`): the
//! title and seats, the step timeline with its controls, keys and the step in the URL, the
//! charts of any per-seat series the game gives, the console of the champions' stderr and
//! time, the faults on the timeline, the result at the last step. A game gives a [`GamePage`]:
//! its template (which extends `frame.html` with its board and its panels), its CSS and
//! script, the JSON of its steps, and the [`Frame`] of its match.

use crate::console_page::ConsoleView;
pub use crate::templates::script_json;
use crate::templates::{code, Templates};
use serde::Serialize;

/// What the frame shows of a match, whatever the game (`<script id="frame">`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Frame {
    /// The game's name in the page's markup (`loi`, `amazons`).
    pub game: &'static str,
    pub seats: Vec<Seat>,
    /// One entry a step of the page.
    pub steps: Vec<Step>,
    /// The number step 0 has in the URL and the step label (`#step=N`, as the game's
    /// `show --step N` counts).
    pub first: usize,
    /// What a group of steps is called (`turn`), when the game groups its steps.
    pub group_name: &'static str,
    /// The first step of each group, with its label: the ticks under the slider, the
    /// group keys and buttons. Empty: the game has no groups.
    pub groups: Vec<Group>,
    /// Marks above the slider: each fault, and the game's notes.
    pub marks: Vec<Mark>,
    /// Per-seat series, one chart each.
    pub series: Vec<Series>,
    /// The result at the last step, if the match has one to announce.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The footer's parts, and what comes after the page's time to be ready.
    pub footer: Vec<String>,
    /// The footer's parts that tell the future (the 2009 monument order): hidden in
    /// spoiler-free mode, shown after the page's time to be ready.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub footer_spoiler: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub footer_after: Vec<String>,
}

impl Frame {
    /// The frame of a game still being played whose seed is `seed`: no result, and no
    /// seed in its footer (the seed deals whatever the game keeps hidden; the seats' own
    /// randomness comes from it).
    pub fn while_played(mut self, seed: u64) -> Frame {
        self.result = None;
        let seed = format!("seed {seed}");
        self.footer.retain(|part| !part.eq_ignore_ascii_case(&seed));
        self
    }
}

/// Each seat's score after its colour, for a result (the arena's: a game's `describe`
/// says it too).
pub use arena::model::scores_in_words;

/// A seat as the frame shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Seat {
    pub name: String,
    /// The champion's path, shown as its name's tooltip.
    pub path: String,
    /// How the page marks it besides its colour (`A`; `White`).
    pub mark: String,
    /// The step of the fault that stopped it, if one did: its series dashed from there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at: Option<usize>,
}

impl Seat {
    /// The seats of an arena record, each marked by `marks` (one per seat, in order), none
    /// stopped.
    pub fn all_of(record: &arena::GameRecord, marks: &[&str]) -> Vec<Seat> {
        record
            .seats
            .iter()
            .zip(marks)
            .map(|(seat, mark)| Seat {
                name: seat.name.clone(),
                path: seat.path.clone(),
                mark: mark.to_string(),
                stopped_at: None,
            })
            .collect()
    }
}

/// A step as the frame labels it.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub label: String,
    /// Its group's number, for the group keys (steps of one group share it, groups
    /// increase along the match).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
}

/// The first step of a group.
#[derive(Clone, Debug, Serialize)]
pub struct Group {
    pub label: String,
    pub step: usize,
}

/// A mark above the slider.
#[derive(Clone, Debug, Serialize)]
pub struct Mark {
    pub step: usize,
    /// `fault`, or `note` (a moment of the game: the Amazons' isolation).
    pub kind: &'static str,
    /// Its tooltip.
    pub text: String,
}

/// A value per seat and per step, charted against the steps.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    pub title: String,
    /// `values[seat][step]`.
    pub values: Vec<Vec<i64>>,
}

/// A game's page: its parts inside the frame.
pub struct GamePage<'a> {
    /// The game's templates, which hold its page's.
    pub templates: &'static Templates,
    /// Its template, which extends `frame.html`.
    pub template: &'static str,
    /// The page's title (escaped by the template).
    pub title: String,
    pub frame: &'a Frame,
    pub console: &'a ConsoleView,
    /// The id of its data's `<script>` element, and the data ([`script_json`]).
    pub data_id: &'static str,
    pub data: minijinja::Value,
    /// Its CSS, after the frame's.
    pub css: &'a [&'static str],
    /// Its script, in parts, run after the frame's core and before the console and the
    /// start.
    pub js: &'a [&'static str],
}

const CSS: [&str; 2] = [
    include_str!("../assets/frame/frame.css"),
    include_str!("../assets/frame/console.css"),
];
const CORE: [&str; 2] = [
    include_str!("../assets/frame/frame.js"),
    include_str!("../assets/frame/chart.js"),
];
const END: [&str; 2] = [
    include_str!("../assets/frame/console.js"),
    include_str!("../assets/frame/start.js"),
];

/// The script of a page of a game still being played (`referee serve --web`): it follows
/// the game's event stream and grows the page (`viewer.grow`) as moves are played.
const LIVE: [&str; 1] = [include_str!("../assets/frame/live.js")];

/// The page: one self-contained HTML file (no network, works from `file://`).
pub fn page(game: &GamePage) -> anyhow::Result<String> {
    render_page(game, &[])
}

/// What the game server's site asks of a game still being played (the arena's, which
/// passes it to a game's pages).
pub use arena::model::LiveView;

/// Why a game still being played has no board yet: nothing to draw before its first move
/// (the 2009 game's timeline starts with its first callback). The site shows the game as
/// starting.
#[derive(Debug)]
pub struct NothingYet;

impl std::fmt::Display for NothingYet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no move is played yet")
    }
}

impl std::error::Error for NothingYet {}

/// `game` (a game still being played, made by its game with nothing a seat must not see
/// before the end) as `view` asks: one path for every game, so that the live board is
/// the replay page's drawing.
pub fn live(game: &GamePage, view: LiveView) -> anyhow::Result<String> {
    match view {
        LiveView::Page => render_page(game, &LIVE),
        // Both values are JSON already (escaped for a script element, still JSON).
        LiveView::Growth => Ok(format!(
            r#"{{"frame":{},"data":{}}}"#,
            script_json(game.frame),
            game.data
        )),
    }
}

fn render_page(game: &GamePage, more: &[&str]) -> anyhow::Result<String> {
    let css: Vec<&str> = CSS.iter().chain(game.css).copied().collect();
    let js: Vec<&str> = CORE
        .iter()
        .chain(game.js)
        .chain(END.iter())
        .chain(more)
        .copied()
        .collect();
    let series: Vec<&str> = game.frame.series.iter().map(|s| s.title.as_str()).collect();
    game.templates.render(
        game.template,
        minijinja::context! {
            title => game.title,
            game => game.frame.game,
            groups => !game.frame.groups.is_empty(),
            group_name => game.frame.group_name,
            series => series,
            css => code(&css),
            js => code(&js),
            frame_json => script_json(game.frame),
            data_id => game.data_id,
            data_json => game.data.clone(),
            console_json => script_json(game.console),
        },
    )
}
