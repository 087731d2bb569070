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
//! - `shared`: what the threads of a solve share (the table, the marks of
//!   the positions being searched); `solve_on` starts the threads, which
//!   search the same root and meet in the table.
//! - `checkpoint`: the table's costly entries to a file and back, so that
//!   a long solve can stop and go on later.

mod board;
mod checkpoint;
mod negamax;
mod ordering;
mod shared;
mod symmetry;
mod table;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use crate::board::{Color, GameKind, Point, Position};
use board::{BitBoard, PointSet, stones_word};
use negamax::Solver;
use shared::Shared;
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
    /// The checkpoint to start from could not be read (the log says why);
    /// nothing was searched.
    BadCheckpoint,
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
    /// Where the first thread is, from the root down: at each of the first
    /// plies, the number of the move it searches (from 1, best first) and
    /// how many that position has; (0, 0) below the path.
    pub frontier: [(u16, u16); FRONTIER_PLIES],
}

/// Plies of the search path a progress report shows.
pub const FRONTIER_PLIES: usize = 4;

/// Where a long solve keeps what it proved (see `checkpoint`).
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The file: read at the start if it exists, written every `every`
    /// and at the end.
    pub path: PathBuf,
    pub every: Duration,
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
    /// Threads searching together, sharing the table (at least 1). The
    /// answer does not depend on it; the node count does.
    pub threads: usize,
    /// Start from and keep writing a checkpoint (`None`: none).
    pub checkpoint: Option<Checkpoint>,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            limit: None,
            stop: None,
            table_mb: None,
            all_moves: true,
            threads: 1,
            checkpoint: None,
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
    let shared = Shared::new(table, options.threads.max(1));
    if let Some(checkpoint) = &options.checkpoint
        && !load_checkpoint(&shared, &board, checkpoint)
    {
        // The table, which may hold part of the bad file, goes with `shared`.
        return SolveOutcome {
            winner: None,
            status: SolveStatus::BadCheckpoint,
            winning_moves: Vec::new(),
            losing_moves: Vec::new(),
            unresolved_moves: Vec::new(),
            nodes: 0,
            elapsed: start.elapsed(),
        };
    }
    let new_solver = || Solver::new(board, own | other, &shared, start, options);
    let (found, interrupted) = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..options.threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut solver = new_solver();
                    let found =
                        search_root_moves(&mut solver, own, other, options.all_moves, &mut |_| {});
                    solver.publish_nodes();
                    (found, solver.interrupted)
                })
            })
            .collect();
        let mut solver = new_solver();
        solver.keep_checkpoints(options.checkpoint.clone());
        let mut found = search_root_moves(&mut solver, own, other, options.all_moves, progress);
        solver.publish_nodes();
        let mut interrupted = solver.interrupted;
        for helper in helpers {
            let (theirs, their_interrupt) = helper.join().expect("a solver thread panicked");
            found.merge(theirs);
            interrupted |= their_interrupt;
        }
        (found, interrupted)
    });
    let point_of = |bit: u32| {
        let bit = bit as usize;
        geometry.point_unchecked(bit % width, bit / width)
    };
    let mut outcome = outcome_of(&found, mover, interrupted, options.all_moves, point_of);
    outcome.nodes = shared.nodes.load(Relaxed);
    if let Some(checkpoint) = &options.checkpoint {
        save_checkpoint(&shared.table, &board, &checkpoint.path);
    }
    outcome.elapsed = start.elapsed();
    S::keep_table(kept, shared.table);
    outcome
}

/// Loads `checkpoint` into the solve's table if its file exists; false
/// (and the reason in the log) if it exists but cannot be loaded.
fn load_checkpoint<S: PointSet>(
    shared: &Shared<S>,
    board: &BitBoard<S>,
    checkpoint: &Checkpoint,
) -> bool {
    let path = &checkpoint.path;
    if !path.exists() {
        log::info!(
            "checkpoint {} does not exist yet: starting afresh",
            path.display()
        );
        return true;
    }
    match checkpoint::load(&shared.table, board, path) {
        Ok(entries) => {
            log::info!(
                "checkpoint {}: {entries} proved positions loaded",
                path.display()
            );
            true
        }
        Err(error) => {
            log::error!("{error}");
            false
        }
    }
}

/// Writes the table's costly entries to `path`, saying in the log how it went.
fn save_checkpoint<S: PointSet>(
    table: &table::Table<S>,
    board: &BitBoard<S>,
    path: &std::path::Path,
) {
    let start = Instant::now();
    match checkpoint::save(table, board, path) {
        Ok(entries) => log::info!(
            "checkpoint {}: {entries} proved positions written in {:.1} s",
            path.display(),
            start.elapsed().as_secs_f64()
        ),
        Err(error) => log::error!("cannot write checkpoint {}: {error}", path.display()),
    }
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

impl RootMoves {
    /// Adds what another thread proved.
    fn merge(&mut self, other: RootMoves) {
        for bit in other.winning {
            if !self.winning.contains(&bit) {
                self.winning.push(bit);
            }
        }
        for bit in other.losing {
            if !self.losing.contains(&bit) {
                self.losing.push(bit);
            }
        }
        let classified = |bit: &u32| self.winning.contains(bit) || self.losing.contains(bit);
        let unsearched: Vec<u32> = self
            .unsearched
            .iter()
            .chain(&other.unsearched)
            .copied()
            .filter(|bit| !classified(bit))
            .collect();
        self.unsearched = unsearched;
        self.unsearched.sort_unstable();
        self.unsearched.dedup();
    }
}

/// Searches the root moves in the solver's order, stopping at the first
/// win unless `all_moves`. Beside other threads, a move another thread is
/// searching waits until the others are done (see `shared`).
fn search_root_moves<S: PointSet>(
    solver: &mut Solver<'_, S>,
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
    let mut deferred = Vec::new();
    let mut done = 0;
    let mut found = RootMoves::default();
    while let Some((bit, child)) = root_moves.pop().or_else(|| {
        // Best first: the list pops from its end.
        root_moves.extend(deferred.drain(..).rev());
        root_moves.pop()
    }) {
        // All threads start on the best move; after it, a move another
        // thread is searching waits until the others are done.
        if done > 0 && solver.reply_busy(own, other, bit) && !root_moves.is_empty() {
            deferred.push((bit, child));
            continue;
        }
        solver.root_moves_done = (done, total);
        solver.note_path(1, done + 1, total);
        let Some(won) = solver.wins(other, own | S::point(bit), child, 1, progress) else {
            root_moves.push((bit, child));
            break;
        };
        done += 1;
        // `won` is the opponent's result after our move.
        if won {
            found.losing.push(bit);
        } else {
            found.winning.push(bit);
            if !all_moves {
                solver.announce_answer();
                break;
            }
        }
    }
    root_moves.extend(deferred);
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
