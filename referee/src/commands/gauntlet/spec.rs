//! What a gauntlet plays: `gauntlet.json` for a new one (its champions resolved, named and
//! each put through the tournament's pre-run check before it is written), or the stored one
//! of a gauntlet to resume, checked against every flag and champion given; and the check
//! of each row of `matches.csv` a resume builds on.

use super::usage;
use crate::cli::GauntletArgs;
use crate::commands::tournament::{field, setup};
use crate::commands::Failure;
use crate::games::Game;
use crate::gauntlet::{Plan, Sprt};
use crate::roster::ChampionSpec;
use crate::standings::MatchRow;
use crate::store;
use anyhow::Context;
use jail::untrusted::printable;
use std::path::Path;

/// What to do about a row of `matches.csv` that the gauntlet did not write.
pub(super) const EDITED_ROW_FIX: &str = "this row is not one the gauntlet wrote (the file was \
    edited, or comes from another gauntlet): restore the file the referee wrote, or delete the \
    row and run --resume (which puts back the row the referee wrote, from its match's seal, \
    or plays the match again)";

/// `gauntlet.json`: what the gauntlet is, so that `--resume` plays the same matches.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct Spec {
    pub schema: u32,
    pub game: String,
    pub seed: u64,
    pub sprt: Sprt,
    pub max_pairs: u64,
    /// Every limit flag of the run (`--resume` compares and takes them).
    pub limits: crate::tournament::LimitsSpec,
    /// Candidate, baseline, opponents: (name, given, identity).
    pub champions: Vec<(String, String, String)>,
    /// Each champion's snapshot (`None` for a built-in), by the index of `champions`;
    /// empty in a gauntlet started before snapshots (it resumes from the champions' own
    /// files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub snapshots: Vec<Option<SnapshotSpec>>,
    /// `snapshot::kits_identity` at the start; absent before snapshots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kits: Option<crate::snapshot::KitsIdentity>,
    /// The seats of a match (`--seats`); absent when they are the game's fewest (every
    /// file written before the choice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The game's options (`--option`); absent for a game that takes none, and in files
    /// written before options (read as the game's defaults).
    #[serde(default, skip_serializing_if = "crate::tournament::no_options")]
    pub options: game::Options,
}

/// Where a champion of a gauntlet plays from.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct SnapshotSpec {
    /// Its program under the gauntlet's `snapshots/` (`<sha256>/champion`).
    pub program: String,
    /// The program it was taken from, with its SHA-256 then.
    pub origin: String,
    pub sha256: String,
}

impl Spec {
    /// The seats of its matches (checked when the file was read: [`parse`]).
    pub fn seat_count(&self, game: &dyn Game) -> usize {
        crate::tournament::seat_count(self.seats, game).unwrap_or_else(|_| game.seats())
    }

    /// The options of its matches, checked against the game's.
    pub fn options(&self, game: &dyn Game) -> Result<game::Options, String> {
        crate::tournament::stored_options(&self.options, game)
    }

    /// Whether `row` (of `matches.csv`) is match `row.id` of this gauntlet: in its range,
    /// on its seed, with its champions in their seats, and points that are the game's for
    /// its scores. A row that is not (an edited file, another gauntlet's) would make the
    /// verdict about other matches.
    pub fn check_row(
        &self,
        plan: &Plan,
        row: &MatchRow,
        first_player: u8,
        game: &dyn Game,
    ) -> Result<(), String> {
        if row.id >= 2 * self.max_pairs {
            return Err(format!(
                "match {} is not one of this gauntlet's (matches 0 to {})",
                row.id,
                2 * self.max_pairs - 1
            ));
        }
        let pairing = plan.pairing(row.id);
        if row.seed != pairing.seed {
            return Err(format!(
                "match {} has seed {}, the gauntlet's is {}",
                row.id, row.seed, pairing.seed
            ));
        }
        let names: Vec<&str> = pairing
            .seats
            .iter()
            .map(|&c| self.champions.get(c).map_or("?", |e| e.0.as_str()))
            .collect();
        if row.champions != names {
            return Err(format!(
                "match {} seats {}, the gauntlet seats {}",
                row.id,
                printable(&row.champions.join(", ")),
                printable(&names.join(", "))
            ));
        }
        row.check_points(game.points())?;
        game.check_row(row, first_player)
            .map_err(|e| format!("match {}: {e}", row.id))
    }
}

