//! Fuzzes loadsgf and printsgf: the bytes as an SGF file, loaded into Go
//! and into NoGo; a file that loads is written with printsgf and must load
//! back to the same position; one that fails must change nothing. The
//! logic is `common::sgf_roundtrip`, which `tests/fuzz_seeds.rs` replays on
//! the seeds.
//!
//! Run with `cargo +nightly fuzz run sgf_roundtrip fuzz/seeds/sgf_roundtrip`
//! from the repository root.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::sgf_roundtrip(data));
