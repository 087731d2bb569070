//! The end of a game as the player judges it: playout ownership, the life
//! status of every string (alive, dead, seki: unconditional life first,
//! the playouts' ownership for the rest), the dead stones, and the result
//! counted by area with those stones removed.
//!
//! Every estimate here draws its playouts from a generator seeded by the
//! position, so the same board gets the same answer whatever came before.

use rand_xoshiro::rand_core::SeedableRng;

use super::{Player, board_copy};
use crate::board::{Bitboard, Color, Game, GameKind, Outcome, Point};
use crate::go::life::{StaticJudge, StaticStatus};
use crate::go::ownership::{DEAD_THRESHOLD, Ownership};
use crate::search::FastRng;

/// Playouts behind ownership, dead stones and final_score.
pub const DEFAULT_OWNERSHIP_PLAYOUTS: u32 = 400;

/// Strings whose average ownership is this close to 0 are reported as seki:
/// the playouts leave their points to neither side.
pub const SEKI_BAND: f32 = 0.2;

/// Life status of a string at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringStatus {
    Alive,
    Dead,
    Seki,
}

impl Player {
    /// A generator for estimates that depend on the position of `game`
    /// only, so final_score and friends answer the same whatever came
    /// before.
    pub(crate) fn position_rng(&self, game: &Game) -> FastRng {
        FastRng::seed_from_u64(self.params.seed ^ game.position().hash_with_side())
    }

    /// Ownership of the position of `game`. After a pass the game is being
    /// wound up and either side may be the one to move next, so either
    /// side moves first in turn; before one, the side to move does. The
    /// playouts start from a copy of the board without its history,
    /// because the order in which a position keeps its empty points
    /// depends on the moves that made it: the same board reached two ways
    /// must get the same estimate.
    pub fn ownership(&self, game: &Game) -> Ownership {
        let board = board_copy(game, game.to_move());
        let playouts = self.settings.ownership_playouts;
        let rng = &mut self.position_rng(game);
        if game.position().consecutive_passes() > 0 {
            Ownership::settled_until(&board, playouts, rng, &self.interrupted)
        } else {
            Ownership::estimate_until(&board, playouts, rng, &self.interrupted)
        }
    }

    /// Every string on the board with its status, strings in board order
    /// (by their lowest point), each a list of points in board order.
    pub fn string_statuses(&self, game: &Game) -> Vec<(Vec<Point>, StringStatus)> {
        let position = game.position();
        // NoGo never captures: every stone stays to the end.
        let mut judged = (game.kind() == GameKind::Go)
            .then(|| (self.ownership(game), StaticJudge::new(position)));
        let mut seen = Bitboard::EMPTY;
        let mut strings = Vec::new();
        for p in game.geometry().points() {
            let Some(color) = position.cell(p).color() else {
                continue;
            };
            if seen.contains(p) {
                continue;
            }
            let stones = position.string_stones(p);
            seen = seen.or(&stones);
            let points: Vec<Point> = stones.iter().collect();
            let status = match judged.as_mut() {
                Some((own, judge)) => {
                    let own = &*own;
                    let owned_by = |set: &Bitboard, owner: Color| mean_ownership(own, set, owner);
                    // Static analysis settles what it proves; the playouts
                    // judge the rest. A wall string counts as safe when the
                    // playouts give its points to its owner.
                    let wall_safe =
                        |wall: &Bitboard| owned_by(wall, color.opponent()) > DEAD_THRESHOLD;
                    let mean = owned_by(&stones, color);
                    // The reader only ever proves death: where the playouts
                    // find the string dead already, Benson alone may differ.
                    if mean < -DEAD_THRESHOLD && !judge.unconditionally_alive(p, color) {
                        strings.push((points, StringStatus::Dead));
                        continue;
                    }
                    match judge.status(p, color, wall_safe) {
                        Some(StaticStatus::Alive) => StringStatus::Alive,
                        Some(StaticStatus::Dead) => StringStatus::Dead,
                        None if mean < -DEAD_THRESHOLD => StringStatus::Dead,
                        None if mean.abs() < SEKI_BAND => StringStatus::Seki,
                        None => StringStatus::Alive,
                    }
                }
                None => StringStatus::Alive,
            };
            strings.push((points, status));
        }
        strings
    }

    /// The stones judged dead, of `color` or of both sides.
    pub fn dead_stones(&self, game: &Game, color: Option<Color>) -> Bitboard {
        let position = game.position();
        let mut dead = Bitboard::EMPTY;
        for (points, status) in self.string_statuses(game) {
            let owner = points.first().and_then(|&p| position.cell(p).color());
            if status == StringStatus::Dead && (color.is_none() || owner == color) {
                for p in points {
                    dead.set(p);
                }
            }
        }
        dead
    }

    /// The Go game's result as a scorer counts it now: by area, with the
    /// stones the ownership playouts find dead removed.
    pub fn counted_outcome(&self, game: &Game) -> Outcome {
        let score = game.area_score_with_dead(&self.dead_stones(game, None));
        score.outcome(game.komi())
    }
}

/// The mean ownership of the points of `set` towards `owner`, in [-1, 1]
/// (0 for an empty set).
fn mean_ownership(ownership: &Ownership, set: &Bitboard, owner: Color) -> f32 {
    let sign = if owner == Color::Black { 1.0 } else { -1.0 };
    let count = set.count().max(1) as f32;
    set.iter().map(|q| sign * ownership.value(q)).sum::<f32>() / count
}
