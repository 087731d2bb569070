//! Board dimensions and the padded point layout.
//!
//! A board of `width` x `height` lives on a grid of `width + 1` columns: the
//! extra column is a border shared by the right edge of one row and the left
//! edge of the next. One border row lies below the board and one above, plus
//! one cell so that the top-right point's diagonal stays in range. The four
//! neighbours of point `p` are `p ± 1` and `p ± stride`.

use super::{Bitboard, BoardError};

/// The largest board side GTP allows (columns A..Z without I).
pub const MAX_SIZE: usize = 25;

/// Cells in the padded grid of the largest board.
pub const MAX_POINTS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;

/// An index into the padded grid. Index 0 is always a border cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Point(pub u16);

impl Point {
    /// The index as a `usize`, for array access.
    #[inline(always)]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// The size of a board: columns and rows, each 1..=25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    width: u8,
    height: u8,
}

impl Geometry {
    /// A `width` x `height` board; each side must be 1..=25.
    pub fn new(width: usize, height: usize) -> Result<Geometry, BoardError> {
        if !(1..=MAX_SIZE).contains(&width) || !(1..=MAX_SIZE).contains(&height) {
            return Err(BoardError::BadSize);
        }
        Ok(Geometry {
            width: width as u8,
            height: height as u8,
        })
    }

    /// A square board.
    pub fn square(size: usize) -> Result<Geometry, BoardError> {
        Geometry::new(size, size)
    }

    /// Number of columns.
    #[inline]
    pub fn width(self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    #[inline]
    pub fn height(self) -> usize {
        self.height as usize
    }

    /// Whether the board is square (GTP and SGF `SZ[n]` describe only these).
    pub fn is_square(self) -> bool {
        self.width == self.height
    }

    /// Number of points on the board.
    #[inline]
    pub fn area(self) -> usize {
        self.width() * self.height()
    }

    /// Distance between vertically adjacent points.
    #[inline(always)]
    pub fn stride(self) -> usize {
        self.width() + 1
    }

    /// Length of the used prefix of the padded grid.
    #[inline]
    pub fn cells(self) -> usize {
        (self.height() + 2) * self.stride() + 1
    }

    /// The point at column `col` (0 = left, GTP `A`) and row `row`
    /// (0 = bottom, GTP `1`), or `OffBoard`.
    pub fn point(self, col: usize, row: usize) -> Result<Point, BoardError> {
        if col >= self.width() || row >= self.height() {
            return Err(BoardError::OffBoard);
        }
        Ok(self.point_unchecked(col, row))
    }

    /// As [`Geometry::point`], for coordinates already known to be on the board.
    #[inline]
    pub fn point_unchecked(self, col: usize, row: usize) -> Point {
        Point(((row + 1) * self.stride() + col + 1) as u16)
    }

    /// Column and row (bottom row 0) of an on-board point, `None` otherwise.
    pub fn coords(self, p: Point) -> Option<(usize, usize)> {
        let i = p.idx();
        let stride = self.stride();
        let (row, col) = (i / stride, i % stride);
        if row == 0 || row > self.height() || col == 0 {
            return None;
        }
        Some((col - 1, row - 1))
    }

    /// The line of the point at `(col, row)`: its distance to the nearest
    /// edge, 0 for the first line.
    pub fn line(self, (col, row): (usize, usize)) -> usize {
        col.min(row)
            .min(self.width() - 1 - col)
            .min(self.height() - 1 - row)
    }

    /// Whether `p` is a point of the board (not border, not out of range).
    pub fn contains(self, p: Point) -> bool {
        self.coords(p).is_some()
    }

    /// Every point of the board, bottom row first, left to right.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let (w, h) = (self.width(), self.height());
        (0..h).flat_map(move |row| (0..w).map(move |col| self.point_unchecked(col, row)))
    }

    /// The set of all board points.
    pub fn board_mask(self) -> Bitboard {
        let mut mask = Bitboard::EMPTY;
        for p in self.points() {
            mask.set(p);
        }
        mask
    }

