//! Learned NoGo move features, after Coulom's "Computing Elo ratings of
//! move patterns" (2007), with NoGo's own notion of a point.
//!
//! In NoGo what matters about an empty point is who may still play it
//! (a point legal for one side only is a move in reserve, and legality
//! never comes back), and about a string how many liberties it has (a
//! string in atari makes its liberty illegal for the other side). So every
//! point is read as one of [`CLASSES`] classes seen from the mover, and a
//! move is described by one level in each of [`GROUPS`] groups: the
//! classes of its eight neighbours (the shape), whether it spends a point
//! in reserve, its string's liberties after it, the seed's evaluation gain
//! ([`move_gain`]), its distances to the last two moves, and its line.
//! Each level has a strength (`gamma`, see `gammas`); a move's strength is
//! their product.

use crate::board::{
    Cell, Color, Geometry, LibertyMemo, MAX_POINTS, Point, Position, ring_symmetries,
};
use crate::search::domain::RecentMoves;

#[cfg(doc)]
use super::policy::move_gain;
use super::policy::{EYE_WEIGHT, TIGER_MOUTH_WEIGHT};

/// The feature groups, in the order of a [`NogoFeatures`] array.
pub const GROUPS: usize = 7;
/// Group names, as the gamma table writes them.
pub const GROUP_NAMES: [&str; GROUPS] = [
    "shape",
    "reserve",
    "liberties",
    "gain",
    "distance",
    "distance_before",
    "line",
];
/// Index of the shape group; its level is a raw code (see [`NogoRating::features`]).
pub const SHAPE: usize = 0;
const RESERVE: usize = 1;
const LIBERTIES: usize = 2;
const GAIN: usize = 3;
const DISTANCE: usize = 4;
const DISTANCE_BEFORE: usize = 5;
const LINE: usize = 6;
/// Levels of each group but the shape.
pub const LEVELS: [usize; GROUPS] = [0, 2, 3, 8, 7, 7, 5];

/// The level of a move in each group.
pub type NogoFeatures = [u32; GROUPS];

/// Point classes seen from the mover, 4 bits each in a shape code: off the
/// board; empty and legal for both, for the mover only, for the opponent
/// only, for neither; a mover's stone whose string has 1, 2, 3 or more
/// liberties; the same for the opponent.
pub const CLASSES: u32 = 11;
const OFF_BOARD: u8 = 0;
const EMPTY_BOTH: u8 = 1;
const EMPTY_MOVER: u8 = 2;
const EMPTY_OPPONENT: u8 = 3;
const EMPTY_NEITHER: u8 = 4;
const MOVER_STONE: u8 = 5;
const OPPONENT_STONE: u8 = 8;

/// Bits of a shape code for one neighbour.
pub const CLASS_BITS: u32 = 4;

/// The classes of every point of a position, seen by the side to move, and
/// the recent moves: what the features of all its moves share.
pub struct NogoRating {
    mover: Color,
    geometry: Geometry,
    classes: [u8; MAX_POINTS],
    recent: RecentMoves,
}

impl NogoRating {
    /// The classes of `position`'s points for its side to move.
    pub fn new(position: &Position, recent: RecentMoves) -> NogoRating {
        let mover = position.to_move();
        let geometry = position.geometry();
        let mut classes = [OFF_BOARD; MAX_POINTS];
        let liberties = LibertyMemo::new(position);
        for p in geometry.points() {
            classes[p.idx()] = match position.cell(p) {
                Cell::Empty => empty_class(position.nogo_legality(p), mover),
                cell => {
                    let base = if cell == mover.cell() {
                        MOVER_STONE
                    } else {
                        OPPONENT_STONE
                    };
                    base + liberties.liberties(position, p).clamp(1, 3) as u8 - 1
                }
            };
        }
        NogoRating {
            mover,
            geometry,
            classes,
            recent,
        }
    }

