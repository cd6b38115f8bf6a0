-- A Lua champion that does nothing, but validly: copy this folder and fill in the
-- callbacks. The API (construire_route, type_case, mon_tour, ...) and the constants
-- (SUCCES, ROUTE, TAILLE_CARTE, ...) are globals; print() goes to your log.

function init_game()
end

function jouer()
  if not mon_tour() then return end
end

function enchere()
  if not mon_tour() then return end
end

function placement()
  if not mon_tour() then return end
end

function end_game()
end
