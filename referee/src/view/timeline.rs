//! The timeline of a match: the record replayed through the engine (with
//! [`crate::replay::walk`]) into the ordered steps a viewer shows, so that no viewer ever
//! re-implements a rule.
//!
//! A step is either one callback (its actions with their result codes, consecutive
//! identical refusals grouped, the cells they aimed at, its information requests counted;
//! in Phase II the bid and sales waiting for the auction) or the end of a phase (`stage_end`: after Phase I of the three seats,
//! after the auction is resolved, after the placement, after `init_game` and `end_game`).
//! Each step carries the state right after it: the cells that changed since the previous
//! step, each seat's money, `score`, final score, the current monument, and the faults
//! that happened in it. During Phase II the state shown is the real one: the bids and sales
//! of the three seats take effect at the auction's `stage_end` step, which also names the
//! seats tied at the highest bid and the order that broke the tie; the end of a Phase III
//! says when the monument was lost, and why. Each seat carries the step from which a fault
//! stopped it.
//!
//! Refused actions: a record counts them by function and answer (`refused`); with the
//! match's full log ([`Timeline::build_in`]) they are in `actions`, in order, with their
//! arguments and target cells (past [`super::step_actions::ACTIONS_MAX`] entries in one
//! callback, counted in `refused` again).
//!
//! JSON encoding (the viewer's input, see `TIMELINE_SCHEMA`): a cell is
//! `[x, y, kind, owner, monument, value, worth]` with `kind` the subject's constant (0 empty,
//! 1 house, 2 reservation, 3 monument, 4 road), `owner` a seat or 3 for none (the town
//! hall), `monument` an id or -1, `value` `valeur_case`, `worth` what a house there is worth
//! (rule 8); `initial` lists the cells that are not empty or have a value at the start, and
//! each step lists in `cells` only the cells that changed. An action is `[call, code]`, or
//! `[call, code, count]` for `count` consecutive identical refusals; a target
//! `[x, y, code]` (0 when an action on it succeeded). Optional fields (`seat`, `bids`,
//! `winner`, `tie`, `lost`, `pending`, `monument`, `stopped_at`, empty
//! `actions`/`refused`/`targets`/`cells`/`faults`) are left out when absent.

use super::auction::{explain_lost, lost_of, tie_of, LostView, TieView};
use super::step_actions::{refused_counts, ActionView, Gathered, PendingView};
use crate::record::{CallbackRecord, MatchRecord};
use crate::replay::{walk, walk_logged, Visitor};
use engine::board::CELLS;
use engine::monument::MONUMENTS;
use engine::{Call, Callback, Game, Kind, Pos, Seat, Stage};
use serde::Serialize;
use std::path::Path;

/// Version of the timeline's JSON; bumped on any incompatible change (2: cells carry their
/// worth, actions may be grouped).
pub const TIMELINE_SCHEMA: u32 = 2;

/// A cell as the viewers see it: `[x, y, kind, owner, monument, value, worth]`.
pub type CellView = [i32; 7];

/// The whole match, step by step.
#[derive(Clone, Debug, Serialize)]
pub struct Timeline {
    pub schema: u32,
    /// The match seed, as text (a u64 does not fit a JavaScript number).
    pub seed: String,
    pub first_player: u8,
    pub monument_order: Vec<u8>,
    pub seats: Vec<SeatView>,
    /// The 14 monuments, by id: name, prestige, range.
    pub monuments: Vec<MonumentView>,
    /// Cells that are not empty (or have a value) before `init_game`.
    pub initial: Vec<CellView>,
    pub steps: Vec<Step>,
    /// Smallest rectangle `[x0, y0, x1, y1]` holding every cell ever built on.
    pub bounds: [i32; 4],
    /// Requests in the record, information and actions.
    pub requests: usize,
    /// Whether the match's full log was read: refused actions are then in each step's
    /// `actions`, with their arguments, instead of counted in `refused`.
    pub full_log: bool,
    /// Whether those refused actions were read from the match's full log (the 2009 game's
    /// own record); the one record of every game holds them itself.
    #[serde(skip)]
    pub log_read: bool,
    /// Why a full log beside the record was not used, when it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_note: Option<String>,
    /// The end of the match; `None` for a game still being played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
}