/// A new gauntlet in `dir`: its champions resolved and named, refused if one cannot play
/// (a person, or a program that fails the pre-run check), then `gauntlet.json` written.
pub(super) fn started(
    args: &GauntletArgs,
    dir: &Path,
    jobs: usize,
    game: &'static dyn Game,
    seal: impl FnOnce(&Spec, &Path, &[u8]) -> Result<(), Failure>,
) -> Result<(Spec, Vec<ChampionSpec>), Failure> {
    let spec_path = dir.join("gauntlet.json");
    if spec_path.exists() {
        return Err(usage(format!(
            "{} already holds a gauntlet; pass --resume to continue it, or choose another \
             --name",
            dir.display()
        )));
    }
    if dir.join("tournament.json").exists() {
        return Err(usage(format!(
            "{} holds a tournament; choose another --name for the gauntlet",
            dir.display()
        )));
    }
    let time = args.limits.time().map_err(usage)?;
    let process = args.limits.process().map_err(usage)?;
    let (Some(candidate), Some(baseline)) = (&args.candidate, &args.baseline) else {
        return Err(usage(
            "a gauntlet needs a candidate and a baseline: `gauntlet CANDIDATE BASELINE \
             [OPPONENT...]`",
        ));
    };
    let spread = crate::gauntlet::spread(game.points());
    if args.min_diff > spread {
        return Err(usage(format!(
            "--min-diff {} is more than a match of {} can tell two champions apart (at most \
             {spread} points): give a difference in points a match, such as 0.2",
            args.min_diff,
            game.title()
        )));
    }
    let seats = setup::seats_of(args.seats, game)?;
    let options = crate::cli::words::options_of(game, &args.options).map_err(usage)?;
    let mut given = vec![candidate.clone(), baseline.clone()];
    if args.opponents.is_empty() {
        given.extend(game.builtins().iter().map(|b| b.to_string()));
    } else {
        given.extend(args.opponents.iter().cloned());
    }
    if given.len() < seats + 1 {
        return Err(usage(format!(
            "a gauntlet of {} needs at least {} opponent(s), got {}",
            game.title(),
            seats - 1,
            given.len() - 2
        )));
    }
    let mut champions =
        crate::roster::resolve_all(given.iter().map(String::as_str), |g| game.resolve(g))
            .map_err(Failure::usage)?;
    if let Some(human) = champions.iter().find(|c| c.is_human()) {
        return Err(usage(format!(
            "`{}` cannot play in a gauntlet: its matches run unattended and in parallel; \
             compare two programs, and play them yourself one match at a time with `{} \
             {}match human ...`",
            printable(&human.given),
            crate::cli::words::program(),
            crate::cli::words::game_flag(game.name()),
        )));
    }
    crate::commands::names::name_all(&mut champions, &[], game.builtins())?;
    field::warn_same_programs(&champions);
    // An opponent that is the candidate's or the baseline's program (the default built-ins
    // against a built-in) is told apart by its role.
    for i in 2..champions.len() {
        if champions[..i].iter().any(|c| c.name == champions[i].name) {
            champions[i].name = format!("opponent-{}", champions[i].name);
        }
    }
    crate::run_files::make_folder(dir)?;
    let (champions, kits) = setup::snapshot_all(champions, dir)?;
    // Before any match: a champion that cannot start or answer `init_game` would lose
    // every match by a fault, and the verdict would be about that, not about its play.
    let count = champions.len();
    let (_, broken) = field::check_all(champions.clone(), dir, jobs, time, &process, game)?;
    if !broken.is_empty() {
        return Err(usage(format!(
            "{} of the gauntlet's {count} champions failed the pre-run check (see above), so \
             no match was played: fix {} (its stderr is in {}), then run the gauntlet again",
            broken.len(),
            if broken.len() == 1 { "it" } else { "them" },
            printable(&dir.join("check").display().to_string())
        )));
    }
    eprintln!("pre-run check: {count} champions answered init_game");
    let spec = Spec {
        schema: crate::export::RESULTS_SCHEMA,
        game: game.name().into(),
        seed: args.seed.unwrap_or_else(rand::random),
        sprt: Sprt {
            alpha: args.alpha,
            beta: args.beta,
            min_diff: args.min_diff,
        },
        max_pairs: args.max_pairs,
        limits: setup::limits_spec(&args.limits),
        champions: champions
            .iter()
            .map(|c| (c.name.clone(), c.given.clone(), c.identity.clone()))
            .collect(),
        snapshots: champions
            .iter()
            .map(|c| {
                c.snapshot.as_ref().map(|s| SnapshotSpec {
                    program: s.relative.clone(),
                    origin: s.origin.display().to_string(),
                    sha256: c.sha256.clone(),
                })
            })
            .collect(),
        kits: Some(kits),
        seats: (seats != game.seats()).then_some(seats),
        options: match game.options().is_empty() {
            true => game::Options::default(),
            false => options,
        },
    };
    let json = serde_json::to_string_pretty(&spec).expect("specs serialise") + "\n";
    seal(&spec, &spec_path, json.as_bytes())?;
    store::write_atomic(&spec_path, json.as_bytes())?;
    Ok((spec, champions))
}

