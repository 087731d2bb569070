//! One simulation of Monte-Carlo tree search: select down the tree by UCT
//! blended with RAVE, expand, play out, back the result up (real and AMAF
//! statistics), and propagate proven wins and losses (MCTS-solver).
//!
//! Perspective: a node's statistics belong to the player who moved into
//! it, so a parent picks the child that is best for the side to move.

use std::sync::LazyLock;

use crate::board::{Bitboard, Color, GameKind, Move, Outcome, Point, Position};

use super::nogo::{
    NogoLists, NogoPlayoutOptions, mobility_prior, nogo_playout, prior as nogo_prior,
};
use super::params::SearchParams;
use super::playout::{FastRng, light_playout_traced};
use super::policy::heavy_playout;
use super::prior::{PriorContext, go_prior};
use super::tree::{Node, NodeId, PROVEN_LOSS, PROVEN_WIN, ROOT, Tree, UNPROVEN, amaf_update};

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
    /// The stone played last in the game, for the playout policy.
    pub root_last_move: Option<Point>,
    /// Playouts a leaf needs before it is expanded on this board.
    pub expand_threshold: u32,
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

/// A search thread's private state.
pub struct Worker {
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
    /// Candidate lists of the NoGo playout policy.
    nogo_lists: NogoLists,
    /// Scratch board for priors that play a move out.
    prior_board: Position,
}

impl Worker {
    pub fn new(root: &Position, rng: FastRng) -> Worker {
        Worker {
            rng,
            scratch: root.clone(),
            path: Vec::with_capacity(64),
            movers: Vec::with_capacity(64),
            trace: Vec::with_capacity(1024),
            trace_at_depth: Vec::with_capacity(64),
            first_player: Box::new([0; 1 << 16]),
            nogo_lists: NogoLists::default(),
            prior_board: root.clone(),
        }
    }

    /// Runs one simulation.
    pub fn simulate(&mut self, shared: &Shared) {
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
        let mut terminal: Option<Option<Color>> = None;
        loop {
            let current = tree.node(node);
            if current.children().1 == 0
                && (node == ROOT || current.visits() > shared.expand_threshold)
            {
                let last = self.last_move(shared);
                expand(shared, node, &self.scratch, last, &mut self.prior_board);
            }
            let (first, count) = current.children();
            if count == 0 {
                if current.state() == super::tree::EXPANDED && self.scratch.kind() == GameKind::NoGo
                {
                    // The side to move has no legal move: it has lost.
                    let winner = self.scratch.to_move().opponent();
                    current.set_proof(PROVEN_WIN);
                    terminal = Some(Some(winner));
                }
                break;
            }
            let child = select(shared, node, first, count);
            let child_node = tree.node(child);
            child_node.add_visit();
            let mover = self.scratch.to_move();
            match child_node.mv() {
                Move::Play(p) => {
                    self.scratch.play(p, mover);
                    self.trace.push((p.0, mover));
                }
                Move::Pass => self.scratch.pass(),
            }
            self.path.push(child);
            self.movers.push(mover);
            self.trace_at_depth.push(self.trace.len());
            node = child;
            if self.scratch.kind() == GameKind::Go && self.scratch.consecutive_passes() >= 2 {
                let winner = match self.scratch.area_score().outcome(shared.komi) {
                    Outcome::Win(color, _) => Some(color),
                    Outcome::Draw => None,
                };
                child_node.set_proof(match winner {
                    Some(w) if w == mover => PROVEN_WIN,
                    Some(_) => PROVEN_LOSS,
                    None => UNPROVEN,
                });
                terminal = Some(winner);
                break;
            }
        }
        let winner = match terminal {
            Some(winner) => winner,
            None => self.play_out(shared),
        };
        self.back_up(shared, winner);
    }

    /// The stone that led to the current node (the game's last move at the root).
    fn last_move(&self, shared: &Shared) -> Option<Point> {
        match self.path.last() {
            Some(&ROOT) | None => shared.root_last_move,
            Some(&id) => match shared.tree.node(id).mv() {
                Move::Play(p) => Some(p),
                Move::Pass => None,
            },
        }
    }