/// A seat and its champion.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    pub seat: u8,
    pub name: String,
    pub path: String,
    /// The step of the fault that stopped this seat (it plays no more from there on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at: Option<usize>,
}

/// A monument kind.
#[derive(Clone, Debug, Serialize)]
pub struct MonumentView {
    pub id: u8,
    pub name: &'static str,
    pub prestige: i32,
    pub range: i32,
}

/// The record's result.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    pub final_scores: [i32; 3],
    pub money: [i32; 3],
    pub houses: [u32; 3],
    pub points: [u32; 3],
}

/// One callback, or the end of a phase.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub turn: u8,
    /// 0 outside turns (`init_game`, `end_game`), else 1, 2 or 3.
    pub phase: u8,
    pub kind: StepKind,
    /// The seat playing, for a callback step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The callback played, or the callback of the stage that ended.
    pub callback: Callback,
    /// The action requests of the callback with their result code, in order: those that
    /// succeeded, and with the full log those refused too (consecutive identical refusals
    /// grouped).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<ActionView>,
    /// Refused actions counted, not listed in `actions`: `(function, code, count)`; all of
    /// them without the full log, those past [`super::step_actions::ACTIONS_MAX`] entries
    /// with it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<(String, i32, u64)>,
    /// The cells the actions aimed at, `[x, y, code]`: 0 if one succeeded there, else the
    /// last refusal's code (at most [`super::step_actions::TARGETS_MAX`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<[i32; 3]>,
    /// Target cells not listed in `targets`.
    #[serde(skip_serializing_if = "is_zero")]
    pub targets_more: u32,
    /// In Phase II, the seat's bid and sales, applied when the auction is resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<PendingView>,
    /// Information requests (and `etat`) of the callback, counted.
    #[serde(skip_serializing_if = "is_zero")]
    pub info: u32,
    /// The cells that changed since the previous step.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<CellView>,
    pub money: [i32; 3],
    /// `score(j)`: the worth of each seat's houses.
    pub score: [i32; 3],
    /// Money + score.
    #[serde(rename = "final")]
    pub final_score: [i32; 3],
    /// The bids, on the step that resolves an auction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bids: Option<[i32; 3]>,
    /// The auction's winner, on the step that resolves it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<u8>,
    /// On the step that resolves an auction, the tie at the highest bid, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tie: Option<TieView>,
    /// On the step that ends a Phase III, the monument lost, if it was not built.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<LostView>,
    /// `monument_en_cours`, once drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monument: Option<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<FaultView>,
}

/// What a step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    Callback,
    StageEnd,
}

/// A fault, on the step where it happened.
#[derive(Clone, Debug, Serialize)]
pub struct FaultView {
    pub seat: u8,
    pub kind: String,
    /// Escaped as every view shows a champion's text (`jail::untrusted::printable`).
    pub message: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Step {
    /// A short label: `turn 3 phase II, jouer of seat 1` or `turn 3, end of phase II`.
    pub fn label(&self) -> String {
        let when = match (self.phase, self.callback) {
            (0, Callback::InitGame) => "start".to_string(),
            (0, _) => "end".to_string(),
            (p, _) => format!("turn {} phase {}", self.turn, roman(p)),
        };
        match (self.kind, self.seat) {
            (StepKind::Callback, Some(seat)) => format!("{when}, {} of seat {seat}", self.callback),
            _ if self.phase == 0 => format!("{when}, after {}", self.callback),
            _ => format!("{when}, end of the phase"),
        }
    }
}

/// `I`, `II`, `III`.
pub fn roman(phase: u8) -> &'static str {
    match phase {
        1 => "I",
        2 => "II",
        3 => "III",
        _ => "-",
    }
}

impl Timeline {
    /// Replay `record` into its timeline; fails where the replay parts ways with the record.
    /// Refused actions are counted, as the record keeps them.
    pub fn build(record: &MatchRecord) -> anyhow::Result<Timeline> {
        Timeline::build_logged(record, None)
    }

