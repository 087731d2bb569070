//! Kosumi: a Go and NoGo engine speaking GTP v2.
//!
//! Reading guide:
//! - `board`: the rules. `Position` is the fast playout board (strings with
//!   pseudo-liberties; bitboards and Zobrist hash on demand); `Game` is the game record
//!   on top of it (history, positional superko, undo, handicap, scoring).
//! - `search`: playouts and (later) the MCTS/UCT tree search.
//! - `gtp`: the GTP v2 layer: parser, the one command table, sessions on
//!   stdin/stdout or TCP with their bounds (`gtp::session`), genmove and
//!   the analysis formats (`gtp::thinking`), files (`gtp::files`).
//! - `sgf`: reading and writing game records.

pub mod bench;
pub mod board;
pub mod go;
pub mod gtp;
pub mod nogo;
pub mod player;
pub mod record;
pub mod search;
