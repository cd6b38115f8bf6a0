-- A Lua champion that does nothing, but validly: copy this folder and fill in the
-- callbacks. The API (construire_route, type_case, mon_tour, ...) and the constants
-- (SUCCES, ROUTE, TAILLE_CARTE, ...) are globals; print() goes to your log.

-- Once, before turn 1 (10 s of CPU, start-up included): look at the map; actions answer
-- ACTION_INTERDITE.
function init_game()
end

-- Phase I of every turn 1..15 (1 s of CPU, as every later callback): build roads and
-- houses when mon_tour().
function jouer()
  if not mon_tour() then return end
end

-- Phase II of turns 1..14: encherir(montant) for monument_en_cours(); sell houses.
function enchere()
  if not mon_tour() then return end
end

-- Phase III, if you won the auction: construire_monument(x, y).
function placement()
  if not mon_tour() then return end
end

-- Once, after turn 15: the final board, for your log.
function end_game()
end
