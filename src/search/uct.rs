//! One simulation of Monte-Carlo tree search: select down the tree (see
//! `select`), expand, play out, back the result up (real and AMAF
//! statistics), and propagate proven wins and losses (MCTS-solver). The
//! game enters only through the [`Domain`] a worker is made for.
//!
//! Perspective: a node's statistics belong to the player who moved into
//! it, so a parent picks the child that is best for the side to move.

use std::marker::PhantomData;

use super::domain::{Leaf, RecentMoves};
use crate::board::{Bitboard, Color, Move, Point, Position};

use super::Domain;
use super::dyn_komi::MarginTally;
use super::params::SearchParams;
use super::playout::FastRng;
use super::root_stats::{RootCriticality, RootScores, final_owner};
use super::select::select;
use super::tree::{EXPANDED, NodeId, PROVEN_LOSS, PROVEN_WIN, ROOT, Tree, UNPROVEN, amaf_update};

/// What every search thread shares.
pub struct Shared<'a> {
    pub tree: &'a Tree,
    pub root: &'a Position,
    pub komi: f32,
    pub params: &'a SearchParams,
    /// Root moves ruled out by positional superko.
    pub root_excluded: Bitboard,
    /// Whether passing is a move at the root (the tree below always allows it in Go).
    pub root_may_pass: bool,
    /// Whether some child of the root is excluded (see [`excluded_at_root`]):
    /// usually none is, and then `select` skips the test per child.
    pub root_has_excluded: bool,
    /// The game's last two moves, where they were stones, for the playout
    /// policy and priors.
    pub root_recent: RecentMoves,
    /// Playouts a leaf needs before it is expanded on this board.
    pub expand_threshold: u32,
    /// 1 / `rave_equivalence` for this game and board, worked out once
    /// rather than at every selection.
    pub inverse_rave_equivalence: f32,
    /// Where Go playouts count their margins while the dynamic komi is
    /// being probed (see `dyn_komi`).
    pub margins: Option<&'a MarginTally>,
    /// The root moves' criticality, when `SearchParams::criticality` is on
    /// (scored games).
    pub criticality: Option<&'a RootCriticality>,
    /// Where scored playouts count their margins per root move.
    pub scores: Option<&'a RootScores>,
    /// The game's komi, which `komi` differs from under a dynamic komi.
    pub real_komi: f32,
}

/// Half points of a result for `player`: 2 a win, 1 a draw, 0 a loss.
#[inline]
fn half_points(winner: Option<Color>, player: Color) -> u32 {
    match winner {
        Some(w) if w == player => 2,
        None => 1,
        Some(_) => 0,
    }
}

/// A search thread's private state, for a game `D`.
pub struct Worker<D: Domain> {
    rng: FastRng,
    scratch: Position,
    /// Nodes visited this simulation, root first.
    path: Vec<NodeId>,
    /// Player who moved into each node of `path` (the root's is the opponent of the side to move).
    movers: Vec<Color>,
    /// Stones played this simulation (tree moves, then playout moves).
    trace: Vec<(u16, Color)>,
    /// `trace.len()` when each node of `path` was reached.
    trace_at_depth: Vec<usize>,
    /// Per point: 0, or 1 + the colour that played there first (AMAF).
    /// Indexed by any `u16`, so that look-ups need no bounds check.
    first_player: Box<[u8; 1 << 16]>,
    /// The game's own playout state.
    playout_state: D::Scratch,
    /// Scratch board for priors that play a move out.
    prior_board: Position,
    game: PhantomData<fn() -> D>,
}

impl<D: Domain> Worker<D> {
    pub fn new(root: &Position, rng: FastRng) -> Worker<D> {
        Worker {
            rng,
            scratch: root.clone(),
            path: Vec::with_capacity(64),
            movers: Vec::with_capacity(64),
            trace: Vec::with_capacity(1024),
            trace_at_depth: Vec::with_capacity(64),
            first_player: Box::new([0; 1 << 16]),
            playout_state: D::Scratch::default(),
            prior_board: root.clone(),
            game: PhantomData,
        }
    }

    /// Runs one simulation.
    pub fn simulate(&mut self, shared: &Shared) {
        // A game the tree itself ended is over: its board is final.
        let (winner, finished, black_margin) = match self.descend(shared) {
            Some((winner, margin)) => (winner, true, margin),
            None => self.play_out(shared),
        };
        self.record_root_statistics(shared, winner, finished, black_margin);
        self.back_up(shared, winner);
    }

