<?php
// sample: a PHP champion that plays sensibly: roads and houses near the town hall, a bid
// on a good monument, the monument placed among its own houses (a bad one among the
// others'). Random choices are seeded from PROLOGIN_SEED: a match replays identically.

const CENTRE = TAILLE_CARTE / 2; // the town hall's road, (50, 50)
$state = 1;

/** Park-Miller: the same sequence in every kit's sample. */
function rand_below($n)
{
    global $state;
    $state = $state * 48271 % 2147483647;
    return $state % $n;
}

function near($c)
{
    return abs($c[0] - CENTRE) + abs($c[1] - CENTRE);
}

/** Empty cells [x, y] with a road among their 4 (or 8) neighbours, row after row. */
function candidates($diagonals)
{
    $found = [];
    for ($y = 0; $y < TAILLE_CARTE; $y++) {
        for ($x = 0; $x < TAILLE_CARTE; $x++) {
            if (type_case($x, $y) !== VIDE) {
                continue;
            }
            $road = false;
            for ($dy = -1; $dy <= 1 && !$road; $dy++) {
                for ($dx = -1; $dx <= 1 && !$road; $dx++) {
                    if (($dx === 0 && $dy === 0) || (!$diagonals && $dx !== 0 && $dy !== 0)) {
                        continue;
                    }
                    $road = type_case($x + $dx, $y + $dy) === ROUTE;
                }
            }
            if ($road) {
                $found[] = [$x, $y, 0];
            }
        }
    }
    return $found;
}

/** Sorts cells by key, then nearness to the town hall, then position. */
function sort_by(&$cells, $key)
{
    usort($cells, function ($a, $b) use ($key) {
        return [$key($a), near($a), $a[1] * TAILLE_CARTE + $a[0]]
            <=> [$key($b), near($b), $b[1] * TAILLE_CARTE + $b[0]];
    });
}

function init_game()
{
    global $state;
    $seed = getenv('PROLOGIN_SEED') ?: '1';
    $state = (int) substr($seed, -9) % 2147483646 + 1;
    echo 'sample (PHP): first player ', commence(), "\n";
}

function jouer()
{
    if (mon_tour() === 0) {
        return;
    }
    $roads = candidates(false);
    sort_by($roads, function ($c) {
        return 0;
    });
    if ($roads && cout_achat_route() <= finances(0)) {
        [$x, $y] = $roads[rand_below(min(4, count($roads)))];
        construire_route($x, $y);
    }
    for ($built = 0; $built < 2 && cout_achat_maison() <= finances(0); $built++) {
        $houses = candidates(true);
        sort_by($houses, function ($c) {
            return -valeur_case($c[0], $c[1]);
        });
        $ok = false;
        foreach (array_slice($houses, 0, 3) as [$x, $y]) {
            if (construire_maison($x, $y) === SUCCES) {
                $ok = true;
                break;
            }
        }
        if (!$ok) {
            break;
        }
    }
}

function enchere()
{
    $m = monument_en_cours();
    if ($m === PAS_DE_MONUMENT || prestige_monument($m) <= 0) {
        return;
    }
    $bid = min(finances(0), prestige_monument($m) - 1 + rand_below(2));
    if ($bid > 0) {
        encherir($bid);
    }
}

function placement()
{
    $m = monument_en_cours();
    $r = portee_monument($m);
    $sign = prestige_monument($m) >= 0 ? 1 : -1;
    $cells = candidates(true);
    // Our houses in range count for a good monument, the others' for a bad one.
    foreach ($cells as &$c) {
        for ($dy = -$r; $dy <= $r; $dy++) {
            for ($dx = -$r; $dx <= $r; $dx++) {
                if (type_case($c[0] + $dx, $c[1] + $dy) !== MAISON) {
                    continue;
                }
                $c[2] += appartenance($c[0] + $dx, $c[1] + $dy) === 0 ? $sign : -$sign;
            }
        }
    }
    unset($c);
    sort_by($cells, function ($c) {
        return -$c[2];
    });
    foreach (array_slice($cells, 0, 10) as [$x, $y]) {
        if (construire_monument($x, $y) === SUCCES) {
            return;
        }
    }
}

function end_game()
{
    echo 'sample (PHP) end: money ', finances(0), ' houses ', score(0), "\n";
}
