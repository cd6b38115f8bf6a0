(* constants.ml -- the API surface of the OCaml kit: the constants of the 2009 API
   (docs/rules.md section 6), in lower case as OCaml values must be (`succes`,
   `hors_terrain`), each also with its 2009 name, `_` and the name in capitals (`_SUCCES`,
   `_HORS_TERRAIN`, as the 2009 generator wrote them), and the monument table; api.ml
   includes this module.
   Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
   template champions/api/templates/ocaml/constants.ml: edit those, not this file.
*)

(* Error codes and special answers. *)
let succes = 0
let _SUCCES = succes
let pas_de_maison = -2
let _PAS_DE_MAISON = pas_de_maison
let pas_de_monument = -3
let _PAS_DE_MONUMENT = pas_de_monument
let finances_depassees = -4
let _FINANCES_DEPASSEES = finances_depassees
let blocage = -5
let _BLOCAGE = blocage
let joueur_incorrect = -7
let _JOUEUR_INCORRECT = joueur_incorrect
let non_connexe = -8
let _NON_CONNEXE = non_connexe
let case_occupee = -9
let _CASE_OCCUPEE = case_occupee
let action_interdite = -10
let _ACTION_INTERDITE = action_interdite
let hors_terrain = -12
let _HORS_TERRAIN = hors_terrain
let trop_loin = 50
let _TROP_LOIN = trop_loin
let infini = 30000
let _INFINI = infini

(* Ownership. *)
let mairie = 3
let _MAIRIE = mairie

(* Cell kinds. *)
let vide = 0
let _VIDE = vide
let maison = 1
let _MAISON = maison
let reservation = 2
let _RESERVATION = reservation
let monument = 3
let _MONUMENT = monument
let route = 4
let _ROUTE = route

(* Bounds, sizes. *)
let max_monuments = 14
let _MAX_MONUMENTS = max_monuments
let taille_carte = 100
let _TAILLE_CARTE = taille_carte
let max_distance = 12
let _MAX_DISTANCE = max_distance
let argent_initial = 10
let _ARGENT_INITIAL = argent_initial

(* Monuments by id (0..13): prestige and range (rule 5). *)
let prestige_table = [| 5; 4; 4; 3; 3; 2; 2; 2; 2; 1; 1; 1; -1; -2 |]
let portee_table = [| 1; 1; 1; 1; 2; 2; 2; 2; 1; 3; 3; 2; 2; 1 |]
