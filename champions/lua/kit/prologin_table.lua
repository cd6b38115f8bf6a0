-- prologin_table.lua -- the 2009 form of the Lua kit's API: the table `prologin`, whose
-- members are the API's functions (`prologin.type_case(x, y)`), as the 2009 generator
-- registered them. Each is the global function of the same name, except that a result the
-- API types as a boolean is a number, 1 or 0, as in 2009 (`prologin.mon_tour() == 1`;
-- the global `mon_tour()` gives true or false). run.lua loads it beside api.lua.
-- Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
-- template champions/api/templates/lua/prologin_table.lua: edit those, not this file.

prologin = {
  type_case = type_case,
  valeur_case = valeur_case,
  appartenance = appartenance,
  type_monument = type_monument,
  portee_monument = portee_monument,
  prestige_monument = prestige_monument,
  numero_tour = numero_tour,
  commence = commence,
  montant_encheres = montant_encheres,
  vainqueur_encheres = vainqueur_encheres,
  score = score,
  finances = finances,
  monument_en_cours = monument_en_cours,
  distance = distance,
  route_possible = route_possible,
  construction_possible = construction_possible,
  cout_achat_maison = cout_achat_maison,
  cout_achat_route = cout_achat_route,
  mon_tour = (function(f) return function(...) if f(...) then return 1 end return 0 end end)(mon_tour),
  construire_route = construire_route,
  construire_maison = construire_maison,
  reserver_case = reserver_case,
  detruire_maison = detruire_maison,
  vendre_maison = vendre_maison,
  encherir = encherir,
  construire_monument = construire_monument,
}
