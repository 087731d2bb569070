//! Large spatial patterns, after Stern, Herbrich and Graepel (2006): the
//! stones and edges within Manhattan distance `r` of a move, for each
//! radius from [`MIN_RADIUS`] to [`MAX_RADIUS`], as one 64-bit key per
//! radius that the eight rotations and reflections of the pattern share.
//! Colours are the mover's and the opponent's, so a pattern and its colour
//! swap for the other side are the same key too.
//!
//! A key is a Zobrist hash: every (offset, state) pair has a random word,
//! empty points have none, so a ring of empty points leaves the hash as it
//! was and each radius adds its own salt. The hash is computed under all
//! eight symmetries at once (the words of each offset's eight images sit
//! side by side) and the smallest of the eight is the key. The words come
//! from a fixed seed: a table of keys fitted once stays valid.
//!
//! Patterns nest: the pattern of radius r + 1 contains the one of radius
//! r. A dictionary harvested with one count threshold therefore holds the
//! smaller pattern of every larger one it holds, and a lookup can walk the
//! radii outwards and stop at the first miss ([`SpatialWalk`]).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::{LazyLock, OnceLock};

use crate::board::{Cell, Color, Geometry, MAX_SIZE, Point, Position};

use super::gammas::CodeHasher;

/// The smallest radius of a spatial pattern (the points within distance 2
/// are the `diamond` feature).
pub const MIN_RADIUS: usize = 3;
/// The largest radius of a spatial pattern.
pub const MAX_RADIUS: usize = 10;

/// The low bits of a key that hold its radius, so that a key alone says
/// how large its pattern is.
pub const RADIUS_MASK: u64 = 0xf;

/// The states of a point that carry a word: the mover's stone, the
/// opponent's, off the board. Empty points carry none.
const STATES: usize = 3;
/// The state of a point off the board.
const BORDER_ROW: usize = 2;
/// The state an empty point reads as: it carries no word, and the walk
/// skips it.
const EMPTY_ROW: usize = STATES;

/// A symmetry of the square, as the image of an offset (dx, dy).
type Symmetry = fn(i32, i32) -> (i32, i32);

/// The eight symmetries of the square.
const SYMMETRIES: [Symmetry; 8] = [
    |x, y| (x, y),
    |x, y| (-y, x),
    |x, y| (-x, -y),
    |x, y| (y, -x),
    |x, y| (-x, y),
    |x, y| (y, x),
    |x, y| (x, -y),
    |x, y| (-y, -x),
];

/// The offsets within [`MAX_RADIUS`], nearest first, and their words.
struct Keys {
    /// (dx, dy) of every offset at distance 1 to `MAX_RADIUS`, by distance.
    offsets: Vec<(i32, i32)>,
    /// `ends[r]`: the number of offsets within distance r.
    ends: [usize; MAX_RADIUS + 1],
    /// For each offset and state, the word of its image under each symmetry.
    words: Vec<[[u64; 8]; STATES]>,
    /// A word per radius, so that a pattern whose outer ring is empty
    /// differs from the smaller one (the radius in the key's low bits does
    /// that too; the salt spreads the rest).
    salts: [u64; MAX_RADIUS + 1],
}

/// SplitMix64: a fixed, well-mixed stream of words from a counter.
fn split_mix(counter: u64) -> u64 {
    let mut z = counter.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The word of `state` at offset (dx, dy), before any symmetry.
fn word(dx: i32, dy: i32, state: usize) -> u64 {
    let side = 2 * MAX_RADIUS as i32 + 1;
    let cell = (dx + MAX_RADIUS as i32) * side + dy + MAX_RADIUS as i32;
    split_mix(0x6b6f_7375_6d69 + (cell as u64) * STATES as u64 + state as u64)
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut offsets = Vec::new();
    let mut ends = [0; MAX_RADIUS + 1];
    let radius = MAX_RADIUS as i32;
    for d in 1..=radius {
        for dx in -d..=d {
            let rest = d - dx.abs();
            offsets.push((dx, rest));
            if rest != 0 {
                offsets.push((dx, -rest));
            }
        }
        ends[d as usize] = offsets.len();
    }
    let words = offsets
        .iter()
        .map(|&(dx, dy)| {
            std::array::from_fn(|state| {
                SYMMETRIES.map(|image| {
                    let (x, y) = image(dx, dy);
                    word(x, y, state)
                })
            })
        })
        .collect();
    let salts = std::array::from_fn(|r| split_mix(0x7261_6469_7573 + r as u64));
    Keys {
        offsets,
        ends,
        words,
        salts,
    }
});

