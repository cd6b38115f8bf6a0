(* sample: an OCaml champion that plays sensibly near the town hall (50, 50): a free
   road, houses on the best cells next to the roads, a bid worth the monument's prestige,
   and the monument placed where it helps its own houses most (or hurts the others' most).
   Deterministic: it needs no random numbers. *)
open Api

let hall = 50
let reach = 15 (* only the cells within 15 of the town hall are considered *)

let near_road x y diagonals =
  let found = ref false in
  for dy = -1 to 1 do
    for dx = -1 to 1 do
      if (dx <> 0 || dy <> 0) && (diagonals || dx = 0 || dy = 0)
         && type_case (x + dx) (y + dy) = route
      then found := true
    done
  done;
  !found

(* Empty cells next to a road near the hall, best first by `worth` (then nearest the
   hall), as (-worth, distance, y, x). *)
let candidates diagonals worth =
  let found = ref [] in
  for y = hall - reach to hall + reach do
    for x = hall - reach to hall + reach do
      if type_case x y = vide && near_road x y diagonals then
        found := (-worth x y, abs (x - hall) + abs (y - hall), y, x) :: !found
    done
  done;
  List.sort compare !found

(* Builds on the first of the 5 best cells that accepts it. *)
let build_best build diagonals worth =
  let rec try_cells n = function
    | (_, _, y, x) :: rest when n > 0 ->
        build x y = succes || try_cells (n - 1) rest
    | _ -> false
  in
  try_cells 5 (candidates diagonals worth)

let nowhere _ _ = 0

let init_game () = Printf.printf "sample (OCaml): first player is %d\n" (commence ())

let jouer () =
  if mon_tour () then begin
    if cout_achat_route () <= finances 0 then
      ignore (build_best construire_route false nowhere);
    let rec houses n =
      if n > 0 && cout_achat_maison () <= finances 0
         && build_best construire_maison true valeur_case
      then houses (n - 1)
    in
    houses 2;
    (* The second house brings a free road: take it. *)
    if cout_achat_route () = 0 then ignore (build_best construire_route false nowhere)
  end

let enchere () =
  if mon_tour () then begin
    let prestige = prestige_monument (monument_en_cours ()) in
    if prestige > 0 then ignore (encherir (min prestige (finances 0 / 3)))
  end

(* Its own houses in range count for it, the others' against (the other way round for a
   monument of negative prestige). *)
let worth prestige range x y =
  let w = ref 0 in
  for dy = -range to range do
    for dx = -range to range do
      if type_case (x + dx) (y + dy) = maison then
        w := !w + if appartenance (x + dx) (y + dy) = 0 then 1 else -1
    done
  done;
  if prestige >= 0 then !w else - !w

let placement () =
  if mon_tour () then begin
    let id = monument_en_cours () in
    ignore
      (build_best construire_monument true
         (worth (prestige_monument id) (portee_monument id)))
  end

let end_game () =
  Printf.printf "sample (OCaml) end: money %d worth %d\n" (finances 0) (score 0)
