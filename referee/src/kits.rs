//! The kits bundled with this referee's source tree, named to the jail: each registered
//! game's kits where the game says they are (`arena::model::Parts::kits`:
//! `champions/<language>/kit` for the 2009 game, `champions/amazons/<language>/kit` for the
//! Game of the Amazons, named `amazons-<language>`; `champions/ticket/<language>/kit` for
//! Ticket to Ride, `ticket-<language>`; `champions/little-town/<language>/kit` for Little
//! Town, `little-town-<language>`) and the `kits` folder that links them.

use std::path::{Path, PathBuf};

use jail::kits::Kits;

/// Names the bundled kits to the jail, once (before any champion starts; later calls do
/// nothing).
pub fn install() {
    static DONE: std::sync::Once = std::sync::Once::new();
    DONE.call_once(|| jail::kits::install(bundled()));
}

/// The bundled kits, when the source tree is still there (none otherwise).
pub fn bundled() -> Kits {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut by_language: Vec<(String, PathBuf)> = crate::games::ON_MODEL
        .iter()
        .filter_map(|game| game.kits())
        .filter_map(|kits| {
            let entries = std::fs::read_dir(root.join(kits.folder)).ok()?;
            Some((kits.prefix, entries))
        })
        .flat_map(|(prefix, entries)| {
            entries.flatten().filter_map(move |entry| {
                let kit = entry.path().join("kit").canonicalize().ok()?;
                let language = entry.file_name().to_str()?.to_string();
                kit.is_dir().then(|| (format!("{prefix}{language}"), kit))
            })
        })
        .collect();
    by_language.sort_by(|a, b| a.1.cmp(&b.1));
    let folder = root.join("kits");
    let folder = folder
        .is_dir()
        .then(|| folder.canonicalize().ok())
        .flatten();
    Kits {
        by_language,
        folder,
    }
}
