//! The competitions of a set of games (every move played against every
//! other candidate of its position), the spatial pattern dictionary they
//! are described with, and Coulom's minorization–maximization over them.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::thread;

use kosumi::board::{Color, LibertyMemo, Point, Position};
use kosumi::go::GoDomain;
use kosumi::go::checks::MoveChecks;
use kosumi::go::features::{GROUPS, LEVELS, PATTERN_GROUPS, canonical_pattern, move_features};
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
/// codes canonical) or, once [`Data::densify`] ran, as gamma indices.
#[derive(Default)]
pub struct Data {
    candidates: Vec<[u32; COLUMNS]>,
    /// Where each position's candidates start (one extra at the end).
    starts: Vec<usize>,
    /// Index in `candidates` of the move played in each position.
    chosen: Vec<usize>,
    /// The shipped table's strength of every candidate, to judge it by.
    shipped: Vec<f32>,
}

/// How well strengths predict the moves played.
pub struct Judgement {
    pub positions: usize,
    pub log_likelihood: f64,
    pub top1: f64,
    pub top5: f64,
}

impl Data {
    /// The competitions of every learned move of `records` that is one of
    /// the tree's candidates and has a rival.
    pub fn of(records: &[&Record], dictionary: &Dictionary) -> Data {
        let parts = in_chunks(records, |chunk| {
            let mut data = Data {
                starts: vec![0],
                ..Data::default()
            };
            for record in chunk {
                let added = record.replay(|s| data.add(&s, dictionary));
                added.expect("training records replay");
            }
            data
        });
        let mut data = Data {
            starts: vec![0],
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
            self.candidates.push(columns);
            self.shipped.push(GO_GAMMAS.strength(&features));
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

    pub fn positions(&self) -> usize {
        self.chosen.len()
    }

    fn range(&self, j: usize) -> std::ops::Range<usize> {
        self.starts[j]..self.starts[j + 1]
    }

    fn strength(&self, c: usize, gammas: &[f64]) -> f64 {
        self.candidates[c]
            .iter()
            .map(|&i| gammas[i as usize])
            .product()
    }

    /// Replaces raw levels by gamma indices of `layout`, adding patterns it
    /// has not met.
    pub fn densify(&mut self, layout: &mut Layout) {
        for candidate in &mut self.candidates {
            *candidate = layout.dense(candidate);
        }
    }

    /// How often each gamma is a candidate's, and how often the chosen one's.
    pub fn tallies(&self, total: usize) -> (Vec<u32>, Vec<f64>) {
        let mut counts = vec![0u32; total];
        let mut wins = vec![0.0; total];
        for candidate in &self.candidates {
            for &i in candidate {
                counts[i as usize] += 1;
            }
        }
        for &c in &self.chosen {
            for &i in &self.candidates[c] {
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
    /// and within the first five (ties shared out evenly).
    fn judge_by(&self, strength: impl Fn(usize) -> f64 + Sync) -> Judgement {
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
                    let i = self.candidates[c][column] as usize;
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
    /// First gamma of each column once patterns are placed; see `finish`.
    pub offsets: [u32; COLUMNS],
    spatial_entries: u32,
}

/// Offsets of the fixed columns before the pattern count is known.
const PROVISIONAL: u32 = 1 << 30;

impl Layout {
    pub fn new(spatial_entries: usize) -> Layout {
        let mut offsets = [0; COLUMNS];
        let mut next = PROVISIONAL;
        for (column, offset) in offsets.iter_mut().enumerate() {
            *offset = next;
            next += if column == SPATIAL {
                spatial_entries as u32 + 1
            } else {
                LEVELS[column] as u32
            };
        }
        Layout {
            patterns: HashMap::new(),
            pattern_codes: Vec::new(),
            offsets,
            spatial_entries: spatial_entries as u32,
        }
    }

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
                self.offsets[column] + raw[column]
            }
        })
    }

    /// Moves the fixed columns to just after the patterns, in every data
    /// set densified with this layout; returns the number of gammas.
    pub fn finish(&mut self, sets: &mut [&mut Data]) -> usize {
        let patterns = self.pattern_codes.len() as u32;
        for data in sets.iter_mut() {
            for candidate in &mut data.candidates {
                for i in candidate.iter_mut().filter(|i| **i >= PROVISIONAL) {
                    *i = *i - PROVISIONAL + patterns;
                }
            }
        }
        for offset in self.offsets.iter_mut() {
            *offset = offset.saturating_sub(PROVISIONAL) + patterns;
        }
        self.offsets[SPATIAL] as usize + self.spatial_entries as usize + 1
    }

    /// The gamma indices of the levels of `column`.
    pub fn levels(&self, column: usize) -> std::ops::Range<usize> {
        let first = self.offsets[column] as usize;
        let count = if column == SPATIAL {
            self.spatial_entries as usize + 1
        } else {
            LEVELS[column]
        };
        first..first + count
    }
}