    /// [`Timeline::build`], reading the match's full log from `dir` (the record's directory)
    /// when the record has one, so that refused actions come with their arguments; a log
    /// that is missing or does not replay is noted in `log_note` and the record alone used.
    pub fn build_in(record: &MatchRecord, dir: Option<&Path>) -> anyhow::Result<Timeline> {
        let (Some(dir), Some(name)) = (dir, record.full_log.as_deref()) else {
            return Timeline::build(record);
        };
        let path = dir.join(name);
        let note = match crate::full_log::Reader::open(&path) {
            Ok(mut reader) => match Timeline::build_logged(record, Some(&mut reader)) {
                Ok(mut timeline) => {
                    timeline.log_note = record.full_log_cut.map(|cut| {
                        format!(
                            "the full log reached its cap at callback #{} (after {} of its \
                             requests): refused actions from there are counted only",
                            cut.callback, cut.requests
                        )
                    });
                    return Ok(timeline);
                }
                Err(e) => format!("{e:#}"),
            },
            Err(e) => e,
        };
        let mut timeline = Timeline::build(record)?;
        timeline.log_note = Some(format!(
            "the full log {} was not used ({note}): refused actions are counted only",
            path.display()
        ));
        Ok(timeline)
    }

    fn build_logged(
        record: &MatchRecord,
        log: Option<&mut crate::full_log::Reader>,
    ) -> anyhow::Result<Timeline> {
        let full_log = log.is_some();
        let initial_game = Game::new(engine::Setup::with_order(
            engine::Setup::check_order(&record.monument_order).map_err(anyhow::Error::msg)?,
            Seat(record.first_player.min(2)),
        ));
        let mut builder = Builder::new(full_log, &initial_game);
        let walked = match log {
            Some(reader) => walk_logged(record, Some(reader), &mut builder),
            None => walk(record, &mut builder),
        };
        let (_, requests) =
            walked.map_err(|e| anyhow::anyhow!("the record does not replay: {e}"))?;
        let faults = attach_faults(record, &builder.steps);
        let seats = record
            .seats
            .iter()
            .map(|s| (s.seat, s.name.clone(), s.path.clone()))
            .collect();
        let mut timeline = builder.finish(&initial_game, seats, faults, requests);
        timeline.seed = record.seed.to_string();
        timeline.log_read = full_log;
        // The record's result, which `replay` checks against the game's.
        let result = &record.result;
        timeline.result = Some(ResultView {
            final_scores: result.final_scores,
            money: result.money,
            houses: result.houses,
            points: result.points,
        });
        Ok(timeline)
    }

    /// Every cell of the map (row-major, 10,000) as it is right after step `index`.
    pub fn cells_at(&self, index: usize) -> Vec<CellView> {
        let mut cells: Vec<CellView> = (0..CELLS)
            .map(|i| {
                let p = Pos::from_index(i);
                empty_at(i32::from(p.x), i32::from(p.y))
            })
            .collect();
        let changes = self.steps[..=index.min(self.steps.len() - 1)]
            .iter()
            .flat_map(|s| &s.cells);
        for c in self.initial.iter().chain(changes) {
            cells[(c[1] * 100 + c[0]) as usize] = *c;
        }
        cells
    }

    /// The index of the step ending phase `phase` of turn `turn` (`phase` 0 with turn 1 is
    /// the end of `init_game`, with turn 15 the end of `end_game`).
    pub fn stage_end(&self, turn: u8, phase: u8) -> Option<usize> {
        self.steps.iter().position(|s| {
            s.kind == StepKind::StageEnd
                && s.turn == turn
                && s.phase == phase
                && (phase != 0 || (turn == 1) == (s.callback == Callback::InitGame))
        })
    }

    /// The faults of steps `..=index`, in order, with their step.
    pub fn faults_until(&self, index: usize) -> impl Iterator<Item = (&Step, &FaultView)> {
        self.steps[..=index.min(self.steps.len() - 1)]
            .iter()
            .flat_map(|s| s.faults.iter().map(move |f| (s, f)))
    }
}

fn empty_at(x: i32, y: i32) -> CellView {
    [x, y, 0, 3, -1, 0, 1]
}

fn cells_of(game: &Game) -> Vec<CellView> {
    let board = &game.state().board;
    board
        .cells()
        .iter()
        .enumerate()
        .map(|(i, cell)| {
            let p = Pos::from_index(i);
            [
                i32::from(p.x),
                i32::from(p.y),
                cell.kind as i32,
                cell.owner.map_or(3, |s| i32::from(s.0)),
                cell.monument.map_or(-1, i32::from),
                board.value(p),
                board.worth(p),
            ]
        })
        .collect()
}

