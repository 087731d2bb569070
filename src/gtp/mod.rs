//! The GTP v2 layer: the engine as controllers (GoGui, Sabaki, gogui-twogtp,
//! CGOS, kgsGtp) see it. It parses, dispatches and writes; the thinking
//! (genmove, analysis searches, pondering, the clock, the move decision,
//! dead stones and scoring) is the player's, in [`crate::player`].
//!
//! How a line travels:
//! - [`session`] owns the I/O. A reader thread turns the input stream
//!   (stdin or a TCP connection) into lines on a channel; the main thread
//!   takes them one at a time and hands each to [`Engine::execute_line`].
//! - [`parse`] does GTP preprocessing (control characters, comments, tabs)
//!   and splits `[id] name args`; it knows nothing about the board.
//!   `args` turns arguments into colours, komi, seconds and the like.
//! - `dispatch` looks the command up in [`commands::COMMANDS`], the one
//!   command table: name, handler and help text. Dispatch,
//!   `list_commands`, `known_command` and `help` all read it, so a command
//!   exists exactly when it is in the table. It writes the `=`/`?` reply.
//! - `handlers/` holds the handlers, grouped by topic (board, time, score,
//!   genmove, analysis, params, gogui, servers, solve, protocol); `files`
//!   holds `loadsgf` and `printsgf`. Handlers check every argument before
//!   they change anything, so a command that fails (`? message`) leaves
//!   the engine as it was. Every failure is a [`GtpError`] whose text is
//!   the GTP standard wording.
//! - `engine` is what a handler sees: the game, the
//!   [`Player`](crate::player::Player), the session's settings, and the
//!   `Call` with the arguments and the output.
//! - `format` spells everything the replies hold: vertices, colours,
//!   numbers, and the output formats of analysis (Leela Zero, KataGo,
//!   CGOS JSON) and GoGui's live graphics.
//!
//! Who imports whom, downwards only: `session` → `dispatch` → `commands`
//! → `handlers`/`files` → `engine` → `format`/`args`/`parse`/`error`, and
//! everything may use [`crate::player`], which knows nothing of GTP.
//!
//! - Thinking commands (`genmove`, the `*-analyze` family) run the search in
//!   a scoped worker thread with a stop flag while the main thread watches
//!   the input through a [`Watcher`]: `# interrupt` stops a genmove (which
//!   still answers a move), any line stops an analysis stream, and lines
//!   that arrive meanwhile are queued and answered afterwards, in order.
//!   The player hands the search's reports to the protocol's view
//!   (`handlers/stream`), which writes them, so one thread writes.
//! - Pondering (`--ponder`, `kosumi-param ponder 1`): once a genmove's
//!   reply is out, the engine searches the position after its move (the
//!   opponent to move) until the next line arrives, writing nothing; the
//!   next genmove reuses that tree when the game went on by a searched move.
//! - Live graphics (`--gogui-gfx`, `kosumi-param gogui_gfx 1`): genmove
//!   writes a `gogui-gfx:` block (visit shares, principal variation, status
//!   line) to stderr about every 500 ms, each block in one write, and
//!   `gogui-gfx: CLEAR` before its reply.
//!
//! - The opening book ([`crate::player::book`], `--no-book`,
//!   `kosumi-param opening_book 0`): genmove plays the book's reply,
//!   without searching, in the 9x9 openings (komi 7) that long searches
//!   answered ahead of time.
//! - The in-process gogui-regress runner and its pattern matcher are test
//!   support (`tests/support/`), not part of the library.
//!
//! Policies worth knowing: komi survives `boardsize` and `clear_board`
//! (NoGo switches it to 0); dead stones, `final_score` and seki come from
//! playout ownership (a string is dead below -0.5 for its owner, seki
//! within 0.2 of 0); genmove never passes while the opponent has dead
//! stones on the board unless `kgs-rules japanese` was given; White does
//! not resign the opening of a handicap game; with no clock (or an
//! unlimited one) a move gets the default move time.
//!
//! stdout carries GTP only; diagnostics go through `log` to stderr.

mod args;
pub mod commands;
mod dispatch;
mod engine;
mod error;
mod files;
mod format;
mod handlers;
pub mod parse;
pub mod session;

pub use crate::player::Watcher;
pub use args::{MAX_LAG_SECONDS, parse_lag};
pub use dispatch::Control;
pub use engine::{
    DEFAULT_MAX_SGF_BYTES, Engine, EngineConfig, FileAccess, MIN_BOARD_SIZE,
    REMOTE_MAX_AFTERMATH_PLAYOUTS, REMOTE_MAX_OWNERSHIP_PLAYOUTS, ResourceCaps,
};
pub use error::GtpError;
pub use session::{
    DEFAULT_IDLE_TIMEOUT, DEFAULT_WRITE_TIMEOUT, Input, ListenOptions, NoInput, SessionLimits,
    run_listen, run_stdio, serve, spawn_reader, spawn_reader_with,
};
