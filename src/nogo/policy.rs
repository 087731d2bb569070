//! NoGo knowledge: a static evaluation, tree priors and a playout policy.
//!
//! After Liang, Xie et al., "UCT算法在不围棋博弈中的实现" (2015): a
//! position is scored by counting, for each side, its eyes (眼: empty
//! points where an enemy stone would be suicide), its tiger mouths (虎口:
//! points where an enemy stone would have a single liberty, one step from
//! an eye) and its forbidden points (禁入点: points where its own stone
//! would take the enemy's last liberty, a capture, so it may not play). The
//! paper gives no weights; the constants below are those of a secondary
//! account (10, 3, -5), untuned.
//!
//! In NoGo the eyes are best read as "safe points": legal for a side and
//! illegal for the other. A point that turns illegal never turns legal
//! again (liberties only shrink, nothing is ever captured), so safe points
//! are moves in reserve, and the game is won by whoever has moves left.

use crate::board::{Bitboard, BoardError, Cell, Color, Point, Position};

use crate::search::playout::{FastRng, PlayoutResult, below};

/// Score of a point only the side can play (an eye in the paper's sense).
pub const EYE_WEIGHT: i32 = 10;
/// Score of a tiger mouth: an enemy stone there would be in atari.
pub const TIGER_MOUTH_WEIGHT: i32 = 3;
/// Score of a forbidden point: the side's stone there would capture.
pub const FORBIDDEN_WEIGHT: i32 = -5;

/// Evaluation units per unit of prior win rate: a move worth one eye is
/// seeded at 50% + 10 / 40 = 75%.
const PRIOR_SCALE: f64 = 40.0;
/// Prior win rates stay within 50% ± this.
const PRIOR_SPREAD: f64 = 0.4;

/// How the two sides see one empty point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PointView {
    legal_for_side: bool,
    legal_for_other: bool,
}

/// Whether an enemy stone on the empty point `p` would have exactly one
/// liberty and no enemy neighbour: three sides are the side's stones or
/// the edge, one is empty.
fn is_tiger_mouth(position: &Position, p: Point, side: Color) -> bool {
    let mut empty = 0;
    for n in position.geometry().neighbours(p) {
        match position.cell(n) {
            Cell::Empty => empty += 1,
            Cell::Border => {}
            cell if cell == side.cell() => {}
            _ => return false,
        }
    }
    empty == 1
}

/// The paper's S(N) for `color` minus the same for its opponent.
///
/// Eyes are counted as safe points (legal for `color`, illegal for the
/// opponent); tiger mouths only where both may still play; forbidden points
/// are those where `color`'s move would capture.
pub fn evaluate(position: &Position, color: Color) -> i32 {
    let other = color.opponent();
    let mut score = 0;
    for &p in position.empty_points() {
        let p = Point(p);
        let view = PointView {
            legal_for_side: position.is_legal_empty(p, color),
            legal_for_other: position.is_legal_empty(p, other),
        };
        match (view.legal_for_side, view.legal_for_other) {
            (true, false) => score += EYE_WEIGHT,
            (false, true) => score -= EYE_WEIGHT,
            (true, true) => {
                if is_tiger_mouth(position, p, color) {
                    score += TIGER_MOUTH_WEIGHT;
                }
                if is_tiger_mouth(position, p, other) {
                    score -= TIGER_MOUTH_WEIGHT;
                }
            }
            (false, false) => {}
        }
        if !view.legal_for_side && position.check_move(p, color) == Err(BoardError::NoGoCapture) {
            score += FORBIDDEN_WEIGHT;
        }
        if !view.legal_for_other && position.check_move(p, other) == Err(BoardError::NoGoCapture) {
            score -= FORBIDDEN_WEIGHT;
        }
    }
    score
}

