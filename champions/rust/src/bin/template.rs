//! A contestant's champion to start from: copy this file to `src/bin/<name>.rs` (or into a
//! crate of your own depending on `prologin`) and fill the callbacks. Every callback you
//! leave out does nothing. Use `eprintln!` for logs (`println!` is sent to stderr too).

use prologin::*;

#[derive(Default)]
struct Mine {
    turns: i32,
}

impl Champion for Mine {
    /// Once, before turn 1: look around; actions are refused here.
    fn init_game(&mut self, api: &mut dyn Api) {
        eprintln!("we start; player {} opens turn 1", api.commence());
        println!("println! is safe too: the kit sends it to stderr, not to the referee");
    }

    /// Phase I, our slot: one road and one house are free.
    fn jouer(&mut self, api: &mut dyn Api) {
        self.turns += 1;
        // route_possible and construction_possible are answered by the kit (the engine's
        // rules on the cached board): a function call each, no round trip.
        'road: for y in 40..60 {
            for x in 40..60 {
                if api.route_possible(x, y) == SUCCES {
                    api.construire_route(x, y);
                    break 'road;
                }
            }
        }
        for y in 40..60 {
            for x in 40..60 {
                if api.construction_possible(x, y) == SUCCES {
                    api.construire_maison(x, y);
                    return;
                }
            }
        }
    }

    /// Phase II: bid for the monument drawn (`monument_en_cours`), maybe sell houses.
    fn enchere(&mut self, api: &mut dyn Api) {
        let monument = api.monument_en_cours();
        let prestige = api.prestige_monument(monument);
        let money = api.finances(0);
        if prestige > 0 {
            api.encherir(money.min(prestige));
        }
    }

    /// Phase III, if we won the auction: place the monument.
    fn placement(&mut self, api: &mut dyn Api) {
        for y in 40..60 {
            for x in 40..60 {
                if api.appartenance(x, y) == 0 && api.construction_possible(x + 1, y) == SUCCES {
                    api.construire_monument(x + 1, y);
                    return;
                }
            }
        }
    }

    /// Once, after the last turn: the final board.
    fn end_game(&mut self, api: &mut dyn Api) {
        eprintln!(
            "{} turns played: score {} + money {}",
            self.turns,
            api.score(0),
            api.finances(0)
        );
    }
}

fn main() -> std::process::ExitCode {
    prologin::run(&mut Mine::default())
}
