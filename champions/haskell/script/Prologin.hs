-- | The Haskell kit's `script` champion: the cross-language script
-- (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
-- (champions/api/README.md) with putStrLn, which the kit sends to the log.
-- Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
-- template champions/api/templates/haskell/Script.hs: edit those, not this file.
module Prologin where

import Api
import Control.Monad (foldM, when)

say :: String -> Int -> IO ()
say call answer = putStrLn ("script: " ++ call ++ " = " ++ show answer)

-- | One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003.
scan :: IO ()
scan = do
  let step (a, b, c, d) (x, y) = do
        t <- type_case x y
        v <- valeur_case x y
        o <- appartenance x y
        m <- type_monument x y
        let next h r = (h * 31 + r + 100) `mod` 1000003
        return (next a t, next b v, next c o, next d m)
  (a, b, c, d) <- foldM step (0, 0, 0, 0)
    [(x, y) | y <- [0 .. taille_carte - 1], x <- [0 .. taille_carte - 1]]
  putStrLn ("script: scan = " ++ unwords (map show [a, b, c, d]))

start :: String -> IO Int
start callback = do
  t <- numero_tour
  putStrLn ("script: " ++ callback ++ " " ++ show t)
  return t

init_game :: IO ()
init_game = do
  t <- start "init_game"
  when (True) $ do
    numero_tour >>= say "numero_tour"
    mon_tour >>= say "mon_tour" . fromEnum
    commence >>= say "commence"
    monument_en_cours >>= say "monument_en_cours"
    vainqueur_encheres >>= say "vainqueur_encheres"
    cout_achat_maison >>= say "cout_achat_maison"
    cout_achat_route >>= say "cout_achat_route"
    finances (0) >>= say "finances 0"
    finances (1) >>= say "finances 1"
    finances (2) >>= say "finances 2"
    finances (3) >>= say "finances 3"
    finances (-1) >>= say "finances -1"
    score (0) >>= say "score 0"
    score (1) >>= say "score 1"
    score (2) >>= say "score 2"
    score (3) >>= say "score 3"
    montant_encheres (0) >>= say "montant_encheres 0"
    montant_encheres (2) >>= say "montant_encheres 2"
    montant_encheres (-1) >>= say "montant_encheres -1"
    portee_monument (0) >>= say "portee_monument 0"
    portee_monument (9) >>= say "portee_monument 9"
    portee_monument (13) >>= say "portee_monument 13"
    portee_monument (14) >>= say "portee_monument 14"
    portee_monument (-1) >>= say "portee_monument -1"
    prestige_monument (0) >>= say "prestige_monument 0"
    prestige_monument (12) >>= say "prestige_monument 12"
    prestige_monument (13) >>= say "prestige_monument 13"
    prestige_monument (14) >>= say "prestige_monument 14"
    type_case (50) (50) >>= say "type_case 50 50"
    type_case (0) (0) >>= say "type_case 0 0"
    type_case (-1) (0) >>= say "type_case -1 0"
    type_case (100) (5) >>= say "type_case 100 5"
    type_case (5) (100) >>= say "type_case 5 100"
    valeur_case (50) (50) >>= say "valeur_case 50 50"
    valeur_case (99) (99) >>= say "valeur_case 99 99"
    valeur_case (-1) (-1) >>= say "valeur_case -1 -1"
    appartenance (50) (50) >>= say "appartenance 50 50"
    appartenance (0) (99) >>= say "appartenance 0 99"
    appartenance (100) (100) >>= say "appartenance 100 100"
    type_monument (50) (50) >>= say "type_monument 50 50"
    type_monument (0) (0) >>= say "type_monument 0 0"
    type_monument (-5) (3) >>= say "type_monument -5 3"
    distance (50) (50) (50) (52) >>= say "distance 50 50 50 52"
    distance (50) (50) (62) (50) >>= say "distance 50 50 62 50"
    distance (50) (50) (63) (50) >>= say "distance 50 50 63 50"
    distance (0) (0) (99) (99) >>= say "distance 0 0 99 99"
    distance (-1) (0) (0) (0) >>= say "distance -1 0 0 0"
    route_possible (50) (51) >>= say "route_possible 50 51"
    route_possible (51) (51) >>= say "route_possible 51 51"
    route_possible (70) (70) >>= say "route_possible 70 70"
    route_possible (-1) (0) >>= say "route_possible -1 0"
    construction_possible (51) (51) >>= say "construction_possible 51 51"
    construction_possible (50) (50) >>= say "construction_possible 50 50"
    construction_possible (70) (70) >>= say "construction_possible 70 70"
    construction_possible (0) (100) >>= say "construction_possible 0 100"
    construire_route (50) (51) >>= say "construire_route 50 51"
    construire_maison (51) (51) >>= say "construire_maison 51 51"
    encherir (1) >>= say "encherir 1"
    detruire_maison (-1) (0) >>= say "detruire_maison -1 0"
    scan
  return ()

jouer :: IO ()
jouer = do
  t <- start "jouer"
  when (True) $ do
    mon_tour >>= say "mon_tour" . fromEnum
    commence >>= say "commence"
    monument_en_cours >>= say "monument_en_cours"
    vainqueur_encheres >>= say "vainqueur_encheres"
    cout_achat_maison >>= say "cout_achat_maison"
    cout_achat_route >>= say "cout_achat_route"
    finances (0) >>= say "finances 0"
    finances (1) >>= say "finances 1"
    finances (2) >>= say "finances 2"
    score (0) >>= say "score 0"
    score (1) >>= say "score 1"
    score (2) >>= say "score 2"
    montant_encheres (0) >>= say "montant_encheres 0"
    montant_encheres (1) >>= say "montant_encheres 1"
    montant_encheres (2) >>= say "montant_encheres 2"
  when (t == 1) $ do
    construire_route (50) (51) >>= say "construire_route 50 51"
    construire_route (50) (51) >>= say "construire_route 50 51"
    construire_route (70) (70) >>= say "construire_route 70 70"
    construire_route (-1) (5) >>= say "construire_route -1 5"
    cout_achat_route >>= say "cout_achat_route"
    finances (0) >>= say "finances 0"
    type_case (50) (51) >>= say "type_case 50 51"
    appartenance (50) (51) >>= say "appartenance 50 51"
    route_possible (50) (52) >>= say "route_possible 50 52"
    construction_possible (51) (52) >>= say "construction_possible 51 52"
    construire_maison (51) (52) >>= say "construire_maison 51 52"
    type_case (51) (52) >>= say "type_case 51 52"
    appartenance (51) (52) >>= say "appartenance 51 52"
    valeur_case (51) (52) >>= say "valeur_case 51 52"
    score (0) >>= say "score 0"
    cout_achat_maison >>= say "cout_achat_maison"
    finances (0) >>= say "finances 0"
    construire_maison (49) (52) >>= say "construire_maison 49 52"
    construire_maison (49) (50) >>= say "construire_maison 49 50"
    cout_achat_maison >>= say "cout_achat_maison"
    reserver_case (51) (50) >>= say "reserver_case 51 50"
    reserver_case (51) (50) >>= say "reserver_case 51 50"
    type_case (51) (50) >>= say "type_case 51 50"
    appartenance (51) (50) >>= say "appartenance 51 50"
    distance (50) (50) (50) (53) >>= say "distance 50 50 50 53"
    distance (50) (51) (51) (50) >>= say "distance 50 51 51 50"
    detruire_maison (49) (52) >>= say "detruire_maison 49 52"
    vendre_maison (80) (80) >>= say "vendre_maison 80 80"
    encherir (1) >>= say "encherir 1"
    construire_monument (52) (52) >>= say "construire_monument 52 52"
    finances (0) >>= say "finances 0"
    scan
  when (t == 2) $ do
    construire_route (50) (52) >>= say "construire_route 50 52"
    construire_route (50) (53) >>= say "construire_route 50 53"
    construire_route (50) (54) >>= say "construire_route 50 54"
    cout_achat_route >>= say "cout_achat_route"
    construire_maison (49) (53) >>= say "construire_maison 49 53"
    construire_maison (51) (53) >>= say "construire_maison 51 53"
    cout_achat_maison >>= say "cout_achat_maison"
    vendre_maison (51) (52) >>= say "vendre_maison 51 52"
    appartenance (51) (52) >>= say "appartenance 51 52"
    type_case (51) (52) >>= say "type_case 51 52"
    finances (0) >>= say "finances 0"
    detruire_maison (49) (53) >>= say "detruire_maison 49 53"
    finances (0) >>= say "finances 0"
    scan
  when (t == 5) $ do
    construire_route (49) (50) >>= say "construire_route 49 50"
    construire_route (48) (50) >>= say "construire_route 48 50"
    construire_maison (48) (49) >>= say "construire_maison 48 49"
    construire_maison (48) (51) >>= say "construire_maison 48 51"
    reserver_case (47) (50) >>= say "reserver_case 47 50"
    detruire_maison (48) (49) >>= say "detruire_maison 48 49"
    finances (0) >>= say "finances 0"
    score (0) >>= say "score 0"
    scan
  when (t == 15) $ do
    construire_route (51) (49) >>= say "construire_route 51 49"
    construire_maison (52) (49) >>= say "construire_maison 52 49"
    score (0) >>= say "score 0"
    finances (0) >>= say "finances 0"
    scan
  return ()

enchere :: IO ()
enchere = do
  t <- start "enchere"
  when (True) $ do
    mon_tour >>= say "mon_tour" . fromEnum
    monument_en_cours >>= say "monument_en_cours"
    finances (0) >>= say "finances 0"
    encherir (-1) >>= say "encherir -1"
    encherir (100000) >>= say "encherir 100000"
    encherir (1) >>= say "encherir 1"
    encherir (1) >>= say "encherir 1"
    finances (0) >>= say "finances 0"
    montant_encheres (0) >>= say "montant_encheres 0"
    construire_route (50) (49) >>= say "construire_route 50 49"
  when (t == 3) $ do
    scan
    vendre_maison (49) (50) >>= say "vendre_maison 49 50"
  return ()

placement :: IO ()
placement = do
  t <- start "placement"
  when (True) $ do
    mon_tour >>= say "mon_tour" . fromEnum
    monument_en_cours >>= say "monument_en_cours"
    vainqueur_encheres >>= say "vainqueur_encheres"
    montant_encheres (0) >>= say "montant_encheres 0"
    construire_monument (-1) (-1) >>= say "construire_monument -1 -1"
    construire_monument (50) (50) >>= say "construire_monument 50 50"
    construire_maison (60) (60) >>= say "construire_maison 60 60"
    construction_possible (52) (48) >>= say "construction_possible 52 48"
    construire_monument (52) (48) >>= say "construire_monument 52 48"
    construire_monument (52) (48) >>= say "construire_monument 52 48"
    type_monument (52) (48) >>= say "type_monument 52 48"
    valeur_case (52) (48) >>= say "valeur_case 52 48"
    valeur_case (51) (49) >>= say "valeur_case 51 49"
    construire_monument (53) (47) >>= say "construire_monument 53 47"
    construire_monument (49) (55) >>= say "construire_monument 49 55"
    construire_monument (51) (55) >>= say "construire_monument 51 55"
    construire_monument (49) (54) >>= say "construire_monument 49 54"
    construire_monument (51) (54) >>= say "construire_monument 51 54"
    type_monument (49) (55) >>= say "type_monument 49 55"
    type_monument (51) (55) >>= say "type_monument 51 55"
    valeur_case (50) (55) >>= say "valeur_case 50 55"
    scan
  return ()

end_game :: IO ()
end_game = do
  t <- start "end_game"
  when (True) $ do
    numero_tour >>= say "numero_tour"
    mon_tour >>= say "mon_tour" . fromEnum
    commence >>= say "commence"
    score (0) >>= say "score 0"
    score (1) >>= say "score 1"
    score (2) >>= say "score 2"
    finances (0) >>= say "finances 0"
    finances (1) >>= say "finances 1"
    finances (2) >>= say "finances 2"
    montant_encheres (0) >>= say "montant_encheres 0"
    vainqueur_encheres >>= say "vainqueur_encheres"
    construire_route (50) (49) >>= say "construire_route 50 49"
    vendre_maison (51) (53) >>= say "vendre_maison 51 53"
    encherir (1) >>= say "encherir 1"
    construire_monument (1) (1) >>= say "construire_monument 1 1"
    scan
  return ()
