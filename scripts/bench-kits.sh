#!/bin/sh
# Benchmarks the champion kits with the real referee, in the jail (the default), in two
# parts:
#
# 1. matches: whole matches of the full-map scan champions of the Python and C kits
#    (referee/tests/fixtures/kits/scan_py and scan_c, which read all 10,000 cells with
#    valeur_case and type_case in every callback) against the built-ins, timed end to end,
#    then the same 20,000 reads asked of the referee one by one, without a kit. Targets
#    (referee issue "What it must show"): a match with a Python scan champion under 2 s,
#    with a C scan champion under 0.5 s. Uses hyperfine when installed, else a loop timed
#    with `date +%s.%N`; prints from one record per line-up the CPU and wall time the
#    referee charged to each seat.
# 2. kits: the table of champions/README.md, one row per kit (all 15): for each kit whose
#    toolchain is here, KIT_RUNS matches (seed 7) of its template, and as many of its
#    full-map scan champion, against `random greedy`. Start-up: the CPU (and wall time)
#    the referee charged to the template's init_game, i.e. the runtime's start and the
#    kit's (budget 10 s). Scan: the mean CPU of the scan champion's later callbacks, i.e.
#    one `etat` parsed and 20,000 reads through the kit, plus a few actions (budget 1 s).
#    Medians over the matches.
#
#   scripts/bench-kits.sh              build, then every part
#   scripts/bench-kits.sh kits         part 2 only (matches: part 1 only)
#   scripts/bench-kits.sh kits calls   parts 2 and 3, in one run (their ratios comparable)
#   CALL_KITS="python java" scripts/bench-kits.sh calls   part 3 for these kits only
#   scripts/bench-kits.sh calls        part 3 only: the cost of a call answered by the kit's
#                                      rules (CPU) and of a round trip (wall), in each kit
#                                      (referee/tests/fixtures/kits/rules_<kit> of every
#                                      kit, the Rust kit's binary rules_rust; KIT_RUNS
#                                      matches each)
#   RUNS=20 scripts/bench-kits.sh      part 1: runs per line-up (10)
#   KIT_RUNS=9 scripts/bench-kits.sh   part 2: matches per champion (5)
#   REFEREE=path scripts/bench-kits.sh use that referee binary instead of building one
#
# Results go to referee/BENCHMARKS.md (section "Kits") and champions/README.md by hand,
# with the load average printed (other work on the machine inflates wall times).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
parts=${*:-matches kits calls}
for part in $parts; do
  case $part in
    matches | kits | calls) ;;
    *)
      echo "bench-kits: unknown part \`$part\`: give matches, kits or calls (one or more), or nothing (all)" >&2
      exit 2
      ;;
  esac
done
runs=${RUNS:-10}
kit_runs=${KIT_RUNS:-5}
kits=$root/referee/tests/fixtures/kits
target=${CARGO_TARGET_DIR:-$root/target}
# The PATH the referee gives every champion (protocol.md section 6): the versions below
# are those of the programs the champions run.
champion_path=/usr/local/bin:/usr/bin:/bin

if [ -z "${REFEREE:-}" ]; then
  printf '== cargo build --release -p referee\n' >&2
  (cd "$root" && cargo build --release -q -p referee)
  REFEREE=$target/release/referee
fi
# Every kit's template (and the Rust kit's binaries: template, scan_rust); a kit whose
# toolchain is missing is skipped by its hook, and below.
printf '== scripts/build-champions.sh\n' >&2
CARGO_TARGET_DIR=$target "$root/scripts/build-champions.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }

printf '\nreferee: %s\nmachine: %s, %s CPUs, load %s\n' "$REFEREE" "$(uname -sr)" \
  "$(nproc)" "$(load)"

# ---- Part 1: whole matches of scan_py and scan_c against the built-ins.
matches() {
  printf '\n## Part 1: whole matches (%s runs each); load %s; %s\n' "$runs" "$(load)" \
    "$(PATH=$champion_path python3 --version 2>&1)"
  make -s -C "$kits/scan_c"
  # name | champions (seed 7 for all: the same monuments and first player)
  lineups="builtins|random greedy random
scan_py|$kits/scan_py random greedy
scan_c|$kits/scan_c random greedy
scan_py_x3|$kits/scan_py $kits/scan_py $kits/scan_py
scan_c_x3|$kits/scan_c $kits/scan_c $kits/scan_c"

  echo "$lineups" | while IFS='|' read -r name champions; do
    cmd="$REFEREE match $champions --seed 7 --out $work/$name"
    # A first run that must succeed without fault; its record gives the per-seat figures.
    $cmd </dev/null >"$work/$name.out" 2>&1 || { cat "$work/$name.out" >&2; exit 1; }
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
        $cmd </dev/null >/dev/null 2>&1
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
      --out "$work/uncached$run" </dev/null >/dev/null 2>&1
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
}

