//! The terminal view of a match at one step: the board around the built area with
//! labelled rows and columns, then each seat's money, houses' worth, final score (the rule
//! book's words) and last bid, the actions of the step, and the faults so far. Colours
//! (ANSI, by owner) are optional.
//! Names, requests and fault messages come from champions: they are shown
//! [`printable`], so the only escape sequences in the output are the colours.

use super::timeline::{roman, CellView, Step, StepKind, Timeline};
use crate::export::table::width;
use jail::untrusted::printable;
use std::fmt::Write;

/// The colours, as SGR parameters. Each is one of xterm's 256 colours (`38;5;N`), whose
/// values terminals keep, not one of the 16 base colours, which each theme redefines (on
/// black, xterm's blue `34` has a contrast of 2.2:1; Solarized's bright black `90` is its
/// own dark background). Each has a contrast of at least 3:1 (WCAG's minimum for large
/// text and graphics) against black, white and Solarized's dark and light backgrounds:
/// mid-luminance hues, readable on dark and light terminals alike (tested below).
///
/// Seats 0, 1, 2: red, blue, green (the hues of the HTML viewer).
const SEAT_COLOURS: [&str; 3] = ["38;5;196", "38;5;32", "38;5;28"];
/// Town-hall houses: grey, bold.
const TOWN_HALL: &str = "1;38;5;244";
/// Monuments: magenta, bold.
const MONUMENT: &str = "1;38;5;133";
/// Roads: dim (half the terminal's own text colour, whatever its background).
const ROAD: &str = "2";
/// Faults: bold red.
const FAULT: &str = "1;38;5;196";

