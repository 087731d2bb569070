//! NoGo as the search sees it: every legal move gets a child (there is no
//! pass), priors from the learned move features near the root or from the
//! seed's static evaluation (as the tunables choose), NoGo playouts whose
//! result may be softened by the winner's spare moves, the side to move
//! with no child has lost, and the exact solver at the root.

use std::time::Instant;

use crate::board::{Color, Game, GameKind, Move, Point, Position};
use crate::search::SearchLimits;
use crate::search::domain::{Domain, PlayoutEnd, RootPlan};
use crate::search::domain::{Leaf, Prior, RecentMoves};
use crate::search::params::SearchParams;
use crate::search::playout::{FastRng, light_playout_traced, unit_roll};
use crate::search::tree::{Node, Tree};
use crate::search::uct::Shared;

use super::endgame::{
    VERIFY_PLAYOUT_SHARE, solvable_points, solve_endgame, verification_deadline, verify_candidates,
};
use super::features::NogoRating;
use super::gammas::NOGO_GAMMAS;
use super::policy::{
    NogoLists, NogoPlayoutOptions, margin_draw_chance, mobility_prior, nogo_playout,
    prior as nogo_prior,
};
use super::solver::KeptTable;

/// Priors from the learned move strengths (see `features`): `prior_even`
/// even playouts, and `nogo_prior_learned` more whose win share is the
/// move's strength over its strongest sibling's, raised to
/// `nogo_learned_exponent`.
fn rate_by_learned(
    params: &SearchParams,
    position: &Position,
    recent: RecentMoves,
    moves: &[Point],
    children: &[Node],
) {
    let rating = NogoRating::new(position, recent);
    let strengths: Vec<f32> = moves
        .iter()
        .map(|&p| NOGO_GAMMAS.strength(&rating.features(position, p)))
        .collect();
    let strongest = strengths.iter().copied().fold(f32::MIN_POSITIVE, f32::max);
    for ((child, &p), strength) in children.iter().zip(moves).zip(strengths) {
        let mut prior = Prior::even(params.prior_even);
        let (n, exponent) = (params.nogo_prior_learned, params.nogo_learned_exponent);
        prior.learned(n, exponent, strength / strongest);
        let (visits, wins) = prior.to_node();
        child.init(Move::Play(p), visits, wins);
    }
}

/// NoGo for the search.
pub struct NogoDomain;

impl Domain for NogoDomain {
    type Scratch = NogoLists;
    type Memory = KeptTable;

    const SCORED: bool = false;
    const HAS_PASS: bool = false;
    const KIND: GameKind = GameKind::NoGo;
    const SHARED_EXPLORATION: bool = true;

    #[inline(always)]
    fn tree_candidate(_position: &Position, _p: Point, _mover: Color) -> bool {
        true
    }

    /// The learned move strengths, or the mobility prior, or the seed's
    /// evaluation, or even priors, as the tunables choose.
    fn rate_children(
        shared: &Shared,
        position: &Position,
        leaf: Leaf,
        moves: &[Point],
        prior_board: &mut Position,
        children: &[Node],
    ) {
        let params = shared.params;
        if params.nogo_prior_learned > 0 && leaf.depth < params.nogo_learned_depth {
            rate_by_learned(params, position, leaf.recent, moves, children);
            return;
        }
        let mover = position.to_move();
        for (child, &p) in children.iter().zip(moves) {
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

    /// The tree never ends a NoGo game by a move: a side with no move left
    /// has no child, and loses there.
    #[inline(always)]
    fn ended_in_tree(
        _position: &Position,
        _komi: f32,
        _real_komi: f32,
    ) -> Option<(Option<Color>, f32)> {
        None
    }

    /// NoGo playouts (or light ones); with `nogo_margin_weight` a win by
    /// few spare moves is sometimes counted as a draw.
    fn play_out(
        shared: &Shared,
        lists: &mut NogoLists,
        position: &mut Position,
        _last: Option<Point>,
        rng: &mut FastRng,
        record: impl FnMut(Point, Color),
    ) -> PlayoutEnd {
        let params = shared.params;
        let max_moves = 3 * position.geometry().area() as u32;
        if !params.nogo_playouts {
            let result = light_playout_traced(position, shared.komi, max_moves, rng, record);
            return PlayoutEnd {
                winner: result.winner,
                finished: !result.by_mercy,
                black_margin: None,
            };
        }
        let options = NogoPlayoutOptions {
            amaf_open_only: params.nogo_amaf_contested_only,
            hold_reserve: params.nogo_hold_reserve,
        };
        let winner = nogo_playout(position, max_moves, options, lists, rng, record).winner;
        let weight = params.nogo_margin_weight;
        let winner = match winner {
            Some(color) if weight > 0.0 => {
                let spare = lists.spare_moves(color);
                let chance = margin_draw_chance(weight, params.nogo_margin_scale, spare);
                if unit_roll(rng) < chance {
                    None
                } else {
                    winner
                }
            }
            _ => winner,
        };
        PlayoutEnd {
            winner,
            finished: true,
            black_margin: None,
        }
    }

    fn root_priors(
        _params: &SearchParams,
        _position: &Position,
        _recent: RecentMoves,
        _limits: &SearchLimits,
    ) -> Vec<(Point, Prior)> {
        Vec::new()
    }

    fn deep_priors(
        _params: &SearchParams,
        _position: &Position,
        _last: Point,
    ) -> Vec<(Point, Prior)> {
        Vec::new()
    }

    /// Boards within the solver's size: solve the root when few points are
    /// left; a little beyond, verify the candidates after the playouts,
    /// which then keep part of the time.
    fn plan_root(
        table: &mut KeptTable,
        game: &Game,
        legal: &[Move],
        limits: &SearchLimits,
        start: Instant,
    ) -> (RootPlan, Option<(Instant, f64)>) {
        let Some(points) = solvable_points(game, legal) else {
            return (RootPlan::Open, None);
        };
        let plan = solve_endgame(table, game.position(), points, limits, start);
        if let RootPlan::Won(_) = plan {
            return (plan, None);
        }
        let verify = verification_deadline(points, limits, start)
            .map(|deadline| (deadline, VERIFY_PLAYOUT_SHARE));
        (plan, verify)
    }

    fn verify(table: &mut KeptTable, tree: &Tree, root: &Position, deadline: Instant) {
        verify_candidates(table, tree, root, deadline);
    }
}
