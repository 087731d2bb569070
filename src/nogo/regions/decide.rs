//! Deciding a whole NoGo position from the values of its parts: the side
//! to move wins the sum exactly when it wins the board, and a winning
//! move is a move in one part after which the sum is still won.

use std::time::{Duration, Instant};

use super::cgt::{Arena, GameId, GameOutcome};
use super::split::{Split, split};
use super::value::{Budget, PartValue, value_part};
use super::words::Words;
use crate::board::{Color, GameKind, Point, Position};

/// How much a decision may spend.
#[derive(Clone, Copy, Debug)]
pub struct RegionBudget {
    /// Part positions valued, over all parts.
    pub positions: u64,
    /// Work of the game arithmetic (see `cgt::Arena::new`).
    pub work: u64,
    /// Give up at this time.
    pub deadline: Option<Instant>,
}

/// Work units of the game arithmetic allowed per part position (each some
/// 50 bytes of memo at most): on 80 late positions of random play on 9x9
/// and 7x7 a decision used 1.7 a position on average, 8.6 at most.
const WORK_PER_POSITION: u64 = 10;

impl RegionBudget {
    /// A budget of `positions` part positions, the arithmetic's work in
    /// proportion, ending at `deadline` if one is given.
    pub fn new(positions: u64, deadline: Option<Instant>) -> RegionBudget {
        RegionBudget {
            positions,
            work: positions * WORK_PER_POSITION,
            deadline,
        }
    }
}

/// What a decision found for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionDecision {
    /// The side to move wins by playing this point.
    Won(Point),
    /// The side to move loses whatever it plays: every legal move is lost.
    Lost(Vec<Point>),
    /// Not decided: not NoGo, a board over 128 points, or the budget ran out.
    Unknown,
}

/// A decision and what it cost.
#[derive(Clone, Debug)]
pub struct RegionReport {
    pub decision: RegionDecision,
    /// Parts of the board, and those where some point is legal for both.
    pub components: usize,
    pub contested: usize,
    /// Points of the largest part.
    pub largest: u32,
    /// Part positions valued.
    pub positions: u64,
    /// Work units of the game arithmetic spent.
    pub work: u64,
    /// The sum of the parts' values, written out (when it was found).
    pub value: Option<String>,
    pub elapsed: Duration,
}

/// `position`'s board as words and its parts, if it is NoGo on a board of
/// at most 128 points.
pub fn split_position(position: &Position) -> Option<Split> {
    let words = Words::of(position).filter(|_| position.kind() == GameKind::NoGo)?;
    let black = words.stones(position, Color::Black);
    let white = words.stones(position, Color::White);
    Some(split(&words, black, white))
}

/// Decides `position` for its side to move by the values of its parts,
/// within `budget`.
pub fn decide(position: &Position, budget: &RegionBudget) -> RegionReport {
    let start = Instant::now();
    let mut report = RegionReport {
        decision: RegionDecision::Unknown,
        components: 0,
        contested: 0,
        largest: 0,
        positions: 0,
        work: 0,
        value: None,
        elapsed: Duration::ZERO,
    };
    let Some(words) = Words::of(position).filter(|_| position.kind() == GameKind::NoGo) else {
        return report;
    };
    let parts = split(
        &words,
        words.stones(position, Color::Black),
        words.stones(position, Color::White),
    );
    report.components = parts.components.len();
    report.contested = parts.contested();
    report.largest = parts.largest();
    let mut arena = Arena::new(budget.work);
    let mut positions = Budget {
        positions_left: budget.positions,
        deadline: budget.deadline,
        positions: 0,
    };
    // Smallest parts first: a budget that runs out does so on the last.
    let mut order = parts.components.clone();
    order.sort_by_key(|part| part.size());
    let values: Option<Vec<PartValue>> = order
        .iter()
        .map(|part| value_part(&words, part, parts.dead, &mut arena, &mut positions))
        .collect();
    report.positions = positions.positions;
    if let Some(values) = values {
        let mover = position.to_move();
        let point = |bit| words.point(position, bit);
        if let Some((decision, total)) = decide_sum(&mut arena, &values, mover, point) {
            report.decision = decision;
            report.value = Some(arena.describe(total, 200));
        }
    }
    report.work = budget.work - arena.work_left();
    report.elapsed = start.elapsed();
    report
}

/// The decision for `mover` on the sum of the parts' `values`, and the sum.
fn decide_sum(
    arena: &mut Arena,
    values: &[PartValue],
    mover: Color,
    point: impl Fn(u32) -> Point,
) -> Option<(RegionDecision, GameId)> {
    let games: Vec<GameId> = values.iter().map(|part| part.value).collect();
    let total = arena.sum_all(&games)?;
    let outcome = arena.outcome(total)?;
    let wins = matches!(
        (outcome, mover),
        (GameOutcome::First, _)
            | (GameOutcome::Left, Color::Black)
            | (GameOutcome::Right, Color::White)
    );
    if !wins {
        let mut lost: Vec<Point> = values
            .iter()
            .flat_map(|part| moves_of(part, mover))
            .map(|&(bit, _)| point(bit))
            .collect();
        lost.sort_unstable();
        return Some((RegionDecision::Lost(lost), total));
    }
    let zero = arena.zero();
    // The sum of all parts but the `i`th, from prefix and suffix sums.
    let mut prefix = vec![zero];
    for &g in &games {
        let last = *prefix.last().expect("starts with zero");
        prefix.push(arena.sum(last, g)?);
    }
    let mut suffix = vec![zero; games.len() + 1];
    for i in (0..games.len()).rev() {
        suffix[i] = arena.sum(games[i], suffix[i + 1])?;
    }
    for (i, part) in values.iter().enumerate() {
        let others = arena.sum(prefix[i], suffix[i + 1])?;
        for &(bit, after) in moves_of(part, mover) {
            let rest = arena.sum(after, others)?;
            // After a winning move the opponent, moving first, loses.
            let won = match mover {
                Color::Black => arena.le(zero, rest)?,
                Color::White => arena.le(rest, zero)?,
            };
            if won {
                return Some((RegionDecision::Won(point(bit)), total));
            }
        }
    }
    // A won sum always has a winning option among the real moves.
    debug_assert!(false, "a won sum without a winning move");
    None
}

/// `mover`'s moves in a part, with the part's value after each.
fn moves_of(part: &PartValue, mover: Color) -> &[(u32, GameId)] {
    match mover {
        Color::Black => &part.black_moves,
        Color::White => &part.white_moves,
    }
}
