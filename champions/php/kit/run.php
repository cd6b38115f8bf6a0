<?php
// Runs a PHP champion under the protocol of protocol.md.
//
// Usage (from a champion's launcher, which moves the referee's pipes to fds 3 and 4 and
// points fd 1 at stderr and fd 0 at /dev/null): php run.php path/to/prologin.php
//
// Includes the kit (api.php) and the champion, whose global functions init_game, jouer,
// enchere, placement, end_game are the callbacks, then serves them. echo and print go to
// the log.

if ($argc !== 2) {
    fwrite(STDERR, "usage: php run.php path/to/prologin.php (fds 3 and 4: the referee)\n");
    exit(2);
}
require_once __DIR__ . '/api.php';
ProloginKit::$in = @fopen('php://fd/3', 'rb');
ProloginKit::$out = @fopen('php://fd/4', 'wb');
if (ProloginKit::$in === false || ProloginKit::$out === false) {
    fwrite(STDERR, "prologin kit (PHP): fds 3 and 4 must be the referee's pipes: start the champion with its `champion` launcher\n");
    exit(2);
}
// include2010 first: the 2010 skeleton's `require('api.php')` finds its empty api.php
// there, not the kit's, already loaded (its functions declared twice would be fatal).
set_include_path(__DIR__ . '/include2010' . PATH_SEPARATOR . dirname(realpath($argv[1])) . PATH_SEPARATOR . __DIR__ . PATH_SEPARATOR . get_include_path());
require $argv[1];
exit(ProloginKit::serve());
