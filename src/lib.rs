//! Kosumi: a Go and NoGo engine speaking GTP v2.
//!
//! Reading guide, from the bottom layer up (each layer imports only the
//! ones above it in this list):
//! - `board`: the rules. `Position` is the fast playout board (strings with
//!   pseudo-liberties; bitboards and Zobrist hash on demand) with its
//!   invariant checker; `Game` is the game record on top of it (history,
//!   positional superko, undo, handicap, scoring); vertex names (`D4`),
//!   handicap placement and perft.
//! - `record`: SGF: the syntax, and games to and from SGF.
//! - `search`: the game-independent MCTS (UCT with RAVE, MCTS-solver
//!   proofs, shared-tree threads, tree reuse, dynamic komi, reports) and
//!   every tunable, declared once (`search::params`). It sees a game only
//!   through the `search::Domain` trait.
//! - `go`: Go knowledge behind `go::GoDomain`: the heavy playout policy,
//!   ladders and tactical reading, move checks, learned features and
//!   priors, ownership.
//! - `nogo`: NoGo knowledge behind `nogo::NogoDomain`: playouts, priors
//!   from learned move features near the root, the exact solver with its
//!   endgame hook, and the region decision.
//! - `player`: the engine without GTP: `Searcher::search` (the one place a
//!   game picks its domain), genmove, analysis and ponder, the clock, the
//!   one move decision (resign, pass or capture, handicap opening), dead
//!   stones and scoring, the opening book.
//! - `gtp`: the protocol: parser, the one command table and its dispatch,
//!   handlers by topic, output formats (Leela Zero, KataGo, CGOS, GoGui),
//!   sessions on stdin/stdout or TCP with their bounds, files.
//! - `bench`: `kosumi bench`'s fixed positions.
//!
//! Tests live beside the code (a `tests` module or a `tests.rs` beside a
//! split module), GTP transcripts in `gtp-tests/`, gogui-regress suites in
//! `regress/`, integration tests and the regress runner in `tests/`.

pub mod bench;
pub mod board;
pub mod go;
pub mod gtp;
pub mod nogo;
pub mod player;
pub mod record;
pub mod search;