/// `gauntlet.json` at `path`, of this referee's results schema and of a game it knows.
pub(super) fn read(path: &Path) -> anyhow::Result<Spec> {
    parse(
        path,
        &store::read_bytes(path, crate::run_bounds::DESCRIPTION)?,
    )
}

/// `gauntlet.json`'s `bytes`, read from `path`, of a results schema this referee reads and
/// of a game it knows.
pub(super) fn parse(path: &Path, bytes: &[u8]) -> anyhow::Result<Spec> {
    let spec: Spec = serde_json::from_slice(bytes)
        .with_context(|| format!("{} is not a gauntlet", path.display()))?;
    anyhow::ensure!(
        crate::export::reads_schema(u64::from(spec.schema)),
        "{} is of results schema {}; this referee reads schema {} (and 3, migrated)",
        path.display(),
        spec.schema,
        crate::export::RESULTS_SCHEMA,
    );
    let game = crate::games::by_name(&spec.game).ok_or_else(|| {
        anyhow::anyhow!(
            "{} is a gauntlet of game `{}`; read it {}",
            path.display(),
            printable(&spec.game),
            crate::cli::words::with_game_flag(&spec.game)
        )
    })?;
    // Values no flag gives (the file was edited) would make another test, or none.
    let pairs = crate::gauntlet::MIN_PAIRS as u64..=crate::gauntlet::MAX_PAIRS;
    let setup = crate::tournament::seat_count(spec.seats, game)
        .and_then(|_| spec.options(game).map(|_| ()))
        .err();
    let plan = Plan {
        seed: spec.seed,
        seats: spec.seat_count(game),
        opponents: spec.champions.len().saturating_sub(2),
    };
    let problem = setup
        .or_else(|| spec.sprt.problem(crate::gauntlet::spread(game.points())))
        .or_else(|| {
            (!pairs.contains(&spec.max_pairs)).then(|| {
                format!(
                    "max_pairs {} is not a number of pairs from {} to {}",
                    spec.max_pairs,
                    pairs.start(),
                    pairs.end()
                )
            })
        })
        .or_else(|| {
            (spec.champions.len() < 2 || !plan.is_playable()).then(|| {
                format!(
                    "{} champions: a gauntlet of {} has a candidate, a baseline and at least \
                     {} opponent(s)",
                    spec.champions.len(),
                    game.title(),
                    plan.seats - 1
                )
            })
        });
    if let Some(problem) = problem {
        anyhow::bail!(
            "{}: {problem}: this is not the file the referee wrote; restore it, or start the \
             gauntlet again under another --name",
            path.display()
        );
    }
    Ok(spec)
}

