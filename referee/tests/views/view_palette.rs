//! The replay pages' palettes, read from the CSS of pages the referee wrote (the colours the
//! pages' scripts draw with: `view_browser.rs` checks the 2009 board's pixels against them),
//! stay readable for everyone: every game's seats (all it can seat), and on the 2009 board
//! its town-hall houses, roads and empty ground too, are at least [`MIN_DELTA_E`] apart in
//! CIEDE2000 in normal vision, under deuteranopia and protanopia (Machado, Oliveira and
//! Fernandes 2009, severity 1) and in greyscale (luminance only), and no 2009 seat is
//! near-black like a road (at least [`MIN_LIGHTER_THAN_ROAD`] L* lighter, for every
//! vision); what is drawn on a seat's colour (the 2009 houses' letters, Ticket to Ride's
//! marks along routes) stands out from it, and Ticket to Ride's routes from its board by
//! their edge. Chromium's own simulations (what
//! `scripts/screenshot-pages.sh` shots with `VISION`) turn the board's pixels into what
//! that model says.
use crate::common;
use crate::viewer_page;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// Smallest CIEDE2000 difference allowed between two colours of the board (about 2 is
/// barely visible; 10 and more reads as another colour at a glance).
const MIN_DELTA_E: f64 = 12.0;

/// How much lighter (CIELAB L*) than a road each seat's colour is in every vision: a
/// seat as dark as a road reads as one where both meet (the former plum, 20 L* above the
/// road under protanopia).
const MIN_LIGHTER_THAN_ROAD: f64 = 25.0;

/// The colours of the board: seats 0 1 2, town-hall houses, roads, empty ground.
const BOARD: [&str; 6] = ["--p0", "--p1", "--p2", "--hall", "--road", "--ground"];

/// Every game with a replay page: its name, the arguments of a match that writes one, and
/// the most seats it takes (a palette must give each a colour).
const GAMES: [(&str, &[&str], usize); 4] = [
    ("loi", &["match", "random", "greedy", "random"], 3),
    (
        "amazons",
        &["--game", "amazons", "match", "random", "random"],
        2,
    ),
    (
        "ticket-to-ride",
        &[
            "--game",
            "ticket-to-ride",
            "match",
            "random",
            "random",
            "--option",
            "board=small",
        ],
        5,
    ),
    (
        "little-town",
        &["--game", "little-town", "match", "random", "random"],
        4,
    ),
];

/// The 2009 page's palette.
fn page_palette() -> BTreeMap<String, String> {
    game_palette(GAMES[0].1)
}

/// The custom properties of the `:root` rules of the `<style>` element of the page a match
/// played with `args` writes (the frame's, then the game's: a later one wins).
fn game_palette(args: &[&str]) -> BTreeMap<String, String> {
    let dir = common::fresh_dir("view-palette", "page");
    common::run_ok(
        Command::new(REFEREE)
            .args(args)
            .args(["--seed", "1", "--html", "--out"])
            .arg(&dir),
    );
    let page = std::fs::read_to_string(dir.join("replay.html")).unwrap();
    let style = &page[page.find("<style>").unwrap()..page.find("</style>").unwrap()];
    let mut palette = BTreeMap::new();
    let mut rules = style;
    assert!(rules.contains(":root {"), "a :root rule");
    while let Some(at) = rules.find(":root {") {
        let root = &rules[at + ":root {".len()..];
        let end = root.find('}').unwrap();
        rules = &root[end..];
        // Comments may hold anything: drop them before reading declarations.
        let mut text = String::new();
        let mut rest = &root[..end];
        while let Some(start) = rest.find("/*") {
            text.push_str(&rest[..start]);
            rest = &rest[start + rest[start..].find("*/").unwrap() + 2..];
        }
        text.push_str(rest);
        palette.extend(text.split(';').filter_map(|declaration| {
            let (name, value) = declaration.split_once(':')?;
            let name = name.trim();
            name.starts_with("--")
                .then(|| (name.to_string(), value.trim().to_string()))
        }));
    }
    palette
}

/// `#rrggbb` or `#rgb` as sRGB in 0..=1.
fn parse(colour: &str) -> [f64; 3] {
    let hex = colour
        .strip_prefix('#')
        .unwrap_or_else(|| panic!("{colour}: not #hex"));
    let hex: String = match hex.len() {
        3 => hex.chars().flat_map(|c| [c, c]).collect(),
        6 => hex.to_string(),
        _ => panic!("{colour}: not #rgb or #rrggbb"),
    };
    std::array::from_fn(|i| {
        f64::from(u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()) / 255.0
    })
}

