//! Exact NoGo solving.
//!
//! The solver works on its own compact board: one `u64` of stones per side
//! (bit `row * width + col`), so boards up to [`MAX_SOLVER_AREA`] points.
//! Every rule question is a handful of shifts and masks: legality of every
//! point for both sides comes from one pass over the strings (flood fills).
//!
//! The search is a depth-first win/loss negamax (alpha-beta with a null
//! window is the same thing for a two-valued game), with:
//! - a transposition table keyed by the position *up to colour and board
//!   symmetry*: NoGo does not care which colour is which, so the key is
//!   (stones of the side to move, stones of the other side), mapped to the
//!   smallest of its symmetric images. Keys are stored whole, so a hit is
//!   never a hash collision. Replacement keeps the entries that cost most.
//! - static cut-offs from two monotone facts of NoGo: a point illegal for a
//!   player stays illegal for ever (liberties only shrink and nothing is
//!   captured), so a player's legal-point count bounds the moves it has left;
//!   and a group of `k` single-point eyes joined through one player's strings
//!   gives that player `k - 1` moves that nothing can take away.
//! - move ordering: killer moves per ply, the history heuristic, moves the
//!   opponent could also play before moves only we can play, and near the
//!   root a one-ply look-ahead on the difference in legal-move counts.
//!
//! No iterative deepening: every NoGo line ends within `empty points` moves
//! and every table entry is exact, so one complete pass is all there is.

use std::time::{Duration, Instant};

use crate::board::{Color, GameKind, Point, Position};

/// Largest board the solver takes (its keys keep metadata in the top bits).
pub const MAX_SOLVER_AREA: usize = 56;

/// The proven result of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Who wins with perfect play.
    pub winner: Color,
    /// Positions searched.
    pub nodes: u64,
}

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveStatus {
    /// Every root move was classified.
    Complete,
    /// The winner is known, but the time ran out before every root move was
    /// classified (see `unresolved_moves`).
    WinnerOnly,
    /// The time ran out before the winner was known.
    OutOfTime,
    /// The position is not NoGo, or the board is larger than the solver takes.
    Unsupported,
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOutcome {
    /// Who wins with perfect play, `None` when unknown (time ran out, or
    /// the position is unsupported).
    pub winner: Option<Color>,
    pub status: SolveStatus,
    /// Legal moves of the side to move that win, sorted.
    pub winning_moves: Vec<Point>,
    /// Legal moves of the side to move that lose, sorted.
    pub losing_moves: Vec<Point>,
    /// Legal moves not classified before the time ran out.
    pub unresolved_moves: Vec<Point>,
    /// Positions searched.
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A progress report, at most about once a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveProgress {
    pub nodes: u64,
    /// Deepest ply searched so far (root moves are ply 1).
    pub depth: u32,
    pub elapsed: Duration,
    /// Root moves classified so far, out of `root_moves`.
    pub root_moves_done: usize,
    pub root_moves: usize,
}

/// Knobs of a solve beyond the time limit.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Give up after this long.
    pub limit: Option<Duration>,
    /// Transposition table size in MiB (`None`: chosen from the board size).
    pub table_mb: Option<usize>,
    /// Classify every root move (the full winning set) rather than stopping
    /// at the first win.
    pub all_moves: bool,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            limit: None,
            table_mb: None,
            all_moves: true,
        }
    }
}

/// Solves a NoGo position exactly (the side to move loses when it has no
/// legal move). Returns `None` for a Go position or a board too large.
pub fn solve_nogo(position: &Position) -> Option<Solution> {
    let options = SolveOptions {
        all_moves: false,
        ..SolveOptions::default()
    };
    let outcome = solve_with(position, &options, &mut |_| {});
    Some(Solution {
        winner: outcome.winner?,
        nodes: outcome.nodes,
    })
}