/// The gauntlet stored in `dir` (checked against its MAC under `master`, which gives the
/// run's key), checked against the flags and champions given.
pub(super) fn resumed(
    args: &GauntletArgs,
    dir: &Path,
    game: &'static dyn Game,
    master: Option<&crate::auth::MasterKey>,
) -> Result<(Spec, Vec<ChampionSpec>, Option<crate::auth::RunKey>), Failure> {
    let spec_path = dir.join("gauntlet.json");
    if !spec_path.exists() {
        return Err(usage(format!(
            "--resume: no gauntlet to resume in {} (no gauntlet.json); start it without \
             --resume, naming its candidate and baseline, or check --name and --results",
            dir.display()
        )));
    }
    let (spec, key) = crate::auth::read_description(
        &spec_path,
        master,
        |bytes| parse(&spec_path, bytes),
        |s| ("gauntlet", args.name.clone(), s.seed),
    )
    .map_err(|e| usage(format!("--resume: {e:#}")))?;
    if spec.game != game.name() {
        return Err(usage(format!(
            "{} is a gauntlet of game {}; this referee reads it {}",
            spec_path.display(),
            spec.game,
            crate::cli::words::with_game_flag(&spec.game)
        )));
    }
    // The gauntlet's own settings: a flag given (even at its default) must say the same.
    let conflict = |flag: &str, given: String, stored: String| {
        usage(format!(
            "--resume: {flag} {given} conflicts with the gauntlet's {flag} {stored} ({}); \
             drop {flag} or choose another --name",
            spec_path.display()
        ))
    };
    if let Some((flag, a, s)) = setup::limit_conflict(&args.limits, &spec.limits) {
        return Err(conflict(flag, a, s));
    }
    if let Some(seed) = args.seed.filter(|&s| s != spec.seed) {
        return Err(conflict("--seed", seed.to_string(), spec.seed.to_string()));
    }
    setup::check_seats_and_options(
        (args.seats, &args.options),
        (spec.seats, &spec.options),
        game,
        "gauntlet",
    )
    .map_err(|e| usage(format!("--resume: {e} ({})", spec_path.display())))?;
    let test = [
        ("alpha", "--alpha", args.alpha, spec.sprt.alpha),
        ("beta", "--beta", args.beta, spec.sprt.beta),
        ("min_diff", "--min-diff", args.min_diff, spec.sprt.min_diff),
        (
            "max_pairs",
            "--max-pairs",
            args.max_pairs as f64,
            spec.max_pairs as f64,
        ),
    ];
    for (id, flag, given, stored) in test {
        if args.explicit.iter().any(|e| e == id) && given != stored {
            return Err(conflict(flag, given.to_string(), stored.to_string()));
        }
    }
    // The champions named on the command line, if any, are the gauntlet's (opponents may
    // be left out): `gauntlet v3 v1 --resume` must not go on with v2's matches as v3's.
    let stored: Vec<&str> = spec.champions.iter().map(|c| c.1.as_str()).collect();
    let named: Vec<&str> = [&args.candidate, &args.baseline]
        .into_iter()
        .flatten()
        .chain(&args.opponents)
        .map(String::as_str)
        .collect();
    let expected = &stored[..named.len().min(stored.len())];
    let partial = named.len() > 2 && named.len() < stored.len();
    if !named.is_empty() && (named != expected || partial) {
        return Err(usage(format!(
            "--resume: the champions given ({}) are not the gauntlet's ({}) in {}; give its \
             own (the opponents may be left out), or choose another --name",
            printable(&named.join(" ")),
            printable(&stored.join(" ")),
            spec_path.display()
        )));
    }
    setup::check_kits(spec.kits.as_ref(), &spec_path)?;
    let mut champions = Vec::new();
    for (i, (name, given, identity)) in spec.champions.iter().enumerate() {
        if let Some(Some(snapshot)) = spec.snapshots.get(i) {
            // What the gauntlet started with, whatever became of the champion's own files.
            let c = crate::snapshot::resume(dir, &snapshot.program, name, given, &snapshot.origin)
                .context("--resume")
                .map_err(Failure::usage)?;
            if &c.identity != identity || c.sha256 != snapshot.sha256 {
                return Err(usage(format!(
                    "--resume: {}: champion `{}` is not the snapshot {}: restore the file the \
                     referee wrote, or start another --name",
                    spec_path.display(),
                    printable(name),
                    printable(&snapshot.program)
                )));
            }
            champions.push(c);
            continue;
        }
        let mut c = game.resolve(given).map_err(Failure::usage)?;
        if &c.identity != identity {
            return Err(usage(format!(
                "--resume: champion `{}` changed since the gauntlet started; restore it \
                 or start another --name",
                printable(name)
            )));
        }
        c.name = name.clone();
        champions.push(c);
    }
    Ok((spec, champions, key))
}
