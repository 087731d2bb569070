//! The solver's own board: one machine word of stones per side.
//!
//! A [`PointSet`] is a set of points as a `u64` or a `u128`, bit
//! `row * width + col`; [`BitBoard`] holds the masks of one board size and
//! answers every rule question with shifts and masks. Legality of every
//! point for both sides ([`Analysis`]) comes from one pass over the strings
//! (flood fills), or, for the look-ahead, from the strings of the parent
//! position updated by one stone ([`BitBoard::analyse_after`]).

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

use super::table::{KeptTable, Table};
use crate::board::{Color, Position};

/// `color`'s stones as a solver word (bit `row * width + col`).
pub(super) fn stones_word<S: PointSet>(position: &Position, color: Color) -> S {
    let geometry = position.geometry();
    position.stones(color).iter().fold(S::EMPTY, |bits, p| {
        let (col, row) = geometry.coords(p).expect("stones lie on the board");
        bits | S::point((row * geometry.width() + col) as u32)
    })
}

/// Adds a string's `liberties` to `atari` if it has one, else to `free`.
#[inline(always)]
fn add_liberty_class<S: PointSet>(liberties: S, atari: &mut S, free: &mut S) {
    if liberties.without_first() == S::EMPTY {
        *atari |= liberties;
    } else {
        *free |= liberties;
    }
}

/// A set of board points as one machine word, bit `row * width + col`.
pub(super) trait PointSet:
    Copy
    + Send
    + Sync
    + Eq
    + Ord
    + Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    const BITS: u32;
    /// 64-bit words in the word.
    const WORDS: usize;
    const EMPTY: Self;
    /// The set of the one point `index`.
    fn point(index: u32) -> Self;
    /// The set holding `value` in its lowest byte.
    fn from_byte(value: u8) -> Self;
    fn count(self) -> u32;
    /// Index of the lowest point; `BITS` for the empty set.
    fn first(self) -> u32;
    /// The lowest point alone (empty for the empty set).
    fn first_alone(self) -> Self;
    /// The set without its lowest point.
    fn without_first(self) -> Self;
    fn contains(self, index: u32) -> bool;
    /// Byte `k` of the word (bits `8k..8k+8`).
    fn byte(self, k: usize) -> usize;
    /// The word folded to 64 bits, for hashing.
    fn digest(self) -> u64;
    /// A bijective mix of the word's bits (see `Table`).
    fn scramble(self) -> Self;
    /// The word as `WORDS` 64-bit words, lowest first (the rest zero).
    fn to_u64s(self) -> [u64; 2];
    /// The word from `to_u64s`' output.
    fn from_u64s(words: [u64; 2]) -> Self;
    /// This word's table in `kept`, taken out (`None` if it holds none).
    fn take_table(kept: &mut KeptTable) -> Option<Table<Self>>;
    /// Puts this word's table into `kept`.
    fn keep_table(kept: &mut KeptTable, table: Table<Self>);
}