# ---- Part 2: one row per kit, the table of champions/README.md.
# kit | a shell command whose first line names its toolchain and version | programs it
# needs (to build or run) | its template (in champions/) | its full-map scan champion (in
# referee/tests/fixtures/kits/). `release:NAME` is the Rust kit's binary NAME in
# <target>/release (built by scripts/build-champions.sh with cargo, needed only when the
# binary is absent).
kit_list='C|cc --version|make cc|c/template|scan_c
C++|c++ --version|make c++|cpp/template|scan_cpp
Python 3|python3 --version|python3|python/template|scan_py
Rust|rustc --version||release:template|release:scan_rust
JavaScript|echo node $(node --version)|node|javascript/template|scan_js
Java|java -version 2>&1|javac java|java/template|scan_java
C#|mono --version|mcs mono|csharp/template|scan_cs
Go|go env GOVERSION|go|go/template|scan_go
Ruby|ruby --version|ruby|ruby/template|scan_rb
PHP|php --version|php|php/template|scan_php
Lua|lua5.4 -v|lua5.4|lua/template|scan_lua
Prolog|swipl --version|swipl|prolog/template|scan_prolog
OCaml|echo ocamlopt $(ocamlopt -version)|ocamlopt|ocaml/template|scan_ocaml
Haskell|echo ghc $(ghc --numeric-version)|ghc|haskell/template|scan_haskell
Pascal|echo fpc $(fpc -iV)|fpc|pascal/template|scan_pascal'

# A champion of the list as a path: `release:NAME`, or NAME in the folder $2.
champion_at() {
  case $1 in
    release:*) echo "$target/release/${1#release:}" ;;
    *) echo "$2/$1" ;;
  esac
}

# The first line of what `sh -c "$1"` prints, with the programs champions run (their
# PATH first), without its parenthesised, bracketed and copyright parts (nor the JVM's
# `Picked up JAVA_TOOL_OPTIONS` line, printed first when that variable is set).
toolchain() {
  PATH=$champion_path:$PATH sh -c "$1" 2>/dev/null | grep -v '^Picked up ' | head -n 1 | sed -e 's/ ([^)]*)//g' \
    -e 's/ \[[^]]*\]//g' -e 's/  *Copyright.*//' -e 's/ for [a-z0-9_]*-linux.*//' \
    -e 's/ version / /' -e 's/ JIT compiler / /' -e 's/"//g'
}

# The row of one kit from its matches' records (`$work/<i>-t<run>`, `$work/<i>-s<run>`).
row() {
  python3 - "$@" <<'PY'
import json, statistics, sys
label, version, base, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def ms(us):
    v = us / 1000
    return "%.0f ms" % v if v >= 10 else "%.1f ms" % v if v >= 1 else "%.2f ms" % v
starts, walls, scans = [], [], []
for run in range(1, runs + 1):
    for kind in ("t", "s"):
        r = json.load(open("%s-%s%d/record.json" % (base, kind, run)))
        if r["faults"]:
            sys.exit("bench-kits: %s: faults: %s" % (label, json.dumps(r["faults"])))
        seat0 = [(c["callback"], t) for c, t in zip(r["callbacks"], r["timings"])
                 if c["seat"] == 0]
        if kind == "t":
            starts += [t["cpu_us"] for n, t in seat0 if n == "init_game"]
            walls += [t["wall_us"] for n, t in seat0 if n == "init_game"]
        else:
            later = [t["cpu_us"] for n, t in seat0 if n != "init_game"]
            scans.append(sum(later) / len(later))
print("| %s | %s | %s (%s) | %s |" % (
    label, version, ms(statistics.median(starts)), ms(statistics.median(walls)),
    ms(statistics.median(scans))))
PY
}

