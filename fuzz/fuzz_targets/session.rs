//! Fuzzes the session layer: the bytes, handed out in chunks of
//! fuzzer-chosen sizes, go through `spawn_reader` and `serve` as stdin
//! would. The output must be one well-formed reply per command, in order,
//! with its id, and `serve` must return. The logic is `common::session`,
//! which `tests/fuzz_seeds.rs` replays on the seeds.
//!
//! Run with `cargo +nightly fuzz run session fuzz/seeds/session` from the
//! repository root.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::session(data));
