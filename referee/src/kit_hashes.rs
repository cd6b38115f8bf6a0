//! The installed kits a run records and what a resume makes of them (tests only): each
//! kit's hash by its name, and the one hash of them all that runs started before wrote
//! (the kits that came with a hash each left out of it).

use arena::parts::hex;
use arena::snapshot::*;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// The bundled kits, installed as the binary installs them.
fn installed() -> &'static [(String, PathBuf)] {
    crate::kits::install();
    let kits = &jail::kits::installed().by_language;
    assert!(
        kits.iter().any(|(l, _)| l == "python"),
        "the bundled kits are not installed: {kits:?}"
    );
    kits
}

/// Each installed kit has its own hash, and an unchanged set of kits resumes; a kit whose
/// hash differs, or one the run had that is no longer installed, is named.
#[test]
fn each_kit_is_told_apart_by_its_name_and_its_hash() {
    let kits = installed();
    let KitsIdentity::Each(each) = kits_identity().unwrap() else {
        panic!("a run of today records each kit's hash");
    };
    let names = kits.iter().map(|(l, _)| l).collect::<BTreeSet<_>>();
    assert_eq!(each.keys().collect::<BTreeSet<_>>(), names);
    let hashes = each.values().collect::<BTreeSet<_>>();
    assert_eq!(hashes.len(), each.len(), "two kits with one hash: {each:?}");
    assert!(hashes.iter().all(|h| h.len() == 64), "{each:?}");
    assert_eq!(
        kits_differ(&KitsIdentity::Each(each.clone())).unwrap(),
        None
    );
    let mut changed = each.clone();
    changed.insert("python".into(), "0".repeat(64));
    assert_eq!(
        kits_differ(&KitsIdentity::Each(changed))
            .unwrap()
            .as_deref(),
        Some("the kit `python` changed")
    );
    let mut gone = BTreeMap::from([("cobol".to_string(), "0".repeat(64))]);
    assert_eq!(
        kits_differ(&KitsIdentity::Each(gone.clone()))
            .unwrap()
            .as_deref(),
        Some("the kit `cobol` is gone")
    );
    gone.clear();
    assert_eq!(kits_differ(&KitsIdentity::Each(gone)).unwrap(), None);
}

/// A run started before recorded one hash: of each kit's name, a NUL and its hash, in the
/// order installed, Ticket to Ride's and Little Town's kits left out (none had them). It
/// resumes with the same kits; any other hash is a kit changed.
#[test]
fn the_whole_hash_of_runs_before_leaves_out_the_kits_since() {
    let kits = installed();
    assert!(
        kits.iter().any(|(l, _)| l.starts_with("little-town-")),
        "no kit of those added since to leave out: {kits:?}"
    );
    let mut hasher = Sha256::new();
    for (language, dir) in kits
        .iter()
        .filter(|(l, _)| !l.starts_with("ticket-") && !l.starts_with("little-town-"))
    {
        hasher.update(format!("{language}\0{}", kit_hash(dir).unwrap()).as_bytes());
    }
    let whole = hex(&hasher.finalize());
    assert_eq!(kits_differ(&KitsIdentity::Whole(whole)).unwrap(), None);
    assert_eq!(
        kits_differ(&KitsIdentity::Whole("0".repeat(64)))
            .unwrap()
            .as_deref(),
        Some("a kit changed")
    );
}
