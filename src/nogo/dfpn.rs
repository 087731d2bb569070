//! A second NoGo solver, independent of the first: depth-first
//! proof-number search (Nagai's df-pn) over a board of its own, one 64-bit
//! word a colour. It shares nothing with `solver/` (neither the board and
//! its move generation, nor the search, nor the table), so that each can
//! check the other's verdicts (`kosumi solve --method dfpn`, the tests).
//!
//! Reading guide: [`solve_dfpn`] is the entry; `Grid` knows the board's
//! shape and the legal moves; `Table` keeps proof and disproof numbers;
//! `Search::mid` is Nagai's multiple iterative deepening.
//!
//! Every value is the side to move's: a node's proof number is the least
//! number of leaves still to prove that it wins, its disproof number the
//! least to prove that it loses. A NoGo game never repeats a position
//! (stones are only added), so the search graph has no cycles and the
//! graph-history interaction problem of df-pn cannot arise.

use std::time::{Duration, Instant};

use crate::board::{Color, GameKind, Point, Position};

/// Proof or disproof number of a decided node.
const INFINITE: u32 = u32::MAX;

/// The 1 + epsilon of the child's threshold (see `Search::mid`) is
/// 1 + 1 / this.
const EPSILON_DIVISOR: u32 = 4;

/// Nodes between looks at the clock.
const CLOCK_EVERY: u64 = 1 << 16;

/// What [`solve_dfpn`] may spend.
#[derive(Clone, Copy, Debug)]
pub struct DfpnOptions {
    /// Give up after this long.
    pub limit: Option<Duration>,
    /// Size of the table of proof and disproof numbers in MiB.
    pub table_mb: usize,
}

impl Default for DfpnOptions {
    fn default() -> DfpnOptions {
        DfpnOptions {
            limit: None,
            table_mb: 256,
        }
    }
}

/// What [`solve_dfpn`] found.
#[derive(Clone, Debug)]
pub struct DfpnOutcome {
    /// The winner with perfect play; `None` when the time ran out.
    pub winner: Option<Color>,
    /// A winning first move of the side to move, when it wins.
    pub winning_move: Option<Point>,
    /// Nodes expanded (positions whose moves were generated).
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Solves the NoGo `position` for the side to move. `None` for a Go
/// position or a board of more than 64 points.
pub fn solve_dfpn(position: &Position, options: &DfpnOptions) -> Option<DfpnOutcome> {
    if position.kind() != GameKind::NoGo {
        return None;
    }
    let geometry = position.geometry();
    let grid = Grid::new(geometry.width(), geometry.height())?;
    let word = |color: Color| {
        position.stones(color).iter().fold(0u64, |word, p| {
            let (col, row) = geometry.coords(p).expect("a stone on the board");
            word | grid.bit(col, row)
        })
    };
    let mover = position.to_move();
    let root = Node {
        mover: word(mover),
        other: word(mover.opponent()),
    };
    let started = Instant::now();
    let mut search = Search {
        grid,
        symmetries: Symmetries::new(geometry.width(), geometry.height()),
        table: Table::new(options.table_mb),
        nodes: 0,
        deadline: options.limit.map(|limit| started + limit),
        stopped: false,
    };
    let (proof, _) = search.mid(root, INFINITE, INFINITE);
    let winner = match proof {
        _ if search.stopped => None,
        0 => Some(mover),
        _ => Some(mover.opponent()),
    };
    let winning_move = (winner == Some(mover))
        .then(|| search.winning_move(root))
        .flatten()
        .map(|index| {
            let width = geometry.width();
            geometry.point_unchecked(index as usize % width, index as usize / width)
        });
    Some(DfpnOutcome {
        winner,
        winning_move,
        nodes: search.nodes,
        elapsed: started.elapsed(),
    })
}

/// A position: the stones of the side to move and of the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    mover: u64,
    other: u64,
}

impl Node {
    /// The position after the side to move plays `bit`.
    fn after(self, bit: u64) -> Node {
        Node {
            mover: self.other,
            other: self.mover | bit,
        }
    }
}

