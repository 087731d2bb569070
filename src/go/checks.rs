//! The tactical checks of one candidate Go move that both the learned
//! features and the hand-made priors ask (self-atari, a hopeless escape,
//! an atari that starts a ladder), each run at most once: the ladder
//! reads behind the last two are the dearest part of an expansion.

use std::cell::Cell;

use crate::board::{Color, LibertyMemo, Point, Position};

use super::tactics::{atari_starts_ladder, escape_is_hopeless};

/// One candidate move in one position, with the answers asked so far.
pub struct MoveChecks<'a> {
    /// The position the move would be played in.
    pub position: &'a Position,
    /// The move: a legal empty point.
    pub point: Point,
    /// The side that would play it.
    pub mover: Color,
    /// Liberty counts of the position's strings, shared by all candidates.
    pub liberties: &'a LibertyMemo,
    /// Whether the move leaves its own string in atari, once asked.
    self_atari: Cell<Option<bool>>,
    /// Whether the move is a killing sacrifice, once asked.
    nakade_sacrifice: Cell<Option<bool>>,
    /// Whether the move only runs into a capture, once asked.
    hopeless_escape: Cell<Option<bool>>,
    /// By neighbour, in [`crate::board::Geometry::neighbours`] order:
    /// whether the move ataris that enemy string into a working ladder,
    /// once asked.
    ladder_ataris: [Cell<Option<bool>>; 4],
}

impl<'a> MoveChecks<'a> {
    /// Nothing asked yet about `mover` playing `point` in `position`, whose
    /// liberties `liberties` counts.
    pub fn new(
        position: &'a Position,
        point: Point,
        mover: Color,
        liberties: &'a LibertyMemo,
    ) -> MoveChecks<'a> {
        MoveChecks {
            position,
            point,
            mover,
            liberties,
            self_atari: Cell::new(None),
            nakade_sacrifice: Cell::new(None),
            hopeless_escape: Cell::new(None),
            ladder_ataris: [const { Cell::new(None) }; 4],
        }
    }

    /// [`Position::is_self_atari`] of the move.
    pub fn is_self_atari(&self) -> bool {
        remember(&self.self_atari, || {
            self.position.is_self_atari(self.point, self.mover)
        })
    }

    /// A self-atari that is not [`Position::is_nakade_sacrifice`]: one
    /// that only loses stones.
    pub fn is_bad_self_atari(&self) -> bool {
        self.is_self_atari() && !self.is_nakade_sacrifice()
    }

    /// A self-atari that is [`Position::is_nakade_sacrifice`]: it kills.
    pub fn is_killing_sacrifice(&self) -> bool {
        self.is_self_atari() && self.is_nakade_sacrifice()
    }

    fn is_nakade_sacrifice(&self) -> bool {
        remember(&self.nakade_sacrifice, || {
            self.position.is_nakade_sacrifice(self.point, self.mover)
        })
    }

    /// [`escape_is_hopeless`] of the move.
    pub fn escape_is_hopeless(&self) -> bool {
        remember(&self.hopeless_escape, || {
            escape_is_hopeless(self.position, self.point, self.mover)
        })
    }

    /// [`atari_starts_ladder`] against the string on neighbour `k` of the
    /// move (an enemy string with two liberties).
    pub fn atari_starts_ladder(&self, k: usize) -> bool {
        remember(&self.ladder_ataris[k], || {
            let target = self.position.geometry().neighbours(self.point)[k];
            atari_starts_ladder(self.position, self.point, self.mover, target)
        })
    }
}

/// The answer in `slot`, computed by `ask` the first time.
fn remember(slot: &Cell<Option<bool>>, ask: impl FnOnce() -> bool) -> bool {
    if let Some(answer) = slot.get() {
        return answer;
    }
    let answer = ask();
    slot.set(Some(answer));
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GameKind, Geometry};
    use crate::search::{FastRng, light_playout};
    use rand_xoshiro::rand_core::SeedableRng;

    /// Every answer, asked twice, is what the check itself says, on
    /// positions cut from random playouts.
    #[test]
    fn remembered_answers_match_the_checks() {
        let mut rng = FastRng::seed_from_u64(9);
        let root = Position::new(Geometry::square(9).unwrap(), GameKind::Go);
        let mut ladder_reads = 0;
        for k in 0..60u32 {
            let mut position = root.clone();
            light_playout(&mut position, 7.0, k * 2, &mut rng);
            let mover = position.to_move();
            let liberties = LibertyMemo::new(&position);
            for &p in position.empty_points() {
                let p = Point(p);
                if !position.is_legal_empty(p, mover) {
                    continue;
                }
                let checks = MoveChecks::new(&position, p, mover, &liberties);
                for _ in 0..2 {
                    assert_eq!(checks.is_self_atari(), position.is_self_atari(p, mover));
                    assert_eq!(
                        checks.escape_is_hopeless(),
                        escape_is_hopeless(&position, p, mover)
                    );
                    for (k, n) in position.geometry().neighbours(p).into_iter().enumerate() {
                        if position.cell(n) == mover.opponent().cell()
                            && liberties.liberties(&position, n) == 2
                        {
                            assert_eq!(
                                checks.atari_starts_ladder(k),
                                atari_starts_ladder(&position, p, mover, n)
                            );
                            ladder_reads += 1;
                        }
                    }
                }
            }
        }
        assert!(ladder_reads > 100, "only {ladder_reads} ladder questions");
    }
}
