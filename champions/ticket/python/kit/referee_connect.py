"""A kit's connection to a game server (`referee serve`, docs/server.md), the same file in
every Python kit.

When REFEREE_SERVER=host:port is set, the kit connects there, names itself (REFEREE_NAME,
default `champion`), asks its game (`WAIT_GAME` with REFEREE_WAIT, e.g. `TRAINING random`,
empty for a free game, then `game=<the kit's game> protocol=lines` and
`token=$REFEREE_TOKEN` when set) and plays the game's lines over the socket, as it reads
and writes them on stdin and stdout when the referee spawns it: the champion's code is the
same. Unset: the kit is spawned. The server is not trusted: what it says is shown escaped
and bounded (`printable`).
"""

import os
import socket
import sys


# The most characters of a server's text a kit shows; the rest is counted, not printed.
SHOWN = 200


def printable(text):
    """`text`, which a server sent, made safe for the contestant's terminal: a control
    character as \\xNN (an escape code must not retitle the window, write the clipboard,
    clear the screen or hide text), at most SHOWN characters of it, then how long it was."""
    shown = "".join(
        c if c.isprintable() else "\\x%02x" % ord(c) if ord(c) < 0x100 else "\\u%04x" % ord(c)
        for c in text[:SHOWN])
    if len(text) > SHOWN:
        shown += "... (%d bytes in all)" % len(text.encode("utf-8", "surrogateescape"))
    return shown


def _refused(what, why):
    print("kit: game server %s: %s" % (what, printable(why)), file=sys.stderr)
    sys.exit(2)


def _message(sock):
    """One message of the server: six digits of length, then the bytes."""

    def exactly(n):
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                _refused("closed the connection", "before the game started")
            data += chunk
        return data

    head = exactly(6)
    if not head.isdigit():
        _refused("sent a message without its six digits of length", head.decode("latin-1"))
    return exactly(int(head)).decode("utf-8", "replace")


def connect(game):
    """The socket's descriptor of a game of `game` on the server REFEREE_SERVER names,
    once the game has started; None when REFEREE_SERVER is unset."""
    server = os.environ.get("REFEREE_SERVER", "")
    if not server:
        return None
    host, colon, port = server.rpartition(":")
    if not colon or not host or not port.isdigit():
        _refused(server, "REFEREE_SERVER is not host:port (e.g. 127.0.0.1:1234)")
    try:
        sock = socket.create_connection((host, int(port)))
    except OSError as e:
        _refused(server, "cannot connect (is `referee serve` running there?): %s" % e)
    name = os.environ.get("REFEREE_NAME") or "champion"
    sock.sendall(("CLIENT_NAME %s\n" % name).encode())
    answer = _message(sock)
    if answer != "OK":
        _refused("refused the name", answer)
    wait = os.environ.get("REFEREE_WAIT", "")
    token = os.environ.get("REFEREE_TOKEN", "")
    request = "WAIT_GAME %s game=%s protocol=lines" % (wait, game)
    if token:
        request += " token=" + token
    sock.sendall((request + "\n").encode())
    answer = _message(sock)
    if answer != "OK":
        _refused("refused the game", answer)
    name = _message(sock)
    while name == "NOT_READY":
        name = _message(sock)
    # The name first, as the C kit does: a wait that ends without a game (a tournament
    # over) is shown by what the server said.
    sys.stderr.write("kit: game %s" % printable(name))
    sys.stderr.flush()
    print(" (%s) on %s" % (printable(_message(sock)), server), file=sys.stderr)
    return sock.detach()
