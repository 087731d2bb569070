//! The search tree: an arena of nodes, each node's children contiguous.
//!
//! Nodes are allocated in blocks (one block per expanded node: its
//! children) from chunks that are created only when first used, so memory
//! grows with the tree up to a hard cap and a full tree never aborts the
//! search: expansion simply fails and the leaf keeps being played out.
//! Every field is atomic so several threads can share one tree.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

use crate::board::{Move, Point};

/// Index of a node in the arena.
pub type NodeId = u32;

/// The root is always the first node.
pub const ROOT: NodeId = 0;

/// Nodes per chunk (2^16 nodes of 32 bytes: 2 MiB).
const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;

/// Expansion states.
pub const LEAF: u8 = 0;
pub const EXPANDING: u8 = 1;
pub const EXPANDED: u8 = 2;

/// Proof states, for the player who moved into the node.
pub const UNPROVEN: u8 = 0;
pub const PROVEN_WIN: u8 = 1;
pub const PROVEN_LOSS: u8 = 2;

/// One tree node: a position reached by a move.
#[derive(Default)]
pub struct Node {
    /// The move into this node: a grid point, or 0 for a pass.
    mv: AtomicU16,
    /// LEAF, EXPANDING (one thread is creating the children) or EXPANDED.
    state: AtomicU8,
    /// UNPROVEN, PROVEN_WIN or PROVEN_LOSS for the player who moved here.
    proof: AtomicU8,
    /// Arena index of the first child (valid once EXPANDED).
    first_child: AtomicU32,
    /// Number of children (valid once EXPANDED).
    child_count: AtomicU16,
    /// Prior knowledge as virtual playouts through this node.
    prior_visits: AtomicU16,
    /// Prior virtual wins, in half points.
    prior_wins: AtomicU32,
    /// Playouts through this node, including virtual losses in flight,
    /// plus `prior_visits`: the sum is what `select` reads for every child.
    visits_with_prior: AtomicU32,
    /// Wins of the player who moved here, in half points (a draw is 1),
    /// plus `prior_wins`.
    wins_with_prior: AtomicU32,
    /// AMAF playouts (this move was played later by the same player) in the
    /// high half, their wins in half points in the low half: one load and
    /// one store per update. Wins never exceed twice the playouts, so the
    /// low half carries over only past 2^31 playouts.
    amaf: AtomicU64,
}

/// Shift of the AMAF playouts in [`Node::amaf`].
const AMAF_VISITS_SHIFT: u32 = 32;

/// An AMAF word (see [`Node::amaf_word`]): `playouts` in the high half,
/// their wins in `half_points` in the low half.
#[inline]
pub fn amaf_word(playouts: u32, half_points: u32) -> u64 {
    (playouts as u64) << AMAF_VISITS_SHIFT | half_points as u64
}

/// An AMAF word's playouts and their wins in half points.
#[inline]
pub fn amaf_parts(word: u64) -> (u32, u32) {
    ((word >> AMAF_VISITS_SHIFT) as u32, word as u32)
}

/// What [`Node::add_amaf`] adds for one AMAF playout worth `half_points`.
#[inline]
pub fn amaf_update(half_points: u32) -> u64 {
    amaf_word(1, half_points)
}

impl Node {
    /// The move into this node.
    pub fn mv(&self) -> Move {
        match self.mv.load(Relaxed) {
            0 => Move::Pass,
            p => Move::Play(Point(p)),
        }
    }

    /// The move as a grid index (0 for a pass).
    #[inline]
    pub fn mv_index(&self) -> u16 {
        self.mv.load(Relaxed)
    }

    #[inline]
    pub fn state(&self) -> u8 {
        self.state.load(std::sync::atomic::Ordering::Acquire)
    }

    #[inline]
    pub fn proof(&self) -> u8 {
        self.proof.load(Relaxed)
    }

    pub fn set_proof(&self, proof: u8) {
        self.proof.store(proof, Relaxed);
    }

