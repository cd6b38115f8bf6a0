(* api.ml -- the OCaml kit: the 26 functions of the 2009 API (`open Api` in prologin.ml),
   the protocol of protocol.md and the cached `etat` behind them.

   Owns: the protocol descriptors (taken when this module is initialised, before the
   champion's: the real stdin and stdout are duplicated for the protocol, fd 0 then reads
   /dev/null and fd 1 writes to stderr, so print_string and Printf.printf go to the log),
   the state cache (one `etat` per callback and after each successful action; a cell
   read is one String.get), the local argument checks (HORS_TERRAIN, JOUEUR_INCORRECT,
   PAS_DE_MONUMENT) and the callback loop (Api.serve, called by the kit's main.ml).
   `distance`, `route_possible` and `construction_possible` are the C kit's rules
   (prologin_rules_lib.c, through rules_stubs.c), answered from the cached board without
   a round trip. *)

include Constants

let proto_in, proto_out =
  let i = Unix.dup Unix.stdin and o = Unix.dup Unix.stdout in
  let null = Unix.openfile "/dev/null" [ Unix.O_RDONLY ] 0 in
  Unix.dup2 null Unix.stdin;
  Unix.close null;
  Unix.dup2 Unix.stderr Unix.stdout;
  Unix.set_close_on_exec i;
  Unix.set_close_on_exec o;
  (Unix.in_channel_of_descr i, Unix.out_channel_of_descr o)

let current = ref "(none)"
let dirty = ref true
let figures = Array.make 16 0
let kinds = ref ""
let owners = ref ""
let monuments = ref ""
let values = ref ""

(* The conversation with the referee broke down: report it and exit at once. *)
let fail fmt =
  Printf.ksprintf
    (fun message ->
      (try flush stdout with _ -> ());
      Printf.eprintf "prologin kit (OCaml): error in %s: %s\n%!" !current message;
      Stdlib.exit 2)
    fmt

(* What the champion printed reaches its log before each request: a callback stopped at
   its time limit (killed, no exit to flush) keeps what it printed before its last call. *)
let send line =
  (try flush stdout with _ -> ());
  try
    output_string proto_out line;
    output_char proto_out '\n';
    flush proto_out
  with Sys_error e -> fail "writing to the referee: %s" e

let strip_cr line =
  let n = String.length line in
  if n > 0 && line.[n - 1] = '\r' then String.sub line 0 (n - 1) else line

let read_line what =
  match input_line proto_in with
  | line -> strip_cr line
  | exception End_of_file ->
      fail "the referee closed the connection while we waited for `%s`" what
  | exception Sys_error e -> fail "reading from the referee: %s" e

let cut s = if String.length s > 60 then String.sub s 0 60 else s

let parse_int what s =
  let ok =
    String.length s > 0
    && String.length s <= 12
    && String.for_all (fun c -> (c >= '0' && c <= '9') || c = '-' || c = '+') s
  in
  match if ok then int_of_string_opt s else None with
  | Some v when v >= -2147483648 && v <= 2147483647 -> v
  | _ -> fail "unparsable answer `%s` to `%s`: expected an integer" (cut s) what

(* An argument as the wire's signed 32-bit integer: OCaml's int is wider, and a value
   beyond the range answers the same clamped (off the map, unaffordable). *)
let arg v = if v < -2147483648 then -2147483648 else if v > 2147483647 then 2147483647 else v

let ask name args =
  send (String.concat " " (name :: List.map (fun a -> string_of_int (arg a)) args));
  parse_int name (read_line name)

let act name args =
  let r = ask name args in
  if r = succes then dirty := true;
  r

(* The board's rules (rules 19 to 21), the C kit's: the board is given to them at each
   fill of the cache; a call costs a C call. *)
external rules_board : string -> string -> unit = "prologin_ml_rules_board" [@@noalloc]
external rules_distance : int -> int -> int -> int -> int = "prologin_ml_distance" [@@noalloc]
external rules_route_possible : int -> int -> int = "prologin_ml_route_possible" [@@noalloc]

external rules_construction_possible : int -> int -> int
  = "prologin_ml_construction_possible"
  [@@noalloc]

let refresh () =
  send "etat";
  let fields =
    List.filter (fun f -> f <> "") (String.split_on_char ' ' (read_line "etat"))
  in
  let bad () =
    fail "unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters"
  in
  if List.length fields <> 20 then bad ();
  List.iteri
    (fun i f ->
      if i < 16 then figures.(i) <- parse_int "etat" f
      else if String.length f <> 10000 then bad ()
      else
        match i with
        | 16 -> kinds := f
        | 17 -> owners := f
        | 18 -> monuments := f
        | _ -> values := f)
    fields;
  rules_board !kinds !owners;
  dirty := false

let figure i =
  if !dirty then refresh ();
  figures.(i)

let on_map x y = x >= 0 && x < taille_carte && y >= 0 && y < taille_carte

let cell s x y =
  if !dirty then refresh ();
  Char.code (String.unsafe_get !s ((y * taille_carte) + x))

(* Information functions. *)

let type_case x y = if on_map x y then cell kinds x y - 48 else hors_terrain
let valeur_case x y = if on_map x y then cell values x y - 64 else hors_terrain
let appartenance x y = if on_map x y then cell owners x y - 48 else hors_terrain

let type_monument x y =
  if not (on_map x y) then hors_terrain
  else
    let c = cell monuments x y in
    if c = Char.code '.' then pas_de_monument else c - Char.code 'a'

let portee_monument num_monument =
  if num_monument >= 0 && num_monument < max_monuments then portee_table.(num_monument)
  else pas_de_monument

let prestige_monument num_monument =
  if num_monument >= 0 && num_monument < max_monuments then prestige_table.(num_monument)
  else pas_de_monument

let numero_tour () = figure 0
let commence () = figure 2
let of_player base n = if n >= 0 && n <= 2 then figure (base + n) else joueur_incorrect
let montant_encheres num_joueur = of_player 13 num_joueur
let vainqueur_encheres () = figure 4

(* The player's houses' worth, money excluded: not the final score (rule 9). *)
let score num_joueur = of_player 10 num_joueur

let finances num_joueur = of_player 7 num_joueur
let monument_en_cours () = figure 3

(* A rule answered from the cached board (refreshed first when an action changed it). *)
let fresh () = if !dirty then refresh ()

let distance x1 y1 x2 y2 =
  fresh ();
  rules_distance (arg x1) (arg y1) (arg x2) (arg y2)

let route_possible x y =
  fresh ();
  rules_route_possible (arg x) (arg y)

let construction_possible x y =
  fresh ();
  rules_construction_possible (arg x) (arg y)
let cout_achat_maison () = figure 5
let cout_achat_route () = figure 6

(* True in your own turn (the API's bool; rule 16). *)
let mon_tour () = figure 1 <> 0

(* Actions. *)

let construire_route x y = act "construire_route" [ x; y ]
let construire_maison x y = act "construire_maison" [ x; y ]
let reserver_case x y = act "reserver_case" [ x; y ]
let detruire_maison x y = act "detruire_maison" [ x; y ]
let vendre_maison x y = act "vendre_maison" [ x; y ]
let encherir montant = act "encherir" [ montant ]
let construire_monument x y = act "construire_monument" [ x; y ]

(* Where in the champion's code an exception was raised, from its backtrace:
   ` (in Prologin.jouer, line 7 of prologin.ml)`, the first frame that names a source line
   outside the standard library and this kit (a Not_found of List.assoc: the line of the
   champion that called it), else the first that names one; nothing without one (a build
   without -g). *)
let raised_in trace =
  let located slot =
    match (Printexc.Slot.location slot, Printexc.Slot.name slot) with
    | Some l, name -> Some (Option.value name ~default:"?", l)
    | None, _ -> None
  in
  let frames =
    match Printexc.backtrace_slots trace with
    | Some slots -> List.filter_map located (Array.to_list slots)
    | None -> []
  in
  let kit_or_stdlib (name, _) =
    List.exists
      (fun p -> String.length name >= String.length p && String.sub name 0 (String.length p) = p)
      [ "Stdlib"; "Api."; "Main"; "Callbacks."; "Constants." ]
  in
  match List.filter (fun f -> not (kit_or_stdlib f)) frames @ frames with
  | (name, l) :: _ -> Printf.sprintf " (in %s, line %d of %s)" name l.line_number l.filename
  | [] -> ""

(* The protocol loop: calls the callback named by each line of the referee, then answers
   `fin`. Returns the exit status. Called by main.ml with the champion's callbacks. *)
let serve ~init_game ~jouer ~enchere ~placement ~end_game =
  let rec loop ended =
    match input_line proto_in with
    | exception End_of_file ->
        if ended then 0
        else (
          prerr_endline
            "prologin kit (OCaml): the referee closed the connection before end_game";
          1)
    | exception Sys_error e -> fail "reading from the referee: %s" e
    | line ->
        let name = strip_cr line in
        let callback =
          match name with
          | "init_game" -> init_game
          | "jouer" -> jouer
          | "enchere" -> enchere
          | "placement" -> placement
          | "end_game" -> end_game
          | _ -> fail "unknown callback `%s` from the referee" (cut name)
        in
        current := name;
        dirty := true;
        (match callback () with
        | () -> ()
        | exception e ->
            (* The champion's exception: its backtrace (main.ml records it), then the
               kit's line naming it and where it was raised, last in the log whatever the
               backtrace's length, which the referee's crash report quotes. *)
            let trace = Printexc.get_raw_backtrace () in
            (try flush stdout with _ -> ());
            Printf.eprintf "Fatal error: exception %s\n" (Printexc.to_string e);
            Printexc.print_raw_backtrace stderr trace;
            Printf.eprintf "prologin kit (OCaml): error in %s: exception %s%s\n%!" name
              (Printexc.to_string e) (raised_in trace);
            Stdlib.exit 2);
        flush stdout;
        send "fin";
        loop (name = "end_game")
  in
  loop false

(* The printing functions of Stdlib, flushed at once for a champion that does `open Api`
   (the templates and the 2009 skeleton do): a callback that loops until its time limit
   after printing, calling nothing, keeps what it printed (OCaml 4.13's stdout has no
   unbuffered mode, and the kill leaves no exit to flush it). *)
let print_string s = Stdlib.print_string s; Stdlib.flush Stdlib.stdout
let print_endline s = Stdlib.print_endline s; Stdlib.flush Stdlib.stdout
let print_newline () = Stdlib.print_newline ()
let print_int n = Stdlib.print_int n; Stdlib.flush Stdlib.stdout
let print_char c = Stdlib.print_char c; Stdlib.flush Stdlib.stdout
let print_float f = Stdlib.print_float f; Stdlib.flush Stdlib.stdout

module Printf = struct
  include Stdlib.Printf

  let printf fmt = Stdlib.Printf.kfprintf (fun oc -> Stdlib.flush oc) Stdlib.stdout fmt
end