/// A local estimate of how much `mover`'s stone on `p` changes
/// [`evaluate`] for `mover`: only `p`, its empty neighbours and the strings
/// it touches are looked at (no copy of the board, no full recount).
///
/// - Spending a point the opponent could not take anyway loses an eye.
/// - An empty neighbour that the move closes off on every side becomes an
///   eye; one left with a single empty side becomes a tiger mouth.
///
/// Atari effects on the strings the move touches (the paper's forbidden
/// points) are left out: measured, they made the priors worse.
pub fn move_gain(position: &Position, p: Point, mover: Color) -> i32 {
    let g = position.geometry();
    let other = mover.opponent();
    let mut gain = 0;
    if !position.is_legal_empty(p, other) {
        gain -= EYE_WEIGHT;
    }
    for q in g.neighbours(p) {
        if position.cell(q) != Cell::Empty {
            continue;
        }
        let (mut own, mut enemy, mut empty) = (0, 0, 0);
        for r in g.neighbours(q) {
            match position.cell(r) {
                Cell::Empty if r != p => empty += 1,
                Cell::Empty | Cell::Border => own += 1,
                cell if cell == mover.cell() => own += 1,
                _ => enemy += 1,
            }
        }
        if enemy == 0 && empty == 0 && own == 4 && position.is_legal_empty(q, other) {
            gain += EYE_WEIGHT;
        } else if enemy == 0 && empty == 1 {
            gain += TIGER_MOUTH_WEIGHT;
        }
    }
    gain
}

/// What an empty point is worth to `side`: +1 if only `side` may play it
/// (a move in reserve), -1 if only the other side may, 0 if both or
/// neither may.
#[inline]
fn reserve_value(position: &Position, p: Point, side: Color) -> i32 {
    match (
        position.is_legal_empty(p, side),
        position.is_legal_empty(p, side.opponent()),
    ) {
        (true, false) => 1,
        (false, true) => -1,
        _ => 0,
    }
}

/// The seed's principle in exact form: how much `mover`'s stone on `p`
/// changes (points only `mover` may play) minus (points only the opponent
/// may play). Only `p`'s neighbours and the liberties of the strings next to
/// `p` can change legality, so only they are compared, before and after the
/// move is played on `after` (a scratch board, overwritten).
pub fn mobility_gain(position: &Position, p: Point, mover: Color, after: &mut Position) -> i32 {
    let g = position.geometry();
    let mut affected = Bitboard::EMPTY;
    for n in g.neighbours(p) {
        match position.cell(n) {
            Cell::Empty => affected.set(n),
            Cell::Border => {}
            _ => affected = affected.or(&position.string_liberties(n)),
        }
    }
    affected.clear(p);
    after.copy_from(position);
    after.play_in_search(p, mover);
    let mut gain = -reserve_value(position, p, mover);
    for q in affected.iter() {
        gain += reserve_value(after, q, mover) - reserve_value(position, q, mover);
    }
    gain
}

/// The prior from [`mobility_gain`]: `even` virtual playouts at 50% moved
/// by `step` per point of gain, within 50% ± [`PRIOR_SPREAD`].
pub fn mobility_prior(
    position: &Position,
    p: Point,
    mover: Color,
    even: u32,
    step: f64,
    after: &mut Position,
) -> (u16, u32) {
    let gain = mobility_gain(position, p, mover, after) as f64;
    virtual_playouts(gain * step, even)
}

/// Prior knowledge for the tree node of `mover`'s move on `p`: virtual
/// playouts and virtual wins in half points. `even` is the search's
/// neutral prior (`prior_even`): the move gets `even` virtual playouts at a
/// win rate of 50% moved by [`move_gain`].
pub fn prior(position: &Position, p: Point, mover: Color, even: u32) -> (u16, u32) {
    let gain = move_gain(position, p, mover) as f64;
    virtual_playouts(gain / PRIOR_SCALE, even)
}

/// `even` virtual playouts (in half points) at a win rate of 50% moved by
/// `shift`, within 50% ± [`PRIOR_SPREAD`].
fn virtual_playouts(shift: f64, even: u32) -> (u16, u32) {
    let rate = 0.5 + shift.clamp(-PRIOR_SPREAD, PRIOR_SPREAD);
    let visits = even.min(u16::MAX as u32);
    let wins = (rate * 2.0 * visits as f64).round() as u32;
    (visits as u16, wins)
}

/// Choices of the NoGo playout policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NogoPlayoutOptions {
    /// AMAF hears only the open moves (see [`nogo_playout`]).
    pub amaf_open_only: bool,
    /// Hold back every point only the mover may play, also one that became
    /// so during the playout (instead of only those one-sided at its start).
    pub hold_reserve: bool,
}

