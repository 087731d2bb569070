//! SGF reading and writing.
