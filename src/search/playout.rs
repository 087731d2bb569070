//! Light playouts: uniformly random legal moves to the end of the game.
//!
//! Go: the mover never fills its own single-point eye and passes when no
//! other legal move is left; two passes end the game, scored by area with
//! komi. NoGo: any legal move; the side with none loses.
//!
//! A move is drawn uniformly from the empty points not yet rejected this
//! turn: a rejected point is swapped behind the live part of the position's
//! empty list, so the draw needs no copy and no retry bias.

use std::convert::Infallible;
use std::ops::ControlFlow;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::Rng;

use crate::board::{Color, GameKind, Outcome, Point, Position};

/// The random generator of playouts: fast, seedable, reproducible.
pub type FastRng = Xoshiro256PlusPlus;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutResult {
    /// Winner, `None` for a Go draw (integer komi).
    pub winner: Option<Color>,
    /// Moves played in the playout, passes included.
    pub moves: u32,
    /// Go: Black's area minus White's minus komi at the end, or Black's lead
    /// in stones captured when the mercy rule ended the playout (0 in NoGo).
    pub margin: f32,
    /// Whether the mercy rule ended the playout (its winner then does not
    /// depend on komi).
    pub by_mercy: bool,
}

/// The mercy rule ends a playout once one side has captured this many
/// stones more than the other during it, or a sixth of the board's points
/// if that is more (20 on 9x9, 60 on 19x19). From the empty 9x9 board it
/// then stops 42% of playouts, saves 10% of their moves, and names a
/// different winner from the one the full playout finds in 1 of 10,000.
const MERCY_MIN_STONES: u32 = 20;
const MERCY_BOARD_SHARE: u32 = 6;

/// The capture lead at which the mercy rule ends a playout on a
/// board of `area` points.
pub fn mercy_stones(area: usize) -> u32 {
    MERCY_MIN_STONES.max(area as u32 / MERCY_BOARD_SHARE)
}

