//! NoGo endgames by region decomposition and combinatorial game values.
//!
//! Late NoGo positions fall apart into parts no move of one can affect
//! (`split`, which says why); each part is a game of its own, and the
//! board is their sum, as in combinatorial game theory: the side with no
//! move in any part loses. `value` enumerates every position of a part
//! into its canonical game (`cgt`), `decide` sums the parts and finds a
//! winning move. Black is Left, White is Right. `words` holds the bit
//! sets the parts are made of. All work is bounded by a [`RegionBudget`].

pub mod cgt;
mod decide;
mod split;
#[cfg(test)]
mod tests;
mod value;
mod words;

pub use decide::{RegionBudget, RegionDecision, RegionReport, decide, split_position};
pub use split::{Component, Split};
pub use words::MAX_REGION_AREA;
