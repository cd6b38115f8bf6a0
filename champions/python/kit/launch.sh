#!/bin/sh
# Runs a Python champion with this kit: `sh <kit>/launch.sh <folder>/prologin.py`, as the
# champions' `champion` launchers do.
#
# The interpreter is $PROLOGIN_PYTHON when set (the referee passes it from its own
# environment; protocol.md section 6), else `python3` from PATH. PROLOGIN_PYTHON is a
# command name looked up in PATH (`pypy3`, `python3.12`), an absolute path, or a path
# relative to the champion's folder (`venv/bin/python`, a virtual environment kept in the
# folder). In the referee's jail only /usr, /bin, /sbin, /lib*, /etc, /opt and the
# champion's own folder exist: an interpreter elsewhere (a virtual environment in your
# home) works with `--sandbox off` only, or kept inside the champion's folder.
kit=$(dirname "$0")
file=$1
here=$(dirname "$file")
py=${PROLOGIN_PYTHON:-python3}
case $py in
  /*) ;;
  */*) py=$here/$py ;;
esac
if ! command -v "$py" >/dev/null 2>&1; then
  if [ -n "${PROLOGIN_PYTHON:-}" ]; then
    echo "prologin kit (Python): PROLOGIN_PYTHON=$PROLOGIN_PYTHON: no interpreter at $py (in the referee's jail only /usr, /bin, /sbin, /lib*, /etc, /opt and the champion's folder exist; see champions/README.md)" >&2
  else
    echo "prologin kit (Python): no python3 on PATH ($PATH); set PROLOGIN_PYTHON to an interpreter" >&2
  fi
  exit 127
fi
exec "$py" -B "$kit/run.py" "$file"
