//! The fast playout board.
//!
//! Strings are circular lists through `next_stone`, each stone pointing at
//! its string's head. Each head keeps pseudo-liberties: the count of
//! (stone, empty neighbour) pairs, plus the sum and the sum of squares of
//! those empty points. A string is in atari exactly when all its pseudo-
//! liberties are one point, i.e. `count * sum_sq == sum * sum`; that is all
//! the legality check and capture need, and every update is O(1) per
//! neighbour; the three sums share one word, so each update is one add.
//! Empty points are kept in an unordered list for random move choice. Moves
//! keep nothing that playouts do not read: the stone bitboards and the
//! Zobrist hash that whole-board questions need are built on demand.
//!
//! A position knows nothing of history: simple ko is kept as one forbidden
//! point, positional superko belongs to [`super::Game`].

use super::zobrist;

mod invariants;
mod liberties;
mod nakade;
use super::{Bitboard, BoardError, Cell, Color, GameKind, Geometry, MAX_POINTS, MAX_SIZE, Point};
pub use liberties::{FewPoints, LibertyMemo};

/// Length of the per-point arrays: a power of two at least `MAX_POINTS`,
/// so that masking an index proves it in range and the compiler drops the
/// bounds checks from the hot paths.
const GRID: usize = 1024;
const _: () = assert!(GRID >= MAX_POINTS && GRID.is_power_of_two());

/// A per-point array indexed by grid index.
#[derive(Clone)]
struct Grid<T: Copy>([T; GRID]);

impl<T: Copy> Grid<T> {
    fn filled(value: T) -> Grid<T> {
        Grid([value; GRID])
    }

    /// Copies the first `n` entries of `other`.
    fn copy_prefix(&mut self, other: &Grid<T>, n: usize) {
        self.0[..n].copy_from_slice(&other.0[..n]);
    }
}

impl<T: Copy> std::ops::Index<usize> for Grid<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i & (GRID - 1)]
    }
}

impl<T: Copy> std::ops::IndexMut<usize> for Grid<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & (GRID - 1)]
    }
}

/// Neighbour counts of a point packed in one word, one byte each: black
/// stones, white stones (the edge counts as both, so a count of 4 means
/// "surrounded by this colour or the edge") and empty points.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct NeighbourCounts(u32);

impl NeighbourCounts {
    const EMPTY_SHIFT: u32 = 16;

    #[inline(always)]
    fn of(self, color: Color) -> u32 {
        (self.0 >> (8 * color.index() as u32)) & 0xff
    }

    #[inline(always)]
    fn empty(self) -> u32 {
        (self.0 >> Self::EMPTY_SHIFT) & 0xff
    }

    /// An empty neighbour became a stone of `color`. Border cells get
    /// updated too and their counts wrap: they are never read, and skipping
    /// them would cost a branch on the hottest path.
    #[inline(always)]
    fn stone_added(&mut self, color: Color) {
        self.0 = self
            .0
            .wrapping_add(1 << (8 * color.index() as u32))
            .wrapping_sub(1 << Self::EMPTY_SHIFT);
    }

    /// A neighbouring stone of `color` was removed.
    #[inline(always)]
    fn stone_removed(&mut self, color: Color) {
        self.0 = self
            .0
            .wrapping_sub(1 << (8 * color.index() as u32))
            .wrapping_add(1 << Self::EMPTY_SHIFT);
    }
}

/// What the neighbours of an empty point `p` are, as NoGo legality needs
/// them: bit `2 * cell + atari` is set for each neighbour, `atari` telling
/// whether its string's only liberty is `p`. For an empty or border cell
/// `atari` means nothing, so both of its bits are read together.
#[derive(Clone, Copy, Debug)]
struct NeighbourKinds(u32);

impl NeighbourKinds {
    const EMPTY: u32 = 0b11 << (2 * Cell::Empty as u32);

    /// Bit of a neighbouring string of `color` with another liberty.
    #[inline(always)]
    fn safe(color: Color) -> u32 {
        1 << (2 * color.cell() as u32)
    }

    /// Bit of a neighbouring string of `color` whose only liberty is `p`.
    #[inline(always)]
    fn in_atari(color: Color) -> u32 {
        2 << (2 * color.cell() as u32)
    }

    /// A stone of `color` on `p` would capture.
    #[inline(always)]
    fn capture_by(self, color: Color) -> bool {
        self.0 & Self::in_atari(color.opponent()) != 0
    }

    /// A stone of `color` on `p` would have a liberty (directly or through
    /// a friendly string).
    #[inline(always)]
    fn liberty_for(self, color: Color) -> bool {
        self.0 & (Self::EMPTY | Self::safe(color)) != 0
    }

    /// `color` may play `p` in NoGo.
    #[inline(always)]
    fn nogo_legal(self, color: Color) -> bool {
        self.liberty_for(color) & !self.capture_by(color)
    }
}

