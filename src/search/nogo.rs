//! NoGo knowledge: a static evaluation, tree priors and a playout policy.
//!
//! After Liang, Xie et al., "UCT算法在不围棋博弈中的实现" (2015): a
//! position is scored by counting, for each side, its eyes (眼: empty
//! points where an enemy stone would be suicide), its tiger mouths (虎口:
//! points where an enemy stone would have a single liberty, one step from
//! an eye) and its forbidden points (禁入点: points where its own stone
//! would take the enemy's last liberty, a capture, so it may not play). The
//! paper gives no weights; the constants below are those of a secondary
//! account (10, 3, -5), untuned.
//!
//! In NoGo the eyes are best read as "safe points": legal for a side and
//! illegal for the other. A point that turns illegal never turns legal
//! again (liberties only shrink, nothing is ever captured), so safe points
//! are moves in reserve, and the game is won by whoever has moves left.

use crate::board::{BoardError, Cell, Color, Point, Position};

use super::playout::{FastRng, PlayoutResult, below, play_out};

/// Score of a point only the side can play (an eye in the paper's sense).
pub const EYE_WEIGHT: i32 = 10;
/// Score of a tiger mouth: an enemy stone there would be in atari.
pub const TIGER_MOUTH_WEIGHT: i32 = 3;
/// Score of a forbidden point: the side's stone there would capture.
pub const FORBIDDEN_WEIGHT: i32 = -5;

/// Evaluation units per unit of prior win rate: a move worth one eye is
/// seeded at 50% + 10 / 40 = 75%.
const PRIOR_SCALE: f64 = 40.0;
/// Prior win rates stay within 50% ± this.
const PRIOR_SPREAD: f64 = 0.4;

/// How the two sides see one empty point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PointView {
    legal_for_side: bool,
    legal_for_other: bool,
}

/// Whether an enemy stone on the empty point `p` would have exactly one
/// liberty and no enemy neighbour: three sides are the side's stones or
/// the edge, one is empty.
fn is_tiger_mouth(position: &Position, p: Point, side: Color) -> bool {
    let mut empty = 0;
    for n in position.geometry().neighbours(p) {
        match position.cell(n) {
            Cell::Empty => empty += 1,
            Cell::Border => {}
            cell if cell == side.cell() => {}
            _ => return false,
        }
    }
    empty == 1
}

/// The paper's S(N) for `color` minus the same for its opponent.
///
/// Eyes are counted as safe points (legal for `color`, illegal for the
/// opponent); tiger mouths only where both may still play; forbidden points
/// are those where `color`'s move would capture.
pub fn evaluate(position: &Position, color: Color) -> i32 {
    let other = color.opponent();
    let mut score = 0;
    for &p in position.empty_points() {
        let p = Point(p);
        let view = PointView {
            legal_for_side: position.is_legal_empty(p, color),
            legal_for_other: position.is_legal_empty(p, other),
        };
        match (view.legal_for_side, view.legal_for_other) {
            (true, false) => score += EYE_WEIGHT,
            (false, true) => score -= EYE_WEIGHT,
            (true, true) => {
                if is_tiger_mouth(position, p, color) {
                    score += TIGER_MOUTH_WEIGHT;
                }
                if is_tiger_mouth(position, p, other) {
                    score -= TIGER_MOUTH_WEIGHT;
                }
            }
            (false, false) => {}
        }
        if !view.legal_for_side && position.check_move(p, color) == Err(BoardError::NoGoCapture) {
            score += FORBIDDEN_WEIGHT;
        }
        if !view.legal_for_other && position.check_move(p, other) == Err(BoardError::NoGoCapture) {
            score -= FORBIDDEN_WEIGHT;
        }
    }
    score
}

/// A local estimate of how much `mover`'s stone on `p` changes
/// [`evaluate`] for `mover`: only `p`, its empty neighbours and the strings
/// it touches are looked at (no copy of the board, no full recount).
///
/// - Spending a point the opponent could not take anyway loses an eye.
/// - An empty neighbour that the move closes off on every side becomes an
///   eye; one left with a single empty side becomes a tiger mouth.
///
/// Atari effects on the strings the move touches (the paper's forbidden
/// points) are left out: measured, they made the priors worse.
pub fn move_gain(position: &Position, p: Point, mover: Color) -> i32 {
    let g = position.geometry();
    let other = mover.opponent();
    let mut gain = 0;
    if !position.is_legal_empty(p, other) {
        gain -= EYE_WEIGHT;
    }
    for q in g.neighbours(p) {
        if position.cell(q) != Cell::Empty {
            continue;
        }
        let (mut own, mut enemy, mut empty) = (0, 0, 0);
        for r in g.neighbours(q) {
            match position.cell(r) {
                Cell::Empty if r != p => empty += 1,
                Cell::Empty | Cell::Border => own += 1,
                cell if cell == mover.cell() => own += 1,
                _ => enemy += 1,
            }
        }
        if enemy == 0 && empty == 0 && own == 4 && position.is_legal_empty(q, other) {
            gain += EYE_WEIGHT;
        } else if enemy == 0 && empty == 1 {
            gain += TIGER_MOUTH_WEIGHT;
        }
    }
    gain
}

