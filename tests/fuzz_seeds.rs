//! Replays the fuzz targets' checked-in seeds (`fuzz/seeds/<target>/`)
//! through the same functions the targets call (`fuzz/fuzz_targets/common`),
//! on stable Rust: every seed, crash reproducers included, stays a
//! regression test without cargo-fuzz.

#[path = "../fuzz/fuzz_targets/common/mod.rs"]
mod common;

use std::path::PathBuf;

/// Every seed file of `target`, sorted by name.
fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("a readable seed folder").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no seeds in {}", folder.display());
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("a readable seed");
            (path, bytes)
        })
        .collect()
}

fn replay(target: &str, run: fn(&[u8])) {
    for (path, bytes) in seeds(target) {
        let outcome = std::panic::catch_unwind(|| run(&bytes));
        assert!(outcome.is_ok(), "seed {} failed", path.display());
    }
}

#[test]
fn gtp_input_seeds() {
    replay("gtp_input", common::gtp_input);
}

#[test]
fn sgf_roundtrip_seeds() {
    replay("sgf_roundtrip", common::sgf_roundtrip);
}

#[test]
fn session_seeds() {
    replay("session", common::session);
}

/// The harness's own rules: file arguments stay inside the run's folder,
/// slow settings are capped.
#[test]
fn harness_rewrites_paths_and_slow_settings() {
    use common::{Prepared, prepare_line};
    assert_eq!(prepare_line("loadsgf game.sgf"), Prepared::Keep);
    assert_eq!(
        prepare_line("7 printsgf a/b.sgf"),
        Prepared::Replace("7 printsgf a_b.sgf".into())
    );
    assert_eq!(prepare_line("loadsgf /etc/passwd"), Prepared::Drop);
    assert_eq!(prepare_line("printsgf ../x.sgf"), Prepared::Drop);
    assert_eq!(prepare_line("printsgf a/../../x.sgf"), Prepared::Drop);
    assert_eq!(prepare_line("printsgf"), Prepared::Keep);
    assert_eq!(
        prepare_line("kosumi-param playouts 0"),
        Prepared::Replace("kosumi-param playouts 1".into())
    );
    assert_eq!(
        prepare_line("kosumi-param threads 64"),
        Prepared::Replace("kosumi-param threads 2".into())
    );
    assert_eq!(prepare_line("kosumi-param max_tree_mb 1e9"), Prepared::Drop);
    assert_eq!(
        prepare_line("kosumi-param max_tree_mb lots"),
        Prepared::Keep
    );
    assert_eq!(prepare_line("kosumi-param exploration 9"), Prepared::Keep);
    assert_eq!(
        prepare_line("kosumi-solve"),
        Prepared::Replace("kosumi-solve 0.02".into())
    );
    assert_eq!(
        prepare_line("kosumi-solve b 30"),
        Prepared::Replace("kosumi-solve b 0.02".into())
    );
}
