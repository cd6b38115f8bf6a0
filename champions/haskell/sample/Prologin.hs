-- | sample: a Haskell champion that plays sensibly near the town hall (50, 50): a free
-- road, houses on the best cells next to the roads, a bid worth the monument's prestige,
-- and the monument placed where it helps its own houses most (or hurts the others'
-- most). Deterministic: it needs no random numbers.
module Prologin where

import Api
import Control.Monad (filterM, forM, unless, when)
import Data.List (sort)

hall, reach :: Int
hall = 50
reach = 15 -- only the cells within 15 of the town hall are considered

nearRoad :: Bool -> (Int, Int) -> IO Bool
nearRoad diagonals (x, y) = or <$> mapM isRoad steps
  where
    steps = [(dx, dy) | dy <- [-1, 0, 1], dx <- [-1, 0, 1], (dx, dy) /= (0, 0),
             diagonals || dx == 0 || dy == 0]
    isRoad (dx, dy) = (== route) <$> type_case (x + dx) (y + dy)

-- | Empty cells next to a road near the hall, best first by `worth` (then nearest the
-- hall), as (-worth, distance, y, x).
candidates :: Bool -> (Int -> Int -> IO Int) -> IO [(Int, Int, Int, Int)]
candidates diagonals worth = do
  let area = [(x, y) | y <- [hall - reach .. hall + reach], x <- [hall - reach .. hall + reach]]
  empty <- filterM (\(x, y) -> (== vide) <$> type_case x y) area
  spots <- filterM (nearRoad diagonals) empty
  found <- forM spots $ \(x, y) -> do
    w <- worth x y
    return (-w, abs (x - hall) + abs (y - hall), y, x)
  return (sort found)

-- | Builds on the first of the 5 best cells that accepts it.
buildBest :: (Int -> Int -> IO Int) -> Bool -> (Int -> Int -> IO Int) -> IO Bool
buildBest build diagonals worth = candidates diagonals worth >>= go . take 5
  where
    go [] = return False
    go ((_, _, y, x) : rest) = do
      r <- build x y
      if r == succes then return True else go rest

nowhere :: Int -> Int -> IO Int
nowhere _ _ = return 0

init_game :: IO ()
init_game = do
  first <- commence
  putStrLn ("sample (Haskell): first player is " ++ show first)

jouer :: IO ()
jouer = do
  mine <- mon_tour
  when mine $ do
    price <- cout_achat_route
    money <- finances 0
    when (price <= money) $ () <$ buildBest construire_route False nowhere
    houses (2 :: Int)
    -- The second house brings a free road: take it.
    next <- cout_achat_route
    when (next == 0) $ () <$ buildBest construire_route False nowhere
  where
    houses 0 = return ()
    houses n = do
      price <- cout_achat_maison
      money <- finances 0
      when (price <= money) $ do
        built <- buildBest construire_maison True valeur_case
        when built $ houses (n - 1)

enchere :: IO ()
enchere = do
  mine <- mon_tour
  when mine $ do
    prestige <- monument_en_cours >>= prestige_monument
    money <- finances 0
    when (prestige > 0) $ () <$ encherir (min prestige (money `div` 3))

-- | Its own houses in range count for it, the others' against (the other way round for
-- a monument of negative prestige).
worth :: Int -> Int -> Int -> Int -> IO Int
worth prestige range x y = do
  ws <- forM [(x + dx, y + dy) | dy <- [-range .. range], dx <- [-range .. range]] $
    \(cx, cy) -> do
      kind <- type_case cx cy
      if kind /= maison then return 0 else do
        owner <- appartenance cx cy
        return (if owner == 0 then 1 else -1)
  return (if prestige >= 0 then sum ws else negate (sum ws))

placement :: IO ()
placement = do
  mine <- mon_tour
  unless (not mine) $ do
    idm <- monument_en_cours
    prestige <- prestige_monument idm
    range <- portee_monument idm
    () <$ buildBest construire_monument True (worth prestige range)

end_game :: IO ()
end_game = do
  money <- finances 0
  houses <- score 0
  putStrLn ("sample (Haskell) end: money " ++ show money ++ " worth " ++ show houses)
