#!/bin/sh
# Plays the 2009 champions of a stechec checkout (prologin/stechec, folder
# prologin/prolo2009/tests: `c`, `cxx`, `cxx2`, `greedy`, `groopy`, `python`) with today's
# kits, as a 2009 contestant's folder would be used: its own prologin.c/.cc unchanged, the
# kit's template Makefile in place of the 2009 one (and of the 2009 headers), built with the
# kits' defaults (`make`), then played with `referee match` with the default budget. The
# Python 2 champion `python` gets the one command champions/README.md names for it
# (`python3 kits/python/convert2009.py prologin.py`) in the Python template's folder.
#
# `cxx`, `cxx2` and `c` together: their 2009 line-up and setup (stechec's data/config.ini
# and data/map): `cxx` and `cxx2` are scripted tests of 2009's scores, prices and
# monuments that assert what they see, written for the monuments drawn in the order of
# data/map (1 to 14, our ids 0 to 13: `--monuments`); the 2009 server drew the first
# player at random, so the line-up plays once with each first player (`--first-player`).
# `greedy` and `groopy` each against `random greedy`, one match per seed. Prints the
# summary's rows of the 2009 champions (score, money, houses, points, faults), then per
# champion its matches, faults, CPU per callback (mean and heaviest, from the records) and
# the requests of its heaviest callback (the kits answer the information functions and
# rules 19 to 21 from their cache: those are not requests); exits 1 when any match has a
# fault or a failed assertion (a crash), 0 otherwise.
#
#   scripts/stechec-2009.sh ~/src/stechec                 seeds 1 2 3
#   SEEDS="7 8" scripts/stechec-2009.sh ~/src/stechec
#   REFEREE=path scripts/stechec-2009.sh ~/src/stechec    that referee binary, not a fresh build
#
# The champions' sources are read from the checkout and copied to a temporary folder,
# removed at the end; nothing of them is kept.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ne 1 ]; then
  echo "usage: scripts/stechec-2009.sh STECHEC_CHECKOUT (the folder holding prologin/prolo2009)" >&2
  exit 2
fi
tests=$1/prologin/prolo2009/tests
if [ ! -d "$tests" ]; then
  echo "stechec-2009: no folder $tests: give the root of a prologin/stechec checkout" >&2
  exit 2
fi
if [ -z "${REFEREE:-}" ]; then
  printf '== cargo build --release -p referee\n' >&2
  (cd "$root" && cargo build --release -q -p referee)
  target=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
    sed 's/.*"target_directory":"\([^"]*\)".*/\1/')
  REFEREE=$target/release/referee