/// A uniform integer in `0..n` (`n` > 0), by Lemire's multiply-shift.
#[inline(always)]
pub fn below(rng: &mut FastRng, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

/// A uniform fraction in `0..1`, from 24 random bits: finer than any
/// chance worth setting.
#[inline]
pub fn unit_roll(rng: &mut FastRng) -> f64 {
    below(rng, 1 << 24) as f64 / (1 << 24) as f64
}

/// Plays `position` out with light random moves and returns the result.
/// Go playouts stop after `max_moves` (superko cycles) and are scored as
/// they stand.
pub fn light_playout(
    position: &mut Position,
    komi: f32,
    max_moves: u32,
    rng: &mut FastRng,
) -> PlayoutResult {
    light_playout_traced(position, komi, max_moves, rng, |_, _| {})
}

/// [`light_playout`], telling `on_move` every stone played (for AMAF).
#[inline(always)]
pub fn light_playout_traced(
    position: &mut Position,
    komi: f32,
    max_moves: u32,
    rng: &mut FastRng,
    on_move: impl FnMut(Point, Color),
) -> PlayoutResult {
    // A local copy of the generator can stay in registers through the
    // loop (the caller's must be written back before every call out).
    let mut local_rng = rng.clone();
    let local = &mut local_rng;
    // The rules are fixed for the whole playout: choose the move picker
    // once. It is small enough to be copied into each half of the loop
    // unrolled by colour.
    let result = match position.kind() {
        GameKind::Go => play_out::<true, true>(
            position,
            komi,
            max_moves,
            // Light playouts also estimate ownership: they play to the end.
            u32::MAX,
            None,
            #[inline(always)]
            |position, mover, _, _| random_move::<true>(position, mover, local),
            on_move,
        ),
        GameKind::NoGo => play_out::<false, true>(
            position,
            komi,
            max_moves,
            u32::MAX,
            None,
            #[inline(always)]
            |position, mover, _, _| random_move::<false>(position, mover, local),
            on_move,
        ),
    };
    *rng = local_rng;
    result
}

/// Plays a position out, `choose` picking each move of the side to move
/// given the last stone played (`None`: no move, which is a pass in Go and
/// a loss in NoGo) and the stones it captured, and tells `on_move` every stone. Go ends after two
/// passes or `max_moves` moves and is scored by area with komi; a NoGo
/// game cut off at `max_moves` has no winner. Every playout policy runs
/// on this loop but the NoGo one, which keeps the same rules in a loop
/// unrolled by colour ([`super::nogo::nogo_playout`]). `GO` must say
/// whether the position follows Go's rules (fixed at compile time so that
/// NoGo moves skip the capture code).
///
/// A Go playout also ends once one side has captured `mercy` stones more
/// than the other during it (the mercy rule): that side wins, and the
/// margin is its lead in captures. `u32::MAX` never ends one early.
///
/// With `UNROLL` the loop is unrolled by a Black-White pair, so that the
/// mover is a constant in each half: what depends on it (its cell, its
/// neighbour-count byte, its row of the eye table) is folded at compile
/// time. That pays for a small `choose` (light playouts: 2-8% faster); a
/// large one (the heavy policy) copied twice measured slower.
#[inline(always)]
pub fn play_out<const GO: bool, const UNROLL: bool>(
    position: &mut Position,
    komi: f32,
    max_moves: u32,
    mercy: u32,
    last_move: Option<Point>,
    choose: impl FnMut(&mut Position, Color, Option<Point>, u32) -> Option<Point>,
    on_move: impl FnMut(Point, Color),
) -> PlayoutResult {
    debug_assert_eq!(GO, position.kind() == GameKind::Go);
    let mut playout = Playout::<_, _, GO> {
        passes: position.consecutive_passes(),
        position,
        max_moves,
        mercy,
        choose,
        on_move,
        moves: 0,
        last: last_move,
        // None known for the move before the playout.
        last_captured: 0,
        capture_lead: 0,
    };
    let ControlFlow::Break(ended) = playout.play_to_the_end::<UNROLL>();
    #[cfg(debug_assertions)]
    playout.position.check_invariants();
    if let Some(result) = ended {
        return result;
    }
    if !GO {
        return PlayoutResult {
            winner: None,
            moves: playout.moves,
            margin: 0.0,
            by_mercy: false,
        };
    }
    let score = playout.position.area_score();
    let winner = match score.outcome(komi) {
        Outcome::Win(color, _) => Some(color),
        Outcome::Draw => None,
    };
    PlayoutResult {
        winner,
        moves: playout.moves,
        margin: score.margin(komi),
        by_mercy: false,
    }
}

/// How a playout's game stopped: `Some` result when it was decided before
/// the end (a lost NoGo game, the mercy rule), `None` once a Go game is
/// over or the move limit is reached, leaving the board to be scored.
type Stop = ControlFlow<Option<PlayoutResult>>;

/// The state of a game in [`play_out`]: the loop's variables, so that its
/// steps can be methods (all inlined into the loop).
struct Playout<'p, Choose, OnMove, const GO: bool> {
    position: &'p mut Position,
    max_moves: u32,
    mercy: u32,
    choose: Choose,
    on_move: OnMove,
    /// Moves played so far, passes included.
    moves: u32,
    /// Passes in a row.
    passes: u8,
    /// The last stone played, `None` after a pass.
    last: Option<Point>,
    /// Stones the last move captured.
    last_captured: u32,
    /// Black's captures minus White's in this playout.
    capture_lead: i32,
}

