#!/bin/sh
# Benchmarks the kits' cached board: whole matches of the full-map scan champions
# (referee/tests/fixtures/kits/scan_py and scan_c, which read all 10,000 cells with
# valeur_case and type_case in every callback), timed end to end with the real referee.
#
#   scripts/bench-kits.sh              build, then time each line-up (10 runs each)
#   RUNS=20 scripts/bench-kits.sh      more runs
#   REFEREE=path scripts/bench-kits.sh use that referee binary instead of building one
#
# Targets (referee issue "What it must show"): a match with a Python scan champion under
# 2 s, with a C scan champion under 0.5 s. Uses hyperfine when installed, else a loop
# timed with `date +%s.%N`. After the timings, prints from one record per line-up the
# CPU and wall time the referee charged to each seat. Results go to referee/BENCHMARKS.md
# (section "Kits") by hand.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-10}
kits=$root/referee/tests/fixtures/kits

if [ -z "${REFEREE:-}" ]; then
  printf '== cargo build --release -p referee\n' >&2
  (cd "$root" && cargo build --release -q -p referee)
  REFEREE=${CARGO_TARGET_DIR:-$root/target}/release/referee
fi
printf '== make -C referee/tests/fixtures/kits/scan_c\n' >&2
make -s -C "$kits/scan_c"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name | champions (seed 7 for all: the same monuments and first player)
lineups="builtins|random greedy random
scan_py|$kits/scan_py random greedy
scan_c|$kits/scan_c random greedy
scan_py_x3|$kits/scan_py $kits/scan_py $kits/scan_py
scan_c_x3|$kits/scan_c $kits/scan_c $kits/scan_c"

printf '\nreferee: %s\nmachine: %s, %s CPUs, load %s; %s\n' "$REFEREE" "$(uname -sr)" \
  "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(python3 --version 2>&1)"

echo "$lineups" | while IFS='|' read -r name champions; do
  cmd="$REFEREE match $champions --seed 7 --out $work/$name"
  # A first run that must succeed without fault; its record gives the per-seat figures.
  $cmd >"$work/$name.out" 2>&1 || { cat "$work/$name.out" >&2; exit 1; }
  python3 - "$work/$name/record.json" >"$work/$name.seats" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
if r["faults"]:
    sys.exit("bench-kits: faults: %s" % json.dumps(r["faults"]))
