//! Game records: SGF reading and writing.
//!
//! - `sgf`: the SGF syntax only, no rules of Go: the reader (raw
//!   properties, with caps on nesting, nodes and values), the writer of one
//!   line of play, and the point and board-size values.
//! - `game`: what a record means for a game: the first game of a file read
//!   onto its board (`SgfRecord`), loadsgf's game from SGF and printsgf's
//!   game to SGF. The opening book's tools read their even games through
//!   `SgfRecord` too.

pub mod game;
pub mod sgf;
