<?php
// The API of "La loi du plus riche" (Prologin 2009 final), PHP kit.
//
// Same names and values as the 2009 API, as global functions and constants: a champion
// (prologin.php) defines any of the functions init_game, jouer, enchere, placement,
// end_game; run.php includes it and speaks protocol.md with the referee. echo goes to
// stderr (the log). Rules and error codes: docs/rules.md (rule N, section 6).
//
// Owns: the protocol streams (fds 3 and 4, set up by the launcher), the state cache (one
// `etat` per callback and after each successful action) and the local argument checks.

require_once __DIR__ . '/constants.php';

final class ProloginKit
{
    const CALLBACKS = ['init_game', 'jouer', 'enchere', 'placement', 'end_game'];

    public static $in;
    public static $out;
    public static $callback = '(none)';
    public static $dirty = true;
    public static $figures = [];
    public static $kinds = '';
    public static $owners = '';
    public static $monuments = '';
    public static $values = '';

    /** The conversation with the referee broke down: say so and exit at once. */
    public static function fail($message)
    {
        fwrite(STDERR, 'prologin kit (PHP): error in ' . self::$callback . ": $message\n");
        exit(2);
    }

    public static function send($text)
    {
        $len = strlen($text);
        for ($off = 0; $off < $len; $off += $n) {
            $n = @fwrite(self::$out, substr($text, $off));
            if ($n === false || $n === 0) {
                self::fail('writing to the referee failed');
            }
        }
        fflush(self::$out);
    }

    public static function readLine()
    {
        $line = fgets(self::$in);
        if ($line === false) {
            return null;
        }
        return rtrim($line, "\r\n");
    }

    public static function expectLine($what)
    {
        $line = self::readLine();
        if ($line === null) {
            self::fail("the referee closed the connection while we waited for `$what`");
        }
        return $line;
    }

    /** An argument as the wire's signed 32-bit integer (the API's `int`): clamping keeps
     * every answer (a coordinate stays off the map, a bid unaffordable or negative). */
    public static function arg($v)
    {
        $v = (int) $v;
        return $v < -2147483648 ? -2147483648 : ($v > 2147483647 ? 2147483647 : $v);
    }

    public static function ask($name, ...$args)
    {
        $request = $name;
        foreach ($args as $a) {
            $request .= ' ' . self::arg($a);
        }
        self::send("$request\n");
        $line = self::expectLine($name);
        if (!preg_match('/^-?[0-9]+$/', $line)) {
            self::fail('unparsable answer `' . substr($line, 0, 60) . "` to `$name`: expected an integer");
        }
        return (int) $line;
    }

    public static function act($name, ...$args)
    {
        $r = self::ask($name, ...$args);
        if ($r === SUCCES) {
            self::$dirty = true;
        }
        return $r;
    }

    public static function refresh()
    {
        self::send("etat\n");
        $fields = explode(' ', self::expectLine('etat'));
        if (count($fields) !== 20) {
            self::fail('unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters');
        }
        for ($i = 16; $i < 20; $i++) {
            if (strlen($fields[$i]) !== 10000) {
                self::fail('unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters');
            }
        }
        $figures = [];
        for ($i = 0; $i < 16; $i++) {
            if (!preg_match('/^-?[0-9]+$/', $fields[$i])) {
                self::fail('unparsable answer to `etat`: a figure is not an integer');
            }
            $figures[] = (int) $fields[$i];
        }
        self::$figures = $figures;
        [self::$kinds, self::$owners, self::$monuments, self::$values] = array_slice($fields, 16);
        self::$dirty = false;
        if (self::$rules !== null) {
            self::$rules->prologin_rules_board(self::$kinds, self::$owners);
            self::$construction = self::$route = null;
        }
    }

