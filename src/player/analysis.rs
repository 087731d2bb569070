//! Searches that analyse rather than play: analysis streams that run
//! until the controller speaks, fixed-playout searches for the GoGui
//! analysis commands, pondering after our move, and the ownership that
//! analysis lines carry.

use std::time::{Duration, Instant};

use super::Player;
use super::watch::{SearchView, Silent, Watcher, search_watched};
use crate::board::{Color, Game};
use crate::go::ownership::Ownership;
use crate::search::{SearchLimits, SearchReport};

/// An analysis that nobody stops still ends after this long.
const ANALYSIS_TIME_CAP: Duration = Duration::from_secs(3600);

/// Pondering that nobody stops still ends after this long.
const PONDER_TIME_CAP: Duration = Duration::from_secs(3600);

/// Playouts of the analysis commands (kosumi-visits, -pv, -winrate) when
/// no fixed playout count is set.
pub const ANALYZE_COMMAND_PLAYOUTS: u64 = 2000;

/// What a spell of pondering did.
#[derive(Clone, Debug)]
pub struct Pondered {
    /// The search's last report: the opponent's expected move is its best.
    pub report: SearchReport,
    pub elapsed: Duration,
    /// Nodes in the tree kept for the next genmove.
    pub tree_size: usize,
}

impl Player {
    /// Analysis runs until stopped (or the fixed playouts, for repeatable
    /// tests).
    fn analysis_limits(&self) -> SearchLimits {
        match self.settings.fixed_playouts {
            Some(playouts) => SearchLimits {
                playouts: Some(playouts),
                time: None,
                dynamic_komi: false,
                stop_when_decided: true,
                may_pass: true,
            },
            None => SearchLimits {
                playouts: None,
                time: Some(ANALYSIS_TIME_CAP),
                dynamic_komi: false,
                stop_when_decided: true,
                may_pass: true,
            },
        }
    }

    /// Analyses `game` (the side to move as analysed) until any input
    /// line arrives, `view` showing the progress. An analysis that ends by
    /// itself waits for that line.
    pub fn analyze<V: SearchView>(
        &mut self,
        game: &Game,
        watcher: &mut dyn Watcher,
        view: &mut V,
    ) -> Result<(), V::Error> {
        let limits = self.analysis_limits();
        let (_, stopped) = search_watched(&mut self.searcher, game, &limits, watcher, true, view)?;
        if !stopped {
            watcher.wait_for_line();
        }
        Ok(())
    }

    /// The search behind the GoGui analysis commands, on `game` (the side
    /// to move as searched), with the fixed playout count, or
    /// [`ANALYZE_COMMAND_PLAYOUTS`]. `# interrupt` cuts it short.
    pub fn analysis_search(&mut self, game: &Game, watcher: &mut dyn Watcher) -> SearchReport {
        let limits = SearchLimits {
            playouts: Some(
                self.settings
                    .fixed_playouts
                    .unwrap_or(ANALYZE_COMMAND_PLAYOUTS),
            ),
            time: None,
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        };
        let Ok((report, _)) = search_watched(
            &mut self.searcher,
            game,
            &limits,
            watcher,
            false,
            &mut Silent,
        );
        report
    }

    /// If the last genmove played with pondering on: searches the position
    /// after our move, for the opponent, until input arrives. The next
    /// genmove reuses the tree when the game goes on by the moves searched.
    /// Shows nothing; the tree stays within its memory cap. Any line stops
    /// it at once (and is answered afterwards, `# interrupt` is dropped).
    pub fn ponder(&mut self, game: &Game, watcher: &mut dyn Watcher) -> Option<Pondered> {
        if !std::mem::take(&mut self.ponder_pending)
            || game.is_over()
            || watcher.poll(Duration::ZERO, true)
        {
            return None;
        }
        let limits = SearchLimits {
            playouts: None,
            time: Some(PONDER_TIME_CAP),
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        };
        let started = Instant::now();
        let Ok((report, _)) = search_watched(
            &mut self.searcher,
            game,
            &limits,
            watcher,
            true,
            &mut Silent,
        );
        Some(Pondered {
            report,
            elapsed: started.elapsed(),
            tree_size: self.searcher.tree_size(),
        })
    }

    /// Ownership of every point of `analysed`, top row first, from the view
    /// of its side to move (1: the mover's, -1: the opponent's). The
    /// playouts are seeded by `game`, the game in progress.
    pub fn mover_ownership(&self, game: &Game, analysed: &Game) -> Vec<f32> {
        let ownership = Ownership::estimate(
            analysed,
            self.settings.ownership_playouts,
            &mut self.position_rng(game),
        );
        let sign = if analysed.to_move() == Color::Black {
            1.0
        } else {
            -1.0
        };
        let g = analysed.geometry();
        (0..g.height())
            .rev()
            .flat_map(|row| (0..g.width()).map(move |col| (col, row)))
            .map(|(col, row)| sign * ownership.value(g.point_unchecked(col, row)))
            .collect()
    }
}
