//! Fuzzes the GTP input path: arbitrary bytes, split into lines, fed to
//! one engine. Every reply must be well formed; nothing may panic.
//!
//! Run with `cargo fuzz run gtp_input` from the repository root (needs
//! cargo-fuzz and a nightly toolchain).

#![no_main]

use kosumi::gtp::session::NoInput;
use kosumi::gtp::{Engine, EngineConfig};
use libfuzzer_sys::fuzz_target;

/// Commands that touch files, end the session or change the search budget
/// are left out: the fuzzer is after the parser and the command handlers.
fn skipped(line: &str) -> bool {
    let name = line
        .split_whitespace()
        .find(|word| !word.chars().all(|c| c.is_ascii_digit()))
        .unwrap_or("");
    matches!(name, "quit" | "printsgf" | "loadsgf" | "kosumi-param")
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new(EngineConfig {
        seed: Some(1),
        threads: Some(1),
        playouts: Some(4),
        ..EngineConfig::default()
    });
    for line in text.split('\n').take(64) {
        if skipped(line) {
            continue;
        }
        let mut out = Vec::new();
        if engine.execute_line(line, &mut out, &mut NoInput).is_err() {
            return;
        }
        if out.is_empty() {
            continue;
        }
        let reply = String::from_utf8(out).expect("replies are UTF-8");
        assert!(reply.starts_with('=') || reply.starts_with('?'), "{reply:?}");
        assert!(reply.ends_with("\n\n") && !reply.ends_with("\n\n\n"), "{reply:?}");
    }
});
