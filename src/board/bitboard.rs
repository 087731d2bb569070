//! Sets of points as bit vectors over the padded grid.
//!
//! One bit per cell of the padded grid (see `geometry`), so a neighbour of
//! bit `i` is bit `i ± 1` or `i ± stride`, and dilation is four shifts. The
//! width is fixed at the largest board; fixed-length loops unroll and
//! vectorise, which measured faster than a length chosen per board.

use super::{Geometry, MAX_POINTS, Point};

const WORDS: usize = MAX_POINTS.div_ceil(64);

/// A set of grid cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bitboard([u64; WORDS]);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard([0; WORDS]);

    /// Whether `p` is in the set.
    #[inline(always)]
    pub fn contains(&self, p: Point) -> bool {
        let i = p.idx();
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// Adds `p`.
    #[inline(always)]
    pub fn set(&mut self, p: Point) {
        let i = p.idx();
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Removes `p`.
    #[inline(always)]
    pub fn clear(&mut self, p: Point) {
        let i = p.idx();
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// Number of members.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set has no member.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Members in both sets.
    #[inline]
    pub fn and(&self, other: &Bitboard) -> Bitboard {
        Bitboard(std::array::from_fn(|k| self.0[k] & other.0[k]))
    }

    /// Members of either set.
    #[inline]
    pub fn or(&self, other: &Bitboard) -> Bitboard {
        Bitboard(std::array::from_fn(|k| self.0[k] | other.0[k]))
    }

    /// Members of `self` not in `other`.
    #[inline]
    pub fn and_not(&self, other: &Bitboard) -> Bitboard {
        Bitboard(std::array::from_fn(|k| self.0[k] & !other.0[k]))
    }

    /// Whether the two sets share a member.
    #[inline]
    pub fn intersects(&self, other: &Bitboard) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }

    /// Every cell moved `n` places up the grid (`n` < 64).
    #[inline]
    fn shifted_up(&self, n: usize) -> Bitboard {
        let w = &self.0;
        Bitboard(std::array::from_fn(|k| {
            let carry = if k == 0 { 0 } else { w[k - 1] >> (63 - n) >> 1 };
            (w[k] << n) | carry
        }))
    }

    /// Every cell moved `n` places down the grid (`n` < 64).
    #[inline]
    fn shifted_down(&self, n: usize) -> Bitboard {
        let w = &self.0;
        Bitboard(std::array::from_fn(|k| {
            let carry = if k + 1 == WORDS {
                0
            } else {
                w[k + 1] << (63 - n) << 1
            };
            (w[k] >> n) | carry
        }))
    }

    /// The set plus every board point orthogonally adjacent to it, kept
    /// within `board` (the geometry's board mask).
    #[inline]
    pub fn dilate(&self, geometry: Geometry, board: &Bitboard) -> Bitboard {
        let stride = geometry.stride();
        self.or(&self.shifted_up(1))
            .or(&self.shifted_down(1))
            .or(&self.shifted_up(stride))
            .or(&self.shifted_down(stride))
            .and(board)
    }

    /// The points of `within` connected to `seeds` through `within`.
    pub fn flood(&self, within: &Bitboard, geometry: Geometry, board: &Bitboard) -> Bitboard {
        let mut region = self.and(within);
        loop {
            let grown = region.dilate(geometry, board).and(within);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The members, lowest index first.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(Point((k * 64 + bit) as u16))
            })
        })
    }

    /// The lowest member, if any.
    pub fn first(&self) -> Option<Point> {
        self.iter().next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dilate_adds_exactly_the_neighbours() {
        for size in [1, 2, 9, 19, 25] {
            let g = Geometry::square(size).unwrap();
            let board = g.board_mask();
            for p in g.points() {
                let mut single = Bitboard::EMPTY;
                single.set(p);
                let grown = single.dilate(g, &board);
                let mut expected = single;
                for n in g.neighbours(p) {
                    if g.contains(n) {
                        expected.set(n);
                    }
                }
                assert_eq!(grown, expected, "size {size} point {p:?}");
            }
        }
    }

    #[test]
    fn iter_and_count_agree() {
        let g = Geometry::square(25).unwrap();
        let board = g.board_mask();
        assert_eq!(board.count(), 625);
        assert_eq!(board.iter().count(), 625);
        assert!(board.iter().all(|p| g.contains(p)));
    }

    #[test]
    fn flood_stays_inside_its_region() {
        let g = Geometry::square(5).unwrap();
        let board = g.board_mask();
        // A wall on column C splits the board.
        let mut wall = Bitboard::EMPTY;
        for row in 0..5 {
            wall.set(g.point(2, row).unwrap());
        }
        let open = board.and_not(&wall);
        let mut seed = Bitboard::EMPTY;
        seed.set(g.point(0, 0).unwrap());
        let left = seed.flood(&open, g, &board);
        assert_eq!(left.count(), 10);
    }
}