/// Candidate lists of the NoGo playout policy, kept across the moves of a
/// playout and reused between playouts (no allocation per playout).
///
/// They rest on NoGo's monotonicity: a point illegal for a side stays
/// illegal (liberties only shrink, nothing is captured). A point found
/// illegal for the mover is filed once (for the opponent, or dropped), and a
/// reserve point found illegal for its owner is dropped: every point is
/// classified about once per playout instead of once per move.
#[derive(Clone, Debug, Default)]
pub struct NogoLists {
    /// Points drawn first, by whoever is to move: those both sides could
    /// play at the playout's start (with `hold_reserve`: every point not yet
    /// found one-sided).
    open: Vec<u16>,
    /// Per colour: points found legal for it alone, not a single-point eye
    /// when found.
    reserve: [Vec<u16>; 2],
    /// Per colour: its single-point eyes found legal for it alone.
    eyes: [Vec<u16>; 2],
    /// See [`NogoPlayoutOptions::hold_reserve`].
    hold_reserve: bool,
}

impl NogoLists {
    /// Points left in `color`'s reserve and eye lists: at the end of a
    /// playout won by `color`, the moves it had to spare (the lists are not
    /// checked again, so a point that has meanwhile turned illegal for it
    /// still counts).
    pub fn spare_moves(&self, color: Color) -> usize {
        self.reserve[color as usize].len() + self.eyes[color as usize].len()
    }

    /// Starts a playout from `position`. Without `hold_reserve` the points
    /// one side alone may play are filed now, so that only the points both
    /// sides could play are drawn first.
    fn reset(&mut self, position: &Position, hold_reserve: bool) {
        self.hold_reserve = hold_reserve;
        self.open.clear();
        for list in self.reserve.iter_mut().chain(self.eyes.iter_mut()) {
            list.clear();
        }
        if hold_reserve {
            self.open.extend_from_slice(position.empty_points());
            return;
        }
        for &q in position.empty_points() {
            let p = Point(q);
            match position.nogo_legality(p) {
                (true, true) => self.open.push(q),
                (true, false) => self.file_one_sided(position, p, Color::Black),
                (false, true) => self.file_one_sided(position, p, Color::White),
                (false, false) => {}
            }
        }
    }

    /// The playout's move for `mover`: a uniformly drawn open point legal
    /// for it if any (with `hold_reserve`, one legal for both sides), else a
    /// point of its reserve, else one of its eyes; `None` if nothing is
    /// legal. The flag tells whether the point was an open one.
    #[inline(always)]
    fn next_move(
        &mut self,
        position: &Position,
        mover: Color,
        rng: &mut FastRng,
    ) -> Option<(Point, bool)> {
        let other = mover.opponent();
        while !self.open.is_empty() {
            let p = Point(self.open.swap_remove(below(rng, self.open.len())));
            if position.is_legal_empty_nogo(p, mover) {
                if !self.hold_reserve || position.is_legal_empty_nogo(p, other) {
                    return Some((p, true));
                }
                self.file_one_sided(position, p, mover);
            } else if position.is_legal_empty_nogo(p, other) {
                self.file_one_sided(position, p, other);
            }
        }
        for list in [
            &mut self.reserve[mover as usize],
            &mut self.eyes[mover as usize],
        ] {
            while !list.is_empty() {
                let p = Point(list.swap_remove(below(rng, list.len())));
                if position.is_legal_empty_nogo(p, mover) {
                    return Some((p, false));
                }
            }
        }
        None
    }

    /// Files `p`, legal for `owner` alone, as its eye or reserve point.
    #[inline(always)]
    fn file_one_sided(&mut self, position: &Position, p: Point, owner: Color) {
        let lists = if is_single_point_eye(position, p, owner) {
            &mut self.eyes
        } else {
            &mut self.reserve
        };
        lists[owner as usize].push(p.0);
    }
}