/// Solves a NoGo position: the winner and every winning first move, within
/// `limit`. `progress` is called at most about once a second.
pub fn solve(
    position: &Position,
    limit: Option<Duration>,
    progress: &mut dyn FnMut(&SolveProgress),
) -> SolveOutcome {
    let options = SolveOptions {
        limit,
        ..SolveOptions::default()
    };
    solve_with(position, &options, progress)
}

/// [`solve`] with every knob.
pub fn solve_with(
    position: &Position,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&SolveProgress),
) -> SolveOutcome {
    let start = Instant::now();
    let geometry = position.geometry();
    let (width, height) = (geometry.width(), geometry.height());
    let mut outcome = SolveOutcome {
        winner: None,
        status: SolveStatus::Unsupported,
        winning_moves: Vec::new(),
        losing_moves: Vec::new(),
        unresolved_moves: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    if position.kind() != GameKind::NoGo || width * height > MAX_SOLVER_AREA {
        return outcome;
    }
    let board = BitBoard::new(width, height);
    let mover = position.to_move();
    let stones_of = |color: Color| -> u64 {
        position.stones(color).iter().fold(0u64, |bits, p| {
            let (col, row) = geometry.coords(p).expect("stones lie on the board");
            bits | 1 << (row * width + col)
        })
    };
    let (own, other) = (stones_of(mover), stones_of(mover.opponent()));
    let point_of = |bit: u32| {
        let bit = bit as usize;
        geometry.point_unchecked(bit % width, bit / width)
    };

    let table_mb = options
        .table_mb
        .unwrap_or_else(|| default_table_mb(width * height));
    let mut solver = Solver::new(board, table_mb, start, options.limit);
    let root = solver.board.analyse(own, other);
    let mut root_moves = solver.ordered_moves(own, other, &root, 0);
    // Report moves in board order; search them in the solver's order.
    let total = root_moves.len();
    let mut done = 0;
    let mut winner_known = None;
    while let Some(bit) = root_moves.pop() {
        let won = solver.wins(other, own | 1 << bit, 1, progress, done, total);
        if solver.stopped {
            root_moves.push(bit);
            break;
        }
        done += 1;
        // `won` is the opponent's result after our move.
        if won {
            outcome.losing_moves.push(point_of(bit));
        } else {
            outcome.winning_moves.push(point_of(bit));
            winner_known = Some(mover);
            if !options.all_moves {
                break;
            }
        }
    }
    let finished = root_moves.is_empty() || (winner_known.is_some() && !options.all_moves);
    if finished && winner_known.is_none() {
        winner_known = Some(mover.opponent());
    }
    outcome.unresolved_moves = if solver.stopped {
        root_moves.iter().map(|&bit| point_of(bit)).collect()
    } else {
        Vec::new()
    };
    outcome.winner = winner_known;
    outcome.status = match (winner_known, solver.stopped) {
        (Some(_), false) => SolveStatus::Complete,
        (Some(_), true) => SolveStatus::WinnerOnly,
        (None, _) => SolveStatus::OutOfTime,
    };
    for list in [
        &mut outcome.winning_moves,
        &mut outcome.losing_moves,
        &mut outcome.unresolved_moves,
    ] {
        list.sort_unstable();
    }
    outcome.nodes = solver.nodes;
    outcome.elapsed = start.elapsed();
    outcome
}

/// A table big enough that small boards never replace, small enough that
/// tests on many boards allocate little.
fn default_table_mb(area: usize) -> usize {
    (1usize << area.saturating_sub(12).min(20)).clamp(1, 512)
}

/// Board masks for one board size: bit `row * width + col`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BitBoard {
    width: u32,
    area: u32,
    /// Every point.
    all: u64,
    /// Points not in the rightmost column (may shift one place right).
    not_right: u64,
    /// Points not in the leftmost column.
    not_left: u64,
}

/// Legality of every point for both sides, and the eye reserve of each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Analysis {
    /// Points the side to move may play.
    pub legal_own: u64,
    /// Points the other side may play.
    pub legal_other: u64,
}

