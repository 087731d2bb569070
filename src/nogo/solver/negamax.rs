//! The search: a depth-first win/loss negamax.
//!
//! Alpha-beta with a null window is the same thing for a two-valued game.
//! A node is cut off statically where it can be, from two monotone facts of
//! NoGo: a point illegal for a player stays illegal for ever (liberties only
//! shrink and nothing is captured), so a player's legal-point count bounds
//! the moves it has left (less one for each empty region walled off from
//! its stones, which it can never fill entirely); and a group of `k` single-point eyes joined
//! through one player's strings gives that player `k - 1` moves that
//! nothing can take away. Otherwise the table answers, or the moves are
//! searched best first (see `ordering`). Near the root every reply is
//! looked up in the table before any is searched (the enhanced
//! transposition cut-off); the table's buckets are prefetched as soon as
//! their keys are known, so cache misses overlap with work. Beside other
//! threads, a thread puts off replies another is searching (see `shared`)
//! and, when another thread proves a position on its path, returns to it
//! at its next look at the clock instead of finishing a search nobody needs.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use super::board::{Analysis, BitBoard, PointSet};
use super::ordering::MoveOrder;
use super::shared::Shared;
use super::symmetry::{Symmetry, symmetries};
use super::{Checkpoint, FRONTIER_PLIES, SolveOptions, SolveProgress, save_checkpoint};

/// Plies from the root at which every reply is looked up in the table
/// before any is searched.
const ETC_PLIES: u32 = 10;

/// Plies from the root at which threads mark the positions they search
/// and put off replies another thread is searching (see `shared`).
const SHARED_PLIES: u32 = 12;

/// How many nodes between looks at the clock.
const CLOCK_EVERY: u64 = 1 << 12;

/// One solve's search state.
pub(super) struct Solver<'a, S> {
    pub(super) board: BitBoard<S>,
    /// The board symmetries that fix the root's stones (identity first):
    /// stones are never removed, so only these can map one position of the
    /// search onto another.
    symmetries: Vec<Symmetry<S>>,
    shared: &'a Shared<S>,
    pub(super) order: MoveOrder<S>,
    pub(super) nodes: u64,
    /// Nodes already added to `shared.nodes`.
    nodes_published: u64,
    deepest: u32,
    start: Instant,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    last_report: Instant,
    pub(super) stopped: bool,
    /// The time ran out or the controller stopped the solve (`stopped`
    /// is also set when another thread answered it).
    pub(super) interrupted: bool,
    /// Root moves classified so far and in all, for progress reports.
    pub(super) root_moves_done: (usize, usize),
    /// The search path's first plies, for progress reports (see
    /// `SolveProgress::frontier`).
    frontier: [(u16, u16); FRONTIER_PLIES],
    /// The ply of the position being searched (the last one entered: the
    /// clock is looked at on entering a position, whose ancestors are
    /// the plies above).
    ply: u32,
    /// Beside other threads: the keys of the positions on the search path
    /// at the plies below [`SHARED_PLIES`], and the ply of one of them
    /// another thread has proved meanwhile, which the search returns to.
    path: [(S, S); SHARED_PLIES as usize],
    unwind_to: Option<u32>,
    /// The checkpoint this thread writes, and when it last did.
    checkpoint: Option<(Checkpoint, Instant)>,
}