/// For each colour, and each set of four diagonal cells (two bits each, as
/// [`Cell`] numbers them): whether they allow an eye of that colour, i.e.
/// hold at most one enemy stone, none if one of them is the border. A table
/// look-up replaces eight comparisons in the playouts' eye test.
static EYE_DIAGONALS: [[bool; 256]; 2] = {
    let mut table = [[false; 256]; 2];
    let mut code = 0;
    while code < 256 {
        // Cells of each kind among the four diagonals.
        let mut counts = [0; 4];
        let mut k = 0;
        while k < 4 {
            counts[(code >> (2 * k)) & 3] += 1;
            k += 1;
        }
        let edge = (counts[Cell::Border as usize] > 0) as usize;
        table[Color::Black as usize][code] = counts[Cell::White as usize] + edge < 2;
        table[Color::White as usize][code] = counts[Cell::Black as usize] + edge < 2;
        code += 1;
    }
    table
};

/// Pseudo-liberties of a string (valid at its head), packed in one word so
/// that adding, removing and merging are each a single add or subtract:
/// the count of (stone, adjacent empty point) pairs in the top 12 bits,
/// the sum of those points' grid indices in the next 20, and the sum of
/// their squares in the low 32. A string has at most 2 * 624 + 2 = 1250
/// pairs on the largest board, and indices are below `MAX_POINTS`, so no
/// field ever carries into the next.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct PseudoLiberties(u64);

const _: () = assert!(
    1250 < 1 << 12
        && 1250 * MAX_POINTS < 1 << 20
        && 1250 * (MAX_POINTS as u64) * (MAX_POINTS as u64) < 1 << 32
);

/// [`PseudoLiberties::pair`] of every grid index, then 0.
static PAIRS: [u64; GRID + 1] = {
    let mut pairs = [0; GRID + 1];
    let mut p = 0;
    while p < GRID {
        let q = p as u64;
        pairs[p] =
            (1 << PseudoLiberties::COUNT_SHIFT) | (q << PseudoLiberties::SUM_SHIFT) | (q * q);
        p += 1;
    }
    pairs
};

impl PseudoLiberties {
    const SUM_SHIFT: u32 = 32;
    const COUNT_SHIFT: u32 = 52;

    /// The record of the single pair (stone, `p`), from a table: one load
    /// instead of a multiply and three bit operations.
    #[inline(always)]
    fn pair(p: usize) -> u64 {
        PAIRS[p & (GRID - 1)]
    }

    /// [`PseudoLiberties::pair`] of `p` if `counted`, else 0. Choosing the
    /// table entry rather than the value keeps this a conditional move
    /// (a choice between a load and 0 tends to become a branch).
    #[inline(always)]
    fn pair_if(p: usize, counted: bool) -> u64 {
        PAIRS[if counted { p & (GRID - 1) } else { GRID }]
    }

    /// No pair left: a string's last liberty is gone. Testing the whole
    /// word saves the shift of `count() == 0` (a zero count leaves the sums
    /// zero too).
    #[inline(always)]
    fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    fn count(self) -> u32 {
        (self.0 >> Self::COUNT_SHIFT) as u32
    }

    #[inline(always)]
    fn sum(self) -> u32 {
        (self.0 >> Self::SUM_SHIFT) as u32 & ((1 << (Self::COUNT_SHIFT - Self::SUM_SHIFT)) - 1)
    }

    #[inline(always)]
    fn sum_sq(self) -> u32 {
        self.0 as u32
    }

    #[inline(always)]
    fn add(&mut self, p: usize) {
        self.0 += Self::pair(p);
    }

    #[inline(always)]
    fn merge(&mut self, other: PseudoLiberties) {
        self.0 += other.0;
    }

    /// Takes one (stone, `p`) pair away, without overflow checks: the
    /// scratch record at grid index 0, which branch-free updates also hit,
    /// wraps freely.
    #[inline(always)]
    fn remove_wrapping(&mut self, p: usize) {
        self.0 = self.0.wrapping_sub(Self::pair(p));
    }

    /// [`PseudoLiberties::add`] without overflow checks (see `remove_wrapping`).
    #[inline(always)]
    fn add_wrapping(&mut self, p: usize) {
        self.0 = self.0.wrapping_add(Self::pair(p));
    }

    /// Whether every pseudo-liberty is the point whose [`PseudoLiberties::pair`]
    /// is `pair`: then the fields are exactly `count` times the pair's. One
    /// multiply, where [`PseudoLiberties::in_atari`] needs two; for a string
    /// next to that (empty) point it is the same question. Wrapping: the
    /// scratch record may hold anything.
    #[inline(always)]
    fn only_liberty_is(self, pair: u64) -> bool {
        self.0 == (self.count() as u64).wrapping_mul(pair)
    }

    /// All pseudo-liberties are the same point (Cauchy–Schwarz is tight).
    #[inline(always)]
    fn in_atari(self) -> bool {
        let sum = self.sum() as u64;
        self.count() as u64 * self.sum_sq() as u64 == sum * sum
    }

    /// The point every pseudo-liberty is at, when [`PseudoLiberties::in_atari`]
    /// holds: their mean.
    #[inline(always)]
    fn sole_point(self) -> u16 {
        (self.sum() / self.count()) as u16
    }
}

