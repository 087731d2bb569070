//! Exact NoGo solving.
//!
//! The solver works on its own compact board: one machine word of stones
//! per side (bit `row * width + col`), a `u64` on boards up to 57 points
//! and a `u128` up to [`MAX_SOLVER_AREA`] = 121 (11x11), chosen per solve
//! by the `PointSet` parameter so that small boards keep the fast word.
//! Every rule question is a handful of shifts and masks: legality of every
//! point for both sides comes from one pass over the strings (flood fills).
//!
//! The search is a depth-first win/loss negamax (alpha-beta with a null
//! window is the same thing for a two-valued game), with:
//! - a transposition table keyed by the position *up to colour and board
//!   symmetry*: NoGo does not care which colour is which, so the key is
//!   (stones of the side to move, stones of the other side), mapped to the
//!   smallest of its images under the symmetries that fix the root's
//!   stones. Keys are stored whole, so a hit is never a hash collision.
//!   Replacement keeps the entries that cost most.
//! - static cut-offs from two monotone facts of NoGo: a point illegal for a
//!   player stays illegal for ever (liberties only shrink and nothing is
//!   captured), so a player's legal-point count bounds the moves it has left;
//!   and a group of `k` single-point eyes joined through one player's strings
//!   gives that player `k - 1` moves that nothing can take away.
//! - move ordering: killer moves per ply, the history heuristic, moves the
//!   opponent could also play before moves only we can play, and near the
//!   root a one-ply look-ahead on the difference in legal-move counts. The
//!   look-ahead updates the node's strings for each move instead of
//!   flood-filling the child from scratch, and hands the child's analysis
//!   down, so the child's search does not redo it.
//! - the table's buckets are prefetched before they are read (the node's
//!   own as soon as its key is known, every reply's at once for the
//!   enhanced transposition cut-off), so cache misses overlap with work.
//!
//! No iterative deepening: every NoGo line ends within `empty points` moves
//! and every table entry is exact, so one complete pass is all there is.
//!
//! Reading order: [`solve_with`] picks the word and runs `solve_on` over the
//! root moves; `BitBoard` answers the rule questions, `Table` and
//! `Symmetry` make the keys, and `Solver::wins` is the search.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Shl, Shr};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use crate::board::{Color, GameKind, Point, Position};

/// Largest board the solver takes: 11x11 (a `u128` key word keeps
/// `META_BITS` bits of table metadata above the board).
pub const MAX_SOLVER_AREA: usize = max_area::<u128>();

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
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Give up after this long.
    pub limit: Option<Duration>,
    /// Give up once this is set (a controller's interrupt), answering with
    /// what is proved so far, as when time runs out.
    pub stop: Option<Arc<AtomicBool>>,
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
            stop: None,
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
    solve_kept(position, options, progress, &mut KeptTable::default())
}

/// [`solve_with`], starting from the table `kept` holds if it was made for
/// this board and table size, and leaving the table there afterwards.
pub fn solve_kept(
    position: &Position,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&SolveProgress),
    kept: &mut KeptTable,
) -> SolveOutcome {
    let start = Instant::now();
    let area = position.geometry().area();
    if position.kind() != GameKind::NoGo || area > MAX_SOLVER_AREA {
        return SolveOutcome {
            winner: None,
            status: SolveStatus::Unsupported,
            winning_moves: Vec::new(),
            losing_moves: Vec::new(),
            unresolved_moves: Vec::new(),
            nodes: 0,
            elapsed: start.elapsed(),
        };
    }
    // The narrowest word that holds the board: small boards stay fast.
    if area <= max_area::<u64>() {
        solve_on::<u64>(position, options, progress, start, kept)
    } else {
        solve_on::<u128>(position, options, progress, start, kept)
    }
}

/// `color`'s stones as a solver word (bit `row * width + col`).
fn stones_word<S: PointSet>(position: &Position, color: Color) -> S {
    let geometry = position.geometry();
    position.stones(color).iter().fold(S::EMPTY, |bits, p| {
        let (col, row) = geometry.coords(p).expect("stones lie on the board");
        bits | S::point((row * geometry.width() + col) as u32)
    })
}

/// Adds a string's `liberties` to `atari` if it has one, else to `free`.
#[inline(always)]
fn add_liberty_class<S: PointSet>(liberties: S, atari: &mut S, free: &mut S) {
    if liberties.without_first() == S::EMPTY {
        *atari |= liberties;
    } else {
        *free |= liberties;
    }
}

