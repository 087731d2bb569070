//! NoGo knowledge: a move that captures or is suicide is illegal, there is
//! no pass, and the side to move with no legal move loses.
//!
//! - `policy`: NoGo playouts and the priors of new tree nodes (the seed's
//!   static evaluation of mobility and eyes).
//! - `solver`: the exact solver (negamax with a transposition table) used
//!   for endgames, `kosumi-solve` and `kosumi solve`.

pub mod policy;
pub mod solver;