/// The keys of the spatial patterns around an empty point, radius after
/// radius from [`MIN_RADIUS`]: an iterator of (radius, key) that reads
/// only as far out as it is asked to.
pub struct SpatialWalk<'a> {
    position: &'a Position,
    keys: &'static Keys,
    /// Column and row of the centre.
    col: i32,
    row: i32,
    /// The row of words of each cell value (indexed by `Cell as usize`).
    rows: [usize; 4],
    /// The next offset to read.
    next: usize,
    /// The next radius to yield.
    radius: usize,
    /// The hash so far under each symmetry.
    hashes: [u64; 8],
    /// Radii within which no stone stands, and the edges' hashes of each
    /// radius up to there (from an [`EmptyReach`]).
    clear: usize,
    edges: &'a [[u64; 8]],
}

impl<'a> SpatialWalk<'a> {
    /// The walk around `p` for `mover`; empty if `p` is not on the board.
    pub fn new(position: &'a Position, p: Point, mover: Color) -> SpatialWalk<'a> {
        let coords = position.geometry().coords(p);
        let (col, row) = coords.map_or((0, 0), |(c, r)| (c as i32, r as i32));
        SpatialWalk {
            position,
            keys: &KEYS,
            col,
            row,
            rows: cell_rows(mover),
            next: 0,
            radius: if coords.is_some() {
                MIN_RADIUS
            } else {
                MAX_RADIUS + 1
            },
            hashes: [0; 8],
            clear: 0,
            edges: &[],
        }
    }

    /// The walk around `p` knowing from `reach` how far around it no stone
    /// stands: the points within that distance are not read, their edges
    /// are already hashed.
    pub fn within(
        position: &'a Position,
        p: Point,
        mover: Color,
        reach: &'a EmptyReach,
    ) -> SpatialWalk<'a> {
        let mut walk = SpatialWalk::new(position, p, mover);
        if walk.radius <= MAX_RADIUS {
            let (clear, edges) = reach.at(p);
            walk.next = walk.keys.ends[clear];
            walk.hashes = edges[clear];
            walk.clear = clear;
            walk.edges = edges;
        }
        walk
    }

    /// The row of words of the point at (dx, dy) from the centre.
    #[inline]
    fn row_at(&self, dx: i32, dy: i32) -> usize {
        let g = self.position.geometry();
        let (col, row) = (self.col + dx, self.row + dy);
        let on_board =
            (0..g.width() as i32).contains(&col) && (0..g.height() as i32).contains(&row);
        // Point 0 is a border cell: off the board reads it.
        let p = if on_board {
            g.point_unchecked(col as usize, row as usize)
        } else {
            Point(0)
        };
        self.rows[self.position.cell(p) as usize]
    }
}

/// The row of words for each cell value, seen by `mover`.
fn cell_rows(mover: Color) -> [usize; 4] {
    let mut rows = [0; 4];
    rows[mover.cell() as usize] = 0;
    rows[mover.opponent().cell() as usize] = 1;
    rows[Cell::Border as usize] = BORDER_ROW;
    rows[Cell::Empty as usize] = EMPTY_ROW;
    rows
}

impl Iterator for SpatialWalk<'_> {
    type Item = (usize, u64);

    #[inline]
    fn next(&mut self) -> Option<(usize, u64)> {
        if self.radius > MAX_RADIUS {
            return None;
        }
        let end = self.keys.ends[self.radius];
        for k in self.next..end {
            let (dx, dy) = self.keys.offsets[k];
            let row = self.row_at(dx, dy);
            if row != EMPTY_ROW {
                for (hash, word) in self.hashes.iter_mut().zip(&self.keys.words[k][row]) {
                    *hash ^= word;
                }
            }
        }
        // A walk that started past this radius keeps its place, and the
        // pattern of this radius is its edges alone.
        self.next = self.next.max(end);
        let radius = self.radius;
        self.radius += 1;
        let hashes = if radius < self.clear {
            &self.edges[radius]
        } else {
            &self.hashes
        };
        let smallest = hashes.iter().copied().min().unwrap_or(0);
        let key = (smallest ^ self.keys.salts[radius]) & !RADIUS_MASK | radius as u64;
        Some((radius, key))
    }
}

/// The hashes (under each symmetry) of the pattern of every radius around
/// every point of an empty board of one shape: the edges alone.
struct EdgeHashes {
    /// Indexed by point index times `MAX_RADIUS + 1`, plus the radius.
    hashes: Vec<[u64; 8]>,
}