/// A NoGo playout. The mover plays, in this order: an open point (one both
/// sides could play when the playout began) that is legal for it, then its
/// own reserve (points only it may play) that are not single-point eyes,
/// then its eyes. Ends when the side to move has no legal move (it loses)
/// or after `max_moves` (no winner).
///
/// Playing an open point that has meanwhile become the mover's alone, rather
/// than holding it back with the rest of its reserve, measured stronger
/// against HaHaNoGo (whose playouts do the same); `hold_reserve` restores
/// the holding back.
///
/// With `amaf_open_only`, `on_move` hears only the open moves. A side's own
/// safe points get filled at the end of every playout it wins, so counting
/// those moves would teach AMAF that filling one's own reserve early is
/// good, when it throws a move away.
pub fn nogo_playout(
    position: &mut Position,
    max_moves: u32,
    options: NogoPlayoutOptions,
    lists: &mut NogoLists,
    rng: &mut FastRng,
    mut on_move: impl FnMut(Point, Color),
) -> PlayoutResult {
    lists.reset(position, options.hold_reserve);
    // A local copy of the generator can stay in registers through the
    // loop (the caller's must be written back before every call out).
    let mut local_rng = rng.clone();
    let local = &mut local_rng;
    let mut moves = 0;
    // Unrolled by a Black-White pair, so that the mover is a constant in
    // each half: what depends on it (legality masks, list indices, the
    // stone's cell) is folded at compile time instead of recomputed per move.
    // One move for White if the argument is true, else Black; the same
    // arguments every time (a macro: closures cannot take a const generic).
    macro_rules! step {
        ($white:literal) => {
            nogo_playout_move::<$white>(
                position,
                max_moves,
                &mut moves,
                options,
                lists,
                local,
                &mut on_move,
            )
        };
    }
    let result = 'playout: {
        if position.to_move() == Color::White
            && let Some(result) = step!(true)
        {
            break 'playout result;
        }
        loop {
            if let Some(result) = step!(false) {
                break 'playout result;
            }
            if let Some(result) = step!(true) {
                break 'playout result;
            }
        }
    };
    *rng = local_rng;
    #[cfg(debug_assertions)]
    position.check_invariants();
    result
}

/// One move of [`nogo_playout`] for White if `WHITE`, else Black (who must
/// be to move); the result if the playout ends instead.
#[inline(always)]
fn nogo_playout_move<const WHITE: bool>(
    position: &mut Position,
    max_moves: u32,
    moves: &mut u32,
    options: NogoPlayoutOptions,
    lists: &mut NogoLists,
    rng: &mut FastRng,
    on_move: &mut impl FnMut(Point, Color),
) -> Option<PlayoutResult> {
    let mover = if WHITE { Color::White } else { Color::Black };
    debug_assert_eq!(position.to_move(), mover);
    if *moves >= max_moves {
        return Some(PlayoutResult {
            winner: None,
            moves: *moves,
            margin: 0.0,
            by_mercy: false,
        });
    }
    let Some((p, open)) = lists.next_move(position, mover, rng) else {
        return Some(PlayoutResult {
            winner: Some(mover.opponent()),
            moves: *moves,
            margin: 0.0,
            by_mercy: false,
        });
    };
    if open || !options.amaf_open_only {
        on_move(p, mover);
    }
    position.play_nogo_in_search(p, mover);
    *moves += 1;
    None
}

/// The chance that a NoGo playout won with `spare` moves in hand counts as
/// a draw (see `SearchParams::nogo_margin_weight`).
pub fn margin_draw_chance(weight: f64, scale: f64, spare: usize) -> f64 {
    weight * (1.0 - (spare as f64 / scale).tanh())
}

