(* An OCaml champion that does nothing, but validly: copy this folder, fill in the
   callbacks and `make`. The API (construire_route, type_case, mon_tour, ...) and the
   constants (succes, route, taille_carte, ...: in lower case) come with `open Api`;
   print_string and Printf.printf go to your log. A callback you leave out does nothing. *)
open Api

(* Once, before turn 1 (10 s of CPU, start-up included): look at the map; actions answer
   action_interdite. *)
let init_game () = ()

(* Phase I of every turn 1..15 (1 s of CPU, as every later callback): build roads and
   houses when mon_tour (). *)
let jouer () = if mon_tour () then ()

(* Phase II of turns 1..14: encherir montant for monument_en_cours (); sell houses. *)
let enchere () = if mon_tour () then ()

(* Phase III, if you won the auction: construire_monument x y. *)
let placement () = if mon_tour () then ()

(* Once, after turn 15: the final board, for your log. *)
let end_game () = ()
