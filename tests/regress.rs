//! Runs the gogui-regress suites in `regress/*.tst` in process, with
//! gogui-regress semantics (see `tests/support/regress.rs`): every test must
//! pass unless marked `*`, and no plain command may fail.

use std::path::{Path, PathBuf};

use kosumi::gtp::EngineConfig;
mod support;

use support::regress::{regenerate_suite, run_suite};

fn config() -> EngineConfig {
    EngineConfig {
        seed: Some(1),
        threads: Some(1),
        playouts: Some(500),
        ..EngineConfig::default()
    }
}

fn suites(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "tst"))
        .collect();
    files.sort();
    files
}

#[test]
fn project_suites_pass() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("regress");
    let files = suites(&folder);
    assert!(!files.is_empty(), "no suites in {}", folder.display());
    let reports: Vec<_> = std::thread::scope(|scope| {
        let runs: Vec<_> = files
            .iter()
            .map(|file| scope.spawn(move || run_suite(file, config())))
            .collect();
        runs.into_iter()
            .map(|run| run.join().expect("suite thread"))
            .collect()
    });
    let mut problems = String::new();
    for report in reports {
        match report {
            Ok(report) => {
                assert!(
                    !report.tests.is_empty(),
                    "{} has no tests",
                    report.file.display()
                );
                if !report.ok() {
                    problems.push_str(&report.to_string());
                }
            }
            Err(error) => problems.push_str(&format!("{error}\n")),
        }
    }
    assert!(problems.is_empty(), "\n{problems}");
}

/// The runner's own semantics, on a suite written for the purpose.
#[test]
fn runner_follows_gogui_regress_semantics() {
    let folder = std::env::temp_dir().join(format!("kosumi-regress-{}", std::process::id()));
    std::fs::create_dir_all(folder.join("sgf")).unwrap();
    std::fs::write(
        folder.join("sgf/two.sgf"),
        "(;FF[4]GM[1]SZ[5];B[cc];W[dd])\n",
    )
    .unwrap();
    let suite = folder.join("semantics.tst");
    std::fs::write(
        &suite,
        "# comment\n\
         loadsgf sgf/two.sgf\n\
         1 gogui-rules_side_to_move\n#? [black]\n\
         2 gogui-rules_side_to_move\n#? [white|black]\n\
         3 gogui-rules_side_to_move\n#? [!white]\n\
         4 gogui-rules_side_to_move\n#? [white]*\n\
         5 gogui-rules_side_to_move\n#? [black]*\n\
         6 gogui-rules_side_to_move\n#? [blac]\n\
         7 play b cc\n#? []\n\
         8 name\n\
         play b dd\n",
    )
    .unwrap();
    let report = run_suite(&suite, config()).unwrap();
    let passed: Vec<(u32, bool, bool)> = report
        .tests
        .iter()
        .map(|t| (t.id, t.passed, t.expected_failure))
        .collect();
    assert_eq!(
        passed,
        [
            (1, true, false),
            (2, true, false),
            (3, true, false),
            (4, false, true),
            (5, true, true),
            (6, false, false),
            // An error reply fails its test whatever the pattern.
            (7, false, false),
        ]
    );
    assert_eq!(report.unexpected_failures().len(), 2);
    assert_eq!(report.unexpected_passes().len(), 1);
    assert_eq!(report.command_errors.len(), 1, "{report}");
    let _ = std::fs::remove_dir_all(&folder);
}

/// Measures the engine on other suites, e.g. the shared ones:
/// `KOSUMI_REGRESS_DIR=../shared/suites/nogo KOSUMI_REGRESS_GAME=nogo
/// cargo test --release --test regress -- --ignored --nocapture`.
/// `KOSUMI_REGRESS_PLAYOUTS` sets the playouts per move (default 500),
/// `KOSUMI_REGRESS_THREADS` the threads (default 1) and
/// `KOSUMI_REGRESS_SEED` the search seed (default 1); `scripts/suites.sh`
/// runs the shared Go suites for several seeds this way.
/// Prints the results; fails only if a suite cannot be read.
#[test]
#[ignore]
fn external_suites() {
    let Ok(folder) = std::env::var("KOSUMI_REGRESS_DIR") else {
        eprintln!("set KOSUMI_REGRESS_DIR to a folder of .tst files");
        return;
    };
    let mut config = config();
    let number = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    if let Some(playouts) = number("KOSUMI_REGRESS_PLAYOUTS") {
        config.playouts = Some(playouts as u64);
    }
    if let Some(threads) = number("KOSUMI_REGRESS_THREADS") {
        config.threads = Some(threads);
    }
    if let Some(seed) = number("KOSUMI_REGRESS_SEED") {
        config.seed = Some(seed as u64);
    }
    if std::env::var("KOSUMI_REGRESS_GAME").is_ok_and(|game| game == "nogo") {
        config.game = kosumi::board::GameKind::NoGo;
    }
    for file in suites(Path::new(&folder)) {
        let report = run_suite(&file, config.clone()).unwrap();
        let failed: Vec<_> = report.tests.iter().filter(|t| !t.passed).collect();
        let ids: Vec<String> = failed.iter().map(|t| t.id.to_string()).collect();
        println!(
            "{}: {}/{} passed; failed: {}",
            file.display(),
            report.tests.len() - failed.len(),
            report.tests.len(),
            ids.join(" ")
        );
        for test in failed {
            println!(
                "  {}: {:?}, expected {:?}",
                test.id, test.response, test.expected
            );
        }
    }
}

/// Rewrites the expectations of `regress/search_pinned.tst` from the
/// engine as it is now, when `KOSUMI_REGENERATE=1`:
/// `KOSUMI_REGENERATE=1 cargo test --release --test regress -- --ignored regenerate_pinned`.
/// Review the diff before committing it: every changed line is a search
/// result that changed.
#[test]
#[ignore]
fn regenerate_pinned_suite() {
    if std::env::var("KOSUMI_REGENERATE").as_deref() != Ok("1") {
        eprintln!("set KOSUMI_REGENERATE=1 to rewrite regress/search_pinned.tst");
        return;
    }
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("regress/search_pinned.tst");
    let text = regenerate_suite(&file, config()).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    eprintln!("rewrote {}", file.display());
}