macro_rules! impl_point_set {
    ($word:ty, $slot:ident, $digest:expr, $multiplier:expr) => {
        impl PointSet for $word {
            const BITS: u32 = <$word>::BITS;
            const WORDS: usize = (<$word>::BITS / 64) as usize;
            const EMPTY: Self = 0;
            #[inline(always)]
            fn point(index: u32) -> Self {
                1 << index
            }
            #[inline(always)]
            fn from_byte(value: u8) -> Self {
                value.into()
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn first(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn first_alone(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn without_first(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn contains(self, index: u32) -> bool {
                self >> index & 1 == 1
            }
            #[inline(always)]
            fn byte(self, k: usize) -> usize {
                (self >> (8 * k)) as usize & 0xff
            }
            #[inline(always)]
            fn digest(self) -> u64 {
                $digest(self)
            }
            #[inline(always)]
            fn scramble(self) -> Self {
                let mixed = self.wrapping_mul($multiplier);
                mixed ^ (mixed >> (<$word>::BITS / 2))
            }
            #[inline(always)]
            fn to_u64s(self) -> [u64; 2] {
                [self as u64, (self >> 32 >> 32) as u64]
            }
            #[inline(always)]
            fn from_u64s(words: [u64; 2]) -> Self {
                (words[0] as $word) | ((words[1] as $word) << 32 << 32)
            }
            fn take_table(kept: &mut KeptTable) -> Option<Table<Self>> {
                kept.$slot.take()
            }
            fn keep_table(kept: &mut KeptTable, table: Table<Self>) {
                kept.$slot = Some(table);
            }
        }
    };
}

impl_point_set!(u64, small, |set: u64| set, 0x9E37_79B9_7F4A_7C15);
impl_point_set!(
    u128,
    large,
    |set: u128| set as u64 ^ ((set >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835
);

/// Board masks for one board size.
#[derive(Clone, Copy, Debug)]
pub(super) struct BitBoard<S> {
    pub(super) width: u32,
    pub(super) area: u32,
    /// Every point.
    pub(super) all: S,
    /// Points not in the rightmost column (may shift one place right).
    not_right: S,
    /// Points not in the leftmost column.
    not_left: S,
}

/// Legality of every point for both sides.
#[derive(Clone, Copy, Debug)]
pub(super) struct Analysis<S> {
    /// Points the side to move may play.
    pub legal_own: S,
    /// Points the other side may play.
    pub legal_other: S,
}

impl<S: PointSet> BitBoard<S> {
    /// Masks for a board of at most `S::BITS` points.
    pub(super) fn new(width: usize, height: usize) -> BitBoard<S> {
        let area = (width * height) as u32;
        let all = if area == S::BITS {
            !S::EMPTY
        } else {
            !(!S::EMPTY << area)
        };
        let mut left = S::EMPTY;
        for row in 0..height {
            left |= S::point((row * width) as u32);
        }
        let right = left << (width as u32 - 1);
        BitBoard {
            width: width as u32,
            area,
            all,
            not_right: all & !right,
            not_left: all & !left,
        }
    }

    /// Whether `own` and `other` are disjoint sets of this board's points.
    pub(super) fn holds(&self, own: S, other: S) -> bool {
        own & other == S::EMPTY && (own | other) & !self.all == S::EMPTY
    }

    /// Points orthogonally adjacent to some member of `set`.
    #[inline(always)]
    pub(super) fn neighbours(&self, set: S) -> S {
        (((set & self.not_right) << 1)
            | ((set & self.not_left) >> 1)
            | (set << self.width)
            | (set >> self.width))
            & self.all
    }

    /// The string of `stones` through the single point `seed`.
    #[inline(always)]
    fn string_of(&self, seed: S, stones: S) -> S {
        let mut string = seed;
        loop {
            let grown = (string | self.neighbours(string)) & stones;
            if grown == string {
                return string;
            }
            string = grown;
        }
    }

    /// For the strings of `stones`: the liberties of those in atari, and
    /// the liberties of those with two or more.
    #[inline(always)]
    fn liberty_classes(&self, stones: S, empty: S) -> (S, S) {
        let (mut atari, mut free) = (S::EMPTY, S::EMPTY);
        let mut rest = stones;
        while rest != S::EMPTY {
            let string = self.string_of(rest.first_alone(), stones);
            rest &= !string;
            add_liberty_class(self.neighbours(string) & empty, &mut atari, &mut free);
        }
        (atari, free)
    }

    /// Appends each string of `stones` to `out` with its liberties.
    #[inline(always)]
    pub(super) fn strings_with_liberties(&self, stones: S, empty: S, out: &mut Vec<(S, S)>) {
        let mut rest = stones;
        while rest != S::EMPTY {
            let string = self.string_of(rest.first_alone(), stones);
            rest &= !string;
            out.push((string, self.neighbours(string) & empty));
        }
    }

    /// [`BitBoard::analyse`] of the position after the side to move plays
    /// `stone` (legal for it), seen by the opponent, who moves next. Built
    /// from the strings of both sides before the move (`own_strings`,
    /// `other_strings`, as [`BitBoard::strings_with_liberties`] lists them)
    /// instead of flood-filling every string again: the move joins the own
    /// strings it touches and takes one liberty from the enemy strings it
    /// touches, and every other string keeps its liberties.
    #[inline(always)]
    pub(super) fn analyse_after(
        &self,
        own_strings: &[(S, S)],
        other_strings: &[(S, S)],
        empty: S,
        stone: S,
    ) -> Analysis<S> {
        let empty = empty & !stone;
        let near = self.neighbours(stone);
        let (mut own_atari, mut own_free) = (S::EMPTY, S::EMPTY);
        let mut joined = stone;
        for &(string, liberties) in own_strings {
            if string & near == S::EMPTY {
                add_liberty_class(liberties, &mut own_atari, &mut own_free);
            } else {
                joined |= string;
            }
        }
        add_liberty_class(
            self.neighbours(joined) & empty,
            &mut own_atari,
            &mut own_free,
        );
        let (mut other_atari, mut other_free) = (S::EMPTY, S::EMPTY);
        for &(_, liberties) in other_strings {
            add_liberty_class(liberties & !stone, &mut other_atari, &mut other_free);
        }
        let breathing = self.neighbours(empty);
        Analysis {
            legal_own: empty & (breathing | other_free) & !own_atari,
            legal_other: empty & (breathing | own_free) & !other_atari,
        }
    }

    /// Legal points of both sides. A move is legal when it has an empty
    /// neighbour or joins a friendly string with another liberty (not
    /// suicide), and is not the last liberty of an enemy string (no capture).
    #[inline(always)]
    pub(super) fn analyse(&self, own: S, other: S) -> Analysis<S> {
        let empty = self.all & !(own | other);
        let breathing = self.neighbours(empty);
        let (own_atari, own_free) = self.liberty_classes(own, empty);
        let (other_atari, other_free) = self.liberty_classes(other, empty);
        Analysis {
            legal_own: empty & (breathing | own_free) & !other_atari,
            legal_other: empty & (breathing | other_free) & !own_atari,
        }
    }

    /// An upper bound on the moves `mover` can still make, given its
    /// `legal` points now: a legal point stays legal at best, and in an
    /// empty region no stone of `mover` touches (walled by the opponent
    /// and the edge) the mover's stones would have no liberty outside, so
    /// it can fill all but one of the region's points.
    #[inline(always)]
    pub(super) fn move_bound(&self, legal: S, mover: S, other: S) -> u32 {
        let empty = self.all & !(mover | other);
        let mut bound = legal.count();
        let mut rest = legal & !self.neighbours(mover);
        while rest != S::EMPTY {
            let region = self.string_of(rest.first_alone(), empty);
            rest &= !region;
            if region & legal == region && region & self.neighbours(mover) == S::EMPTY {
                bound -= 1;
            }
        }
        bound
    }

    /// Moves `owner` can always make whatever happens: single-point eyes
    /// (every neighbour its stone) joined through its strings; a connected
    /// group of `k` such eyes gives `k - 1` (the last one is suicide).
    #[inline(always)]
    pub(super) fn eye_reserve(&self, owner: S, other: S) -> u32 {
        let empty = self.all & !(owner | other);
        let eyes = empty & !self.neighbours(empty | other) & self.neighbours(owner);
        if eyes.without_first() == S::EMPTY {
            return 0;
        }
        let mut reserve = 0;
        let mut rest = eyes;
        let body = owner | eyes;
        while rest != S::EMPTY {
            let group = self.string_of(rest.first_alone(), body);
            let count = (group & eyes).count();
            rest &= !group;
            reserve += count - 1;
        }
        reserve
    }
}
