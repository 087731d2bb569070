//! The player: what turns a search into a move in a real game, with no
//! protocol text in it (the GTP layer, `crate::gtp`, names moves and
//! writes replies; it calls down into this layer, never the other way).
//!
//! [`Player`] holds what thinking needs besides the game itself: the
//! searcher and its parameters, the clock, the settings (fixed playouts,
//! ownership playouts, pondering, the opening book, the rules' name) and
//! the flag that interrupts long estimates. The game stays with the
//! caller, which hands it to each call.
//!
//! - `genmove`: genmove's one path: the opening book, the decision after
//!   the opponent's pass, else a search under the move's limits (fixed
//!   playouts or the clock's budget); the move is played and the clock
//!   charged.
//! - `decision`: the one move decision after a search: the searcher's
//!   choice checked against the game, resignation (never in the opening
//!   of White's handicap game), a pass replaced by capturing dead stones.
//! - `analysis`: analysis searches (streams until stopped, fixed-playout
//!   searches for the GoGui commands), ownership for analysis lines, and
//!   pondering after a move.
//! - `scoring`: playout ownership, life status of strings (alive, dead,
//!   seki), dead stones and the counted result.
//! - `aftermath`: the strings scoring is unsure of, decided by playing
//!   the game out (for the commands that count a finished game).
//! - `watch`: the search thread and the [`Watcher`] of the input that can
//!   stop it; [`SearchView`] is how a caller shows the search's progress.
//! - `clock`: GTP clock settings (absolute, byo-yomi, Canadian) turned into
//!   a budget per move, with the lag allowance.
//! - `book`: the 9x9 opening book (`go_book.txt`), answered without a
//!   search.

pub mod aftermath;
pub mod analysis;
pub mod book;
pub mod clock;
pub mod decision;
pub mod genmove;
pub mod scoring;
pub mod watch;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use self::clock::Clock;
use crate::board::{Color, Game, GameKind, Point};
use crate::go::GoDomain;
use crate::nogo::NogoDomain;
use crate::search::{SearchLimits, SearchParams, SearchReport, Searcher};

pub use decision::{Choice, Purpose};
pub use genmove::{MoveView, Source};
pub use scoring::{StringStatus, StringStatuses};
pub use watch::{SearchView, Silent, Watcher};

impl Searcher {
    /// Searches the position of `game` for the side to move until a limit
    /// is reached or `stop` is set, as [`Searcher::search_as`] for the
    /// game's own domain: the one place the game is chosen.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        stop: &AtomicBool,
        interval: Option<Duration>,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        match game.kind() {
            GameKind::Go => self.search_as::<GoDomain>(game, limits, stop, interval, progress),
            GameKind::NoGo => self.search_as::<NogoDomain>(game, limits, stop, interval, progress),
        }
    }
}

/// What the controller may change about how the player thinks, besides
/// the search's own parameters and the clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Fixed playouts per genmove; `None` means the clock decides.
    pub fixed_playouts: Option<u64>,
    /// Playouts behind ownership, dead stones and final_score.
    pub ownership_playouts: u32,
    /// Playouts of each move's search when a finished game is played out
    /// to decide the strings scoring is unsure of; 0: never played out.
    pub aftermath_playouts: u32,
    /// Ponder after each move the engine plays.
    pub ponder: bool,
    /// Genmove plays the opening book's move where it has one.
    pub opening_book: bool,
    /// As `kgs-rules` named them (lower case); Japanese rules allow passing
    /// with dead stones on the board.
    pub rules: String,
}

/// The searcher, the clock and the settings a game is played with.
pub struct Player {
    clock: Clock,
    params: SearchParams,
    searcher: Searcher,
    settings: Settings,
    /// Set by a genmove that played with pondering on: ponder once the
    /// reply is out.
    ponder_pending: bool,
    /// Set while an interruptible computation runs, once the controller
    /// asks it to stop (see [`watch::interruptible`]).
    interrupted: Arc<AtomicBool>,
    /// The last count of a finished game's statuses and what it depended
    /// on (see [`Player::final_statuses`]).
    counted: Mutex<Option<(aftermath::CountKey, StringStatuses)>>,
}

impl Player {
    pub fn new(params: SearchParams, clock: Clock, settings: Settings) -> Player {
        Player {
            clock,
            searcher: Searcher::new(params.clone()),
            params,
            settings,
            ponder_pending: false,
            interrupted: Arc::new(AtomicBool::new(false)),
            counted: Mutex::new(None),
        }
    }

    /// The game clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// The search tunables.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Changes the tunables; the searcher keeps its tree unless the seed
    /// changed.
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        self.searcher.set_params(self.params.clone());
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// Nodes in the search tree kept for the next search.
    pub fn tree_size(&self) -> usize {
        self.searcher.tree_size()
    }

    /// The flag that stops an interruptible computation (see
    /// [`watch::interruptible`]).
    pub fn interrupted(&self) -> &Arc<AtomicBool> {
        &self.interrupted
    }
}

/// A copy of `game` with `color` to move, for searching a move for the
/// side not on turn. The copy keeps the board but not the history, so its
/// answer is checked against the real game afterwards.
pub fn game_for(game: &Game, color: Color) -> Game {
    if game.to_move() == color {
        return game.clone();
    }
    board_copy(game, color)
}

/// A new game holding the board of `game` as setup stones, `color` to move.
fn board_copy(game: &Game, color: Color) -> Game {
    let position = game.position();
    let geometry = game.geometry();
    let stones: Vec<(Point, Color)> = geometry
        .points()
        .filter_map(|p| position.cell(p).color().map(|c| (p, c)))
        .collect();
    let mut copy = Game::new(geometry, game.kind(), game.komi());
    if copy.add_setup(&stones).is_err() {
        // Cannot happen for a legal board; searching the real game is
        // the safe fallback.
        log::warn!("could not copy the board for {color:?}");
        return game.clone();
    }
    copy.set_first_to_move(color);
    copy
}
