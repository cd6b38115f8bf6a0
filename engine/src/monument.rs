//! The 14 monuments of rule 5: prestige, range and name.

/// A monument kind, by its id in `0..14`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MonumentInfo {
    /// Added to `valeur_case` of every cell in range (may be negative).
    pub prestige: i32,
    /// Chebyshev radius of the affected square.
    pub range: i32,
    /// The French name (rule 5).
    pub name: &'static str,
}

/// Every monument, indexed by id (rule 5).
pub const MONUMENTS: [MonumentInfo; 14] = [
    MonumentInfo {
        prestige: 5,
        range: 1,
        name: "Château fort",
    },
    MonumentInfo {
        prestige: 4,
        range: 1,
        name: "Parc d'attractions",
    },
    MonumentInfo {
        prestige: 4,
        range: 1,
        name: "Aquarium",
    },
    MonumentInfo {
        prestige: 3,
        range: 1,
        name: "Restaurant",
    },
    MonumentInfo {
        prestige: 3,
        range: 2,
        name: "Parc floral",
    },
    MonumentInfo {
        prestige: 2,
        range: 2,
        name: "Cinéma",
    },
    MonumentInfo {
        prestige: 2,
        range: 2,
        name: "Théâtre",
    },
    MonumentInfo {
        prestige: 2,
        range: 2,
        name: "Patinoire",
    },
    MonumentInfo {
        prestige: 2,
        range: 1,
        name: "Supermarché",
    },
    MonumentInfo {
        prestige: 1,
        range: 3,
        name: "Lac artificiel",
    },
    MonumentInfo {
        prestige: 1,
        range: 3,
        name: "Centre commercial",
    },
    MonumentInfo {
        prestige: 1,
        range: 2,
        name: "Médiathèque",
    },
    MonumentInfo {
        prestige: -1,
        range: 2,
        name: "Aéroport",
    },
    MonumentInfo {
        prestige: -2,
        range: 1,
        name: "Déchetterie",
    },
];

/// The monument with this id, if the id is in `0..14`.
pub fn monument(id: i32) -> Option<&'static MonumentInfo> {
    usize::try_from(id).ok().and_then(|i| MONUMENTS.get(i))
}
