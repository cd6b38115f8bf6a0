-- | Exports2009.hs -- the 2009 form of the Haskell kit's API: the 2009 skeleton
-- (`prologin.hs`) declared each function with its own `foreign import ccall type_case ::
-- Int -> Int -> IO Int`; this module gives each such C symbol, the kit's function of the
-- same name (Api.hs) exported with `foreign export ccall`. haskell.mk links it into a
-- champion built from a `prologin.hs`.
-- Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
-- template champions/api/templates/haskell/Exports2009.hs: edit those, not this file.
module Exports2009 () where

import qualified Api

foreign export ccall "type_case" type_case :: Int -> Int -> IO Int
type_case :: Int -> Int -> IO Int
type_case = Api.type_case

foreign export ccall "valeur_case" valeur_case :: Int -> Int -> IO Int
valeur_case :: Int -> Int -> IO Int
valeur_case = Api.valeur_case

foreign export ccall "appartenance" appartenance :: Int -> Int -> IO Int
appartenance :: Int -> Int -> IO Int
appartenance = Api.appartenance

foreign export ccall "type_monument" type_monument :: Int -> Int -> IO Int
type_monument :: Int -> Int -> IO Int
type_monument = Api.type_monument

foreign export ccall "portee_monument" portee_monument :: Int -> IO Int
portee_monument :: Int -> IO Int
portee_monument = Api.portee_monument

foreign export ccall "prestige_monument" prestige_monument :: Int -> IO Int
prestige_monument :: Int -> IO Int
prestige_monument = Api.prestige_monument

foreign export ccall "numero_tour" numero_tour :: IO Int
numero_tour :: IO Int
numero_tour = Api.numero_tour

foreign export ccall "commence" commence :: IO Int
commence :: IO Int
commence = Api.commence

foreign export ccall "montant_encheres" montant_encheres :: Int -> IO Int
montant_encheres :: Int -> IO Int
montant_encheres = Api.montant_encheres

foreign export ccall "vainqueur_encheres" vainqueur_encheres :: IO Int
vainqueur_encheres :: IO Int
vainqueur_encheres = Api.vainqueur_encheres

foreign export ccall "score" score :: Int -> IO Int
score :: Int -> IO Int
score = Api.score

foreign export ccall "finances" finances :: Int -> IO Int
finances :: Int -> IO Int
finances = Api.finances

foreign export ccall "monument_en_cours" monument_en_cours :: IO Int
monument_en_cours :: IO Int
monument_en_cours = Api.monument_en_cours

foreign export ccall "distance" distance :: Int -> Int -> Int -> Int -> IO Int
distance :: Int -> Int -> Int -> Int -> IO Int
distance = Api.distance

foreign export ccall "route_possible" route_possible :: Int -> Int -> IO Int
route_possible :: Int -> Int -> IO Int
route_possible = Api.route_possible

foreign export ccall "construction_possible" construction_possible :: Int -> Int -> IO Int
construction_possible :: Int -> Int -> IO Int
construction_possible = Api.construction_possible

foreign export ccall "cout_achat_maison" cout_achat_maison :: IO Int
cout_achat_maison :: IO Int
cout_achat_maison = Api.cout_achat_maison

foreign export ccall "cout_achat_route" cout_achat_route :: IO Int
cout_achat_route :: IO Int
cout_achat_route = Api.cout_achat_route

foreign export ccall "mon_tour" mon_tour :: IO Bool
mon_tour :: IO Bool
mon_tour = Api.mon_tour

foreign export ccall "construire_route" construire_route :: Int -> Int -> IO Int
construire_route :: Int -> Int -> IO Int
construire_route = Api.construire_route

foreign export ccall "construire_maison" construire_maison :: Int -> Int -> IO Int
construire_maison :: Int -> Int -> IO Int
construire_maison = Api.construire_maison

foreign export ccall "reserver_case" reserver_case :: Int -> Int -> IO Int
reserver_case :: Int -> Int -> IO Int
reserver_case = Api.reserver_case

foreign export ccall "detruire_maison" detruire_maison :: Int -> Int -> IO Int
detruire_maison :: Int -> Int -> IO Int
detruire_maison = Api.detruire_maison

foreign export ccall "vendre_maison" vendre_maison :: Int -> Int -> IO Int
vendre_maison :: Int -> Int -> IO Int
vendre_maison = Api.vendre_maison

foreign export ccall "encherir" encherir :: Int -> IO Int
encherir :: Int -> IO Int
encherir = Api.encherir

foreign export ccall "construire_monument" construire_monument :: Int -> Int -> IO Int
construire_monument :: Int -> Int -> IO Int
construire_monument = Api.construire_monument
