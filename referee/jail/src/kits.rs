//! The operator's kits (library code that champions written with a kit load in place),
//! which the program using this crate names once: a jail shows each at `/kits/<language>`
//! (read-only), Landlock lets an unjailed champion read and execute them, and an unjailed
//! champion gets their folder as `PROLOGIN_KITS`.

use std::path::PathBuf;
use std::sync::OnceLock;

/// Where the kits are.
#[derive(Clone, Debug, Default)]
pub struct Kits {
    /// Each kit's folder by its language's name (`python`, `amazons-python`, ...): the
    /// jail's `/kits/<language>`.
    pub by_language: Vec<(String, PathBuf)>,
    /// A folder of one entry per language leading to its kit (the layout of the jail's
    /// `/kits`), given to an unjailed champion as `PROLOGIN_KITS`.
    pub folder: Option<PathBuf>,
}

static KITS: OnceLock<Kits> = OnceLock::new();

/// Names the kits, before the first champion starts; the first call wins.
pub fn install(kits: Kits) {
    let _ = KITS.set(kits);
}

/// The kits named by [`install`]; none before (a read does not fix them: a later
/// [`install`] still names them).
pub fn installed() -> &'static Kits {
    static NONE: Kits = Kits {
        by_language: Vec::new(),
        folder: None,
    };
    KITS.get().unwrap_or(&NONE)
}
