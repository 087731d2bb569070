//! Area scoring (Tromp–Taylor), with or without a set of dead stones.

use super::{Bitboard, Color, Position};

/// Area of each side: its stones plus the empty points that reach only its
/// stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaScore {
    pub black: u32,
    pub white: u32,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// The winner and the margin (0 for a NoGo win).
    Win(Color, f32),
    Draw,
}

impl AreaScore {
    /// Black's area minus White's minus komi: positive when Black wins.
    pub fn margin(self, komi: f32) -> f32 {
        self.black as f32 - self.white as f32 - komi
    }

    /// Who wins with this komi.
    pub fn outcome(self, komi: f32) -> Outcome {
        let margin = self.margin(komi);
        if margin > 0.0 {
            Outcome::Win(Color::Black, margin)
        } else if margin < 0.0 {
            Outcome::Win(Color::White, -margin)
        } else {
            Outcome::Draw
        }
    }
}

impl Position {
    /// Tromp–Taylor area score of the board as it stands.
    pub fn area_score(&self) -> AreaScore {
        // A finished light playout leaves only isolated empty points, which
        // the neighbour counts score without a flood fill.
        if let Some([black, white]) = self.isolated_empties_area() {
            return AreaScore { black, white };
        }
        self.area_score_with_dead(&Bitboard::EMPTY)
    }

    /// Area score after removing the stones in `dead`: their points count
    /// for whoever surrounds them.
    pub fn area_score_with_dead(&self, dead: &Bitboard) -> AreaScore {
        let [black, white] = self.areas_with_dead(dead);
        AreaScore {
            black: black.count(),
            white: white.count(),
        }
    }

    /// Each side's area (Black's, White's) after removing `dead` stones:
    /// its stones plus the empty points that reach only its stones.
    pub fn areas_with_dead(&self, dead: &Bitboard) -> [Bitboard; 2] {
        let g = self.geometry();
        let board = self.board_mask();
        let black = self.stones(Color::Black).and_not(dead);
        let white = self.stones(Color::White).and_not(dead);
        let empty = board.and_not(&black.or(&white));
        let reach_black = black.flood(&empty.or(&black), g, board).and(&empty);
        let reach_white = white.flood(&empty.or(&white), g, board).and(&empty);
        [
            black.or(&reach_black.and_not(&reach_white)),
            white.or(&reach_white.and_not(&reach_black)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GameKind, Geometry, Point};
    use crate::search::{FastRng, light_playout};
    use rand_xoshiro::rand_core::SeedableRng;

    /// The shortcut for isolated empty points agrees with the flood fill,
    /// at the end of playouts and in positions cut off early.
    #[test]
    fn isolated_empties_score_matches_flood_fill() {
        let mut rng = FastRng::seed_from_u64(7);
        for (w, h) in [
            (1, 1),
            (1, 2),
            (2, 2),
            (3, 3),
            (5, 4),
            (9, 9),
            (13, 13),
            (19, 19),
        ] {
            let g = Geometry::new(w, h).unwrap();
            let root = Position::new(g, GameKind::Go);
            for k in 0..200 {
                let mut position = root.clone();
                let max_moves = if k % 2 == 0 {
                    3 * g.area() as u32
                } else {
                    k as u32 % 40
                };
                light_playout(&mut position, 7.0, max_moves, &mut rng);
                let flood = position.area_score_with_dead(&Bitboard::EMPTY);
                assert_eq!(position.area_score(), flood, "{w}x{h} playout {k}");
            }
            // A lone stone on an otherwise empty board owns it all.
            if g.area() > 1 {
                let mut position = root.clone();
                position.play(Point(g.stride() as u16 + 1), Color::Black);
                assert_eq!(position.area_score().black, g.area() as u32);
            }
        }
    }
}
