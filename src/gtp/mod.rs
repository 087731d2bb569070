//! GTP v2.
pub mod parse;