/// `text` in the ANSI colour `code` when `colour` is on (and `code` names one).
fn paint(text: &str, code: &str, colour: bool) -> String {
    if colour && !code.is_empty() {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Render step `index` of `timeline` as text; `colour` turns ANSI escapes on.
pub fn render(timeline: &Timeline, index: usize, colour: bool) -> String {
    let index = index.min(timeline.steps.len() - 1);
    let step = &timeline.steps[index];
    let paint = |text: &str, code: &str| paint(text, code, colour);
    let mut out = String::new();
    let shown: Vec<String> = timeline
        .seats
        .iter()
        .map(|s| printable(&s.name).into_owned())
        .collect();
    let names: Vec<String> = timeline
        .seats
        .iter()
        .zip(&shown)
        .map(|(s, name)| format!("{name} (seat {})", s.seat))
        .collect();
    let _ = writeln!(out, "match seed {}: {}", timeline.seed, names.join(", "));
    let _ = write!(
        out,
        "step {}/{}: {}",
        index + 1,
        timeline.steps.len(),
        step.label()
    );
    match step.monument {
        Some(id) => {
            let m = &timeline.monuments[usize::from(id)];
            let _ = writeln!(
                out,
                "; monument {id} {} ({:+}, range {})",
                m.name, m.prestige, m.range
            );
        }
        None => out.push('\n'),
    }
    out.push('\n');

    // The players.
    let bids = last_bids(timeline, index);
    let width = width("champion", shown.iter().map(String::as_str));
    let _ = writeln!(
        out,
        "seat  {:<width$}  {:>5}  {:>13}  {:>11}  {:>8}",
        "champion", "money", "houses' worth", "final score", "last bid"
    );
    for (seat, shown) in timeline.seats.iter().zip(&shown) {
        let s = usize::from(seat.seat);
        let bid = match bids {
            Some((bids, winner)) => {
                format!(
                    "{}{}",
                    bids[s],
                    if winner == Some(seat.seat) {
                        " *"
                    } else {
                        "  "
                    }
                )
            }
            None => "-  ".to_string(),
        };
        let name = format!("{shown:<width$}");
        let line = format!(
            "{:<4}  {}  {:>5}  {:>13}  {:>11}  {:>8}",
            format!("{s} {}", char::from(b'A' + seat.seat.min(2))),
            paint(&name, SEAT_COLOURS.get(s).copied().unwrap_or("")),
            step.money[s],
            step.score[s],
            step.final_score[s],
            bid
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if bids.is_some() {
        out.push_str("(* won the last auction)\n");
    }
    out.push('\n');

    // The board.
    out.push_str(&board(
        &timeline.cells_at(index),
        1,
        "A B C houses of seats 0 1 2, a b c their reservations, H town-hall house, # road, 0..13 monument",
        colour,
    ));
    out.push('\n');

    // What happened in this step: its callback's actions, or at the end of a phase those
    // of every callback of the phase.
    match step.kind {
        StepKind::Callback => out.push_str(&actions_of(step)),
        _ => {
            let phase = timeline.steps[..index]
                .iter()
                .rev()
                .take_while(|s| {
                    s.kind == StepKind::Callback && s.turn == step.turn && s.phase == step.phase
                })
                .collect::<Vec<_>>();
            for s in phase.into_iter().rev() {
                out.push_str(&actions_of(s));
            }
            if let (Some(bids), Some(winner)) = (step.bids, step.winner) {
                let _ = writeln!(
                    out,
                    "auction resolved: bids {} {} {}, seat {winner} wins",
                    bids[0], bids[1], bids[2]
                );
            }
        }
    }
    let faults: Vec<String> = timeline
        .faults_until(index)
        .map(|(s, f)| {
            let when = if s.phase == 0 {
                format!("turn {}", s.turn)
            } else {
                format!("turn {} phase {}", s.turn, roman(s.phase))
            };
            format!(
                "  seat {} {when}: {}: {}",
                f.seat,
                printable(&f.kind),
                printable(&f.message)
            )
        })
        .collect();
    if faults.is_empty() {
        out.push_str("faults: none\n");
    } else {
        out.push_str("faults:\n");
        for f in faults {
            out.push_str(&paint(&f, FAULT));
            out.push('\n');
        }
    }
    out
}

/// The built area of `cells` (the whole map, index `y * 100 + x`) with `margin` cells
/// around it, under a line naming its columns and rows and `legend`; `colour` turns ANSI
/// escapes on. The terminal view and the human seat of the 2009 game share it.
pub fn board(cells: &[CellView], margin: i32, legend: &str, colour: bool) -> String {
    let paint = |text: &str, code: &str| paint(text, code, colour);
    let mut out = String::new();
    let [x0, y0, x1, y1] = built_bounds(cells, margin);
    let _ = writeln!(out, "board, columns x {x0}..{x1}, rows y {y0}..{y1}:");
    for line in wrap(legend, 78) {
        let _ = writeln!(out, "  {line}");
    }
    // A cell is two characters wide, or three when a monument of two digits is in view,
    // so that its id never pushes the columns after it.
    let wide = (y0..=y1).any(|y| {
        (x0..=x1).any(|x| {
            let c = &cells[(y * 100 + x) as usize];
            c[2] == 3 && c[4] >= 10
        })
    });
    let w = if wide { 3 } else { 2 };
    let mut tens = String::from("     ");
    let mut units = String::from("     ");
    for x in x0..=x1 {
        if x == x0 || x % 10 == 0 {
            let _ = write!(tens, "{:<w$}", x / 10);
        } else {
            tens.push_str(&" ".repeat(w));
        }
        let _ = write!(units, "{:<w$}", x % 10);
    }
    let _ = writeln!(out, "{}", tens.trim_end());
    let _ = writeln!(out, "{}", units.trim_end());
    for y in y0..=y1 {
        let mut line = format!("{y:>3}  ");
        for x in x0..=x1 {
            let (glyph, code) = glyph(&cells[(y * 100 + x) as usize]);
            line.push_str(&paint(&format!("{glyph:<w$}"), code));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// The line of a callback step: its seat, callback, actions with their answers, and how
/// many information requests it made.
fn actions_of(step: &Step) -> String {
    let actions: Vec<String> =
        step.actions
            .iter()
            .map(|a| {
                let times = if a.count > 1 {
                    format!(" x {}", a.count)
                } else {
                    String::new()
                };
                format!("{} -> {}{times}", printable(&a.call), code_name(a.code))
            })
            .chain(step.refused.iter().map(|(function, code, n)| {
                format!("{n} refused {function} -> {}", code_name(*code))
            }))
            .collect();
    format!(
        "actions of seat {} in {}: {}; {} information request(s)\n",
        step.seat.map_or("-".to_string(), |s| s.to_string()),
        step.callback,
        if actions.is_empty() {
            "none".to_string()
        } else {
            actions.join(", ")
        },
        step.info
    )
}

/// `text` cut at its `, ` into lines of at most `width` characters (a part longer than
/// that stays whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for part in text.split(", ") {
        match lines.last_mut() {
            Some(line) if line.len() + 2 + part.len() < width => {
                line.push_str(", ");
                line.push_str(part);
            }
            Some(line) => {
                line.push(',');
                lines.push(part.to_string());
            }
            None => lines.push(part.to_string()),
        }
    }
    lines
}

/// The bids and winner of the last auction resolved at or before step `index`.
fn last_bids(timeline: &Timeline, index: usize) -> Option<([i32; 3], Option<u8>)> {
    timeline.steps[..=index]
        .iter()
        .rev()
        .find_map(|s: &Step| s.bids.map(|b| (b, s.winner)))
}

/// The rectangle of the built cells, `margin` cells around, clipped to the map.
fn built_bounds(cells: &[CellView], margin: i32) -> [i32; 4] {
    let mut b = [50, 50, 50, 50];
    for c in cells.iter().filter(|c| c[2] != 0) {
        b = [
            b[0].min(c[0]),
            b[1].min(c[1]),
            b[2].max(c[0]),
            b[3].max(c[1]),
        ];
    }
    [
        (b[0] - margin).max(0),
        (b[1] - margin).max(0),
        (b[2] + margin).min(99),
        (b[3] + margin).min(99),
    ]
}

/// The characters (padded by the caller) and an ANSI colour of a cell: the engine's board letters (`A`/`B`/`C`
/// houses of seats 0/1/2, `a`/`b`/`c` their reservations, `H` a town-hall house), `#` a
/// road, a monument's id.
fn glyph(c: &CellView) -> (String, &'static str) {
    let owner = c[3];
    let seat = (0..3).contains(&owner).then_some(owner as u8);
    let colour = seat.map_or(TOWN_HALL, |s| SEAT_COLOURS[usize::from(s)]);
    match c[2] {
        1 => match seat {
            Some(s) => (char::from(b'A' + s).to_string(), colour),
            None => ("H".to_string(), TOWN_HALL),
        },
        2 => (char::from(b'a' + seat.unwrap_or(0)).to_string(), colour),
        3 => (c[4].to_string(), MONUMENT),
        4 => ("#".to_string(), ROAD),
        _ => (".".to_string(), ""),
    }
}

/// The subject's name of a result code (actions return 0 or an error; `encherir` and the
/// rest return codes only).
pub fn code_name(code: i32) -> String {
    use engine::constants as k;
    let name = match code {
        k::SUCCES => "SUCCES",
        k::PAS_DE_MAISON => "PAS_DE_MAISON",
        k::PAS_DE_MONUMENT => "PAS_DE_MONUMENT",
        k::FINANCES_DEPASSEES => "FINANCES_DEPASSEES",
        k::BLOCAGE => "BLOCAGE",
        k::JOUEUR_INCORRECT => "JOUEUR_INCORRECT",
        k::NON_CONNEXE => "NON_CONNEXE",
        k::CASE_OCCUPEE => "CASE_OCCUPEE",
        k::ACTION_INTERDITE => "ACTION_INTERDITE",
        k::HORS_TERRAIN => "HORS_TERRAIN",
        other => return other.to_string(),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xterm's value of colour `n` of its 256 (16..=255: the 6x6x6 cube, then 24 greys).
    fn xterm(n: u8) -> [u8; 3] {
        const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
        match n {
            232..=255 => [8 + 10 * (n - 232); 3],
            16..=231 => {
                let i = usize::from(n - 16);
                [LEVELS[i / 36], LEVELS[i / 6 % 6], LEVELS[i % 6]]
            }
            _ => panic!("colour {n} is one of the 16 a theme redefines"),
        }
    }

    /// WCAG 2's relative luminance and contrast ratio.
    fn luminance(rgb: [u8; 3]) -> f64 {
        let channel = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])
    }

    fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
        let (a, b) = (luminance(a), luminance(b));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// The colour of an SGR parameter list: its `38;5;N`.
    fn colour_of(code: &str) -> [u8; 3] {
        let n = code
            .strip_prefix("1;")
            .unwrap_or(code)
            .strip_prefix("38;5;")
            .unwrap_or_else(|| panic!("`{code}` is not a 256-colour foreground"));
        xterm(n.parse().unwrap())
    }

    #[test]
    fn every_colour_reads_on_dark_and_light_backgrounds() {
        let backgrounds = [
            ("black", [0, 0, 0]),
            ("white", [255, 255, 255]),
            ("Solarized dark", [0, 43, 54]),
            ("Solarized light", [253, 246, 227]),
        ];
        let colours = SEAT_COLOURS
            .iter()
            .chain(&[TOWN_HALL, MONUMENT, FAULT])
            .copied();
        for code in colours {
            for (name, background) in backgrounds {
                let ratio = contrast(colour_of(code), background);
                assert!(ratio >= 3.0, "`{code}` on {name}: {ratio:.2}:1");
            }
        }
        // The test tells: xterm's own blue on black, and a grey Solarized hides.
        assert!(contrast([0, 0, 238], [0, 0, 0]) < 3.0);
        assert!(contrast([0, 43, 54], [0, 43, 54]) < 3.0);
        // Seats stay apart from each other.
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            assert_ne!(SEAT_COLOURS[a], SEAT_COLOURS[b]);
        }
    }

    #[test]
    fn paint_wraps_only_when_asked_and_given_a_colour() {
        assert_eq!(paint("A", "38;5;32", true), "\x1b[38;5;32mA\x1b[0m");
        assert_eq!(paint("A", "38;5;32", false), "A");
        assert_eq!(paint(".", "", true), ".");
    }

    use crate::view::step_actions::ActionView;
    use engine::Callback;

    #[test]
    fn a_step_s_actions_show_their_groups_and_counted_refusals() {
        let mut step = crate::view::timeline::blank(2, 1, StepKind::Callback, Callback::Jouer);
        step.seat = Some(1);
        let action = |call: &str, code, count| ActionView {
            call: call.into(),
            code,
            count,
        };
        step.actions = vec![
            action("construire_route 200 3", -12, 20000),
            action("construire_route 4 5", 0, 1),
        ];
        step.refused = vec![("construire_maison".into(), -9, 2)];
        step.info = 3;
        assert_eq!(
            actions_of(&step),
            "actions of seat 1 in jouer: construire_route 200 3 -> HORS_TERRAIN x 20000, \
             construire_route 4 5 -> SUCCES, 2 refused construire_maison -> CASE_OCCUPEE; \
             3 information request(s)\n"
        );
    }
}
