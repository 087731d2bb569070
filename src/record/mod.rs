//! Game records: SGF reading and writing.

pub mod sgf;
