//! Sets of points as one `u128` (bit `row * width + col`, boards up to
//! 128 points) and the NoGo legality of points on a part of a board.

use crate::board::{Color, Point, Position};

/// Board masks for one board size.
#[derive(Clone, Copy, Debug)]
pub(super) struct Words {
    width: usize,
    /// Every point.
    all: u128,
    /// Points not in the rightmost column (may shift one place right).
    not_right: u128,
    /// Points not in the leftmost column.
    not_left: u128,
}

/// Largest board the region decision takes: a set of points is one `u128`.
pub const MAX_REGION_AREA: usize = 128;

/// The lowest point of `set` alone.
#[inline(always)]
pub(super) fn lowest(set: u128) -> u128 {
    set & set.wrapping_neg()
}

/// The points of `set`, lowest first, as bit indices.
pub(super) fn bits(mut set: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let bit = set.trailing_zeros();
            set &= set - 1;
            bit
        })
    })
}

impl Words {
    /// The masks of `position`'s board, `None` if it has over
    /// [`MAX_REGION_AREA`] points.
    pub(super) fn of(position: &Position) -> Option<Words> {
        let geometry = position.geometry();
        let (width, height) = (geometry.width(), geometry.height());
        let area = width * height;
        if area > MAX_REGION_AREA {
            return None;
        }
        let all = if area == 128 { !0 } else { (1u128 << area) - 1 };
        let left = (0..height).fold(0u128, |set, row| set | 1 << (row * width));
        let right = left << (width - 1);
        Some(Words {
            width,
            all,
            not_right: all & !right,
            not_left: all & !left,
        })
    }

    /// `color`'s stones of `position` as a word.
    pub(super) fn stones(&self, position: &Position, color: Color) -> u128 {
        let geometry = position.geometry();
        position.stones(color).iter().fold(0, |set, p| {
            let (col, row) = geometry.coords(p).expect("stones lie on the board");
            set | 1 << (row * self.width + col)
        })
    }

    /// The board point of bit `bit`.
    pub(super) fn point(&self, position: &Position, bit: u32) -> Point {
        let bit = bit as usize;
        position
            .geometry()
            .point_unchecked(bit % self.width, bit / self.width)
    }

    /// Every point of the board.
    pub(super) fn all(&self) -> u128 {
        self.all
    }

    /// Points orthogonally adjacent to some member of `set`.
    #[inline(always)]
    pub(super) fn neighbours(&self, set: u128) -> u128 {
        (((set & self.not_right) << 1)
            | ((set & self.not_left) >> 1)
            | (set << self.width)
            | (set >> self.width))
            & self.all
    }

    /// The connected part of `within` that holds `seed`.
    #[inline(always)]
    pub(super) fn flood(&self, seed: u128, within: u128) -> u128 {
        let mut set = seed & within;
        loop {
            let grown = (set | self.neighbours(set)) & within;
            if grown == set {
                return set;
            }
            set = grown;
        }
    }

    /// For the strings of `stones`, liberties counted in `empty`: those of
    /// the strings with exactly one, and those of the strings with more.
    #[inline(always)]
    fn liberty_classes(&self, stones: u128, empty: u128) -> (u128, u128) {
        let (mut atari, mut free) = (0, 0);
        let mut rest = stones;
        while rest != 0 {
            let string = self.flood(lowest(rest), stones);
            rest &= !string;
            let liberties = self.neighbours(string) & empty;
            if liberties & (liberties - 1) == 0 {
                atari |= liberties;
            } else {
                free |= liberties;
            }
        }
        (atari, free)
    }

    /// The points of `empty` legal for Black and for White, when `black`
    /// and `white` are all the stones that touch `empty` (whole strings)
    /// and every other point is a wall: a move needs an empty neighbour or
    /// a friendly string with another liberty (no suicide), and may not
    /// take an enemy string's last liberty (no capture).
    #[inline(always)]
    pub(super) fn legal(&self, black: u128, white: u128, empty: u128) -> (u128, u128) {
        let breathing = self.neighbours(empty);
        let (black_atari, black_free) = self.liberty_classes(black, empty);
        let (white_atari, white_free) = self.liberty_classes(white, empty);
        (
            empty & (breathing | black_free) & !white_atari,
            empty & (breathing | white_free) & !black_atari,
        )
    }
}
