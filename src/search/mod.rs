//! Search: playouts, and the exact NoGo solver.
//!
//! The MCTS/UCT tree search builds on these (see the search-core issue).

pub mod playout;
pub mod solver;

pub use playout::{FastRng, PlayoutResult, light_playout};