    /// Walks down from the root, expanding the leaf it reaches once it has
    /// had enough playouts, and plays the tree's moves on `scratch`.
    /// Returns the result when the tree itself ended the game.
    #[inline(always)]
    fn descend(&mut self, shared: &Shared) -> Option<(Option<Color>, Option<f32>)> {
        let tree = shared.tree;
        self.scratch.copy_from(shared.root);
        self.path.clear();
        self.movers.clear();
        self.trace.clear();
        self.trace_at_depth.clear();
        tree.node(ROOT).add_visit();
        self.path.push(ROOT);
        self.movers.push(shared.root.to_move().opponent());
        self.trace_at_depth.push(0);
        let mut node = ROOT;
        // A node below the root is read when the playout that takes its
        // real playouts to `read_at` enters it: after its expansion, once.
        let read_at = match shared.params.deep_reading_visits {
            0 => 0,
            visits => visits.max(shared.expand_threshold + 1),
        };
        let mut entry_visits = 0;
        loop {
            let current = tree.node(node);
            if current.children().1 == 0
                && (node == ROOT || current.visits() > shared.expand_threshold)
            {
                let recent = self.recent_moves(shared);
                let depth = self.path.len() - 1;
                expand::<D>(
                    shared,
                    node,
                    &self.scratch,
                    recent,
                    depth,
                    &mut self.prior_board,
                );
            }
            if read_at != 0 && entry_visits == read_at && node != ROOT {
                self.read_deep_node(shared, node);
            }
            let (first, count) = current.children();
            if count == 0 {
                if current.state() == EXPANDED && !D::HAS_PASS {
                    // The side to move has no legal move: it has lost.
                    current.set_proof(PROVEN_WIN);
                    return Some((Some(self.scratch.to_move().opponent()), None));
                }
                return None;
            }
            let child = select::<D>(shared, node, first, count);
            let child_node = tree.node(child);
            entry_visits = child_node.add_visit_counted();
            let mover = self.scratch.to_move();
            match child_node.mv() {
                Move::Play(p) => {
                    self.scratch.play_in_search(p, mover);
                    self.trace.push((p.0, mover));
                }
                Move::Pass => self.scratch.pass(),
            }
            self.path.push(child);
            self.movers.push(mover);
            self.trace_at_depth.push(self.trace.len());
            node = child;
            if let Some((winner, black_margin)) =
                D::ended_in_tree(&self.scratch, shared.komi, shared.real_komi)
            {
                child_node.set_proof(match winner {
                    Some(w) if w == mover => PROVEN_WIN,
                    Some(_) => PROVEN_LOSS,
                    None => UNPROVEN,
                });
                return Some((winner, Some(black_margin)));
            }
        }
    }

    /// Gives the moves of `node` (the position on `scratch`) the priors of
    /// the game's reading at that position, if its children are made.
    #[cold]
    fn read_deep_node(&self, shared: &Shared, node: NodeId) {
        let tree = shared.tree;
        let current = tree.node(node);
        if current.state() != EXPANDED {
            return;
        }
        let Move::Play(last) = current.mv() else {
            return;
        };
        let (first, count) = current.children();
        let children = tree.block(first, count);
        for (p, prior) in D::deep_priors(shared.params, &self.scratch, last) {
            if let Some(child) = children.iter().find(|c| c.mv() == Move::Play(p)) {
                let (visits, wins) = prior.to_node();
                child.add_prior(visits, wins);
            }
        }
    }

    /// Adds the simulation's result to the statistics of the root child it
    /// went through: its margin, and its criticality when the game was
    /// played to its end.
    #[inline(always)]
    fn record_root_statistics(
        &self,
        shared: &Shared,
        winner: Option<Color>,
        finished: bool,
        black_margin: Option<f32>,
    ) {
        let tree = shared.tree;
        // The root child the simulation went through, and its place among
        // the root's children.
        let root_child = match self.path[..] {
            [_, child, ..] => Some((child, (child - tree.node(ROOT).children().0) as usize)),
            _ => None,
        };
        if let (Some(scores), Some(margin), Some((_, index))) =
            (shared.scores, black_margin, root_child)
        {
            scores.record(index, margin);
        }
        if let Some(criticality) = shared.criticality
            && finished
            && let (Some(winner), Some((child, index))) = (winner, root_child)
            && let Move::Play(p) = tree.node(child).mv()
        {
            let owner = final_owner(&self.scratch, p);
            criticality.record(index, owner, winner);
        }
    }

    /// The stone that led to the current node (the game's last move at the root).
    fn last_move(&self, shared: &Shared) -> Option<Point> {
        self.recent_moves(shared).last
    }

    /// The last two moves that led to the current node, through the tree
    /// and then the game.
    fn recent_moves(&self, shared: &Shared) -> RecentMoves {
        let stone = |id: NodeId| match shared.tree.node(id).mv() {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        };
        match self.path[..] {
            [] | [_] => shared.root_recent,
            [_, only] => RecentMoves {
                last: stone(only),
                before_last: shared.root_recent.last,
            },
            [.., before, last] => RecentMoves {
                last: stone(last),
                before_last: stone(before),
            },
        }
    }