impl<'a, S: PointSet> Solver<'a, S> {
    pub(super) fn new(
        board: BitBoard<S>,
        root_stones: S,
        shared: &'a Shared<S>,
        start: Instant,
        options: &SolveOptions,
    ) -> Solver<'a, S> {
        let width = board.width as usize;
        let mut symmetries = symmetries(width, board.area as usize / width);
        symmetries.retain(|symmetry| symmetry.apply(root_stones) == root_stones);
        Solver {
            board,
            symmetries,
            shared,
            order: MoveOrder::new(),
            nodes: 0,
            nodes_published: 0,
            deepest: 0,
            start,
            deadline: options.limit.map(|l| start + l),
            stop: options.stop.clone(),
            last_report: start,
            stopped: false,
            interrupted: false,
            root_moves_done: (0, 0),
            frontier: [(0, 0); FRONTIER_PLIES],
            checkpoint: None,
            ply: 0,
            path: [(S::EMPTY, S::EMPTY); SHARED_PLIES as usize],
            unwind_to: None,
        }
    }

    /// The smallest symmetric image of (own, other).
    #[inline(always)]
    fn canonical(&self, own: S, other: S) -> (S, S) {
        let mut best = (own, other);
        for symmetry in &self.symmetries[1..] {
            let image = (symmetry.apply(own), symmetry.apply(other));
            if image < best {
                best = image;
            }
        }
        best
    }

    /// Whether the side to move (`own`) wins; `None` when the search was
    /// cut short (the clock, a stop, another thread's answer, or a return
    /// to a position above that another thread proved). `known`: the
    /// position's analysis, if the parent's look-ahead made it.
    pub(super) fn wins(
        &mut self,
        own: S,
        other: S,
        known: Option<Analysis<S>>,
        ply: u32,
        progress: &mut dyn FnMut(&SolveProgress),
    ) -> Option<bool> {
        self.nodes += 1;
        self.ply = ply;
        if ply > self.deepest {
            self.deepest = ply;
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            self.check_clock(progress);
        }
        if self.stopped || self.unwind_to.is_some() {
            return None;
        }
        let key = self.canonical(own, other);
        self.shared.table.prefetch(key);
        let analysis = known.unwrap_or_else(|| self.board.analyse(own, other));
        if let Some(result) = self.static_result(own, other, &analysis) {
            return Some(result);
        }
        if let Some(known) = self.shared.table.probe(key) {
            return Some(known);
        }
        let nodes_before = self.nodes;
        let moves = self
            .order
            .ordered_moves(&self.board, own, other, &analysis, ply);
        // Enhanced transposition cut-off: a reply already known lost for
        // the opponent wins without searching anything.
        if ply < ETC_PLIES && self.reply_known_lost(own, other, &moves) {
            self.shared.table.store(key, true, 1);
            return Some(true);
        }
        let moves_left = analysis.legal_own.count() + analysis.legal_other.count();
        let share = self.shares(ply);
        if share {
            self.path[ply as usize] = key;
            self.shared.enter(key);
        }
        let searched = self.search_moves(own, other, moves, moves_left, ply, progress);
        if share {
            self.shared.leave(key);
        }
        let result = match searched {
            Some(result) => result,
            None if self.unwind_to == Some(ply) && !self.stopped => {
                // Another thread proved this position meanwhile.
                self.unwind_to = None;
                return match self.shared.table.probe(key) {
                    Some(known) => Some(known),
                    None => self.wins(own, other, Some(analysis), ply, progress),
                };
            }
            None => return None,
        };
        self.shared
            .table
            .store(key, result, self.nodes - nodes_before);
        Some(result)
    }

    /// The result of a position the counts decide without search.
    #[inline(always)]
    fn static_result(&self, own: S, other: S, analysis: &Analysis<S>) -> Option<bool> {
        let own_moves = analysis.legal_own.count();
        let other_moves = analysis.legal_other.count();
        if own_moves == 0 {
            return Some(false);
        }
        // The opponent can never make more moves than it has legal points now.
        if other_moves == 0 {
            return Some(true);
        }
        let own_reserve = self.board.eye_reserve(own, other);
        if own_reserve > other_moves
            || (own_reserve > 0
                && own_reserve > self.board.move_bound(analysis.legal_other, other, own))
        {
            return Some(true);
        }
        let other_reserve = self.board.eye_reserve(other, own);
        if other_reserve >= own_moves
            || (other_reserve > 0
                && other_reserve >= self.board.move_bound(analysis.legal_own, own, other))
        {
            return Some(false);
        }
        None
    }

    /// Whether some reply (in `moves`) leads to a position the table
    /// knows lost for the opponent.
    fn reply_known_lost(&self, own: S, other: S, moves: &[(u32, Option<Analysis<S>>)]) -> bool {
        // Every reply's bucket is requested before any is read, so the
        // memory waits overlap.
        let replies: Vec<(S, S)> = moves
            .iter()
            .map(|&(bit, _)| self.canonical(other, own | S::point(bit)))
            .collect();
        for &reply in &replies {
            self.shared.table.prefetch(reply);
        }
        replies
            .iter()
            .any(|&reply| self.shared.table.probe(reply) == Some(false))
    }

    /// Makes this thread write `checkpoint` every so often.
    pub(super) fn keep_checkpoints(&mut self, checkpoint: Option<Checkpoint>) {
        self.checkpoint = checkpoint.map(|c| (c, Instant::now()));
    }

    /// Notes that the search path at `ply` (from 1) enters the move
    /// numbered `number` of `count`, for progress reports.
    #[inline(always)]
    pub(super) fn note_path(&mut self, ply: u32, number: usize, count: usize) {
        let ply = ply as usize;
        if (1..=FRONTIER_PLIES).contains(&ply) {
            self.frontier[ply - 1] = (number as u16, count as u16);
            for below in &mut self.frontier[ply..] {
                *below = (0, 0);
            }
        }
    }

    /// Searches `moves` (best last) to the end, one after the other,
    /// until one wins. Where the threads share the work (see
    /// [`Solver::shares`]), after the first, a reply another thread is
    /// searching waits until the others are done.
    fn search_moves(
        &mut self,
        own: S,
        other: S,
        mut moves: Vec<(u32, Option<Analysis<S>>)>,
        moves_left: u32,
        ply: u32,
        progress: &mut dyn FnMut(&SolveProgress),
    ) -> Option<bool> {
        let count = moves.len();
        let mut searched = 0;
        let mut deferred = Vec::new();
        for defer in [self.shares(ply), false] {
            while let Some((bit, child)) = moves.pop() {
                if defer && searched > 0 && self.reply_busy(own, other, bit) {
                    deferred.push((bit, child));
                    continue;
                }
                searched += 1;
                self.note_path(ply + 1, searched, count);
                if !self.wins(other, own | S::point(bit), child, ply + 1, progress)? {
                    self.order.record_win(bit, ply, moves_left);
                    return Some(true);
                }
            }
            // Best first: the list pops from its end.
            moves.extend(deferred.drain(..).rev());
        }
        Some(false)
    }

    /// Whether threads mark the positions they search at `ply` and put
    /// off replies another thread is searching (see `shared`).
    #[inline(always)]
    fn shares(&self, ply: u32) -> bool {
        ply < SHARED_PLIES && self.shared.parallel()
    }

    /// Whether another thread of this solve is searching the position
    /// after `own` plays `bit`.
    pub(super) fn reply_busy(&self, own: S, other: S, bit: u32) -> bool {
        self.shared.parallel()
            && self
                .shared
                .is_busy(self.canonical(other, own | S::point(bit)))
    }

    /// Tells the other threads the solve is answered.
    pub(super) fn announce_answer(&self) {
        self.shared.done.store(true, Relaxed);
    }

    /// Adds the nodes not yet counted to the solve's total.
    pub(super) fn publish_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.nodes_published, Relaxed);
        self.nodes_published = self.nodes;
    }

    fn check_clock(&mut self, progress: &mut dyn FnMut(&SolveProgress)) {
        self.publish_nodes();
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d)
            || self.stop.as_ref().is_some_and(|stop| stop.load(Relaxed))
        {
            self.interrupted = true;
            self.stopped = true;
            return;
        }
        if self.shared.done.load(Relaxed) {
            self.stopped = true;
            return;
        }
        if self.shared.parallel() && self.unwind_to.is_none() {
            // The first position on the path another thread has proved.
            let below = self.ply.min(SHARED_PLIES);
            self.unwind_to =
                (1..below).find(|&ply| self.shared.table.probe(self.path[ply as usize]).is_some());
        }
        if let Some((checkpoint, last)) = &mut self.checkpoint
            && now.duration_since(*last) >= checkpoint.every
        {
            save_checkpoint(&self.shared.table, &self.board, &checkpoint.path);
            *last = Instant::now();
        }
        if now.duration_since(self.last_report) >= Duration::from_secs(1) {
            self.last_report = now;
            progress(&SolveProgress {
                nodes: self.shared.nodes.load(Relaxed),
                depth: self.deepest,
                elapsed: now.duration_since(self.start),
                root_moves_done: self.root_moves_done.0,
                root_moves: self.root_moves_done.1,
                frontier: self.frontier,
            });
        }
    }
}
