(* An OCaml champion that does nothing, but validly: copy this folder, fill in the
   callbacks and `make`. The API (construire_route, type_case, mon_tour, ...) and the
   constants (succes, route, taille_carte, ...: in lower case) come with `open Api`;
   print_string and Printf.printf go to your log. A callback you leave out does nothing. *)
open Api

let init_game () = ()
let jouer () = if mon_tour () then ()
let enchere () = if mon_tour () then ()
let placement () = if mon_tour () then ()
let end_game () = ()
