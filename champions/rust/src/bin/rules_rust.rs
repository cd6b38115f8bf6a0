//! `rules_rust`: the Rust kit's board rules (the engine's own, on the board of the cached
//! `etat`), held to the engine and to 2009's `groopy` as the fixture `rules_c` holds the C
//! kit's (`referee/tests/kits/kits_rules.rs`).
//!
//! Under the test's own referee (every figure of `etat` 0, so `numero_tour` is 0), `jouer`
//! prints every answer of `construction_possible`, `route_possible` and `distance` in
//! `rules_c`'s format, for the test to compare with the engine's. In a match, every `jouer`
//! asks `construction_possible` and `route_possible` of every cell 25 times (500,000 calls,
//! as many as `groopy` asked in its first), logs them, and plays a road and a house with
//! the answers; in turn 2 it logs the cost of a call (CPU) and of a round trip (wall:
//! failed actions), which `scripts/bench-kits.sh` reads.

use prologin::*;
use std::time::Instant;

fn code(answer: i32) -> char {
    match answer {
        SUCCES => 's',
        CASE_OCCUPEE => 'o',
        BLOCAGE => 'b',
        NON_CONNEXE => 'n',
        HORS_TERRAIN => 'h',
        _ => '?',
    }
}

fn dump(api: &mut dyn Api) {
    for y in -1..=TAILLE_CARTE {
        let c: String = (0..TAILLE_CARTE)
            .map(|x| code(api.construction_possible(x, y)))
            .collect();
        println!("C {y} {c}");
        let r: String = (0..TAILLE_CARTE)
            .map(|x| code(api.route_possible(x, y)))
            .collect();
        println!("R {y} {r}");
    }
    let (left, right) = (
        code(api.construction_possible(-1, 0)),
        code(api.construction_possible(TAILLE_CARTE, 0)),
    );
    println!("C -1x {left} {right}");
    for k in 0..7 {
        let (x1, y1) = (15 * k + 3, 97 - 14 * k);
        for dy in -13..=13 {
            for dx in -13..=13 {
                let (x2, y2) = (x1 + dx, y1 + dy);
                println!("D {x1} {y1} {x2} {y2} {}", api.distance(x1, y1, x2, y2));
            }
        }
    }
}

/// The CPU time of this thread so far.
fn cpu() -> std::time::Duration {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID)
        .map_or(std::time::Duration::ZERO, std::time::Duration::from)
}

#[derive(Default)]
struct Rules {
    calls: u64,
}

impl Rules {
    fn play(&mut self, api: &mut dyn Api, turn: i32) {
        let made = 25 * 2 * (TAILLE_CARTE * TAILLE_CARTE) as u64;
        let (mut blocked, mut road, mut house) = (0, None, None);
        let start = cpu();
        for s in 0..25 {
            for y in 0..TAILLE_CARTE {
                for x in 0..TAILLE_CARTE {
                    let (c, r) = (api.construction_possible(x, y), api.route_possible(x, y));
                    if s > 0 {
                        continue;
                    }
                    blocked += i32::from(c == BLOCAGE);
                    if r == SUCCES {
                        road = Some((x, y));
                    }
                    if c == SUCCES {
                        house = Some((x, y));
                    }
                }
            }
        }
        let spent = cpu() - start;
        self.calls += made;
        if turn == 2 {
            let t0 = Instant::now();
            for _ in 0..500 {
                api.construire_route(0, 0);
            }
            println!(
                "rules_rust: cost: cached call {:.1} ns (CPU), round trip {:.1} us (wall)",
                spent.as_nanos() as f64 / made as f64,
                t0.elapsed().as_nanos() as f64 / 500.0 / 1000.0
            );
        }
        println!("rules_rust: jouer tour {turn}: {made} calls, {blocked} BLOCAGE");
        if api.mon_tour() == 0 {
            return;
        }
        if let Some((x, y)) = road {
            api.construire_route(x, y);
        }
        if let Some((x, y)) = house {
            api.construire_maison(x, y);
        }
    }
}

impl Champion for Rules {
    fn jouer(&mut self, api: &mut dyn Api) {
        match api.numero_tour() {
            0 => dump(api),
            turn => self.play(api, turn),
        }
    }

    fn end_game(&mut self, _api: &mut dyn Api) {
        println!("rules_rust: end, {} calls in all", self.calls);
    }
}

fn main() -> std::process::ExitCode {
    prologin::run(&mut Rules::default())
}
