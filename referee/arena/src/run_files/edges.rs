//! The results folder's edges, one function at a time (tests only): how a folder is named
//! and opened (relative, through the operator's links, a file in its place), each access
//! of a file, the bound of a read, which names are a match's files, and the `NoPlace`
//! errors that name what to fix.

use super::*;
use crate::run_bounds::Bound;
use std::io::{Read, Seek, Write};

fn message(e: anyhow::Error) -> String {
    format!("{e:#}")
}

/// A folder opened by its relative name is named so, not `./name`: the errors the
/// operator reads name the paths as given.
#[test]
fn a_relative_folder_keeps_its_name() {
    // The test's working folder is the crate's, which holds `src`.
    let here = Folder::at(Path::new(".")).unwrap();
    assert_eq!(here.existing_child("src").unwrap().path(), Path::new("src"));
    let (folder, name) = Folder::of_file(Path::new("Cargo.toml")).unwrap();
    assert_eq!(
        (folder.path(), name.as_str()),
        (Path::new("."), "Cargo.toml")
    );
    let dir = tempfile::tempdir().unwrap();
    let top = Folder::at(dir.path()).unwrap();
    assert_eq!(top.child("a").unwrap().path(), dir.path().join("a"));
}

/// A file where a folder is expected is no folder: opened as the operator's (`at`) or
/// beneath a run's folder, it is refused, naming it.
#[test]
fn a_file_in_a_folders_place_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let err = message(Folder::at(&file).unwrap_err());
    assert!(err.contains("cannot open the folder"), "{err}");
    let top = Folder::at(dir.path()).unwrap();
    let err = message(top.existing_child("file").unwrap_err());
    assert!(
        err.contains(&format!("{} is not a folder", file.display())),
        "{err}"
    );
}

/// `--out DIR` beneath a link of the operator's follows it (the operator's path); only
/// `matches` and a match's folder are opened without following one.
#[test]
fn the_operators_links_above_a_match_folder_are_followed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("real")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("link")).unwrap();
    let out = dir.path().join("link/out");
    let made = Folder::of_match(&out, true).unwrap();
    assert_eq!(made.path(), out);
    assert!(dir.path().join("real/out").is_dir());
    Folder::of_match(&out, false).unwrap();
    // A run's folder reached through a link: its `matches` and match folder are its own.
    std::fs::create_dir_all(dir.path().join("real/run/matches/4")).unwrap();
    let matched = dir.path().join("link/run/matches/4");
    assert_eq!(Folder::of_match(&matched, false).unwrap().path(), matched);
}

/// A record of a match whose `matches` is a link is refused, as its folder is.
#[test]
fn a_match_file_under_a_linked_matches_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("elsewhere/3")).unwrap();
    std::fs::write(dir.path().join("elsewhere/3/record.json"), "{}").unwrap();
    std::fs::create_dir(dir.path().join("run")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), dir.path().join("run/matches"))
        .unwrap();
    let err = message(Folder::of_file(&dir.path().join("run/matches/3/record.json")).unwrap_err());
    assert!(err.contains("matches is not a folder"), "{err}");
}

/// `Append` creates a missing file, adds at its end, reads it back, and refuses a link;
/// `Create` refuses what is there; a missing file read or a name too long created is an
/// error saying which it was.
#[test]
fn each_access_opens_as_it_says() {
    let dir = tempfile::tempdir().unwrap();
    let folder = Folder::at(dir.path()).unwrap();
    folder
        .open_file("matches.csv", Access::Append)
        .unwrap()
        .write_all(b"a\n")
        .unwrap();
    let mut again = folder.open_file("matches.csv", Access::Append).unwrap();
    again.write_all(b"b\n").unwrap();
    let mut text = String::new();
    again.rewind().unwrap();
    again.read_to_string(&mut text).unwrap();
    assert_eq!(text, "a\nb\n");
    std::os::unix::fs::symlink(
        dir.path().join("matches.csv"),
        dir.path().join("linked.csv"),
    )
    .unwrap();
    let err = message(folder.open_file("linked.csv", Access::Append).unwrap_err());
    assert!(err.contains("linked.csv is a symbolic link"), "{err}");
    let err = message(folder.open_file("matches.csv", Access::Create).unwrap_err());
    assert!(err.contains("something is already there"), "{err}");
    let err = message(folder.open_file("missing", Access::Read).unwrap_err());
    assert!(
        err.contains("cannot read") && err.contains("missing"),
        "{err}"
    );
    let long = "x".repeat(300);
    let err = message(folder.open_file(&long, Access::Create).unwrap_err());
    assert!(err.starts_with("cannot create"), "{err}");
    for bad in ["", ".", "..", "a/b"] {
        let err = message(folder.open_file(bad, Access::Read).unwrap_err());
        assert!(err.contains("is not a file name"), "{bad}: {err}");
    }
}

