//! Benson's unconditional life (1976): the strings of one colour that no
//! sequence of opponent moves can capture, even if their owner never
//! answers, and the small regions they enclose.
//!
//! A region of a colour is a maximal connected set of points without its
//! stones (empty points and opponent stones). It is vital to one of the
//! colour's strings when every empty point of the region is a liberty of
//! that string. Start with every string and every region; repeatedly drop
//! the strings with fewer than two vital regions among the regions left,
//! and the regions that touch a dropped string. What remains is alive.

use crate::board::{Bitboard, Color, Position};

/// One string of the colour analysed.
struct Chain {
    stones: Bitboard,
    liberties: Bitboard,
}

/// One region of the colour analysed.
struct Region {
    points: Bitboard,
    /// Indices of the chains touching the region.
    borders: Vec<usize>,
    /// Indices of the chains the region is vital to.
    vital_to: Vec<usize>,
}

/// What Benson's algorithm finds for one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassAlive {
    /// Stones of the unconditionally alive strings.
    pub stones: Bitboard,
    /// Points of the regions enclosed by alive strings and vital to one
    /// of them. The opponent can never make an eye there (every empty
    /// point touches a string that cannot be captured), so its stones
    /// there are dead, and the points are the colour's for good.
    pub vital_regions: Bitboard,
}

/// The strings of `color` in `position` that are alive unconditionally,
/// with the regions that make them so.
pub fn pass_alive(position: &Position, color: Color) -> PassAlive {
    pass_alive_within(position, color, position.board_mask())
}

/// [`pass_alive`] for the strings of `color` inside `area` only, with the
/// regions inside it: a region that reaches past `area` counts as vital to
/// none (the reader asks this of a small enclosed area, whose way out is
/// the opponent's wall).
pub fn pass_alive_within(position: &Position, color: Color, area: &Bitboard) -> PassAlive {
    let chains = chains_of(position, color, area);
    let regions = regions_of(position, color, &chains, area);
    let mut chain_alive = vec![true; chains.len()];
    let mut region_usable = vec![true; regions.len()];
    loop {
        let mut vital_counts = vec![0u32; chains.len()];
        for (region, _) in regions.iter().zip(&region_usable).filter(|(_, u)| **u) {
            for &chain in &region.vital_to {
                vital_counts[chain] += 1;
            }
        }
        let mut changed = false;
        for (alive, &count) in chain_alive.iter_mut().zip(&vital_counts) {
            if *alive && count < 2 {
                *alive = false;
                changed = true;
            }
        }
        for (usable, region) in region_usable.iter_mut().zip(&regions) {
            if *usable && region.borders.iter().any(|&c| !chain_alive[c]) {
                *usable = false;
            }
        }
        if !changed {
            break;
        }
    }
    let mut result = PassAlive {
        stones: Bitboard::EMPTY,
        vital_regions: Bitboard::EMPTY,
    };
    for (chain, _) in chains.iter().zip(&chain_alive).filter(|(_, a)| **a) {
        result.stones = result.stones.or(&chain.stones);
    }
    for (region, _) in regions.iter().zip(&region_usable).filter(|(_, u)| **u) {
        if !region.vital_to.is_empty() {
            result.vital_regions = result.vital_regions.or(&region.points);
        }
    }
    result
}

/// Every string of `color` in `area`, in board order.
fn chains_of(position: &Position, color: Color, area: &Bitboard) -> Vec<Chain> {
    let mut rest = position.stones(color).and(area);
    let mut chains = Vec::new();
    while let Some(p) = rest.first() {
        let stones = position.string_stones(p);
        rest = rest.and_not(&stones);
        chains.push(Chain {
            stones,
            liberties: position.string_liberties(p),
        });
    }
    chains
}