    /// The four orthogonal neighbours of `p` (some may be border cells).
    #[inline(always)]
    pub fn neighbours(self, p: Point) -> [Point; 4] {
        let (i, s) = (p.0, self.stride() as u16);
        [Point(i - s), Point(i - 1), Point(i + 1), Point(i + s)]
    }

    /// The four diagonal neighbours of `p` (some may be border cells).
    #[inline(always)]
    pub fn diagonals(self, p: Point) -> [Point; 4] {
        let (i, s) = (p.0, self.stride() as u16);
        [
            Point(i - s - 1),
            Point(i - s + 1),
            Point(i + s - 1),
            Point(i + s + 1),
        ]
    }

    /// The eight neighbours of `p` round the ring N, NE, E, SE, S, SW, W,
    /// NW (north is the next row up; some may be border cells): the order
    /// in which pattern codes number their places.
    #[inline(always)]
    pub fn ring(self, p: Point) -> [Point; 8] {
        let (i, s) = (p.0, self.stride() as u16);
        [
            Point(i + s),
            Point(i + s + 1),
            Point(i + 1),
            Point(i - s + 1),
            Point(i - s),
            Point(i - s - 1),
            Point(i - 1),
            Point(i + s - 1),
        ]
    }
}

/// The eight rotations and reflections of anything laid out round the
/// ring of [`Geometry::ring`], the identity first.
pub const fn ring_symmetries<T: Copy>(ring: [T; 8]) -> [[T; 8]; 8] {
    let mut all = [ring; 8];
    let mut current = ring;
    let mut turn = 0;
    // Loops the compiler can run: the playout patterns are built at compile time.
    while turn < 4 {
        all[2 * turn] = current;
        let mut mirrored = current;
        let mut turned = current;
        let mut k = 0;
        while k < 8 {
            // Mirror across the vertical axis: N and S stay, E<->W, NE<->NW, SE<->SW.
            mirrored[k] = current[(8 - k) % 8];
            // A quarter turn moves each neighbour two places round the ring.
            turned[k] = current[(k + 6) % 8];
            k += 1;
        }
        all[2 * turn + 1] = mirrored;
        current = turned;
        turn += 1;
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_round_trip_and_neighbours_stay_in_range() {
        for (w, h) in [(1, 1), (2, 3), (9, 9), (19, 19), (25, 25), (25, 1)] {
            let g = Geometry::new(w, h).unwrap();
            assert_eq!(g.points().count(), w * h);
            for p in g.points() {
                let (c, r) = g.coords(p).unwrap();
                assert_eq!(g.point(c, r).unwrap(), p);
                for q in g.neighbours(p).into_iter().chain(g.diagonals(p)) {
                    assert!(g.ring(p).contains(&q));
                    assert!(q.idx() < g.cells() && g.cells() <= MAX_POINTS);
                }
            }
        }
    }

    #[test]
    fn the_line_is_the_distance_to_the_nearest_edge() {
        let g = Geometry::new(9, 5).unwrap();
        assert_eq!(g.line((0, 2)), 0);
        assert_eq!(
            g.line((4, 2)),
            2,
            "the middle row of five is the third line"
        );
        assert_eq!(g.line((7, 3)), 1);
        assert_eq!(g.line((8, 4)), 0);
    }

    #[test]
    fn ring_symmetries_are_the_eight_of_the_square() {
        let ring: [usize; 8] = std::array::from_fn(|k| k);
        let all = ring_symmetries(ring);
        assert_eq!(all[0], ring);
        // A quarter turn takes N to E; the mirror keeps N and swaps E and W.
        assert_eq!(all[1], [0, 7, 6, 5, 4, 3, 2, 1]);
        assert!(all.contains(&[6, 7, 0, 1, 2, 3, 4, 5]));
        let mut distinct = all.to_vec();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 8);
    }

    #[test]
    fn bad_sizes_and_points_are_errors() {
        assert_eq!(Geometry::new(0, 5), Err(BoardError::BadSize));
        assert_eq!(Geometry::new(26, 5), Err(BoardError::BadSize));
        let g = Geometry::square(9).unwrap();
        assert_eq!(g.point(9, 0), Err(BoardError::OffBoard));
        assert_eq!(g.coords(Point(0)), None);
        assert_eq!(g.coords(Point(10)), None);
    }
}