impl BitBoard {
    pub(crate) fn new(width: usize, height: usize) -> BitBoard {
        let area = (width * height) as u32;
        let all = if area == 64 { !0 } else { (1u64 << area) - 1 };
        let mut left = 0u64;
        for row in 0..height {
            left |= 1 << (row * width);
        }
        let right = left << (width - 1);
        BitBoard {
            width: width as u32,
            area,
            all,
            not_right: all & !right,
            not_left: all & !left,
        }
    }

    /// Points orthogonally adjacent to some member of `set`.
    #[inline(always)]
    pub(crate) fn neighbours(&self, set: u64) -> u64 {
        (((set & self.not_right) << 1)
            | ((set & self.not_left) >> 1)
            | (set << self.width)
            | (set >> self.width))
            & self.all
    }

    /// The string of `stones` through the single bit `seed`.
    #[inline(always)]
    fn string_of(&self, seed: u64, stones: u64) -> u64 {
        let mut string = seed;
        loop {
            let grown = (string | self.neighbours(string)) & stones;
            if grown == string {
                return string;
            }
            string = grown;
        }
    }

    /// For the strings of `stones`: the liberties of those in atari, and
    /// the liberties of those with two or more.
    #[inline(always)]
    fn liberty_classes(&self, stones: u64, empty: u64) -> (u64, u64) {
        let (mut atari, mut free) = (0u64, 0u64);
        let mut rest = stones;
        while rest != 0 {
            let string = self.string_of(rest & rest.wrapping_neg(), stones);
            rest &= !string;
            let liberties = self.neighbours(string) & empty;
            if liberties & liberties.wrapping_sub(1) == 0 {
                atari |= liberties;
            } else {
                free |= liberties;
            }
        }
        (atari, free)
    }

    /// Legal points of both sides. A move is legal when it has an empty
    /// neighbour or joins a friendly string with another liberty (not
    /// suicide), and is not the last liberty of an enemy string (no capture).
    #[inline(always)]
    pub(crate) fn analyse(&self, own: u64, other: u64) -> Analysis {
        let empty = self.all & !(own | other);
        let breathing = self.neighbours(empty);
        let (own_atari, own_free) = self.liberty_classes(own, empty);
        let (other_atari, other_free) = self.liberty_classes(other, empty);
        Analysis {
            legal_own: empty & (breathing | own_free) & !other_atari,
            legal_other: empty & (breathing | other_free) & !own_atari,
        }
    }

    /// Moves `owner` can always make whatever happens: single-point eyes
    /// (every neighbour its stone) joined through its strings; a connected
    /// group of `k` such eyes gives `k - 1` (the last one is suicide).
    #[inline(always)]
    pub(crate) fn eye_reserve(&self, owner: u64, other: u64) -> u32 {
        let empty = self.all & !(owner | other);
        let eyes = empty & !self.neighbours(empty | other) & self.neighbours(owner);
        if eyes & eyes.wrapping_sub(1) == 0 {
            return 0;
        }
        let mut reserve = 0;
        let mut rest = eyes;
        let body = owner | eyes;
        while rest != 0 {
            let group = self.string_of(rest & rest.wrapping_neg(), body);
            let count = (group & eyes).count_ones();
            rest &= !group;
            reserve += count - 1;
        }
        reserve
    }
}

/// The deepest ply the solver tracks killers for (deeper plies share the last).
const MAX_PLY: usize = 64;

/// Plies from the root at which moves are ordered by a one-ply look-ahead
/// (costly: one analysis per move) rather than by history alone.
const LOOKAHEAD_PLIES: u32 = 14;

/// Plies from the root at which every reply is looked up in the table
/// before any is searched.
const ETC_PLIES: u32 = 10;

/// How many nodes between looks at the clock.
const CLOCK_EVERY: u64 = 1 << 12;

/// Entries per table bucket (one 64-byte cache line).
const BUCKET: usize = 4;

/// Bits of the key words above any board point, used for metadata.
const META_SHIFT: u32 = 56;
const META_VALID: u64 = 1 << 63;
const META_WIN: u64 = 1 << 62;
/// Six bits of log2(subtree size), for replacement.
const META_WORK_MASK: u64 = 0x3f;