    /// Real playouts through this node (virtual losses included).
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits_with_prior() - self.prior_visits()
    }

    /// Wins in half points.
    #[inline]
    pub fn wins(&self) -> u32 {
        self.wins_with_prior() - self.prior_wins()
    }

    /// [`Node::visits`] plus [`Node::prior_visits`].
    #[inline]
    pub fn visits_with_prior(&self) -> u32 {
        self.visits_with_prior.load(Relaxed)
    }

    /// [`Node::wins`] plus [`Node::prior_wins`].
    #[inline]
    pub fn wins_with_prior(&self) -> u32 {
        self.wins_with_prior.load(Relaxed)
    }

    #[inline]
    pub fn prior_visits(&self) -> u32 {
        self.prior_visits.load(Relaxed) as u32
    }

    #[inline]
    pub fn prior_wins(&self) -> u32 {
        self.prior_wins.load(Relaxed)
    }

    /// The AMAF word: playouts in the high half, wins in half points in
    /// the low half (priors included).
    #[inline]
    pub fn amaf_word(&self) -> u64 {
        self.amaf.load(Relaxed)
    }

    /// AMAF playouts and their wins in half points (priors included).
    #[inline]
    pub fn amaf(&self) -> (u32, u32) {
        amaf_parts(self.amaf.load(Relaxed))
    }

    /// Win rate of the player who moved here from real playouts (0.5 if none).
    pub fn winrate(&self) -> f64 {
        let n = self.visits();
        if n == 0 {
            0.5
        } else {
            self.wins() as f64 / (2.0 * n as f64)
        }
    }

    /// Counts a playout in flight (a virtual loss until its result is added).
    #[inline]
    pub fn add_visit(&self) {
        self.visits_with_prior.fetch_add(1, Relaxed);
    }

    /// Counts one more playout in flight; returns the real playouts
    /// through the node with it (each count is returned to one caller).
    #[inline]
    pub fn add_visit_counted(&self) -> u32 {
        let before = self.visits_with_prior.fetch_add(1, Relaxed);
        (before + 1).saturating_sub(self.prior_visits.load(Relaxed) as u32)
    }

    /// Counts `n` playouts at once, as if they had run (tests of the
    /// counters' ceiling, which a real search needs minutes to reach).
    #[cfg(test)]
    pub fn add_visits(&self, n: u32) {
        self.visits_with_prior.fetch_add(n, Relaxed);
    }

    /// Adds a finished playout's result (half points) to a visit already counted.
    #[inline]
    pub fn add_result(&self, half_points: u32) {
        if half_points > 0 {
            self.wins_with_prior.fetch_add(half_points, Relaxed);
        }
    }

    /// Adds an AMAF update: `amaf_update(half_points)` for one playout,
    /// 0 for none. Plain load-and-store, not a locked add: every simulation
    /// updates dozens of siblings, and an update lost now and then to
    /// another thread costs nothing measurable (Fuego accepts the same for
    /// all its statistics).
    #[inline]
    pub fn add_amaf(&self, update: u64) {
        self.amaf.store(self.amaf.load(Relaxed) + update, Relaxed);
    }

    /// First child and number of children (`(0, 0)` unless expanded).
    #[inline]
    pub fn children(&self) -> (NodeId, usize) {
        if self.state() != EXPANDED {
            return (0, 0);
        }
        (
            self.first_child.load(Relaxed),
            self.child_count.load(Relaxed) as usize,
        )
    }

    /// Claims the right to expand this leaf; false if another thread has it.
    pub fn try_begin_expansion(&self) -> bool {
        self.state
            .compare_exchange(
                LEAF,
                EXPANDING,
                std::sync::atomic::Ordering::Acquire,
                Relaxed,
            )
            .is_ok()
    }

    /// Gives up an expansion (the arena was full).
    pub fn abandon_expansion(&self) {
        self.state.store(LEAF, std::sync::atomic::Ordering::Release);
    }

    /// Publishes the children written at `first..first + count`.
    pub fn finish_expansion(&self, first: NodeId, count: usize) {
        self.first_child.store(first, Relaxed);
        self.child_count.store(count as u16, Relaxed);
        self.state
            .store(EXPANDED, std::sync::atomic::Ordering::Release);
    }

    /// Sets a fresh child's move and prior (before it is published).
    pub fn init(&self, mv: Move, prior_visits: u16, prior_wins: u32) {
        let index = match mv {
            Move::Pass => 0,
            Move::Play(p) => p.0,
        };
        self.mv.store(index, Relaxed);
        self.state.store(LEAF, Relaxed);
        self.proof.store(UNPROVEN, Relaxed);
        self.prior_visits.store(prior_visits, Relaxed);
        self.prior_wins.store(prior_wins, Relaxed);
        self.visits_with_prior.store(prior_visits as u32, Relaxed);
        self.wins_with_prior.store(prior_wins, Relaxed);
        self.amaf
            .store(amaf_word(prior_visits as u32, prior_wins), Relaxed);
    }

    /// Adds prior knowledge found after the node was created (the root's
    /// tactical reading): `visits` virtual playouts, `wins` half points of
    /// them won, counted in the real and the AMAF statistics as `init`'s.
    pub fn add_prior(&self, visits: u16, wins: u32) {
        let visits = visits.min(u16::MAX - self.prior_visits.load(Relaxed));
        let wins = wins.min(2 * visits as u32);
        self.prior_visits.fetch_add(visits, Relaxed);
        self.prior_wins.fetch_add(wins, Relaxed);
        self.visits_with_prior.fetch_add(visits as u32, Relaxed);
        self.wins_with_prior.fetch_add(wins, Relaxed);
        self.add_amaf(amaf_word(visits as u32, wins));
    }

    /// Forgets every playout through the node (it becomes a leaf with its
    /// priors alone, its subtree out of reach): for a reused root child
    /// whose earlier playouts the root's reading has since shown wrong.
    pub fn forget_playouts(&self) {
        self.init(
            self.mv(),
            self.prior_visits.load(Relaxed),
            self.prior_wins(),
        );
    }

    /// Copies statistics and move (not children) from `other`.
    fn copy_stats(&self, other: &Node) {
        self.mv.store(other.mv.load(Relaxed), Relaxed);
        self.state.store(LEAF, Relaxed);
        self.proof.store(other.proof(), Relaxed);
        self.prior_visits
            .store(other.prior_visits.load(Relaxed), Relaxed);
        self.prior_wins.store(other.prior_wins(), Relaxed);
        self.visits_with_prior
            .store(other.visits_with_prior(), Relaxed);
        self.wins_with_prior.store(other.wins_with_prior(), Relaxed);
        self.amaf.store(other.amaf.load(Relaxed), Relaxed);
    }
}