/// `read` gives the bytes, a file of exactly the bound whole; one over it is refused,
/// and so is a file that holds more than its size said when read (`/proc`'s, of size 0).
#[test]
fn a_read_gives_every_byte_up_to_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("record.json"), "0123456789").unwrap();
    let folder = Folder::at(dir.path()).unwrap();
    let bound = |max| Bound {
        kind: "a test file",
        max,
    };
    assert_eq!(
        folder.read("record.json", bound(10)).unwrap(),
        b"0123456789"
    );
    let err = message(folder.read("record.json", bound(9)).unwrap_err());
    assert!(err.contains("record.json"), "{err}");
    let status = Path::new("/proc/self/status");
    let file = File::open(status).unwrap();
    assert_eq!(file.metadata().unwrap().len(), 0);
    read_within(file, status, bound(10)).unwrap_err();
}

/// `remove` takes a link away, never what it points to, and a missing name is no
/// error; `rename` replaces what is at the new name.
#[test]
fn remove_and_rename_act_on_names() {
    let dir = tempfile::tempdir().unwrap();
    let folder = Folder::at(dir.path()).unwrap();
    std::fs::write(dir.path().join("target"), "kept").unwrap();
    std::os::unix::fs::symlink(dir.path().join("target"), dir.path().join("link")).unwrap();
    folder.remove("link").unwrap();
    folder.remove("link").unwrap();
    assert!(std::fs::symlink_metadata(dir.path().join("link")).is_err());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("target")).unwrap(),
        "kept"
    );
    std::fs::write(dir.path().join(".record.json.tmp"), "new").unwrap();
    std::fs::write(dir.path().join("record.json"), "old").unwrap();
    folder.rename(".record.json.tmp", "record.json").unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("record.json")).unwrap(),
        "new"
    );
    let err = message(folder.rename("absent", "record.json").unwrap_err());
    assert!(err.contains("cannot rename"), "{err}");
    folder.remove("target").unwrap();
    assert!(!dir.path().join("target").exists());
}

/// The files a match writes, their temporary names, and names that only look alike.
#[test]
fn a_matchs_files_and_only_they_are_match_files() {
    for name in [
        "record.json",
        "mac",
        "requests.log.gz",
        "replay.html",
        "seat0.stderr",
        "seat12.stderr",
        ".record.json.tmp",
        ".seat3.stderr.tmp",
    ] {
        assert!(is_match_file(name), "{name}");
    }
    for name in [
        "notes.txt",
        ".notes.txt.tmp",
        "record.json.tmp",
        ".record.json",
        "seat.stderr",
        "seatx.stderr",
        "seat1a.stderr",
        "seat0.stdout",
        "xseat0.stderr",
    ] {
        assert!(!is_match_file(name), "{name}");
    }
}

/// A folder that cannot be made is a `NoPlace` naming what to fix: the file on its way
/// (the first ancestor that is no folder), or a place where nothing can be made.
#[test]
fn a_folder_that_cannot_be_made_names_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("made/deeper");
    make_folder(&deep).unwrap();
    assert!(deep.is_dir());
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let wanted = file.join("sub/results");
    let err = make_folder(&wanted).unwrap_err();
    assert!(err.is::<NoPlace>(), "{err:#}");
    assert_eq!(
        err.to_string(),
        format!(
            "cannot create the folder {}: {} is a file, not a folder; name a folder for the \
             results (it is made if missing), or move that file away",
            wanted.display(),
            file.display()
        )
    );
    let err = make_folder(Path::new("/proc/no-such-folder/results")).unwrap_err();
    assert!(err.is::<NoPlace>(), "{err:#}");
    assert!(
        err.to_string().contains("name a folder you can write"),
        "{err:#}"
    );
}

/// A FIFO put where a results file is read is refused at once, never waited on (a
/// regression here hangs this test rather than failing it: the open blocks).
#[test]
fn a_fifo_in_a_files_place_is_refused_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    nix::unistd::mkfifo(
        &dir.path().join("record.json"),
        Mode::from_bits_truncate(0o644),
    )
    .unwrap();
    let folder = Folder::at(dir.path()).unwrap();
    let bound = Bound {
        kind: "a test file",
        max: 10,
    };
    let err = message(folder.read("record.json", bound).unwrap_err());
    assert!(err.contains("is not a regular file"), "{err}");
}