for seat in r["seats"]:
    n = seat["seat"]
    pairs = [(t["cpu_us"], t["wall_us"]) for c, t in zip(r["callbacks"], r["timings"])
             if c["seat"] == n]
    name = seat["path"].rsplit("/", 2)[-2] if "/" in seat["path"] else seat["path"]
    print("  seat %d %-16s %2d callbacks, CPU %4d ms, wall in callbacks %4d ms, max %3d ms"
          % (n, name, len(pairs), sum(p[0] for p in pairs) // 1000,
             sum(p[1] for p in pairs) // 1000, max(p[1] for p in pairs) // 1000))
EOF
  printf '\n### %s: referee match %s --seed 7\n' "$name" \
    "$(echo "$champions" | sed "s#$root/##g")"
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --style basic --warmup 1 --runs "$runs" "$cmd" 2>/dev/null |
      grep -E 'Time|Range'
  else
    i=0
    times=""
    while [ "$i" -lt "$runs" ]; do
      t0=$(date +%s.%N)
      $cmd >/dev/null 2>&1
      t1=$(date +%s.%N)
      times="$times $(echo "$t0 $t1" | awk '{ printf "%.4f", $2 - $1 }')"
      i=$((i + 1))
    done
    echo "$times" | tr ' ' '\n' | grep . | sort -n | awk '
      { t[NR] = $1; s += $1 }
      END { printf "  mean %.3f s, min %.3f s, median %.3f s, max %.3f s (%d runs)\n",
            s / NR, t[1], t[int((NR + 1) / 2)], t[NR], NR }'
  fi
  cat "$work/$name.seats"
done

# For contrast: the same 20,000 reads asked of the referee one by one, without a kit
# (a Python champion that scans this way in init_game only, then passes).
cat >"$work/uncached.py" <<'EOF'
#!/usr/bin/env python3
import sys
out, first = sys.stdout, True
for callback in sys.stdin:
    if first:
        for y in range(100):
            for x in range(100):
                for request in ("valeur_case", "type_case"):
                    out.write("%s %d %d\n" % (request, x, y))
                    out.flush()
                    int(sys.stdin.readline())
        first = False
    out.write("fin\n")
    out.flush()
EOF
chmod +x "$work/uncached.py"
printf '\n### one init_game reading 10,000 cells (valeur_case + type_case), 3 matches\n'
for run in 1 2 3; do
  "$REFEREE" match "$work/uncached.py" "$kits/scan_py" "$kits/scan_c" --seed 7 \
    --out "$work/uncached$run" >/dev/null 2>&1
  python3 - "$work/uncached$run/record.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
if r["faults"]:
    sys.exit("bench-kits: faults: %s" % json.dumps(r["faults"]))
walls = {}
for c, t in zip(r["callbacks"], r["timings"]):
    if c["callback"] == "init_game":
        n = c["requests"]  # a count in the record (the lines are in the full log)
        walls[c["seat"]] = (t["wall_us"], n if isinstance(n, int) else len(n))
print("  " + ", ".join("%s %.1f ms (%d requests)" % (label, walls[seat][0] / 1000, walls[seat][1])
                       for seat, label in ((0, "no kit"), (1, "scan_py"), (2, "scan_c"))))
EOF
done

# ---- Kits part 1 (issue 15): JavaScript, Java, C#, Go, Ruby, PHP. For each kit whose
# toolchain is installed, 5 matches (seed 7) of its template and of its scan champion
# (referee/tests/fixtures/kits/scan_<x>) against `random greedy`, in the jail (the
# default). Start-up: the CPU (and wall time) the referee charged to the template's
# init_game: the runtime's start and the kit's, nothing else (budget 10 s). Scan: the CPU
# per later callback of the scan champion, i.e. one `etat` parsed and 20,000 reads through
# the kit (plus a few actions). Medians of the 5 matches; figures for champions/README.md.
printf '\n### kits: start-up (template init_game) and full-map scan CPU per callback, 5 matches each\n'
printf '  %-11s %-24s %s\n' kit "start-up CPU (wall)" "scan CPU per callback"
for spec in "JavaScript:javascript:node:scan_js" "Java:java:javac:scan_java" \
  "C#:csharp:mcs:scan_cs" "Go:go:go:scan_go" "Ruby:ruby:ruby:scan_rb" "PHP:php:php:scan_php"; do
  IFS=: read -r label dir tool scan <<SPEC
$spec
SPEC
  if ! command -v "$tool" >/dev/null 2>&1; then
    printf '  %-11s skipped: %s is not installed\n' "$label" "$tool"
    continue
  fi
  for folder in "$root/champions/$dir/template" "$kits/$scan"; do
    if [ -f "$folder/Makefile" ]; then make -s -C "$folder"; fi
  done
  for run in 1 2 3 4 5; do
    "$REFEREE" match "$root/champions/$dir/template" random greedy --seed 7 \
      --out "$work/k1-$dir-t$run" >/dev/null 2>&1
    "$REFEREE" match "$kits/$scan" random greedy --seed 7 \
      --out "$work/k1-$dir-s$run" >/dev/null 2>&1
  done
  python3 - "$label" "$work/k1-$dir" <<'PY'
import json, statistics, sys
label, base = sys.argv[1], sys.argv[2]
starts, walls, scans = [], [], []
for run in range(1, 6):
    for kind in ("t", "s"):
        r = json.load(open("%s-%s%d/record.json" % (base, kind, run)))
        if r["faults"]:
            sys.exit("bench-kits: %s: faults: %s" % (label, json.dumps(r["faults"])))
        seat0 = [(c["callback"], t) for c, t in zip(r["callbacks"], r["timings"]) if c["seat"] == 0]
        if kind == "t":
            starts += [t["cpu_us"] for n, t in seat0 if n == "init_game"]
            walls += [t["wall_us"] for n, t in seat0 if n == "init_game"]
        else:
            later = [t["cpu_us"] for n, t in seat0 if n != "init_game"]
            scans.append(sum(later) / len(later))
print("  %-11s %4.0f ms (%4.0f ms)          %.1f ms" % (
    label, statistics.median(starts) / 1000, statistics.median(walls) / 1000,
    statistics.median(scans) / 1000))
PY
done
# ---- end of kits part 1
# ---- The Lua, Prolog, OCaml, Haskell and Pascal kits (issue 15): for each whose toolchain
# is here, the startup (CPU and wall time of init_game, which counts the process start,
# for the kit's template champion, which asks nothing: the interpreter or runtime
# loading) and the CPU of one full-map scan (the mean CPU per callback of its scan
# fixture, which reads all 10,000 cells with valeur_case and type_case in every
# callback), 3 matches each.
"$root/scripts/build-champions.sh" >/dev/null 2>&1 || true
printf '\n### kits: startup (template init_game) and full-map scan (scan_<lang>), seed 7\n'
for spec in lua:lua5.4 prolog:swipl ocaml:ocamlopt haskell:ghc pascal:fpc; do
  lang=${spec%%:*}
  tool=${spec#*:}
  if ! command -v "$tool" >/dev/null 2>&1; then
    printf '  %-8s skipped: no %s\n' "$lang" "$tool"
    continue
  fi
  [ ! -f "$kits/scan_$lang/Makefile" ] || make -s -C "$kits/scan_$lang" >/dev/null
  for run in 1 2 3; do
    "$REFEREE" match "$root/champions/$lang/template" random greedy --seed 7 \
      --out "$work/t_$lang$run" >/dev/null 2>&1
    "$REFEREE" match "$kits/scan_$lang" random greedy --seed 7 \
      --out "$work/s_$lang$run" >/dev/null 2>&1
    python3 - "$lang" "$work/t_$lang$run/record.json" "$work/s_$lang$run/record.json" <<'PY'
import json, sys
lang, template, scan = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
for r in (template, scan):
    if r["faults"]:
        sys.exit("bench-kits: faults: %s" % json.dumps(r["faults"]))
def seat0(r):
    return [t for c, t in zip(r["callbacks"], r["timings"]) if c["seat"] == 0]
init = seat0(template)[0]
rest = seat0(scan)[1:]
print("  %-8s startup: init_game CPU %6.1f ms, wall %6.1f ms; full-map scan: %5.2f ms CPU "
      "per callback (mean of %d)" % (lang, init["cpu_us"] / 1000, init["wall_us"] / 1000,
                                    sum(t["cpu_us"] for t in rest) / len(rest) / 1000, len(rest)))
PY
  done
done
