//! One simulation of Monte-Carlo tree search: select down the tree by UCT
//! blended with RAVE, expand, play out, back the result up (real and AMAF
//! statistics), and propagate proven wins and losses (MCTS-solver).
//!
//! Perspective: a node's statistics belong to the player who moved into
//! it, so a parent picks the child that is best for the side to move.

use std::sync::atomic::{AtomicI64, AtomicU32, Ordering::Relaxed};

use crate::board::{Bitboard, Cell, Color, GameKind, LibertyMemo, Move, Outcome, Point, Position};

use super::dyn_komi::{MarginTally, counted_margin};
use super::params::SearchParams;
use super::playout::{FastRng, light_playout_traced, unit_roll};
use super::tree::{
    Node, NodeId, PROVEN_LOSS, PROVEN_WIN, ROOT, Tree, UNPROVEN, amaf_parts, amaf_update, amaf_word,
};
use crate::go::checks::MoveChecks;
use crate::go::features::{GO_GAMMAS, RecentMoves, move_features};
use crate::go::policy::heavy_playout;
use crate::go::prior::{Prior, PriorContext, add_learned, go_prior};
use crate::nogo::policy::{
    NogoLists, NogoPlayoutOptions, margin_draw_chance, mobility_prior, nogo_playout,
    prior as nogo_prior,
};

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
    /// The root moves' criticality, when `SearchParams::criticality` is on (Go).
    pub criticality: Option<&'a RootCriticality>,
    /// Where Go playouts count their margins per root move.
    pub scores: Option<&'a RootScores>,
    /// The game's komi, which `komi` differs from under a dynamic komi.
    pub real_komi: f32,
}

/// Complete playouts through a root child before its criticality counts
/// (Pachi waits for 2,000 too: below that the correlation is noise).
const CRITICALITY_MIN_PLAYOUTS: u32 = 2000;

/// Criticality (Coulom 2009) of the root's moves, Go only: over the
/// complete playouts through each root child, how often the child's point
/// ended up Black's and the winner's. Where the point's owner is the
/// playout's winner more often than chance would have it, the move is
/// where the game is decided, and its AMAF value rises.
pub struct RootCriticality {
    /// Per root child, in the children's order: complete decided playouts,
    /// Black's wins among them, those where the point ended Black's, and
    /// those where it ended the winner's.
    counts: Vec<[AtomicU32; 4]>,
}

impl RootCriticality {
    /// Empty counts for a root with `children` children.
    pub fn new(children: usize) -> RootCriticality {
        RootCriticality {
            counts: (0..children).map(|_| Default::default()).collect(),
        }
    }

    /// Counts a playout through root child `child`, whose point ended up
    /// `owner`'s, won by `winner`.
    fn record(&self, child: usize, owner: Option<Color>, winner: Color) {
        let Some([playouts, black_wins, black_owns, winner_owns]) = self.counts.get(child) else {
            return;
        };
        playouts.fetch_add(1, Relaxed);
        black_wins.fetch_add((winner == Color::Black) as u32, Relaxed);
        black_owns.fetch_add((owner == Some(Color::Black)) as u32, Relaxed);
        winner_owns.fetch_add((owner == Some(winner)) as u32, Relaxed);
    }

    /// Root child `child`'s criticality: how much more often its point's
    /// owner won than if ownership and winning were independent, in
    /// [-1, 1]; `None` before enough playouts.
    fn of(&self, child: usize) -> Option<f32> {
        let [playouts, black_wins, black_owns, winner_owns] = self.counts.get(child)?;
        let n = playouts.load(Relaxed);
        if n < CRITICALITY_MIN_PLAYOUTS {
            return None;
        }
        let share = |count: &AtomicU32| count.load(Relaxed) as f32 / n as f32;
        let (win, black, owner_won) = (share(black_wins), share(black_owns), share(winner_owns));
        // A point left to neither side counts as White's here (as in Pachi):
        // such points are rare at the end of a complete playout.
        let white = 1.0 - black;
        Some(owner_won - (black * win + white * (1.0 - win)))
    }
}

/// Per root child, the final margins of this search's Go playouts through
/// it: what the move is worth in points, beside how often it wins.
pub struct RootScores {
    /// Per root child, in the children's order: the sum of Black's margins
    /// at the real komi, in half points.
    half_point_sums: Vec<AtomicI64>,
    /// Per root child: the playouts counted in its sum.
    playouts: Vec<AtomicU32>,
}