/// The board's shape: point `row * width + col` is bit of that index.
#[derive(Clone, Copy, Debug)]
struct Grid {
    width: u32,
    /// Every point of the board.
    all: u64,
    /// Every point but the first column's (where a step right may land).
    not_first_column: u64,
    /// Every point but the last column's (where a step left may land).
    not_last_column: u64,
}

impl Grid {
    /// The grid of a `width` x `height` board; `None` past 64 points.
    fn new(width: usize, height: usize) -> Option<Grid> {
        let area = width * height;
        if area == 0 || area > 64 {
            return None;
        }
        let all = if area == 64 {
            u64::MAX
        } else {
            (1 << area) - 1
        };
        let column = |col: usize| (0..height).fold(0u64, |set, row| set | 1 << (row * width + col));
        Some(Grid {
            width: width as u32,
            all,
            not_first_column: all & !column(0),
            not_last_column: all & !column(width - 1),
        })
    }

    fn bit(&self, col: usize, row: usize) -> u64 {
        1 << (row * self.width as usize + col)
    }

    /// The points next to some point of `set`, `set`'s own included where
    /// they touch each other.
    fn neighbours(&self, set: u64) -> u64 {
        let w = self.width;
        (((set << 1) & self.not_first_column)
            | ((set >> 1) & self.not_last_column)
            | (set << w)
            | (set >> w))
            & self.all
    }

    /// The string of `stones` through the stones of `seed`.
    fn string(&self, seed: u64, stones: u64) -> u64 {
        let mut string = seed;
        loop {
            let grown = (string | self.neighbours(string)) & stones;
            if grown == string {
                return string;
            }
            string = grown;
        }
    }

    /// The liberties (empty points of `empty`) of each string of
    /// `stones`, a set a string.
    fn liberties_by_string(&self, stones: u64, empty: u64) -> impl Iterator<Item = u64> + '_ {
        let mut left = stones;
        std::iter::from_fn(move || {
            (left != 0).then(|| {
                let string = self.string(left & left.wrapping_neg(), stones);
                left &= !string;
                self.neighbours(string) & empty
            })
        })
    }

    /// The points where the side to move of `node` may play: empty, not
    /// the last liberty of an opposing string (a capture), and not where
    /// the new stone's string would have no liberty (suicide).
    fn legal(&self, node: Node) -> u64 {
        let empty = self.all & !(node.mover | node.other);
        let capturing = self
            .liberties_by_string(node.other, empty)
            .filter(|liberties| liberties.count_ones() == 1)
            .fold(0, |set, liberties| set | liberties);
        // A stone breathes through an empty neighbour, or through a string
        // of its own that keeps another liberty.
        let breathing = self
            .liberties_by_string(node.mover, empty)
            .filter(|liberties| liberties.count_ones() >= 2)
            .fold(self.neighbours(empty) & empty, |set, liberties| {
                set | liberties
            });
        empty & !capturing & breathing
    }
}

/// The board's symmetries (4 for a rectangle, 8 for a square), each a
/// map of bitboards by byte, so that a position and its mirror images
/// share one entry of the table.
struct Symmetries {
    /// By symmetry, byte position and byte value: the image.
    images: Vec<[[u64; 256]; 8]>,
}

impl Symmetries {
    fn new(width: usize, height: usize) -> Symmetries {
        let count = if width == height { 8 } else { 4 };
        let images = (0..count)
            .map(|symmetry| {
                let mut image = [[0u64; 256]; 8];
                for (k, bytes) in image.iter_mut().enumerate() {
                    for (value, mapped) in bytes.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let index = k * 8 + bit;
                            if value & 1 << bit != 0 && index < width * height {
                                let (c, r) =
                                    mirrored(symmetry, index % width, index / width, width, height);
                                *mapped |= 1 << (r * width + c);
                            }
                        }
                    }
                }
                image
            })
            .collect();
        Symmetries { images }
    }

    /// The least of `node`'s images, the key of its table entry.
    fn canonical(&self, node: Node) -> Node {
        let map = |image: &[[u64; 256]; 8], word: u64| {
            (0..8).fold(0, |out, k| {
                out | image[k][(word >> (8 * k)) as usize & 0xFF]
            })
        };
        self.images
            .iter()
            .map(|image| Node {
                mover: map(image, node.mover),
                other: map(image, node.other),
            })
            .min_by_key(|n| (n.mover, n.other))
            .unwrap_or(node)
    }
}

