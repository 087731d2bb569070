//! Go knowledge: what the search and the playouts know about Go beyond
//! its rules.
//!
//! - `domain`: Go as the search sees it (`GoDomain`): children, priors,
//!   playouts, the end by two passes, the root's reading.
//! - `checks`: the tactical checks of one candidate move (self-atari,
//!   ladder, capture, escape), run once and read by the priors and the
//!   features.
//! - `tactics`, `reading`: ladders and a bounded string reader (attack and
//!   defence of strings with few liberties).
//! - `policy`: the MoGo-style heavy playout policy (3x3 patterns, captures,
//!   ataris, the mercy rule).
//! - `prior`, `features`, `gammas`: what new tree nodes start with:
//!   hand-made terms and learned move features (Bradley–Terry gammas in
//!   `go_gammas.txt` for small boards, `tygem_gammas.txt` from 13x13 up).
//! - `spatial`: large spatial patterns (nested diamonds around a move),
//!   hashed alike under the board's symmetries.
//! - `life`: static life and death (unconditional life by Benson's
//!   algorithm).
//! - `ownership`: who owns each point at the end of playouts (dead stones,
//!   scoring, analysis).

pub mod checks;
pub mod domain;
pub mod features;
pub mod gammas;
pub mod life;
pub mod ownership;
pub mod policy;
pub mod prior;
pub mod reading;
pub mod spatial;
pub mod tactics;

pub use domain::GoDomain;