impl<Choose, OnMove, const GO: bool> Playout<'_, Choose, OnMove, GO>
where
    Choose: FnMut(&mut Position, Color, Option<Point>, u32) -> Option<Point>,
    OnMove: FnMut(Point, Color),
{
    /// Plays moves until the game stops; the mover is a literal in each
    /// half of the loop unrolled by colour.
    #[inline(always)]
    fn play_to_the_end<const UNROLL: bool>(
        &mut self,
    ) -> ControlFlow<Option<PlayoutResult>, Infallible> {
        if !UNROLL {
            loop {
                self.step(self.position.to_move())?;
            }
        }
        if self.position.to_move() == Color::White {
            self.step(Color::White)?;
        }
        loop {
            self.step(Color::Black)?;
            self.step(Color::White)?;
        }
    }

    /// One move of `mover`, who must be to move.
    #[inline(always)]
    fn step(&mut self, mover: Color) -> Stop {
        debug_assert_eq!(self.position.to_move(), mover);
        if self.moves >= self.max_moves {
            return ControlFlow::Break(None);
        }
        match (self.choose)(self.position, mover, self.last, self.last_captured) {
            Some(p) => self.play(p, mover)?,
            None if !GO => {
                return ControlFlow::Break(Some(PlayoutResult {
                    winner: Some(mover.opponent()),
                    moves: self.moves,
                    margin: 0.0,
                    by_mercy: false,
                }));
            }
            None => self.pass()?,
        }
        self.moves += 1;
        ControlFlow::Continue(())
    }

    /// `mover`'s stone on `p`.
    #[inline(always)]
    fn play(&mut self, p: Point, mover: Color) -> Stop {
        (self.on_move)(p, mover);
        if GO {
            let captured = self.position.play_in_search(p, mover);
            self.last_captured = captured;
            if captured > 0 {
                self.count_captures(mover, captured)?;
            }
        } else {
            self.position.play_nogo_in_search(p, mover);
        }
        self.passes = 0;
        self.last = Some(p);
        ControlFlow::Continue(())
    }

    /// Adds `mover`'s `captured` stones to the capture lead; a lead of
    /// `mercy` stones ends the game.
    #[inline(always)]
    fn count_captures(&mut self, mover: Color, captured: u32) -> Stop {
        self.capture_lead += match mover {
            Color::Black => captured as i32,
            Color::White => -(captured as i32),
        };
        if self.capture_lead.unsigned_abs() >= self.mercy {
            let leader = if self.capture_lead > 0 {
                Color::Black
            } else {
                Color::White
            };
            return ControlFlow::Break(Some(PlayoutResult {
                winner: Some(leader),
                moves: self.moves + 1,
                margin: self.capture_lead as f32,
                by_mercy: true,
            }));
        }
        ControlFlow::Continue(())
    }

    /// A Go pass; the second in a row ends the game.
    #[inline(always)]
    fn pass(&mut self) -> Stop {
        self.position.pass();
        self.passes += 1;
        self.last = None;
        self.last_captured = 0;
        if self.passes >= 2 {
            return ControlFlow::Break(None);
        }
        ControlFlow::Continue(())
    }
}

