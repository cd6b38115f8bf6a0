//! `scan_rust`: reads all 10,000 cells with `valeur_case` and `type_case` in every
//! callback: the Rust kit's full-map scan champion, as `scan_c` and `scan_py` are the C and
//! Python kits' (`referee/tests/fixtures/kits/`).
//!
//! The kit's benchmark (`scripts/bench-kits.sh`) and a check of its cached answers: at
//! `end_game` it prints what the scan saw (houses per player, the worth of its own houses)
//! next to `score(0)` and `finances(0)`, and `referee/tests/kits/kits.rs` compares them with
//! the match record.

use prologin::*;

/// What one pass over the map saw.
#[derive(Default)]
struct Seen {
    roads: Vec<(i32, i32)>,
    houses: [i32; 3],
    worth: i32,
    /// The most valuable empty cell: (value, x, y).
    best: Option<(i32, i32, i32)>,
}

#[derive(Default)]
struct Scan {
    scans: i64,
    reads: i64,
}

impl Scan {
    /// One pass over the map, the naive way: 20,000 API calls.
    fn scan(&mut self, api: &mut dyn Api) -> Seen {
        let mut seen = Seen::default();
        for y in 0..TAILLE_CARTE {
            for x in 0..TAILLE_CARTE {
                let value = api.valeur_case(x, y);
                let kind = api.type_case(x, y);
                if kind == ROUTE {
                    seen.roads.push((x, y));
                } else if kind == MAISON {
                    let owner = api.appartenance(x, y);
                    if let Some(houses) = usize::try_from(owner)
                        .ok()
                        .and_then(|o| seen.houses.get_mut(o))
                    {
                        *houses += 1;
                        if owner == 0 {
                            seen.worth += (value + 1).max(0);
                        }
                    }
                } else if kind == VIDE && seen.best.is_none_or(|(best, _, _)| value > best) {
                    seen.best = Some((value, x, y));
                }
            }
        }
        self.scans += 1;
        self.reads += 2 * i64::from(TAILLE_CARTE * TAILLE_CARTE);
        seen
    }
}

const AROUND: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl Champion for Scan {
    fn init_game(&mut self, api: &mut dyn Api) {
        self.scan(api);
    }

    fn jouer(&mut self, api: &mut dyn Api) {
        let seen = self.scan(api);
        if api.mon_tour() == 0 {
            return;
        }
        if let Some(&(x, y)) = seen.roads.last() {
            for (dx, dy) in &AROUND[..4] {
                if api.construire_route(x + dx, y + dy) == SUCCES {
                    break;
                }
            }
        }
        let mut built = 0;
        if let Some((_, x, y)) = seen.best {
            if api.construire_maison(x, y) == SUCCES {
                built += 1;
            }
        }
        for &(x, y) in seen.roads.iter().rev() {
            for (dx, dy) in AROUND {
                if built == 2 {
                    return;
                }
                if api.type_case(x + dx, y + dy) == VIDE
                    && api.construire_maison(x + dx, y + dy) == SUCCES
                {
                    built += 1;
                }
            }
        }
    }

    fn enchere(&mut self, api: &mut dyn Api) {
        self.scan(api);
        if api.mon_tour() != 0 {
            let bid = api.finances(0).min(2);
            api.encherir(bid);
        }
    }

    fn placement(&mut self, api: &mut dyn Api) {
        let seen = self.scan(api);
        for &(x, y) in seen.roads.iter().rev() {
            for (dx, dy) in &AROUND[4..] {
                if api.construire_monument(x + dx, y + dy) == SUCCES {
                    return;
                }
            }
        }
    }

    fn end_game(&mut self, api: &mut dyn Api) {
        let seen = self.scan(api);
        let [h0, h1, h2] = seen.houses;
        println!(
            "scan_rust end: houses {h0} {h1} {h2} worth {} score {} finances {} scans {} reads {}",
            seen.worth,
            api.score(0),
            api.finances(0),
            self.scans,
            self.reads
        );
    }
}

fn main() -> std::process::ExitCode {
    prologin::run(&mut Scan::default())
}