/// The arena.
pub struct Tree {
    /// Chunks of nodes, created on first use.
    chunks: Box<[OnceLock<Box<[Node]>>]>,
    /// Next free node index.
    next_free: AtomicU32,
    /// Most nodes the tree may hold.
    capacity: u32,
}

/// Bytes per node, for turning a memory cap into a node count.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();
const _: () = assert!(NODE_BYTES <= 40, "tree nodes must stay compact");

impl Tree {
    /// An empty tree (just the root) holding at most `max_bytes` of nodes.
    pub fn new(max_bytes: usize) -> Tree {
        let capacity = (max_bytes / NODE_BYTES).clamp(CHUNK, u32::MAX as usize / 2);
        let chunk_count = capacity.div_ceil(CHUNK);
        let tree = Tree {
            chunks: (0..chunk_count).map(|_| OnceLock::new()).collect(),
            next_free: AtomicU32::new(1),
            capacity: (chunk_count * CHUNK) as u32,
        };
        tree.chunk(0);
        tree
    }

    fn chunk(&self, index: usize) -> &[Node] {
        self.chunks[index].get_or_init(|| (0..CHUNK).map(|_| Node::default()).collect())
    }

    /// The node with this id.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        let id = id as usize;
        &self.chunk(id >> CHUNK_BITS)[id & (CHUNK - 1)]
    }

    /// The `count` nodes from `first` (a block of children, always within
    /// one chunk): one chunk look-up for a whole loop over siblings.
    #[inline]
    pub fn block(&self, first: NodeId, count: usize) -> &[Node] {
        let first = first as usize;
        let offset = first & (CHUNK - 1);
        &self.chunk(first >> CHUNK_BITS)[offset..offset + count]
    }

    /// Nodes in use.
    pub fn len(&self) -> usize {
        self.next_free.load(Relaxed) as usize
    }

    /// Whether only the root exists.
    pub fn is_empty(&self) -> bool {
        self.len() <= 1
    }

    /// Bytes of node memory in use.
    pub fn bytes(&self) -> usize {
        self.len() * NODE_BYTES
    }

    /// Reserves `count` contiguous nodes within one chunk; `None` when full.
    pub fn allocate(&self, count: usize) -> Option<NodeId> {
        debug_assert!(count > 0 && count <= CHUNK);
        let mut start = self.next_free.load(Relaxed);
        loop {
            let mut begin = start as usize;
            if (begin % CHUNK) + count > CHUNK {
                begin = begin.next_multiple_of(CHUNK);
            }
            let end = begin + count;
            if end > self.capacity as usize {
                return None;
            }
            match self
                .next_free
                .compare_exchange_weak(start, end as u32, Relaxed, Relaxed)
            {
                Ok(_) => {
                    self.chunk(begin >> CHUNK_BITS);
                    return Some(begin as NodeId);
                }
                Err(now) => start = now,
            }
        }
    }

    /// A new tree whose root is a copy of `node` and its whole subtree.
    pub fn extract(&self, node: NodeId, max_bytes: usize) -> Tree {
        let tree = Tree::new(max_bytes);
        tree.node(ROOT).copy_stats(self.node(node));
        let mut queue = std::collections::VecDeque::from([(node, ROOT)]);
        while let Some((old, new)) = queue.pop_front() {
            let (first, count) = self.node(old).children();
            if count == 0 {
                continue;
            }
            let Some(block) = tree.allocate(count) else {
                continue;
            };
            for k in 0..count {
                let child = first + k as NodeId;
                tree.node(block + k as NodeId).copy_stats(self.node(child));
                queue.push_back((child, block + k as NodeId));
            }
            tree.node(new).finish_expansion(block, count);
        }
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_stops_at_the_cap_and_blocks_stay_in_one_chunk() {
        let tree = Tree::new(CHUNK * NODE_BYTES);
        let mut blocks = 0;
        while let Some(first) = tree.allocate(500) {
            assert_eq!(first as usize / CHUNK, (first as usize + 499) / CHUNK);
            blocks += 1;
        }
        assert_eq!(blocks, (CHUNK - 1) / 500);
    }

    #[test]
    fn extract_keeps_the_subtree() {
        let tree = Tree::new(1 << 20);
        let children = tree.allocate(2).unwrap();
        tree.node(children).init(Move::Play(Point(12)), 5, 6);
        tree.node(children + 1).init(Move::Pass, 5, 4);
        tree.node(ROOT).finish_expansion(children, 2);
        let grandchildren = tree.allocate(1).unwrap();
        tree.node(grandchildren).init(Move::Play(Point(13)), 1, 1);
        tree.node(children).finish_expansion(grandchildren, 1);
        tree.node(children).add_visit();
        tree.node(children).add_result(2);

        let sub = tree.extract(children, 1 << 20);
        assert_eq!(sub.node(ROOT).mv(), Move::Play(Point(12)));
        assert_eq!(sub.node(ROOT).visits(), 1);
        let (first, count) = sub.node(ROOT).children();
        assert_eq!(count, 1);
        assert_eq!(sub.node(first).mv(), Move::Play(Point(13)));
        assert_eq!(sub.len(), 2);
    }
}
