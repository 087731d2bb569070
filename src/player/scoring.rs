//! The end of a game as the player judges it: playout ownership, the life
//! status of every string (alive, dead, seki: unconditional life first,
//! the playouts' ownership for the rest), the dead stones, and the result
//! counted by area with those stones removed.
//!
//! Every estimate here draws its playouts from a generator seeded by the
//! position, so the same board gets the same answer whatever came before.

use rand_xoshiro::rand_core::SeedableRng;

use super::{Player, board_copy};
use crate::board::{Bitboard, Color, Game, GameKind, Outcome, Point, Position};
use crate::go::life::{StaticJudge, StaticStatus};
use crate::go::ownership::{DEAD_THRESHOLD, Ownership};
use crate::search::FastRng;

/// Playouts behind ownership, dead stones and final_score.
pub const DEFAULT_OWNERSHIP_PLAYOUTS: u32 = 400;

/// Strings whose average ownership is this close to 0 are reported as seki:
/// the playouts leave their points to neither side.
pub const SEKI_BAND: f32 = 0.2;

/// Strings whose mean ownership (towards their owner) is closer to 0 than
/// this, with no static proof, are left to the game played out (see
/// `aftermath`): the playouts do not know whether they live.
pub const UNSURE_OWNERSHIP: f32 = 0.6;

/// Every string of a board with its status: its points in board order,
/// the strings in board order (by their lowest point).
pub type StringStatuses = Vec<(Vec<Point>, StringStatus)>;

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
    pub fn string_statuses(&self, game: &Game) -> StringStatuses {
        self.judge_strings(game)
            .into_iter()
            .map(|judged| (judged.points, judged.status))
            .collect()
    }

    /// Every string with its status and whether the judgement is sure of
    /// it, in the order of [`Player::string_statuses`].
    pub(super) fn judge_strings(&self, game: &Game) -> Vec<JudgedString> {
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
            let (status, basis) = match judged.as_mut() {
                Some((own, judge)) => judge_string(own, judge, p, color, &stones),
                None => (StringStatus::Alive, Basis::Proved),
            };
            // The playouts often break a seki (a side sure to lose fills a
            // shared liberty): where they are unsure, its shape decides.
            let (status, sure) = match basis {
                Basis::Unsure if seki_shape(position, &stones, color) => (StringStatus::Seki, true),
                Basis::Unsure => (status, false),
                Basis::Proved | Basis::Clear => (status, true),
            };
            let points = stones.iter().collect();
            strings.push(JudgedString {
                points,
                color,
                status,
                sure,
            });
        }
        strings
    }

    /// The stones judged dead, of `color` or of both sides.
    pub fn dead_stones(&self, game: &Game, color: Option<Color>) -> Bitboard {
        dead_in(&self.string_statuses(game), game.position(), color)
    }

    /// The Go game's result as a scorer counts it now: by area, with the
    /// stones the ownership playouts find dead removed.
    pub fn counted_outcome(&self, game: &Game) -> Outcome {
        outcome_without(game, &self.dead_stones(game, None))
    }
}

/// The stones of `color` (or of both sides) in the strings `statuses`
/// call dead.
pub(super) fn dead_in(
    statuses: &StringStatuses,
    position: &Position,
    color: Option<Color>,
) -> Bitboard {
    let mut dead = Bitboard::EMPTY;
    for (points, status) in statuses {
        let owner = points.first().and_then(|&p| position.cell(p).color());
        if *status == StringStatus::Dead && (color.is_none() || owner == color) {
            points.iter().for_each(|&p| dead.set(p));
        }
    }
    dead
}

/// The Go game's result by area with the `dead` stones removed.
pub(super) fn outcome_without(game: &Game, dead: &Bitboard) -> Outcome {
    game.area_score_with_dead(dead).outcome(game.komi())
}

/// A string as the end-of-game judgement sees it.
pub(super) struct JudgedString {
    /// Its points in board order.
    pub points: Vec<Point>,
    pub color: Color,
    pub status: StringStatus,
    /// Whether static analysis proved the status or the playouts gave the
    /// string's points clearly to one side (see [`UNSURE_OWNERSHIP`]).
    pub sure: bool,
}

/// What a string's first judgement rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Basis {
    /// Static analysis proved it.
    Proved,
    /// The playouts gave the string's points clearly to one side.
    Clear,
    /// The playouts left its points to either side (see [`UNSURE_OWNERSHIP`]).
    Unsure,
}

