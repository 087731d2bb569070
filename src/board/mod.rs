//! The rules core: Go and NoGo on boards from 1x1 to 25x25.
//!
//! - [`Position`] is the fast playout board. Points live on a padded grid
//!   (one shared border column, a border row above and below), strings are
//!   circular lists with pseudo-liberty counters, and empty points are kept
//!   in a list; whole-board questions (areas, legal-move sets) get
//!   [`Bitboard`]s built on demand.
//! - [`Game`] is the game record: setup stones, move history, the set of past
//!   positions for positional superko, undo by replay, komi and scoring.
//! - [`zobrist`] holds the fixed hash keys shared by both.
//! - `position/`: the board by concern (legality, moves, liberties, nakade,
//!   text form) and `invariants`, the checker of its incremental state.
//! - [`vertex`]: vertex names (`D4`, `pass`), parsed and written.
//! - `handicap`: fixed and free handicap placement; [`perft`]: move-generator
//!   counts; `scoring`: area counts and outcomes.

mod bitboard;
mod game;
mod geometry;
mod handicap;
pub mod perft;
mod position;
mod scoring;
pub mod vertex;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use game::{Game, GameError};
pub use geometry::{Geometry, MAX_POINTS, MAX_SIZE, Point, ring_symmetries};
pub use handicap::{fixed_handicap_points, free_handicap_points};
pub use position::{FewPoints, LibertyMemo, Position};
pub use scoring::{AreaScore, Outcome};

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The board cell a stone of this colour occupies.
    #[inline]
    pub fn cell(self) -> Cell {
        match self {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// What occupies one point of the padded grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    Black = 0,
    White = 1,
    Empty = 2,
    Border = 3,
}

impl Cell {
    /// The colour of a stone, `None` for empty and border cells.
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// A move in the game record: a stone on a point, or a pass (Go only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Point),
    Pass,
}

/// Which game's rules a position follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Go: captures, no suicide, positional superko, area scoring.
    Go,
    /// NoGo: capturing and suicide are illegal, no passing, the side to move
    /// with no legal move loses.
    NoGo,
}

/// Why a board could not be made or a move could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("unacceptable size")]
    BadSize,
    #[error("point off the board")]
    OffBoard,
    #[error("point occupied")]
    Occupied,
    #[error("suicide")]
    Suicide,
    #[error("ko")]
    Ko,
    #[error("positional superko")]
    Superko,
    #[error("capturing is illegal in NoGo")]
    NoGoCapture,
    #[error("passing is illegal in NoGo")]
    NoGoPass,
    #[error("the game is over")]
    GameOver,
}