/// What the timeline needs of a callback besides its actions, whatever record it comes
/// from: when it was played, by whom, its questions, and the refusals its record counts
/// without listing them.
pub(super) struct Played {
    pub turn: u8,
    pub phase: u8,
    pub seat: u8,
    pub callback: Callback,
    /// Information requests (and `etat`).
    pub info: u64,
    /// Refused actions counted, not listed: `None` when every refusal went through
    /// [`Builder::action`] (with their arguments).
    pub refused: Option<Vec<(String, i32, u64)>>,
}

/// The steps of a match, built as it is replayed: each callback's actions as they are made
/// again ([`Builder::action`]), the end of each callback and of each stage with the game
/// right after it. The one builder of the 2009 timeline, whatever the record replayed.
pub(super) struct Builder {
    /// Whether refused actions are listed (else the record's counts are shown).
    full_log: bool,
    previous: Vec<CellView>,
    pub(super) steps: Vec<Step>,
    /// The actions of the callback being replayed.
    gathered: Gathered,
    bounds: [i32; 4],
    initial: Vec<CellView>,
}

impl Builder {
    /// A builder from `initial` (the game before `init_game`).
    /// Refusals of the callback being replayed that the record counts only
    /// (`(function, code, count)`).
    pub(super) fn counted(&mut self, refused: &[(String, i32, u64)]) {
        for (function, code, n) in refused {
            self.gathered.counted(function, *code, *n);
        }
    }

    pub(super) fn new(full_log: bool, initial: &Game) -> Builder {
        let previous = cells_of(initial);
        let mut builder = Builder {
            full_log,
            initial: previous
                .iter()
                .copied()
                .filter(|c| *c != empty_at(c[0], c[1]))
                .collect(),
            previous,
            steps: Vec::new(),
            gathered: Gathered::default(),
            bounds: [50, 50, 50, 50],
        };
        for c in builder.initial.clone() {
            builder.widen(&c);
        }
        builder
    }

    /// The timeline of the steps built, with `faults` put on their steps (`(step, fault)`,
    /// in order); the seed and the result are the caller's to fill in.
    pub(super) fn finish(
        self,
        initial: &Game,
        seats: Vec<(u8, String, String)>,
        faults: Vec<(usize, FaultView)>,
        requests: usize,
    ) -> Timeline {
        let mut steps = self.steps;
        for (index, fault) in faults {
            if let Some(step) = steps.get_mut(index) {
                step.faults.push(fault);
            }
        }
        explain_lost(&mut steps);
        let state = initial.state();
        Timeline {
            schema: TIMELINE_SCHEMA,
            seed: String::new(),
            first_player: state.first.0,
            monument_order: state.monument_order.to_vec(),
            seats: seats
                .into_iter()
                .map(|(seat, name, path)| SeatView {
                    seat,
                    name,
                    path,
                    stopped_at: steps
                        .iter()
                        .position(|step| step.faults.iter().any(|f| f.seat == seat)),
                })
                .collect(),
            monuments: MONUMENTS
                .iter()
                .enumerate()
                .map(|(id, m)| MonumentView {
                    id: id as u8,
                    name: m.name,
                    prestige: m.prestige,
                    range: m.range,
                })
                .collect(),
            initial: self.initial,
            steps,
            bounds: self.bounds,
            requests,
            full_log: self.full_log,
            log_read: false,
            log_note: None,
            result: None,
        }
    }

    fn widen(&mut self, c: &CellView) {
        if c[2] != Kind::Vide as i32 {
            let b = &mut self.bounds;
            *b = [
                b[0].min(c[0]),
                b[1].min(c[1]),
                b[2].max(c[0]),
                b[3].max(c[1]),
            ];
        }
    }

    fn push(&mut self, mut step: Step, game: &Game) {
        let now = cells_of(game);
        let changed: Vec<CellView> = now
            .iter()
            .zip(&self.previous)
            .filter(|(a, b)| a != b)
            .map(|(a, _)| *a)
            .collect();
        for c in &changed {
            self.widen(c);
        }
        self.previous = now;
        let state = game.state();
        step.cells = changed;
        step.money = state.money;
        step.score = Seat::ALL.map(|s| state.score(s));
        step.final_score = Seat::ALL.map(|s| state.final_score(s));
        step.monument = state.current_monument;
        self.steps.push(step);
    }