    /// The features of the mover's legal move on the empty point `p`.
    pub fn features(&self, position: &Position, p: Point) -> NogoFeatures {
        let mut features = [0; GROUPS];
        features[SHAPE] = self.shape_code(p);
        features[RESERVE] = u32::from(self.classes[p.idx()] == EMPTY_MOVER);
        features[LIBERTIES] = self.liberties_level(position, p);
        features[GAIN] = gain_level(self.move_gain(p));
        features[DISTANCE] = self.distance_level(p, self.recent.last);
        features[DISTANCE_BEFORE] = self.distance_level(p, self.recent.before_last);
        let coords = self.geometry.coords(p).unwrap_or((0, 0));
        features[LINE] = self.geometry.line(coords).min(LEVELS[LINE] - 1) as u32;
        features
    }

    /// The mover's liberties after playing `p`, 1 to 3 or more, as levels
    /// 0 to 2. Three empty neighbours settle it without a walk.
    fn liberties_level(&self, position: &Position, p: Point) -> u32 {
        let empty = self
            .geometry
            .neighbours(p)
            .iter()
            .filter(|n| (EMPTY_BOTH..=EMPTY_NEITHER).contains(&self.classes[n.idx()]))
            .count();
        if empty >= 3 {
            return 2;
        }
        position.quiet_move_liberties(p, self.mover).clamp(1, 3) as u32 - 1
    }

    /// The seed's evaluation gain of the move on `p` ([`move_gain`]), read
    /// from the classes: spending a point the opponent may not play loses
    /// an eye; an empty neighbour the move closes off on every side (by
    /// the mover's stones, the edge and `p`) becomes an eye if the
    /// opponent could still play it, one left with a single empty side a
    /// tiger mouth.
    fn move_gain(&self, p: Point) -> i32 {
        let mut gain = 0;
        if self.classes[p.idx()] == EMPTY_MOVER {
            gain -= EYE_WEIGHT;
        }
        for q in self.geometry.neighbours(p) {
            let class = self.classes[q.idx()];
            if !(EMPTY_BOTH..=EMPTY_NEITHER).contains(&class) {
                continue;
            }
            let (mut enemy, mut empty) = (0, 0);
            for r in self.geometry.neighbours(q) {
                match self.classes[r.idx()] {
                    _ if r == p => {}
                    EMPTY_BOTH..=EMPTY_NEITHER => empty += 1,
                    c if c >= OPPONENT_STONE => enemy += 1,
                    _ => {}
                }
            }
            let opponent_may_play = class == EMPTY_BOTH || class == EMPTY_OPPONENT;
            if enemy == 0 && empty == 0 && opponent_may_play {
                gain += EYE_WEIGHT;
            } else if enemy == 0 && empty == 1 {
                gain += TIGER_MOUTH_WEIGHT;
            }
        }
        gain
    }

    /// The classes of `p`'s neighbours round the ring, 4 bits each.
    fn shape_code(&self, p: Point) -> u32 {
        self.geometry
            .ring(p)
            .iter()
            .enumerate()
            .fold(0, |code, (k, n)| {
                code | u32::from(self.classes[n.idx()]) << (CLASS_BITS * k as u32)
            })
    }

    /// Coulom's distance `dx + dy + max(dx, dy)` from `p` to `other` as a
    /// level: 1 for 2 (adjacent) up to 5 for 6, 6 for 7 or 8, 0 for none
    /// or farther.
    fn distance_level(&self, p: Point, other: Option<Point>) -> u32 {
        let Some(other) = other else {
            return 0;
        };
        let stride = self.geometry.stride();
        let (a, b) = (p.idx(), other.idx());
        let dx = (a % stride).abs_diff(b % stride);
        let dy = (a / stride).abs_diff(b / stride);
        match dx + dy + dx.max(dy) {
            d @ 2..=6 => d as u32 - 1,
            7 | 8 => 6,
            _ => 0,
        }
    }
}

/// The class of an empty point legal for Black and White as `legality` says.
fn empty_class((black, white): (bool, bool), mover: Color) -> u8 {
    let (mine, theirs) = match mover {
        Color::Black => (black, white),
        Color::White => (white, black),
    };
    match (mine, theirs) {
        (true, true) => EMPTY_BOTH,
        (true, false) => EMPTY_MOVER,
        (false, true) => EMPTY_OPPONENT,
        (false, false) => EMPTY_NEITHER,
    }
}