/// The status of the string of `color` at `p` (its `stones`), and what it
/// rests on: static analysis settles what it proves; the playouts judge
/// the rest.
fn judge_string(
    own: &Ownership,
    judge: &mut StaticJudge,
    p: Point,
    color: Color,
    stones: &Bitboard,
) -> (StringStatus, Basis) {
    let owned_by = |set: &Bitboard, owner: Color| mean_ownership(own, set, owner);
    // A wall string counts as safe when the playouts give its points to
    // its owner.
    let wall_safe = |wall: &Bitboard, owner: Color| owned_by(wall, owner) > DEAD_THRESHOLD;
    let mean = owned_by(stones, color);
    let clear = if mean.abs() >= UNSURE_OWNERSHIP {
        Basis::Clear
    } else {
        Basis::Unsure
    };
    // The reader only ever proves death: where the playouts find the
    // string clearly dead already, Benson alone may differ; where they
    // are unsure of it, a proof spares the count a play-out.
    if mean < -DEAD_THRESHOLD && !judge.unconditionally_alive(p, color) {
        let proved =
            clear == Basis::Unsure && judge.status(p, color, wall_safe) == Some(StaticStatus::Dead);
        return (
            StringStatus::Dead,
            if proved { Basis::Proved } else { clear },
        );
    }
    match judge.status(p, color, wall_safe) {
        Some(StaticStatus::Alive) => (StringStatus::Alive, Basis::Proved),
        Some(StaticStatus::Dead) => (StringStatus::Dead, Basis::Proved),
        None if mean < -DEAD_THRESHOLD => (StringStatus::Dead, clear),
        None if mean.abs() < SEKI_BAND => (StringStatus::Seki, clear),
        None if clear == Basis::Unsure && judge.lives_by_region(p, color, wall_safe) => {
            (StringStatus::Alive, Basis::Proved)
        }
        None => (StringStatus::Alive, clear),
    }
}

/// Whether the string of `color` made of `stones` stands in the shape of a
/// seki: each of its liberties is either an eye of its own (an empty
/// point next to `color`'s stones only) or a point neither side can
/// play without standing in atari (or at all), and at least one is the
/// latter. Such a string lives as long as neither side fills a shared
/// liberty, which counting must not do. The shape is no proof (stones
/// inside a pyramid four stand so too, and the killer's throw-in kills
/// the group around them), hence it decides only where the playouts are
/// unsure.
fn seki_shape(position: &Position, stones: &Bitboard, color: Color) -> bool {
    let geometry = position.geometry();
    let Some(first) = stones.iter().next() else {
        return false;
    };
    let mut shared = 0;
    for liberty in position.string_liberties(first).iter() {
        let eye = geometry
            .neighbours(liberty)
            .iter()
            .all(|&n| !geometry.contains(n) || position.cell(n).color() == Some(color));
        if eye {
            continue;
        }
        let approachable = |side: Color| {
            position.is_legal(liberty, side) && !position.is_self_atari(liberty, side)
        };
        if approachable(color) || approachable(color.opponent()) {
            return false;
        }
        shared += 1;
    }
    shared > 0
}

/// The mean ownership of the points of `set` towards `owner`, in [-1, 1]
/// (0 for an empty set).
fn mean_ownership(ownership: &Ownership, set: &Bitboard, owner: Color) -> f32 {
    let sign = if owner == Color::Black { 1.0 } else { -1.0 };
    let count = set.count().max(1) as f32;
    set.iter().map(|q| sign * ownership.value(q)).sum::<f32>() / count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seki(position: &Position, col: usize, row: usize) -> bool {
        let p = position.geometry().point_unchecked(col, row);
        let color = position.cell(p).color().expect("a stone");
        seki_shape(position, &position.string_stones(p), color)
    }

    fn board(text: &str) -> Position {
        Position::from_text(text, GameKind::Go).expect("a board")
    }

    #[test]
    fn strings_sharing_liberties_neither_side_can_fill_have_a_seki_shape() {
        // One eye each (C1 for White, G1 for Black), E1 shared.
        let one_eye = board(
            "XXXX.OOOO
             XXXXOOOOO
             XXXXOOOOO
             XOOOXXXXO
             XO.O.X.XO",
        );
        assert!(seki(&one_eye, 1, 0));
        assert!(seki(&one_eye, 5, 0));
        // No eyes: A1 and E1 shared.
        let no_eyes = board(
            ".........
             XXXXXXXXX
             OOOOOOX..
             .XXX.OX..",
        );
        assert!(seki(&no_eyes, 1, 0));
        assert!(seki(&no_eyes, 0, 1));
    }

    #[test]
    fn a_group_with_two_eyes_or_a_liberty_either_side_can_fill_has_no_seki_shape() {
        let two_eyes = board(
            ".........
             XXXXXX...
             OOOOOX...
             O.O.OX...",
        );
        assert!(!seki(&two_eyes, 0, 0));
        assert!(!seki(&two_eyes, 5, 0));
        // Black's B1-D1 against White's wall: A1 and E1 are White's to fill
        // (the wall keeps other liberties), so Black is simply dead.
        let dead_inside = board(
            ".........
             OOOOOOOO.
             OOOOOOX..
             .XXX.OX..",
        );
        assert!(!seki(&dead_inside, 1, 0));
    }
}
