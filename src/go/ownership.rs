//! Who owns each point: the average final owner over playouts.
//!
//! final_status_list and final_score read dead stones from this: a stone
//! is dead when the playouts mostly end with its point owned by the other
//! side.

use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;

use crate::board::{Bitboard, Color, Game, Point, Position};

use super::policy::heavy_playout;
use crate::search::{FastRng, stone_before};

/// Ownership of a stone's point, for the other side, beyond which the stone
/// counts as dead: the other side owns it in about two playouts of three
/// (measured against GNU Go's lists in docs/tuning.md).
pub const DEAD_THRESHOLD: f32 = 0.35;

/// Playouts before [`Ownership::until_decided`] first asks whether the
/// estimate is enough.
pub const FIRST_LOOK: u32 = 64;

/// Playouts between two of its later questions.
pub const LOOK_EVERY: u32 = 32;

/// Average owner of each point: +1 always Black's, -1 always White's.
#[derive(Clone, Debug, PartialEq)]
pub struct Ownership {
    /// Indexed by grid point (`Point::idx`); 0 off the board.
    values: Vec<f32>,
}

impl Ownership {
    /// Plays `playouts` playouts with the Go playout policy from the
    /// game's position and averages who owns each point at their ends.
    /// The policy answers ataris and keeps groups' eyes, so a living group
    /// stays alive in them; uniformly random moves threw away a third of
    /// a solid wall's points (a lone stone in the wall's area then counted
    /// as alive). The playouts run without the mercy rule: one it ended
    /// counted the points of the stones just captured as nobody's, so a
    /// string the opponent takes at once could count as alive.
    pub fn estimate(game: &Game, playouts: u32, rng: &mut FastRng) -> Ownership {
        Ownership::estimate_until(game, playouts, rng, &AtomicBool::new(false))
    }

    /// [`Ownership::estimate`], ending early once `stop` is set (a
    /// controller's interrupt): the average of the playouts played so far.
    pub fn estimate_until(
        game: &Game,
        playouts: u32,
        rng: &mut FastRng,
        stop: &AtomicBool,
    ) -> Ownership {
        Ownership::until_decided(game, playouts, rng, stop, false, &mut |_, _| false)
    }

    /// [`Ownership::estimate_until`] that ends once `decided` says the
    /// estimate so far is enough (asked with it and the playouts behind
    /// it after [`FIRST_LOOK`] playouts and every [`LOOK_EVERY`] after),
    /// and, if `both_sides_first`, starts every other playout with the
    /// other side to move: when judging the end of a game, who moves next
    /// after the passes is an accident of who passed last and the stones'
    /// fate must not hang on it.
    pub fn until_decided(
        game: &Game,
        playouts: u32,
        rng: &mut FastRng,
        stop: &AtomicBool,
        both_sides_first: bool,
        decided: &mut dyn FnMut(&Ownership, u32) -> bool,
    ) -> Ownership {
        // The game's own passes do not end the playouts: after the
        // opponent's pass, ours would end them before a dead stone is taken.
        let mut root = game.position().clone();
        root.forget_passes();
        let root = &root;
        let mut sums = vec![0i32; root.geometry().cells()];
        let mut scratch = root.clone();
        let max_moves = 3 * root.geometry().area() as u32;
        let last = stone_before(game, 0);
        let mut played = 0;
        while played < playouts && !stop.load(Relaxed) {
            played += 1;
            scratch.copy_from(root);
            if both_sides_first && played % 2 == 0 {
                scratch.set_to_move(root.to_move().opponent());
            }
            heavy_playout(
                &mut scratch,
                game.komi(),
                max_moves,
                u32::MAX,
                last,
                rng,
                |_, _| {},
            );
            let [black, white] = scratch.areas_with_dead(&Bitboard::EMPTY);
            for p in black.iter() {
                sums[p.idx()] += 1;
            }
            for p in white.iter() {
                sums[p.idx()] -= 1;
            }
            let look = played >= FIRST_LOOK && (played - FIRST_LOOK).is_multiple_of(LOOK_EVERY);
            if look && played < playouts && decided(&Ownership::mean(&sums, played), played) {
                break;
            }
        }
        Ownership::mean(&sums, played)
    }

    /// The ownership from the owners' `sums` over `played` playouts.
    fn mean(sums: &[i32], played: u32) -> Ownership {
        let n = played.max(1) as f32;
        Ownership {
            values: sums.iter().map(|&s| s as f32 / n).collect(),
        }
    }

    /// Ownership of `p` in [-1, 1], positive for Black.
    pub fn value(&self, p: Point) -> f32 {
        self.values.get(p.idx()).copied().unwrap_or(0.0)
    }

    /// Stones of `position` whose points the playouts give to the other side.
    pub fn dead_stones(&self, position: &Position) -> Bitboard {
        let mut dead = Bitboard::EMPTY;
        for color in [Color::Black, Color::White] {
            let sign = if color == Color::Black { 1.0 } else { -1.0 };
            for p in position.stones(color).iter() {
                if sign * self.value(p) < -DEAD_THRESHOLD {
                    dead.set(p);
                }
            }
        }
        dead
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;
    use rand_xoshiro::rand_core::SeedableRng;

    #[test]
    fn an_estimate_ends_once_it_is_decided() {
        let game = Game::new(
            Position::from_text(".....\n.....\n.....\n.....\n.....", GameKind::Go)
                .expect("a board")
                .geometry(),
            GameKind::Go,
            7.0,
        );
        let stop = AtomicBool::new(false);
        let mut asked = Vec::new();
        let mut rng = FastRng::seed_from_u64(3);
        let mut never = |_: &Ownership, played: u32| {
            asked.push(played);
            false
        };
        Ownership::until_decided(&game, 200, &mut rng, &stop, true, &mut never);
        assert_eq!(asked, [64, 96, 128, 160, 192]);
        let mut asked = Vec::new();
        let mut at_96 = |_: &Ownership, played: u32| {
            asked.push(played);
            played == 96
        };
        let decided = Ownership::until_decided(&game, 200, &mut rng, &stop, true, &mut at_96);
        assert_eq!(asked, [64, 96]);
        // A mean over 96 playouts: a multiple of 1/96 at every point.
        let centre = game.geometry().point_unchecked(2, 2);
        let sum = decided.value(centre) * 96.0;
        assert!((sum - sum.round()).abs() < 1e-3);
    }
}
