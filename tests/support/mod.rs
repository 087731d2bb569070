//! Test support shared by the integration tests, kept out of the shipped
//! library: the small regular-expression engine the transcripts and the
//! suites match replies with, and the in-process gogui-regress runner.

#![allow(dead_code)] // each test crate uses a different part

pub mod pattern;
pub mod regress;
