//! The exact solver inside a NoGo search: when few points are left, prove
//! the root won (and play the win at once) or rule out the moves proven
//! lost; a little beyond the solver's reach, stop the playouts early and
//! verify the most visited moves with it. The solver's table is kept from
//! move to move.

use std::time::{Duration, Instant};

use crate::board::{Color, Game, Move, Point, Position};
use crate::search::domain::RootPlan;
use crate::search::tree::{NodeId, PROVEN_LOSS, PROVEN_WIN, ROOT, Tree, UNPROVEN};
use crate::search::{Candidate, Proof, SearchLimits, SearchReport};

use super::regions::{self, RegionBudget, RegionDecision};
use super::solver::{KeptTable, MAX_SOLVER_AREA, SolveOptions, SolveOutcome, solve_kept};

/// NoGo: under a time limit the exact solver is tried when at most this
/// many points are legal for either side and it may spend 200 ms, one point
/// more for each doubling of its time. On Kosumi's positions of 40 games
/// against HaHaNoGo (170 ms a solve, 32 MiB table kept from move to move)
/// it finished 8 times in 8 at 20 points, 10 in 15 at 21 and 11 in 14 at
/// 22; with a fresh table each time, 15 in 29 at 21 and 22 points against
/// 18 in 29 with the kept one, run side by side. A solve that does not
/// finish costs the playouts only its share of the time. With the solver's
/// incremental look-ahead (about twice as fast on 9x9 endgames) the same
/// test finished 12 in 15 at 21 points and 13 in 14 at 22, but only 4 in
/// 15 at 23 and at 24: one point more would mostly waste the solver's share.
const SOLVER_EITHER_LEGAL_AT_200_MS: u32 = 23;

/// NoGo: without a time limit, the solver runs (to the end) only when at
/// most this many points are legal for either side: 9x9 endgames take at
/// most 80 ms, the empty 4x4 board (the worst case) about 0.3 s.
const SOLVER_EITHER_LEGAL_UNTIMED: usize = 16;

/// NoGo: share of the move's time the solver may use.
const SOLVER_TIME_SHARE: f64 = 0.4;

/// NoGo: one to this many points beyond the solver's reach, the search
/// stops its playouts at [`VERIFY_PLAYOUT_SHARE`] of the time and spends
/// the rest asking the solver about its most visited moves in turn: a move
/// proven to win is played, one proven to lose is passed over. Of 15 games
/// lost to HaHaNoGo (solved afterwards, 20 s a position), 3 were still won
/// at 24 points and thrown away there or soon after by a move the playouts
/// liked (and one more between 27 and 25 points). On 57 solved decisions
/// at 23 to 26 points from real games, at the match clock (0.58 s a move),
/// 3 seeds: 155 of 171 moves won against 151 without; half or 70% of the
/// time for the playouts made no difference (155, 154, 154).
const VERIFY_EXTRA_POINTS: usize = 4;

/// NoGo: share of the move's time the playouts keep when the search
/// verifies its candidates.
pub const VERIFY_PLAYOUT_SHARE: f64 = 0.5;

/// NoGo: transposition table of an in-game solve, in MiB.
const SOLVER_TABLE_MB: usize = 32;

/// NoGo: the region decision (see `regions`) runs only when no part of
/// the board has more than this many live points: a part is enumerated
/// position by position (about 1.5 us each), and on 80 late 9x9 and 7x7
/// positions of random play (`measure_late_positions` in the regions'
/// tests) boards whose parts had up to 13 points took at most 83k
/// positions (about 0.1 s, most under 20 ms), while all 36 with a part
/// of 15 or more and 4 of the 6 with a part of 14 ran past 200k.
const REGION_MAX_PART_POINTS: u32 = 13;

/// NoGo: share of the move's time the region decision may use.
const REGION_TIME_SHARE: f64 = 0.15;

/// NoGo: part positions a region decision may value under a time limit
/// (about 0.3 s; its memos then hold some 20 MiB): the time share ends it
/// first on short clocks.
const REGION_POSITIONS_TIMED: u64 = 200_000;

/// NoGo: part positions a region decision may value without a time limit,
/// so that fixed-playout searches stay reproducible: about 0.1 s at most.
const REGION_POSITIONS_UNTIMED: u64 = 60_000;

