-- | The Haskell kit's `script` champion: the cross-language script
-- (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
-- (champions/api/README.md) with putStrLn, which the kit sends to the log.
{% for line in notice | wrap(86) %}
-- {{ line }}
{% endfor %}
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
{% for cb in api.callbacks %}

{{ cb.name }} :: IO ()
{{ cb.name }} = do
  t <- start "{{ cb.name }}"
{% for step in scenario.steps if step.callback == cb.name %}
  when ({{ "True" if step.turn == 0 else "t == " ~ step.turn }}) $ do
{% for c in step.calls %}
{% if c.name == "scan" %}
    scan
{% elif c.name == "mon_tour" %}
    mon_tour >>= say "mon_tour" . fromEnum
{% else %}
    {{ c.name }}{% for a in c.args %} ({{ a }}){% endfor %} >>= say "{{ c.name }}{% for a in c.args %} {{ a }}{% endfor %}"
{% endif %}
{% endfor %}
{% endfor %}
  return ()
{% endfor %}
