//! Board symmetries, for the table's canonical keys.
//!
//! A position and its mirror images have the same value, so the table keys
//! a position by the smallest of its images under the board symmetries
//! that fix the root's stones (see `Solver::canonical`). Each symmetry is a
//! set of byte-wise lookup tables, so mapping a word costs one load per
//! byte.

use super::board::PointSet;

/// One board symmetry as byte-wise lookup tables: `map[k][b]` is the image
/// of byte `k` of a stone set having value `b`.
pub(super) struct Symmetry<S> {
    map: Vec<[S; 256]>,
}

impl<S: PointSet> Symmetry<S> {
    #[inline(always)]
    pub(super) fn apply(&self, set: S) -> S {
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
pub(super) fn symmetries<S: PointSet>(width: usize, height: usize) -> Vec<Symmetry<S>> {
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