kits_table() {
  printf '\n## Part 2: every kit, %s matches of its template, %s of its scan champion\n' \
    "$kit_runs" "$kit_runs"
  printf 'load before: %s\n\n' "$(load)"
  printf '| kit | toolchain | start-up CPU (wall) | full-map scan CPU per callback |\n'
  printf '|---|---|---|---|\n'
  echo "$kit_list" >"$work/kits.list"
  i=0
  while IFS='|' read -r label version needs template scan; do
    i=$((i + 1))
    template=$(champion_at "$template" "$root/champions")
    scan=$(champion_at "$scan" "$kits")
    missing=""
    for tool in $needs; do
      command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
    done
    if [ -n "$missing" ]; then
      printf '| %s | skipped: not installed:%s | | |\n' "$label" "$missing"
      continue
    fi
    if [ ! -e "$template" ] || [ ! -e "$scan" ]; then
      printf '| %s | skipped: %s or %s not built (scripts/build-champions.sh) | | |\n' \
        "$label" "${template#"$root"/}" "${scan#"$root"/}"
      continue
    fi
    # The scan fixtures are not bundled champions: build those that need it.
    if [ -f "$scan/Makefile" ]; then make -s -C "$scan" >&2; fi
    run=1
    while [ "$run" -le "$kit_runs" ]; do
      for kind in t s; do
        if [ "$kind" = t ]; then who=$template; else who=$scan; fi
        "$REFEREE" match "$who" random greedy --seed 7 --out "$work/$i-$kind$run" \
          </dev/null >"$work/$i.out" 2>&1 || {
          cat "$work/$i.out" >&2
          exit 1
        }
      done
      run=$((run + 1))
    done
    row "$label" "$(toolchain "$version")" "$work/$i" "$kit_runs"
  done <"$work/kits.list"
  printf '\nload after: %s\n' "$(load)"
}

# ---- Part 3: the cost of a cached call and of a round trip (rules_c prints both in its
# second jouer: 500,000 rules over the CPU they took, 500 failed actions over their
# wall time).
calls() {
  for language in ${CALL_KITS:-c ocaml haskell pascal go python java csharp ruby php prolog \
    javascript lua rust}; do
    fixture=rules_$language
    printf '\n## Part 3: cost of a call, %s kit (%s matches); load %s\n' "$language" \
      "$kit_runs" "$(load)"
    if [ "$language" = rust ]; then
      # The Rust kit's binary (scripts/build-champions.sh built it) as a folder's champion.
      if [ ! -x "$target/release/rules_rust" ]; then
        echo "$fixture: not built (cargo build --release -p prologin --bin rules_rust)"
        continue
      fi
      mkdir -p "$work/$fixture"
      cp "$target/release/rules_rust" "$work/$fixture/champion"
    else
      cp -r "$kits/$fixture" "$work/$fixture"
      if ! make -s -C "$work/$fixture" KIT="$root/champions/$language/kit" \
        KIT_C="$root/champions/c/kit"; then
        echo "$fixture: not built (its toolchain: champions/README.md)"
        continue
      fi
    fi
    for run in $(seq "$kit_runs"); do
      "$REFEREE" match "$work/$fixture" random greedy --seed "$run" \
        --out "$work/calls-$language-$run" >/dev/null
      # Under a heavy load the 500 round trips of turn 2 may outlast the wall budget (4 s).
      grep -h "$fixture: cost:" "$work/calls-$language-$run/seat0.stderr" ||
        echo "$fixture: no cost line in match $run (a fault: $(grep '^0 ' "$work/calls-$language-$run/summary.txt" 2>/dev/null || echo 'see its record'))"
      # Lua has no wall clock finer than a second: its round trip is the referee's, from the
      # record (the wall time of turn 2's jouer, which adds the 500 round trips, less turn
      # 3's, which asks the same rules).
      if [ "$language" = lua ] && [ -f "$work/calls-$language-$run/record.json" ]; then
        python3 - "$work/calls-$language-$run/record.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
wall = [t["wall_us"] for c, t in zip(r["callbacks"], r["timings"])
        if c["seat"] == 0 and c["callback"] == "jouer"]
if len(wall) >= 3:
    print(f"rules_lua: round trip {(wall[1] - wall[2]) / 500:.1f} us (wall, from the record: "
          f"turn 2's jouer {wall[1]} us less turn 3's {wall[2]} us, over 500)")
EOF
      fi
    done
  done
}

for part in $parts; do
  case $part in
    matches) matches ;;
    kits) kits_table ;;
    calls) calls ;;
  esac
done