/// The transposition table: exact keys, win/loss values.
struct Table {
    /// Pairs of words: canonical own stones, canonical other stones | meta.
    entries: Vec<[u64; 2]>,
    bucket_mask: usize,
}

impl Table {
    fn new(megabytes: usize) -> Table {
        let entries = (megabytes << 20) / 16;
        let wanted = (entries / BUCKET).max(1);
        // The largest power of two not above the budget.
        let buckets = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            entries: vec![[0u64; 2]; buckets * BUCKET],
            bucket_mask: buckets - 1,
        }
    }

    #[inline(always)]
    fn bucket(&self, key: (u64, u64)) -> usize {
        let mixed = (key.0 ^ key.1.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mixed = (mixed ^ (mixed >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        ((mixed >> 20) as usize & self.bucket_mask) * BUCKET
    }

    #[inline(always)]
    fn probe(&self, key: (u64, u64)) -> Option<bool> {
        let base = self.bucket(key);
        for entry in &self.entries[base..base + BUCKET] {
            if entry[0] == key.0
                && entry[1] & ((1 << META_SHIFT) - 1) == key.1
                && entry[1] & META_VALID != 0
            {
                return Some(entry[1] & META_WIN != 0);
            }
        }
        None
    }

    fn store(&mut self, key: (u64, u64), win: bool, work: u64) {
        let base = self.bucket(key);
        let work_log = (64 - work.leading_zeros() as u64).min(META_WORK_MASK);
        let meta = META_VALID | if win { META_WIN } else { 0 } | work_log << META_SHIFT;
        let bucket = &mut self.entries[base..base + BUCKET];
        // Same key, else an empty slot, else the cheapest entry.
        let slot = bucket
            .iter()
            .position(|e| e[0] == key.0 && e[1] & ((1 << META_SHIFT) - 1) == key.1)
            .or_else(|| bucket.iter().position(|e| e[1] & META_VALID == 0))
            .unwrap_or_else(|| {
                (0..BUCKET)
                    .min_by_key(|&k| (bucket[k][1] >> META_SHIFT) & META_WORK_MASK)
                    .unwrap_or(0)
            });
        bucket[slot] = [key.0, key.1 | meta];
    }
}

/// One board symmetry as byte-wise lookup tables: `map[k][b]` is the image
/// of byte `k` of a stone set having value `b`.
struct Symmetry {
    map: Vec<[u64; 256]>,
}

impl Symmetry {
    #[inline(always)]
    fn apply(&self, set: u64) -> u64 {
        let mut image = 0;
        for (k, table) in self.map.iter().enumerate() {
            image |= table[(set >> (8 * k)) as usize & 0xff];
        }
        image
    }
}

/// A map of (column, row) on a (width, height) board onto the board.
type Transform = fn(usize, usize, usize, usize) -> (usize, usize);

/// The distinct symmetries of a `width` x `height` board (identity first).
fn symmetries(width: usize, height: usize) -> Vec<Symmetry> {
    let square = width == height;
    let transforms: Vec<Transform> = {
        let mut list: Vec<Transform> = vec![
            |c, r, _, _| (c, r),
            |c, r, w, _| (w - 1 - c, r),
            |c, r, _, h| (c, h - 1 - r),
            |c, r, w, h| (w - 1 - c, h - 1 - r),
        ];
        if square {
            list.extend_from_slice(&[
                |c, r, _, _| (r, c),
                |c, r, w, _| (w - 1 - r, c),
                |c, r, _, h| (r, h - 1 - c),
                |c, r, w, h| (w - 1 - r, h - 1 - c),
            ]);
        }
        list
    };
    let area = width * height;
    let bytes = area.div_ceil(8);
    let mut seen: Vec<Vec<usize>> = Vec::new();
    let mut result = Vec::new();
    for transform in transforms {
        let permutation: Vec<usize> = (0..area)
            .map(|bit| {
                let (c, r) = transform(bit % width, bit / width, width, height);
                r * width + c
            })
            .collect();
        if seen.contains(&permutation) {
            continue;
        }
        let mut map = vec![[0u64; 256]; bytes];
        for (k, table) in map.iter_mut().enumerate() {
            for (value, image) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    let source = 8 * k + bit;
                    if value >> bit & 1 == 1 && source < area {
                        *image |= 1 << permutation[source];
                    }
                }
            }
        }
        seen.push(permutation);
        result.push(Symmetry { map });
    }
    result
}