impl EdgeHashes {
    fn of(g: Geometry) -> EdgeHashes {
        let (w, h) = (g.width(), g.height());
        let keys = &*KEYS;
        let points = g.point_unchecked(w - 1, h - 1).idx() + 1;
        let mut hashes = vec![[0; 8]; points * (MAX_RADIUS + 1)];
        for row in 0..h {
            for col in 0..w {
                let base = g.point_unchecked(col, row).idx() * (MAX_RADIUS + 1);
                let mut hash = [0u64; 8];
                for r in 1..=MAX_RADIUS {
                    for k in keys.ends[r - 1]..keys.ends[r] {
                        let (dx, dy) = keys.offsets[k];
                        let (c, r) = (col as i32 + dx, row as i32 + dy);
                        if c < 0 || r < 0 || c >= w as i32 || r >= h as i32 {
                            let words = &keys.words[k][BORDER_ROW];
                            for (bits, word) in hash.iter_mut().zip(words) {
                                *bits ^= word;
                            }
                        }
                    }
                    hashes[base + r] = hash;
                }
            }
        }
        EdgeHashes { hashes }
    }

    /// The table of the board shape `g`, made at its first use and kept:
    /// one for each shape, read by every expansion without a lock.
    fn shared(g: Geometry) -> &'static EdgeHashes {
        static TABLES: [OnceLock<EdgeHashes>; MAX_SIZE * MAX_SIZE] =
            [const { OnceLock::new() }; MAX_SIZE * MAX_SIZE];
        let shape = (g.width() - 1) * MAX_SIZE + g.height() - 1;
        TABLES[shape].get_or_init(|| EdgeHashes::of(g))
    }
}

/// For every point, the distance to the nearest stone (at most
/// `MAX_RADIUS + 1`), found in two sweeps over the board (the L1 distance
/// transform), once for all the candidates of a position; with the edge
/// hashes of the board's shape, a walk starts past the stone-free middle
/// of its diamond without reading it.
pub struct EmptyReach {
    /// Indexed by point.
    distance: Vec<u8>,
    edges: &'static EdgeHashes,
}

impl EmptyReach {
    pub fn of(position: &Position) -> EmptyReach {
        let g = position.geometry();
        let (w, h) = (g.width(), g.height());
        let far = (MAX_RADIUS + 1) as u8;
        let mut distance = vec![0u8; g.point_unchecked(w - 1, h - 1).idx() + 1];
        let at = |col: usize, row: usize| g.point_unchecked(col, row).idx();
        for row in 0..h {
            for col in 0..w {
                let empty = position.cell(g.point_unchecked(col, row)) == Cell::Empty;
                let mut d = if empty { far } else { 0 };
                if col > 0 {
                    d = d.min(distance[at(col - 1, row)] + 1);
                }
                if row > 0 {
                    d = d.min(distance[at(col, row - 1)] + 1);
                }
                distance[at(col, row)] = d;
            }
        }
        for row in (0..h).rev() {
            for col in (0..w).rev() {
                let mut d = distance[at(col, row)];
                if col + 1 < w {
                    d = d.min(distance[at(col + 1, row)] + 1);
                }
                if row + 1 < h {
                    d = d.min(distance[at(col, row + 1)] + 1);
                }
                distance[at(col, row)] = d;
            }
        }
        EmptyReach {
            distance,
            edges: EdgeHashes::shared(g),
        }
    }

    /// How far around `p` no stone stands (at most [`MAX_RADIUS`]; 0 off
    /// the board), and the hashes of the edges within each radius.
    fn at(&self, p: Point) -> (usize, &[[u64; 8]]) {
        let Some(&d) = self.distance.get(p.idx()) else {
            return (0, &[[0; 8]]);
        };
        let clear = usize::from(d.saturating_sub(1)).min(MAX_RADIUS);
        let base = p.idx() * (MAX_RADIUS + 1);
        (clear, &self.edges.hashes[base..base + MAX_RADIUS + 1])
    }
}

/// Bits of the filter in front of a [`SpatialTable`]: 128 KB, which stays
/// in cache where the table (megabytes) does not.
const FILTER_BITS: u32 = 20;

/// Gammas of spatial patterns by key. A bit filter says at little cost
/// that most patterns are not there: the walk out from a move reads the
/// filter alone, and the table only for the largest patterns it let
/// through.
#[derive(Default)]
pub struct SpatialTable {
    gammas: HashMap<u64, f32, BuildHasherDefault<CodeHasher>>,
    filter: Vec<u64>,
}

impl SpatialTable {
    fn filter_bit(key: u64) -> (usize, u64) {
        let bit = (key >> (64 - FILTER_BITS)) as usize;
        (bit / 64, 1 << (bit % 64))
    }

    pub fn insert(&mut self, key: u64, gamma: f32) {
        if self.filter.is_empty() {
            self.filter = vec![0; (1 << FILTER_BITS) / 64];
        }
        let (word, bit) = Self::filter_bit(key);
        self.filter[word] |= bit;
        self.gammas.insert(key, gamma);
    }

    fn may_hold(&self, key: u64) -> bool {
        let (word, bit) = Self::filter_bit(key);
        self.filter[word] & bit != 0
    }

