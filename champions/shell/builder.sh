#!/bin/sh
# In `jouer`: one road, then one house, along the row of the centre (50,50); reads every
# answer (request on stdout, answer on stdin, log on stderr).
ask() { echo "$*"; read -r answer; echo "$callback: $* -> $answer" >&2; }
while read -r callback; do
  if [ "$callback" = jouer ]; then
    ask mon_tour
    if [ "$answer" = 1 ]; then
      for x in 51 49 52 48 53 47 54 46; do ask construire_route $x 50; [ "$answer" = 0 ] && break; done
      for x in 50 51 49 52 48 53 47 54 46; do
        ask construire_maison $x 49; [ "$answer" = 0 ] && break
        ask construire_maison $x 51; [ "$answer" = 0 ] && break
      done
    fi
  fi
  echo fin
done
