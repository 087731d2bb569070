//! The competitions of a set of games (every move played against every
//! other candidate of its position), the spatial pattern dictionary they
//! are described with, and Coulom's minorization–maximization over them.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::thread;

use kosumi::board::{Color, LibertyMemo, Point, Position};
use kosumi::go::GoDomain;
use kosumi::go::checks::MoveChecks;
use kosumi::go::features::{
    DIAMOND, GROUPS, LEVELS, PATTERN_GROUPS, SHAPE, canonical_pattern, move_features,
};
use kosumi::go::gammas::{CodeHasher, GO_GAMMAS};
use kosumi::go::spatial::{RADIUS_MASK, SpatialWalk};
use kosumi::search::domain::Domain;

use crate::records::{Record, Seen};

/// A candidate's columns: its level in each feature group, then its
/// spatial pattern.
pub const COLUMNS: usize = GROUPS + 1;
/// The column of the spatial pattern: 0 for none, else 1 + its index in
/// the dictionary.
pub const SPATIAL: usize = GROUPS;

type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<CodeHasher>>;

/// Bits a packed candidate gives each column: a pattern column's raw
/// code, then its gamma index, fits 24; a dictionary level 18; a level 4.
const fn width(column: usize) -> u32 {
    if column == SPATIAL {
        18
    } else if column == SHAPE || column == DIAMOND {
        24
    } else {
        4
    }
}

/// A candidate's columns in 12 bytes (a plain array took 44 with the
/// shipped table's strength, which held the fit to 3,500 games in 12 GB).
#[derive(Clone, Copy)]
struct Packed([u32; 3]);

impl Packed {
    fn pack(columns: &[u32; COLUMNS]) -> Packed {
        let mut bits = 0u128;
        let mut shift = 0;
        for (column, &value) in columns.iter().enumerate() {
            assert!(
                value < 1 << width(column),
                "column {column} value {value} does not fit"
            );
            bits |= u128::from(value) << shift;
            shift += width(column);
        }
        Packed([bits as u32, (bits >> 32) as u32, (bits >> 64) as u32])
    }

    fn unpack(self) -> [u32; COLUMNS] {
        let [a, b, c] = self.0.map(u128::from);
        let mut bits = a | b << 32 | c << 64;
        std::array::from_fn(|column| {
            let value = (bits & ((1 << width(column)) - 1)) as u32;
            bits >>= width(column);
            value
        })
    }
}

