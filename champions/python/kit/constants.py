"""The constants of the 2009 API as their own module, as the 2009 generator gave them
(its skeleton begins `import api` and `import constants`, and reads `constants.SUCCES`).
The values are the `api` module's: this module only names them again.

Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
template champions/api/templates/python/constants.py: edit those, not this file.
"""

from api import (  # noqa: F401 (re-exported: `constants.SUCCES`, `from constants import *`)
    SUCCES,
    PAS_DE_MAISON,
    PAS_DE_MONUMENT,
    FINANCES_DEPASSEES,
    BLOCAGE,
    JOUEUR_INCORRECT,
    NON_CONNEXE,
    CASE_OCCUPEE,
    ACTION_INTERDITE,
    HORS_TERRAIN,
    TROP_LOIN,
    INFINI,
    MAIRIE,
    VIDE,
    MAISON,
    RESERVATION,
    MONUMENT,
    ROUTE,
    MAX_MONUMENTS,
    TAILLE_CARTE,
    MAX_DISTANCE,
    ARGENT_INITIAL,
)
