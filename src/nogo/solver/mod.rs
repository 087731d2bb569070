//! Exact NoGo solving.
//!
//! The solver works on its own compact board: one machine word of stones
//! per side (bit `row * width + col`), a `u64` on boards up to 57 points
//! and a `u128` up to [`MAX_SOLVER_AREA`] = 121 (11x11), chosen per solve
//! by the `PointSet` parameter so that small boards keep the fast word.
//!
//! The search is a depth-first win/loss negamax with a transposition table
//! keyed by the position *up to colour and board symmetry*: NoGo does not
//! care which colour is which, so the key is (stones of the side to move,
//! stones of the other side), mapped to the smallest of its images under
//! the symmetries that fix the root's stones. No iterative deepening: every
//! NoGo line ends within `empty points` moves and every table entry is
//! exact, so one complete pass is all there is.
//!
//! Reading order:
//! - this file: the public API; [`solve_kept`] picks the word and
//!   `solve_on` searches the root moves and reports what it proved.
//! - `board`: the word (`PointSet`) and `BitBoard`, which answers the rule
//!   questions (legality of every point for both sides, eye reserves).
//! - `negamax`: `Solver::wins`, the search, with its static cut-offs.
//! - `ordering`: which move to try first (killers, history, look-ahead).
//! - `table` and `symmetry`: the transposition table and its canonical
//!   keys; `KeptTable` carries a table from one solve to the next.

mod board;
mod negamax;
mod ordering;
mod symmetry;
mod table;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::{Color, GameKind, Point, Position};
use board::{BitBoard, PointSet, stones_word};
use negamax::Solver;
pub use table::KeptTable;
use table::max_area;

/// Largest board the solver takes: 11x11 (a `u128` key word keeps
/// `META_BITS` bits of table metadata above the board).
pub const MAX_SOLVER_AREA: usize = max_area::<u128>();

/// The proven result of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Who wins with perfect play.
    pub winner: Color,
    /// Positions searched.
    pub nodes: u64,
}

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveStatus {
    /// Every root move was classified.
    Complete,
    /// The winner is known, but the time ran out before every root move was
    /// classified (see `unresolved_moves`).
    WinnerOnly,
    /// The time ran out before the winner was known.
    OutOfTime,
    /// The position is not NoGo, or the board is larger than the solver takes.
    Unsupported,
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOutcome {
    /// Who wins with perfect play, `None` when unknown (time ran out, or
    /// the position is unsupported).
    pub winner: Option<Color>,
    pub status: SolveStatus,
    /// Legal moves of the side to move that win, sorted.
    pub winning_moves: Vec<Point>,
    /// Legal moves of the side to move that lose, sorted.
    pub losing_moves: Vec<Point>,
    /// Legal moves not classified before the time ran out.
    pub unresolved_moves: Vec<Point>,
    /// Positions searched.
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A progress report, at most about once a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveProgress {
    pub nodes: u64,
    /// Deepest ply searched so far (root moves are ply 1).
    pub depth: u32,
    pub elapsed: Duration,
    /// Root moves classified so far, out of `root_moves`.
    pub root_moves_done: usize,
    pub root_moves: usize,
}

/// Knobs of a solve beyond the time limit.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Give up after this long.
    pub limit: Option<Duration>,
    /// Give up once this is set (a controller's interrupt), answering with
    /// what is proved so far, as when time runs out.
    pub stop: Option<Arc<AtomicBool>>,
    /// Transposition table size in MiB (`None`: chosen from the board size).
    pub table_mb: Option<usize>,
    /// Classify every root move (the full winning set) rather than stopping
    /// at the first win.
    pub all_moves: bool,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            limit: None,
            stop: None,
            table_mb: None,
            all_moves: true,
        }
    }
}

/// Solves a NoGo position exactly (the side to move loses when it has no
/// legal move). Returns `None` for a Go position or a board too large.
pub fn solve_nogo(position: &Position) -> Option<Solution> {
    let options = SolveOptions {
        all_moves: false,
        ..SolveOptions::default()
    };
    let outcome = solve_with(position, &options, &mut |_| {});
    Some(Solution {
        winner: outcome.winner?,
        nodes: outcome.nodes,
    })
}

/// Solves a NoGo position: the winner and every winning first move, within
/// `limit`. `progress` is called at most about once a second.
pub fn solve(
    position: &Position,
    limit: Option<Duration>,
    progress: &mut dyn FnMut(&SolveProgress),
) -> SolveOutcome {
    let options = SolveOptions {
        limit,
        ..SolveOptions::default()
    };
    solve_with(position, &options, progress)
}

/// [`solve`] with every knob.
pub fn solve_with(
    position: &Position,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&SolveProgress),
) -> SolveOutcome {
    solve_kept(position, options, progress, &mut KeptTable::default())
}