struct Solver {
    board: BitBoard,
    symmetries: Vec<Symmetry>,
    table: Table,
    nodes: u64,
    deepest: u32,
    /// Two killer moves (bit indices, 64 = none) per ply.
    killers: [[u8; 2]; MAX_PLY],
    /// Per bit: how often the move won, weighted by the work it saved.
    history: [u64; 64],
    start: Instant,
    deadline: Option<Instant>,
    last_report: Instant,
    stopped: bool,
}

impl Solver {
    fn new(board: BitBoard, table_mb: usize, start: Instant, limit: Option<Duration>) -> Solver {
        let width = board.width as usize;
        Solver {
            board,
            symmetries: symmetries(width, board.area as usize / width),
            table: Table::new(table_mb),
            nodes: 0,
            deepest: 0,
            killers: [[64; 2]; MAX_PLY],
            history: [0; 64],
            start,
            deadline: limit.map(|l| start + l),
            last_report: start,
            stopped: false,
        }
    }

    /// The smallest symmetric image of (own, other).
    #[inline(always)]
    fn canonical(&self, own: u64, other: u64) -> (u64, u64) {
        let mut best = (own, other);
        for symmetry in &self.symmetries[1..] {
            let image = (symmetry.apply(own), symmetry.apply(other));
            if image < best {
                best = image;
            }
        }
        best
    }