/// Every neighbour of `p` is `color`'s stone or the edge.
#[inline(always)]
fn is_single_point_eye(position: &Position, p: Point, color: Color) -> bool {
    position
        .geometry()
        .neighbours(p)
        .into_iter()
        .all(|n| matches!(position.cell(n), Cell::Border) || position.cell(n) == color.cell())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;
    use rand_xoshiro::rand_core::SeedableRng;

    fn nogo(text: &str) -> Position {
        Position::from_text(text, GameKind::NoGo).unwrap()
    }

    #[test]
    fn an_eye_counts_for_its_owner() {
        // Black's corner point A1 is illegal for White (suicide).
        let position = nogo(
            "....
             ....
             X...
             .X..",
        );
        let score = evaluate(&position, Color::Black);
        assert!(score >= EYE_WEIGHT, "{score}");
        assert_eq!(evaluate(&position, Color::White), -score);
    }

    #[test]
    fn empty_board_is_even() {
        let position = Position::new(crate::board::Geometry::square(5).unwrap(), GameKind::NoGo);
        assert_eq!(evaluate(&position, Color::Black), 0);
    }

    #[test]
    fn closing_an_eye_beats_filling_one() {
        let position = nogo(
            ".X...
             .....
             .....
             X....
             .X...",
        );
        let g = position.geometry();
        // A4 closes the corner eye at A5; A1 fills Black's own eye.
        let close = move_gain(&position, g.point(0, 3).unwrap(), Color::Black);
        let fill = move_gain(&position, g.point(0, 0).unwrap(), Color::Black);
        assert!(close > fill, "{close} {fill}");
        let (visits, wins) = prior(&position, g.point(0, 3).unwrap(), Color::Black, 10);
        assert!(wins > visits as u32, "{visits} {wins}");
    }

    /// Reserve points of `side` minus the opponent's, counted over the board.
    fn reserve_balance(position: &Position, side: Color) -> i32 {
        position
            .empty_points()
            .iter()
            .map(|&p| reserve_value(position, Point(p), side))
            .sum()
    }

    /// The local count agrees with a full recount before and after every
    /// legal move along random games.
    #[test]
    fn mobility_gain_matches_a_full_recount() {
        let mut rng = FastRng::seed_from_u64(3);
        for size in [3, 5, 9] {
            let root = Position::new(
                crate::board::Geometry::square(size).unwrap(),
                GameKind::NoGo,
            );
            let mut scratch = root.clone();
            for _ in 0..20 {
                let mut position = root.clone();
                loop {
                    let mover = position.to_move();
                    let legal: Vec<Point> = position
                        .empty_points()
                        .iter()
                        .map(|&p| Point(p))
                        .filter(|&p| position.is_legal_empty(p, mover))
                        .collect();
                    if legal.is_empty() {
                        break;
                    }
                    let before = reserve_balance(&position, mover);
                    for &p in &legal {
                        let mut after = position.clone();
                        after.play(p, mover);
                        let expected = reserve_balance(&after, mover) - before;
                        assert_eq!(mobility_gain(&position, p, mover, &mut scratch), expected);
                    }
                    position.play(legal[below(&mut rng, legal.len())], mover);
                }
            }
        }
    }

    #[test]
    fn closing_a_corner_gains_a_reserve_point() {
        // Black B5 and A3: A4 makes A5 a point White may not play (suicide).
        let position = nogo(
            ".X...
             .....
             X....
             .....
             .....",
        );
        let g = position.geometry();
        let mut scratch = position.clone();
        let a4 = g.point(0, 3).unwrap();
        assert_eq!(mobility_gain(&position, a4, Color::Black, &mut scratch), 1);
        let (visits, wins) = mobility_prior(&position, a4, Color::Black, 10, 0.1, &mut scratch);
        assert_eq!((visits, wins), (10, 12));
    }

    /// With `hold_reserve` the candidate lists pick only legal moves,
    /// contested points first, and end exactly when the mover has no legal
    /// move.
    #[test]
    fn holding_the_reserve_plays_contested_points_first() {
        let root = Position::new(crate::board::Geometry::square(7).unwrap(), GameKind::NoGo);
        let mut rng = FastRng::seed_from_u64(9);
        let mut lists = NogoLists::default();
        for _ in 0..50 {
            let mut position = root.clone();
            lists.reset(&position, true);
            loop {
                let mover = position.to_move();
                let contested_left = position.empty_points().iter().any(|&p| {
                    position.is_legal_empty(Point(p), mover)
                        && position.is_legal_empty(Point(p), mover.opponent())
                });
                match lists.next_move(&position, mover, &mut rng) {
                    Some((p, contested)) => {
                        assert!(position.is_legal_empty(p, mover));
                        assert_eq!(contested, contested_left);
                        assert_eq!(contested, position.is_legal_empty(p, mover.opponent()));
                        position.play(p, mover);
                    }
                    None => {
                        assert!(!position.has_legal_move(mover));
                        break;
                    }
                }
            }
        }
    }

    /// By default the lists draw the points both sides could play when the
    /// playout began until none is left, then the mover's reserve; they pick
    /// only legal moves and end exactly when the mover has none.
    #[test]
    fn open_points_are_played_while_legal_for_the_mover() {
        let mut rng = FastRng::seed_from_u64(9);
        let mut lists = NogoLists::default();
        let mut starts = vec![Position::new(
            crate::board::Geometry::square(7).unwrap(),
            GameKind::NoGo,
        )];
        // A start with reserve points already on the board.
        let mut opened = starts[0].clone();
        for _ in 0..12 {
            let (p, _) = lists_move(&mut lists, &opened, &mut rng);
            opened.play(p, opened.to_move());
        }
        starts.push(opened);
        // Open points that had become the mover's alone, played at once.
        let mut taken_alone = 0;
        for start in &starts {
            for _ in 0..50 {
                let mut position = start.clone();
                let open_at_start: Vec<Point> = position
                    .empty_points()
                    .iter()
                    .map(|&p| Point(p))
                    .filter(|&p| {
                        position.is_legal_empty(p, Color::Black)
                            && position.is_legal_empty(p, Color::White)
                    })
                    .collect();
                lists.reset(&position, false);
                loop {
                    let mover = position.to_move();
                    match lists.next_move(&position, mover, &mut rng) {
                        Some((p, open)) => {
                            assert!(position.is_legal_empty(p, mover));
                            if open {
                                assert!(open_at_start.contains(&p));
                                taken_alone +=
                                    usize::from(!position.is_legal_empty(p, mover.opponent()));
                            } else {
                                assert!(lists.open.is_empty());
                            }
                            position.play(p, mover);
                        }
                        None => {
                            assert!(!position.has_legal_move(mover));
                            break;
                        }
                    }
                }
            }
        }
        assert!(taken_alone > 0);
    }

    /// One move of a fresh default playout from `position`.
    fn lists_move(lists: &mut NogoLists, position: &Position, rng: &mut FastRng) -> (Point, bool) {
        lists.reset(position, false);
        lists
            .next_move(position, position.to_move(), rng)
            .expect("a legal move")
    }

    #[test]
    fn playouts_end_with_a_side_out_of_moves() {
        let root = Position::new(crate::board::Geometry::square(9).unwrap(), GameKind::NoGo);
        let mut rng = FastRng::seed_from_u64(1);
        for _ in 0..50 {
            let mut position = root.clone();
            let mut played = 0;
            let mut lists = NogoLists::default();
            let options = NogoPlayoutOptions {
                amaf_open_only: false,
                hold_reserve: false,
            };
            let result = nogo_playout(&mut position, 300, options, &mut lists, &mut rng, |_, _| {
                played += 1
            });
            let loser = position.to_move();
            assert_eq!(result.winner, Some(loser.opponent()));
            assert!(!position.has_legal_move(loser));
            assert_eq!(result.moves, played);
        }
    }

    /// The winner's spare moves are what it still has in hand when the
    /// loser runs out: here White has no legal point at all and Black has
    /// three (two eyes and a point beside its stone), all of them spare.
    #[test]
    fn a_playout_reports_the_winners_spare_moves() {
        let mut position = nogo(". X . X .");
        position.set_to_move(Color::White);
        let options = NogoPlayoutOptions {
            amaf_open_only: true,
            hold_reserve: false,
        };
        let mut lists = NogoLists::default();
        let mut rng = FastRng::seed_from_u64(2);
        let result = nogo_playout(&mut position, 100, options, &mut lists, &mut rng, |_, _| {});
        assert_eq!(result.winner, Some(Color::Black));
        assert_eq!(result.moves, 0);
        assert_eq!(lists.spare_moves(Color::Black), 3);
        assert_eq!(lists.spare_moves(Color::White), 0);
    }

    #[test]
    fn narrow_wins_are_the_likeliest_draws() {
        assert_eq!(margin_draw_chance(0.2, 3.0, 0), 0.2);
        assert_eq!(margin_draw_chance(0.0, 3.0, 0), 0.0);
        let chances: Vec<f64> = (0..8)
            .map(|spare| margin_draw_chance(0.2, 3.0, spare))
            .collect();
        assert!(
            chances.windows(2).all(|pair| pair[1] < pair[0]),
            "{chances:?}"
        );
        assert!(chances[7] < 0.01, "{chances:?}");
    }
}
