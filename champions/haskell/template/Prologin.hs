-- | A Haskell champion that does nothing, but validly: copy this folder, fill in the
-- callbacks and `make`. The API (construire_route, type_case, mon_tour, ...: IO actions)
-- and the constants (succes, route, taille_carte, ...: in lower case) come with
-- `import Api`; putStrLn goes to your log. A callback you leave out does nothing.
module Prologin where

import Api
import Control.Monad (when)

init_game :: IO ()
init_game = return ()

jouer :: IO ()
jouer = do
  mine <- mon_tour
  when mine $ return ()

enchere :: IO ()
enchere = return ()

placement :: IO ()
placement = return ()

end_game :: IO ()
end_game = return ()