/// The seed's evaluation gain (multiples of its eye and tiger-mouth
/// weights) in 8 levels: spending an eye, a loss, nothing, one tiger mouth,
/// two, an eye, an eye and more, more still.
fn gain_level(gain: i32) -> u32 {
    match gain {
        ..=-10 => 0,
        -9..=-1 => 1,
        0 => 2,
        1..=5 => 3,
        6..=9 => 4,
        10..=12 => 5,
        13..=19 => 6,
        _ => 7,
    }
}

/// The eight images of a shape code under the board's symmetries, the
/// code itself first.
pub fn shape_symmetries(code: u32) -> [u32; 8] {
    const PLACES: [[u32; 8]; 8] = ring_symmetries([0, 1, 2, 3, 4, 5, 6, 7]);
    PLACES.map(|places| {
        places.iter().enumerate().fold(0, |image, (k, &from)| {
            let class = (code >> (CLASS_BITS * from)) & 0xf;
            image | class << (CLASS_BITS * k as u32)
        })
    })
}

/// The smallest of a shape code's images: one name for all of them.
pub fn canonical_shape(code: u32) -> u32 {
    shape_symmetries(code).into_iter().min().unwrap_or(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;

    fn nogo(text: &str) -> Position {
        Position::from_text(text, GameKind::NoGo).expect("a valid position")
    }

    #[test]
    fn classes_read_legality_and_liberties() {
        // White's A2 is in atari (its liberty A1): Black may not play A1
        // (a capture), White may (its string keeps B1).
        let position = nogo(". . . .\nX . . .\nO X . .\n. . . .");
        let rating = NogoRating::new(&position, RecentMoves::default());
        let g = position.geometry();
        let at = |col, row| rating.classes[g.point_unchecked(col, row).idx()];
        assert_eq!(at(0, 1), OPPONENT_STONE);
        assert_eq!(at(0, 0), EMPTY_OPPONENT);
        assert_eq!(at(1, 1), MOVER_STONE + 2);
        assert_eq!(at(0, 2), MOVER_STONE + 1);
        assert_eq!(at(3, 3), EMPTY_BOTH);
        assert_eq!(rating.classes[0], OFF_BOARD);
    }

    #[test]
    fn gain_from_classes_is_the_seeds_move_gain() {
        use crate::board::Geometry;
        use crate::nogo::policy::move_gain;
        use crate::search::playout::FastRng;
        use rand_xoshiro::rand_core::SeedableRng;
        let mut rng = FastRng::seed_from_u64(7);
        let mut compared = 0;
        for _ in 0..40 {
            let mut position = Position::new(Geometry::square(7).expect("7x7"), GameKind::NoGo);
            for _ in 0..30 {
                let rating = NogoRating::new(&position, RecentMoves::default());
                let mover = position.to_move();
                let legal: Vec<Point> = position.legal_moves(mover).iter().collect();
                if legal.is_empty() {
                    break;
                }
                for &p in &legal {
                    assert_eq!(rating.move_gain(p), move_gain(&position, p, mover));
                    let exact = position.quiet_move_liberties(p, mover).clamp(1, 3) as u32 - 1;
                    assert_eq!(rating.liberties_level(&position, p), exact);
                    compared += 1;
                }
                let pick = legal[crate::search::playout::below(&mut rng, legal.len())];
                position.play(pick, mover);
            }
        }
        assert!(compared > 10_000, "{compared}");
    }

    #[test]
    fn symmetric_shapes_share_one_name() {
        let position = nogo(". . . . .\n. . . . .\n. . B . .\n. . . . .\n. . . . .");
        let rating = NogoRating::new(&position, RecentMoves::default());
        let g = position.geometry();
        let shapes: Vec<u32> = [(1, 2), (3, 2), (2, 1), (2, 3)]
            .iter()
            .map(|&(c, r)| canonical_shape(rating.shape_code(g.point_unchecked(c, r))))
            .collect();
        assert!(shapes.iter().all(|&s| s == shapes[0]), "{shapes:x?}");
        let corner = canonical_shape(rating.shape_code(g.point_unchecked(0, 0)));
        assert_ne!(corner, shapes[0]);
    }
}
