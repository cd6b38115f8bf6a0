//! The generator through its command (`loi-api check`): the committed surfaces of every
//! kit agree with the description; on a copy of the repository, changing one constant in
//! one kit, one argument in a hand-written declaration, or one value in the description is
//! caught, naming the file; the description agrees with the engine's rules data.

use loi_api::description::Description;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(root: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_loi-api"))
        .arg("--root")
        .arg(root)
        .arg("check")
        .output()
        .expect("loi-api starts")
}

#[test]
fn the_committed_surfaces_agree_with_the_description() {
    let out = check(&repo_root());
    assert!(
        out.status.success(),
        "loi-api check failed (run `cargo run -p loi_api -- write` after editing \
         champions/api):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A copy of what the generator reads and checks: its inputs, every output, every
/// declared file.
fn copy_of_the_repository() -> tempfile::TempDir {
    let root = repo_root();
    let copy = tempfile::tempdir().unwrap();
    let inputs = loi_api::Inputs::load(&root).unwrap();
    let mut files: Vec<String> = vec![
        loi_api::DESCRIPTION.into(),
        loi_api::SCENARIO.into(),
        loi_api::SURFACES.into(),
    ];
    files.extend(inputs.surfaces.files.iter().map(|f| f.output.clone()));
    files.extend(
        inputs
            .surfaces
            .files
            .iter()
            .map(|f| format!("{}/{}", loi_api::TEMPLATES, f.template)),
    );
    files.extend(inputs.surfaces.declared.iter().map(|d| d.file.clone()));
    for rel in files {
        let to = copy.path().join(&rel);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(root.join(&rel), &to).unwrap_or_else(|e| panic!("copy {rel}: {e}"));
    }
    copy
}

/// Replaces `from` (which must occur once) by `to` in the copy's `rel`.
fn mutate(root: &Path, rel: &str, from: &str, to: &str) {
    let path = root.join(rel);
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches(from).count(), 1, "`{from}` once in {rel}");
    fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn one_constant_changed_in_one_kit_is_caught() {
    let cases = [
        (
            "champions/c/kit/prologin.h",
            "#define TROP_LOIN 50 ",
            "#define TROP_LOIN 51 ",
        ),
        (
            "champions/python/kit/api.py",
            "\nTROP_LOIN = 50\n",
            "\nTROP_LOIN = 51\n",
        ),
        (
            "engine/src/constants.rs",
            "TROP_LOIN: i32 = 50;",
            "TROP_LOIN: i32 = 51;",
        ),
        (
            "champions/c/kit/prologin_api.c",
            "if (num_joueur < 0 || num_joueur > 2) return JOUEUR_INCORRECT;\n  return figure(7",
            "if (num_joueur < 0 || num_joueur > 3) return JOUEUR_INCORRECT;\n  return figure(7",
        ),
    ];
    let copy = copy_of_the_repository();
    let unchanged = check(copy.path());
    assert!(
        unchanged.status.success(),
        "the untouched copy passes: {}",
        String::from_utf8_lossy(&unchanged.stderr)
    );
    for (rel, from, to) in cases {
        let copy = copy_of_the_repository();
        mutate(copy.path(), rel, from, to);
        let out = check(copy.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{rel} changed: {stderr}");
        assert!(
            stderr.contains(rel) && stderr.contains("cargo run -p loi_api -- write"),
            "the message names {rel} and the fix: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "only {rel} differs: {stderr}");
    }
}

#[test]
fn a_hand_written_declaration_that_drifts_is_caught() {
    let cases = [
        (
            "engine/src/api.rs",
            "fn encherir(&mut self, montant: i32) -> i32;",
            "fn encherir(&mut self, montant: i32, x: i32) -> i32;",
            "encherir",
        ),
        (
            "engine/src/call.rs",
            "Encherir \"encherir\" 1,",
            "Encherir \"encherir\" 2,",
            "encherir",
        ),
        (
            "engine/src/api.rs",
            "fn type_case(&mut self, x: i32, y: i32) -> i32;",
            "fn type_cases(&mut self, x: i32, y: i32) -> i32;",
            "type_case",
        ),
    ];
    for (rel, from, to, function) in cases {
        let copy = copy_of_the_repository();
        mutate(copy.path(), rel, from, to);
        let out = check(copy.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{rel} changed: {stderr}");
        assert!(
            stderr.contains(rel) && stderr.contains(&format!("function `{function}`")),
            "the message names {rel} and {function}: {stderr}"
        );
    }
}

#[test]
fn a_value_changed_in_the_description_reaches_every_kit() {
    let copy = copy_of_the_repository();
    mutate(
        copy.path(),
        loi_api::DESCRIPTION,
        "name = \"TROP_LOIN\"\nvalue = 50\n",
        "name = \"TROP_LOIN\"\nvalue = 51\n",
    );
    let out = check(copy.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for rel in [
        "champions/c/kit/prologin.h",
        "champions/python/kit/api.py",
        "engine/src/constants.rs",
    ] {
        assert!(stderr.contains(rel), "{rel} is named: {stderr}");
    }
    // And `write` brings every kit to the new value.
    let written = Command::new(env!("CARGO_BIN_EXE_loi-api"))
        .arg("--root")
        .arg(copy.path())
        .arg("write")
        .output()
        .unwrap();
    assert!(written.status.success());
    assert!(check(copy.path()).status.success());
    let header = fs::read_to_string(copy.path().join("champions/c/kit/prologin.h")).unwrap();
    assert!(header.contains("#define TROP_LOIN 51 "), "{header}");
}

#[test]
fn bad_inputs_are_named_with_the_fix() {
    let copy = copy_of_the_repository();
    mutate(
        copy.path(),
        loi_api::DESCRIPTION,
        "figure = 13\n",
        "figure = 14\n",
    );
    let out = check(copy.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("loi.toml") && stderr.contains("montant_encheres"),
        "{stderr}"
    );

    let copy = copy_of_the_repository();
    mutate(
        copy.path(),
        loi_api::SCENARIO,
        "\"encherir 1\", \"encherir 1\"",
        "\"encherir 1 2\"",
    );
    let out = check(copy.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("`encherir` takes 1 arguments"), "{stderr}");
}

#[test]
fn the_description_agrees_with_the_engine() {
    let api = Description::load(&repo_root().join(loi_api::DESCRIPTION)).unwrap();
    // The 26 functions, in the engine's order, with their arity.
    let names: Vec<(&str, usize)> = api
        .functions
        .iter()
        .map(|f| (f.name.as_str(), f.args.len()))
        .collect();
    let engine: Vec<(&str, usize)> = engine::Function::ALL
        .iter()
        .map(|f| (f.name(), f.arity()))
        .collect();
    assert_eq!(names, engine);
    assert_eq!(names.len(), 26);
    // The monument tables.
    for (id, m) in engine::monument::MONUMENTS.iter().enumerate() {
        assert_eq!(api.monuments.prestige[id], m.prestige, "prestige of {id}");
        assert_eq!(api.monuments.portee[id], m.range, "portee of {id}");
    }
    assert_eq!(
        api.monuments.prestige.len(),
        engine::monument::MONUMENTS.len()
    );
}
