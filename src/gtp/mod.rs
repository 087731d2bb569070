//! The GTP v2 layer: the engine as controllers (GoGui, Sabaki, gogui-twogtp,
//! CGOS, kgsGtp) see it.
//!
//! How a line travels:
//! - [`session`] owns the I/O. A reader thread turns the input stream
//!   (stdin or a TCP connection) into lines on a channel; the main thread
//!   takes them one at a time and hands each to [`Engine::execute_line`].
//! - [`parse`] does GTP preprocessing (control characters, comments, tabs)
//!   and splits `[id] name args`; it knows nothing about the board.
//! - [`commands::COMMANDS`] is the one command table: name, handler and
//!   help text. Dispatch, `list_commands`, `known_command` and `help` all
//!   read it, so a command exists exactly when it is in the table.
//! - Handlers check every argument before they change anything, so a
//!   command that fails (`? message`) leaves the engine as it was. Every
//!   failure is a [`GtpError`] whose text is the GTP standard wording.
//! - Thinking commands (`genmove`, the `*-analyze` family) run the search in
//!   a scoped worker thread with a stop flag while the main thread watches
//!   the input through a [`Watcher`]: `# interrupt` stops a genmove (which
//!   still answers a move), any line stops an analysis stream, and lines
//!   that arrive meanwhile are queued and answered afterwards, in order.
//! - Pondering (`--ponder`, `kosumi-param ponder 1`): once a genmove's
//!   reply is out, the engine searches the position after its move (the
//!   opponent to move) until the next line arrives, writing nothing; the
//!   next genmove reuses that tree when the game went on by a searched move.
//! - Live graphics (`--gogui-gfx`, `kosumi-param gogui_gfx 1`): genmove
//!   writes a `gogui-gfx:` block (visit shares, principal variation, status
//!   line) to stderr about every 500 ms, each block in one write, and
//!   `gogui-gfx: CLEAR` before its reply.
//!
//! - The opening book ([`book`], `--no-book`, `kosumi-param opening_book
//!   0`): genmove plays the book's reply, without searching, in the 9x9
//!   openings (komi 7) that long searches answered ahead of time.
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

pub mod commands;
mod engine;
mod files;
pub mod parse;
pub mod session;
mod thinking;

use parse::ParseError;

use crate::board::GameError;

pub use engine::{
    Control, DEFAULT_MAX_SGF_BYTES, Engine, EngineConfig, FileAccess, MAX_LAG_SECONDS,
    REMOTE_MAX_OWNERSHIP_PLAYOUTS, ResourceCaps, Watcher, parse_lag,
};
pub use session::{
    DEFAULT_IDLE_TIMEOUT, DEFAULT_WRITE_TIMEOUT, Input, ListenOptions, NoInput, SessionLimits,
    run_listen, run_stdio, serve, spawn_reader, spawn_reader_with,
};

/// Why a GTP command failed. `Display` is the text sent after `?`: the GTP 2
/// standard wording where the specification has one.
#[derive(Debug, thiserror::Error)]
pub enum GtpError {
    #[error("unknown command")]
    UnknownCommand,
    #[error("syntax error")]
    Syntax,
    #[error("unacceptable size")]
    UnacceptableSize,
    #[error("illegal move")]
    IllegalMove,
    #[error("cannot undo")]
    CannotUndo,
    #[error("cannot score")]
    CannotScore,
    #[error("cannot load file")]
    CannotLoadFile,
    #[error("cannot write file")]
    CannotWriteFile,
    #[error("invalid number of stones")]
    InvalidStoneCount,
    #[error("board not empty")]
    BoardNotEmpty,
    #[error("bad vertex list")]
    BadVertexList,
    #[error("unknown parameter")]
    UnknownParameter,
    /// An input line past the session's limit (see
    /// [`session::SessionLimits`]); it is dropped unread.
    #[error("input line too long")]
    LineTooLong,
    /// `loadsgf`/`printsgf` asked for a file this session may not reach.
    #[error("{0}")]
    FileRefused(&'static str),
    /// A remote controller asked for more than the daemon allows.
    #[error("{0}")]
    OverCap(String),
    #[error("cannot solve: {0}")]
    CannotSolve(&'static str),
    /// The controller went away while we were writing; the session ends.
    #[error("output failed: {0}")]
    Output(#[from] std::io::Error),
}

impl From<ParseError> for GtpError {
    fn from(error: ParseError) -> GtpError {
        match error {
            // Off-board vertices get `play`'s wording; commands where that
            // does not fit map the error themselves.
            ParseError::VertexOffBoard => GtpError::IllegalMove,
            ParseError::DuplicateVertex | ParseError::BadVertexList => GtpError::BadVertexList,
            _ => GtpError::Syntax,
        }
    }
}

impl From<GameError> for GtpError {
    fn from(error: GameError) -> GtpError {
        match error {
            GameError::Illegal(_) => GtpError::IllegalMove,
            GameError::NothingToUndo => GtpError::CannotUndo,
            GameError::BoardNotEmpty => GtpError::BoardNotEmpty,
            GameError::BadHandicap => GtpError::InvalidStoneCount,
        }
    }
}
