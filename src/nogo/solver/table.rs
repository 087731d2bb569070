//! The transposition table: exact keys, win/loss values.
//!
//! A key is the pair (stones of the side to move, stones of the other
//! side) in its canonical orientation (see `symmetry`), stored whole, so a
//! hit is never a hash collision. The table metadata, the value and log2
//! of the subtree's size, rides in the top [`META_BITS`] bits of the
//! second word; that is why the largest board a word holds is
//! [`max_area`]. Buckets are one cache line; replacement keeps the entries
//! that cost most. A [`KeptTable`] carries a table from one solve to the
//! next.

use super::board::PointSet;

/// A table big enough that small boards never replace, small enough that
/// tests on many boards allocate little.
fn default_table_mb(area: usize) -> usize {
    (1usize << area.saturating_sub(12).min(20)).clamp(1, 512)
}

/// Bits at the top of a key word above any board point, used for table
/// metadata: one for the value, six for log2 of the subtree size.
const META_BITS: u32 = 7;

/// The largest board a `S` key holds beside its metadata.
pub(super) const fn max_area<S: PointSet>() -> usize {
    (S::BITS - META_BITS) as usize
}

/// Bits of log2(subtree size) kept in an entry, for replacement.
const WORK_MASK: u8 = 0x3f;

/// A transposition table kept from one solve to the next (see
/// [`solve_kept`](super::solve_kept)). Its entries are exact results keyed by the stones
/// themselves, true of that position in any game, so an in-game solve that
/// runs out of time still leaves what it proved to the solves of later
/// moves, which then reach further.
#[derive(Default)]
pub struct KeptTable {
    /// Board width, height and table size in MiB the table was made for.
    shape: (usize, usize, usize),
    /// The table of each word (see `PointSet::take_table`).
    pub(super) small: Option<Table<u64>>,
    pub(super) large: Option<Table<u128>>,
}

impl KeptTable {
    /// The table for a solve on a `width` x `height` board with a table of
    /// `table_mb` MiB (`None`: chosen from the board size): the one kept
    /// if it was made for that board and size, else a new one.
    pub(super) fn take<S: PointSet>(
        &mut self,
        width: usize,
        height: usize,
        table_mb: Option<usize>,
    ) -> Table<S> {
        let table_mb = table_mb.unwrap_or_else(|| default_table_mb(width * height));
        let shape = (width, height, table_mb);
        if self.shape != shape {
            *self = KeptTable {
                shape,
                ..KeptTable::default()
            };
        }
        S::take_table(self).unwrap_or_else(|| Table::new(table_mb))
    }
}

/// The transposition table: exact keys, win/loss values.
pub(super) struct Table<S> {
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
    pub(super) fn prefetch(&self, key: (S, S)) {
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
    pub(super) fn probe(&self, key: (S, S)) -> Option<bool> {
        let base = self.bucket(key);
        self.entries[base..base + Self::BUCKET]
            .iter()
            .find(|e| e[0] == key.0 && Self::board_part(e[1]) == key.1 && Self::work_log(e) != 0)
            .map(|e| e[1].contains(Self::WIN_BIT))
    }

    pub(super) fn store(&mut self, key: (S, S), win: bool, work: u64) {
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
