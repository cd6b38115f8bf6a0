//! The Rust kit's `script` champion: the cross-language script
//! (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
//! (champions/api/README.md) with `println!`, which the kit sends to the log.
//!
//! Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
//! template champions/api/templates/rust/script.rs: edit those, not this file.

use prologin::{Api, Champion, TAILLE_CARTE};

struct Script;

/// Calls `name` with `args` and logs the answer.
fn say(api: &mut dyn Api, name: &str, args: &[i32]) {
    let answer = match (name, args) {
        ("type_case", &[x, y]) => api.type_case(x, y),
        ("valeur_case", &[x, y]) => api.valeur_case(x, y),
        ("appartenance", &[x, y]) => api.appartenance(x, y),
        ("type_monument", &[x, y]) => api.type_monument(x, y),
        ("portee_monument", &[num_monument]) => api.portee_monument(num_monument),
        ("prestige_monument", &[num_monument]) => api.prestige_monument(num_monument),
        ("numero_tour", &[]) => api.numero_tour(),
        ("commence", &[]) => api.commence(),
        ("montant_encheres", &[num_joueur]) => api.montant_encheres(num_joueur),
        ("vainqueur_encheres", &[]) => api.vainqueur_encheres(),
        ("score", &[num_joueur]) => api.score(num_joueur),
        ("finances", &[num_joueur]) => api.finances(num_joueur),
        ("monument_en_cours", &[]) => api.monument_en_cours(),
        ("distance", &[x1, y1, x2, y2]) => api.distance(x1, y1, x2, y2),
        ("route_possible", &[x, y]) => api.route_possible(x, y),
        ("construction_possible", &[x, y]) => api.construction_possible(x, y),
        ("cout_achat_maison", &[]) => api.cout_achat_maison(),
        ("cout_achat_route", &[]) => api.cout_achat_route(),
        ("mon_tour", &[]) => api.mon_tour(),
        ("construire_route", &[x, y]) => api.construire_route(x, y),
        ("construire_maison", &[x, y]) => api.construire_maison(x, y),
        ("reserver_case", &[x, y]) => api.reserver_case(x, y),
        ("detruire_maison", &[x, y]) => api.detruire_maison(x, y),
        ("vendre_maison", &[x, y]) => api.vendre_maison(x, y),
        ("encherir", &[montant]) => api.encherir(montant),
        ("construire_monument", &[x, y]) => api.construire_monument(x, y),
        _ => unreachable!("the generator checked every call of the scenario"),
    };
    let mut call = name.to_string();
    for a in args {
        call.push_str(&format!(" {a}"));
    }
    println!("script: {call} = {answer}");
}

/// One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003.
fn scan(api: &mut dyn Api) {
    let mut h = [0i64; 4];
    for y in 0..TAILLE_CARTE {
        for x in 0..TAILLE_CARTE {
            h[0] = (h[0] * 31 + i64::from(api.type_case(x, y)) + 100) % 1000003;
            h[1] = (h[1] * 31 + i64::from(api.valeur_case(x, y)) + 100) % 1000003;
            h[2] = (h[2] * 31 + i64::from(api.appartenance(x, y)) + 100) % 1000003;
            h[3] = (h[3] * 31 + i64::from(api.type_monument(x, y)) + 100) % 1000003;
        }
    }
    println!("script: scan = {} {} {} {}", h[0], h[1], h[2], h[3]);
}

fn start(api: &mut dyn Api, callback: &str) -> i32 {
    let t = api.numero_tour();
    println!("script: {callback} {t}");
    t
}