impl RootScores {
    /// Empty sums for a root with at most `children` children.
    pub fn new(children: usize) -> RootScores {
        RootScores {
            half_point_sums: (0..children).map(|_| AtomicI64::new(0)).collect(),
            playouts: (0..children).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    /// How many root children it has room for.
    pub fn children(&self) -> usize {
        self.playouts.len()
    }

    /// Counts a playout through root child `child` that Black ended
    /// `black_margin` points up at the real komi.
    fn record(&self, child: usize, black_margin: f32) {
        if let (Some(sum), Some(playouts)) =
            (self.half_point_sums.get(child), self.playouts.get(child))
        {
            sum.fetch_add((2.0 * black_margin).round() as i64, Relaxed);
            playouts.fetch_add(1, Relaxed);
        }
    }

    /// Root child `child`'s mean margin for Black at the real komi (`None`
    /// before any playout).
    pub fn mean(&self, child: usize) -> Option<f64> {
        let playouts = self.playouts.get(child)?.load(Relaxed);
        let sum = self.half_point_sums.get(child)?.load(Relaxed);
        (playouts > 0).then(|| sum as f64 / (2.0 * playouts as f64))
    }
}

/// Who owns `p` at the end of a playout: its stone's colour, or the colour
/// of every stone around an empty point; `None` for a point between both.
fn final_owner(position: &Position, p: Point) -> Option<Color> {
    if let Some(color) = position.cell(p).color() {
        return Some(color);
    }
    let mut owner = None;
    for &n in &position.geometry().neighbours(p) {
        match (position.cell(n), owner) {
            (Cell::Border, _) => {}
            (cell, None) => owner = Some(cell.color()?),
            (cell, Some(color)) if cell.color() == Some(color) => {}
            _ => return None,
        }
    }
    owner
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
        let mut terminal: Option<(Option<Color>, Option<f32>)> = None;
        loop {
            let current = tree.node(node);
            if current.children().1 == 0
                && (node == ROOT || current.visits() > shared.expand_threshold)
            {
                let recent = self.recent_moves(shared);
                expand(shared, node, &self.scratch, recent, &mut self.prior_board);
            }
            let (first, count) = current.children();
            if count == 0 {
                if current.state() == super::tree::EXPANDED && self.scratch.kind() == GameKind::NoGo
                {
                    // The side to move has no legal move: it has lost.
                    let winner = self.scratch.to_move().opponent();
                    current.set_proof(PROVEN_WIN);
                    terminal = Some((Some(winner), None));
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
                let score = self.scratch.area_score();
                let winner = match score.outcome(shared.komi) {
                    Outcome::Win(color, _) => Some(color),
                    Outcome::Draw => None,
                };
                child_node.set_proof(match winner {
                    Some(w) if w == mover => PROVEN_WIN,
                    Some(_) => PROVEN_LOSS,
                    None => UNPROVEN,
                });
                terminal = Some((winner, Some(score.margin(shared.real_komi))));
                break;
            }
        }
        // A game the tree itself ended is over: its board is final.
        let (winner, finished, black_margin) = match terminal {
            Some((winner, margin)) => (winner, true, margin),
            None => self.play_out(shared),
        };
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
        self.back_up(shared, winner);
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

    /// Finishes the game from the leaf with the playout policy: the winner,
    /// whether the game was played to its end (not stopped by the mercy
    /// rule), so that the final board says who owns each point, and in Go
    /// Black's margin at the real komi.
    fn play_out(&mut self, shared: &Shared) -> (Option<Color>, bool, Option<f32>) {
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
            let winner = nogo_playout(
                &mut self.scratch,
                max_moves,
                options,
                &mut self.nogo_lists,
                &mut self.rng,
                record,
            )
            .winner;
            let weight = shared.params.nogo_margin_weight;
            let winner = match winner {
                Some(color) if weight > 0.0 => {
                    let spare = self.nogo_lists.spare_moves(color);
                    let chance = margin_draw_chance(weight, shared.params.nogo_margin_scale, spare);
                    if unit_roll(&mut self.rng) < chance {
                        None
                    } else {
                        winner
                    }
                }
                _ => winner,
            };
            (winner, true, None)
        } else {
            let result = if kind == GameKind::Go && shared.params.heavy_playouts {
                heavy_playout(
                    &mut self.scratch,
                    shared.komi,
                    max_moves,
                    last,
                    &mut self.rng,
                    record,
                )
            } else {
                light_playout_traced(
                    &mut self.scratch,
                    shared.komi,
                    max_moves,
                    &mut self.rng,
                    record,
                )
            };
            if let Some(tally) = shared.margins {
                tally.record(&result);
            }
            let weight = shared.params.go_score_weight;
            let winner = if kind == GameKind::Go && weight > 0.0 {
                let side = (self.scratch.geometry().area() as f64 / 81.0).sqrt();
                let scale = shared.params.go_score_scale * side;
                let value = score_blended_value(result.winner, result.margin, weight, scale);
                draw_result(value, &mut self.rng)
            } else {
                result.winner
            };
            let black_margin = (kind == GameKind::Go)
                .then(|| counted_margin(&result, shared.komi - shared.real_komi));
            (winner, !result.by_mercy, black_margin)
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

/// Black's value of a Go playout that ended `margin` points up for Black
/// (see `SearchParams::go_score_weight`): mostly who won, partly by how much.
fn score_blended_value(winner: Option<Color>, margin: f32, weight: f64, scale: f64) -> f64 {
    let won = match winner {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    };
    (1.0 - weight) * won + weight * 0.5 * (1.0 + (margin as f64 / scale).tanh())
}

/// A result whose expected half points for Black are `2 * black_value`,
/// keeping as many playouts decisive as that allows: the side favoured
/// wins with chance |2v - 1|, the rest are draws.
fn draw_result(black_value: f64, rng: &mut FastRng) -> Option<Color> {
    let lead = 2.0 * black_value - 1.0;
    if unit_roll(rng) >= lead.abs() {
        None
    } else if lead > 0.0 {
        Some(Color::Black)
    } else {
        Some(Color::White)
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

/// Children valued together in [`select`]: four at a time, in the lanes of
/// one vector register (one division instruction for four children).
const LANES: usize = 4;

/// What every child's value in one [`select`] shares.
#[derive(Clone, Copy, Debug)]
struct ValueTerms {
    /// 1 / E: how fast the RAVE share fades (E = `rave_equivalence`).
    inverse_equivalence: f32,
    /// NoGo's exploration bonus scale, 2c sqrt(ln N), applied to the real
    /// statistics' share of the blend; 0 in Go or without exploration.
    shared_bonus: f32,
    /// Go's exploration bonus scale, 2c sqrt(ln N), added whole; 0 in NoGo
    /// or without exploration.
    plain_bonus: f32,
}

/// One child's statistics as [`select`] reads them: playouts and wins (in
/// half points) with priors, and its AMAF word ([`Node::amaf_word`]).
#[derive(Clone, Copy, Default, Debug)]
struct ChildStats {
    visits: u32,
    wins: u32,
    amaf: u64,
}

impl ChildStats {
    #[inline(always)]
    fn of(child: &Node) -> ChildStats {
        ChildStats {
            visits: child.visits_with_prior(),
            wins: child.wins_with_prior(),
            amaf: child.amaf_word(),
        }
    }
}

/// Twice the UCT-RAVE value of four children (wins are counted in half
/// points): the blend (1 - beta) q + beta q_amaf with beta = a / (a + n +
/// a n / E), over one common denominator, plus the exploration bonus
/// 2c sqrt(ln N) / sqrt(n + 1). Go adds the bonus whole. NoGo multiplies it
/// by the real statistics' share of the blend, n (1 + a / E) / denominator
/// (as HaHaNoGo's formula does: a move explores once its own playouts weigh
/// against AMAF), so it joins the numerator. Priors count as real and AMAF
/// playouts alike. A child with no statistics at all is even, with the
/// whole bonus. Counts stay below 2^31 (the search stops at
/// `ROOT_VISIT_CEILING`), so they convert as signed.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lane_values(terms: &ValueTerms, stats: &[ChildStats; LANES]) -> [f32; LANES] {
    use std::arch::x86_64::*;
    let [s0, s1, s2, s3] = *stats;
    // SAFETY: these intrinsics only need SSE and SSE2, which every x86_64
    // processor has (they are part of the architecture's baseline); none
    // of them touches memory.
    unsafe {
        let visits = _mm_set_epi32(
            s3.visits as i32,
            s2.visits as i32,
            s1.visits as i32,
            s0.visits as i32,
        );
        let wins = _mm_set_epi32(
            s3.wins as i32,
            s2.wins as i32,
            s1.wins as i32,
            s0.wins as i32,
        );
        // Each AMAF word holds (wins, playouts) as its low and high halves:
        // two words to a register, then the even and the odd halves apart.
        let amaf_01 = _mm_castsi128_ps(_mm_set_epi64x(s1.amaf as i64, s0.amaf as i64));
        let amaf_23 = _mm_castsi128_ps(_mm_set_epi64x(s3.amaf as i64, s2.amaf as i64));
        let amaf_wins = _mm_cvtepi32_ps(_mm_castps_si128(_mm_shuffle_ps::<0b10_00_10_00>(
            amaf_01, amaf_23,
        )));
        let amaf_n = _mm_cvtepi32_ps(_mm_castps_si128(_mm_shuffle_ps::<0b11_01_11_01>(
            amaf_01, amaf_23,
        )));
        let n = _mm_cvtepi32_ps(visits);
        let wins = _mm_cvtepi32_ps(wins);
        let one = _mm_set1_ps(1.0);
        let real_weight = _mm_add_ps(
            one,
            _mm_mul_ps(amaf_n, _mm_set1_ps(terms.inverse_equivalence)),
        );
        // Both bonuses divide by s = sqrt(n + 1), the blend by its
        // denominator d: over the one denominator d s, a single division,
        // (blend numerator s + shared bonus n (1 + w) + plain bonus d) / (d s).
        let sqrt_next = _mm_sqrt_ps(_mm_add_ps(n, one));
        let blend_numerator = _mm_add_ps(_mm_mul_ps(real_weight, wins), amaf_wins);
        let denominator = _mm_add_ps(amaf_n, _mm_mul_ps(n, real_weight));
        let numerator = _mm_add_ps(
            _mm_add_ps(
                _mm_mul_ps(blend_numerator, sqrt_next),
                _mm_mul_ps(_mm_set1_ps(terms.shared_bonus), _mm_mul_ps(n, real_weight)),
            ),
            _mm_mul_ps(_mm_set1_ps(terms.plain_bonus), denominator),
        );
        let valued = _mm_cmpgt_ps(denominator, _mm_setzero_ps());
        // 0 / 0 in the unvalued lanes is replaced below: divide by 1 there.
        let safe_denominator = _mm_or_ps(
            _mm_and_ps(valued, _mm_mul_ps(denominator, sqrt_next)),
            _mm_andnot_ps(valued, one),
        );
        let quotient = _mm_div_ps(numerator, safe_denominator);
        // No statistics (n = 0, so s = 1): even, with both bonuses whole.
        let even = _mm_set1_ps(1.0 + terms.shared_bonus + terms.plain_bonus);
        let values = _mm_or_ps(_mm_and_ps(valued, quotient), _mm_andnot_ps(valued, even));
        [
            _mm_cvtss_f32(values),
            _mm_cvtss_f32(_mm_shuffle_ps::<1>(values, values)),
            _mm_cvtss_f32(_mm_shuffle_ps::<2>(values, values)),
            _mm_cvtss_f32(_mm_shuffle_ps::<3>(values, values)),
        ]
    }
}

/// [`lane_values`] one child at a time, where no vector code is written.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn lane_values(terms: &ValueTerms, stats: &[ChildStats; LANES]) -> [f32; LANES] {
    stats.map(|s| {
        let n = s.visits as i32 as f32;
        let amaf_n = (s.amaf >> 32) as i32 as f32;
        let real_weight = 1.0 + amaf_n * terms.inverse_equivalence;
        let inverse_sqrt_next = 1.0 / (n + 1.0).sqrt();
        let numerator = real_weight * s.wins as i32 as f32
            + s.amaf as u32 as i32 as f32
            + terms.shared_bonus * n * real_weight * inverse_sqrt_next;
        let denominator = amaf_n + n * real_weight;
        let blend = if denominator > 0.0 {
            numerator / denominator
        } else {
            1.0 + terms.shared_bonus
        };
        blend + terms.plain_bonus * inverse_sqrt_next
    })
}

/// An AMAF word (see [`Node::amaf_word`]) with `weight` times its
/// playouts added as wins (taken away as wins, for a negative weight).
fn critical_amaf(amaf: u64, weight: f32) -> u64 {
    let (playouts, wins) = amaf_parts(amaf);
    let (playouts, wins) = (playouts as f32, wins as f32);
    let extra = weight * playouts;
    let playouts = (playouts + extra).max(1.0);
    let wins = (wins + 2.0 * extra).clamp(0.0, 2.0 * playouts);
    amaf_word(playouts as u32, wins as u32)
}

/// The child of `parent` with the best UCT-RAVE value for the side to move
/// (see [`lane_values`]); ties go to the first. A child proven won is taken
/// at once, children proven lost (and moves excluded at the root) are
/// passed over.
fn select(shared: &Shared, parent: NodeId, first: NodeId, count: usize) -> NodeId {
    let tree = shared.tree;
    let params = shared.params;
    let kind = shared.root.kind();
    let exploration = params.exploration_for(kind);
    let bonus = if exploration > 0.0 {
        let log_parent = (tree.node(parent).visits().max(1) as f64).ln();
        (2.0 * exploration * log_parent.sqrt()) as f32
    } else {
        0.0
    };
    let nogo = kind == GameKind::NoGo;
    let terms = ValueTerms {
        inverse_equivalence: shared.inverse_rave_equivalence,
        shared_bonus: if nogo { bonus } else { 0.0 },
        plain_bonus: if nogo { 0.0 } else { bonus },
    };
    let children = tree.block(first, count);
    let screened = parent == ROOT && shared.root_has_excluded;
    let criticality = shared.criticality.filter(|_| parent == ROOT);
    // Values are never negative: the best stays at minus infinity only when
    // no child was valued.
    let (mut best_value, mut best) = (f32::NEG_INFINITY, 0);
    let mut stats = [ChildStats::default(); LANES];
    for (c, chunk) in children.chunks(LANES).enumerate() {
        let mut proofs = UNPROVEN;
        for (k, child) in chunk.iter().enumerate() {
            proofs |= child.proof();
            stats[k] = ChildStats::of(child);
        }
        // Only at the root: one test a chunk keeps the loop above tight.
        if let Some(criticality) = criticality {
            for (k, child_stats) in stats.iter_mut().enumerate().take(chunk.len()) {
                if let Some(critical) = criticality.of(c * LANES + k) {
                    child_stats.amaf =
                        critical_amaf(child_stats.amaf, critical * params.criticality as f32);
                }
            }
        }
        let values = lane_values(&terms, &stats);
        for (k, child) in chunk.iter().enumerate() {
            // Proofs and exclusions are rare: one test per chunk.
            if proofs != UNPROVEN || screened {
                match child.proof() {
                    PROVEN_WIN => return first + (c * LANES + k) as NodeId,
                    PROVEN_LOSS => continue,
                    _ => {}
                }
                if screened && excluded_at_root(shared, child.mv()) {
                    continue;
                }
            }
            if values[k] > best_value {
                (best_value, best) = (values[k], c * LANES + k);
            }
        }
    }
    if best_value == f32::NEG_INFINITY {
        // Every child proven lost (or excluded): any will do, the last one
        // not excluded by choice.
        let excluded = |child: &Node| parent == ROOT && excluded_at_root(shared, child.mv());
        best = children.iter().rposition(|c| !excluded(c)).unwrap_or(0);
    }
    first + best as NodeId
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
    recent: RecentMoves,
    prior_board: &mut Position,
) -> bool {
    let last = recent.last;
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
    let open = position.is_open();
    let children = tree.block(block, count);
    let params = shared.params;
    if go {
        // One set of checks per candidate serves the learned features and
        // the hand-made prior; the learned share needs the strongest
        // candidate, so it is added once all are rated.
        let liberties = LibertyMemo::new(position);
        let context = PriorContext { last, open };
        let learned = params.prior_learned > 0;
        let rated: Vec<(Prior, f32)> = moves
            .iter()
            .map(|&p| {
                let checks = MoveChecks::new(position, p, mover, &liberties);
                let strength = if learned {
                    GO_GAMMAS.strength(&move_features(&checks, recent, open))
                } else {
                    0.0
                };
                (go_prior(params, &checks, &context), strength)
            })
            .collect();
        let strongest = rated
            .iter()
            .map(|&(_, strength)| strength)
            .fold(f32::MIN_POSITIVE, f32::max);
        for (child, (&p, &(mut prior, strength))) in children.iter().zip(moves.iter().zip(&rated)) {
            if learned {
                add_learned(&mut prior, params, strength / strongest);
            }
            let (visits, wins) = prior.to_node();
            child.init(Move::Play(p), visits, wins);
        }
    } else {
        for (child, &p) in children.iter().zip(&moves) {
            let (visits, wins) = if params.nogo_mobility_prior > 0.0 {
                let step = params.nogo_mobility_prior;
                mobility_prior(position, p, mover, params.prior_even, step, prior_board)
            } else if params.nogo_priors {
                nogo_prior(position, p, mover, params.prior_even)
            } else {
                Prior::even(params.prior_even).to_node()
            };
            child.init(Move::Play(p), visits, wins);
        }
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
    use super::{
        CRITICALITY_MIN_PLAYOUTS, ChildStats, LANES, RootCriticality, ValueTerms, amaf_word,
        critical_amaf, draw_result, final_owner, lane_values, score_blended_value,
    };
    use crate::board::{Color, GameKind, Position};
    use crate::search::playout::{FastRng, below};
    use rand_xoshiro::rand_core::SeedableRng;

    /// The value of one child, written out as the formula reads, in f64.
    fn reference_value(terms: &ValueTerms, child: &ChildStats) -> f64 {
        let n = child.visits as f64;
        let wins = child.wins as f64;
        let amaf_n = (child.amaf >> 32) as f64;
        let amaf_wins = (child.amaf & 0xffff_ffff) as f64;
        let weight = amaf_n * terms.inverse_equivalence as f64;
        let denominator = amaf_n + n + n * weight;
        let uct_bonus = 1.0 / (n + 1.0).sqrt();
        let blend = if denominator > 0.0 {
            let real_share = n * (1.0 + weight) / denominator;
            ((1.0 + weight) * wins + amaf_wins) / denominator
                + terms.shared_bonus as f64 * uct_bonus * real_share
        } else {
            1.0 + terms.shared_bonus as f64
        };
        blend + terms.plain_bonus as f64 * uct_bonus
    }

    fn stats(visits: u32, wins: u32, amaf_visits: u32, amaf_wins: u32) -> ChildStats {
        ChildStats {
            visits,
            wins,
            amaf: (amaf_visits as u64) << 32 | amaf_wins as u64,
        }
    }

    #[test]
    fn lane_values_agree_with_the_formula() {
        let mut rng = FastRng::seed_from_u64(3);
        let term_sets = [
            ValueTerms {
                inverse_equivalence: 1e-9,
                shared_bonus: 0.6,
                plain_bonus: 0.0,
            },
            ValueTerms {
                inverse_equivalence: 1.0 / 3000.0,
                shared_bonus: 0.0,
                plain_bonus: 0.7,
            },
            ValueTerms {
                inverse_equivalence: 1.0 / 3000.0,
                shared_bonus: 0.0,
                plain_bonus: 0.0,
            },
        ];
        for terms in &term_sets {
            for _ in 0..2000 {
                let lanes: [ChildStats; LANES] = std::array::from_fn(|_| {
                    // Counts from none to the busiest root children's.
                    let scale = [0, 1, 30, 2000, 5_000_000][below(&mut rng, 5)];
                    let n = below(&mut rng, scale + 1) as u32;
                    let amaf_n = below(&mut rng, 4 * scale + 1) as u32;
                    let wins = below(&mut rng, 2 * n as usize + 1) as u32;
                    let amaf_wins = below(&mut rng, 2 * amaf_n as usize + 1) as u32;
                    stats(n, wins, amaf_n, amaf_wins)
                });
                let values = lane_values(terms, &lanes);
                for (k, child) in lanes.iter().enumerate() {
                    let expected = reference_value(terms, child);
                    assert!(
                        (values[k] as f64 - expected).abs() < 1e-5 * expected.max(1.0),
                        "{terms:?} {child:?}: {} against {expected}",
                        values[k]
                    );
                }
            }
        }
    }

    #[test]
    fn nogo_exploration_fades_as_amaf_outweighs_the_real_playouts() {
        let terms = ValueTerms {
            inverse_equivalence: 1e-9,
            shared_bonus: 0.2,
            plain_bonus: 0.0,
        };
        let full_bonus = 0.2 / 11f64.sqrt();
        // A child of 10 playouts at 50% (priors included) with `a` AMAF
        // playouts at 50%, RAVE that never fades: the bonus in the value is
        // its real share, 10 / (10 + a), of the plain UCT bonus.
        let bonus = |a: u32| {
            let lanes = [stats(10, 10, a, a); LANES];
            lane_values(&terms, &lanes)[0] as f64 - 1.0
        };
        assert!((bonus(0) - full_bonus).abs() < 1e-6, "{}", bonus(0));
        assert!(
            (bonus(990) - full_bonus / 100.0).abs() < 1e-6,
            "{}",
            bonus(990)
        );
        assert!(bonus(90) > bonus(990));
    }

    #[test]
    fn score_blend_keeps_the_winner_ahead_and_ranks_margins() {
        let value = |winner, margin| score_blended_value(winner, margin, 0.1, 10.0);
        // A win is worth more than any loss, however large or small.
        assert!(value(Some(Color::Black), -0.5) > value(Some(Color::White), 80.0));
        assert!(value(Some(Color::Black), 30.5) > value(Some(Color::Black), 0.5));
        assert!(value(Some(Color::White), -30.5) < value(Some(Color::White), -0.5));
        assert!((value(None, 0.0) - 0.5).abs() < 1e-12);
        // Weight 0 is the plain win rate; weight 1 is the margin alone.
        assert_eq!(
            score_blended_value(Some(Color::Black), -3.0, 0.0, 10.0),
            1.0
        );
        let margin_only = score_blended_value(Some(Color::White), 10.0, 1.0, 10.0);
        assert!((margin_only - 0.5 * (1.0 + 1f64.tanh())).abs() < 1e-12);
    }

    #[test]
    fn drawn_results_have_the_blended_value_as_their_mean() {
        let mut rng = FastRng::seed_from_u64(5);
        for target in [0.0, 0.1, 0.45, 0.5, 0.83, 1.0] {
            let trials = 200_000;
            let mut half_points = 0u64;
            let mut draws = 0u64;
            for _ in 0..trials {
                half_points += match draw_result(target, &mut rng) {
                    Some(Color::Black) => 2,
                    Some(Color::White) => 0,
                    None => {
                        draws += 1;
                        1
                    }
                };
            }
            let mean = half_points as f64 / (2 * trials) as f64;
            assert!((mean - target).abs() < 0.005, "{target}: mean {mean}");
            // Only the unsure part is drawn: certain values never draw.
            let draw_share = draws as f64 / trials as f64;
            let expected_draws = 1.0 - (2.0 * target - 1.0f64).abs();
            assert!(
                (draw_share - expected_draws).abs() < 0.005,
                "{target}: {draw_share}"
            );
        }
    }

    #[test]
    fn criticality_measures_how_much_a_points_owner_wins_beyond_chance() {
        let critical = RootCriticality::new(2);
        // Child 0: its point's owner always wins, each side half the time.
        // Child 1: Black owns its point and wins half the time, unrelated.
        for k in 0..CRITICALITY_MIN_PLAYOUTS {
            let winner = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            critical.record(0, Some(winner), winner);
            critical.record(1, Some(Color::Black), winner);
        }
        assert!((critical.of(0).unwrap() - 0.5).abs() < 1e-6);
        assert!(critical.of(1).unwrap().abs() < 1e-6);
        let young = RootCriticality::new(1);
        young.record(0, Some(Color::Black), Color::Black);
        assert_eq!(young.of(0), None, "too few playouts to tell");
    }

    #[test]
    fn critical_amaf_adds_wins_in_proportion_and_stays_in_range() {
        // 100 playouts at 50%: +0.1 adds 10 won playouts.
        assert_eq!(critical_amaf(amaf_word(100, 100), 0.1), amaf_word(110, 120));
        assert_eq!(critical_amaf(amaf_word(100, 100), -0.1), amaf_word(90, 80));
        // Never more wins than playouts, never fewer than none.
        assert_eq!(critical_amaf(amaf_word(100, 200), 0.5), amaf_word(150, 300));
        assert_eq!(critical_amaf(amaf_word(100, 0), -0.5), amaf_word(50, 0));
    }

    #[test]
    fn a_final_owner_is_the_stone_or_the_colour_around_an_empty_point() {
        let p = Position::from_text(
            ". X O
             X X .
             O . X",
            GameKind::Go,
        )
        .unwrap();
        let at = |col, row| p.geometry().point(col, row).unwrap();
        assert_eq!(final_owner(&p, at(0, 2)), Some(Color::Black));
        assert_eq!(final_owner(&p, at(1, 1)), Some(Color::Black));
        assert_eq!(final_owner(&p, at(2, 1)), None, "between both colours");
        assert_eq!(final_owner(&p, at(0, 0)), Some(Color::White));
    }
}