/// A Go or NoGo position: stones, side to move, ko point.
#[derive(Clone)]
pub struct Position {
    /// Board size.
    geometry: Geometry,
    /// Which rules decide legality.
    kind: GameKind,
    /// Contents of each cell of the padded grid.
    cells: Grid<Cell>,
    /// For a stone: the head (representative stone) of its string. For an
    /// empty or border cell: 0, a border cell whose `liberties` entry is
    /// scratch, so that neighbour updates need not branch on the cell.
    string_head: Grid<u16>,
    /// For a stone: the next stone of its string, circularly.
    next_stone: Grid<u16>,
    /// For a head: its string's stone count.
    string_size: Grid<u16>,
    /// For a head: its string's pseudo-liberties.
    liberties: Grid<PseudoLiberties>,
    /// The empty points, in no particular order.
    /// (A grid-sized array: masked indices need no bounds checks.)
    empties: Grid<u16>,
    /// For an empty point: its index in `empties`.
    empty_slot: Grid<u16>,
    /// For a point: how many of its neighbours are black, white, empty.
    neighbour_counts: Grid<NeighbourCounts>,
    /// Go only: for a board point, its eight neighbours' cells, 2 bits
    /// each in ring order (see [`Position::neighbourhood`]), kept up to
    /// date move by move so that 3x3 patterns are read with one load. NoGo
    /// reads no patterns, so its positions leave these at 0.
    neighbourhoods: Grid<u16>,
    /// Number of valid entries in `empties`.
    empty_count: u16,
    /// Number of stones of each colour.
    stone_counts: [u16; 2],
    /// All board points.
    board_mask: Bitboard,
    /// Colour to play next.
    to_move: Color,
    /// Point the `ko_color` player may not play now (simple ko), or 0.
    ko_point: u16,
    /// Player barred from `ko_point`.
    ko_color: Color,
    /// Stones captured by each colour.
    prisoners: [u32; 2],
    /// Number of passes since the last stone was played.
    consecutive_passes: u8,
}

impl Position {
    /// An empty board with Black to move.
    pub fn new(geometry: Geometry, kind: GameKind) -> Position {
        let mut position = Position {
            geometry,
            kind,
            cells: Grid::filled(Cell::Border),
            string_head: Grid::filled(0),
            next_stone: Grid::filled(0),
            string_size: Grid::filled(0),
            liberties: Grid::filled(PseudoLiberties::default()),
            empties: Grid::filled(0),
            empty_slot: Grid::filled(0),
            // Border cells' counts are never read, but they are updated
            // with their neighbours': room for two neighbouring stones keeps
            // that arithmetic from wrapping.
            neighbour_counts: Grid::filled(NeighbourCounts(2 << NeighbourCounts::EMPTY_SHIFT)),
            neighbourhoods: Grid::filled(0),
            empty_count: 0,
            stone_counts: [0; 2],
            board_mask: geometry.board_mask(),
            to_move: Color::Black,
            ko_point: 0,
            ko_color: Color::Black,
            prisoners: [0; 2],
            consecutive_passes: 0,
        };
        for p in geometry.points() {
            position.cells[p.idx()] = Cell::Empty;
            position.push_empty(p.idx());
        }
        for p in geometry.points() {
            let mut counts = 0;
            for n in geometry.neighbours(p) {
                counts += match position.cells[n.idx()] {
                    Cell::Border => 0x0101,
                    _ => 1 << NeighbourCounts::EMPTY_SHIFT,
                };
            }
            position.neighbour_counts[p.idx()] = NeighbourCounts(counts);
            if kind == GameKind::Go {
                position.neighbourhoods[p.idx()] = position.neighbourhood_from_cells(p);
            }
        }
        position
    }

    /// The 3x3 code of `p`'s neighbours read cell by cell: what
    /// `neighbourhoods` keeps.
    fn neighbourhood_from_cells(&self, p: Point) -> u16 {
        let mut code = 0u16;
        for (k, q) in self.geometry.ring(p).into_iter().enumerate() {
            code |= (self.cells[q.idx()] as u16) << (2 * k);
        }
        code
    }

    /// The cells of the eight neighbours of the board point `p`, in ring
    /// order (N, NE, E, SE, S, SW, W, NW: [`Geometry::ring`]), 2 bits each
    /// from bit 0, each the [`Cell`]'s number. Go positions only (0 in NoGo).
    #[inline(always)]
    pub fn neighbourhood(&self, p: Point) -> u16 {
        self.neighbourhoods[p.idx()]
    }

    /// Tells the eight neighbours of the board point `i` that its cell
    /// changed by `change` (old cell XOR new): `i` sits opposite each one
    /// in its ring. NoGo positions skip it: their playouts would pay 4% more
    /// instructions for codes nothing reads.
    #[inline(always)]
    fn update_neighbourhoods(&mut self, i: usize, change: u16) {
        if self.kind != GameKind::Go {
            return;
        }
        for (k, q) in self.geometry.ring(Point(i as u16)).into_iter().enumerate() {
            self.neighbourhoods[q.idx()] ^= change << (2 * ((k + 4) % 8));
        }
    }

