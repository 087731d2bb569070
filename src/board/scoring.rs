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
