//! Dynamic komi for won and lost Go positions.
//!
//! A search that only counts wins sees no difference between winning by
//! one point and by thirty. In a clearly won position every move looks
//! equally good, so it plays slack moves: it lets a dead group live or
//! gives up a big endgame point, and the lead melts move by move. A move's
//! search therefore first probes the position at the real komi; when its
//! best move wins very often, it starts over with a komi that demands part
//! of the lead the probe's playouts found, so that the moves which keep
//! the lead win more often than those which squander it.
//!
//! The extra margin is read off the probe's playouts: the largest whole
//! number of points that they still exceed `dyn_komi_target` of the time.
//! A won position is never asked more than the playouts say is there, so
//! the search still plays to win. The probe's shallow tree can be too
//! hopeful: when the new search, after as many playouts as the probe had,
//! wins the margin asked less than `dyn_komi_floor` of the time, it drops
//! it and goes on with the probe's tree at the real komi. So it does when
//! the move the new search prefers is a gamble for the margin: one the
//! probe's tree, at the real komi, rates clearly below its own best (an
//! invasion that might win the points asked, in place of the move that
//! keeps a group alive). A win rate under a dynamic komi never leads to a
//! resignation.
//!
//! A lost position (best win rate below `dyn_komi_losing`) has the mirror
//! problem: every move loses, so the search cannot tell the move that
//! loses by a point, or keeps a semeai going, from one that gives up
//! everything. It is given the fewest points its probe's playouts need to
//! win `1 - dyn_komi_target` of the time, and plays to lose by as little
//! as it can: in a close endgame that is often a win after all, and it
//! keeps the game going for the opponent to err. The points given stay
//! however often the new search then wins: at worst it plays as slack as
//! at the real komi. A position that needs more than a quarter of the
//! board's points is given none: it is lost whatever it plays, unless the
//! probe has missed a move that turns it round, which a search at the
//! real komi is likelier to find. Such a search resigns on the probe's
//! win rate.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use std::time::Duration;

use crate::board::Color;

use super::params::SearchParams;
use super::playout::PlayoutResult;
use super::playout::mercy_stones;
use super::report::report;
use super::root_stats::RootScores;
use super::tree::Tree;

/// The final margins of the probe's playouts, counted by half points.
pub struct MarginTally {
    /// Playouts by Black's margin under the real komi: index
    /// `2 * margin + half_range`, clamped to the ends.
    counts: Vec<AtomicU32>,
    /// Half points of the largest margin a board can have.
    half_range: i64,
    /// The most points ever asked: what a playout ended by the mercy rule
    /// counts for (the search under the dynamic komi still scores such a
    /// playout by its capture lead alone).
    most_extra: u32,
}

/// Points of margin a playout ended by the mercy rule counts per stone of
/// its capture lead: a captured stone is a point of area lost by one side
/// and gained by the other. Counted as won at any margin, these playouts
/// (a capture race decides most of some positions) would ask for
/// everything the board holds.
const MERCY_POINTS_PER_STONE: u32 = 2;

/// Black's margin in points that a Go playout counts for at a komi
/// `komi_above` below the komi it was scored at: its area margin, or the
/// worth of its capture lead when the mercy rule ended it (that counts the
/// same at any komi).
pub fn counted_margin(result: &PlayoutResult, komi_above: f32) -> f32 {
    if result.by_mercy {
        MERCY_POINTS_PER_STONE as f32 * result.margin
    } else {
        result.margin + komi_above
    }
}

impl MarginTally {
    /// An empty tally for a board of `area` points and this komi.
    pub fn new(area: usize, komi: f32) -> MarginTally {
        let half_range = 2 * (area as i64 + komi.abs().ceil() as i64) + 2;
        MarginTally {
            counts: (0..=2 * half_range).map(|_| AtomicU32::new(0)).collect(),
            half_range,
            most_extra: MERCY_POINTS_PER_STONE * mercy_stones(area),
        }
    }

    /// Counts one Go playout scored at the real komi.
    pub fn record(&self, result: &PlayoutResult) {
        let margin = counted_margin(result, 0.0);
        let half_points = (2.0 * margin).round() as i64;
        let index = (half_points + self.half_range).clamp(0, 2 * self.half_range);
        self.counts[index as usize].fetch_add(1, Relaxed);
    }

    /// Share of the counted playouts `player` wins when it must win by
    /// `extra` points more than komi (fewer when negative; a draw counts
    /// half).
    pub fn win_share(&self, player: Color, extra: i32) -> f64 {
        let (mut wins, mut total) = (0.0, 0.0);
        let needed = 2 * extra as i64;
        for (index, count) in self.counts.iter().enumerate() {
            let count = count.load(Relaxed) as f64;
            let black_half_points = index as i64 - self.half_range;
            let own = match player {
                Color::Black => black_half_points,
                Color::White => -black_half_points,
            };
            total += count;
            if own > needed {
                wins += count;
            } else if own == needed {
                wins += 0.5 * count;
            }
        }
        if total == 0.0 { 0.0 } else { wins / total }
    }

