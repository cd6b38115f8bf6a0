# The constants of the 2009 API (docs/rules.md section 6.1), Ruby kit. One place for
# every value; api.rb requires this file.

# Error codes.
SUCCES = 0
PAS_DE_MAISON = -2
PAS_DE_MONUMENT = -3
FINANCES_DEPASSEES = -4
BLOCAGE = -5
JOUEUR_INCORRECT = -7
NON_CONNEXE = -8
CASE_OCCUPEE = -9
ACTION_INTERDITE = -10
HORS_TERRAIN = -12
TROP_LOIN = 50
INFINI = 30000
# Ownership.
MAIRIE = 3
# Cell kinds.
VIDE = 0
MAISON = 1
RESERVATION = 2
MONUMENT = 3
ROUTE = 4
# Bounds, sizes.
MAX_MONUMENTS = 14
TAILLE_CARTE = 100
MAX_DISTANCE = 12
ARGENT_INITIAL = 10
