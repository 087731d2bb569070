//! The fitted table of learned NoGo move strengths (`nogo_gammas.txt`, see
//! `features`) and the strength of a move under it.
//!
//! The table is text: `#` lines (how it was made), then one line a level,
//! `GROUP LEVEL GAMMA`, with `shape CODE GAMMA` for the shapes it knows
//! (canonical codes in hexadecimal, see [`canonical_shape`]) and
//! `shape other GAMMA` for all the rest.

use std::sync::LazyLock;

use crate::board::{Point, Position};
use crate::go::gammas::into_chances;
use crate::search::domain::RecentMoves;

use super::features::{
    GROUP_NAMES, GROUPS, LEVELS, NogoFeatures, NogoRating, SHAPE, shape_symmetries,
};

/// The shipped table's text.
const TABLE: &str = include_str!("nogo_gammas.txt");

/// The shipped table, read once.
pub static NOGO_GAMMAS: LazyLock<NogoGammas> = LazyLock::new(|| {
    NogoGammas::parse(TABLE).unwrap_or_else(|line| panic!("nogo_gammas.txt line {line} is bad"))
});

/// Learned strengths: one per level of each group, and per known shape.
#[derive(Clone, Debug)]
pub struct NogoGammas {
    levels: [Vec<f32>; GROUPS],
    /// Every image of every known shape (the raw codes a position gives).
    shapes: ShapeTable,
    /// The strength of a shape not in `shapes`.
    other_shape: f32,
}

/// Shape codes and their gammas, open addressing with linear probing at a
/// load of at most a quarter: one or two probes, no pointer chasing (a
/// `HashMap`'s probing was a sixth of an expansion's time).
#[derive(Clone, Debug, Default)]
struct ShapeTable {
    /// (code, gamma) pairs; [`ShapeTable::FREE`] marks a free slot.
    slots: Vec<(u32, f32)>,
    len: usize,
}

impl ShapeTable {
    /// Not a shape code: no class is 15.
    const FREE: u32 = u32::MAX;

    fn slot(&self, code: u32) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (code.wrapping_mul(0x9e37_79b1) >> (32 - bits)) as usize
    }

    fn insert(&mut self, code: u32, gamma: f32) {
        if 4 * (self.len + 1) > self.slots.len() {
            let old = std::mem::take(&mut self.slots);
            self.slots = vec![(Self::FREE, 0.0); (old.len() * 2).max(64)];
            self.len = 0;
            for (code, gamma) in old.into_iter().filter(|&(c, _)| c != Self::FREE) {
                self.insert(code, gamma);
            }
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(code);
        while self.slots[i].0 != Self::FREE && self.slots[i].0 != code {
            i = (i + 1) & mask;
        }
        self.len += usize::from(self.slots[i].0 == Self::FREE);
        self.slots[i] = (code, gamma);
    }

    #[inline]
    fn get(&self, code: u32) -> Option<f32> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(code);
        loop {
            match self.slots[i] {
                (c, gamma) if c == code => return Some(gamma),
                (Self::FREE, _) => return None,
                _ => i = (i + 1) & mask,
            }
        }
    }
}

impl NogoGammas {
    /// A table from its text; on failure, the number of the first bad line.
    pub fn parse(text: &str) -> Result<NogoGammas, usize> {
        let mut table = NogoGammas {
            levels: LEVELS.map(|n| vec![1.0; n]),
            shapes: ShapeTable::default(),
            other_shape: 1.0,
        };
        for (k, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            table.read_line(line).ok_or(k + 1)?;
        }
        Ok(table)
    }

    /// Reads one `GROUP LEVEL GAMMA` line into the table.
    fn read_line(&mut self, line: &str) -> Option<()> {
        let mut words = line.split_whitespace();
        let (group, level, gamma) = (words.next()?, words.next()?, words.next()?);
        let gamma: f32 = gamma
            .parse()
            .ok()
            .filter(|g: &f32| *g > 0.0 && g.is_finite())?;
        if words.next().is_some() {
            return None;
        }
        let index = GROUP_NAMES.iter().position(|&name| name == group)?;
        if index == SHAPE {
            if level == "other" {
                self.other_shape = gamma;
            } else {
                let code = u32::from_str_radix(level.strip_prefix("0x")?, 16).ok()?;
                if code == ShapeTable::FREE {
                    return None;
                }
                for image in shape_symmetries(code) {
                    self.shapes.insert(image, gamma);
                }
            }
        } else {
            let level: usize = level.parse().ok()?;
            *self.levels[index].get_mut(level)? = gamma;
        }
        Some(())
    }

    /// A move's strength: the product of its levels' gammas.
    #[inline]
    pub fn strength(&self, features: &NogoFeatures) -> f32 {
        let shape = self.shapes.get(features[SHAPE]).unwrap_or(self.other_shape);
        (1..GROUPS).fold(shape, |product, group| {
            product * self.levels[group][features[group] as usize]
        })
    }
}

/// The chance the shipped table gives each legal move of the side to move
/// (its strength over the sum of all), likeliest first.
pub fn move_probabilities(position: &Position, recent: RecentMoves) -> Vec<(Point, f32)> {
    let rating = NogoRating::new(position, recent);
    let rated = position
        .legal_moves(position.to_move())
        .iter()
        .map(|p| (p, NOGO_GAMMAS.strength(&rating.features(position, p))))
        .collect();
    into_chances(rated)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GameKind;
    use crate::nogo::features::canonical_shape;

    #[test]
    fn a_table_rates_every_image_of_a_shape() {
        let code = 0x1111_1171;
        let text = format!(
            "# test\nshape 0x{:x} 4.0\nshape other 0.5\nreserve 1 0.25\n",
            canonical_shape(code)
        );
        let table = NogoGammas::parse(&text).expect("a valid table");
        let mut features = [0; GROUPS];
        for image in shape_symmetries(code) {
            features[SHAPE] = image;
            assert_eq!(table.strength(&features), 4.0);
        }
        features[SHAPE] = 0x1111_1111;
        assert_eq!(table.strength(&features), 0.5);
        for other in 0..5000u32 {
            features[SHAPE] = other.wrapping_mul(0x0123_4567) >> 1;
            let known = shape_symmetries(code).contains(&features[SHAPE]);
            assert_eq!(table.strength(&features), if known { 4.0 } else { 0.5 });
        }
        features[1] = 1;
        assert_eq!(table.strength(&features), 0.125);
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(NogoGammas::parse("reserve 7 1.0").err(), Some(1));
        assert_eq!(NogoGammas::parse("# x\nshape 0x1 -1").err(), Some(2));
        assert_eq!(NogoGammas::parse("colour 0 1.0").err(), Some(1));
    }

    #[test]
    fn the_shipped_table_reads() {
        assert!(NOGO_GAMMAS.shapes.len > 100);
    }

    #[test]
    fn filling_ones_own_eye_is_unlikely() {
        // A1 is Black's eye: White may not play there (suicide).
        let text = ". . . . .\n. . . . .\n. . . . .\nX . . . .\n. X . . .";
        let position = Position::from_text(text, GameKind::NoGo).expect("a position");
        let chances = move_probabilities(&position, RecentMoves::default());
        let eye = position.geometry().point_unchecked(0, 0);
        let (_, chance) = chances
            .iter()
            .find(|&&(p, _)| p == eye)
            .expect("A1 is legal");
        assert!(*chance < 0.5 / chances.len() as f32, "{chance}");
        let total: f32 = chances.iter().map(|&(_, c)| c).sum();
        assert!((total - 1.0).abs() < 1e-4);
    }
}