    /// Makes `self` equal to `other`, copying only the part of the grid the
    /// board uses: this is how playouts start, so it must be cheap.
    pub fn copy_from(&mut self, other: &Position) {
        let n = other.geometry.cells();
        self.geometry = other.geometry;
        self.kind = other.kind;
        self.cells.copy_prefix(&other.cells, n);
        self.string_head.copy_prefix(&other.string_head, n);
        self.next_stone.copy_prefix(&other.next_stone, n);
        self.string_size.copy_prefix(&other.string_size, n);
        self.liberties.copy_prefix(&other.liberties, n);
        self.empty_slot.copy_prefix(&other.empty_slot, n);
        self.neighbour_counts
            .copy_prefix(&other.neighbour_counts, n);
        self.neighbourhoods.copy_prefix(&other.neighbourhoods, n);
        let e = other.empty_count as usize;
        self.empties.copy_prefix(&other.empties, e);
        self.empty_count = other.empty_count;
        self.stone_counts = other.stone_counts;
        self.board_mask = other.board_mask;
        self.to_move = other.to_move;
        self.ko_point = other.ko_point;
        self.ko_color = other.ko_color;
        self.prisoners = other.prisoners;
        self.consecutive_passes = other.consecutive_passes;
    }

    /// Board size.
    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Which game's rules apply.
    #[inline]
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// Colour to play next.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets the colour to play next (GTP lets either colour play). Changing
    /// it lifts a ko ban only in the sense that the ban is tied to a colour.
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// Contents of a grid cell.
    #[inline(always)]
    pub fn cell(&self, p: Point) -> Cell {
        self.cells[p.idx()]
    }

    /// Zobrist hash of the stones alone (what positional superko compares).
    /// Computed on demand: playouts never ask, so moves need not keep it.
    pub fn hash(&self) -> u64 {
        let mut hash = 0;
        for color in [Color::Black, Color::White] {
            for p in self.stones(color).iter() {
                hash ^= zobrist::stone_key(color, p);
            }
        }
        hash
    }

    /// Hash of the stones and the side to move (for search tables).
    pub fn hash_with_side(&self) -> u64 {
        match self.to_move {
            Color::Black => self.hash(),
            Color::White => self.hash() ^ zobrist::WHITE_TO_MOVE,
        }
    }

    /// The point that `color` may not play because of simple ko.
    pub fn ko_point(&self, color: Color) -> Option<Point> {
        (self.ko_point != 0 && self.ko_color == color).then_some(Point(self.ko_point))
    }