    /// Finishes the game from the leaf with the game's playout policy:
    /// the winner, whether the game was played to its end (not stopped by
    /// the mercy rule), so that the final board says who owns each point,
    /// and in a scored game Black's margin at the real komi.
    fn play_out(&mut self, shared: &Shared) -> (Option<Color>, bool, Option<f32>) {
        let last = self.last_move(shared);
        let trace = &mut self.trace;
        let record = |p: Point, c: Color| trace.push((p.0, c));
        let end = D::play_out(
            shared,
            &mut self.playout_state,
            &mut self.scratch,
            last,
            &mut self.rng,
            record,
        );
        (end.winner, end.finished, end.black_margin)
    }

    /// Adds the result to every node on the path, AMAF results to the
    /// siblings whose move the same player made later, and settles proofs.
    fn back_up(&mut self, shared: &Shared, winner: Option<Color>) {
        let tree = shared.tree;
        for (&id, &mover) in self.path.iter().zip(&self.movers) {
            tree.node(id).add_result(half_points(winner, mover));
        }
        // Walk the path upwards, adding each later stone to `first_player`
        // so that at depth d it holds who played each point first from d on.
        let mut cursor = self.trace.len();
        for depth in (0..self.path.len()).rev() {
            while cursor > self.trace_at_depth[depth] {
                cursor -= 1;
                let (p, color) = self.trace[cursor];
                self.first_player[p as usize] = 1 + color as u8;
            }
            let (first, count) = tree.node(self.path[depth]).children();
            if count == 0 {
                continue;
            }
            let to_move = self.movers[depth].opponent();
            let marker = 1 + to_move as u8;
            // What a sibling gets, by its point's `first_player` entry: one
            // AMAF playout where the marker matches, nothing elsewhere. A
            // table look-up, not a comparison: whether a sibling matches is
            // a coin flip the branch predictor loses, and the compiler turns
            // a comparison into a jump (adding zero costs less).
            let mut updates = [0; 4];
            updates[marker as usize] = amaf_update(half_points(winner, to_move));
            for child in tree.block(first, count) {
                // A pass (point 0, never played) never matches.
                let first = self.first_player[child.mv_index() as usize];
                child.add_amaf(updates[(first & 3) as usize]);
            }
        }
        for &(p, _) in &self.trace {
            self.first_player[p as usize] = 0;
        }
        propagate_proofs(tree, &self.path);
    }
}

/// Marks ancestors proven: a node is lost for its mover when the opponent
/// has a proven winning reply, won when every reply is a proven loss.
fn propagate_proofs(tree: &Tree, path: &[NodeId]) {
    for depth in (0..path.len().saturating_sub(1)).rev() {
        let parent = tree.node(path[depth]);
        match tree.node(path[depth + 1]).proof() {
            PROVEN_WIN => parent.set_proof(PROVEN_LOSS),
            PROVEN_LOSS => {
                let (first, count) = parent.children();
                let all_lost = tree
                    .block(first, count)
                    .iter()
                    .all(|child| child.proof() == PROVEN_LOSS);
                if !all_lost {
                    return;
                }
                parent.set_proof(PROVEN_WIN);
            }
            _ => return,
        }
    }
}

/// Creates the children of a leaf: every legal move the game finds worth
/// a child, in grid order, plus a pass where passing is a move, with the
/// game's priors. Returns false if another thread is expanding it or the
/// tree is full. `depth` is the leaf's distance from the root in moves;
/// `prior_board` is scratch space for priors that play a move out.
pub fn expand<D: Domain>(
    shared: &Shared,
    node: NodeId,
    position: &Position,
    recent: RecentMoves,
    depth: usize,
    prior_board: &mut Position,
) -> bool {
    let tree = shared.tree;
    let leaf = tree.node(node);
    if !leaf.try_begin_expansion() {
        return false;
    }
    // Children in grid order: ties in `select` go to the first.
    let candidates = D::tree_points(position);
    let mut moves: Vec<Point> = Vec::with_capacity(position.empty_points().len());
    moves.extend(candidates.iter());
    let count = moves.len() + D::HAS_PASS as usize;
    if count == 0 {
        leaf.finish_expansion(0, 0);
        return true;
    }
    let Some(block) = tree.allocate(count) else {
        leaf.abandon_expansion();
        return false;
    };
    let children = tree.block(block, count);
    let stand = Leaf { recent, depth };
    D::rate_children(shared, position, stand, &moves, prior_board, children);
    leaf.finish_expansion(block, count);
    true
}
