//! Selection: the child a simulation goes down to, by UCT blended with
//! RAVE, four children at a time, with the MCTS-solver's proofs and the
//! root's exclusions.

use super::Domain;
use super::tree::{Node, NodeId, PROVEN_LOSS, PROVEN_WIN, ROOT, UNPROVEN, amaf_parts, amaf_word};
use super::uct::Shared;
use crate::board::Move;

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
pub(super) fn select<D: Domain>(
    shared: &Shared,
    parent: NodeId,
    first: NodeId,
    count: usize,
) -> NodeId {
    let tree = shared.tree;
    let params = shared.params;
    let exploration = D::exploration(params);
    let bonus = if exploration > 0.0 {
        let log_parent = (tree.node(parent).visits().max(1) as f64).ln();
        (2.0 * exploration * log_parent.sqrt()) as f32
    } else {
        0.0
    };
    let terms = ValueTerms {
        inverse_equivalence: shared.inverse_rave_equivalence,
        shared_bonus: if D::SHARED_EXPLORATION { bonus } else { 0.0 },
        plain_bonus: if D::SHARED_EXPLORATION { 0.0 } else { bonus },
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

#[cfg(test)]
mod tests {
    use super::{ChildStats, LANES, ValueTerms, critical_amaf, lane_values};
    use crate::search::playout::{FastRng, below};
    use crate::search::tree::amaf_word;
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
    fn critical_amaf_adds_wins_in_proportion_and_stays_in_range() {
        // 100 playouts at 50%: +0.1 adds 10 won playouts.
        assert_eq!(critical_amaf(amaf_word(100, 100), 0.1), amaf_word(110, 120));
        assert_eq!(critical_amaf(amaf_word(100, 100), -0.1), amaf_word(90, 80));
        // Never more wins than playouts, never fewer than none.
        assert_eq!(critical_amaf(amaf_word(100, 200), 0.5), amaf_word(150, 300));
        assert_eq!(critical_amaf(amaf_word(100, 0), -0.5), amaf_word(50, 0));
    }
}
