# template: a Ruby champion that does nothing, validly. Copy this folder and write the
# callbacks. The API's methods and constants are top-level: type_case(x, y),
# construire_route(x, y), SUCCES, ... (docs/rules.md section 6). puts goes to your log
# (stderr), never to the referee.

def init_game
  # Once, before turn 1 (10 s of CPU, start-up included).
end

def jouer
  # Phase I of every turn 1..15: build roads and houses when mon_tour == 1.
end

def enchere
  # Phase II of turns 1..14: encherir(montant) for monument_en_cours.
end

def placement
  # Phase III, if you won the auction: construire_monument(x, y).
end

def end_game
  # Once, after turn 15: the final board, for your log.
end
