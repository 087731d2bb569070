//! Genmove's one path, for every command that generates a move: the
//! opening book, else the decision after the opponent's pass, else a
//! search under the move's limits and the decision on its candidates
//! (see `decision`). The move is played (unless only reported), the clock
//! charged, and pondering set to follow.

use std::time::Instant;

use super::book::OpeningBook;
use super::clock::{DEFAULT_MOVE_TIME, expected_moves_go, expected_moves_nogo};
use super::decision::{Choice, Purpose};
use super::watch::{SearchView, Watcher, search_watched};
use super::{Player, game_for};
use crate::board::{Color, Game, GameError, GameKind, Move};
use crate::search::{SearchLimits, SearchReport};

/// Where genmove's choice comes from.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// The opening book answered `game` (the position as searched) with
    /// the win rate of the search that chose the move when the book was
    /// built.
    Book { game: &'a Game, winrate: f64 },
    /// The opponent passed and the game is won: no search.
    AfterPass,
    /// The search ended with `report`; its tree holds `tree_size` nodes.
    Search {
        report: &'a SearchReport,
        tree_size: usize,
    },
}

/// A [`SearchView`] that is also told genmove's choice, before the move is
/// played.
pub trait MoveView: SearchView {
    /// `color` answers `choice`, from `source` (logs, a book move's line).
    fn chosen(&mut self, color: Color, choice: Choice, source: Source) -> Result<(), Self::Error>;
}

impl Player {
    /// Generates a move for `color` in `game` and plays it unless `purpose`
    /// is Report. The search runs on the board of `game` with `color` to
    /// move while `watcher` watches the input; `view` shows its progress
    /// and is told the choice. A move played with pondering on leaves the
    /// player to ponder (see [`Player::ponder`]).
    pub fn genmove<V>(
        &mut self,
        game: &mut Game,
        color: Color,
        purpose: Purpose,
        watcher: &mut dyn Watcher,
        view: &mut V,
    ) -> Result<Choice, V::Error>
    where
        V: MoveView,
        V::Error: From<GameError>,
    {
        let started = Instant::now();
        let searched = game_for(game, color);
        if purpose != Purpose::Cleanup
            && self.settings.opening_book
            && let Some(book_move) = OpeningBook::shipped().book_move(&searched, color)
        {
            let choice = Choice::Play(Move::Play(book_move.point));
            let source = Source::Book {
                game: &searched,
                winrate: book_move.winrate,
            };
            view.chosen(color, choice, source)?;
            return self.settle(game, color, choice, purpose, started);
        }
        if let Some(choice) = self.decided_after_a_pass(game, color, purpose) {
            view.chosen(color, choice, Source::AfterPass)?;
            return self.settle(game, color, choice, purpose, started);
        }
        let limits = self.move_limits(game, color);
        let (report, _) =
            search_watched(&mut self.searcher, &searched, &limits, watcher, false, view)?;
        let choice = self.choose(game, color, &report, purpose);
        let source = Source::Search {
            report: &report,
            tree_size: self.searcher.tree_size(),
        };
        view.chosen(color, choice, source)?;
        self.settle(game, color, choice, purpose, started)
    }

    /// Plays `choice` (unless `purpose` only reports it), sets pondering to
    /// follow, and charges the clock the time since `started`.
    fn settle<E: From<GameError>>(
        &mut self,
        game: &mut Game,
        color: Color,
        choice: Choice,
        purpose: Purpose,
        started: Instant,
    ) -> Result<Choice, E> {
        if purpose == Purpose::Report {
            return Ok(choice);
        }
        if let Choice::Play(mv) = choice {
            game.play(color, mv)?;
            self.ponder_pending = self.settings.ponder;
        }
        self.clock.charge(color, started.elapsed());
        Ok(choice)
    }

    /// Search limits for a move: fixed playouts if set, else the clock's
    /// budget; a clock without limit still gets the default time per move,
    /// so the engine never thinks forever.
    pub fn move_limits(&self, game: &Game, color: Color) -> SearchLimits {
        let may_pass = self.pass_may_end_the_game(game, color);
        match self.settings.fixed_playouts {
            Some(playouts) => SearchLimits {
                playouts: Some(playouts),
                time: None,
                dynamic_komi: true,
                stop_when_decided: true,
                may_pass,
            },
            None => {
                let area = game.geometry().area();
                let moves_left = match game.kind() {
                    GameKind::Go => expected_moves_go(area, game.moves().len()),
                    GameKind::NoGo => {
                        let legal = game.position().legal_moves(color).count() as usize;
                        expected_moves_nogo(area, legal)
                    }
                };
                let budget = self.clock.budget(color, moves_left);
                SearchLimits {
                    playouts: None,
                    time: Some(budget.unwrap_or(DEFAULT_MOVE_TIME)),
                    dynamic_komi: true,
                    // NoGo keeps the early stop: spending a whole 0.3 s
                    // period gained nothing against the early-stopping
                    // engine (29-31 of 60), where Go scored 58% of 120.
                    stop_when_decided: game.kind() == GameKind::NoGo
                        || self.clock.keeps_unused_time(color),
                    may_pass,
                }
            }
        }
    }
}
