#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian machine with the Rust toolchain: C and C++
# compilers, make, Python 3, and Chromium with Node for the viewer's browser test
# (referee/tests/view_browser.rs; no npm package is needed). Skips what is already there.
set -euo pipefail
need=()
command -v cc >/dev/null || need+=(gcc)
command -v c++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v python3 >/dev/null || need+=(python3)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v node >/dev/null || need+=(nodejs)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${need[@]}"
  else
    echo "ci-install: please install: ${need[*]}" >&2
    exit 1
  fi
fi