/// NoGo endgames on boards the exact solver handles: when few points
/// are left to play, try to prove a win and play it at once; a solve
/// that runs out of time still rules out the moves it proved lost. Under a
/// time limit the solver gets part of the time, and runs only when it
/// likely finishes within it; without one it runs only when so few
/// points are left that it surely finishes fast, so fixed-playout
/// searches stay reproducible. First, if the board has fallen into
/// independent parts, their game values may prove a win (see
/// `decide_by_regions`), however many points are left.
/// `either_legal` is what [`solvable_points`] gave for `position`.
pub fn solve_endgame(
    table: &mut KeptTable,
    position: &Position,
    either_legal: usize,
    limits: &SearchLimits,
    start: Instant,
) -> RootPlan {
    if let Some(plan) = decide_by_regions(position, limits, start) {
        return plan;
    }
    let limit = limits.time.map(|time| time.mul_f64(SOLVER_TIME_SHARE));
    let within_reach = match limit {
        Some(limit) => either_legal <= solver_either_legal_within(limit),
        None => either_legal <= SOLVER_EITHER_LEGAL_UNTIMED,
    };
    if !within_reach {
        return RootPlan::Open;
    }
    let outcome = solve_in_game(table, position, limit);
    let mover = position.to_move();
    log::info!(
        "solver: {either_legal} points, winner {:?} ({:?}) in {} nodes, {:?}",
        outcome.winner,
        outcome.status,
        outcome.nodes,
        outcome.elapsed
    );
    endgame_from(outcome, mover, start)
}

/// The win the region decision proves, if the position falls into two or
/// more parts, one of them contested, none too large (see
/// [`REGION_MAX_PART_POINTS`]); `None` (the solver's turn) otherwise, or
/// when the decision proves a loss or runs out of its budget.
fn decide_by_regions(
    position: &Position,
    limits: &SearchLimits,
    start: Instant,
) -> Option<RootPlan> {
    let parts = regions::split_position(position)?;
    let worth_it = parts.components.len() >= 2
        && parts.contested() >= 1
        && parts.largest() <= REGION_MAX_PART_POINTS;
    if !worth_it {
        return None;
    }
    let positions = match limits.time {
        Some(_) => REGION_POSITIONS_TIMED,
        None => REGION_POSITIONS_UNTIMED,
    };
    let deadline = limits
        .time
        .map(|time| start + time.mul_f64(REGION_TIME_SHARE));
    let budget = RegionBudget::new(positions, deadline);
    let report = regions::decide(position, &budget);
    log::info!(
        "regions: {} parts ({} contested, largest {} points), {:?} in {} positions, {:?}; sum {}",
        report.components,
        report.contested,
        report.largest,
        report.decision,
        report.positions,
        report.elapsed,
        report.value.as_deref().unwrap_or("unknown")
    );
    match report.decision {
        RegionDecision::Won(win) => Some(won_plan(win, position.to_move(), start)),
        RegionDecision::Lost(_) | RegionDecision::Unknown => None,
    }
}

/// Solves `position` within `limit` (none: to the end) on the table kept
/// from move to move, finding the winner only (not every winning move).
fn solve_in_game(
    table: &mut KeptTable,
    position: &Position,
    limit: Option<Duration>,
) -> SolveOutcome {
    let options = SolveOptions {
        limit,
        stop: None,
        table_mb: Some(SOLVER_TABLE_MB),
        all_moves: false,
        threads: 1,
        checkpoint: None,
    };
    solve_kept(position, &options, &mut |_| {}, table)
}

/// Asks the solver about the root's searched moves, most visited first,
/// until one is proven to win or `deadline` passes; marks each proven
/// move in the tree (where the player's decision and the kept tree see it).
pub fn verify_candidates(table: &mut KeptTable, tree: &Tree, root: &Position, deadline: Instant) {
    let mover = root.to_move();
    let (first, count) = tree.node(ROOT).children();
    let mut candidates: Vec<NodeId> = (first..first + count as NodeId)
        .filter(|&id| tree.node(id).proof() == UNPROVEN && tree.node(id).visits() > 0)
        .collect();
    candidates.sort_by_key(|&id| std::cmp::Reverse(tree.node(id).visits()));
    for id in candidates {
        let Move::Play(p) = tree.node(id).mv() else {
            continue;
        };
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        let mut after = root.clone();
        after.play(p, mover);
        let outcome = solve_in_game(table, &after, Some(deadline - now));
        log::info!(
            "verify {p:?}: winner {:?} in {} nodes, {:?}",
            outcome.winner,
            outcome.nodes,
            outcome.elapsed
        );
        match outcome.winner {
            Some(winner) if winner == mover => {
                tree.node(id).set_proof(PROVEN_WIN);
                break;
            }
            Some(_) => tree.node(id).set_proof(PROVEN_LOSS),
            None => break,
        }
    }
}

