<?php
// The constants of the 2009 API (docs/rules.md section 6.1), PHP kit. One place for
// every value; api.php includes this file.

// Error codes.
define('SUCCES', 0);
define('PAS_DE_MAISON', -2);
define('PAS_DE_MONUMENT', -3);
define('FINANCES_DEPASSEES', -4);
define('BLOCAGE', -5);
define('JOUEUR_INCORRECT', -7);
define('NON_CONNEXE', -8);
define('CASE_OCCUPEE', -9);
define('ACTION_INTERDITE', -10);
define('HORS_TERRAIN', -12);
define('TROP_LOIN', 50);
define('INFINI', 30000);
// Ownership.
define('MAIRIE', 3);
// Cell kinds.
define('VIDE', 0);
define('MAISON', 1);
define('RESERVATION', 2);
define('MONUMENT', 3);
define('ROUTE', 4);
// Bounds, sizes.
define('MAX_MONUMENTS', 14);
define('TAILLE_CARTE', 100);
define('MAX_DISTANCE', 12);
define('ARGENT_INITIAL', 10);