/// The threads that read games and fit gammas.
fn threads() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work` on `items` split into one chunk a thread, in order.
fn in_chunks<T: Sync, R: Send>(items: &[T], work: impl Fn(&[T]) -> R + Sync) -> Vec<R> {
    let size = items.len().div_ceil(threads()).max(1);
    thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(size)
            .map(|chunk| scope.spawn(|| work(chunk)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker thread panicked"))
            .collect()
    })
}

/// Spatial patterns of moves played often enough, by key.
pub struct Dictionary {
    index: KeyMap<u32>,
    /// Radius and key of each entry, in index order.
    pub entries: Vec<(usize, u64)>,
}

impl Dictionary {
    /// The patterns of every radius around the moves played in `records`
    /// that were played at least `min_count` times. The keys are gathered
    /// in a list and sorted (a counting map of a hundred million mostly
    /// unique keys grew slowly and large).
    pub fn harvest(records: &[&Record], min_count: u32) -> Dictionary {
        let mut parts = in_chunks(records, |chunk| {
            let mut keys = Vec::new();
            for record in chunk {
                let replayed = record.replay(|s| {
                    keys.extend(SpatialWalk::new(s.position, s.played, s.color).map(|(_, k)| k));
                });
                replayed.expect("training records replay");
            }
            keys
        });
        let mut keys = parts.pop().unwrap_or_default();
        for part in parts {
            keys.extend(part);
        }
        keys.sort_unstable();
        let mut entries = Vec::new();
        for run in keys.chunk_by(|a, b| a == b) {
            if run.len() >= min_count as usize {
                entries.push(((run[0] & RADIUS_MASK) as usize, run[0]));
            }
        }
        drop(keys);
        entries.sort_unstable();
        let index = entries
            .iter()
            .enumerate()
            .map(|(i, &(_, key))| (key, i as u32))
            .collect();
        Dictionary { index, entries }
    }

    /// The column value of the largest pattern around `p` in the dictionary.
    fn level(&self, position: &Position, p: Point, mover: Color) -> u32 {
        let mut level = 0;
        for (_, key) in SpatialWalk::new(position, p, mover) {
            match self.index.get(&key) {
                Some(&i) => level = i + 1,
                None => break,
            }
        }
        level
    }
}

/// Competitions, with the candidates' columns as raw levels (pattern
/// codes canonical; once [`Data::densify`] ran, pattern gamma indices).
#[derive(Default)]
pub struct Data {
    candidates: Vec<Packed>,
    /// First gamma of each column but the patterns (see [`Layout::finish`]).
    offsets: [u32; COLUMNS],
    /// Where each position's candidates start (one extra at the end).
    starts: Vec<usize>,
    /// Index in `candidates` of the move played in each position.
    chosen: Vec<usize>,
    /// The shipped table's strength of every candidate, to judge it by
    /// (empty unless asked for).
    shipped: Vec<f32>,
    rate_shipped: bool,
    /// Games the competitions were drawn from.
    games: usize,
}

/// How well strengths predict the moves played.
pub struct Judgement {
    pub positions: usize,
    pub log_likelihood: f64,
    pub top1: f64,
    pub top5: f64,
}

impl Data {
    /// The competitions of one learned move in `every` of each of
    /// `records` (the first chosen by the game's length, so that the kept
    /// move numbers vary from game to game) that is one of the tree's
    /// candidates and has a rival; with `rate_shipped`, each candidate's
    /// strength under the shipped 9x9 table too.
    pub fn of(
        records: &[&Record],
        every: usize,
        dictionary: &Dictionary,
        rate_shipped: bool,
    ) -> Data {
        let every = every.max(1);
        let parts = in_chunks(records, |chunk| {
            let mut data = Data {
                starts: vec![0],
                rate_shipped,
                ..Data::default()
            };
            for record in chunk {
                let mut learned = record.length();
                let added = record.replay(|s| {
                    if learned.is_multiple_of(every) {
                        data.add(&s, dictionary);
                    }
                    learned += 1;
                });
                added.expect("training records replay");
            }
            data
        });
        let mut data = Data {
            starts: vec![0],
            rate_shipped,
            ..Data::default()
        };
        for part in parts {
            let base = data.candidates.len();
            data.starts
                .extend(part.starts[1..].iter().map(|&s| s + base));
            data.chosen.extend(part.chosen.iter().map(|&c| c + base));
            data.candidates.extend(part.candidates);
            data.shipped.extend(part.shipped);
        }
        data.games = records.len();
        data
    }

    fn add(&mut self, seen: &Seen<'_>, dictionary: &Dictionary) {
        let &Seen {
            position,
            played,
            color,
            recent,
        } = seen;
        let start = self.candidates.len();
        let mut chosen = None;
        let liberties = LibertyMemo::new(position);
        let open = position.is_open();
        // The tree's candidates; the replay has set `color` to move.
        for p in GoDomain::tree_points(position).iter() {
            if p == played {
                chosen = Some(self.candidates.len());
            }
            let checks = MoveChecks::new(position, p, color, &liberties);
            let features = move_features(&checks, recent, open);
            let mut columns = [0; COLUMNS];
            for g in 0..GROUPS {
                columns[g] = if PATTERN_GROUPS.contains(&g) {
                    canonical_pattern(g, features[g])
                } else {
                    features[g]
                };
            }
            columns[SPATIAL] = dictionary.level(position, p, color);
            self.candidates.push(Packed::pack(&columns));
            if self.rate_shipped {
                self.shipped.push(GO_GAMMAS.strength(&features));
            }
        }
        match chosen {
            Some(chosen) if self.candidates.len() - start > 1 => {
                self.starts.push(self.candidates.len());
                self.chosen.push(chosen);
            }
            _ => {
                self.candidates.truncate(start);
                self.shipped.truncate(start);
            }
        }
    }

    pub fn games(&self) -> usize {
        self.games
    }

    pub fn positions(&self) -> usize {
        self.chosen.len()
    }

    /// Where the move played of position `j` sits among its candidates.
    pub fn chosen_of(&self, j: usize) -> usize {
        self.chosen[j] - self.starts[j]
    }

    /// The candidates of position `j`, by index over all positions.
    pub fn range(&self, j: usize) -> std::ops::Range<usize> {
        self.starts[j]..self.starts[j + 1]
    }

    fn strength(&self, c: usize, gammas: &[f64]) -> f64 {
        self.columns(c)
            .iter()
            .map(|&i| gammas[i as usize])
            .product()
    }

    /// Replaces raw levels by gamma indices of `layout`, adding patterns it
    /// has not met.
    pub fn densify(&mut self, layout: &mut Layout) {
        for candidate in &mut self.candidates {
            *candidate = Packed::pack(&layout.dense(&candidate.unpack()));
        }
    }

    /// Replaces raw levels by gamma indices of the finished `layout`,
    /// without adding to it: a pattern it has not met becomes `unknown`.
    pub fn densify_known(&mut self, layout: &Layout, unknown: u32) {
        for candidate in &mut self.candidates {
            *candidate = Packed::pack(&layout.dense_known(&candidate.unpack(), unknown));
        }
        self.offsets = layout.offsets;
    }

    /// The gamma index of each column of candidate `c` (by index over all
    /// positions), once densified and the layout finished.
    pub fn columns(&self, c: usize) -> [u32; COLUMNS] {
        let mut columns = self.candidates[c].unpack();
        for (value, offset) in columns.iter_mut().zip(&self.offsets) {
            *value += offset;
        }
        columns
    }

    /// How often each gamma is a candidate's, and how often the chosen one's.
    pub fn tallies(&self, total: usize) -> (Vec<u32>, Vec<f64>) {
        let mut counts = vec![0u32; total];
        let mut wins = vec![0.0; total];
        for c in 0..self.candidates.len() {
            for i in self.columns(c) {
                counts[i as usize] += 1;
            }
        }
        for &c in &self.chosen {
            for i in self.columns(c) {
                wins[i as usize] += 1.0;
            }
        }
        (counts, wins)
    }

    pub fn judge(&self, gammas: &[f64]) -> Judgement {
        self.judge_by(|c| self.strength(c, gammas))
    }

    pub fn judge_shipped(&self) -> Judgement {
        self.judge_by(|c| f64::from(self.shipped[c]))
    }

    /// Mean log-likelihood of the moves played, and the share ranked first
    /// and within the first five (ties shared out evenly), under the
    /// strength of each candidate (by its index over all positions).
    pub fn judge_by(&self, strength: impl Fn(usize) -> f64 + Sync) -> Judgement {
        let positions: Vec<usize> = (0..self.positions()).collect();
        let sums = in_chunks(&positions, |chunk| {
            let mut sums = [0.0; 3];
            for &j in chunk {
                let chosen = strength(self.chosen[j]);
                let (mut total, mut stronger, mut equal) = (0.0, 0usize, 0usize);
                for c in self.range(j) {
                    let s = strength(c);
                    total += s;
                    stronger += usize::from(s > chosen);
                    equal += usize::from(s == chosen);
                }
                sums[0] += (chosen / total).ln();
                for (k, slots) in [(1, 1usize), (2, 5)] {
                    let free = slots.saturating_sub(stronger);
                    sums[k] += free.min(equal) as f64 / equal as f64;
                }
            }
            sums
        });
        let n = self.positions().max(1) as f64;
        let total = |k: usize| sums.iter().map(|s| s[k]).sum::<f64>() / n;
        Judgement {
            positions: self.positions(),
            log_likelihood: total(0),
            top1: total(1),
            top5: total(2),
        }
    }

    /// One MM update of every gamma in `column`, given each gamma's wins.
    pub fn update_column(&self, gammas: &mut [f64], column: usize, wins: &[f64]) {
        let positions: Vec<usize> = (0..self.positions()).collect();
        let parts = in_chunks(&positions, |chunk| {
            let mut denominators = vec![0.0; gammas.len()];
            let mut strengths = Vec::new();
            for &j in chunk {
                let range = self.range(j);
                strengths.clear();
                strengths.extend(range.clone().map(|c| self.strength(c, gammas)));
                let total: f64 = strengths.iter().sum();
                for (c, s) in range.zip(&strengths) {
                    let i = self.columns(c)[column] as usize;
                    denominators[i] += s / gammas[i] / total;
                }
            }
            denominators
        });
        let mut denominators = vec![0.0; gammas.len()];
        for part in parts {
            for (sum, d) in denominators.iter_mut().zip(part) {
                *sum += d;
            }
        }
        for (i, denominator) in denominators.into_iter().enumerate() {
            if denominator > 0.0 {
                // The prior: one win and one loss against a gamma of 1.
                let prior = 2.0 / (gammas[i] + 1.0);
                gammas[i] = (wins[i] + 1.0) / (denominator + prior);
            }
        }
    }
}

/// Where each level's gamma lies: pattern codes as they are met, then the
/// other groups' levels, then the spatial entries (0 = none).
pub struct Layout {
    patterns: HashMap<(usize, u32), u32>,
    /// Group and canonical code of each pattern gamma.
    pub pattern_codes: Vec<(usize, u32)>,
    /// First gamma of each column but the patterns; see `finish`.
    pub offsets: [u32; COLUMNS],
    spatial_entries: u32,
}

impl Layout {
    pub fn new(spatial_entries: usize) -> Layout {
        Layout {
            patterns: HashMap::new(),
            pattern_codes: Vec::new(),
            offsets: [0; COLUMNS],
            spatial_entries: spatial_entries as u32,
        }
    }

    /// `raw` with its pattern codes replaced by their gamma indices.
    fn dense(&mut self, raw: &[u32; COLUMNS]) -> [u32; COLUMNS] {
        std::array::from_fn(|column| {
            if PATTERN_GROUPS.contains(&column) {
                let next = self.pattern_codes.len() as u32;
                let codes = &mut self.pattern_codes;
                *self
                    .patterns
                    .entry((column, raw[column]))
                    .or_insert_with(|| {
                        codes.push((column, raw[column]));
                        next
                    })
            } else {
                raw[column]
            }
        })
    }

    /// `raw` with its pattern codes replaced by their gamma indices, a code
    /// this layout has not met by `unknown`.
    fn dense_known(&self, raw: &[u32; COLUMNS], unknown: u32) -> [u32; COLUMNS] {
        std::array::from_fn(|column| {
            if PATTERN_GROUPS.contains(&column) {
                self.patterns
                    .get(&(column, raw[column]))
                    .copied()
                    .unwrap_or(unknown)
            } else {
                raw[column]
            }
        })
    }

    /// Places the other columns after the patterns, in this layout and in
    /// every data set densified with it; returns the number of gammas.
    pub fn finish(&mut self, sets: &mut [&mut Data]) -> usize {
        let mut next = self.pattern_codes.len() as u32;
        for column in (0..COLUMNS).filter(|c| !PATTERN_GROUPS.contains(c)) {
            self.offsets[column] = next;
            next += self.count(column) as u32;
        }
        for data in sets.iter_mut() {
            data.offsets = self.offsets;
        }
        next as usize
    }

    fn count(&self, column: usize) -> usize {
        if column == SPATIAL {
            self.spatial_entries as usize + 1
        } else {
            LEVELS[column]
        }
    }

    /// The gamma indices of the levels of `column`.
    pub fn levels(&self, column: usize) -> std::ops::Range<usize> {
        let first = self.offsets[column] as usize;
        first..first + self.count(column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_candidate_keeps_every_column_up_to_its_width() {
        let widest: [u32; COLUMNS] = std::array::from_fn(|c| (1 << width(c)) - 1);
        assert_eq!(Packed::pack(&widest).unpack(), widest);
        let mixed: [u32; COLUMNS] = std::array::from_fn(|c| (c as u32 * 7 + 1) % (1 << width(c)));
        assert_eq!(Packed::pack(&mixed).unpack(), mixed);
        let total: u32 = (0..COLUMNS).map(width).sum();
        assert!(total <= 96, "{total} bits");
    }
}