    /// Stones of `color`, gathered from the cells: moves keep no bitboards,
    /// as playouts would only pay for them.
    pub fn stones(&self, color: Color) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        let own = color.cell();
        for (i, &cell) in self.cells.0[..self.geometry.cells()].iter().enumerate() {
            if cell == own {
                set.set(Point(i as u16));
            }
        }
        set
    }

    /// All board points.
    #[inline]
    pub fn board_mask(&self) -> &Bitboard {
        &self.board_mask
    }

    /// Empty board points.
    pub fn empty_mask(&self) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for &p in self.empty_points() {
            set.set(Point(p));
        }
        set
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        &self.empties.0[..self.empty_count as usize]
    }

    /// Whether more than half the board is still empty: the opening, as
    /// the priors and the learned features (`line`) tell it.
    pub fn is_open(&self) -> bool {
        self.empty_points().len() * 2 > self.geometry.area()
    }

    /// Exchanges two entries of the empty-point list. Playouts use this to
    /// set aside points they have rejected, so they can sample the rest
    /// uniformly without a copy.
    #[inline(always)]
    pub fn swap_empties(&mut self, i: usize, j: usize) {
        // The list's capacity, as when it was a plain array.
        assert!(i.max(j) < MAX_SIZE * MAX_SIZE, "swap_empties out of range");
        let (a, b) = (self.empties[i], self.empties[j]);
        self.empties[i] = b;
        self.empties[j] = a;
        self.empty_slot[b as usize] = i as u16;
        self.empty_slot[a as usize] = j as u16;
    }

    /// The empty point in slot `slot` (< `empty_points().len()`) of the
    /// empty list, without a bounds check (the playouts' hot path).
    #[inline(always)]
    pub(crate) fn empty_point_at(&self, slot: usize) -> Point {
        debug_assert!(slot < self.empty_count as usize);
        Point(self.empties[slot])
    }

    /// [`Position::swap_empties`] for slots known to be in range.
    #[inline(always)]
    pub(crate) fn swap_empties_unchecked(&mut self, i: usize, j: usize) {
        debug_assert!(i.max(j) < self.empty_count as usize);
        let (a, b) = (self.empties[i], self.empties[j]);
        self.empties[i] = b;
        self.empties[j] = a;
        self.empty_slot[b as usize] = i as u16;
        self.empty_slot[a as usize] = j as u16;
    }

    /// Stones captured so far by `color`.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }

    /// Passes since the last stone (two end a Go game).
    pub fn consecutive_passes(&self) -> u8 {
        self.consecutive_passes
    }

    /// Whether `p` holds a stone whose string has exactly one liberty.
    pub fn in_atari(&self, p: Point) -> bool {
        self.cells[p.idx()].color().is_some()
            && self.liberties[self.string_head[p.idx()] as usize].in_atari()
    }

    /// A name for the string through `p`, the same for all its stones until
    /// the string changes (`None` if `p` holds no stone).
    pub fn string_id(&self, p: Point) -> Option<u16> {
        self.cells[p.idx()]
            .color()
            .map(|_| self.string_head[p.idx()])
    }

    /// The stones of the string through `p` (empty if `p` holds no stone).
    pub fn string_stones(&self, p: Point) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        if self.cells[p.idx()].color().is_none() {
            return set;
        }
        let mut s = p.0;
        loop {
            set.set(Point(s));
            s = self.next_stone[s as usize];
            if s == p.0 {
                return set;
            }
        }
    }

    /// The liberties of the string through `p`, exactly.
    pub fn string_liberties(&self, p: Point) -> Bitboard {
        self.string_stones(p)
            .dilate(self.geometry, &self.board_mask)
            .and(&self.empty_mask())
    }

    /// Number of stones in the string through `p` (0 if none).
    pub fn string_size(&self, p: Point) -> usize {
        match self.cells[p.idx()].color() {
            Some(_) => self.string_size[self.string_head[p.idx()] as usize] as usize,
            None => 0,
        }
    }

    /// Stones in the string `color` would form by playing the empty point
    /// `p`: the move and each friendly neighbouring string, once.
    pub fn joined_size(&self, p: Point, color: Color) -> usize {
        let own = color.cell();
        // A stone's head is never 0, the border's, so 0 marks "no friend".
        let mut heads = [0u16; 4];
        let mut total = 1;
        for (k, n) in self.geometry.neighbours(p).into_iter().enumerate() {
            if self.cells[n.idx()] != own {
                continue;
            }
            let head = self.string_head[n.idx()];
            if !heads[..k].contains(&head) {
                heads[k] = head;
                total += self.string_size[head as usize] as usize;
            }
        }
        total
    }

    /// Whether `color` may play on `p` under this position's rules.
    #[inline]
    pub fn is_legal(&self, p: Point, color: Color) -> bool {
        self.check_move(p, color).is_ok()
    }

    /// [`Position::is_legal`] for a point known to be empty (one taken from
    /// [`Position::empty_points`]): the playouts' hot path.
    #[inline(always)]
    pub fn is_legal_empty(&self, p: Point, color: Color) -> bool {
        debug_assert_eq!(self.cells[p.idx()], Cell::Empty);
        match self.kind {
            GameKind::Go => {
                !(self.ko_point == p.0 && self.ko_color == color)
                    && self.go_move_keeps_a_liberty(p, color)
            }
            GameKind::NoGo => self.nogo_legal(p, color),
        }
    }

    /// [`Position::is_legal_empty`] for a NoGo position, without asking
    /// which rules apply: the NoGo playouts' hot path.
    #[inline(always)]
    pub fn is_legal_empty_nogo(&self, p: Point, color: Color) -> bool {
        debug_assert_eq!(self.kind, GameKind::NoGo);
        debug_assert_eq!(self.cells[p.idx()], Cell::Empty);
        self.nogo_legal(p, color)
    }

    /// Whether `color` may play on `p`, and if not, why.
    #[inline]
    pub fn check_move(&self, p: Point, color: Color) -> Result<(), BoardError> {
        let i = p.idx();
        if i >= self.geometry.cells() || self.cells[i] == Cell::Border {
            return Err(BoardError::OffBoard);
        }
        if self.cells[i] != Cell::Empty {
            return Err(BoardError::Occupied);
        }
        match self.kind {
            GameKind::Go => {
                if self.ko_point as usize == i && self.ko_color == color {
                    return Err(BoardError::Ko);
                }
                if self.go_move_keeps_a_liberty(p, color) {
                    Ok(())
                } else {
                    Err(BoardError::Suicide)
                }
            }
            GameKind::NoGo => self.nogo_check(p, color),
        }
    }

    /// Go: after `color` plays the empty point `p`, its string has a liberty
    /// (directly, through a friendly string, or by capturing).
    #[inline(always)]
    fn go_move_keeps_a_liberty(&self, p: Point, color: Color) -> bool {
        if self.neighbour_counts[p.idx()].empty() > 0 {
            return true;
        }
        // Every neighbour is a stone or the edge. A friend with another
        // liberty keeps us alive; an enemy whose last liberty is `p` gets
        // captured. Computed without branches: which neighbours are stones
        // is as random as the playout.
        let own = color.cell();
        let enemy = color.opponent().cell();
        let pair = PseudoLiberties::pair(p.idx());
        let mut ok = false;
        for n in self.geometry.neighbours(p) {
            let cell = self.cells[n.idx()];
            let atari = self.liberties[self.string_head[n.idx()] as usize].only_liberty_is(pair);
            ok |= (cell == own) & !atari | (cell == enemy) & atari;
        }
        ok
    }

    /// NoGo: the move must neither capture nor be suicide.
    #[inline(always)]
    fn nogo_check(&self, p: Point, color: Color) -> Result<(), BoardError> {
        if self.neighbour_counts[p.idx()].empty() == 4 {
            return Ok(());
        }
        let kinds = self.neighbour_kinds(p);
        if kinds.capture_by(color) {
            Err(BoardError::NoGoCapture)
        } else if kinds.liberty_for(color) {
            Ok(())
        } else {
            Err(BoardError::Suicide)
        }
    }

    /// NoGo: whether `color` may play the empty point `p`.
    #[inline(always)]
    fn nogo_legal(&self, p: Point, color: Color) -> bool {
        self.neighbour_counts[p.idx()].empty() == 4 || self.neighbour_kinds(p).nogo_legal(color)
    }

    /// NoGo: whether Black and White may each play the empty point `p`
    /// ([`Position::is_legal_empty`] for both colours). One pass over the
    /// neighbours: whether a neighbouring string's only liberty is `p` does
    /// not depend on who plays there.
    #[inline(always)]
    pub fn nogo_legality(&self, p: Point) -> (bool, bool) {
        debug_assert_eq!(self.kind, GameKind::NoGo);
        debug_assert_eq!(self.cells[p.idx()], Cell::Empty);
        if self.neighbour_counts[p.idx()].empty() == 4 {
            return (true, true);
        }
        let kinds = self.neighbour_kinds(p);
        (
            kinds.nogo_legal(Color::Black),
            kinds.nogo_legal(Color::White),
        )
    }

    /// The [`NeighbourKinds`] of the empty point `p`. Without branches per
    /// neighbour (see `go_move_keeps_a_liberty`).
    #[inline(always)]
    fn neighbour_kinds(&self, p: Point) -> NeighbourKinds {
        let pair = PseudoLiberties::pair(p.idx());
        let mut kinds = 0;
        for n in self.geometry.neighbours(p) {
            let cell = self.cells[n.idx()];
            let atari = self.liberties[self.string_head[n.idx()] as usize].only_liberty_is(pair);
            kinds |= 1 << (2 * cell as u32 + atari as u32);
        }
        NeighbourKinds(kinds)
    }

    /// Whether `p` is a single-point eye of `color`: every neighbour is its
    /// stone or the edge, and the diagonals hold at most one enemy stone
    /// (none on the edge). Light playouts never fill these.
    #[inline(always)]
    pub fn is_eye(&self, p: Point, color: Color) -> bool {
        if self.neighbour_counts[p.idx()].of(color) != 4 {
            return false;
        }
        let mut diagonals = 0;
        for (k, d) in self.geometry.diagonals(p).into_iter().enumerate() {
            diagonals |= (self.cells[d.idx()] as usize) << (2 * k);
        }
        EYE_DIAGONALS[color.index()][diagonals]
    }

    /// Whether a light playout may play `color` on the empty point `p`:
    /// in Go a legal move that does not fill `color`'s own single-point eye
    /// (`!is_eye && is_legal_empty`), in NoGo a legal move (`is_legal_empty`).
    /// `go` must match the position's rules; it is a parameter so that the
    /// playout loop can fix it once. A point with an empty neighbour is
    /// settled at once: it is no eye, the move keeps a liberty and captures
    /// nothing, and it is not the ko point (a ko point is always surrounded).
    #[inline(always)]
    pub fn is_light_candidate(&self, p: Point, color: Color, go: bool) -> bool {
        debug_assert_eq!(self.cells[p.idx()], Cell::Empty);
        debug_assert_eq!(go, self.kind == GameKind::Go);
        let counts = self.neighbour_counts[p.idx()];
        if go {
            if counts.empty() > 0 {
                return true;
            }
            if counts.of(color) == 4 && self.is_eye(p, color) {
                return false;
            }
            !(self.ko_point == p.0 && self.ko_color == color)
                && self.go_move_keeps_a_liberty(p, color)
        } else {
            self.nogo_legal(p, color)
        }
    }

    /// Each side's area when every empty point is alone (no empty
    /// neighbour), as at the end of a light playout: then a point's region
    /// is itself, and it is Black's exactly when its neighbours are Black's
    /// stones or the edge and at least one is a stone (White likewise).
    /// `None` when some empty points touch, so that regions need a flood.
    pub(super) fn isolated_empties_area(&self) -> Option<[u32; 2]> {
        let mut area = self.stone_counts.map(u32::from);
        for &p in self.empty_points() {
            let counts = self.neighbour_counts[p as usize];
            if counts.empty() > 0 {
                return None;
            }
            let (black, white) = (counts.of(Color::Black) == 4, counts.of(Color::White) == 4);
            area[0] += (black && !white) as u32;
            area[1] += (white && !black) as u32;
        }
        Some(area)
    }

    /// Whether the side to move has any legal move (NoGo: if not, it has lost).
    pub fn has_legal_move(&self, color: Color) -> bool {
        self.empty_points()
            .iter()
            .any(|&p| self.is_legal(Point(p), color))
    }

    /// Every legal move of `color`, as a set.
    pub fn legal_moves(&self, color: Color) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for &p in self.empty_points() {
            if self.is_legal(Point(p), color) {
                set.set(Point(p));
            }
        }
        set
    }

    /// Plays a legal move of `color` on `p` and passes the turn to the
    /// opponent. Returns the number of stones captured. The caller must
    /// have checked legality ([`Position::check_move`]).
    #[inline]
    pub fn play(&mut self, p: Point, color: Color) -> u32 {
        debug_assert_eq!(self.check_move(p, color), Ok(()));
        let captured = self.put_stone::<true>(p, color);
        self.finish_move(color);
        captured
    }

    /// [`Position::play`] for a NoGo position: a legal NoGo move never
    /// captures, so the capture and ko bookkeeping is left out (playout
    /// loops play most moves through this).
    #[inline(always)]
    pub fn play_nogo(&mut self, p: Point, color: Color) {
        debug_assert_eq!(self.kind, GameKind::NoGo);
        debug_assert_eq!(self.check_move(p, color), Ok(()));
        self.put_stone::<false>(p, color);
        self.finish_move(color);
    }

    /// Passes the turn after `color`'s stone.
    #[inline(always)]
    fn finish_move(&mut self, color: Color) {
        self.to_move = color.opponent();
        self.consecutive_passes = 0;
        #[cfg(debug_assertions)]
        self.check_invariants();
    }

    /// Puts a setup stone (handicap, SGF AB/AW) without changing the side to
    /// move. A setup that leaves strings without liberties has them removed,
    /// as a play would.
    pub fn place_setup_stone(&mut self, p: Point, color: Color) -> Result<(), BoardError> {
        if !self.geometry.contains(p) {
            return Err(BoardError::OffBoard);
        }
        if self.cells[p.idx()] != Cell::Empty {
            return Err(BoardError::Occupied);
        }
        self.put_stone::<true>(p, color);
        if self.string_size(p) > 0
            && self.liberties[self.string_head[p.idx()] as usize].count() == 0
        {
            self.remove_string(self.string_head[p.idx()] as usize, color.opponent());
        }
        self.ko_point = 0;
        #[cfg(debug_assertions)]
        self.check_invariants();
        Ok(())
    }

    /// Forgets the passes since the last stone, so that play from here
    /// goes on until both sides pass again.
    pub fn forget_passes(&mut self) {
        self.consecutive_passes = 0;
    }

    /// A pass (Go only): the turn changes and any ko ban lapses.
    pub fn pass(&mut self) {
        self.ko_point = 0;
        self.to_move = self.to_move.opponent();
        self.consecutive_passes = self.consecutive_passes.saturating_add(1);
    }

    /// Places the stone, merges strings, removes captured enemies and sets
    /// the ko point. `CAPTURES` false leaves out the last two, for moves
    /// known to capture nothing (legal NoGo moves).
    ///
    /// The neighbours' contents are as random as the playout, so they are
    /// gathered without branches into masks first; the work that follows
    /// (merges, captures) branches once per mask.
    #[inline(always)]
    fn put_stone<const CAPTURES: bool>(&mut self, p: Point, color: Color) -> u32 {
        let i = p.idx();
        let own = color.cell();
        let enemy = color.opponent().cell();
        self.cells[i] = own;
        self.update_neighbourhoods(i, Cell::Empty as u16 ^ own as u16);
        self.stone_counts[color.index()] += 1;
        self.pop_empty(i);
        self.string_head[i] = i as u16;
        self.next_stone[i] = i as u16;
        self.string_size[i] = 1;

        let neighbours = self.geometry.neighbours(p).map(Point::idx);
        let mut liberties = 0;
        let (mut own_mask, mut enemy_mask, mut zero_mask) = (0u32, 0u32, 0u32);
        // Two simple passes keep fewer values live than one busy one.
        for (k, &j) in neighbours.iter().enumerate() {
            self.neighbour_counts[j].stone_added(color);
            // Takes `i` from a neighbouring string's pseudo-liberties (or
            // from the scratch record, for an empty or border cell). A
            // string left with none is flagged at its last stone next to `i`.
            let record = &mut self.liberties[self.string_head[j] as usize];
            record.remove_wrapping(i);
            if CAPTURES {
                zero_mask |= (record.is_none() as u32) << k;
            }
        }
        for (k, &j) in neighbours.iter().enumerate() {
            let cell = self.cells[j];
            liberties += PseudoLiberties::pair_if(j, cell == Cell::Empty);
            own_mask |= ((cell == own) as u32) << k;
            if CAPTURES {
                enemy_mask |= ((cell == enemy) as u32) << k;
            }
        }
        self.liberties[i] = PseudoLiberties(liberties);

        // Enemies left without pseudo-liberties (rare: test them together).
        // They go before the merges: pseudo-liberties are sums, so the
        // points they free may be credited to the friendly strings before
        // or after those are joined, and the masks need not outlive this.
        let mut doomed = zero_mask & enemy_mask;
        let mut captured = 0;
        self.ko_point = 0;
        if doomed != 0 {
            let mut last_captured = 0;
            while doomed != 0 {
                let j = neighbours[doomed.trailing_zeros() as usize];
                doomed &= doomed - 1;
                // Each doomed string is flagged once (at its last stone next
                // to `i`); the test keeps this safe all the same.
                if self.cells[j] == enemy {
                    let h = self.string_head[j] as usize;
                    captured += self.string_size[h] as u32;
                    last_captured = j;
                    self.remove_string(h, color);
                }
            }
            self.prisoners[color.index()] += captured;
            // Simple ko: one stone captured by a lone stone (no friendly
            // neighbour to join) left in atari.
            if captured == 1 && own_mask == 0 && self.liberties[i].count() == 1 {
                self.ko_color = color.opponent();
                self.ko_point = last_captured as u16;
            }
        }

        if own_mask != 0 {
            let first = self.string_head[neighbours[own_mask.trailing_zeros() as usize]];
            // Friends of other strings than the first (usually none).
            let mut mask = 0;
            for (k, &j) in neighbours.iter().enumerate() {
                mask |= ((self.string_head[j] != first) as u32) << k;
            }
            mask &= own_mask;
            let mut head = self.join_lone_stone(i, first as usize);
            while mask != 0 {
                let j = neighbours[mask.trailing_zeros() as usize];
                mask &= mask - 1;
                let h = self.string_head[j] as usize;
                if h != head {
                    head = self.merge_strings(head, h);
                }
            }
        }
        captured
    }

    /// `merge_strings(i, h)` for a lone stone `i`, without branches: the
    /// string that goes is a single stone either way (`i`, or `h` when `h`
    /// is a lone stone too, as `merge_strings` keeps `i` on a tie).
    #[inline(always)]
    fn join_lone_stone(&mut self, i: usize, h: usize) -> usize {
        debug_assert_eq!(self.string_size[i], 1);
        let h_alone = self.string_size[h] == 1;
        let (keep, gone) = if h_alone { (i, h) } else { (h, i) };
        self.string_head[gone] = keep as u16;
        self.next_stone.0.swap(keep & (GRID - 1), gone & (GRID - 1));
        self.string_size[keep] += 1;
        let gone_liberties = self.liberties[gone];
        self.liberties[keep].merge(gone_liberties);
        keep
    }

    /// Joins two strings, relabelling the smaller; returns the new head.
    #[inline(always)]
    fn merge_strings(&mut self, a: usize, b: usize) -> usize {
        let (keep, gone) = if self.string_size[a] >= self.string_size[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = gone;
        loop {
            self.string_head[s] = keep as u16;
            s = self.next_stone[s] as usize;
            if s == gone {
                break;
            }
        }
        self.next_stone.0.swap(keep, gone);
        self.string_size[keep] += self.string_size[gone];
        let gone_liberties = self.liberties[gone];
        self.liberties[keep].merge(gone_liberties);
        keep
    }

    /// Removes the string headed by `head`, giving its points back as
    /// liberties to the `capturer`'s strings around it.
    fn remove_string(&mut self, head: usize, capturer: Color) {
        let victim = capturer.opponent();
        let capturer_cell = capturer.cell();
        self.stone_counts[victim.index()] -= self.string_size[head];
        let mut s = head;
        loop {
            let next = self.next_stone[s] as usize;
            self.cells[s] = Cell::Empty;
            self.update_neighbourhoods(s, victim.cell() as u16 ^ Cell::Empty as u16);
            self.push_empty(s);
            self.string_head[s] = 0;
            for n in self.geometry.neighbours(Point(s as u16)) {
                let j = n.idx();
                self.neighbour_counts[j].stone_removed(victim);
                // The capturer's string gets the liberty; anything else
                // (the victim's stones, empty, border) hits the scratch record.
                let is_capturer = (self.cells[j] == capturer_cell) as usize;
                let h = self.string_head[j] as usize * is_capturer;
                self.liberties[h].add_wrapping(s);
            }
            s = next;
            if s == head {
                break;
            }
        }
    }

    #[inline(always)]
    fn push_empty(&mut self, i: usize) {
        self.empty_slot[i] = self.empty_count;
        self.empties[self.empty_count as usize] = i as u16;
        self.empty_count += 1;
    }

    #[inline(always)]
    fn pop_empty(&mut self, i: usize) {
        let slot = self.empty_slot[i] as usize;
        self.empty_count -= 1;
        let last = self.empties[self.empty_count as usize];
        self.empties[slot] = last;
        self.empty_slot[last as usize] = slot as u16;
    }

    /// The board as text, top row first: `X` black, `O` white, `.` empty.
    pub fn to_text(&self) -> String {
        let g = self.geometry;
        let mut text = String::new();
        for row in (0..g.height()).rev() {
            for col in 0..g.width() {
                text.push(match self.cells[g.point_unchecked(col, row).idx()] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    /// A position from text rows (top row first; `X`/`x`/`B` black,
    /// `O`/`o`/`W` white, anything else empty; spaces ignored). Stones are
    /// placed as setup, Black to move. For tests and the solver.
    pub fn from_text(text: &str, kind: GameKind) -> Result<Position, BoardError> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != width) {
            return Err(BoardError::BadSize);
        }
        let g = Geometry::new(width, height)?;
        let mut position = Position::new(g, kind);
        for (k, row) in rows.iter().enumerate() {
            for (col, &c) in row.iter().enumerate() {
                let color = match c {
                    'X' | 'x' | 'B' => Color::Black,
                    'O' | 'o' | 'W' => Color::White,
                    _ => continue,
                };
                position.place_setup_stone(g.point_unchecked(col, height - 1 - k), color)?;
            }
        }
        Ok(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbourhoods_follow_stones_and_captures() {
        // Black's A3 and B2 capture White's A2.
        let mut p = Position::from_text(
            "...
             O..
             X..",
            GameKind::Go,
        )
        .unwrap();
        let g = p.geometry();
        let at = |col, row| g.point(col, row).unwrap();
        p.play(at(0, 2), Color::Black);
        p.play(at(1, 1), Color::Black);
        assert_eq!(p.cell(at(0, 1)), Cell::Empty, "A2 was captured");
        for q in g.points() {
            assert_eq!(p.neighbourhood(q), p.neighbourhood_from_cells(q), "{q:?}");
        }
        // A2's ring from the north: A3 black, B3 empty, B2 black, B1
        // empty, A1 black, then three off-board points.
        let (black, empty, border) = (Cell::Black as u16, Cell::Empty as u16, Cell::Border as u16);
        let ring = [black, empty, black, empty, black, border, border, border];
        let expected = ring
            .iter()
            .enumerate()
            .fold(0, |code, (k, &c)| code | c << (2 * k));
        assert_eq!(p.neighbourhood(at(0, 1)), expected);
    }
}