fn linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// How a colour looks: each vision maps linear RGB to linear RGB.
#[derive(Clone, Copy, Debug)]
enum Vision {
    Normal,
    Deuteranopia,
    Protanopia,
    Greyscale,
}

impl Vision {
    /// Chromium's name of this simulation (`VISION` of `tests/browser/cdp.mjs`), none for
    /// normal vision.
    fn chromium(self) -> Option<&'static str> {
        match self {
            Vision::Normal => None,
            Vision::Deuteranopia => Some("deuteranopia"),
            Vision::Protanopia => Some("protanopia"),
            Vision::Greyscale => Some("achromatopsia"),
        }
    }

    const ALL: [Vision; 4] = [
        Vision::Normal,
        Vision::Deuteranopia,
        Vision::Protanopia,
        Vision::Greyscale,
    ];

    fn see(self, rgb: [f64; 3]) -> [f64; 3] {
        // Machado, Oliveira, Fernandes (2009), "A physiologically-based model for
        // simulation of color vision deficiency", severity 1.0, on linear RGB.
        let matrix = match self {
            Vision::Normal => return rgb,
            Vision::Greyscale => {
                let y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
                return [y; 3];
            }
            Vision::Deuteranopia => [
                [0.367322, 0.860646, -0.227968],
                [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881],
            ],
            Vision::Protanopia => [
                [0.152286, 1.052583, -0.204868],
                [0.114503, 0.786281, 0.099216],
                [-0.003882, -0.048116, 1.051998],
            ],
        };
        matrix.map(|row| (row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2]).clamp(0.0, 1.0))
    }
}

/// CIELAB (D65) of a linear RGB colour.
fn lab(rgb: [f64; 3]) -> [f64; 3] {
    let [r, g, b] = rgb;
    let x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b;
    let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
    let z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b;
    let f = |t: f64| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// CIEDE2000 (Sharma, Wu, Dalal 2005).
fn delta_e00(one: [f64; 3], two: [f64; 3]) -> f64 {
    let ([l1, a1, b1], [l2, a2, b2]) = (one, two);
    let c_bar = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
    let g = 0.5 * (1.0 - (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt());
    let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
    let hue = |b: f64, a: f64| {
        if a == 0.0 && b == 0.0 {
            0.0
        } else {
            b.atan2(a).to_degrees().rem_euclid(360.0)
        }
    };
    let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p));
    let dlp = l2 - l1;
    let dcp = c2p - c1p;
    let dhp = if c1p * c2p == 0.0 {
        0.0
    } else if (h2p - h1p).abs() <= 180.0 {
        h2p - h1p
    } else if h2p <= h1p {
        h2p - h1p + 360.0
    } else {
        h2p - h1p - 360.0
    };
    let d_hp = 2.0 * (c1p * c2p).sqrt() * (dhp / 2.0).to_radians().sin();
    let lp_bar = (l1 + l2) / 2.0;
    let cp_bar = (c1p + c2p) / 2.0;
    let hp_bar = if c1p * c2p == 0.0 {
        h1p + h2p
    } else if (h1p - h2p).abs() <= 180.0 {
        (h1p + h2p) / 2.0
    } else if h1p + h2p < 360.0 {
        (h1p + h2p + 360.0) / 2.0
    } else {
        (h1p + h2p - 360.0) / 2.0
    };
    let t = 1.0 - 0.17 * (hp_bar - 30.0).to_radians().cos()
        + 0.24 * (2.0 * hp_bar).to_radians().cos()
        + 0.32 * (3.0 * hp_bar + 6.0).to_radians().cos()
        - 0.20 * (4.0 * hp_bar - 63.0).to_radians().cos();
    let d_theta = 30.0 * (-((hp_bar - 275.0) / 25.0).powi(2)).exp();
    let r_c = 2.0 * (cp_bar.powi(7) / (cp_bar.powi(7) + 25f64.powi(7))).sqrt();
    let s_l = 1.0 + 0.015 * (lp_bar - 50.0).powi(2) / (20.0 + (lp_bar - 50.0).powi(2)).sqrt();
    let s_c = 1.0 + 0.045 * cp_bar;
    let s_h = 1.0 + 0.015 * cp_bar * t;
    let r_t = -(2.0 * d_theta).to_radians().sin() * r_c;
    ((dlp / s_l).powi(2)
        + (dcp / s_c).powi(2)
        + (d_hp / s_h).powi(2)
        + r_t * (dcp / s_c) * (d_hp / s_h))
        .sqrt()
}

