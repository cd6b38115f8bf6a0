(* main.ml -- the OCaml kit's entry point: serves the callbacks of the champion's
   prologin.ml, those it does not define being empty ones (callbacks.ml, written by
   ocaml.mk from the champion's interface). *)
let () =
  exit
    (Api.serve ~init_game:Callbacks.init_game ~jouer:Callbacks.jouer
       ~enchere:Callbacks.enchere ~placement:Callbacks.placement
       ~end_game:Callbacks.end_game)
