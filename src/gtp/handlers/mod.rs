//! The command handlers, grouped by topic; [`super::commands::COMMANDS`]
//! names each with its help line.
//!
//! A handler checks every argument before it changes anything, so a
//! command that fails leaves the engine as it was. Handlers reach the
//! engine through its methods, the thinking through its
//! [`crate::player::Player`], and write replies through [`super::format`].
//!
//! - `protocol`: `protocol_version`, `name`, `version`, `quit`, `cputime`.
//! - `board`: board size, komi, moves, undo, handicap, `showboard`,
//!   `kosumi-game`.
//! - `time`: `time_settings`, `time_left`, `kgs-time_settings`.
//! - `score`: `final_score`, `final_status_list`, `kosumi-ownership`.
//! - `genmove`: `genmove`, `reg_genmove`, `kgs-genmove_cleanup` and the
//!   `*-genmove_analyze` family.
//! - `analysis`: `lz-analyze`, `kata-analyze`, and the GoGui analysis
//!   searches `kosumi-visits`, `kosumi-pv`, `kosumi-winrate`.
//! - `stream`: how a search in progress reaches the controller (info
//!   lines on the reply, live graphics on stderr), for the two above.
//! - `params`: `kosumi-param`, with the caps on a remote controller.
//! - `gogui`: GoGui's rules and analysis commands, ladders and tactics.
//! - `servers`: what KGS and CGOS send (rules, chat, game over).
//! - `solve`: `kosumi-solve`, the exact NoGo solver, and `kosumi-regions`,
//!   the NoGo region decision.

pub(super) mod analysis;
pub(super) mod board;
pub(super) mod genmove;
pub(super) mod gogui;
pub(super) mod params;
pub(super) mod protocol;
pub(super) mod score;
pub(super) mod servers;
pub(super) mod solve;
mod stream;
pub(super) mod time;

use super::engine::Response;
use super::error::GtpError;

/// A successful reply of `text`.
pub(crate) fn text(text: impl Into<String>) -> Result<Response, GtpError> {
    Ok(Response::Text(text.into()))
}
