"""Runs a Python champion of the Game of the Amazons under protocol-amazons.md.

Usage: python3 run.py path/to/prologin.py

Moves the protocol to private descriptors (fd 0 becomes /dev/null, fd 1 stderr, so the
champion's print() goes to the log), imports the champion file as module `prologin`
with this folder (for `api`) and the champion's folder on the path, and serves its
callbacks (api._serve, which sends `fin` when each returns).
"""

import importlib.util
import os
import sys


def _take_protocol_fds():
    # A game server's socket when REFEREE_SERVER names one, else stdin and stdout.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import referee_connect

    sock = referee_connect.connect("amazons")
    del sys.path[0]
    fds = (sock, os.dup(sock)) if sock is not None else (os.dup(0), os.dup(1))
    proto_in = os.fdopen(fds[0], "rb")
    proto_out = os.fdopen(fds[1], "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)
    sys.stdout = sys.stderr
    return proto_in, proto_out


def main():
    if len(sys.argv) != 2:
        print("usage: run.py path/to/prologin.py", file=sys.stderr)
        return 2
    proto_in, proto_out = _take_protocol_fds()
    path = os.path.abspath(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [here, os.path.dirname(path)]
    import api
    api._connect(proto_in, proto_out)
    spec = importlib.util.spec_from_file_location("prologin", path)
    champion = importlib.util.module_from_spec(spec)
    sys.modules["prologin"] = champion
    spec.loader.exec_module(champion)
    return api._serve(champion)


if __name__ == "__main__":
    sys.exit(main())
