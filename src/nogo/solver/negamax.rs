//! The search: a depth-first win/loss negamax.
//!
//! Alpha-beta with a null window is the same thing for a two-valued game.
//! A node is cut off statically where it can be, from two monotone facts of
//! NoGo: a point illegal for a player stays illegal for ever (liberties only
//! shrink and nothing is captured), so a player's legal-point count bounds
//! the moves it has left; and a group of `k` single-point eyes joined
//! through one player's strings gives that player `k - 1` moves that
//! nothing can take away. Otherwise the table answers, or the moves are
//! searched best first (see `ordering`). Near the root every reply is
//! looked up in the table before any is searched (the enhanced
//! transposition cut-off); the table's buckets are prefetched as soon as
//! their keys are known, so cache misses overlap with work.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use super::board::{Analysis, BitBoard, PointSet};
use super::ordering::MoveOrder;
use super::symmetry::{Symmetry, symmetries};
use super::table::Table;
use super::{SolveOptions, SolveProgress};

/// Plies from the root at which every reply is looked up in the table
/// before any is searched.
const ETC_PLIES: u32 = 10;

/// How many nodes between looks at the clock.
const CLOCK_EVERY: u64 = 1 << 12;

/// One solve's search state.
pub(super) struct Solver<S> {
    pub(super) board: BitBoard<S>,
    /// The board symmetries that fix the root's stones (identity first):
    /// stones are never removed, so only these can map one position of the
    /// search onto another.
    symmetries: Vec<Symmetry<S>>,
    pub(super) table: Table<S>,
    pub(super) order: MoveOrder<S>,
    pub(super) nodes: u64,
    deepest: u32,
    start: Instant,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    last_report: Instant,
    pub(super) stopped: bool,
    /// Root moves classified so far and in all, for progress reports.
    pub(super) root_moves_done: (usize, usize),
}

impl<S: PointSet> Solver<S> {
    pub(super) fn new(
        board: BitBoard<S>,
        root_stones: S,
        table: Table<S>,
        start: Instant,
        options: &SolveOptions,
    ) -> Solver<S> {
        let width = board.width as usize;
        let mut symmetries = symmetries(width, board.area as usize / width);
        symmetries.retain(|symmetry| symmetry.apply(root_stones) == root_stones);
        Solver {
            board,
            symmetries,
            table,
            order: MoveOrder::new(),
            nodes: 0,
            deepest: 0,
            start,
            deadline: options.limit.map(|l| start + l),
            stop: options.stop.clone(),
            last_report: start,
            stopped: false,
            root_moves_done: (0, 0),
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

    /// Whether the side to move (`own`) wins. Meaningless once `stopped`.
    /// `known`: the position's analysis, if the parent's look-ahead made it.
    pub(super) fn wins(
        &mut self,
        own: S,
        other: S,
        known: Option<Analysis<S>>,
        ply: u32,
        progress: &mut dyn FnMut(&SolveProgress),
    ) -> bool {
        self.nodes += 1;
        if ply > self.deepest {
            self.deepest = ply;
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            self.check_clock(progress);
        }
        if self.stopped {
            return false;
        }
        let key = self.canonical(own, other);
        self.table.prefetch(key);
        let analysis = known.unwrap_or_else(|| self.board.analyse(own, other));
        let own_moves = analysis.legal_own.count();
        let other_moves = analysis.legal_other.count();
        if own_moves == 0 {
            return false;
        }
        // The opponent can never make more moves than it has legal points now.
        if other_moves == 0 || self.board.eye_reserve(own, other) > other_moves {
            return true;
        }
        if self.board.eye_reserve(other, own) >= own_moves {
            return false;
        }
        if let Some(known) = self.table.probe(key) {
            return known;
        }
        let nodes_before = self.nodes;
        let mut moves = self
            .order
            .ordered_moves(&self.board, own, other, &analysis, ply);
        // Enhanced transposition cut-off: a reply already known lost for
        // the opponent wins without searching anything.
        if ply < ETC_PLIES {
            // Every reply's bucket is requested before any is read, so the
            // memory waits overlap.
            let replies: Vec<(S, S)> = moves
                .iter()
                .map(|&(bit, _)| self.canonical(other, own | S::point(bit)))
                .collect();
            for &reply in &replies {
                self.table.prefetch(reply);
            }
            if replies
                .iter()
                .any(|&reply| self.table.probe(reply) == Some(false))
            {
                self.table.store(key, true, 1);
                return true;
            }
        }
        let mut result = false;
        while let Some((bit, child)) = moves.pop() {
            let opponent_wins = self.wins(other, own | S::point(bit), child, ply + 1, progress);
            if self.stopped {
                return false;
            }
            if !opponent_wins {
                self.order.record_win(bit, ply, own_moves + other_moves);
                result = true;
                break;
            }
        }
        self.table.store(key, result, self.nodes - nodes_before);
        result
    }

    fn check_clock(&mut self, progress: &mut dyn FnMut(&SolveProgress)) {
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d)
            || self.stop.as_ref().is_some_and(|stop| stop.load(Relaxed))
        {
            self.stopped = true;
            return;
        }
        if now.duration_since(self.last_report) >= Duration::from_secs(1) {
            self.last_report = now;
            progress(&SolveProgress {
                nodes: self.nodes,
                depth: self.deepest,
                elapsed: now.duration_since(self.start),
                root_moves_done: self.root_moves_done.0,
                root_moves: self.root_moves_done.1,
            });
        }
    }
}