/// Points legal for either side of a position the exact solver takes (NoGo,
/// on a board within its size), `None` for any other: what both the root
/// solve and the verification of candidates decide on.
pub fn solvable_points(game: &Game, legal: &[Move]) -> Option<usize> {
    let position = game.position();
    (position.geometry().area() <= MAX_SOLVER_AREA)
        .then(|| points_legal_for_either(position, legal))
}

/// When a timed NoGo search with `either_legal` points left (from
/// [`solvable_points`]) should stop to verify its candidates: the deadline
/// of the verification if the root is a little beyond the root solver's
/// reach (see [`VERIFY_EXTRA_POINTS`]), `None` otherwise.
pub fn verification_deadline(
    either_legal: usize,
    limits: &SearchLimits,
    start: Instant,
) -> Option<Instant> {
    let time = limits.time?;
    let reach = solver_either_legal_within(time.mul_f64(SOLVER_TIME_SHARE));
    (either_legal > reach && either_legal <= reach + VERIFY_EXTRA_POINTS).then(|| start + time)
}

/// What a solve of the root (`mover` to play) settles for the search.
fn endgame_from(outcome: SolveOutcome, mover: Color, start: Instant) -> RootPlan {
    let win = outcome
        .winning_moves
        .first()
        .filter(|_| outcome.winner == Some(mover));
    let Some(&win) = win else {
        // A position proven lost keeps every move: the playouts then pick
        // the one likeliest to draw an error from the opponent.
        return if outcome.winner.is_none() && !outcome.losing_moves.is_empty() {
            RootPlan::Losing(outcome.losing_moves)
        } else {
            RootPlan::Open
        };
    };
    won_plan(win, mover, start)
}

/// The plan of a proven win: play `win` at once.
fn won_plan(win: Point, mover: Color, start: Instant) -> RootPlan {
    let mv = Move::Play(win);
    RootPlan::Won(SearchReport {
        to_move: mover,
        candidates: vec![Candidate {
            mv,
            visits: 0,
            winrate: 1.0,
            prior: 1.0,
            pv: vec![mv],
            score_lead: None,
            proof: Proof::Win,
        }],
        playouts: 0,
        elapsed: start.elapsed(),
        extra_margin: 0,
        probe_winrate: None,
    })
}

/// Points where the side to move (whose legal moves are `legal`) or its
/// opponent may play: what is left of a NoGo game, and what the solver's
/// time grows with.
pub(crate) fn points_legal_for_either(position: &Position, legal: &[Move]) -> usize {
    let opponent = position.to_move().opponent();
    let opponent_only = position
        .empty_points()
        .iter()
        .map(|&p| Point(p))
        .filter(|&p| position.is_legal(p, opponent) && !legal.contains(&Move::Play(p)))
        .count();
    legal
        .iter()
        .filter(|mv| matches!(mv, Move::Play(_)))
        .count()
        + opponent_only
}