/// The largest board a `S` key holds beside its metadata.
const fn max_area<S: PointSet>() -> usize {
    (S::BITS - META_BITS) as usize
}

/// [`solve_with`] on a board of at most `max_area::<S>()` points.
fn solve_on<S: PointSet>(
    position: &Position,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&SolveProgress),
    start: Instant,
    kept: &mut KeptTable,
) -> SolveOutcome {
    let geometry = position.geometry();
    let (width, height) = (geometry.width(), geometry.height());
    let board = BitBoard::<S>::new(width, height);
    let mover = position.to_move();
    let (own, other) = (
        stones_word::<S>(position, mover),
        stones_word::<S>(position, mover.opponent()),
    );
    let point_of = |bit: u32| {
        let bit = bit as usize;
        geometry.point_unchecked(bit % width, bit / width)
    };

    let table_mb = options
        .table_mb
        .unwrap_or_else(|| default_table_mb(width * height));
    let shape = (width, height, table_mb);
    if kept.shape != shape {
        *kept = KeptTable {
            shape,
            ..KeptTable::default()
        };
    }
    let table = S::take_table(kept).unwrap_or_else(|| Table::new(table_mb));
    let mut solver = Solver::new(board, own | other, table, start, options);
    let root = solver.board.analyse(own, other);
    let mut root_moves = solver.ordered_moves(own, other, &root, 0);
    // Report moves in board order; search them in the solver's order.
    let total = root_moves.len();
    let mut done = 0;
    let mut winner_known = None;
    let mut outcome = SolveOutcome {
        winner: None,
        status: SolveStatus::OutOfTime,
        winning_moves: Vec::new(),
        losing_moves: Vec::new(),
        unresolved_moves: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    while let Some((bit, child)) = root_moves.pop() {
        solver.root_moves_done = (done, total);
        let won = solver.wins(other, own | S::point(bit), child, 1, progress);
        if solver.stopped {
            root_moves.push((bit, child));
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
        root_moves.iter().map(|&(bit, _)| point_of(bit)).collect()
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
    S::keep_table(kept, solver.table);
    outcome
}

/// A table big enough that small boards never replace, small enough that
/// tests on many boards allocate little.
fn default_table_mb(area: usize) -> usize {
    (1usize << area.saturating_sub(12).min(20)).clamp(1, 512)
}

/// Bits at the top of a key word above any board point, used for table
/// metadata: one for the value, six for log2 of the subtree size.
const META_BITS: u32 = 7;

/// A set of board points as one machine word, bit `row * width + col`.
pub(crate) trait PointSet:
    Copy
    + Eq
    + Ord
    + Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    const BITS: u32;
    const EMPTY: Self;
    /// The set of the one point `index`.
    fn point(index: u32) -> Self;
    /// The set holding `value` in its lowest byte.
    fn from_byte(value: u8) -> Self;
    fn count(self) -> u32;
    /// Index of the lowest point; `BITS` for the empty set.
    fn first(self) -> u32;
    /// The lowest point alone (empty for the empty set).
    fn first_alone(self) -> Self;
    /// The set without its lowest point.
    fn without_first(self) -> Self;
    fn contains(self, index: u32) -> bool;
    /// Byte `k` of the word (bits `8k..8k+8`).
    fn byte(self, k: usize) -> usize;
    /// The word folded to 64 bits, for hashing.
    fn digest(self) -> u64;
    /// This word's table in `kept`, taken out (`None` if it holds none).
    fn take_table(kept: &mut KeptTable) -> Option<Table<Self>>;
    /// Puts this word's table into `kept`.
    fn keep_table(kept: &mut KeptTable, table: Table<Self>);
}

macro_rules! impl_point_set {
    ($word:ty, $slot:ident, $digest:expr) => {
        impl PointSet for $word {
            const BITS: u32 = <$word>::BITS;
            const EMPTY: Self = 0;
            #[inline(always)]
            fn point(index: u32) -> Self {
                1 << index
            }
            #[inline(always)]
            fn from_byte(value: u8) -> Self {
                value.into()
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn first(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn first_alone(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn without_first(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn contains(self, index: u32) -> bool {
                self >> index & 1 == 1
            }
            #[inline(always)]
            fn byte(self, k: usize) -> usize {
                (self >> (8 * k)) as usize & 0xff
            }
            #[inline(always)]
            fn digest(self) -> u64 {
                $digest(self)
            }
            fn take_table(kept: &mut KeptTable) -> Option<Table<Self>> {
                kept.$slot.take()
            }
            fn keep_table(kept: &mut KeptTable, table: Table<Self>) {
                kept.$slot = Some(table);
            }
        }
    };
}

impl_point_set!(u64, small, |set: u64| set);
impl_point_set!(u128, large, |set: u128| set as u64
    ^ ((set >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));

/// Board masks for one board size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BitBoard<S> {
    width: u32,
    area: u32,
    /// Every point.
    all: S,
    /// Points not in the rightmost column (may shift one place right).
    not_right: S,
    /// Points not in the leftmost column.
    not_left: S,
}

/// Legality of every point for both sides.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Analysis<S> {
    /// Points the side to move may play.
    pub legal_own: S,
    /// Points the other side may play.
    pub legal_other: S,
}

impl<S: PointSet> BitBoard<S> {
    /// Masks for a board of at most `S::BITS` points.
    pub(crate) fn new(width: usize, height: usize) -> BitBoard<S> {
        let area = (width * height) as u32;
        let all = if area == S::BITS {
            !S::EMPTY
        } else {
            !(!S::EMPTY << area)
        };
        let mut left = S::EMPTY;
        for row in 0..height {
            left |= S::point((row * width) as u32);
        }
        let right = left << (width as u32 - 1);
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
    pub(crate) fn neighbours(&self, set: S) -> S {
        (((set & self.not_right) << 1)
            | ((set & self.not_left) >> 1)
            | (set << self.width)
            | (set >> self.width))
            & self.all
    }

    /// The string of `stones` through the single point `seed`.
    #[inline(always)]
    fn string_of(&self, seed: S, stones: S) -> S {
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
    fn liberty_classes(&self, stones: S, empty: S) -> (S, S) {
        let (mut atari, mut free) = (S::EMPTY, S::EMPTY);
        let mut rest = stones;
        while rest != S::EMPTY {
            let string = self.string_of(rest.first_alone(), stones);
            rest &= !string;
            add_liberty_class(self.neighbours(string) & empty, &mut atari, &mut free);
        }
        (atari, free)
    }

    /// Appends each string of `stones` to `out` with its liberties.
    #[inline(always)]
    fn strings_with_liberties(&self, stones: S, empty: S, out: &mut Vec<(S, S)>) {
        let mut rest = stones;
        while rest != S::EMPTY {
            let string = self.string_of(rest.first_alone(), stones);
            rest &= !string;
            out.push((string, self.neighbours(string) & empty));
        }
    }

    /// [`BitBoard::analyse`] of the position after the side to move plays
    /// `stone` (legal for it), seen by the opponent, who moves next. Built
    /// from the strings of both sides before the move (`own_strings`,
    /// `other_strings`, as [`BitBoard::strings_with_liberties`] lists them)
    /// instead of flood-filling every string again: the move joins the own
    /// strings it touches and takes one liberty from the enemy strings it
    /// touches, and every other string keeps its liberties.
    #[inline(always)]
    fn analyse_after(
        &self,
        own_strings: &[(S, S)],
        other_strings: &[(S, S)],
        empty: S,
        stone: S,
    ) -> Analysis<S> {
        let empty = empty & !stone;
        let near = self.neighbours(stone);
        let (mut own_atari, mut own_free) = (S::EMPTY, S::EMPTY);
        let mut joined = stone;
        for &(string, liberties) in own_strings {
            if string & near == S::EMPTY {
                add_liberty_class(liberties, &mut own_atari, &mut own_free);
            } else {
                joined |= string;
            }
        }
        add_liberty_class(
            self.neighbours(joined) & empty,
            &mut own_atari,
            &mut own_free,
        );
        let (mut other_atari, mut other_free) = (S::EMPTY, S::EMPTY);
        for &(_, liberties) in other_strings {
            add_liberty_class(liberties & !stone, &mut other_atari, &mut other_free);
        }
        let breathing = self.neighbours(empty);
        Analysis {
            legal_own: empty & (breathing | other_free) & !own_atari,
            legal_other: empty & (breathing | own_free) & !other_atari,
        }
    }

    /// Legal points of both sides. A move is legal when it has an empty
    /// neighbour or joins a friendly string with another liberty (not
    /// suicide), and is not the last liberty of an enemy string (no capture).
    #[inline(always)]
    pub(crate) fn analyse(&self, own: S, other: S) -> Analysis<S> {
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
    pub(crate) fn eye_reserve(&self, owner: S, other: S) -> u32 {
        let empty = self.all & !(owner | other);
        let eyes = empty & !self.neighbours(empty | other) & self.neighbours(owner);
        if eyes.without_first() == S::EMPTY {
            return 0;
        }
        let mut reserve = 0;
        let mut rest = eyes;
        let body = owner | eyes;
        while rest != S::EMPTY {
            let group = self.string_of(rest.first_alone(), body);
            let count = (group & eyes).count();
            rest &= !group;
            reserve += count - 1;
        }
        reserve
    }
}

/// The deepest ply the solver tracks killers for (deeper plies share the last).
const MAX_PLY: usize = 128;

/// Killer slot holding no move.
const NO_KILLER: u8 = u8::MAX;

/// Plies from the root at which moves are ordered by a one-ply look-ahead
/// (costly: one analysis per move) rather than by history alone.
const LOOKAHEAD_PLIES: u32 = 14;

/// Plies from the root at which every reply is looked up in the table
/// before any is searched.
const ETC_PLIES: u32 = 10;

/// How many nodes between looks at the clock.
const CLOCK_EVERY: u64 = 1 << 12;

/// Bits of log2(subtree size) kept in an entry, for replacement.
const WORK_MASK: u8 = 0x3f;

/// A transposition table kept from one solve to the next (see
/// [`solve_kept`]). Its entries are exact results keyed by the stones
/// themselves, true of that position in any game, so an in-game solve that
/// runs out of time still leaves what it proved to the solves of later
/// moves, which then reach further.
#[derive(Default)]
pub struct KeptTable {
    /// Board width, height and table size in MiB the table was made for.
    shape: (usize, usize, usize),
    small: Option<Table<u64>>,
    large: Option<Table<u128>>,
}

/// The transposition table: exact keys, win/loss values.
pub(crate) struct Table<S> {
    /// Pairs of words: canonical own stones, canonical other stones with
    /// the metadata in its top [`META_BITS`] bits: the value at the very
    /// top, then log2 of the work (at least 1, so 0 marks an empty slot).
    entries: Vec<[S; 2]>,
    bucket_mask: usize,
}

impl<S: PointSet> Table<S> {
    /// Entries per bucket: one 64-byte cache line.
    const BUCKET: usize = 64 / (2 * std::mem::size_of::<S>());
    const META_SHIFT: u32 = S::BITS - META_BITS;
    const WIN_BIT: u32 = S::BITS - 1;

    fn new(megabytes: usize) -> Table<S> {
        let entries = (megabytes << 20) / (2 * std::mem::size_of::<S>());
        let wanted = (entries / Self::BUCKET).max(1);
        // The largest power of two not above the budget.
        let buckets = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            entries: vec![[S::EMPTY; 2]; buckets * Self::BUCKET],
            bucket_mask: buckets - 1,
        }
    }

    #[inline(always)]
    fn bucket(&self, key: (S, S)) -> usize {
        let mixed =
            (key.0.digest() ^ key.1.digest().rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mixed = (mixed ^ (mixed >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        ((mixed >> 20) as usize & self.bucket_mask) * Self::BUCKET
    }

    /// The board part of an entry's second word.
    #[inline(always)]
    fn board_part(word: S) -> S {
        word & !(!S::EMPTY << Self::META_SHIFT)
    }

    /// log2 of an entry's work; 0 for an empty slot.
    #[inline(always)]
    fn work_log(entry: &[S; 2]) -> u8 {
        (entry[1] >> Self::META_SHIFT).byte(0) as u8 & WORK_MASK
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe a
    /// little later does not wait for memory (the table is far larger than
    /// the cache: nearly every probe misses).
    #[inline(always)]
    fn prefetch(&self, key: (S, S)) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = self.entries[self.bucket(key)..].as_ptr();
            // SAFETY: a prefetch is a hint that never faults and changes no
            // state visible to the program; SSE is part of x86_64's baseline.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    bucket.cast::<i8>(),
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline(always)]
    fn probe(&self, key: (S, S)) -> Option<bool> {
        let base = self.bucket(key);
        self.entries[base..base + Self::BUCKET]
            .iter()
            .find(|e| e[0] == key.0 && Self::board_part(e[1]) == key.1 && Self::work_log(e) != 0)
            .map(|e| e[1].contains(Self::WIN_BIT))
    }

    fn store(&mut self, key: (S, S), win: bool, work: u64) {
        let base = self.bucket(key);
        let work_log = (64 - work.max(1).leading_zeros() as u8).min(WORK_MASK);
        let mut meta = S::from_byte(work_log) << Self::META_SHIFT;
        if win {
            meta |= S::point(Self::WIN_BIT);
        }
        let bucket = &mut self.entries[base..base + Self::BUCKET];
        // Same key, else an empty slot, else the cheapest entry.
        let slot = bucket
            .iter()
            .position(|e| e[0] == key.0 && Self::board_part(e[1]) == key.1)
            .or_else(|| bucket.iter().position(|e| Self::work_log(e) == 0))
            .unwrap_or_else(|| {
                (0..Self::BUCKET)
                    .min_by_key(|&k| Self::work_log(&bucket[k]))
                    .unwrap_or(0)
            });
        bucket[slot] = [key.0, key.1 | meta];
    }
}

/// One board symmetry as byte-wise lookup tables: `map[k][b]` is the image
/// of byte `k` of a stone set having value `b`.
struct Symmetry<S> {
    map: Vec<[S; 256]>,
}

impl<S: PointSet> Symmetry<S> {
    #[inline(always)]
    fn apply(&self, set: S) -> S {
        let mut image = S::EMPTY;
        for (k, table) in self.map.iter().enumerate() {
            image |= table[set.byte(k)];
        }
        image
    }
}

/// A map of (column, row) on a (width, height) board onto the board.
type Transform = fn(usize, usize, usize, usize) -> (usize, usize);

/// The distinct symmetries of a `width` x `height` board (identity first).
fn symmetries<S: PointSet>(width: usize, height: usize) -> Vec<Symmetry<S>> {
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
        let mut map = vec![[S::EMPTY; 256]; bytes];
        for (k, table) in map.iter_mut().enumerate() {
            for (value, image) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    let source = 8 * k + bit;
                    if value >> bit & 1 == 1 && source < area {
                        *image |= S::point(permutation[source] as u32);
                    }
                }
            }
        }
        seen.push(permutation);
        result.push(Symmetry { map });
    }
    result
}

struct Solver<S> {
    board: BitBoard<S>,
    /// The board symmetries that fix the root's stones (identity first):
    /// stones are never removed, so only these can map one position of the
    /// search onto another.
    symmetries: Vec<Symmetry<S>>,
    table: Table<S>,
    nodes: u64,
    deepest: u32,
    /// Two killer moves (bit indices, [`NO_KILLER`] = none) per ply.
    killers: [[u8; 2]; MAX_PLY],
    /// Per bit: how often the move won, weighted by the work it saved.
    history: [u64; u128::BITS as usize],
    start: Instant,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    last_report: Instant,
    stopped: bool,
    /// Scratch list of strings and their liberties for `ordered_moves`.
    strings: Vec<(S, S)>,
    /// Root moves classified so far and in all, for progress reports.
    root_moves_done: (usize, usize),
}

impl<S: PointSet> Solver<S> {
    fn new(
        board: BitBoard<S>,
        root_stones: S,
        table: Table<S>,
        start: Instant,
        options: &SolveOptions,
    ) -> Solver<S> {
        let width = board.width as usize;
        let mut symmetries = symmetries(width, board.area as usize / width);
        symmetries.retain(|symmetry| symmetry.apply(root_stones) == root_stones);
        Solver {
            board,
            symmetries,
            table,
            nodes: 0,
            deepest: 0,
            killers: [[NO_KILLER; 2]; MAX_PLY],
            history: [0; u128::BITS as usize],
            start,
            deadline: options.limit.map(|l| start + l),
            stop: options.stop.clone(),
            last_report: start,
            stopped: false,
            strings: Vec::new(),
            root_moves_done: (0, 0),
        }
    }

    /// The smallest symmetric image of (own, other).
    #[inline(always)]
    fn canonical(&self, own: S, other: S) -> (S, S) {
        let mut best = (own, other);
        for symmetry in &self.symmetries[1..] {
            let image = (symmetry.apply(own), symmetry.apply(other));
            if image < best {
                best = image;
            }
        }
        best
    }

    /// Legal moves of the side to move as bit indices, best last (popped
    /// first), each with the analysis of the position it leads to where the
    /// look-ahead made one (the child's search then starts from it).
    fn ordered_moves(
        &mut self,
        own: S,
        other: S,
        analysis: &Analysis<S>,
        ply: u32,
    ) -> Vec<(u32, Option<Analysis<S>>)> {
        let mut scored: Vec<(i64, u32, Option<Analysis<S>>)> =
            Vec::with_capacity(analysis.legal_own.count() as usize);
        let killers = self.killers[(ply as usize).min(MAX_PLY - 1)];
        let lookahead = ply < LOOKAHEAD_PLIES;
        let empty = self.board.all & !(own | other);
        let mut strings = std::mem::take(&mut self.strings);
        strings.clear();
        let mut own_count = 0;
        if lookahead {
            self.board.strings_with_liberties(own, empty, &mut strings);
            own_count = strings.len();
            self.board
                .strings_with_liberties(other, empty, &mut strings);
        }
        let (own_strings, other_strings) = strings.split_at(own_count);
        let mut rest = analysis.legal_own;
        while rest != S::EMPTY {
            let bit = rest.first();
            rest = rest.without_first();
            let mut score = (self.history[bit as usize] >> 8).min(1 << 30) as i64;
            if killers[0] as u32 == bit {
                score += 1 << 40;
            } else if killers[1] as u32 == bit {
                score += 1 << 39;
            }
            // Points only we can play keep: take the contested ones first.
            if analysis.legal_other.contains(bit) {
                score += 1 << 42;
            }
            let mut known = None;
            if lookahead {
                let child =
                    self.board
                        .analyse_after(own_strings, other_strings, empty, S::point(bit));
                // The child's mover is the opponent.
                let margin = child.legal_other.count() as i64 - child.legal_own.count() as i64;
                if child.legal_own == S::EMPTY {
                    score += 1 << 50;
                }
                score += (margin + 64) << 44;
                known = Some(child);
            }
            scored.push((score, bit, known));
        }
        self.strings = strings;
        scored.sort_unstable_by_key(|&(score, _, _)| score);
        scored
            .into_iter()
            .map(|(_, bit, known)| (bit, known))
            .collect()
    }

    /// Whether the side to move (`own`) wins. Meaningless once `stopped`.
    /// `known`: the position's analysis, if the parent's look-ahead made it.
    fn wins(
        &mut self,
        own: S,
        other: S,
        known: Option<Analysis<S>>,
        ply: u32,
        progress: &mut dyn FnMut(&SolveProgress),
    ) -> bool {
        self.nodes += 1;
        if ply > self.deepest {
            self.deepest = ply;
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            self.check_clock(progress);
        }
        if self.stopped {
            return false;
        }
        let key = self.canonical(own, other);
        self.table.prefetch(key);
        let analysis = known.unwrap_or_else(|| self.board.analyse(own, other));
        let own_moves = analysis.legal_own.count();
        let other_moves = analysis.legal_other.count();
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
        if let Some(known) = self.table.probe(key) {
            return known;
        }
        let nodes_before = self.nodes;
        let mut moves = self.ordered_moves(own, other, &analysis, ply);
        // Enhanced transposition cut-off: a reply already known lost for
        // the opponent wins without searching anything.
        if ply < ETC_PLIES {
            // Every reply's bucket is requested before any is read, so the
            // memory waits overlap.
            let replies: Vec<(S, S)> = moves
                .iter()
                .map(|&(bit, _)| self.canonical(other, own | S::point(bit)))
                .collect();
            for &reply in &replies {
                self.table.prefetch(reply);
            }
            if replies
                .iter()
                .any(|&reply| self.table.probe(reply) == Some(false))
            {
                self.table.store(key, true, 1);
                return true;
            }
        }
        let mut result = false;
        while let Some((bit, child)) = moves.pop() {
            let opponent_wins = self.wins(other, own | S::point(bit), child, ply + 1, progress);
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

    fn check_clock(&mut self, progress: &mut dyn FnMut(&SolveProgress)) {
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d)
            || self.stop.as_ref().is_some_and(|stop| stop.load(Relaxed))
        {
            self.stopped = true;
            return;
        }
        if now.duration_since(self.last_report) >= Duration::from_secs(1) {
            self.last_report = now;
            progress(&SolveProgress {
                nodes: self.nodes,
                depth: self.deepest,
                elapsed: now.duration_since(self.start),
                root_moves_done: self.root_moves_done.0,
                root_moves: self.root_moves_done.1,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    /// The solver's legality of every empty point against the position's,
    /// for both sides, on a word of type `S`.
    fn check_legality<S: PointSet>(position: &Position) {
        let g = position.geometry();
        let board = BitBoard::<S>::new(g.width(), g.height());
        let analysis = board.analyse(
            stones_word::<S>(position, Color::Black),
            stones_word::<S>(position, Color::White),
        );
        for p in g.points() {
            let (c, r) = g.coords(p).unwrap();
            let bit = (r * g.width() + c) as u32;
            if position.cell(p) != crate::board::Cell::Empty {
                continue;
            }
            assert_eq!(
                analysis.legal_own.contains(bit),
                position.is_legal(p, Color::Black),
                "black at {c},{r}"
            );
            assert_eq!(
                analysis.legal_other.contains(bit),
                position.is_legal(p, Color::White),
                "white at {c},{r}"
            );
        }
    }

    #[test]
    fn legality_matches_the_position() {
        let small = Position::from_text(
            "X.O.
             XO..
             .XO.
             O.X.",
            GameKind::NoGo,
        )
        .unwrap();
        check_legality::<u64>(&small);
        check_legality::<u128>(&small);
        // Strings crossing the 64-bit boundary of the wide word, and
        // captures and suicides on its last rows.
        let large = Position::from_text(
            "X.XOO.O.X
             XXOO.OOXX
             .O.XXO.X.
             OO.X.OXOO
             .XXOXX.X.
             OX.OO.OXO
             X.XXOXXO.
             OOX.O.OX.
             .XO.XOO.X",
            GameKind::NoGo,
        )
        .unwrap();
        check_legality::<u128>(&large);
    }

    /// A NoGo position after up to `stones` random legal moves on a
    /// `cols` x `rows` board, either side to move; `state` is a fixed LCG.
    fn random_play(cols: usize, rows: usize, stones: usize, state: &mut u64) -> Position {
        let mut position = Position::new(Geometry::new(cols, rows).unwrap(), GameKind::NoGo);
        for _ in 0..stones {
            let mover = position.to_move();
            let legal: Vec<Point> = position
                .empty_points()
                .iter()
                .map(|&p| Point(p))
                .filter(|&p| position.is_legal(p, mover))
                .collect();
            if legal.is_empty() {
                break;
            }
            *state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            position.play(legal[(*state >> 33) as usize % legal.len()], mover);
        }
        position
    }

    /// Every root move classified through both words agrees.
    fn assert_words_agree(position: &Position) {
        let options = SolveOptions {
            table_mb: Some(16),
            ..SolveOptions::default()
        };
        let mut kept = KeptTable::default();
        let narrow = solve_on::<u64>(position, &options, &mut |_| {}, Instant::now(), &mut kept);
        let mut kept = KeptTable::default();
        let wide = solve_on::<u128>(position, &options, &mut |_| {}, Instant::now(), &mut kept);
        let text = position.to_text();
        assert_eq!(narrow.status, SolveStatus::Complete, "{text}");
        assert_eq!(wide.status, SolveStatus::Complete, "{text}");
        assert_eq!(wide.winner, narrow.winner, "{text}");
        assert_eq!(wide.winning_moves, narrow.winning_moves, "{text}");
        assert_eq!(wide.losing_moves, narrow.losing_moves, "{text}");
    }

    #[test]
    fn the_wide_word_agrees_with_the_narrow_one() {
        for (cols, rows) in [(4, 4), (5, 3), (3, 5), (7, 2), (4, 3)] {
            assert_words_agree(&Position::new(
                Geometry::new(cols, rows).unwrap(),
                GameKind::NoGo,
            ));
        }
        // Positions of random play, either side to move (a fixed LCG).
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for (cols, rows, stones) in [
            (4, 4, 5),
            (5, 4, 9),
            (6, 3, 6),
            (4, 5, 8),
            (6, 6, 22),
            (7, 7, 38),
        ] {
            for _ in 0..6 {
                assert_words_agree(&random_play(cols, rows, stones, &mut state));
            }
        }
    }

    /// The look-ahead's analysis after each legal move, built from the
    /// strings before it, is the full analysis of the position after it.
    fn check_analysis_after<S: PointSet>(position: &Position) {
        let g = position.geometry();
        let board = BitBoard::<S>::new(g.width(), g.height());
        let mover = position.to_move();
        let (own, other) = (
            stones_word::<S>(position, mover),
            stones_word::<S>(position, mover.opponent()),
        );
        let empty = board.all & !(own | other);
        let (mut own_strings, mut other_strings) = (Vec::new(), Vec::new());
        board.strings_with_liberties(own, empty, &mut own_strings);
        board.strings_with_liberties(other, empty, &mut other_strings);
        let mut legal = board.analyse(own, other).legal_own;
        while legal != S::EMPTY {
            let stone = legal.first_alone();
            legal = legal.without_first();
            let full = board.analyse(other, own | stone);
            let after = board.analyse_after(&own_strings, &other_strings, empty, stone);
            assert_eq!(after.legal_own, full.legal_own, "{}", position.to_text());
            assert_eq!(
                after.legal_other,
                full.legal_other,
                "{}",
                position.to_text()
            );
        }
    }

    #[test]
    fn the_look_ahead_analysis_matches_a_full_one() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for (cols, rows, stones) in [(5, 5, 10), (7, 7, 30), (9, 9, 40), (9, 9, 60), (11, 11, 90)] {
            for _ in 0..8 {
                let position = random_play(cols, rows, stones, &mut state);
                if cols * rows <= max_area::<u64>() {
                    check_analysis_after::<u64>(&position);
                }
                check_analysis_after::<u128>(&position);
            }
        }
    }

    #[test]
    fn symmetries_are_counted_per_shape() {
        assert_eq!(symmetries::<u64>(4, 4).len(), 8);
        assert_eq!(symmetries::<u64>(5, 4).len(), 4);
        assert_eq!(symmetries::<u64>(7, 1).len(), 2);
        assert_eq!(symmetries::<u64>(1, 1).len(), 1);
        assert_eq!(symmetries::<u128>(9, 9).len(), 8);
        assert_eq!(symmetries::<u128>(11, 10).len(), 4);
    }

    /// Every symmetry of the wide word is a permutation of the points
    /// that keeps neighbours neighbours.
    #[test]
    fn wide_symmetries_preserve_adjacency() {
        for (width, height) in [(9, 9), (11, 11), (10, 7)] {
            let board = BitBoard::<u128>::new(width, height);
            let area = (width * height) as u32;
            for symmetry in symmetries::<u128>(width, height) {
                assert_eq!(symmetry.apply(board.all), board.all);
                for bit in 0..area {
                    let image = symmetry.apply(u128::point(bit));
                    assert_eq!(image.count(), 1);
                    assert_eq!(
                        board.neighbours(image),
                        symmetry.apply(board.neighbours(u128::point(bit))),
                        "{width}x{height} point {bit}"
                    );
                }
            }
        }
    }

    /// A kept table answers a second solve from what the first proved, on
    /// the same position and on one a move further on; a board of another
    /// shape starts a fresh table and still gets the right answer.
    #[test]
    fn a_kept_table_carries_proofs_to_later_solves() {
        let options = SolveOptions {
            all_moves: false,
            ..SolveOptions::default()
        };
        let board = Position::new(Geometry::new(4, 3).unwrap(), GameKind::NoGo);
        let mut kept = KeptTable::default();
        let fresh = solve_with(&board, &options, &mut |_| {});
        let first = solve_kept(&board, &options, &mut |_| {}, &mut kept);
        let again = solve_kept(&board, &options, &mut |_| {}, &mut kept);
        assert_eq!(first.winner, fresh.winner);
        assert_eq!(again.winner, fresh.winner);
        assert!(
            again.nodes < first.nodes,
            "{} then {}",
            first.nodes,
            again.nodes
        );

        let mut later = board.clone();
        let reply = [&first.winning_moves, &first.losing_moves]
            .into_iter()
            .find_map(|moves| moves.first())
            .unwrap();
        later.play(*reply, Color::Black);
        let later_fresh = solve_with(&later, &options, &mut |_| {});
        let later_kept = solve_kept(&later, &options, &mut |_| {}, &mut kept);
        assert_eq!(later_kept.winner, later_fresh.winner);
        assert!(later_kept.nodes < later_fresh.nodes);

        let square = Position::new(Geometry::square(3).unwrap(), GameKind::NoGo);
        let other_shape = solve_kept(&square, &options, &mut |_| {}, &mut kept);
        assert_eq!(other_shape.winner, Some(Color::Black));
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