/// Prior knowledge for the tree node of `mover`'s move on `p`: virtual
/// playouts and virtual wins in half points. `even` is the search's
/// neutral prior (`prior_even`): the move gets `even` virtual playouts at a
/// win rate of 50% moved by [`move_gain`].
pub fn prior(position: &Position, p: Point, mover: Color, even: u32) -> (u16, u32) {
    let gain = move_gain(position, p, mover) as f64;
    let rate = 0.5 + (gain / PRIOR_SCALE).clamp(-PRIOR_SPREAD, PRIOR_SPREAD);
    let visits = even.min(u16::MAX as u32);
    let wins = (rate * 2.0 * visits as f64).round() as u32;
    (visits as u16, wins)
}

/// A NoGo playout with the mover preferring, in this order: points both
/// sides may play (taking one from the opponent), then its own safe points
/// that are not single-point eyes, then its eyes. Ends when the side to
/// move has no legal move (it loses) or after `max_moves` (no winner).
pub fn nogo_playout(
    position: &mut Position,
    max_moves: u32,
    rng: &mut FastRng,
    on_move: impl FnMut(Point, Color),
) -> PlayoutResult {
    play_out(
        position,
        0.0,
        max_moves,
        None,
        |position, mover, _| policy_move(position, mover, rng),
        on_move,
    )
}

/// The playout's move: a uniformly drawn contested point if any, else a
/// safe point that is not an eye, else an eye; `None` if nothing is legal.
#[inline(always)]
fn policy_move(position: &mut Position, mover: Color, rng: &mut FastRng) -> Option<Point> {
    let other = mover.opponent();
    let mut live = position.empty_points().len();
    let (mut safe, mut eye) = (None, None);
    while live > 0 {
        let slot = below(rng, live);
        let p = Point(position.empty_points()[slot]);
        if position.is_legal_empty(p, mover) {
            if position.is_legal_empty(p, other) {
                return Some(p);
            }
            if is_single_point_eye(position, p, mover) {
                eye.get_or_insert(p);
            } else {
                safe.get_or_insert(p);
            }
        }
        live -= 1;
        position.swap_empties(slot, live);
    }
    safe.or(eye)
}

/// Every neighbour of `p` is `color`'s stone or the edge.
#[inline(always)]
fn is_single_point_eye(position: &Position, p: Point, color: Color) -> bool {
    position
        .geometry()
        .neighbours(p)
        .into_iter()
        .all(|n| matches!(position.cell(n), Cell::Border) || position.cell(n) == color.cell())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;
    use rand_xoshiro::rand_core::SeedableRng;

    fn nogo(text: &str) -> Position {
        Position::from_text(text, GameKind::NoGo).unwrap()
    }

    #[test]
    fn an_eye_counts_for_its_owner() {
        // Black's corner point A1 is illegal for White (suicide).
        let position = nogo(
            "....
             ....
             X...
             .X..",
        );
        let score = evaluate(&position, Color::Black);
        assert!(score >= EYE_WEIGHT, "{score}");
        assert_eq!(evaluate(&position, Color::White), -score);
    }

    #[test]
    fn empty_board_is_even() {
        let position = Position::new(crate::board::Geometry::square(5).unwrap(), GameKind::NoGo);
        assert_eq!(evaluate(&position, Color::Black), 0);
    }

    #[test]
    fn closing_an_eye_beats_filling_one() {
        let position = nogo(
            ".X...
             .....
             .....
             X....
             .X...",
        );
        let g = position.geometry();
        // A4 closes the corner eye at A5; A1 fills Black's own eye.
        let close = move_gain(&position, g.point(0, 3).unwrap(), Color::Black);
        let fill = move_gain(&position, g.point(0, 0).unwrap(), Color::Black);
        assert!(close > fill, "{close} {fill}");
        let (visits, wins) = prior(&position, g.point(0, 3).unwrap(), Color::Black, 10);
        assert!(wins > visits as u32, "{visits} {wins}");
    }

    #[test]
    fn playouts_end_with_a_side_out_of_moves() {
        let root = Position::new(crate::board::Geometry::square(9).unwrap(), GameKind::NoGo);
        let mut rng = FastRng::seed_from_u64(1);
        for _ in 0..50 {
            let mut position = root.clone();
            let mut played = 0;
            let result = nogo_playout(&mut position, 300, &mut rng, |_, _| played += 1);
            let loser = position.to_move();
            assert_eq!(result.winner, Some(loser.opponent()));
            assert!(!position.has_legal_move(loser));
            assert_eq!(result.moves, played);
        }
    }
}