/// Every region of `color` in `area`, with the chains it touches and those
/// it is vital to.
fn regions_of(position: &Position, color: Color, chains: &[Chain], area: &Bitboard) -> Vec<Region> {
    let geometry = position.geometry();
    let board = position.board_mask();
    let outside = area.and_not(&position.stones(color));
    let beyond = board.and_not(area);
    let empty = position.empty_mask();
    let mut rest = outside;
    let mut regions = Vec::new();
    while let Some(p) = rest.first() {
        let mut seed = Bitboard::EMPTY;
        seed.set(p);
        let points = seed.flood(&outside, geometry, board);
        rest = rest.and_not(&points);
        let rim = points.dilate(geometry, board);
        let region_empty = points.and(&empty);
        let borders: Vec<usize> = (0..chains.len())
            .filter(|&c| chains[c].stones.intersects(&rim))
            .collect();
        let vital_to = if rim.intersects(&beyond) {
            Vec::new()
        } else {
            borders
                .iter()
                .copied()
                .filter(|&c| region_empty.and_not(&chains[c].liberties).is_empty())
                .collect()
        };
        regions.push(Region {
            points,
            borders,
            vital_to,
        });
    }
    regions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GameKind, Point};

    fn position(text: &str) -> Position {
        Position::from_text(text, GameKind::Go).expect("a board")
    }

    fn points(position: &Position, set: &Bitboard) -> Vec<String> {
        let g = position.geometry();
        set.iter()
            .map(|p: Point| {
                let (col, row) = g.coords(p).expect("on the board");
                crate::board::vertex::format_vertex(crate::board::vertex::Vertex::Point {
                    col,
                    row,
                })
            })
            .collect()
    }

    #[test]
    fn two_eyes_make_life() {
        let p = position(
            ". X . X O . .
             X X X X O . .
             O O O O O . .
             . . . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        );
        let black = pass_alive(&p, Color::Black);
        assert_eq!(black.stones.count(), 6);
        assert_eq!(points(&p, &black.vital_regions), vec!["A7", "C7"]);
        // White's regions are Black's corner and the open board, vital to
        // none of its stones.
        let white = pass_alive(&p, Color::White);
        assert!(white.stones.is_empty());
        assert!(white.vital_regions.is_empty());
    }

    #[test]
    fn one_eye_of_two_points_is_not_life() {
        let p = position(
            ". . X O . . .
             X X X O . . .
             O O O O . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        );
        let black = pass_alive(&p, Color::Black);
        assert!(black.stones.is_empty());
        assert!(black.vital_regions.is_empty());
    }

    #[test]
    fn strings_that_share_their_eyes_live_together() {
        // The lone stone B7 and the big string share the eyes A7, C7, B6.
        let p = position(
            ". X . X O
             X . X X O
             X X X X O
             O O O O O
             . . . . .",
        );
        let black = pass_alive(&p, Color::Black);
        assert_eq!(black.stones.count(), 9);
        assert_eq!(points(&p, &black.vital_regions), vec!["B4", "A5", "C5"]);
    }

    #[test]
    fn an_opponent_stone_inside_an_eye_is_in_a_vital_region() {
        let p = position(
            "X . O X . X O
             X X X X X X O
             O O O O O O O
             . . . . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        );
        let black = pass_alive(&p, Color::Black);
        assert_eq!(black.stones.count(), 9);
        assert_eq!(points(&p, &black.vital_regions), vec!["B7", "C7", "E7"]);
    }

    #[test]
    fn a_wall_with_one_big_region_is_not_unconditionally_alive() {
        // Benson needs two vital regions: a wall enclosing one big area
        // (the seed's lone-stone corridor) is left to other judges.
        let p = position(
            ". . X O . . .
             . . X O . . .
             . . X O . X .
             O . X O . . .
             . . X O . . .
             . . X O . . .
             . . X O . . .",
        );
        assert!(pass_alive(&p, Color::Black).stones.is_empty());
        assert!(pass_alive(&p, Color::White).stones.is_empty());
    }
}
