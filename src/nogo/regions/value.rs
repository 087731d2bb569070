//! The game value of one part of the board: every position reachable in
//! it, both sides to move, enumerated into a canonical game (see `cgt`).

use std::time::Instant;

use super::cgt::{Arena, FastMap, GameId};
use super::split::Component;
use super::words::{Words, bits};

/// Limits on the enumeration of all the parts of one decision.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    /// Positions that may still be valued.
    pub positions_left: u64,
    /// Give up at this time.
    pub deadline: Option<Instant>,
    /// Positions valued so far.
    pub positions: u64,
}

/// Positions valued between two looks at the clock.
const CLOCK_EVERY: u64 = 256;

impl Budget {
    /// Takes one position from the budget; `None` when it is spent.
    fn spend(&mut self) -> Option<()> {
        self.positions_left = self.positions_left.checked_sub(1)?;
        self.positions += 1;
        if self.positions.is_multiple_of(CLOCK_EVERY)
            && let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            self.positions_left = 0;
            return None;
        }
        Some(())
    }
}

/// A part's value and the values its first moves lead to.
#[derive(Clone, Debug)]
pub(super) struct PartValue {
    pub value: GameId,
    /// Each point Black may play (bit index), with the part's value after.
    pub black_moves: Vec<(u32, GameId)>,
    pub white_moves: Vec<(u32, GameId)>,
}

/// Enumerates one part; positions are keyed by the stones of the part
/// and of the strings touching it (the side to move is not part of a
/// game: a game holds both sides' options).
struct Enumerator<'a> {
    words: &'a Words,
    /// Dead points: empty for the rules, never played.
    dead: u128,
    arena: &'a mut Arena,
    budget: &'a mut Budget,
    memo: FastMap<(u128, u128), GameId>,
}

impl Enumerator<'_> {
    /// The value of the part with `black` and `white` stones and `empty`
    /// live points left.
    fn value(&mut self, black: u128, white: u128, empty: u128) -> Option<GameId> {
        if let Some(&known) = self.memo.get(&(black, white)) {
            return Some(known);
        }
        self.budget.spend()?;
        let (black_legal, white_legal) = self.words.legal(black, white, empty | self.dead);
        let mut left = Vec::new();
        for bit in bits(black_legal & empty) {
            let stone = 1u128 << bit;
            left.push(self.value(black | stone, white, empty & !stone)?);
        }
        let mut right = Vec::new();
        for bit in bits(white_legal & empty) {
            let stone = 1u128 << bit;
            right.push(self.value(black, white | stone, empty & !stone)?);
        }
        let game = self.arena.make(left, right)?;
        self.memo.insert((black, white), game);
        Some(game)
    }
}

/// The value of `part` (with the position's `dead` points), `None` if the
/// budget or the arena's work runs out.
pub(super) fn value_part(
    words: &Words,
    part: &Component,
    dead: u128,
    arena: &mut Arena,
    budget: &mut Budget,
) -> Option<PartValue> {
    let mut enumerator = Enumerator {
        words,
        dead,
        arena,
        budget,
        memo: FastMap::default(),
    };
    let (black, white, empty) = (part.black, part.white, part.points);
    let value = enumerator.value(black, white, empty)?;
    // The children were valued on the way: read them from the memo. The
    // part's own rules must agree with the whole board's.
    let (black_legal, white_legal) = words.legal(black, white, empty | dead);
    debug_assert_eq!(black_legal & empty, part.black_legal);
    debug_assert_eq!(white_legal & empty, part.white_legal);
    let child = |black: u128, white: u128| enumerator.memo.get(&(black, white)).copied();
    let black_moves = bits(black_legal & empty)
        .map(|bit| Some((bit, child(black | 1 << bit, white)?)))
        .collect::<Option<_>>()?;
    let white_moves = bits(white_legal & empty)
        .map(|bit| Some((bit, child(black, white | 1 << bit)?)))
        .collect::<Option<_>>()?;
    Some(PartValue {
        value,
        black_moves,
        white_moves,
    })
}