    /// The most points `player` may be asked to win by beyond komi while
    /// the counted playouts still reach that margin `target` of the time
    /// (0 if they do not even win that often), up to the mercy rule's
    /// worth.
    pub fn extra_margin(&self, player: Color, target: f64) -> u32 {
        (1..=self.most_extra)
            .take_while(|&extra| self.win_share(player, extra as i32) >= target)
            .last()
            .unwrap_or(0)
    }

    /// The fewest points `player` must be given for the counted playouts
    /// to win `target` of the time, if no more than `most` and the mercy
    /// rule's worth does it (a position lost by more is lost whatever it
    /// plays).
    pub fn concession(&self, player: Color, target: f64, most: u32) -> Option<u32> {
        (1..=self.most_extra.min(most))
            .find(|&given| self.win_share(player, -(given as i32)) >= target)
    }
}

/// The komi a search uses when `player` must win by `extra` points more
/// (fewer when negative).
pub fn shifted_komi(komi: f32, player: Color, extra: i32) -> f32 {
    match player {
        Color::Black => komi + extra as f32,
        Color::White => komi - extra as f32,
    }
}

/// How a dynamic komi of `extra` points reads in the log.
pub fn describe(extra: i32) -> String {
    if extra >= 0 {
        format!("{extra} points more asked")
    } else {
        format!("{} points given", -extra)
    }
}

/// Playouts the probe's tree must have spent on a move before it may call
/// the move a gamble for a margin asked (see `dyn_komi_tolerance`); the
/// standard error the check allows covers the noise of few playouts.
const GAMBLE_MIN_VISITS: u64 = 10;

/// Where a move's search stands with its dynamic komi (see `dyn_komi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum KomiPhase {
    /// Searching at the real komi, counting the playouts' margins, until
    /// the first checkpoint.
    Probe,
    /// Searching a new tree under the dynamic komi, until the second
    /// checkpoint shows whether the margin asked is within reach.
    Shifted,
    /// The komi is settled for the rest of the search.
    Settled,
}

/// The tree a search runs on and the komi it scores playouts at, with the
/// probe's tree kept while a dynamic komi is on trial.
pub(super) struct KomiState {
    /// The tree being searched.
    pub(super) tree: Tree,
    /// Its root moves' playout margins in this search.
    pub(super) scores: RootScores,
    /// The komi the playouts are scored at.
    pub(super) komi: f32,
    /// Points asked (positive) or given (negative) on top of the real komi.
    pub(super) extra_margin: i32,
    /// The probe's best win rate at the real komi, once a margin is set.
    pub(super) probe_winrate: Option<f64>,
    /// The probe's tree and its root moves' margins, kept until the margin
    /// has proved within reach.
    pub(super) probe_tree: Option<(Tree, RootScores)>,
}

impl KomiState {
    /// Searching `tree`, whose root has at most `children` children, at
    /// the real komi.
    pub(super) fn real(tree: Tree, komi: f32, children: usize) -> KomiState {
        KomiState {
            tree,
            scores: RootScores::new(children),
            komi,
            extra_margin: 0,
            probe_winrate: None,
            probe_tree: None,
        }
    }

    /// Sets `extra` points (asked or given) on the real komi, and a new tree
    /// to search them on; the probe's tree is kept.
    pub(super) fn shift(&mut self, extra: i32, komi: f32, probe_winrate: f64, new_tree: Tree) {
        self.extra_margin = extra;
        self.komi = komi;
        self.probe_winrate = Some(probe_winrate);
        let children = self.scores.children();
        self.probe_tree = Some((
            std::mem::replace(&mut self.tree, new_tree),
            std::mem::replace(&mut self.scores, RootScores::new(children)),
        ));
    }

    /// Why the points asked must go, if they must: the search under them
    /// wins less than `dyn_komi_floor`, or the move it prefers is a gamble
    /// for the margin, one that the probe's tree at the real komi rates
    /// more than `dyn_komi_tolerance` below its own best. Points given never
    /// go: the search then plays to lose by as little as it can.
    fn asked_margin_fault(&self, mover: Color, params: &SearchParams) -> Option<String> {
        let (probe, _) = self.probe_tree.as_ref().filter(|_| self.extra_margin > 0)?;
        let shifted = report(&self.tree, None, mover, 0, Duration::ZERO, 0);
        let winrate = shifted.winrate();
        if winrate < params.dyn_komi_floor {
            return Some(format!("won {winrate:.3} of the time"));
        }
        let choice = shifted.best()?;
        let real = report(probe, None, mover, 0, Duration::ZERO, 0);
        let best = real.best()?;
        let rated = real
            .candidates
            .iter()
            .find(|c| c.mv == choice.mv && c.visits >= GAMBLE_MIN_VISITS)?;
        // The move's rate, raised by one standard error: a move the probe
        // barely tried counts as a gamble only when it did clearly badly.
        let p = rated.winrate;
        let upper = p + (p * (1.0 - p) / rated.visits as f64).sqrt();
        (best.winrate - upper > params.dyn_komi_tolerance).then(|| {
            format!(
                "led to a gamble, rated {:.3} at the real komi against {:.3}",
                rated.winrate, best.winrate
            )
        })
    }

