//! Move ordering: which move the search tries first.
//!
//! A move scores by, from the strongest term down: leaving the opponent
//! no legal move, the difference in legal-move counts it leads to (a
//! one-ply look-ahead near the root), being a point the opponent could also
//! play (points only we can play keep), being one of the ply's two killer
//! moves, and the history heuristic. The look-ahead updates the node's
//! strings for each move instead of flood-filling the child from scratch,
//! and hands the child's analysis down, so the child's search does not redo
//! it.

use super::board::{Analysis, BitBoard, PointSet};

/// The deepest ply the solver tracks killers for (deeper plies share the last).
const MAX_PLY: usize = 128;

/// Killer slot holding no move.
const NO_KILLER: u8 = u8::MAX;

/// Plies from the root at which moves are ordered by a one-ply look-ahead
/// (costly: one analysis per move) rather than by history alone.
const LOOKAHEAD_PLIES: u32 = 14;

/// What the search has learnt about good moves so far, and scratch space.
pub(super) struct MoveOrder<S> {
    /// Two killer moves (bit indices, [`NO_KILLER`] = none) per ply.
    killers: [[u8; 2]; MAX_PLY],
    /// Per bit: how often the move won, weighted by the work it saved.
    history: [u64; u128::BITS as usize],
    /// Scratch list of strings and their liberties for `ordered_moves`.
    strings: Vec<(S, S)>,
}

impl<S: PointSet> MoveOrder<S> {
    pub(super) fn new() -> MoveOrder<S> {
        MoveOrder {
            killers: [[NO_KILLER; 2]; MAX_PLY],
            history: [0; u128::BITS as usize],
            strings: Vec::new(),
        }
    }

    /// Legal moves of the side to move as bit indices, best last (popped
    /// first), each with the analysis of the position it leads to where the
    /// look-ahead made one (the child's search then starts from it).
    pub(super) fn ordered_moves(
        &mut self,
        board: &BitBoard<S>,
        own: S,
        other: S,
        analysis: &Analysis<S>,
        ply: u32,
    ) -> Vec<(u32, Option<Analysis<S>>)> {
        let mut scored: Vec<(i64, u32, Option<Analysis<S>>)> =
            Vec::with_capacity(analysis.legal_own.count() as usize);
        let killers = self.killers[(ply as usize).min(MAX_PLY - 1)];
        let lookahead = ply < LOOKAHEAD_PLIES;
        let empty = board.all & !(own | other);
        let mut strings = std::mem::take(&mut self.strings);
        strings.clear();
        let mut own_count = 0;
        if lookahead {
            board.strings_with_liberties(own, empty, &mut strings);
            own_count = strings.len();
            board.strings_with_liberties(other, empty, &mut strings);
        }
        let (own_strings, other_strings) = strings.split_at(own_count);
        let mut rest = analysis.legal_own;
        while rest != S::EMPTY {
            let bit = rest.first();
            rest = rest.without_first();
            let mut score = (self.history[bit as usize] >> 8).min(1 << 30) as i64;
            if killers[0] as u32 == bit {
                score += 1 << 40;
            } else if killers[1] as u32 == bit {
                score += 1 << 39;
            }
            // Points only we can play keep: take the contested ones first.
            if analysis.legal_other.contains(bit) {
                score += 1 << 42;
            }
            let mut known = None;
            if lookahead {
                let child = board.analyse_after(own_strings, other_strings, empty, S::point(bit));
                // The child's mover is the opponent.
                let margin = child.legal_other.count() as i64 - child.legal_own.count() as i64;
                if child.legal_own == S::EMPTY {
                    score += 1 << 50;
                }
                score += (margin + 64) << 44;
                known = Some(child);
            }
            scored.push((score, bit, known));
        }
        self.strings = strings;
        scored.sort_unstable_by_key(|&(score, _, _)| score);
        scored
            .into_iter()
            .map(|(_, bit, known)| (bit, known))
            .collect()
    }

    /// Remembers that `bit` won at `ply` with `moves_left` legal moves
    /// between both sides: a killer there, and history weighted by the
    /// size of the subtree it cut.
    #[inline(always)]
    pub(super) fn record_win(&mut self, bit: u32, ply: u32, moves_left: u32) {
        let slot = (ply as usize).min(MAX_PLY - 1);
        if self.killers[slot][0] as u32 != bit {
            self.killers[slot][1] = self.killers[slot][0];
            self.killers[slot][0] = bit as u8;
        }
        let remaining = u64::from(moves_left);
        self.history[bit as usize] += remaining * remaining;
    }
}
