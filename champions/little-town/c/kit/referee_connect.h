/* referee_connect.h -- a kit's connection to a game server (`referee serve`,
 * docs/server.md), the same file in every C kit. When REFEREE_SERVER=host:port is set, the
 * kit connects there, names itself (REFEREE_NAME, default `champion`), asks its game
 * (`WAIT_GAME` with REFEREE_WAIT, e.g. `TRAINING random`, empty for a free game, then
 * `game=<the kit's game> protocol=lines` and `token=$REFEREE_TOKEN` when set) and plays the
 * game's lines over the socket, as it reads and writes them on stdin and stdout when the
 * referee spawns it: the champion's code is the same. Unset: the kit is spawned. The server
 * is not trusted: what it says is shown escaped and bounded (referee_printable). */
#ifndef REFEREE_CONNECT_H
#define REFEREE_CONNECT_H

#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

/* The most bytes of a server's text a kit shows; the rest is counted, not printed. */
#define REFEREE_SHOWN 200
/* Room for REFEREE_SHOWN bytes escaped, and the count of the rest. */
#define REFEREE_PRINTABLE (REFEREE_SHOWN * 4 + 48)

/* `text`, which a server sent, made safe for the contestant's terminal into `out`: a byte
 * outside printable ASCII as \xNN (an escape code must not retitle the window, write the
 * clipboard, clear the screen or hide text), at most REFEREE_SHOWN bytes of it, then how
 * long it was. Returns `out`. */
static const char *referee_printable(const char *text, char out[REFEREE_PRINTABLE]) {
  size_t len = strlen(text), i, n = 0;
  for (i = 0; i < len && i < REFEREE_SHOWN; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c >= 0x20 && c < 0x7f)
      out[n++] = (char)c;
    else
      n += (size_t)snprintf(out + n, 5, "\\x%02x", c);
  }
  out[n] = '\0';
  if (len > REFEREE_SHOWN)
    snprintf(out + n, REFEREE_PRINTABLE - n, "... (%zu bytes in all)", len);
  return out;
}

/* Stops the kit: the server (`what`) refused or broke off; `why` is the server's text or
 * ours, shown escaped. */
static void referee_refused(const char *what, const char *why) {
  char shown[REFEREE_PRINTABLE];
  fprintf(stderr, "kit: game server %s: %s\n", what, referee_printable(why, shown));
  exit(2);
}

/* Reads one message of the server (six digits of length, then the bytes) into `buf`. */
static void referee_message(int fd, char *buf, size_t cap) {
  char head[7] = {0};
  size_t got = 0, n;
  long len;
  while (got < 6) {
    ssize_t r = read(fd, head + got, 6 - got);
    if (r <= 0) referee_refused("closed the connection", "before the game started");
    got += (size_t)r;
  }
  for (n = 0; n < 6; n++)
    if (head[n] < '0' || head[n] > '9')
      referee_refused("sent a message without its six digits of length", head);
  len = strtol(head, NULL, 10);
  if ((size_t)len >= cap) referee_refused("sent a message too long", head);
  for (n = 0; n < (size_t)len;) {
    ssize_t r = read(fd, buf + n, (size_t)len - n);
    if (r <= 0) referee_refused("closed the connection", "before the game started");
    n += (size_t)r;
  }
  buf[len] = '\0';
}

static void referee_command(int fd, const char *text) {
  size_t n = strlen(text), done = 0;
  while (done < n) {
    ssize_t w = write(fd, text + done, n - done);
    if (w <= 0) referee_refused("closed the connection", "while we wrote");
    done += (size_t)w;
  }
}

/* The socket of a game of `game` on the server REFEREE_SERVER names, once the game has
 * started; -1 when REFEREE_SERVER is unset. Exits with a message when the server refuses. */
static int referee_connect(const char *game) {
  const char *server = getenv("REFEREE_SERVER");
  const char *name = getenv("REFEREE_NAME");
  const char *wait = getenv("REFEREE_WAIT");
  const char *token = getenv("REFEREE_TOKEN");
  char host[256], buf[4096], command[2048], shown[REFEREE_PRINTABLE];
  const char *colon;
  struct addrinfo hints, *found, *a;
  int fd = -1, err;
  if (!server || !*server) return -1;
  colon = strrchr(server, ':');
  if (!colon || colon == server || (size_t)(colon - server) >= sizeof host)
    referee_refused(server, "REFEREE_SERVER is not host:port (e.g. 127.0.0.1:1234)");
  memcpy(host, server, (size_t)(colon - server));
  host[colon - server] = '\0';
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  err = getaddrinfo(host, colon + 1, &hints, &found);
  if (err) referee_refused(server, gai_strerror(err));
  for (a = found; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) < 0) close(fd), fd = -1;
  }
  freeaddrinfo(found);
  if (fd < 0) referee_refused(server, "cannot connect (is `referee serve` running there?)");
  snprintf(command, sizeof command, "CLIENT_NAME %s\n", name && *name ? name : "champion");
  referee_command(fd, command);
  referee_message(fd, buf, sizeof buf);
  if (strcmp(buf, "OK") != 0) referee_refused("refused the name", buf);
  snprintf(command, sizeof command, "WAIT_GAME %s game=%s protocol=lines%s%s\n",
           wait ? wait : "", game, token && *token ? " token=" : "", token ? token : "");
  referee_command(fd, command);
  referee_message(fd, buf, sizeof buf);
  if (strcmp(buf, "OK") != 0) referee_refused("refused the game", buf);
  do referee_message(fd, buf, sizeof buf);
  while (strcmp(buf, "NOT_READY") == 0);
  fprintf(stderr, "kit: game %s", referee_printable(buf, shown));
  referee_message(fd, buf, sizeof buf);
  fprintf(stderr, " (%s) on %s\n", referee_printable(buf, shown), server);
  return fd;
}

#endif