fi
export PROLOGIN_KITS="$root/kits"
# The monument order of data/map: a count, then that many monuments numbered from 1
# (lines starting with `#` are comments; stechec's file lists all 14, in order).
map=$1/prologin/prolo2009/data/map
if ! monuments=$(grep -v '^#' "$map" | tr -s ' \n' '\n' | awk '
  NF == 0 { next }
  count == "" { count = $1; next }
  { if ($1 !~ /^[0-9]+$/ || $1 < 1 || $1 > 14) bad = 1; order = order sep ($1 - 1); sep = ","; n++ }
  END { if (bad || count != 14 || n != 14) exit 1; print order }'); then
  echo "stechec-2009: $map does not list the 14 monuments (a count, then ids 1 to 14)" >&2
  exit 2
fi
seeds=${SEEDS:-1 2 3}
failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf 'referee: %s\nmachine: %s, %s CPUs, load %s\n\n' "$REFEREE" "$(uname -sr)" \
  "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
# Builds each champion's folder: its 2009 sources, today's template Makefile.
built=
for name in c cxx cxx2 greedy groopy python; do
  if [ ! -d "$tests/$name" ]; then
    echo "stechec-2009: $tests/$name is missing" >&2
    failed=1
    continue
  fi
  champion=$work/$name
  if [ "$name" = python ]; then
    # The Python template's launcher and the 2009 file, converted by the README's command.
    cp -r "$root/champions/python/template" "$champion"
    cp "$tests/python/prologin.py" "$champion/prologin.py"
    if python3 "$root/kits/python/convert2009.py" "$champion/prologin.py" \
      >"$work/$name.build" 2>&1; then
      built="$built $name"
    else
      printf '%s: convert2009.py failed:\n' "$name"
      cat "$work/$name.build"
      failed=1
    fi
    continue
  fi
  mkdir "$champion"
  # The 2009 sources only: the 2009 Makefile and headers were the 2009 kit's.
  for src in "$tests/$name"/*.c "$tests/$name"/*.cc; do
    [ -f "$src" ] && cp "$src" "$champion/"
  done
  if ls "$champion"/*.cc >/dev/null 2>&1; then
    cp "$root/champions/cpp/template/Makefile" "$champion/"
  else
    cp "$root/champions/c/template/Makefile" "$champion/"
  fi
  if make -s -C "$champion" >"$work/$name.build" 2>&1; then
    built="$built $name"
  else
    printf '%s: build failed:\n' "$name"
    cat "$work/$name.build"
    failed=1
  fi
done

# One match: prints the summary's rows of the seats named (`0 1 2` or `0`), and notes in
# $work/figures each seat's callbacks from its record (CPU, requests, which callback).
play() {
  what=$1 seed=$2 seats=$3
  shift 3
  out=$work/$(echo "$what-$seed" | tr ' =,' '___')
  if ! "$REFEREE" match "$@" --seed "$seed" --out "$out" >"$out.txt" 2>&1; then
    printf '%s seed %s: referee match failed:\n' "$what" "$seed"
    cat "$out.txt"
    failed=1
    return
  fi
  for seat in $seats; do
    row=$(grep "^$seat " "$out.txt" | head -n 1)
    # `seat champion score money houses points faults...`
    set -- $row
    who=${2##*/} score=$3 money=$4 houses=$5 points=$6
    shift 6
    printf '%-22s %-5s %-8s %-6s %-6s %-7s %-7s %s\n' "$what" "$seed" "$who" "$score" \
      "$money" "$houses" "$points" "$*"
    [ "$*" = "-" ] || failed=1
    python3 - "$out/record.json" "$seat" "$who" "$*" >>"$work/figures" <<'EOF'
import json, sys
record, seat, who, faults = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
r = json.load(open(record))
calls = [(t["cpu_us"], c["requests"], c["callback"])
         for c, t in zip(r["callbacks"], r["timings"]) if c["seat"] == seat]
print(json.dumps({"who": who, "faults": faults, "calls": calls}))
EOF
  done
}

has() { case " $built " in *" $1 "*) return 0 ;; esac; return 1; }
printf '%-22s %-5s %-8s %-6s %-6s %-7s %-7s %s\n' line-up seed champion score money houses \
  points faults
# c, cxx and cxx2 were written to play together (their config.ini: cxx, cxx2, c), with
# data/map's monument order and any first player.
if has c && has cxx && has cxx2; then
  for first in 0 1 2; do
    play "cxx cxx2 c, first=$first" 1 "0 1 2" "$work/cxx" "$work/cxx2" "$work/c" \
      --monuments "$monuments" --first-player "$first"
  done
fi
for seed in $seeds; do
  for name in greedy groopy python; do
    has "$name" && play "$name random greedy" "$seed" 0 "$work/$name" random greedy
  done
done

# Per champion, over its matches: faults, CPU per callback, the heaviest callback.
printf '\n%-8s %-7s %-6s %-14s %-26s %s\n' champion matches faults "CPU/callback" \
  "heaviest callback (CPU)" "its requests"
if [ -s "$work/figures" ]; then
  python3 - "$work/figures" <<'EOF'
import json, sys
seen = {}
for line in open(sys.argv[1]):
    m = json.loads(line)
    s = seen.setdefault(m["who"], {"matches": 0, "faults": 0, "calls": []})
    s["matches"] += 1
    s["faults"] += m["faults"] != "-"
    s["calls"] += m["calls"]
for who, s in seen.items():
    cpu, requests, callback = max(s["calls"])
    mean = sum(c[0] for c in s["calls"]) / len(s["calls"]) / 1000
    print(f"{who:<8} {s['matches']:<7} {s['faults']:<6} {f'{mean:.2f} ms':<14} "
          f"{callback + f' ({cpu / 1000:.1f} ms)':<26} {requests}")
EOF
fi
printf '(CPU charged by the referee; a callback'"'"'s budget is 1 s, 10 s for init_game)\n'
exit $failed