    /// Legal moves of the side to move as bit indices, best last (popped first).
    fn ordered_moves(&mut self, own: u64, other: u64, analysis: &Analysis, ply: u32) -> Vec<u32> {
        let mut scored: Vec<(i64, u32)> =
            Vec::with_capacity(analysis.legal_own.count_ones() as usize);
        let killers = self.killers[(ply as usize).min(MAX_PLY - 1)];
        let mut rest = analysis.legal_own;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            let mut score = (self.history[bit as usize] >> 8).min(1 << 30) as i64;
            if killers[0] as u32 == bit {
                score += 1 << 40;
            } else if killers[1] as u32 == bit {
                score += 1 << 39;
            }
            // Points only we can play keep: take the contested ones first.
            if analysis.legal_other >> bit & 1 == 1 {
                score += 1 << 42;
            }
            if ply < LOOKAHEAD_PLIES {
                let child = self.board.analyse(other, own | 1 << bit);
                // The child's mover is the opponent.
                let margin =
                    child.legal_other.count_ones() as i64 - child.legal_own.count_ones() as i64;
                if child.legal_own == 0 {
                    score += 1 << 50;
                }
                score += (margin + 64) << 44;
            }
            scored.push((score, bit));
        }
        scored.sort_unstable_by_key(|&(score, _)| score);
        scored.into_iter().map(|(_, bit)| bit).collect()
    }

    /// Whether the side to move (`own`) wins. Meaningless once `stopped`.
    fn wins(
        &mut self,
        own: u64,
        other: u64,
        ply: u32,
        progress: &mut dyn FnMut(&SolveProgress),
        root_done: usize,
        root_total: usize,
    ) -> bool {
        self.nodes += 1;
        if ply > self.deepest {
            self.deepest = ply;
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            self.check_clock(progress, root_done, root_total);
        }
        if self.stopped {
            return false;
        }
        let analysis = self.board.analyse(own, other);
        let own_moves = analysis.legal_own.count_ones();
        let other_moves = analysis.legal_other.count_ones();
        if own_moves == 0 {
            return false;
        }
        // The opponent can never make more moves than it has legal points now.
        if other_moves == 0 || self.board.eye_reserve(own, other) > other_moves {
            return true;
        }
        if self.board.eye_reserve(other, own) >= own_moves {
            return false;
        }
        let key = self.canonical(own, other);
        if let Some(known) = self.table.probe(key) {
            return known;
        }
        let nodes_before = self.nodes;
        let mut moves = self.ordered_moves(own, other, &analysis, ply);
        // Enhanced transposition cut-off: a reply already known lost for
        // the opponent wins without searching anything.
        if ply < ETC_PLIES
            && moves
                .iter()
                .any(|&bit| self.table.probe(self.canonical(other, own | 1 << bit)) == Some(false))
        {
            self.table.store(key, true, 1);
            return true;
        }
        let mut result = false;
        while let Some(bit) = moves.pop() {
            let opponent_wins = self.wins(
                other,
                own | 1 << bit,
                ply + 1,
                progress,
                root_done,
                root_total,
            );
            if self.stopped {
                return false;
            }
            if !opponent_wins {
                let slot = (ply as usize).min(MAX_PLY - 1);
                if self.killers[slot][0] as u32 != bit {
                    self.killers[slot][1] = self.killers[slot][0];
                    self.killers[slot][0] = bit as u8;
                }
                let remaining = u64::from(own_moves + other_moves);
                self.history[bit as usize] += remaining * remaining;
                result = true;
                break;
            }
        }
        self.table.store(key, result, self.nodes - nodes_before);
        result
    }

    fn check_clock(
        &mut self,
        progress: &mut dyn FnMut(&SolveProgress),
        root_done: usize,
        root_total: usize,
    ) {
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d) {
            self.stopped = true;
            return;
        }
        if now.duration_since(self.last_report) >= Duration::from_secs(1) {
            self.last_report = now;
            progress(&SolveProgress {
                nodes: self.nodes,
                depth: self.deepest,
                elapsed: now.duration_since(self.start),
                root_moves_done: root_done,
                root_moves: root_total,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    #[test]
    fn legality_matches_the_position() {
        let position = Position::from_text(
            "X.O.
             XO..
             .XO.
             O.X.",
            GameKind::NoGo,
        )
        .unwrap();
        let g = position.geometry();
        let bits = |color: Color| {
            position.stones(color).iter().fold(0u64, |b, p| {
                let (c, r) = g.coords(p).unwrap();
                b | 1 << (r * 4 + c)
            })
        };
        let board = BitBoard::new(4, 4);
        let analysis = board.analyse(bits(Color::Black), bits(Color::White));
        for p in g.points() {
            let (c, r) = g.coords(p).unwrap();
            let bit = 1u64 << (r * 4 + c);
            if position.cell(p) != crate::board::Cell::Empty {
                continue;
            }
            assert_eq!(
                analysis.legal_own & bit != 0,
                position.is_legal(p, Color::Black),
                "black at {c},{r}"
            );
            assert_eq!(
                analysis.legal_other & bit != 0,
                position.is_legal(p, Color::White),
                "white at {c},{r}"
            );
        }
    }

    #[test]
    fn symmetries_are_counted_per_shape() {
        assert_eq!(symmetries(4, 4).len(), 8);
        assert_eq!(symmetries(5, 4).len(), 4);
        assert_eq!(symmetries(7, 1).len(), 2);
        assert_eq!(symmetries(1, 1).len(), 1);
    }

    #[test]
    fn tiny_boards() {
        let solve_size = |w, h| {
            solve_nogo(&Position::new(Geometry::new(w, h).unwrap(), GameKind::NoGo))
                .unwrap()
                .winner
        };
        assert_eq!(solve_size(1, 1), Color::White);
        assert_eq!(solve_size(2, 1), Color::Black);
        assert_eq!(solve_size(4, 1), Color::White);
        assert_eq!(solve_size(2, 2), Color::Black);
        assert_eq!(solve_size(3, 2), Color::White);
        assert_eq!(solve_size(3, 3), Color::Black);
    }
}