/// The most points legal for either side at which the solver likely
/// finishes within `limit` (see [`SOLVER_EITHER_LEGAL_AT_200_MS`]).
fn solver_either_legal_within(limit: Duration) -> usize {
    let doublings = (limit.as_secs_f64() / 0.2).log2().floor();
    // The cast saturates: a zero limit gives no points at all.
    (f64::from(SOLVER_EITHER_LEGAL_AT_200_MS) + doublings) as usize
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::{GameKind, Geometry};
    use crate::nogo::NogoDomain;
    use crate::search::Domain;

    /// A solve that ran out of time rules out only the root moves it proved
    /// lost; a position proven lost keeps all its moves; a win is played.
    #[test]
    fn an_unfinished_solve_rules_out_the_moves_it_proved_lost() {
        let outcome = |winner, status, winning: &[u16], losing: &[u16]| SolveOutcome {
            winner,
            status,
            winning_moves: winning.iter().map(|&p| Point(p)).collect(),
            losing_moves: losing.iter().map(|&p| Point(p)).collect(),
            unresolved_moves: Vec::new(),
            nodes: 1,
            elapsed: Duration::ZERO,
        };
        let start = Instant::now();
        let (black, white) = (Color::Black, Color::White);
        use crate::nogo::solver::SolveStatus::{Complete, OutOfTime};
        match endgame_from(outcome(None, OutOfTime, &[], &[12, 13]), black, start) {
            RootPlan::Losing(moves) => assert_eq!(moves, vec![Point(12), Point(13)]),
            _ => panic!("an unfinished solve's proven losses are ruled out"),
        }
        assert!(matches!(
            endgame_from(outcome(Some(white), Complete, &[], &[12]), black, start),
            RootPlan::Open
        ));
        assert!(matches!(
            endgame_from(outcome(None, OutOfTime, &[], &[]), black, start),
            RootPlan::Open
        ));
        match endgame_from(outcome(Some(black), Complete, &[14], &[12]), black, start) {
            RootPlan::Won(report) => {
                assert_eq!(report.best().map(|c| c.mv), Some(Move::Play(Point(14))))
            }
            _ => panic!("a proven win is played"),
        }
    }

    /// A NoGo position with 17 points left on 5x4: beyond the untimed
    /// solver's reach, and quick to solve after any move (the search's
    /// tests use it too).
    pub(crate) fn nogo_5x4_with_17_points() -> Game {
        let mut game = Game::new(Geometry::new(5, 4).unwrap(), GameKind::NoGo, 0.0);
        for (color, col, row) in [
            (Color::Black, 1, 1),
            (Color::White, 3, 2),
            (Color::Black, 2, 3),
        ] {
            let p = game.geometry().point(col, row).unwrap();
            game.play(color, Move::Play(p)).unwrap();
        }
        game
    }

    #[test]
    fn candidates_are_verified_just_beyond_the_solvers_reach() {
        let game = nogo_5x4_with_17_points();
        let points = solvable_points(&game, &NogoDomain::root_moves(&game)).expect("solvable");
        assert_eq!(points, 17);
        let start = Instant::now();
        // 17 points: a time whose reach is 13 to 16 points verifies.
        let at = |points: u32| {
            let time = Duration::from_secs_f64(
                0.2 / SOLVER_TIME_SHARE
                    * 2f64.powf(f64::from(points) - f64::from(SOLVER_EITHER_LEGAL_AT_200_MS) + 0.5),
            );
            SearchLimits {
                playouts: None,
                time: Some(time),
                dynamic_komi: false,
                stop_when_decided: true,
                may_pass: true,
            }
        };
        assert!(verification_deadline(points, &at(13), start).is_some());
        assert!(verification_deadline(points, &at(16), start).is_some());
        assert!(verification_deadline(points, &at(12), start).is_none());
        assert!(verification_deadline(points, &at(17), start).is_none());
        let untimed = SearchLimits {
            playouts: Some(100),
            time: None,
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        };
        assert!(verification_deadline(points, &untimed, start).is_none());
    }

    /// A late 9x9 position of random play, White to move, in parts of 10,
    /// 8 and 1 live points: 19 points are legal for either side, beyond
    /// the untimed solver's reach, and the parts' values prove a win.
    fn nogo_9x9_in_three_parts() -> Position {
        let mut position = Position::from_text(
            ".OXXXXOOO
             XXXXXX..O
             ...OXX.O.
             X.O.XOXO.
             X.OXOOX..
             ..XOX.XX.
             XOO.OXXXO
             ..OOOOOXX
             OOX.OOOOX",
            GameKind::NoGo,
        )
        .unwrap();
        position.set_to_move(Color::White);
        position
    }

    #[test]
    fn a_position_in_parts_is_won_by_their_values_without_a_time_limit() {
        let position = nogo_9x9_in_three_parts();
        let legal: Vec<Move> = position
            .empty_points()
            .iter()
            .map(|&p| Point(p))
            .filter(|&p| position.is_legal(p, Color::White))
            .map(Move::Play)
            .collect();
        let points = points_legal_for_either(&position, &legal);
        assert_eq!(points, 19);
        assert!(points > SOLVER_EITHER_LEGAL_UNTIMED);
        let untimed = SearchLimits {
            playouts: Some(100),
            time: None,
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: false,
        };
        let mut table = KeptTable::default();
        let plan = solve_endgame(&mut table, &position, points, &untimed, Instant::now());
        let RootPlan::Won(report) = plan else {
            panic!("the parts prove a win");
        };
        let Some(Move::Play(win)) = report.best().map(|c| c.mv) else {
            panic!("a won plan plays a stone");
        };
        // The exact solver confirms the move wins.
        let mut after = position.clone();
        after.play(win, Color::White);
        let options = SolveOptions {
            table_mb: Some(4),
            all_moves: false,
            ..SolveOptions::default()
        };
        let outcome = crate::nogo::solver::solve_with(&after, &options, &mut |_| {});
        assert_eq!(outcome.winner, Some(Color::White));
    }

    #[test]
    fn the_solver_gets_one_more_point_per_doubling_of_its_time() {
        let within = |ms| solver_either_legal_within(Duration::from_millis(ms));
        assert_eq!(within(200), 23);
        assert_eq!(within(399), 23);
        assert_eq!(within(400), 24);
        assert_eq!(within(100), 22);
        assert_eq!(within(3200), 27);
        assert_eq!(within(0), 0);
    }
}
