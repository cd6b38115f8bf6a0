(* constants.ml -- the API surface of the OCaml kit: the constants of the 2009 API
   (docs/rules.md section 6), in lower case as OCaml values must be (`succes`,
   `hors_terrain`), and the monument table; api.ml includes this module.
   Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
   template champions/api/templates/ocaml/constants.ml: edit those, not this file.
*)

(* Error codes and special answers. *)
let succes = 0
let pas_de_maison = -2
let pas_de_monument = -3
let finances_depassees = -4
let blocage = -5
let joueur_incorrect = -7
let non_connexe = -8
let case_occupee = -9
let action_interdite = -10
let hors_terrain = -12
let trop_loin = 50
let infini = 30000

(* Ownership. *)
let mairie = 3

(* Cell kinds. *)
let vide = 0
let maison = 1
let reservation = 2
let monument = 3
let route = 4

(* Bounds, sizes. *)
let max_monuments = 14
let taille_carte = 100
let max_distance = 12
let argent_initial = 10

(* Monuments by id (0..13): prestige and range (rule 5). *)
let prestige_table = [| 5; 4; 4; 3; 3; 2; 2; 2; 2; 1; 1; 1; -1; -2 |]
let portee_table = [| 1; 1; 1; 1; 2; 2; 2; 2; 1; 3; 3; 2; 2; 1 |]