    /// Drops the points asked if they must go (see
    /// [`KomiState::asked_margin_fault`]), going back to the probe's tree at
    /// `real_komi`; `when` ends the log line, logged at `level`. Returns whether they went.
    pub(super) fn drop_faulty_margin(
        &mut self,
        mover: Color,
        params: &SearchParams,
        real_komi: f32,
        when: &str,
        level: log::Level,
    ) -> bool {
        let Some(fault) = self.asked_margin_fault(mover, params) else {
            return false;
        };
        log::log!(
            level,
            "dynamic komi: {} points more {fault} {when}",
            self.extra_margin
        );
        self.back_to_probe(real_komi);
        true
    }

    /// Drops the margin and goes back to the probe's tree at `real_komi`.
    fn back_to_probe(&mut self, real_komi: f32) {
        if let Some((tree, scores)) = self.probe_tree.take() {
            self.tree = tree;
            self.scores = scores;
            self.komi = real_komi;
            self.extra_margin = 0;
            self.probe_winrate = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area_result(margin: f32) -> PlayoutResult {
        PlayoutResult {
            winner: if margin > 0.0 {
                Some(Color::Black)
            } else {
                Some(Color::White)
            },
            moves: 50,
            margin,
            by_mercy: false,
        }
    }

    #[test]
    fn the_extra_margin_is_the_lead_kept_at_the_target_rate() {
        let tally = MarginTally::new(81, 7.5);
        // Black's margins 0.5, 2.5, ..., 18.5: ten playouts.
        for k in 0..10 {
            tally.record(&area_result(0.5 + 2.0 * k as f32));
        }
        assert_eq!(tally.win_share(Color::Black, 0), 1.0);
        assert!((tally.win_share(Color::Black, 10) - 0.5).abs() < 1e-9);
        // Six of ten beat 8 points (8.5 and up), five beat 9 and 10.
        assert_eq!(tally.extra_margin(Color::Black, 0.6), 8);
        assert_eq!(tally.extra_margin(Color::Black, 0.5), 10);
        assert_eq!(tally.extra_margin(Color::White, 0.5), 0);
    }

    #[test]
    fn draws_count_half_and_mercy_wins_by_their_capture_lead() {
        let tally = MarginTally::new(81, 7.0);
        tally.record(&area_result(4.0));
        tally.record(&PlayoutResult {
            winner: Some(Color::White),
            moves: 30,
            margin: -20.0,
            by_mercy: true,
        });
        // White's mercy win counts as 40 points; at 4 extra points the
        // other playout is a draw for Black.
        assert!((tally.win_share(Color::White, 39) - 0.5).abs() < 1e-9);
        assert_eq!(tally.win_share(Color::White, 40), 0.25);
        assert!((tally.win_share(Color::Black, 4) - 0.25).abs() < 1e-9);
        assert_eq!(tally.extra_margin(Color::Black, 0.5), 3);
    }

    #[test]
    fn no_more_is_asked_than_a_mercy_win_is_worth() {
        let tally = MarginTally::new(81, 7.5);
        tally.record(&area_result(70.5));
        // 20 stones of capture lead end a 9x9 playout: 40 points.
        assert_eq!(tally.extra_margin(Color::Black, 1.0), 40);
    }

    #[test]
    fn a_lost_position_is_given_the_fewest_points_that_reach_the_target() {
        let tally = MarginTally::new(81, 7.5);
        // White's margins 0.5, 2.5, ..., 18.5 (Black loses by them).
        for k in 0..10 {
            tally.record(&area_result(-0.5 - 2.0 * k as f32));
        }
        assert_eq!(tally.win_share(Color::Black, 0), 0.0);
        // Given 9 points Black wins the five playouts lost by 8.5 or less.
        assert_eq!(tally.concession(Color::Black, 0.45, u32::MAX), Some(9));
        assert_eq!(tally.concession(Color::Black, 0.5, u32::MAX), Some(9));
        assert_eq!(tally.concession(Color::Black, 1.0, u32::MAX), Some(19));
        assert_eq!(tally.concession(Color::White, 0.45, u32::MAX), Some(1));
        // Lost by 70: more than the mercy rule's 40 points.
        let hopeless = MarginTally::new(81, 7.5);
        hopeless.record(&area_result(-70.5));
        assert_eq!(hopeless.concession(Color::Black, 0.45, u32::MAX), None);
    }

    #[test]
    fn a_shift_asks_more_of_the_player() {
        assert_eq!(shifted_komi(7.5, Color::Black, 10), 17.5);
        assert_eq!(shifted_komi(7.5, Color::White, 10), -2.5);
        assert_eq!(shifted_komi(7.5, Color::White, -10), 17.5);
        assert_eq!(describe(-3), "3 points given");
    }
}