/// Where `symmetry` (0-3 of any board: identity and the mirrors; 4-7 of
/// a square one: those after a transposition) takes point (`c`, `r`).
fn mirrored(symmetry: usize, c: usize, r: usize, width: usize, height: usize) -> (usize, usize) {
    let (c, r) = if symmetry >= 4 { (r, c) } else { (c, r) };
    let (c, r) = if symmetry & 1 != 0 {
        (width - 1 - c, r)
    } else {
        (c, r)
    };
    if symmetry & 2 != 0 {
        (c, height - 1 - r)
    } else {
        (c, r)
    }
}

/// One slot of the table: a position and its numbers.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    mover: u64,
    other: u64,
    proof: u32,
    disproof: u32,
    /// Nodes spent below the position (0: an empty slot), so that a
    /// costly result outlives a cheap one.
    work: u32,
}

/// Proof and disproof numbers by position, two slots a bucket; a result
/// that does not fit pushes out the cheaper one. A lost entry costs only
/// time: it is worked out again.
struct Table {
    entries: Vec<Entry>,
    /// Buckets minus one (their number is a power of two).
    mask: u64,
}

impl Table {
    fn new(megabytes: usize) -> Table {
        let slots = (megabytes.max(1) << 20) / std::mem::size_of::<Entry>();
        // The most buckets, a power of two, that fit.
        let buckets = ((slots / 2 + 1).next_power_of_two() / 2).max(1);
        Table {
            entries: vec![Entry::default(); buckets * 2],
            mask: buckets as u64 - 1,
        }
    }

    fn bucket(&self, node: Node) -> usize {
        let mut key = node.mover
            ^ node
                .other
                .rotate_left(29)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        key ^= key >> 31;
        key = key.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        key ^= key >> 29;
        ((key & self.mask) * 2) as usize
    }

    fn get(&self, node: Node) -> Option<(u32, u32)> {
        let first = self.bucket(node);
        self.entries[first..first + 2]
            .iter()
            .find(|e| e.work > 0 && e.mover == node.mover && e.other == node.other)
            .map(|e| (e.proof, e.disproof))
    }

    fn put(&mut self, node: Node, proof: u32, disproof: u32, work: u64) {
        let first = self.bucket(node);
        let slots = &mut self.entries[first..first + 2];
        let same = slots
            .iter()
            .position(|e| e.work > 0 && e.mover == node.mover && e.other == node.other);
        let slot = same.unwrap_or(if slots[0].work <= slots[1].work { 0 } else { 1 });
        slots[slot] = Entry {
            mover: node.mover,
            other: node.other,
            proof,
            disproof,
            work: work.clamp(1, u64::from(u32::MAX)) as u32,
        };
    }
}

/// A solve in progress.
struct Search {
    grid: Grid,
    symmetries: Symmetries,
    table: Table,
    nodes: u64,
    deadline: Option<Instant>,
    /// The time ran out: every call returns at once, unresolved.
    stopped: bool,
}

/// One move of an expanded node and the child's numbers (the child's side
/// to move's: its proof number counts towards our disproof).
#[derive(Clone, Copy)]
struct Child {
    bit: u64,
    proof: u32,
    disproof: u32,
}

