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
//!
//! The board's fields and queries live here; legality in `legality`, move
//! making and captures in `moves`, exact liberties in `liberties`, killing
//! sacrifices in `nakade`, text rows in `text`, and the invariant checker
//! in `invariants`.

use super::zobrist;

mod invariants;
mod legality;
mod liberties;
mod moves;
mod nakade;
mod text;
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