    /// An action of the callback being replayed, answered `code` (0, or the refusal's).
    pub(super) fn action(&mut self, call: &Call, code: i32) {
        self.gathered.action(call, code);
    }

    /// The callback `played` is over; `game` is the state right after it.
    pub(super) fn callback(&mut self, played: Played, game: &Game) {
        let mut step = blank(
            played.turn,
            played.phase,
            StepKind::Callback,
            played.callback,
        );
        step.seat = Some(played.seat);
        let gathered = std::mem::take(&mut self.gathered);
        if played.callback == Callback::Enchere {
            step.pending = gathered.pending(|p| game.state().board.worth(p));
        }
        step.refused = match played.refused {
            Some(counted) if !self.full_log => counted,
            _ => gathered.overflow(),
        };
        step.actions = gathered.actions;
        step.targets = gathered.targets;
        step.targets_more = gathered.targets_more;
        step.info = u32::try_from(played.info).unwrap_or(u32::MAX);
        self.push(step, game);
    }

    /// Stage `ended` of turn `turn` is over; `game` is in the next stage.
    pub(super) fn stage(&mut self, ended: Stage, turn: u8, game: &Game) {
        let phase_ends = matches!(
            ended,
            Stage::Init
                | Stage::Build { slot: 2 }
                | Stage::Auction
                | Stage::Placement { .. }
                | Stage::End
        );
        let Some(callback) = ended.callback() else {
            return;
        };
        if !phase_ends {
            return;
        }
        let mut step = blank(turn, ended.phase(), StepKind::StageEnd, callback);
        if ended == Stage::Auction {
            let state = game.state();
            step.bids = Some(state.last_bids);
            step.winner = state.last_winner.map(|s| s.0);
            step.tie = tie_of(game);
        }
        if matches!(ended, Stage::Placement { .. }) {
            step.lost = lost_of(game);
        }
        self.push(step, game);
    }
}

pub(super) fn blank(turn: u8, phase: u8, kind: StepKind, callback: Callback) -> Step {
    Step {
        turn,
        phase,
        kind,
        seat: None,
        callback,
        actions: Vec::new(),
        refused: Vec::new(),
        targets: Vec::new(),
        targets_more: 0,
        pending: None,
        info: 0,
        cells: Vec::new(),
        money: [0; 3],
        score: [0; 3],
        final_score: [0; 3],
        bids: None,
        winner: None,
        tie: None,
        lost: None,
        monument: None,
        faults: Vec::new(),
    }
}

impl Visitor for Builder {
    fn request(&mut self, _: usize, _: &CallbackRecord, call: &Call, answer: i32) {
        self.action(call, answer);
    }

    fn refused(&mut self, _: usize, _: &CallbackRecord, call: &Call, answer: i32) {
        self.action(call, answer);
    }

    fn callback_end(&mut self, _: usize, played: &CallbackRecord, game: &Game) {
        let played = Played {
            turn: played.turn,
            phase: played.phase,
            seat: played.seat,
            callback: played.callback,
            info: played.info.values().sum::<u64>(),
            refused: Some(refused_counts(&played.refused)),
        };
        self.callback(played, game);
    }

    fn stage_end(&mut self, ended: Stage, turn: u8, game: &Game) {
        self.stage(ended, turn, game);
    }
}

/// Each fault of the record with the step it shows on: the callback it happened in, else
/// the first step of its turn and phase, else the first step.
fn attach_faults(record: &MatchRecord, steps: &[Step]) -> Vec<(usize, FaultView)> {
    record
        .faults
        .iter()
        .map(|fault| {
            let in_callback = fault.callback.and_then(|callback| {
                steps.iter().position(|s| {
                    s.kind == StepKind::Callback
                        && s.seat == Some(fault.seat)
                        && s.turn == fault.turn
                        && s.phase == fault.phase
                        && s.callback == callback
                })
            });
            let index = in_callback
                .or_else(|| {
                    steps
                        .iter()
                        .position(|s| s.turn == fault.turn && s.phase == fault.phase)
                })
                .unwrap_or(0);
            let view = FaultView {
                seat: fault.seat,
                kind: fault.kind.name().to_string(),
                message: jail::untrusted::printable(&fault.message).into_owned(),
            };
            (index, view)
        })
        .collect()
}

#[cfg(test)]
#[path = "timeline_tests.rs"]
mod tests;
