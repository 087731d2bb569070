//! What a search tells its caller: the root's candidates with their
//! visits, win rates, priors, score leads, proofs and principal variations.

use std::time::Duration;

use crate::board::{Color, Move};

use super::root_stats::RootScores;
use super::tree::{self, NodeId, PROVEN_LOSS, PROVEN_WIN, ROOT, Tree};

/// The 95% Wilson score interval of a win rate `share` over `trials`
/// (more than zero), clamped to [0, 1]: narrow for many trials, wide and
/// away from 0 and 1 for few. Search reports and match tools both use it.
pub fn wilson_interval(share: f64, trials: f64) -> (f64, f64) {
    const Z: f64 = 1.96;
    let z2 = Z * Z;
    let centre = share + z2 / (2.0 * trials);
    let spread = Z * (share * (1.0 - share) / trials + z2 / (4.0 * trials * trials)).sqrt();
    let scale = 1.0 + z2 / trials;
    (
        ((centre - spread) / scale).clamp(0.0, 1.0),
        ((centre + spread) / scale).clamp(0.0, 1.0),
    )
}

/// Statistics of one candidate move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Playouts through this move.
    pub visits: u64,
    /// Share of those playouts won by the side to move, in [0, 1].
    pub winrate: f64,
    /// Prior probability the search gave the move before any playout, in [0, 1].
    pub prior: f64,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Go: the side to move's mean margin at the real komi over this
    /// search's playouts through the move (`None` before any, and in NoGo).
    pub score_lead: Option<f64>,
    /// Whether the solver proved the move won or lost.
    pub proof: Proof,
}

/// What a search found, best candidate first.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// The side the search played for.
    pub to_move: Color,
    /// Root candidates, most visited first.
    pub candidates: Vec<Candidate>,
    /// Playouts run.
    pub playouts: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Points beyond komi the search asked of the side to move (the
    /// dynamic komi: positive in a won position, negative, points given,
    /// in a lost one; 0 when none), under which `candidates`' win rates are.
    pub extra_margin: i32,
    /// Under a dynamic komi, the best win rate the probe found at the
    /// real komi before the komi moved.
    pub probe_winrate: Option<f64>,
}

impl SearchReport {
    /// The most visited candidate, if any move was legal.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }

    /// Win rate of the best candidate for the side to move (0.5 if none).
    pub fn winrate(&self) -> f64 {
        self.best().map_or(0.5, |c| c.winrate)
    }
}

/// Proof status of a candidate, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    Unknown,
    /// The move wins with perfect play.
    Win,
    /// The move loses with perfect play.
    Loss,
}

/// Longest principal variation reported.
const MAX_PV: usize = 24;

pub(super) fn report(
    tree: &Tree,
    scores: Option<&RootScores>,
    to_move: Color,
    playouts: u64,
    elapsed: Duration,
    extra_margin: i32,
) -> SearchReport {
    let (first, count) = tree.node(ROOT).children();
    let prior_total: f64 = (0..count as NodeId)
        .map(|k| prior_share(tree.node(first + k)))
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let mut candidates: Vec<Candidate> = (0..count as NodeId)
        .map(|k| {
            let id = first + k;
            let node = tree.node(id);
            Candidate {
                mv: node.mv(),
                visits: node.visits() as u64,
                winrate: node.winrate(),
                prior: prior_share(node) / prior_total,
                pv: principal_variation(tree, id),
                score_lead: scores
                    .and_then(|scores| scores.mean(k as usize))
                    .map(|black_margin| match to_move {
                        Color::Black => black_margin,
                        Color::White => -black_margin,
                    }),
                proof: match node.proof() {
                    PROVEN_WIN => Proof::Win,
                    PROVEN_LOSS => Proof::Loss,
                    _ => Proof::Unknown,
                },
            }
        })
        .filter(|c| c.visits > 0 || c.proof != Proof::Unknown)
        .collect();
    candidates.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    SearchReport {
        to_move,
        candidates,
        playouts,
        elapsed,
        extra_margin,
        probe_winrate: None,
    }
}

/// A node's prior win rate, as a weight for the reported prior.
fn prior_share(node: &tree::Node) -> f64 {
    let visits = node.prior_visits();
    if visits == 0 {
        0.5
    } else {
        node.prior_wins() as f64 / (2.0 * visits as f64)
    }
}

/// Most-visited line from `node` down.
fn principal_variation(tree: &Tree, node: NodeId) -> Vec<Move> {
    let mut line = vec![tree.node(node).mv()];
    let mut current = node;
    while line.len() < MAX_PV {
        let (first, count) = tree.node(current).children();
        let Some(best) = (0..count as NodeId)
            .map(|k| first + k)
            .filter(|&id| tree.node(id).visits() > 0)
            .max_by_key(|&id| tree.node(id).visits())
        else {
            break;
        };
        line.push(tree.node(best).mv());
        current = best;
    }
    line
}
