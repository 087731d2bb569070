//! Go as the search sees it: which moves get a child (not the mover's own
//! eye; a pass always), the priors of new children (hand-made terms and
//! learned features), heavy playouts whose value may blend in the margin,
//! the end of the game by two passes, and the root's tactical reading.

use std::time::Instant;

use crate::board::{Color, Game, GameKind, LibertyMemo, Move, Outcome, Point, Position};
use crate::search::domain::{Domain, PlayoutEnd, RootPlan};
use crate::search::dyn_komi::counted_margin;
use crate::search::params::SearchParams;
use crate::search::playout::{FastRng, light_playout_traced, mercy_stones, unit_roll};
use crate::search::tree::{Node, Tree};
use crate::search::uct::Shared;
use crate::search::{ROOT_READING_MIN_TIME, SearchLimits};

use super::checks::MoveChecks;
use super::gammas::{RatingContext, gammas_for};
use super::policy::heavy_playout;
use super::prior::{
    PriorContext, add_learned, go_prior, local_reading_priors, root_life_priors,
    root_reading_priors, root_vital_priors,
};
use crate::search::domain::{Leaf, Prior, RecentMoves};

/// Go for the search.
pub struct GoDomain;

impl Domain for GoDomain {
    type Scratch = ();
    type Memory = ();

    const SCORED: bool = true;
    const HAS_PASS: bool = true;
    const KIND: GameKind = GameKind::Go;
    const SHARED_EXPLORATION: bool = false;

    #[inline(always)]
    fn tree_candidate(position: &Position, p: Point, mover: Color) -> bool {
        !position.is_eye(p, mover)
    }

    /// One set of checks per candidate serves the learned features and the
    /// hand-made prior; the learned share needs the strongest candidate, so
    /// it is added once all are rated. The pass comes last, held back in
    /// the open board.
    fn rate_children(
        shared: &Shared,
        position: &Position,
        leaf: Leaf,
        moves: &[Point],
        _prior_board: &mut Position,
        children: &[Node],
    ) {
        let params = shared.params;
        let mover = position.to_move();
        let open = position.is_open();
        let liberties = LibertyMemo::new(position);
        let context = PriorContext {
            last: leaf.recent.last,
            open,
        };
        let learned = params.prior_learned > 0;
        let g = position.geometry();
        let gammas = gammas_for(g.width().max(g.height()), params.human_table_from);
        let rating = learned.then(|| RatingContext::new(position, leaf.recent));
        let rated: Vec<(Prior, f32)> = moves
            .iter()
            .map(|&p| {
                let checks = MoveChecks::new(position, p, mover, &liberties);
                let strength = rating
                    .as_ref()
                    .map_or(0.0, |rating| gammas.move_strength(&checks, rating));
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
        let penalty = if open { params.prior_pass_penalty } else { 0 };
        let visits = params.prior_even + penalty;
        children[moves.len()].init(
            Move::Pass,
            visits.min(u16::MAX as u32) as u16,
            params.prior_even,
        );
    }

    /// Two passes in a row end the game: it is counted by area.
    #[inline]
    fn ended_in_tree(
        position: &Position,
        komi: f32,
        real_komi: f32,
    ) -> Option<(Option<Color>, f32)> {
        if position.consecutive_passes() < 2 {
            return None;
        }
        let score = position.area_score();
        let winner = match score.outcome(komi) {
            Outcome::Win(color, _) => Some(color),
            Outcome::Draw => None,
        };
        Some((winner, score.margin(real_komi)))
    }

    /// Heavy (or light) playouts; their margins feed the dynamic komi's
    /// probe, and with `go_score_weight` the result is blended with the
    /// margin.
    fn play_out(
        shared: &Shared,
        _scratch: &mut (),
        position: &mut Position,
        last: Option<Point>,
        rng: &mut FastRng,
        record: impl FnMut(Point, Color),
    ) -> PlayoutEnd {
        let params = shared.params;
        let area = position.geometry().area();
        let max_moves = 3 * area as u32;
        let result = if params.heavy_playouts {
            let mercy = mercy_stones(area);
            heavy_playout(position, shared.komi, max_moves, mercy, last, rng, record)
        } else {
            light_playout_traced(position, shared.komi, max_moves, rng, record)
        };
        if let Some(tally) = shared.margins {
            tally.record(&result);
        }
        let weight = params.go_score_weight;
        let winner = if weight > 0.0 {
            let side = (position.geometry().area() as f64 / 81.0).sqrt();
            let scale = params.go_score_scale * side;
            let value = score_blended_value(result.winner, result.margin, weight, scale);
            draw_result(value, rng)
        } else {
            result.winner
        };
        PlayoutEnd {
            winner,
            finished: !result.by_mercy,
            black_margin: Some(counted_margin(&result, shared.komi - shared.real_komi)),
        }
    }

    /// The root's tactical reading, the vital points of eye spaces and the
    /// key moves of small enclosed groups, unless time is short.
    fn root_priors(
        params: &SearchParams,
        position: &Position,
        recent: RecentMoves,
        limits: &SearchLimits,
    ) -> Vec<(Point, Prior)> {
        if limits.time.is_none_or(|t| t >= ROOT_READING_MIN_TIME) {
            let mover = position.to_move();
            let mut priors = root_reading_priors(params, position, mover);
            priors.extend(root_vital_priors(params, position));
            priors.extend(root_life_priors(params, position, mover, recent));
            priors
        } else {
            Vec::new()
        }
    }

    fn deep_priors(params: &SearchParams, position: &Position, last: Point) -> Vec<(Point, Prior)> {
        local_reading_priors(params, position, last)
    }

    fn plan_root(
        _memory: &mut (),
        _game: &Game,
        _legal: &[Move],
        _limits: &SearchLimits,
        _start: Instant,
    ) -> (RootPlan, Option<(Instant, f64)>) {
        (RootPlan::Open, None)
    }

    fn verify(_memory: &mut (), _tree: &Tree, _root: &Position, _deadline: Instant) {}
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

#[cfg(test)]
mod tests {
    use super::{draw_result, score_blended_value};
    use crate::board::Color;
    use crate::search::playout::FastRng;
    use rand_xoshiro::rand_core::SeedableRng;

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
}
