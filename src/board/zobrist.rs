//! Fixed 64-bit Zobrist keys.
//!
//! Keys come from SplitMix64 at compile time, so every run and every build
//! hashes a position the same way: hashes can be pinned in tests and shared
//! between the game record, the search tree and the solver.

use super::{Color, MAX_POINTS, Point};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; MAX_POINTS]; 2] {
    let mut keys = [[0u64; MAX_POINTS]; 2];
    let mut state = 0x6B6F_7375_6D69_u64; // "kosumi"
    let mut color = 0;
    while color < 2 {
        let mut i = 0;
        while i < MAX_POINTS {
            let (next, key) = splitmix64(state);
            state = next;
            keys[color][i] = key;
            i += 1;
        }
        color += 1;
    }
    keys
}

static STONE_KEYS: [[u64; MAX_POINTS]; 2] = make_keys();

/// Key of a stone of `color` on `p`; a board's hash is the XOR of its stones' keys.
#[inline(always)]
pub fn stone_key(color: Color, p: Point) -> u64 {
    STONE_KEYS[color.index()][p.idx()]
}

/// XORed into a board hash when White is to move, for tables keyed by
/// position and side to move (the superko set uses the board hash alone).
pub const WHITE_TO_MOVE: u64 = splitmix64(0x5749_5445).1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = STONE_KEYS.iter().flatten().copied().collect();
        all.push(WHITE_TO_MOVE);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * MAX_POINTS + 1);
        assert!(all.iter().all(|&k| k != 0));
    }
}
