//! NoGo knowledge: a move that captures or is suicide is illegal, there is
//! no pass, and the side to move with no legal move loses.
//!
//! - `policy`: NoGo playouts and the seed's static evaluation of mobility
//!   and eyes (also priors, off by default).
//! - `features`, `gammas`: learned move features (each point read as who
//!   may still play it, or its string's liberties) and the fitted table
//!   (`nogo_gammas.txt`), the priors of tree nodes near the root.
//! - `domain`: NoGo as the search sees it (`NogoDomain`).
//! - `endgame`: the exact solver inside a search (root solve, candidate
//!   verification, the table kept between moves), and before it the
//!   region decision when the board has fallen into parts.
//! - `regions`: endgames split into independent parts, each valued as a
//!   combinatorial game, decided by the sum of the values.
//! - `solver`: the exact solver (negamax with a transposition table) used
//!   for endgames, `kosumi-solve` and `kosumi solve`. A folder by concern:
//!   its `mod.rs` holds the API and the root of a solve, `board` the
//!   solver's own bitboard, `negamax` the search, `ordering` the move
//!   ordering, `table` and `symmetry` the transposition table and its keys.
//! - `dfpn`: a second exact solver sharing no code with the first (df-pn
//!   over its own board), to check its verdicts (`kosumi solve --method
//!   dfpn`, the tests).

pub mod dfpn;
pub mod domain;
pub mod endgame;
pub mod features;
pub mod gammas;
pub mod policy;
pub mod regions;
pub mod solver;

pub use domain::NogoDomain;
