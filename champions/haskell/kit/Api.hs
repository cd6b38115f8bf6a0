{-# LANGUAGE OverloadedStrings #-}
{-# LANGUAGE ForeignFunctionInterface #-}
-- | Api.hs -- the Haskell kit: the 26 functions of the 2009 API (`import Api` in
-- Prologin.hs), each an IO action, the protocol of protocol.md and the cached `etat`
-- behind them.
--
-- Owns: the protocol handles (taken by 'serve' before any callback: the real stdin and
-- stdout are duplicated for the protocol, fd 0 then reads /dev/null and fd 1 writes to
-- stderr, so putStrLn goes to the log), the state cache (one `etat` per callback and
-- after each successful action; a cell read is one ByteString index), the local argument
-- checks (HORS_TERRAIN, JOUEUR_INCORRECT, PAS_DE_MONUMENT) and the callback loop
-- ('serve', called by the kit's Main.hs). `distance`, `route_possible` and
-- `construction_possible` are the C kit's rules (prologin_rules_lib.c, linked in by
-- haskell.mk), answered from the cached board without a round trip.
module Api
  ( module Constants
  , type_case, valeur_case, appartenance, type_monument, portee_monument
  , prestige_monument, numero_tour, commence, montant_encheres, vainqueur_encheres
  , score, finances, monument_en_cours, distance, route_possible
  , construction_possible, cout_achat_maison, cout_achat_route, mon_tour
  , construire_route, construire_maison, reserver_case, detruire_maison
  , vendre_maison, encherir, construire_monument
  , serve
  ) where

import Constants

import Control.Exception (IOException, catch)
import Control.Monad (when)
import qualified Data.ByteString.Char8 as B
import qualified Data.ByteString.Unsafe as BU
import Data.IORef
import Foreign.C.String (CString)
import Foreign.C.Types (CInt (..))
import System.Exit (ExitCode (..), exitWith)
import System.IO
import System.IO.Unsafe (unsafePerformIO)
import System.Posix.IO

-- | The state of the kit: the protocol handles, the callback being served and the cache.
data Kit = Kit
  { kIn :: Handle
  , kOut :: Handle
  , kCallback :: String
  , kDirty :: !Bool
  , kFigures :: [Int]
  , kKinds, kOwners, kMonuments, kValues :: !B.ByteString
  }

kit :: IORef Kit
kit = unsafePerformIO (newIORef (Kit stdin stdout "(none)" True [] "" "" "" ""))
{-# NOINLINE kit #-}

-- | The conversation with the referee broke down: report it and exit at once.
failKit :: String -> IO a
failKit message = do
  k <- readIORef kit
  hFlush stdout `catch` \e -> const (return ()) (e :: IOException)
  hPutStrLn stderr ("prologin kit (Haskell): error in " ++ kCallback k ++ ": " ++ message)
  exitWith (ExitFailure 2)

send :: B.ByteString -> IO ()
send line = do
  out <- kOut <$> readIORef kit
  (B.hPut out line >> B.hPut out "\n" >> hFlush out) `catch` \e ->
    failKit ("writing to the referee: " ++ show (e :: IOException))

stripCr :: B.ByteString -> B.ByteString
stripCr l = if not (B.null l) && B.last l == '\r' then B.init l else l

-- | The next line of the referee, or Nothing at end of file.
nextLine :: IO (Maybe B.ByteString)
nextLine = do
  h <- kIn <$> readIORef kit
  eof <- hIsEOF h `catch` \e -> failKit ("reading from the referee: " ++ show (e :: IOException))
  if eof then return Nothing else Just . stripCr <$> B.hGetLine h

readAnswer :: String -> IO B.ByteString
readAnswer what =
  nextLine >>= maybe
    (failKit ("the referee closed the connection while we waited for `" ++ what ++ "`"))
    return

parseInt :: String -> B.ByteString -> IO Int
parseInt what s = case B.readInt s of
  Just (v, rest) | B.null rest && B.length s <= 12 && v >= -2147483648 && v <= 2147483647 -> return v
  _ -> failKit ("unparsable answer `" ++ B.unpack (B.take 60 s) ++ "` to `" ++ what
                ++ "`: expected an integer")

-- | An argument as the wire's signed 32-bit integer: Int is wider, and a value beyond
-- the range answers the same clamped (off the map, unaffordable).
wire :: Int -> B.ByteString
wire v = B.pack (show (max (-2147483648) (min 2147483647 v)))

ask :: String -> [Int] -> IO Int
ask name args = do
  send (B.unwords (B.pack name : map wire args))
  readAnswer name >>= parseInt name

act :: String -> [Int] -> IO Int
act name args = do
  r <- ask name args
  when (r == succes) $ modifyIORef' kit (\k -> k { kDirty = True })
  return r

refresh :: IO ()
refresh = do
  send "etat"
  fields <- B.words <$> readAnswer "etat"
  let (figs, strs) = splitAt 16 fields
  case strs of
    [a, b, c, d] | length figs == 16 && all ((== 10000) . B.length) strs -> do
      ints <- mapM (parseInt "etat") figs
      BU.unsafeUseAsCString a $ \kinds -> BU.unsafeUseAsCString b $ \owners ->
        c_board kinds owners
      modifyIORef' kit $ \k -> k { kDirty = False, kFigures = ints
                                 , kKinds = a, kOwners = b, kMonuments = c, kValues = d }
    _ -> failKit "unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters"

fresh :: IO Kit
fresh = do
  k <- readIORef kit
  if kDirty k then refresh >> readIORef kit else return k

figure :: Int -> IO Int
figure i = (!! i) . kFigures <$> fresh

onMap :: Int -> Int -> Bool
onMap x y = x >= 0 && x < taille_carte && y >= 0 && y < taille_carte

cell :: (Kit -> B.ByteString) -> Int -> Int -> IO Int
cell field x y = do
  k <- fresh
  return (fromIntegral (BU.unsafeIndex (field k) (y * taille_carte + x)))

-- Information functions.

type_case :: Int -> Int -> IO Int
type_case x y | onMap x y = subtract 48 <$> cell kKinds x y
              | otherwise = return hors_terrain

valeur_case :: Int -> Int -> IO Int
valeur_case x y | onMap x y = subtract 64 <$> cell kValues x y
                | otherwise = return hors_terrain

appartenance :: Int -> Int -> IO Int
appartenance x y | onMap x y = subtract 48 <$> cell kOwners x y
                 | otherwise = return hors_terrain

type_monument :: Int -> Int -> IO Int
type_monument x y
  | onMap x y = do
      c <- cell kMonuments x y
      return (if c == 46 then pas_de_monument else c - 97) -- '.' or 'a' + id
  | otherwise = return hors_terrain

portee_monument :: Int -> IO Int
portee_monument n
  | n >= 0 && n < max_monuments = return (portee_table !! n)
  | otherwise = return pas_de_monument

prestige_monument :: Int -> IO Int
prestige_monument n
  | n >= 0 && n < max_monuments = return (prestige_table !! n)
  | otherwise = return pas_de_monument

numero_tour :: IO Int
numero_tour = figure 0

commence :: IO Int
commence = figure 2

ofPlayer :: Int -> Int -> IO Int
ofPlayer base n | n >= 0 && n <= 2 = figure (base + n)
                | otherwise = return joueur_incorrect

montant_encheres :: Int -> IO Int
montant_encheres = ofPlayer 13

vainqueur_encheres :: IO Int
vainqueur_encheres = figure 4

-- | The player's houses' worth, money excluded: not the final score (rule 9).
score :: Int -> IO Int
score = ofPlayer 10

finances :: Int -> IO Int
finances = ofPlayer 7

monument_en_cours :: IO Int
monument_en_cours = figure 3

-- The board's rules (rules 19 to 21), the C kit's (prologin_rules_lib.c): the board is
-- given to them at each fill of the cache; a call costs a C function call.
foreign import ccall unsafe "prologin_rules_board"
  c_board :: CString -> CString -> IO ()
foreign import ccall unsafe "prologin_rules_distance"
  c_distance :: CInt -> CInt -> CInt -> CInt -> IO CInt
foreign import ccall unsafe "prologin_rules_route_possible"
  c_route_possible :: CInt -> CInt -> IO CInt
foreign import ccall unsafe "prologin_rules_construction_possible"
  c_construction_possible :: CInt -> CInt -> IO CInt

-- | An argument as C's int: a value beyond its range answers as the nearest (off the map).
cint :: Int -> CInt
cint v = fromIntegral (max (-2147483648) (min 2147483647 v))

-- | A rule answered from the cached board (refreshed first when an action changed it).
rule :: IO CInt -> IO Int
rule call = fresh >> fromIntegral <$> call

distance :: Int -> Int -> Int -> Int -> IO Int
distance x1 y1 x2 y2 = rule (c_distance (cint x1) (cint y1) (cint x2) (cint y2))

route_possible :: Int -> Int -> IO Int
route_possible x y = rule (c_route_possible (cint x) (cint y))

construction_possible :: Int -> Int -> IO Int
construction_possible x y = rule (c_construction_possible (cint x) (cint y))

cout_achat_maison :: IO Int
cout_achat_maison = figure 5

cout_achat_route :: IO Int
cout_achat_route = figure 6

-- | True in your own turn (the API's bool; rule 16).
mon_tour :: IO Bool
mon_tour = (/= 0) <$> figure 1

-- Actions.

construire_route :: Int -> Int -> IO Int
construire_route x y = act "construire_route" [x, y]

construire_maison :: Int -> Int -> IO Int
construire_maison x y = act "construire_maison" [x, y]

reserver_case :: Int -> Int -> IO Int
reserver_case x y = act "reserver_case" [x, y]

detruire_maison :: Int -> Int -> IO Int
detruire_maison x y = act "detruire_maison" [x, y]

vendre_maison :: Int -> Int -> IO Int
vendre_maison x y = act "vendre_maison" [x, y]

encherir :: Int -> IO Int
encherir montant = act "encherir" [montant]

construire_monument :: Int -> Int -> IO Int
construire_monument x y = act "construire_monument" [x, y]

-- | Takes the protocol descriptors, then runs the protocol loop with the callbacks
-- init_game, jouer, enchere, placement and end_game, in that order. Returns when the
-- referee closes the connection after end_game; exits non-zero on a kit error.
serve :: [IO ()] -> IO ()
serve callbacks = do
  inFd <- dup stdInput
  outFd <- dup stdOutput
  null <- openFd "/dev/null" ReadOnly Nothing defaultFileFlags
  _ <- dupTo null stdInput
  closeFd null
  _ <- dupTo stdError stdOutput
  mapM_ (\fd -> setFdOption fd CloseOnExec True) [inFd, outFd]
  hIn <- fdToHandle inFd
  hOut <- fdToHandle outFd
  mapM_ (`hSetBinaryMode` True) [hIn, hOut]
  hSetBuffering hOut (BlockBuffering Nothing)
  hSetBuffering stdout LineBuffering
  modifyIORef' kit (\k -> k { kIn = hIn, kOut = hOut })
  let names = ["init_game", "jouer", "enchere", "placement", "end_game"]
      loop ended = nextLine >>= \l -> case l of
        Nothing
          | ended -> return ()
          | otherwise -> do
              hPutStrLn stderr "prologin kit (Haskell): the referee closed the connection before end_game"
              exitWith (ExitFailure 1)
        Just line -> case lookup line (zip names callbacks) of
          Nothing -> failKit ("unknown callback `" ++ B.unpack (B.take 60 line) ++ "` from the referee")
          Just callback -> do
            modifyIORef' kit (\k -> k { kCallback = B.unpack line, kDirty = True })
            callback
            hFlush stdout
            send "fin"
            loop (line == "end_game")
  loop False
