//! Fuzzes the GTP input path: arbitrary bytes, split into lines, fed to
//! one engine (`loadsgf`/`printsgf` inside a temporary folder,
//! `kosumi-param` with slow values capped). Every reply must be well formed
//! and carry its command's id; nothing may panic. The logic is
//! `common::gtp_input`, which `tests/fuzz_seeds.rs` replays on the seeds.
//!
//! Run with `cargo +nightly fuzz run gtp_input fuzz/seeds/gtp_input` from
//! the repository root.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::gtp_input(data));