    /// The gamma of the largest pattern around `p` in the table (1 if
    /// none). Patterns nest, so the walk stops at the first the filter
    /// refuses; a pattern the filter let through in error is then found
    /// missing, and the next smaller one is looked up.
    pub fn gamma(&self, position: &Position, p: Point, mover: Color, reach: &EmptyReach) -> f32 {
        if self.gammas.is_empty() {
            return 1.0;
        }
        let mut passed = [0u64; MAX_RADIUS + 1 - MIN_RADIUS];
        let mut count = 0;
        for (_, key) in SpatialWalk::within(position, p, mover, reach) {
            if !self.may_hold(key) {
                break;
            }
            passed[count] = key;
            count += 1;
        }
        passed[..count]
            .iter()
            .rev()
            .find_map(|key| self.gammas.get(key).copied())
            .unwrap_or(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;

    fn keys_at(text: &str, col: usize, row: usize, mover: Color) -> Vec<u64> {
        let position = Position::from_text(text, GameKind::Go).expect("position");
        let p = position.geometry().point(col, row).expect("point");
        SpatialWalk::new(&position, p, mover)
            .map(|(_, key)| key)
            .collect()
    }

    /// A 9x9 board as rows from the top, `X` black, `O` white.
    fn board(rows: [&str; 9]) -> String {
        rows.join("\n")
    }

    #[test]
    fn offsets_fill_each_diamond() {
        let keys = &*KEYS;
        for r in 1..=MAX_RADIUS {
            assert_eq!(keys.ends[r], 2 * r * (r + 1), "radius {r}");
        }
        let mut seen = keys.offsets.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), keys.offsets.len());
    }

    #[test]
    fn rotations_reflections_and_colour_swaps_share_keys() {
        // A shape near the lower left corner, its mirror image near the
        // lower right, and the first with colours swapped.
        let left = board([
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "..XO.....",
            "..X......",
            ".........",
        ]);
        let right = board([
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".....OX..",
            "......X..",
            ".........",
        ]);
        let swapped = left.replace('X', "x").replace('O', "X").replace('x', "O");
        let base = keys_at(&left, 3, 1, Color::Black);
        assert_eq!(base.len(), MAX_RADIUS - MIN_RADIUS + 1);
        assert_eq!(keys_at(&right, 5, 1, Color::Black), base);
        assert_eq!(keys_at(&swapped, 3, 1, Color::White), base);
        assert_ne!(keys_at(&left, 3, 1, Color::White), base);
        // One stone more, three steps away: the smallest patterns see it.
        let more = left.replacen("..XO.....", "..XO.X...", 1);
        let changed = keys_at(&more, 3, 1, Color::Black);
        assert!(changed.iter().zip(&base).all(|(a, b)| a != b));
    }

    #[test]
    fn walks_that_skip_the_empty_middle_find_the_same_keys() {
        let text = board([
            ".........",
            "....X....",
            ".........",
            ".........",
            ".........",
            "......O..",
            ".........",
            "..X......",
            ".........",
        ]);
        let position = Position::from_text(&text, GameKind::Go).expect("position");
        let reach = EmptyReach::of(&position);
        let g = position.geometry();
        let point = |col, row| g.point(col, row).expect("point");
        // The centre: the stones at E8 and G4 are 3 away; the edges count
        // for nothing here, they are in the hashes.
        assert_eq!(reach.at(point(4, 4)).0, 2);
        assert_eq!(reach.at(point(0, 0)).0, 2);
        assert_eq!(reach.at(point(4, 7)).0, 0);
        assert_eq!(reach.at(point(4, 6)).0, 0);
        let empty = Position::from_text(&vec![".".repeat(19); 19].join("\n"), GameKind::Go);
        let empty = empty.expect("19x19");
        let corner =
            Position::from_text(&vec![".".repeat(13); 13].join("\n"), GameKind::Go).expect("13x13");
        for position in [&position, &empty, &corner] {
            let reach = EmptyReach::of(position);
            let g = position.geometry();
            for p in g.points().filter(|&p| position.cell(p) == Cell::Empty) {
                for mover in [Color::Black, Color::White] {
                    let full: Vec<_> = SpatialWalk::new(position, p, mover).collect();
                    let skipping: Vec<_> =
                        SpatialWalk::within(position, p, mover, &reach).collect();
                    assert_eq!(full, skipping, "{p:?}");
                }
            }
        }
    }

    #[test]
    fn an_empty_outer_ring_still_changes_the_key() {
        let empty = board(["........."; 9]);
        let keys = keys_at(&empty, 4, 4, Color::Black);
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), keys.len());
        for (k, key) in keys.iter().enumerate() {
            assert_eq!((key & RADIUS_MASK) as usize, MIN_RADIUS + k);
        }
    }
}
