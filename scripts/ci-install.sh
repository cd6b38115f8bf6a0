#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian machine with the Rust toolchain: C and C++
# compilers, make, Python 3, Chromium with Node for the viewers' browser tests
# (referee/tests/views/view_browser.rs; no npm package is needed), and a JDK for the attack
# tests' Java champion, and Slurm with munge for the one-node cluster of
# referee/tests/tournament/slurm.rs (about 50 s to install on 2 cores), and an sshd, GNU parallel and
# rsync for referee/tests/tournament/parallel_ssh.rs (about 30 s). Skips what is already there:
# under CI=true a test whose tool is missing fails rather than skips
# (referee/tests/common/mod.rs).
#   scripts/ci-install.sh             everything
#   scripts/ci-install.sh compilers   only what cargo needs to build the workspace (a C
#                                     compiler and linker, make): .ci/run builds the tests
#                                     while the rest installs
set -euo pipefail
# Installs the Debian packages given (options first), as root: directly, or through sudo
# when it asks no password; otherwise says what to run, and stops.
# The package lists are fetched once a run.
updated=""
install() {
  if [ "$(id -u)" = 0 ]; then
    [ -n "$updated" ] || apt-get update -qq
    updated=1
    apt-get install -y -qq "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    [ -n "$updated" ] || sudo apt-get update -qq
    updated=1
    sudo apt-get install -y -qq "$@"
  else
    echo "ci-install: missing packages; as root, run: apt-get install $*" >&2
    exit 1
  fi
}
need=()
command -v cc >/dev/null || need+=(gcc)
command -v c++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
if [ "${1:-}" = compilers ]; then
  [ ${#need[@]} = 0 ] || install "${need[@]}"
  exit 0
fi
command -v python3 >/dev/null || need+=(python3)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v node >/dev/null || need+=(nodejs)
# The attack tests run a Java champion in the jail (a JVM's threads and memory map).
command -v javac >/dev/null || need+=(default-jdk-headless)
# referee/tests/tournament/slurm.rs starts a one-node cluster (scripts/slurm-local.sh).
command -v slurmctld >/dev/null || [ -x /usr/sbin/slurmctld ] || need+=(slurm-wlm)
command -v munged >/dev/null || [ -x /usr/sbin/munged ] || need+=(munge)
# referee/tests/tournament/parallel_ssh.rs runs scripts/parallel-ssh-tournament.sh over a local sshd.
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
command -v ssh >/dev/null || need+=(openssh-client)
command -v parallel >/dev/null || need+=(parallel)
command -v rsync >/dev/null || need+=(rsync)
# ---- Kits (issue 15), part 1: JavaScript uses node (above), Java the JDK (above); C#
# (mcs, mono), Go, Ruby and PHP for their kits and sample champions (kits.rs).
command -v mcs >/dev/null || need+=(mono-mcs)
command -v go >/dev/null || need+=(golang-go)
command -v ruby >/dev/null || need+=(ruby)
command -v php >/dev/null || need+=(php-cli)
# ---- end of kits part 1
if [ ${#need[@]} -gt 0 ]; then
  install "${need[@]}"
fi

# ---- The Lua, Prolog, OCaml, Haskell and Pascal kits (champions/<lang>/, issue 15): their
# interpreters and compilers, without the recommended extras (documentation, profiling
# libraries). The compiled kits build outside the jail (scripts/build-champions.sh).
kits=()
command -v lua5.4 >/dev/null || kits+=(lua5.4)
# The Lua kit's rules module (champions/c/kit/prologin_rules_lua.c) builds against its headers.
[ -f /usr/include/lua5.4/lua.h ] || kits+=(liblua5.4-dev)
command -v swipl >/dev/null || kits+=(swi-prolog-nox)
command -v ocamlopt >/dev/null || kits+=(ocaml-nox)
command -v ghc >/dev/null || kits+=(ghc)
command -v fpc >/dev/null || kits+=(fp-compiler)
# The Python kit's convert2009.py (a 2009 champion in Python 2) uses fissix, lib2to3's
# maintained fork, for Debian's python3 (lib2to3 is gone from Python 3.13).
[ -d /usr/lib/python3/dist-packages/fissix ] || kits+=(python3-fissix)
if [ ${#kits[@]} -gt 0 ]; then
  install --no-install-recommends "${kits[@]}"
fi
