//! What the threads of one solve share: the table, the marks of the
//! positions being searched, the node total and the word to stop.
//!
//! The threads search the same tree from the same root (each with its own
//! move-ordering memory) and meet in the table. Near the root a thread
//! marks the position it is searching, and a thread about to search a
//! reply another thread has marked searches its other replies first (the
//! eldest reply is always searched at once): by the time it comes back to
//! the deferred one, the other thread's proof is usually in the table.
//! This is ABDADA (Weill, 1996) with a small table of counters instead of
//! a field in every entry.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64};

use super::board::PointSet;
use super::table::Table;

/// Counters of positions being searched (slots shared by hash).
const BUSY_SLOTS: usize = 1 << 16;

/// The state of one solve that its threads share.
pub(super) struct Shared<S> {
    pub(super) table: Table<S>,
    /// Per hash slot, how many threads are searching a position there;
    /// empty when the solve has one thread.
    busy: Vec<AtomicU8>,
    /// Set once the solve is answered (a first win found with `all_moves`
    /// off): the other threads stop.
    pub(super) done: AtomicBool,
    /// Nodes searched by all threads, updated at each thread's clock looks.
    pub(super) nodes: AtomicU64,
}

impl<S: PointSet> Shared<S> {
    pub(super) fn new(table: Table<S>, threads: usize) -> Shared<S> {
        let slots = if threads > 1 { BUSY_SLOTS } else { 0 };
        Shared {
            table,
            busy: (0..slots).map(|_| AtomicU8::new(0)).collect(),
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }

    /// Whether more than one thread searches.
    #[inline(always)]
    pub(super) fn parallel(&self) -> bool {
        !self.busy.is_empty()
    }

    #[inline(always)]
    fn slot(&self, key: (S, S)) -> &AtomicU8 {
        let mixed =
            (key.0.digest().rotate_left(17) ^ key.1.digest()).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        &self.busy[(mixed >> 48) as usize & (BUSY_SLOTS - 1)]
    }

    /// Whether some thread is searching the position `key` (or one
    /// sharing its slot).
    #[inline(always)]
    pub(super) fn is_busy(&self, key: (S, S)) -> bool {
        self.slot(key).load(Relaxed) != 0
    }

    /// Marks `key` as being searched by one more thread.
    #[inline(always)]
    pub(super) fn enter(&self, key: (S, S)) {
        self.slot(key).fetch_add(1, Relaxed);
    }

    /// Undoes one [`Shared::enter`] of `key`.
    #[inline(always)]
    pub(super) fn leave(&self, key: (S, S)) {
        self.slot(key).fetch_sub(1, Relaxed);
    }
}