/// [`solve_with`], starting from the table `kept` holds if it was made for
/// this board and table size, and leaving the table there afterwards.
pub fn solve_kept(
    position: &Position,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&SolveProgress),
    kept: &mut KeptTable,
) -> SolveOutcome {
    let start = Instant::now();
    let area = position.geometry().area();
    if position.kind() != GameKind::NoGo || area > MAX_SOLVER_AREA {
        return SolveOutcome {
            winner: None,
            status: SolveStatus::Unsupported,
            winning_moves: Vec::new(),
            losing_moves: Vec::new(),
            unresolved_moves: Vec::new(),
            nodes: 0,
            elapsed: start.elapsed(),
        };
    }
    // The narrowest word that holds the board: small boards stay fast.
    if area <= max_area::<u64>() {
        solve_on::<u64>(position, options, progress, start, kept)
    } else {
        solve_on::<u128>(position, options, progress, start, kept)
    }
}

/// [`solve_with`] on a board of at most `max_area::<S>()` points.
fn solve_on<S: PointSet>(
    position: &Position,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&SolveProgress),
    start: Instant,
    kept: &mut KeptTable,
) -> SolveOutcome {
    let geometry = position.geometry();
    let (width, height) = (geometry.width(), geometry.height());
    let board = BitBoard::<S>::new(width, height);
    let mover = position.to_move();
    let (own, other) = (
        stones_word::<S>(position, mover),
        stones_word::<S>(position, mover.opponent()),
    );
    let table = kept.take::<S>(width, height, options.table_mb);
    let mut solver = Solver::new(board, own | other, table, start, options);
    let found = search_root_moves(&mut solver, own, other, options.all_moves, progress);
    let point_of = |bit: u32| {
        let bit = bit as usize;
        geometry.point_unchecked(bit % width, bit / width)
    };
    let mut outcome = outcome_of(&found, mover, solver.stopped, options.all_moves, point_of);
    outcome.nodes = solver.nodes;
    outcome.elapsed = start.elapsed();
    S::keep_table(kept, solver.table);
    outcome
}

/// What the search proved of the root moves, as bit indices.
#[derive(Default)]
struct RootMoves {
    /// Moves after which the opponent loses.
    winning: Vec<u32>,
    /// Moves after which the opponent wins.
    losing: Vec<u32>,
    /// Moves not classified: the time ran out, or a win was enough.
    unsearched: Vec<u32>,
}

/// Searches the root moves in the solver's order, stopping at the first
/// win unless `all_moves`.
fn search_root_moves<S: PointSet>(
    solver: &mut Solver<S>,
    own: S,
    other: S,
    all_moves: bool,
    progress: &mut dyn FnMut(&SolveProgress),
) -> RootMoves {
    let root = solver.board.analyse(own, other);
    let mut root_moves = solver
        .order
        .ordered_moves(&solver.board, own, other, &root, 0);
    let total = root_moves.len();
    let mut done = 0;
    let mut found = RootMoves::default();
    while let Some((bit, child)) = root_moves.pop() {
        solver.root_moves_done = (done, total);
        let won = solver.wins(other, own | S::point(bit), child, 1, progress);
        if solver.stopped {
            root_moves.push((bit, child));
            break;
        }
        done += 1;
        // `won` is the opponent's result after our move.
        if won {
            found.losing.push(bit);
        } else {
            found.winning.push(bit);
            if !all_moves {
                break;
            }
        }
    }
    found.unsearched = root_moves.iter().map(|&(bit, _)| bit).collect();
    found
}

/// The outcome `found` proves for `mover`, its move lists as points in
/// board order (nodes and time left for the caller).
fn outcome_of(
    found: &RootMoves,
    mover: Color,
    stopped: bool,
    all_moves: bool,
    point_of: impl Fn(u32) -> Point,
) -> SolveOutcome {
    let mut winner = (!found.winning.is_empty()).then_some(mover);
    let finished = found.unsearched.is_empty() || (winner.is_some() && !all_moves);
    if finished && winner.is_none() {
        winner = Some(mover.opponent());
    }
    let points = |bits: &[u32]| {
        let mut points: Vec<Point> = bits.iter().map(|&bit| point_of(bit)).collect();
        points.sort_unstable();
        points
    };
    SolveOutcome {
        winner,
        status: match (winner, stopped) {
            (Some(_), false) => SolveStatus::Complete,
            (Some(_), true) => SolveStatus::WinnerOnly,
            (None, _) => SolveStatus::OutOfTime,
        },
        winning_moves: points(&found.winning),
        losing_moves: points(&found.losing),
        unresolved_moves: if stopped {
            points(&found.unsearched)
        } else {
            Vec::new()
        },
        nodes: 0,
        elapsed: Duration::ZERO,
    }
}