    // The board's rules (rules 19 to 21): the C kit's, one implementation for every kit
    // (c/kit/prologin_rules_lib.c), in the shared library scripts/build-champions.sh builds
    // in the C kit (libprologin_rules.so: $PROLOGIN_KITS/c, /kits/c in the jail; or the
    // file PROLOGIN_RULES_LIB names), called through PHP's FFI (loaded with dl() when
    // `php -n` left it out). The board is given to it at each fill of the cache; the
    // first construction_possible or route_possible after that fetches every cell's two
    // answers at once, so that a call is an array read. Without the library, each of the
    // three calls is a round trip, said once on stderr.
    public static $rules = null;
    public static $construction = null;
    public static $route = null;

    public static function loadRules()
    {
        $path = (string) getenv('PROLOGIN_RULES_LIB');
        $kits = (string) getenv('PROLOGIN_KITS');
        if ($path === '') {
            $path = $kits !== '' ? "$kits/c/libprologin_rules.so" : __DIR__ . '/../../c/kit/libprologin_rules.so';
        }
        $why = null;
        if (!class_exists('FFI') && !(function_exists('dl') && @dl('ffi.so'))) {
            $why = 'no FFI extension in this PHP';
        } else {
            try {
                self::$rules = FFI::cdef(
                    'void prologin_rules_board(const char *kinds, const char *owners);
                     void prologin_rules_tables(signed char *construction, signed char *route);
                     int prologin_rules_distance(int x1, int y1, int x2, int y2);',
                    $path
                );
            } catch (\Throwable $e) {
                $why = $e->getMessage();
            }
        }
        if ($why !== null) {
            fwrite(STDERR, "prologin kit (PHP): no rules library ($why): construction_possible, "
                . "route_possible and distance ask the referee, a round trip each (build it: scripts/build-champions.sh)\n");
        }
    }

    /** construction_possible (table 0) or route_possible (table 1) of cell (x, y). */
    public static function ruleCell($table, $x, $y)
    {
        $i = self::cell($x, $y);
        if ($i < 0) {
            return HORS_TERRAIN;
        }
        if (self::$construction === null) {
            $construction = self::$rules->new('signed char[10000]');
            $route = self::$rules->new('signed char[10000]');
            self::$rules->prologin_rules_tables($construction, $route);
            self::$construction = array_values(unpack('c*', FFI::string($construction, 10000)));
            self::$route = array_values(unpack('c*', FFI::string($route, 10000)));
        }
        return $table === 0 ? self::$construction[$i] : self::$route[$i];
    }

    public static function ruleDistance($x1, $y1, $x2, $y2)
    {
        if (self::$dirty) {
            self::refresh();
        }
        return self::$rules->prologin_rules_distance(self::arg($x1), self::arg($y1), self::arg($x2), self::arg($y2));
    }

    public static function figure($i)
    {
        if (self::$dirty) {
            self::refresh();
        }
        return self::$figures[$i];
    }

    /** The index of cell (x, y) in the cached strings, or -1 off the map. */
    public static function cell($x, $y)
    {
        $x = (int) $x;
        $y = (int) $y;
        if ($x < 0 || $x >= 100 || $y < 0 || $y >= 100) {
            return -1;
        }
        if (self::$dirty) {
            self::refresh();
        }
        return $y * 100 + $x;
    }

    public static function serve()
    {
        self::loadRules();
        $ended = false;
        while (($name = self::readLine()) !== null) {
            if (!in_array($name, self::CALLBACKS, true)) {
                self::fail('unknown callback `' . substr($name, 0, 60) . '` from the referee');
            }
            self::$callback = $name;
            $ended = $name === 'end_game';
            self::$dirty = true;
            if (function_exists($name)) {
                $name();
            }
            self::send("fin\n");
        }
        if (!$ended) {
            fwrite(STDERR, "prologin kit (PHP): the referee closed the connection before end_game\n");
            return 1;
        }
        return 0;
    }
}

// Information functions.

function type_case($x, $y)
{
    $i = ProloginKit::cell($x, $y);
    return $i < 0 ? HORS_TERRAIN : ord(ProloginKit::$kinds[$i]) - 48;
}

