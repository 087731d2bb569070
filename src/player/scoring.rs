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
        self.ownership_until(game, &mut |_, _| false)
    }

    /// [`Player::ownership`], ending its playouts once `decided` says so
    /// (see [`Ownership::until_decided`]).
    fn ownership_until(
        &self,
        game: &Game,
        decided: &mut dyn FnMut(&Ownership, u32) -> bool,
    ) -> Ownership {
        Ownership::until_decided(
            &board_copy(game, game.to_move()),
            self.settings.ownership_playouts,
            &mut self.position_rng(game),
            &self.interrupted,
            game.position().consecutive_passes() > 0,
            decided,
        )
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
        let strings = board_strings(position);
        // NoGo never captures: every stone stays to the end.
        let judged: Vec<(StringStatus, Basis)> = if game.kind() == GameKind::Go {
            let mut judge = StaticJudge::new(position);
            let own = self.judging_ownership(game, &strings, &judge);
            strings
                .iter()
                .map(|string| judge_string(&own, &mut judge, string))
                .collect()
        } else {
            vec![(StringStatus::Alive, Basis::Proved); strings.len()]
        };
        strings
            .into_iter()
            .zip(judged)
            .map(|(string, (status, basis))| {
                // The playouts often break a seki (a side sure to lose
                // fills a shared liberty): where they are unsure, its
                // shape decides.
                let (status, sure) = match basis {
                    Basis::Unsure if string.seki_shaped => (StringStatus::Seki, true),
                    Basis::Unsure => (status, false),
                    Basis::Proved | Basis::Clear => (status, true),
                };
                JudgedString {
                    points: string.stones.iter().collect(),
                    color: string.color,
                    status,
                    sure,
                }
            })
            .collect()
    }

    /// [`Player::ownership`] for judging `strings`, whose playouts end
    /// once no string's judgement could change within the estimate's
    /// error (see [`judgement_decided`]).
    fn judging_ownership(
        &self,
        game: &Game,
        strings: &[BoardString],
        judge: &StaticJudge,
    ) -> Ownership {
        self.ownership_until(game, &mut |own, played| {
            judgement_decided(own, played, strings, judge)
        })
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

/// A string of the board: a point of it, its colour, its stones and
/// whether it stands in the shape of a seki (see [`seki_shape`]).
struct BoardString {
    at: Point,
    color: Color,
    stones: Bitboard,
    seki_shaped: bool,
}

/// Every string of `position`, in board order (by their lowest point).
fn board_strings(position: &Position) -> Vec<BoardString> {
    let mut seen = Bitboard::EMPTY;
    let mut strings = Vec::new();
    for p in position.geometry().points() {
        let Some(color) = position.cell(p).color() else {
            continue;
        };
        if seen.contains(p) {
            continue;
        }
        let stones = position.string_stones(p);
        seen = seen.or(&stones);
        strings.push(BoardString {
            at: p,
            color,
            stones,
            seki_shaped: seki_shape(position, &stones, color),
        });
    }
    strings
}

/// How many standard errors a string's mean ownership must lie from each
/// threshold of its status before the ownership playouts may stop.
const DECIDED_ERRORS: f32 = 3.0;

/// The mean ownerships at which a string's status may change: dead,
/// seki, alive, and a wall safe or not; for a string in the shape of a
/// seki, whether the playouts are unsure of it too.
const STATUS_THRESHOLDS: [f32; 6] = [
    -DEAD_THRESHOLD,
    -SEKI_BAND,
    SEKI_BAND,
    DEAD_THRESHOLD,
    -UNSURE_OWNERSHIP,
    UNSURE_OWNERSHIP,
];

/// How many of [`STATUS_THRESHOLDS`] bear on a string not in the shape of
/// a seki.
const PLAIN_THRESHOLDS: usize = 4;

/// Whether `played` playouts' `own` is enough to judge every string: each
/// string is proven alive or dead unconditionally, or its mean ownership
/// lies [`DECIDED_ERRORS`] standard errors or more from each of the
/// [`STATUS_THRESHOLDS`] that bear on it. A playout's share of a string's
/// points it gives the owner lies in [-1, 1], so its variance is at most
/// (1 - m)(1 + m) for a mean m (Bhatia and Davis); 1 / played more keeps a
/// string every playout agreed on from looking certain. Whether the
/// playouts are sure of a string in no seki shape (`UNSURE_OWNERSHIP`) is
/// left to the estimate where it stops: it asks for reading, not another
/// status.
fn judgement_decided(
    own: &Ownership,
    played: u32,
    strings: &[BoardString],
    judge: &StaticJudge,
) -> bool {
    let n = played as f32;
    strings.iter().all(|string| {
        if judge.unconditionally_settled(string.at, string.color) {
            return true;
        }
        let mean = mean_ownership(own, &string.stones, string.color);
        let error = DECIDED_ERRORS * ((1.0 - mean * mean + 1.0 / n) / n).sqrt();
        let bearing = if string.seki_shaped {
            STATUS_THRESHOLDS.len()
        } else {
            PLAIN_THRESHOLDS
        };
        STATUS_THRESHOLDS[..bearing]
            .iter()
            .all(|threshold| (mean - threshold).abs() > error)
    })
}

/// The status of `string`, and what it rests on: static analysis settles
/// what it proves; the playouts judge the rest.
fn judge_string(
    own: &Ownership,
    judge: &mut StaticJudge,
    string: &BoardString,
) -> (StringStatus, Basis) {
    let BoardString { at: p, color, .. } = *string;
    let owned_by = |set: &Bitboard, owner: Color| mean_ownership(own, set, owner);
    // A wall string counts as safe when the playouts give its points to
    // its owner.
    let wall_safe = |wall: &Bitboard, owner: Color| owned_by(wall, owner) > DEAD_THRESHOLD;
    let mean = owned_by(&string.stones, color);
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
    fn only_strings_settled_without_playouts_are_decided_after_one() {
        let position = board(
            ".X.X.....
             XXXX.....
             .........
             .........
             ....O....
             .........
             .........
             .........
             .........",
        );
        let judge = StaticJudge::new(&position);
        let strings = board_strings(&position);
        let mut game = Game::new(position.geometry(), GameKind::Go, 7.0);
        let stones: Vec<(Point, Color)> = strings
            .iter()
            .flat_map(|string| string.stones.iter().map(|p| (p, string.color)))
            .collect();
        game.add_setup(&stones).expect("a legal board");
        let own = Ownership::estimate(&game, 1, &mut FastRng::seed_from_u64(1));
        // Black's two eyes are alive whatever one playout says.
        let black: Vec<BoardString> = board_strings(&position)
            .into_iter()
            .filter(|string| string.color == Color::Black)
            .collect();
        assert!(judgement_decided(&own, 1, &black, &judge));
        // One playout leaves White E5 within three errors of a threshold.
        assert!(!judgement_decided(&own, 1, &strings, &judge));
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
