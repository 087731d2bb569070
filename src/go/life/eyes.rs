//! Small eye spaces and their vital points.
//!
//! An eye space of a colour is one of its regions (a maximal connected set
//! of points without its stones, as in Benson's algorithm) small enough
//! that who plays where inside decides whether it makes one eye or two.
//! The classic killing shapes have one point that touches more of the
//! space than any other: the middle of a straight three, the bend of a
//! bent three, the centre of a pyramid four, a bulky or crossed five and
//! a rabbity six. That point is vital to both sides: the owner's move
//! there makes two eyes, the opponent's leaves one. Shapes without a
//! single such point (straight and bent four, which live anyway; the
//! square four, which is dead anyway) have no vital point here.

use crate::board::{Bitboard, Color, Point, Position};

use super::benson::pass_alive;

/// Sizes of eye space (points, the opponent's stones inside included)
/// whose shape decides between one eye and two.
const EYE_SPACE_SIZES: std::ops::RangeInclusive<u32> = 3..=6;

/// The vital points of the eye spaces of both colours: regions of three
/// to six points around strings not unconditionally alive already.
pub fn vital_points(position: &Position) -> Vec<Point> {
    [Color::Black, Color::White]
        .into_iter()
        .flat_map(|owner| vital_points_of(position, owner))
        .collect()
}

/// [`vital_points`] for the eye spaces of `owner` only.
fn vital_points_of(position: &Position, owner: Color) -> Vec<Point> {
    let geometry = position.geometry();
    let board = position.board_mask();
    let own = position.stones(owner);
    let settled = pass_alive(position, owner).stones;
    let outside = board.and_not(&own);
    let mut rest = outside;
    let mut vitals = Vec::new();
    while let Some(p) = rest.first() {
        let mut seed = Bitboard::EMPTY;
        seed.set(p);
        let points = seed.flood(&outside, geometry, board);
        rest = rest.and_not(&points);
        if !EYE_SPACE_SIZES.contains(&points.count()) {
            continue;
        }
        let walls = points.dilate(geometry, board).and(&own);
        if walls.and_not(&settled).is_empty() {
            continue;
        }
        vitals.extend(vital_point(position, &points));
    }
    vitals
}

/// The empty point of `points` with the most neighbours inside them, if it
/// is the only one with that many and has at least two.
fn vital_point(position: &Position, points: &Bitboard) -> Option<Point> {
    let geometry = position.geometry();
    let degree = |p: Point| {
        geometry
            .neighbours(p)
            .into_iter()
            .filter(|&n| points.contains(n))
            .count()
    };
    let most = points.iter().map(degree).max()?;
    let mut tops = points.iter().filter(|&p| degree(p) == most);
    let top = tops.next()?;
    let unique = tops.next().is_none();
    (unique && most >= 2 && position.empty_mask().contains(top)).then_some(top)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;

    fn vitals(text: &str, owner: Color) -> Vec<(usize, usize)> {
        let position = Position::from_text(text, GameKind::Go).expect("a board");
        let geometry = position.geometry();
        vital_points_of(&position, owner)
            .into_iter()
            .filter_map(|p| geometry.coords(p))
            .collect()
    }

    #[test]
    fn the_classic_shapes_have_their_vital_points() {
        // Bottom-left, a bent three (A2 A1 B1): the bend A1. Bottom-right,
        // a bulky five (F1 G1 H1 G2 H2): G1 touches three of it. One real
        // eye (D2 D1) leaves the group short of unconditional life.
        let board = ".........
                     .........
                     .........
                     .........
                     .........
                     OO.......
                     OOOOOOOOO
                     .OO.OO..O
                     ..O.O...O";
        let mut found = vitals(board, Color::White);
        found.sort();
        assert_eq!(found, vec![(0, 0), (6, 0)]);
    }

    #[test]
    fn straight_and_square_fours_have_none_and_living_groups_are_skipped() {
        let straight_four = ".........
                              .........
                              .........
                              .........
                              .........
                              .........
                              OOOOOOOOO
                              OOOOO....
                              ....O....";
        assert!(vitals(straight_four, Color::White).is_empty());
        let square_four = ".........
                            .........
                            .........
                            .........
                            .........
                            .........
                            OOOOOOOOO
                            ..OOO....
                            ..O......";
        assert!(vitals(square_four, Color::White).is_empty());
        // A pyramid four (E1 F1 G1 F2) beside two real eyes (B3, D3) is
        // no eye space: the group is alive unconditionally.
        let settled = ".........
                       .........
                       .........
                       .........
                       .........
                       OOOOO....
                       O.O.OOOOO
                       OOOOO.OOO
                       OOOO...OO";
        assert!(vitals(settled, Color::White).is_empty());
        let unsettled = settled.replacen("O.O.OOOOO", "O.OOOOOOO", 1);
        assert_eq!(vitals(&unsettled, Color::White), vec![(5, 0)]);
    }

    #[test]
    fn a_stone_on_the_vital_point_leaves_none_to_take() {
        // Straight three A1 B1 C1 with Black on B1.
        let board = ".........
                     .........
                     .........
                     .........
                     .........
                     .........
                     XXXXX....
                     OOOOX....
                     .X.OX....";
        assert!(vitals(board, Color::White).is_empty());
    }
}