    /// Finishes the game from the leaf with the playout policy.
    fn play_out(&mut self, shared: &Shared) -> Option<Color> {
        let max_moves = 3 * self.scratch.geometry().area() as u32;
        let last = self.last_move(shared);
        let trace = &mut self.trace;
        let record = |p: Point, c: Color| trace.push((p.0, c));
        let kind = self.scratch.kind();
        if kind == GameKind::NoGo && shared.params.nogo_playouts {
            let options = NogoPlayoutOptions {
                amaf_open_only: shared.params.nogo_amaf_contested_only,
                hold_reserve: shared.params.nogo_hold_reserve,
            };
            nogo_playout(
                &mut self.scratch,
                max_moves,
                options,
                &mut self.nogo_lists,
                &mut self.rng,
                record,
            )
            .winner
        } else if kind == GameKind::Go && shared.params.heavy_playouts {
            heavy_playout(
                &mut self.scratch,
                shared.komi,
                max_moves,
                last,
                &mut self.rng,
                record,
            )
            .winner
        } else {
            light_playout_traced(
                &mut self.scratch,
                shared.komi,
                max_moves,
                &mut self.rng,
                record,
            )
            .winner
        }
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

/// The child of `parent` with the best UCT-RAVE value for the side to move.
fn select(shared: &Shared, parent: NodeId, first: NodeId, count: usize) -> NodeId {
    let tree = shared.tree;
    let params = shared.params;
    let kind = shared.root.kind();
    let exploration = params.exploration_for(kind);
    let explore = exploration > 0.0;
    let double_exploration = 2.0 * exploration;
    // Without exploration the logarithm is not needed.
    let log_parent = if explore {
        (tree.node(parent).visits().max(1) as f64).ln()
    } else {
        0.0
    };
    let inverse_equivalence = 1.0 / params.rave_equivalence_for(kind);
    // NoGo scales the bonus by the real statistics' share of the blend, so
    // it joins the blend's numerator: c sqrt(ln N) n (1 + w) / sqrt(n + 1)
    // over the same denominator (one division per child, and a table for
    // the square root).
    let real_share_exploration = explore && kind == GameKind::NoGo;
    let shared_bonus_scale = double_exploration * log_parent.sqrt();
    let inverse_sqrt = &*INVERSE_SQRT;
    let children = tree.block(first, count);
    let excluded = |child: &Node| parent == ROOT && excluded_at_root(shared, child.mv());
    let screened = parent == ROOT && shared.root_has_excluded;
    // Values are never negative: the best stays at minus infinity only when
    // no child was valued.
    let (mut best_value, mut best) = (f64::NEG_INFINITY, 0);
    for (k, child) in children.iter().enumerate() {
        if screened && excluded(child) {
            continue;
        }
        let proof = child.proof();
        if proof != UNPROVEN {
            if proof == PROVEN_WIN {
                return first + k as NodeId;
            }
            continue;
        }
        // (1 - beta) q + beta q_amaf with beta = a / (a + n + a n / E),
        // rewritten over one common denominator: one division, not three.
        // Priors count as real and AMAF playouts alike. Wins stay in half
        // points, so `value` is twice the blend (exactly: doubling is exact
        // in floating point, so the comparisons come out the same).
        let visits = child.visits_with_prior();
        let n = visits as f64;
        let wins = child.wins_with_prior() as f64;
        let (amaf_n, amaf_wins) = child.amaf();
        let (amaf_n, amaf_wins) = (amaf_n as f64, amaf_wins as f64);
        let weight = amaf_n * inverse_equivalence;
        let mut numerator = (1.0 + weight) * wins + amaf_wins;
        if real_share_exploration {
            numerator += shared_bonus_numerator(shared_bonus_scale, visits, weight, inverse_sqrt);
        }
        let denominator = amaf_n + n + n * weight;
        let mut value = if denominator > 0.0 {
            numerator / denominator
        } else {
            // No statistics at all: even, and the whole bonus.
            1.0 + if real_share_exploration {
                shared_bonus_scale
            } else {
                0.0
            }
        };
        if explore && !real_share_exploration {
            value += double_exploration * (log_parent / (n + 1.0)).sqrt();
        }
        if value > best_value {
            (best_value, best) = (value, k);
        }
    }
    if best_value == f64::NEG_INFINITY {
        // Every child proven lost (or excluded): any will do, the last one
        // not excluded by choice.
        best = children.iter().rposition(|c| !excluded(c)).unwrap_or(0);
    }
    first + best as NodeId
}

/// NoGo's exploration term as a part of the blend's numerator: the UCT
/// bonus `scale / sqrt(n + 1)` (`scale` = 2c sqrt(ln N)) times the real
/// statistics' share of the blend, n (1 + w) / denominator, with the
/// denominator left to the blend. `weight` is w = a / E.
#[inline]
fn shared_bonus_numerator(scale: f64, visits: u32, weight: f64, table: &[f32]) -> f64 {
    scale * visits as f64 * (1.0 + weight) * inverse_sqrt_of_next(table, visits)
}

/// Visit counts below this take 1 / sqrt(n + 1) from a table (8 KiB, so
/// it stays in the first-level cache); only the few busiest nodes compute it.
const INVERSE_SQRT_TABLE: usize = 2048;

/// 1 / sqrt(n + 1) for n below [`INVERSE_SQRT_TABLE`].
static INVERSE_SQRT: LazyLock<Vec<f32>> = LazyLock::new(|| {
    (0..INVERSE_SQRT_TABLE)
        .map(|n| (1.0 / ((n + 1) as f64).sqrt()) as f32)
        .collect()
});

/// 1 / sqrt(n + 1), from `table` ([`INVERSE_SQRT`]) where it reaches.
#[inline]
fn inverse_sqrt_of_next(table: &[f32], n: u32) -> f64 {
    match table.get(n as usize) {
        Some(&value) => value as f64,
        None => 1.0 / (n as f64 + 1.0).sqrt(),
    }
}

/// Whether `mv` is ruled out at the root (superko, or a pass not allowed).
pub fn excluded_at_root(shared: &Shared, mv: Move) -> bool {
    match mv {
        Move::Pass => !shared.root_may_pass,
        Move::Play(p) => shared.root_excluded.contains(p),
    }
}

/// Creates the children of a leaf: every legal move (in Go, not into the
/// mover's own eye, plus a pass), with priors. Returns false if another
/// thread is expanding it or the tree is full.
/// `prior_board` is scratch space for priors that play a move out.
pub fn expand(
    shared: &Shared,
    node: NodeId,
    position: &Position,
    last: Option<Point>,
    prior_board: &mut Position,
) -> bool {
    let tree = shared.tree;
    let leaf = tree.node(node);
    if !leaf.try_begin_expansion() {
        return false;
    }
    let mover = position.to_move();
    let go = position.kind() == GameKind::Go;
    // Children in grid order (ties in `select` go to the first), gathered
    // through a bit set: cheaper than sorting the unordered empties list.
    let mut candidates = Bitboard::EMPTY;
    for &p in position.empty_points() {
        let p = Point(p);
        if position.is_legal_empty(p, mover) && !(go && position.is_eye(p, mover)) {
            candidates.set(p);
        }
    }
    let mut moves: Vec<Point> = Vec::with_capacity(position.empty_points().len());
    moves.extend(candidates.iter());
    let count = moves.len() + go as usize;
    if count == 0 {
        leaf.finish_expansion(0, 0);
        return true;
    }
    let Some(block) = tree.allocate(count) else {
        leaf.abandon_expansion();
        return false;
    };
    let open = position.empty_points().len() * 2 > position.geometry().area();
    let context = PriorContext { last, open };
    let children = tree.block(block, count);
    let params = shared.params;
    for (child, &p) in children.iter().zip(&moves) {
        let (visits, wins) = if !go && params.nogo_mobility_prior > 0.0 {
            let step = params.nogo_mobility_prior;
            mobility_prior(position, p, mover, params.prior_even, step, prior_board)
        } else if !go && params.nogo_priors {
            nogo_prior(position, p, mover, params.prior_even)
        } else {
            go_prior(params, position, p, mover, &context).to_node()
        };
        child.init(Move::Play(p), visits, wins);
    }
    if go {
        let penalty = if open { params.prior_pass_penalty } else { 0 };
        let visits = params.prior_even + penalty;
        children[moves.len()].init(
            Move::Pass,
            visits.min(u16::MAX as u32) as u16,
            params.prior_even,
        );
    }
    leaf.finish_expansion(block, count);
    true
}

#[cfg(test)]
mod tests {
    use super::{INVERSE_SQRT, INVERSE_SQRT_TABLE, inverse_sqrt_of_next, shared_bonus_numerator};

    #[test]
    fn nogo_exploration_fades_as_amaf_outweighs_the_real_playouts() {
        let scale = 0.2;
        let full_bonus = scale / 11f64.sqrt();
        // A child of 10 playouts (priors included) with AMAF playouts `a`,
        // RAVE that never fades: the bonus in the value is its real share,
        // 10 / (10 + a), of the plain UCT bonus.
        let bonus = |a: f64| {
            let weight = a / 1e9;
            let denominator = a + 10.0 + 10.0 * weight;
            shared_bonus_numerator(scale, 10, weight, &INVERSE_SQRT) / denominator
        };
        assert!((bonus(0.0) - full_bonus).abs() < 1e-7, "{}", bonus(0.0));
        assert!(
            (bonus(990.0) - full_bonus / 100.0).abs() < 1e-7,
            "{}",
            bonus(990.0)
        );
        assert!(bonus(90.0) > bonus(990.0));
    }

    #[test]
    fn the_inverse_square_root_table_agrees_with_the_formula() {
        for n in [
            0,
            1,
            3,
            99,
            INVERSE_SQRT_TABLE as u32 - 1,
            INVERSE_SQRT_TABLE as u32,
            1 << 20,
        ] {
            let exact = 1.0 / (n as f64 + 1.0).sqrt();
            let looked_up = inverse_sqrt_of_next(&INVERSE_SQRT, n);
            assert!(
                (looked_up - exact).abs() < 1e-7 * exact,
                "{n}: {looked_up} {exact}"
            );
        }
        assert_eq!(inverse_sqrt_of_next(&INVERSE_SQRT, 0), 1.0);
    }
}
