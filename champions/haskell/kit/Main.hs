-- | Main.hs -- the Haskell kit's entry point: serves the callbacks of the champion's
-- Prologin.hs, those it does not define being empty ones (Callbacks.hs, written by
-- haskell.mk from the champion's interface).
module Main (main) where

import Api (serve)
import qualified Callbacks as C

main :: IO ()
main = serve [C.init_game, C.jouer, C.enchere, C.placement, C.end_game]