/// WCAG 2 contrast ratio of two sRGB colours (each channel in 0..=1).
pub(crate) fn contrast(one: [f64; 3], two: [f64; 3]) -> f64 {
    let luminance = |c: [f64; 3]| {
        let [r, g, b] = c.map(linear);
        0.2126 * r + 0.7152 * g + 0.0722 * b
    };
    let (a, b) = (luminance(one), luminance(two));
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

#[test]
fn ciede2000_gives_the_published_test_values() {
    // Sharma, Wu, Dalal (2005), Table 1 (some pairs test the hue's wrap-around).
    let cases = [
        ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
        ([50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669),
        ([50.0, 2.49, -0.001], [50.0, -2.49, 0.0012], 7.2195),
        ([50.0, -0.001, 2.49], [50.0, 0.0011, -2.49], 4.7461),
        ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
        ([50.0, 2.5, 0.0], [50.0, 0.0, -2.5], 4.3065),
        (
            [60.2574, -34.0099, 36.2677],
            [60.4626, -34.1751, 39.4387],
            1.2644,
        ),
        (
            [22.7233, 20.0904, -46.6940],
            [23.0331, 14.9730, -42.5619],
            2.0373,
        ),
    ];
    for (one, two, expected) in cases {
        let got = delta_e00(one, two);
        assert!((got - expected).abs() < 1e-4, "{one:?} {two:?}: {got}");
        assert!((delta_e00(two, one) - expected).abs() < 1e-4);
    }
    // Pure sRGB white is L* 100, black 0.
    assert!((lab([1.0; 3])[0] - 100.0).abs() < 0.01);
    assert!(lab([0.0; 3])[0].abs() < 1e-9);
}

/// Every pair of `colours` (a name, linear RGB) closer than [`MIN_DELTA_E`] in some vision
/// (one line each), and each vision's closest pair (a table to print).
fn too_close(colours: &[(String, [f64; 3])]) -> (Vec<String>, String) {
    let mut worst = Vec::new();
    let mut table = String::new();
    for vision in Vision::ALL {
        let seen: Vec<[f64; 3]> = colours.iter().map(|(_, c)| lab(vision.see(*c))).collect();
        let mut least = (f64::INFINITY, "", "");
        for i in 0..seen.len() {
            for j in i + 1..seen.len() {
                let d = delta_e00(seen[i], seen[j]);
                if d < least.0 {
                    least = (d, &colours[i].0, &colours[j].0);
                }
                if d < MIN_DELTA_E {
                    worst.push(format!(
                        "{vision:?}: {} and {} are {d:.1} apart",
                        colours[i].0, colours[j].0
                    ));
                }
            }
        }
        table.push_str(&format!(
            "{vision:?}: closest {} and {}, {:.1}\n",
            least.1, least.2, least.0
        ));
    }
    (worst, table)
}

/// `names` of `palette` as linear RGB, each named.
fn colours_of(palette: &BTreeMap<String, String>, names: &[String]) -> Vec<(String, [f64; 3])> {
    names
        .iter()
        .map(|name| {
            let value = palette
                .get(name)
                .unwrap_or_else(|| panic!("the page's CSS has no {name}: {palette:?}"));
            (name.clone(), parse(value).map(linear))
        })
        .collect()
}

#[test]
fn the_board_s_colours_stay_apart_for_every_vision() {
    let palette = page_palette();
    let names: Vec<String> = BOARD.iter().map(|n| n.to_string()).collect();
    let colours = colours_of(&palette, &names);
    let (mut worst, table) = too_close(&colours);
    let road = BOARD.iter().position(|n| *n == "--road").unwrap();
    for vision in Vision::ALL {
        let road = lab(vision.see(colours[road].1))[0];
        for (name, colour) in colours.iter().filter(|(n, _)| n.starts_with("--p")) {
            let above = lab(vision.see(*colour))[0] - road;
            if above < MIN_LIGHTER_THAN_ROAD {
                worst.push(format!(
                    "{vision:?}: {name} is only {above:.1} L* lighter than --road"
                ));
            }
        }
    }
    println!("{table}");
    assert!(
        worst.is_empty(),
        "colours closer than {MIN_DELTA_E} (CIEDE2000) or seats as dark as roads:\n{}\n{table}",
        worst.join("\n")
    );
}

/// Each game's seats, as many as it takes, in the page its match wrote: the console, the
/// charts and the board draw each seat in its `--pN`.
#[test]
fn every_game_s_seats_stay_apart_for_every_vision() {
    let mut failures = Vec::new();
    for (game, args, seats) in GAMES {
        let palette = game_palette(args);
        let declared = palette
            .keys()
            .filter(|k| {
                k.strip_prefix("--p")
                    .is_some_and(|n| n.parse::<usize>().is_ok())
            })
            .count();
        assert!(
            declared >= seats,
            "{game}: {declared} seat colours in the page's CSS for {seats} seats: {palette:?}"
        );
        let names: Vec<String> = (0..seats).map(|s| format!("--p{s}")).collect();
        let (worst, table) = too_close(&colours_of(&palette, &names));
        println!("{game}:\n{table}");
        failures.extend(worst.into_iter().map(|w| format!("{game}: {w}")));
    }
    assert!(
        failures.is_empty(),
        "seat colours closer than {MIN_DELTA_E} (CIEDE2000):\n{}",
        failures.join("\n")
    );
}

/// What is drawn on a seat's colour (`--on-pN`): the 2009 houses' letters, text, at least
/// 4.5:1 (WCAG 2); Ticket to Ride's mark along a seat's routes, a graphic, at least 3:1.
#[test]
fn what_is_drawn_on_a_seat_stands_out_from_it() {
    for (game, args, seats, least) in [
        ("loi", GAMES[0].1, 3, 4.5),
        ("ticket-to-ride", GAMES[2].1, 5, 3.0),
    ] {
        let palette = game_palette(args);
        let mut pairs: Vec<(String, String)> = (0..seats)
            .map(|s| (format!("--p{s}"), format!("--on-p{s}")))
            .collect();
        if game == "loi" {
            pairs.push(("--hall".into(), "--on-hall".into()));
        }
        for (fill, ink) in pairs {
            let (Some(fill_value), Some(ink_value)) = (palette.get(&fill), palette.get(&ink))
            else {
                panic!("{game}: the page's CSS has no {fill} or {ink}: {palette:?}");
            };
            let ratio = contrast(parse(fill_value), parse(ink_value));
            assert!(
                ratio >= least,
                "{game}: {ink} on {fill}: contrast {ratio:.2} < {least}"
            );
        }
    }
}

/// Ticket to Ride's claimed routes stand out from its cream board, a graphic, at least 3:1
/// (WCAG 2): each seat's routes are edged by `--edge-pN` (`ticket.js`), the light ones
/// (yellow, 1.5:1 on the board; green, 2.7:1) in a dark shade of their colour.
#[test]
fn every_seat_s_routes_stand_out_from_the_board() {
    let palette = game_palette(GAMES[2].1);
    let board = parse(&palette["--board"]);
    for s in 0..GAMES[2].2 {
        let edge = format!("--edge-p{s}");
        let Some(value) = palette.get(&edge) else {
            panic!("ticket-to-ride: the page's CSS has no {edge}: {palette:?}");
        };
        let ratio = contrast(parse(value), board);
        assert!(
            ratio >= 3.0,
            "ticket-to-ride: {edge} on --board: contrast {ratio:.2} < 3"
        );
    }
}

/// The check itself tells colours apart: the former palette's green seat and grey town
/// hall were the same grey, its plum seat as dark as a road.
#[test]
fn the_check_finds_colours_that_only_differ_in_hue() {
    let green = lab(Vision::Greyscale.see(parse("#2e9b4f").map(linear)));
    let grey = lab(Vision::Greyscale.see(parse("#8c8c8c").map(linear)));
    assert!(delta_e00(green, grey) < 3.0);
    let red = lab(Vision::Deuteranopia.see(parse("#d6453d").map(linear)));
    let green = lab(Vision::Deuteranopia.see(parse("#2e9b4f").map(linear)));
    assert!(delta_e00(red, green) < MIN_DELTA_E);
    // The former plum seat was near-black under protanopia, by the former road.
    let plum = lab(Vision::Protanopia.see(parse("#572d43").map(linear)));
    let road = lab(Vision::Protanopia.see(parse("#0b0b06").map(linear)));
    assert!(plum[0] - road[0] < MIN_LIGHTER_THAN_ROAD);
}

/// `linear` back to 8-bit sRGB.
fn srgb8(c: f64) -> u8 {
    let v = if c <= 0.0031308 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    (v * 255.0).round().clamp(0.0, 255.0) as u8
}

/// The `[r, g, b]` at `(x, y)` of a PNG screenshot.
fn png_pixels(path: &Path) -> impl Fn(u32, u32) -> [u8; 3] {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut decoder = png::Decoder::new(file);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut data = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut data).unwrap();
    let samples = info.color_type.samples();
    assert!(samples >= 3, "{}: a colour screenshot", path.display());
    move |x, y| {
        let at = y as usize * info.line_size + x as usize * samples;
        [data[at], data[at + 1], data[at + 2]]
    }
}

/// Most a screenshot's channel may differ from the model's (of 255): Chromium filters in
/// 8 bits.
const SHOT_TOLERANCE: i32 = 3;

/// The simulations `scripts/screenshot-pages.sh` shoots with (`VISION`, Chromium's own),
/// at 1366x768: inside a house of each seat, a town-hall house, a road and its centre
/// line, each screenshot holds the page's colour as [`Vision::see`] says that vision sees
/// it, and what the simulation shows keeps the plum seat (C) apart from the road.
#[test]
fn the_simulated_screenshots_show_the_board_as_the_model_sees_it() {
    let test = "the_simulated_screenshots_show_the_board_as_the_model_sees_it";
    let Some(chromium) = common::browser_ready(test) else {
        return;
    };
    let dir = viewer_page::temp_dir("vision");
    viewer_page::play(&dir, 9, true);
    let timeline = viewer_page::arena_timeline(&dir);
    let (last, probes) = viewer_page::board_probes(&timeline);
    let mut args = vec![
        "--size".to_string(),
        "1366x768".into(),
        "--scale".into(),
        "1".into(),
    ];
    for (c, fx, fy, _) in &probes {
        args.push("--eval".into());
        args.push(format!(
            "(() => {{ const r = viewer.board.cellRect({}, {}); \
             return [Math.floor(r.left + {fx} * r.size), Math.floor(r.top + {fy} * r.size)]; }})()",
            c[0], c[1]
        ));
    }
    let page = viewer_page::at(&dir.join("replay.html"), last);
    let mut failures = Vec::new();
    for vision in Vision::ALL {
        let shot = dir.join(format!("{vision:?}.png"));
        let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
        all.extend(["--screenshot", shot.to_str().unwrap()]);
        let env: Vec<(&str, &str)> = vision
            .chromium()
            .map(|v| ("VISION", v))
            .into_iter()
            .collect();
        let json = common::drive_page_with("viewer.mjs", &chromium, &page, &all, &env);
        let pixel = png_pixels(&shot);
        let mut seen = BTreeMap::new();
        for (i, (c, _, _, name)) in probes.iter().enumerate() {
            let at = &json["evals"][i];
            let (x, y) = (
                at[0].as_u64().unwrap() as u32,
                at[1].as_u64().unwrap() as u32,
            );
            let got = pixel(x, y);
            let css = json["palette"][name].as_str().unwrap();
            let expected = vision.see(parse(css).map(linear)).map(srgb8);
            if (0..3).any(|k| (i32::from(got[k]) - i32::from(expected[k])).abs() > SHOT_TOLERANCE) {
                failures.push(format!(
                    "{vision:?}: {name} ({css}) at cell ({}, {}), pixel ({x}, {y}): the screenshot has {got:?}, the model {expected:?}",
                    c[0], c[1]
                ));
            }
            seen.insert(*name, lab(got.map(|v| linear(f64::from(v) / 255.0))));
        }
        let apart = delta_e00(seen["--p2"], seen["--road"]);
        let lighter = seen["--p2"][0] - seen["--road"][0];
        if apart < MIN_DELTA_E || lighter < MIN_LIGHTER_THAN_ROAD {
            failures.push(format!(
                "{vision:?}: the plum seat and the road on screen are {apart:.1} apart, {lighter:.1} L* lighter"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