function valeur_case($x, $y)
{
    $i = ProloginKit::cell($x, $y);
    return $i < 0 ? HORS_TERRAIN : ord(ProloginKit::$values[$i]) - 64;
}

function appartenance($x, $y)
{
    $i = ProloginKit::cell($x, $y);
    return $i < 0 ? HORS_TERRAIN : ord(ProloginKit::$owners[$i]) - 48;
}

function type_monument($x, $y)
{
    $i = ProloginKit::cell($x, $y);
    if ($i < 0) {
        return HORS_TERRAIN;
    }
    $c = ord(ProloginKit::$monuments[$i]);
    return $c === 46 ? PAS_DE_MONUMENT : $c - 97; // '.' or 'a' + id
}

function portee_monument($num_monument)
{
    $m = (int) $num_monument;
    return $m >= 0 && $m < MAX_MONUMENTS ? PROLOGIN_KIT_PORTEE[$m] : PAS_DE_MONUMENT;
}

function prestige_monument($num_monument)
{
    $m = (int) $num_monument;
    return $m >= 0 && $m < MAX_MONUMENTS ? PROLOGIN_KIT_PRESTIGE[$m] : PAS_DE_MONUMENT;
}

function numero_tour()
{
    return ProloginKit::figure(0);
}

function commence()
{
    return ProloginKit::figure(2);
}

function montant_encheres($num_joueur)
{
    $p = (int) $num_joueur;
    return $p >= 0 && $p <= 2 ? ProloginKit::figure(13 + $p) : JOUEUR_INCORRECT;
}

function vainqueur_encheres()
{
    return ProloginKit::figure(4);
}

/** The player's houses' worth, money excluded: not the final score (rule 9). */
function score($num_joueur)
{
    $p = (int) $num_joueur;
    return $p >= 0 && $p <= 2 ? ProloginKit::figure(10 + $p) : JOUEUR_INCORRECT;
}

function finances($num_joueur)
{
    $p = (int) $num_joueur;
    return $p >= 0 && $p <= 2 ? ProloginKit::figure(7 + $p) : JOUEUR_INCORRECT;
}

function monument_en_cours()
{
    return ProloginKit::figure(3);
}

function distance($x1, $y1, $x2, $y2)
{
    if (ProloginKit::$rules === null) {
        return ProloginKit::ask('distance', $x1, $y1, $x2, $y2);
    }
    return ProloginKit::ruleDistance($x1, $y1, $x2, $y2);
}

function route_possible($x, $y)
{
    if (ProloginKit::$rules === null) {
        return ProloginKit::ask('route_possible', $x, $y);
    }
    return ProloginKit::ruleCell(1, $x, $y);
}

function construction_possible($x, $y)
{
    if (ProloginKit::$rules === null) {
        return ProloginKit::ask('construction_possible', $x, $y);
    }
    return ProloginKit::ruleCell(0, $x, $y);
}

function cout_achat_maison()
{
    return ProloginKit::figure(5);
}

function cout_achat_route()
{
    return ProloginKit::figure(6);
}

/** 1 in your own turn, else 0 (rule 16). */
function mon_tour()
{
    return ProloginKit::figure(1);
}

// Actions.

function construire_route($x, $y)
{
    return ProloginKit::act('construire_route', $x, $y);
}

function construire_maison($x, $y)
{
    return ProloginKit::act('construire_maison', $x, $y);
}

function reserver_case($x, $y)
{
    return ProloginKit::act('reserver_case', $x, $y);
}

function detruire_maison($x, $y)
{
    return ProloginKit::act('detruire_maison', $x, $y);
}

function vendre_maison($x, $y)
{
    return ProloginKit::act('vendre_maison', $x, $y);
}

function encherir($montant)
{
    return ProloginKit::act('encherir', $montant);
}

function construire_monument($x, $y)
{
    return ProloginKit::act('construire_monument', $x, $y);
}