/// A uniformly random legal move of `mover` (in Go, not into its own eye).
#[inline(always)]
fn random_move<const GO: bool>(
    position: &mut Position,
    mover: Color,
    rng: &mut FastRng,
) -> Option<Point> {
    let mut live = position.empty_points().len();
    while live > 0 {
        let slot = below(rng, live);
        let p = position.empty_point_at(slot);
        if position.is_light_candidate(p, mover, GO) {
            return Some(p);
        }
        live -= 1;
        position.swap_empties_unchecked(slot, live);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cell, Geometry};
    use rand_xoshiro::rand_core::SeedableRng;

    /// A capture lead of `mercy` stones ends the playout at once, won by the
    /// side ahead, whatever the board would score; a smaller lead does not.
    #[test]
    fn the_mercy_rule_ends_a_playout_on_a_capture_lead() {
        // White's two stones at B4 and C4 have one liberty, C3.
        let text = ".XX..
                    XOOX.
                    .X...
                    .....
                    .....";
        let position = Position::from_text(text, GameKind::Go).unwrap();
        let white = position
            .geometry()
            .points()
            .find(|&p| position.cell(p) == Cell::White)
            .unwrap();
        let capture = position.atari_liberty(white).unwrap();
        let play_capture_then_pass = |mercy: u32| {
            let mut scratch = position.clone();
            let mut first = true;
            play_out::<true, false>(
                &mut scratch,
                0.5,
                100,
                mercy,
                None,
                |_, _, _, _| std::mem::take(&mut first).then_some(capture),
                |_, _| {},
            )
        };
        let stopped = play_capture_then_pass(2);
        assert_eq!(
            (
                stopped.winner,
                stopped.moves,
                stopped.margin,
                stopped.by_mercy
            ),
            (Some(Color::Black), 1, 2.0, true)
        );
        let finished = play_capture_then_pass(3);
        assert!(finished.moves > 1, "the playout went on to the passes");
        assert!(!finished.by_mercy);
    }

    /// The eye rule spelled out: every neighbour is `color`'s stone or the
    /// edge, and the diagonals hold at most one enemy stone, none if one of
    /// them is the edge.
    fn eye(position: &Position, p: Point, color: Color) -> bool {
        let g = position.geometry();
        let cell = |q: Point| position.cell(q);
        let walled = g
            .neighbours(p)
            .into_iter()
            .all(|q| cell(q) == color.cell() || cell(q) == Cell::Border);
        let diagonals = g.diagonals(p);
        let enemies = diagonals
            .iter()
            .filter(|&&d| cell(d) == color.opponent().cell())
            .count();
        let on_edge = diagonals.iter().any(|&d| cell(d) == Cell::Border);
        walled && enemies + usize::from(on_edge) < 2
    }

    /// The playouts' candidate test (and NoGo's two-colour legality, and the
    /// eye test) agrees with the reference rules on every empty point along
    /// random games (Go and NoGo, several sizes); the test
    /// profile also checks the board's invariants after every move.
    #[test]
    fn light_candidates_match_the_rules() {
        let mut rng = FastRng::seed_from_u64(11);
        for kind in [GameKind::Go, GameKind::NoGo] {
            for (w, h) in [(1, 3), (2, 2), (3, 3), (4, 5), (7, 7), (9, 9)] {
                let g = Geometry::new(w, h).unwrap();
                for _ in 0..30 {
                    let mut position = Position::new(g, kind);
                    for _ in 0..3 * g.area() {
                        let mover = position.to_move();
                        let go = kind == GameKind::Go;
                        let mut candidates = Vec::new();
                        for &p in position.empty_points() {
                            let p = Point(p);
                            let expected =
                                position.is_legal(p, mover) && (!go || !position.is_eye(p, mover));
                            assert_eq!(position.is_light_candidate(p, mover, go), expected);
                            for color in [Color::Black, Color::White] {
                                assert_eq!(position.is_eye(p, color), eye(&position, p, color));
                            }
                            if !go {
                                let both = (
                                    position.is_legal(p, Color::Black),
                                    position.is_legal(p, Color::White),
                                );
                                assert_eq!(position.nogo_legality(p), both);
                            }
                            if expected {
                                candidates.push(p);
                            }
                        }
                        if candidates.is_empty() {
                            if !go {
                                break;
                            }
                            position.pass();
                        } else {
                            let p = candidates[below(&mut rng, candidates.len())];
                            position.play(p, mover);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn nogo_playouts_end_with_a_winner() {
        let mut rng = FastRng::seed_from_u64(5);
        for size in [2, 3, 5, 9] {
            let root = Position::new(Geometry::square(size).unwrap(), GameKind::NoGo);
            for _ in 0..200 {
                let mut position = root.clone();
                let result = light_playout(&mut position, 0.0, 1000, &mut rng);
                assert!(result.winner.is_some());
                assert!(!position.has_legal_move(position.to_move()));
            }
        }
    }
}