impl Search {
    /// Searches `node` until its proof number reaches `proof_limit` or its
    /// disproof number `disproof_limit` (or the time runs out), and
    /// returns both.
    fn mid(&mut self, node: Node, proof_limit: u32, disproof_limit: u32) -> (u32, u32) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY)
            && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
        let nodes_before = self.nodes;
        let mut children = self.expand(node);
        loop {
            let (proof, disproof) = numbers(&children);
            if proof >= proof_limit || disproof >= disproof_limit || self.stopped {
                let key = self.symmetries.canonical(node);
                self.table
                    .put(key, proof, disproof, self.nodes - nodes_before + 1);
                return (proof, disproof);
            }
            let (best, second) = two_most_proving(&children);
            let child = children[best];
            // Our disproof number is the sum of the children's proof
            // numbers: the child may grow its own up to what is left.
            let child_proof_limit = if disproof_limit == INFINITE {
                INFINITE
            } else {
                disproof_limit - (disproof - child.proof)
            };
            // Pawlewicz and Lew's 1 + epsilon: the child may run a little
            // past the second best before we switch, which saves most of
            // the re-expansions of switching back and forth.
            let past_second = second
                .saturating_add(second / EPSILON_DIVISOR)
                .saturating_add(1);
            let child_disproof_limit = proof_limit.min(past_second);
            let (p, d) = self.mid(
                node.after(child.bit),
                child_proof_limit,
                child_disproof_limit,
            );
            children[best].proof = p;
            children[best].disproof = d;
        }
    }

    /// The moves of `node` with their children's numbers, from the table
    /// or a first look (a child whose side to move has no move is lost).
    fn expand(&mut self, node: Node) -> Vec<Child> {
        let mut children = Vec::new();
        let mut moves = self.grid.legal(node);
        while moves != 0 {
            let bit = moves & moves.wrapping_neg();
            moves &= moves - 1;
            let after = node.after(bit);
            let (proof, disproof) = match self.table.get(self.symmetries.canonical(after)) {
                Some(numbers) => numbers,
                None => self.first_look(after),
            };
            children.push(Child {
                bit,
                proof,
                disproof,
            });
        }
        children
    }

    /// The numbers of a position not yet searched, from the moves each
    /// side has there (NoGo's own measure: whoever runs out first loses):
    /// a side to move with fewer moves than its opponent is likely lost,
    /// so its proof number starts higher and its disproof number lower.
    fn first_look(&self, node: Node) -> (u32, u32) {
        let own = self.grid.legal(node).count_ones();
        if own == 0 {
            return (INFINITE, 0);
        }
        let theirs = self
            .grid
            .legal(Node {
                mover: node.other,
                other: node.mover,
            })
            .count_ones();
        let behind = theirs.saturating_sub(own);
        let ahead = own.saturating_sub(theirs);
        (1 + 2 * behind, 1 + 2 * ahead)
    }

    /// The index of a move of `node` whose child is proved lost for its
    /// side to move, after a solve that proved `node` won. A child whose
    /// proof the table has lost is solved again.
    fn winning_move(&mut self, node: Node) -> Option<u32> {
        let mut children = self.expand(node);
        children.sort_by_key(|child| child.disproof);
        children
            .into_iter()
            .find(|child| {
                child.proof == INFINITE
                    || (child.disproof > 0
                        && self.mid(node.after(child.bit), INFINITE, INFINITE).0 == INFINITE)
            })
            .map(|child| child.bit.trailing_zeros())
    }
}

/// A node's (proof, disproof) numbers from its children's: we win if some
/// child loses (our proof number is the least child disproof number), we
/// lose if every child wins (our disproof number is the sum of their
/// proof numbers). No child: the side to move has lost.
fn numbers(children: &[Child]) -> (u32, u32) {
    let mut proof = INFINITE;
    let mut disproof: u32 = 0;
    for child in children {
        proof = proof.min(child.disproof);
        disproof = if child.proof == INFINITE || disproof == INFINITE {
            INFINITE
        } else {
            // Short of infinity: only a decided child makes us decided.
            disproof.saturating_add(child.proof).min(INFINITE - 1)
        };
    }
    (proof, disproof)
}

