//! [`GtpError`]: why a command failed, worded for the `?` reply.

use super::parse::ParseError;
use crate::board::GameError;

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
    /// [`super::session::SessionLimits`]); it is dropped unread.
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
