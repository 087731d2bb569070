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

use std::marker::PhantomData;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

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
///
/// Every word is an atomic, so the threads of a solve share one table
/// without locks. A slot is written word by word, so a reader may see half
/// of one entry and half of another; the first word is stored as the own
/// stones xor a scramble of the second, so such a mix fails the key check
/// (but for a chance of about 2^-64) instead of answering with another
/// position's value.
pub(super) struct Table<S> {
    /// Per slot, `2 * S::WORDS` words: the canonical own stones xor
    /// `scramble(second)`, then the canonical other stones with the
    /// metadata in their top [`META_BITS`] bits: the value at the very
    /// top, then log2 of the work (at least 1, so 0 marks an empty slot).
    words: Vec<AtomicU64>,
    bucket_mask: usize,
    marker: PhantomData<S>,
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
        let words = buckets * Self::BUCKET * 2 * S::WORDS;
        Table {
            words: zeroed_words(words),
            bucket_mask: buckets - 1,
            marker: PhantomData,
        }
    }

    /// Index of the first slot of `key`'s bucket.
    #[inline(always)]
    fn bucket(&self, key: (S, S)) -> usize {
        let mixed =
            (key.0.digest() ^ key.1.digest().rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mixed = (mixed ^ (mixed >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        ((mixed >> 20) as usize & self.bucket_mask) * Self::BUCKET
    }

    /// The word of `S` at word index `at`.
    #[inline(always)]
    fn load(&self, at: usize) -> S {
        let mut words = [0u64; 2];
        for (k, word) in words.iter_mut().enumerate().take(S::WORDS) {
            *word = self.words[at + k].load(Relaxed);
        }
        S::from_u64s(words)
    }

    #[inline(always)]
    fn put(&self, at: usize, value: S) {
        for (k, word) in value.to_u64s().into_iter().enumerate().take(S::WORDS) {
            self.words[at + k].store(word, Relaxed);
        }
    }

    /// Slot `slot`'s key and metadata word: (own stones, other | meta).
    #[inline(always)]
    fn entry(&self, slot: usize) -> (S, S) {
        let at = slot * 2 * S::WORDS;
        let second = self.load(at + S::WORDS);
        (self.load(at) ^ second.scramble(), second)
    }

    /// The board part of an entry's second word.
    #[inline(always)]
    fn board_part(word: S) -> S {
        word & !(!S::EMPTY << Self::META_SHIFT)
    }

    /// log2 of an entry's work; 0 for an empty slot.
    #[inline(always)]
    fn work_log(second: S) -> u8 {
        (second >> Self::META_SHIFT).byte(0) as u8 & WORK_MASK
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe a
    /// little later does not wait for memory (the table is far larger than
    /// the cache: nearly every probe misses).
    #[inline(always)]
    pub(super) fn prefetch(&self, key: (S, S)) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = self.words[self.bucket(key) * 2 * S::WORDS..].as_ptr();
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
        (base..base + Self::BUCKET)
            .map(|slot| self.entry(slot))
            .find(|&(own, second)| {
                own == key.0 && Self::board_part(second) == key.1 && Self::work_log(second) != 0
            })
            .map(|(_, second)| second.contains(Self::WIN_BIT))
    }

    /// Records that the side to move in `key` wins (`win`) or loses, a
    /// result that took `work` nodes to find.
    pub(super) fn store(&self, key: (S, S), win: bool, work: u64) {
        let work_log = (64 - work.max(1).leading_zeros() as u8).min(WORK_MASK);
        self.store_logged(key, win, work_log);
    }

    /// Every filled slot: its key, its value and log2 of its work.
    pub(super) fn entries(&self) -> impl Iterator<Item = ((S, S), bool, u8)> + '_ {
        (0..self.words.len() / (2 * S::WORDS)).filter_map(|slot| {
            let (own, second) = self.entry(slot);
            let work_log = Self::work_log(second);
            (work_log != 0).then(|| {
                (
                    (own, Self::board_part(second)),
                    second.contains(Self::WIN_BIT),
                    work_log,
                )
            })
        })
    }

    /// [`Table::store`] given log2 of the work (1 to 63).
    pub(super) fn store_logged(&self, key: (S, S), win: bool, work_log: u8) {
        let base = self.bucket(key);
        let work_log = work_log.clamp(1, WORK_MASK);
        let mut meta = S::from_byte(work_log) << Self::META_SHIFT;
        if win {
            meta |= S::point(Self::WIN_BIT);
        }
        // Same key, else the cheapest entry (an empty slot costs 0; the
        // first of equals).
        let mut slot = base;
        let mut cheapest = u8::MAX;
        for candidate in base..base + Self::BUCKET {
            let (own, second) = self.entry(candidate);
            if own == key.0 && Self::board_part(second) == key.1 {
                slot = candidate;
                break;
            }
            if Self::work_log(second) < cheapest {
                cheapest = Self::work_log(second);
                slot = candidate;
            }
        }
        let second = key.1 | meta;
        let at = slot * 2 * S::WORDS;
        self.put(at, key.0 ^ second.scramble());
        self.put(at + S::WORDS, second);
    }
}

/// `count` zero words, in huge pages where the system has them: a probe
/// of a table far larger than the cache then misses the cache but not the
/// TLB too (measured in docs/tuning.md).
fn zeroed_words(count: usize) -> Vec<AtomicU64> {
    let mut words = Vec::with_capacity(count);
    advise_huge_pages(
        words.as_ptr() as usize,
        count * std::mem::size_of::<AtomicU64>(),
    );
    // The pages are touched only now, after the advice.
    words.resize_with(count, || AtomicU64::new(0));
    words
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, bytes: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies inside an allocation of ours that nothing
        // uses yet; the advice changes only how the kernel backs it, and if
        // refused the pages stay ordinary ones.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: usize, _bytes: usize) {}