/// The child with the least disproof number (the most proving for us),
/// and the second least disproof number.
fn two_most_proving(children: &[Child]) -> (usize, u32) {
    let mut best = 0;
    let mut second = INFINITE;
    for (i, child) in children.iter().enumerate().skip(1) {
        if child.disproof < children[best].disproof {
            second = children[best].disproof;
            best = i;
        } else if child.disproof < second {
            second = child.disproof;
        }
    }
    (best, second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    fn empty_board(width: usize, height: usize) -> Position {
        Position::new(Geometry::new(width, height).unwrap(), GameKind::NoGo)
    }

    const SMALL: DfpnOptions = DfpnOptions {
        limit: None,
        table_mb: 8,
    };

    fn winner(width: usize, height: usize) -> Color {
        let outcome = solve_dfpn(&empty_board(width, height), &SMALL).unwrap();
        outcome.winner.unwrap()
    }

    #[test]
    fn the_legal_moves_are_the_rules_cores() {
        // Random NoGo games on three boards: at every position the grid's
        // legal moves are exactly those `Position::is_legal` allows.
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        for (width, height) in [(5, 5), (7, 3), (4, 6)] {
            for _ in 0..40 {
                let mut position = empty_board(width, height);
                let geometry = position.geometry();
                let grid = Grid::new(width, height).unwrap();
                loop {
                    let mover = position.to_move();
                    let word = |color: Color| {
                        position.stones(color).iter().fold(0u64, |w, p| {
                            let (col, row) = geometry.coords(p).unwrap();
                            w | grid.bit(col, row)
                        })
                    };
                    let node = Node {
                        mover: word(mover),
                        other: word(mover.opponent()),
                    };
                    let legal: Vec<Point> = geometry
                        .points()
                        .filter(|&p| position.is_legal(p, mover))
                        .collect();
                    let expected = legal.iter().fold(0u64, |w, &p| {
                        let (col, row) = geometry.coords(p).unwrap();
                        w | grid.bit(col, row)
                    });
                    assert_eq!(grid.legal(node), expected, "{width}x{height}");
                    if legal.is_empty() {
                        break;
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    position.play(legal[state as usize % legal.len()], mover);
                }
            }
        }
    }

    #[test]
    fn small_boards_have_their_known_winners() {
        // From the published results (the project's nogo-solved table).
        assert_eq!(winner(1, 1), Color::White);
        assert_eq!(winner(4, 1), Color::White);
        assert_eq!(winner(5, 1), Color::Black);
        assert_eq!(winner(3, 2), Color::White);
        assert_eq!(winner(5, 2), Color::Black);
        assert_eq!(winner(3, 3), Color::Black);
        assert_eq!(winner(4, 3), Color::White);
    }

    #[test]
    fn a_winning_move_wins() {
        let position = empty_board(3, 3);
        let outcome = solve_dfpn(&position, &SMALL).unwrap();
        let first = outcome.winning_move.expect("Black wins 3x3");
        let mut after = position.clone();
        after.play(first, Color::Black);
        let reply = solve_dfpn(&after, &SMALL).unwrap();
        assert_eq!(reply.winner, Some(Color::Black));
        assert_eq!(reply.winning_move, None);
    }

    #[test]
    fn a_go_position_or_a_big_board_is_not_taken() {
        let go = Position::new(Geometry::new(3, 3).unwrap(), GameKind::Go);
        assert!(solve_dfpn(&go, &SMALL).is_none());
        assert!(solve_dfpn(&empty_board(9, 9), &SMALL).is_none());
    }

    #[test]
    fn the_table_fills_the_megabytes_asked() {
        for megabytes in [1, 8, 64] {
            let table = Table::new(megabytes);
            assert_eq!(
                table.entries.len() * std::mem::size_of::<Entry>(),
                megabytes << 20
            );
        }
    }

    #[test]
    fn a_solve_out_of_time_names_no_winner() {
        let options = DfpnOptions {
            limit: Some(Duration::ZERO),
            table_mb: 1,
        };
        let outcome = solve_dfpn(&empty_board(5, 5), &options).unwrap();
        assert_eq!(outcome.winner, None);
    }
}
