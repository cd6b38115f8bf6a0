(* main.ml -- the OCaml kit's entry point: serves the callbacks of the champion's
   prologin.ml, those it does not define being empty ones (callbacks.ml, written by
   ocaml.mk from the champion's interface). An uncaught exception ends the champion with
   its name and, the kit building with -g, the backtrace of where it was raised (the
   referee's fault names both). *)
let () = Printexc.record_backtrace true

let () =
  exit
    (Api.serve ~init_game:Callbacks.init_game ~jouer:Callbacks.jouer
       ~enchere:Callbacks.enchere ~placement:Callbacks.placement
       ~end_game:Callbacks.end_game)