impl Champion for Script {
    #[allow(unused_variables)]
    fn init_game(&mut self, api: &mut dyn Api) {
        let t = start(api, "init_game");
        if true {
            say(api, "numero_tour", &[]);
            say(api, "mon_tour", &[]);
            say(api, "commence", &[]);
            say(api, "monument_en_cours", &[]);
            say(api, "vainqueur_encheres", &[]);
            say(api, "cout_achat_maison", &[]);
            say(api, "cout_achat_route", &[]);
            say(api, "finances", &[0]);
            say(api, "finances", &[1]);
            say(api, "finances", &[2]);
            say(api, "finances", &[3]);
            say(api, "finances", &[-1]);
            say(api, "score", &[0]);
            say(api, "score", &[1]);
            say(api, "score", &[2]);
            say(api, "score", &[3]);
            say(api, "montant_encheres", &[0]);
            say(api, "montant_encheres", &[2]);
            say(api, "montant_encheres", &[-1]);
            say(api, "portee_monument", &[0]);
            say(api, "portee_monument", &[9]);
            say(api, "portee_monument", &[13]);
            say(api, "portee_monument", &[14]);
            say(api, "portee_monument", &[-1]);
            say(api, "prestige_monument", &[0]);
            say(api, "prestige_monument", &[12]);
            say(api, "prestige_monument", &[13]);
            say(api, "prestige_monument", &[14]);
            say(api, "type_case", &[50, 50]);
            say(api, "type_case", &[0, 0]);
            say(api, "type_case", &[-1, 0]);
            say(api, "type_case", &[100, 5]);
            say(api, "type_case", &[5, 100]);
            say(api, "valeur_case", &[50, 50]);
            say(api, "valeur_case", &[99, 99]);
            say(api, "valeur_case", &[-1, -1]);
            say(api, "appartenance", &[50, 50]);
            say(api, "appartenance", &[0, 99]);
            say(api, "appartenance", &[100, 100]);
            say(api, "type_monument", &[50, 50]);
            say(api, "type_monument", &[0, 0]);
            say(api, "type_monument", &[-5, 3]);
            say(api, "distance", &[50, 50, 50, 52]);
            say(api, "distance", &[50, 50, 62, 50]);
            say(api, "distance", &[50, 50, 63, 50]);
            say(api, "distance", &[0, 0, 99, 99]);
            say(api, "distance", &[-1, 0, 0, 0]);
            say(api, "route_possible", &[50, 51]);
            say(api, "route_possible", &[51, 51]);
            say(api, "route_possible", &[70, 70]);
            say(api, "route_possible", &[-1, 0]);
            say(api, "construction_possible", &[51, 51]);
            say(api, "construction_possible", &[50, 50]);
            say(api, "construction_possible", &[70, 70]);
            say(api, "construction_possible", &[0, 100]);
            say(api, "construire_route", &[50, 51]);
            say(api, "construire_maison", &[51, 51]);
            say(api, "encherir", &[1]);
            say(api, "detruire_maison", &[-1, 0]);
            scan(api);
        }
    }
    #[allow(unused_variables)]
    fn jouer(&mut self, api: &mut dyn Api) {
        let t = start(api, "jouer");
        if true {
            say(api, "mon_tour", &[]);
            say(api, "commence", &[]);
            say(api, "monument_en_cours", &[]);
            say(api, "vainqueur_encheres", &[]);
            say(api, "cout_achat_maison", &[]);
            say(api, "cout_achat_route", &[]);
            say(api, "finances", &[0]);
            say(api, "finances", &[1]);
            say(api, "finances", &[2]);
            say(api, "score", &[0]);
            say(api, "score", &[1]);
            say(api, "score", &[2]);
            say(api, "montant_encheres", &[0]);
            say(api, "montant_encheres", &[1]);
            say(api, "montant_encheres", &[2]);
        }
        if t == 1 {
            say(api, "construire_route", &[50, 51]);
            say(api, "construire_route", &[50, 51]);
            say(api, "construire_route", &[70, 70]);
            say(api, "construire_route", &[-1, 5]);
            say(api, "cout_achat_route", &[]);
            say(api, "finances", &[0]);
            say(api, "type_case", &[50, 51]);
            say(api, "appartenance", &[50, 51]);
            say(api, "route_possible", &[50, 52]);
            say(api, "construction_possible", &[51, 52]);
            say(api, "construire_maison", &[51, 52]);
            say(api, "type_case", &[51, 52]);
            say(api, "appartenance", &[51, 52]);
            say(api, "valeur_case", &[51, 52]);
            say(api, "score", &[0]);
            say(api, "cout_achat_maison", &[]);
            say(api, "finances", &[0]);
            say(api, "construire_maison", &[49, 52]);
            say(api, "construire_maison", &[49, 50]);
            say(api, "cout_achat_maison", &[]);
            say(api, "reserver_case", &[51, 50]);
            say(api, "reserver_case", &[51, 50]);
            say(api, "type_case", &[51, 50]);
            say(api, "appartenance", &[51, 50]);
            say(api, "distance", &[50, 50, 50, 53]);
            say(api, "distance", &[50, 51, 51, 50]);
            say(api, "detruire_maison", &[49, 52]);
            say(api, "vendre_maison", &[80, 80]);
            say(api, "encherir", &[1]);
            say(api, "construire_monument", &[52, 52]);
            say(api, "finances", &[0]);
            scan(api);
        }
        if t == 2 {
            say(api, "construire_route", &[50, 52]);
            say(api, "construire_route", &[50, 53]);
            say(api, "construire_route", &[50, 54]);
            say(api, "cout_achat_route", &[]);
            say(api, "construire_maison", &[49, 53]);
            say(api, "construire_maison", &[51, 53]);
            say(api, "cout_achat_maison", &[]);
            say(api, "vendre_maison", &[51, 52]);
            say(api, "appartenance", &[51, 52]);
            say(api, "type_case", &[51, 52]);
            say(api, "finances", &[0]);
            say(api, "detruire_maison", &[49, 53]);
            say(api, "finances", &[0]);
            scan(api);
        }
        if t == 5 {
            say(api, "construire_route", &[49, 50]);
            say(api, "construire_route", &[48, 50]);
            say(api, "construire_maison", &[48, 49]);
            say(api, "construire_maison", &[48, 51]);
            say(api, "reserver_case", &[47, 50]);
            say(api, "detruire_maison", &[48, 49]);
            say(api, "finances", &[0]);
            say(api, "score", &[0]);
            scan(api);
        }
        if t == 15 {
            say(api, "construire_route", &[51, 49]);
            say(api, "construire_maison", &[52, 49]);
            say(api, "score", &[0]);
            say(api, "finances", &[0]);
            scan(api);
        }
    }
    #[allow(unused_variables)]
    fn enchere(&mut self, api: &mut dyn Api) {
        let t = start(api, "enchere");
        if true {
            say(api, "mon_tour", &[]);
            say(api, "monument_en_cours", &[]);
            say(api, "finances", &[0]);
            say(api, "encherir", &[-1]);
            say(api, "encherir", &[100000]);
            say(api, "encherir", &[1]);
            say(api, "encherir", &[1]);
            say(api, "finances", &[0]);
            say(api, "montant_encheres", &[0]);
            say(api, "construire_route", &[50, 49]);
        }
        if t == 3 {
            scan(api);
            say(api, "vendre_maison", &[49, 50]);
        }
    }
    #[allow(unused_variables)]
    fn placement(&mut self, api: &mut dyn Api) {
        let t = start(api, "placement");
        if true {
            say(api, "mon_tour", &[]);
            say(api, "monument_en_cours", &[]);
            say(api, "vainqueur_encheres", &[]);
            say(api, "montant_encheres", &[0]);
            say(api, "construire_monument", &[-1, -1]);
            say(api, "construire_monument", &[50, 50]);
            say(api, "construire_maison", &[60, 60]);
            say(api, "construction_possible", &[52, 48]);
            say(api, "construire_monument", &[52, 48]);
            say(api, "construire_monument", &[52, 48]);
            say(api, "type_monument", &[52, 48]);
            say(api, "valeur_case", &[52, 48]);
            say(api, "valeur_case", &[51, 49]);
            say(api, "construire_monument", &[53, 47]);
            say(api, "construire_monument", &[49, 55]);
            say(api, "construire_monument", &[51, 55]);
            say(api, "construire_monument", &[49, 54]);
            say(api, "construire_monument", &[51, 54]);
            say(api, "type_monument", &[49, 55]);
            say(api, "type_monument", &[51, 55]);
            say(api, "valeur_case", &[50, 55]);
            scan(api);
        }
    }
    #[allow(unused_variables)]
    fn end_game(&mut self, api: &mut dyn Api) {
        let t = start(api, "end_game");
        if true {
            say(api, "numero_tour", &[]);
            say(api, "mon_tour", &[]);
            say(api, "commence", &[]);
            say(api, "score", &[0]);
            say(api, "score", &[1]);
            say(api, "score", &[2]);
            say(api, "finances", &[0]);
            say(api, "finances", &[1]);
            say(api, "finances", &[2]);
            say(api, "montant_encheres", &[0]);
            say(api, "vainqueur_encheres", &[]);
            say(api, "construire_route", &[50, 49]);
            say(api, "vendre_maison", &[51, 53]);
            say(api, "encherir", &[1]);
            say(api, "construire_monument", &[1, 1]);
            scan(api);
        }
    }
}

fn main() -> std::process::ExitCode {
    prologin::run(&mut Script)
}
