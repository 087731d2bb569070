//! The player: what turns a search into a move in a real game.
//!
//! - `clock`: GTP clock settings (absolute, byo-yomi, Canadian) turned into
//!   a budget per move, with the lag allowance.
//! - `book`: the 9x9 opening book (`go_book.txt`), answered without a
//!   search.

pub mod book;
pub mod clock;
