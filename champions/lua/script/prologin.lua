-- The Lua kit's `script` champion: the cross-language script
-- (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
-- (champions/api/README.md) with print(), which the kit sends to the log.
-- Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
-- template champions/api/templates/lua/script.lua: edit those, not this file.

local function say(call, answer)
  if answer == true then answer = 1 elseif answer == false then answer = 0 end
  print(string.format("script: %s = %d", call, answer))
end

-- One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003.
local function scan()
  local h = { 0, 0, 0, 0 }
  for y = 0, TAILLE_CARTE - 1 do
    for x = 0, TAILLE_CARTE - 1 do
      h[1] = (h[1] * 31 + type_case(x, y) + 100) % 1000003
      h[2] = (h[2] * 31 + valeur_case(x, y) + 100) % 1000003
      h[3] = (h[3] * 31 + appartenance(x, y) + 100) % 1000003
      h[4] = (h[4] * 31 + type_monument(x, y) + 100) % 1000003
    end
  end
  print(string.format("script: scan = %d %d %d %d", h[1], h[2], h[3], h[4]))
end

local function start(callback)
  local t = numero_tour()
  print(string.format("script: %s %d", callback, t))
  return t
end

function init_game()
  local t = start("init_game")
  if true then
    say("numero_tour", numero_tour())
    say("mon_tour", mon_tour())
    say("commence", commence())
    say("monument_en_cours", monument_en_cours())
    say("vainqueur_encheres", vainqueur_encheres())
    say("cout_achat_maison", cout_achat_maison())
    say("cout_achat_route", cout_achat_route())
    say("finances 0", finances(0))
    say("finances 1", finances(1))
    say("finances 2", finances(2))
    say("finances 3", finances(3))
    say("finances -1", finances(-1))
    say("score 0", score(0))
    say("score 1", score(1))
    say("score 2", score(2))
    say("score 3", score(3))
    say("montant_encheres 0", montant_encheres(0))
    say("montant_encheres 2", montant_encheres(2))
    say("montant_encheres -1", montant_encheres(-1))
    say("portee_monument 0", portee_monument(0))
    say("portee_monument 9", portee_monument(9))
    say("portee_monument 13", portee_monument(13))
    say("portee_monument 14", portee_monument(14))
    say("portee_monument -1", portee_monument(-1))
    say("prestige_monument 0", prestige_monument(0))
    say("prestige_monument 12", prestige_monument(12))
    say("prestige_monument 13", prestige_monument(13))
    say("prestige_monument 14", prestige_monument(14))
    say("type_case 50 50", type_case(50, 50))
    say("type_case 0 0", type_case(0, 0))
    say("type_case -1 0", type_case(-1, 0))
    say("type_case 100 5", type_case(100, 5))
    say("type_case 5 100", type_case(5, 100))
    say("valeur_case 50 50", valeur_case(50, 50))
    say("valeur_case 99 99", valeur_case(99, 99))
    say("valeur_case -1 -1", valeur_case(-1, -1))
    say("appartenance 50 50", appartenance(50, 50))
    say("appartenance 0 99", appartenance(0, 99))
    say("appartenance 100 100", appartenance(100, 100))
    say("type_monument 50 50", type_monument(50, 50))
    say("type_monument 0 0", type_monument(0, 0))
    say("type_monument -5 3", type_monument(-5, 3))
    say("distance 50 50 50 52", distance(50, 50, 50, 52))
    say("distance 50 50 62 50", distance(50, 50, 62, 50))
    say("distance 50 50 63 50", distance(50, 50, 63, 50))
    say("distance 0 0 99 99", distance(0, 0, 99, 99))
    say("distance -1 0 0 0", distance(-1, 0, 0, 0))
    say("route_possible 50 51", route_possible(50, 51))
    say("route_possible 51 51", route_possible(51, 51))
    say("route_possible 70 70", route_possible(70, 70))
    say("route_possible -1 0", route_possible(-1, 0))
    say("construction_possible 51 51", construction_possible(51, 51))
    say("construction_possible 50 50", construction_possible(50, 50))
    say("construction_possible 70 70", construction_possible(70, 70))
    say("construction_possible 0 100", construction_possible(0, 100))
    say("construire_route 50 51", construire_route(50, 51))
    say("construire_maison 51 51", construire_maison(51, 51))
    say("encherir 1", encherir(1))
    say("detruire_maison -1 0", detruire_maison(-1, 0))
    scan()
  end
end

function jouer()
  local t = start("jouer")
  if true then
    say("mon_tour", mon_tour())
    say("commence", commence())
    say("monument_en_cours", monument_en_cours())
    say("vainqueur_encheres", vainqueur_encheres())
    say("cout_achat_maison", cout_achat_maison())
    say("cout_achat_route", cout_achat_route())
    say("finances 0", finances(0))
    say("finances 1", finances(1))
    say("finances 2", finances(2))
    say("score 0", score(0))
    say("score 1", score(1))
    say("score 2", score(2))
    say("montant_encheres 0", montant_encheres(0))
    say("montant_encheres 1", montant_encheres(1))
    say("montant_encheres 2", montant_encheres(2))
  end
  if t == 1 then
    say("construire_route 50 51", construire_route(50, 51))
    say("construire_route 50 51", construire_route(50, 51))
    say("construire_route 70 70", construire_route(70, 70))
    say("construire_route -1 5", construire_route(-1, 5))
    say("cout_achat_route", cout_achat_route())
    say("finances 0", finances(0))
    say("type_case 50 51", type_case(50, 51))
    say("appartenance 50 51", appartenance(50, 51))
    say("route_possible 50 52", route_possible(50, 52))
    say("construction_possible 51 52", construction_possible(51, 52))
    say("construire_maison 51 52", construire_maison(51, 52))
    say("type_case 51 52", type_case(51, 52))
    say("appartenance 51 52", appartenance(51, 52))
    say("valeur_case 51 52", valeur_case(51, 52))
    say("score 0", score(0))
    say("cout_achat_maison", cout_achat_maison())
    say("finances 0", finances(0))
    say("construire_maison 49 52", construire_maison(49, 52))
    say("construire_maison 49 50", construire_maison(49, 50))
    say("cout_achat_maison", cout_achat_maison())
    say("reserver_case 51 50", reserver_case(51, 50))
    say("reserver_case 51 50", reserver_case(51, 50))
    say("type_case 51 50", type_case(51, 50))
    say("appartenance 51 50", appartenance(51, 50))
    say("distance 50 50 50 53", distance(50, 50, 50, 53))
    say("distance 50 51 51 50", distance(50, 51, 51, 50))
    say("detruire_maison 49 52", detruire_maison(49, 52))
    say("vendre_maison 80 80", vendre_maison(80, 80))
    say("encherir 1", encherir(1))
    say("construire_monument 52 52", construire_monument(52, 52))
    say("finances 0", finances(0))
    scan()
  end
  if t == 2 then
    say("construire_route 50 52", construire_route(50, 52))
    say("construire_route 50 53", construire_route(50, 53))
    say("construire_route 50 54", construire_route(50, 54))
    say("cout_achat_route", cout_achat_route())
    say("construire_maison 49 53", construire_maison(49, 53))
    say("construire_maison 51 53", construire_maison(51, 53))
    say("cout_achat_maison", cout_achat_maison())
    say("vendre_maison 51 52", vendre_maison(51, 52))
    say("appartenance 51 52", appartenance(51, 52))
    say("type_case 51 52", type_case(51, 52))
    say("finances 0", finances(0))
    say("detruire_maison 49 53", detruire_maison(49, 53))
    say("finances 0", finances(0))
    scan()
  end
  if t == 5 then
    say("construire_route 49 50", construire_route(49, 50))
    say("construire_route 48 50", construire_route(48, 50))
    say("construire_maison 48 49", construire_maison(48, 49))
    say("construire_maison 48 51", construire_maison(48, 51))
    say("reserver_case 47 50", reserver_case(47, 50))
    say("detruire_maison 48 49", detruire_maison(48, 49))
    say("finances 0", finances(0))
    say("score 0", score(0))
    scan()
  end
  if t == 15 then
    say("construire_route 51 49", construire_route(51, 49))
    say("construire_maison 52 49", construire_maison(52, 49))
    say("score 0", score(0))
    say("finances 0", finances(0))
    scan()
  end
end

function enchere()
  local t = start("enchere")
  if true then
    say("mon_tour", mon_tour())
    say("monument_en_cours", monument_en_cours())
    say("finances 0", finances(0))
    say("encherir -1", encherir(-1))
    say("encherir 100000", encherir(100000))
    say("encherir 1", encherir(1))
    say("encherir 1", encherir(1))
    say("finances 0", finances(0))
    say("montant_encheres 0", montant_encheres(0))
    say("construire_route 50 49", construire_route(50, 49))
  end
  if t == 3 then
    scan()
    say("vendre_maison 49 50", vendre_maison(49, 50))
  end
end

function placement()
  local t = start("placement")
  if true then
    say("mon_tour", mon_tour())
    say("monument_en_cours", monument_en_cours())
    say("vainqueur_encheres", vainqueur_encheres())
    say("montant_encheres 0", montant_encheres(0))
    say("construire_monument -1 -1", construire_monument(-1, -1))
    say("construire_monument 50 50", construire_monument(50, 50))
    say("construire_maison 60 60", construire_maison(60, 60))
    say("construction_possible 52 48", construction_possible(52, 48))
    say("construire_monument 52 48", construire_monument(52, 48))
    say("construire_monument 52 48", construire_monument(52, 48))
    say("type_monument 52 48", type_monument(52, 48))
    say("valeur_case 52 48", valeur_case(52, 48))
    say("valeur_case 51 49", valeur_case(51, 49))
    say("construire_monument 53 47", construire_monument(53, 47))
    say("construire_monument 49 55", construire_monument(49, 55))
    say("construire_monument 51 55", construire_monument(51, 55))
    say("construire_monument 49 54", construire_monument(49, 54))
    say("construire_monument 51 54", construire_monument(51, 54))
    say("type_monument 49 55", type_monument(49, 55))
    say("type_monument 51 55", type_monument(51, 55))
    say("valeur_case 50 55", valeur_case(50, 55))
    scan()
  end
end

function end_game()
  local t = start("end_game")
  if true then
    say("numero_tour", numero_tour())
    say("mon_tour", mon_tour())
    say("commence", commence())
    say("score 0", score(0))
    say("score 1", score(1))
    say("score 2", score(2))
    say("finances 0", finances(0))
    say("finances 1", finances(1))
    say("finances 2", finances(2))
    say("montant_encheres 0", montant_encheres(0))
    say("vainqueur_encheres", vainqueur_encheres())
    say("construire_route 50 49", construire_route(50, 49))
    say("vendre_maison 51 53", vendre_maison(51, 53))
    say("encherir 1", encherir(1))
    say("construire_monument 1 1", construire_monument(1, 1))
    scan()
  end
end
