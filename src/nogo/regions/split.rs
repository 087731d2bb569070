//! Splitting a NoGo position into independent games.
//!
//! A point legal for neither side stays so for good (stones only come,
//! strings never gain liberties, and an illegal point's empty neighbours
//! only fill), so such *dead* points are never played; they are dropped,
//! but stay empty for the rules. The other (*live*) empty points are
//! joined when 4-adjacent, or when one string has liberties at both and
//! no dead liberty. Why the parts are independent: a point's legality
//! depends only on its empty neighbours and on the strings it touches;
//! a move changes only its own point and the strings it touches, so it
//! could only change a point of another part through a string touching
//! both, and such a string has a dead liberty: it never comes into atari
//! and always lends a joining stone a liberty, whatever is played.

use super::words::{Words, lowest};

/// One independent part of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component {
    /// Its live points.
    pub points: u128,
    /// The stones of the strings touching them.
    pub black: u128,
    pub white: u128,
    /// The points Black and White may play now.
    pub black_legal: u128,
    pub white_legal: u128,
}

impl Component {
    /// Points legal for either side.
    pub fn size(&self) -> u32 {
        self.points.count_ones()
    }

    /// Whether some point is legal for both sides: otherwise the part only
    /// holds free moves for one side.
    pub fn contested(&self) -> bool {
        self.black_legal & self.white_legal != 0
    }
}

/// A position cut into independent parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    pub components: Vec<Component>,
    /// Empty points legal for neither side.
    pub dead: u128,
}

impl Split {
    /// Parts where some point is legal for both sides.
    pub fn contested(&self) -> usize {
        self.components.iter().filter(|c| c.contested()).count()
    }

    /// Points of the largest part.
    pub fn largest(&self) -> u32 {
        self.components
            .iter()
            .map(Component::size)
            .max()
            .unwrap_or(0)
    }
}

/// Cuts the position of `black` and `white` stones into its parts.
pub(super) fn split(words: &Words, black: u128, white: u128) -> Split {
    let empty = words.all() & !(black | white);
    let (black_legal, white_legal) = words.legal(black, white, empty);
    let live = black_legal | white_legal;
    let dead = empty & !live;
    let mut components = Vec::new();
    let mut rest = live;
    while rest != 0 {
        let points = part_of(words, lowest(rest), live, black, white, dead);
        rest &= !points;
        let touching = words.neighbours(points);
        components.push(Component {
            points,
            black: words.flood(touching & black, black),
            white: words.flood(touching & white, white),
            black_legal: black_legal & points,
            white_legal: white_legal & points,
        });
    }
    Split { components, dead }
}

/// The live points joined to `seed`: grown through adjacent live points
/// and through the strings without a dead liberty, until nothing changes.
fn part_of(words: &Words, seed: u128, live: u128, black: u128, white: u128, dead: u128) -> u128 {
    let empty = live | dead;
    let mut points = seed;
    loop {
        let mut grown = words.flood(points, live);
        let mut strings = words.neighbours(grown) & (black | white);
        while strings != 0 {
            let stone = lowest(strings);
            let own = if stone & black != 0 { black } else { white };
            let string = words.flood(stone, own);
            strings &= !string;
            let liberties = words.neighbours(string) & empty;
            if liberties & dead == 0 {
                grown |= liberties;
            }
        }
        if grown == points {
            return points;
        }
        points = grown;
    }
}
