//! Fits the gammas of `kosumi::go::features` to game records, with
//! Coulom's minorization–maximization (MM) for Bradley–Terry teams.
//!
//!     cargo run --release --example train_features -- [--note TEXT] [--player NAME] OUT.txt SGF_OR_DIR...
//!
//! `--note` adds a line on where the games came from to the table's header.
//! `--player NAME` learns only the moves of the side whose player name
//! (`PB` or `PW`) contains NAME, such as the stronger engine of a match;
//! the other side's moves are replayed but not learned.
//! Every move of every game is one competition: the move played wins
//! against all the other legal moves Kosumi's tree would consider (not
//! filling its own eye). A move's team is its level in each feature group.
//! Every tenth game is held out, and the fit is judged on it: the mean
//! log-likelihood of the move played and how often it ranks first.
//!
//! Each gamma starts with Coulom's prior, one virtual win and one virtual
//! loss against a gamma of 1, so rare levels stay near 1 (the strength of
//! an unseen shape). Level 0 of every group but the patterns means "none" and
//! stays 1, which fixes the scale of each group.

use std::collections::HashMap;
use std::error::Error;
use std::fs;

use kosumi::board::{Cell, Color, GameKind, Geometry, LibertyMemo, Point, Position};
use kosumi::go::checks::MoveChecks;
use kosumi::go::features::{
    Features, GO_GAMMAS, GROUP_NAMES, GROUPS, LEVELS, PATTERN_GROUPS, canonical_pattern,
    move_features,
};
use kosumi::record::sgf;
use kosumi::search::domain::RecentMoves;

/// Sweeps of MM over every group.
const SWEEPS: usize = 25;
/// One game in this many is held out for validation.
const HOLD_OUT_EVERY: usize = 10;
/// Patterns seen fewer times than this among candidates are not written
/// (they keep the default gamma 1).
const MIN_PATTERN_COUNT: u32 = 3;

/// The competitions of a set of games, with every level as a dense index.
#[derive(Default)]
struct Data {
    /// Dense feature indices of every candidate, position after position.
    candidates: Vec<[u32; GROUPS]>,
    /// Where each position's candidates start in `candidates` (one extra at the end).
    starts: Vec<usize>,
    /// Index in `candidates` of the move played in each position.
    chosen: Vec<usize>,
    /// The shipped table's strength of every candidate, to judge it by.
    shipped: Vec<f64>,
}

/// Maps levels to dense gamma indices: patterns by group and canonical
/// code as they are met, the other groups' levels after them.
#[derive(Default)]
struct Index {
    patterns: HashMap<(usize, u32), u32>,
    /// Group and canonical code of each dense pattern index.
    pattern_codes: Vec<(usize, u32)>,
}

impl Index {
    fn dense(&mut self, features: &Features, offsets: &[u32; GROUPS]) -> [u32; GROUPS] {
        std::array::from_fn(|g| {
            if PATTERN_GROUPS.contains(&g) {
                let key = (g, canonical_pattern(g, features[g]));
                let next = self.pattern_codes.len() as u32;
                *self.patterns.entry(key).or_insert_with(|| {
                    self.pattern_codes.push(key);
                    next
                })
            } else {
                offsets[g] + features[g]
            }
        })
    }
}

/// Replays one game, adding a competition for every move played that is
/// one of the tree's candidates. Stops at the first move it cannot play.
fn add_game(
    text: &str,
    player: Option<&str>,
    data: &mut Data,
    index: &mut Index,
    offsets: &[u32; GROUPS],
) -> Result<(), Box<dyn Error>> {
    let collection = sgf::parse(text)?;
    let Some(tree) = collection.games.first() else {
        return Ok(());
    };
    let nodes = tree.main_line();
    let Some(root) = nodes.first() else {
        return Ok(());
    };
    let (width, height) = sgf::board_size(root)?;
    let learns = |color: Color| {
        let id = if color == Color::Black { "PB" } else { "PW" };
        player.is_none_or(|name| root.first(id).is_some_and(|p| p.contains(name)))
    };
    let geometry = Geometry::new(width, height)?;
    let mut position = Position::new(geometry, GameKind::Go);
    let point = |(x, y): (usize, usize)| geometry.point(x, height - 1 - y);
    for (id, color) in [("AB", Color::Black), ("AW", Color::White)] {
        if let Some(values) = root.get(id) {
            for xy in sgf::decode_point_list(values, width, height)? {
                position.place_setup_stone(point(xy)?, color)?;
            }
        }
    }
    let mut recent = RecentMoves::default();
    for node in &nodes {
        for (id, color) in [("B", Color::Black), ("W", Color::White)] {
            let Some(value) = node.first(id) else {
                continue;
            };
            position.set_to_move(color);
            let Some(xy) = sgf::decode_point(value, width, height)? else {
                position.pass();
                recent = RecentMoves {
                    last: None,
                    before_last: recent.last,
                };
                continue;
            };
            let played = point(xy)?;
            if position.check_move(played, color).is_err() {
                return Ok(());
            }
            if learns(color) {
                add_position(&position, played, color, recent, data, index, offsets);
            }
            position.play(played, color);
            recent = RecentMoves {
                last: Some(played),
                before_last: recent.last,
            };
        }
    }
    Ok(())
}

/// Adds the competition of `color` playing `played` in `position`: every
/// candidate the tree would consider, with the move played marked, unless
/// the move played is not among them or has no rival.
fn add_position(
    position: &Position,
    played: Point,
    color: Color,
    recent: RecentMoves,
    data: &mut Data,
    index: &mut Index,
    offsets: &[u32; GROUPS],
) {
    let start = data.candidates.len();
    let mut chosen = None;
    let liberties = LibertyMemo::new(position);
    let open = position.is_open();
    for &p in position.empty_points() {
        let p = Point(p);
        if position.cell(p) != Cell::Empty
            || !position.is_legal_empty(p, color)
            || position.is_eye(p, color)
        {
            continue;
        }
        if p == played {
            chosen = Some(data.candidates.len());
        }
        let checks = MoveChecks::new(position, p, color, &liberties);
        let features = move_features(&checks, recent, open);
        data.candidates.push(index.dense(&features, offsets));
        data.shipped.push(f64::from(GO_GAMMAS.strength(&features)));
    }
    match chosen {
        Some(chosen) if data.candidates.len() - start > 1 => {
            data.starts.push(start);
            data.chosen.push(chosen);
        }
        _ => {
            data.candidates.truncate(start);
            data.shipped.truncate(start);
        }
    }
}

impl Data {
    fn positions(&self) -> usize {
        self.chosen.len()
    }

    fn range(&self, j: usize) -> std::ops::Range<usize> {
        self.starts[j]
            ..self
                .starts
                .get(j + 1)
                .copied()
                .unwrap_or(self.candidates.len())
    }

    fn strength(&self, c: usize, gammas: &[f64]) -> f64 {
        self.candidates[c]
            .iter()
            .map(|&i| gammas[i as usize])
            .product()
    }

    /// Mean log-likelihood of the moves played, and the share ranked first
    /// (a tie for first counting as a share of one).
    fn judge(&self, gammas: &[f64]) -> (f64, f64) {
        self.judge_by(|c| self.strength(c, gammas))
    }

    /// [`Data::judge`] with the strength of each candidate from `strength`.
    fn judge_by(&self, strength: impl Fn(usize) -> f64) -> (f64, f64) {
        let mut log_likelihood = 0.0;
        let mut first = 0.0;
        for j in 0..self.positions() {
            let chosen = strength(self.chosen[j]);
            let mut total = 0.0;
            let mut stronger = 0;
            let mut equal = 0;
            for c in self.range(j) {
                let s = strength(c);
                total += s;
                stronger += usize::from(s > chosen);
                equal += usize::from(s == chosen);
            }
            log_likelihood += (chosen / total).ln();
            if stronger == 0 {
                first += 1.0 / equal as f64;
            }
        }
        let n = self.positions().max(1) as f64;
        (log_likelihood / n, first / n)
    }
}

/// One MM update of every gamma in `group`.
fn update_group(data: &Data, gammas: &mut [f64], group: usize, wins: &[f64]) {
    let mut denominators = vec![0.0; gammas.len()];
    for j in 0..data.positions() {
        let range = data.range(j);
        let strengths: Vec<f64> = range.clone().map(|c| data.strength(c, gammas)).collect();
        let total: f64 = strengths.iter().sum();
        for (c, s) in range.zip(strengths) {
            let i = data.candidates[c][group] as usize;
            denominators[i] += s / gammas[i] / total;
        }
    }
    let members: Vec<usize> = (0..data.candidates.len())
        .map(|c| data.candidates[c][group] as usize)
        .collect();
    let mut seen = vec![false; gammas.len()];
    for i in members {
        if seen[i] {
            continue;
        }
        seen[i] = true;
        // The prior: one win and one loss against a gamma of 1.
        let prior = 2.0 / (gammas[i] + 1.0);
        gammas[i] = (wins[i] + 1.0) / (denominators[i] + prior);
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut note = None;
    let mut player = None;
    while args.len() > 1 && matches!(args[0].as_str(), "--note" | "--player") {
        let value = args.remove(1);
        match args.remove(0).as_str() {
            "--note" => note = Some(value),
            _ => player = Some(value),
        }
    }
    let [out, inputs @ ..] = &args[..] else {
        return Err(
            "usage: train_features [--note TEXT] [--player NAME] OUT.txt SGF_OR_DIR...".into(),
        );
    };
    let files = sgf::files_under(inputs)?;
    // Patterns take dense indices from 0; the other groups' levels come
    // after all patterns, so their offsets are fixed once the data is read.
    // Read with provisional offsets past any pattern index, then shift.
    const PROVISIONAL: u32 = 1 << 28;
    let mut offsets = [0u32; GROUPS];
    let mut next = PROVISIONAL;
    for g in 0..GROUPS {
        offsets[g] = next;
        next += LEVELS[g] as u32;
    }
    let mut index = Index::default();
    let mut train = Data::default();
    let mut held_out = Data::default();
    for (k, file) in files.iter().enumerate() {
        let text = fs::read_to_string(file)?;
        let data = if k % HOLD_OUT_EVERY == 0 {
            &mut held_out
        } else {
            &mut train
        };
        if let Err(e) = add_game(&text, player.as_deref(), data, &mut index, &offsets) {
            eprintln!("{}: {e}", file.display());
        }
    }
    let patterns = index.pattern_codes.len() as u32;
    for data in [&mut train, &mut held_out] {
        for candidate in &mut data.candidates {
            for i in candidate.iter_mut().filter(|i| **i >= PROVISIONAL) {
                *i = *i - PROVISIONAL + patterns;
            }
        }
    }
    for offset in offsets.iter_mut() {
        *offset = *offset - PROVISIONAL + patterns;
    }
    let total = (patterns + next - PROVISIONAL) as usize;
    eprintln!(
        "{} games, {} training positions, {} held out, {} patterns",
        files.len(),
        train.positions(),
        held_out.positions(),
        patterns
    );

    let mut wins = vec![0.0; total];
    let mut counts = vec![0u32; total];
    for &c in &train.chosen {
        for &i in &train.candidates[c] {
            wins[i as usize] += 1.0;
        }
    }
    for candidate in &train.candidates {
        for &i in candidate {
            counts[i as usize] += 1;
        }
    }
    let mut gammas = vec![1.0; total];
    let (ll, first) = held_out.judge(&gammas);
    eprintln!("uniform: held-out log-likelihood {ll:.4}, first {first:.4}");
    let (ll, first) = held_out.judge_by(|c| held_out.shipped[c]);
    eprintln!("shipped table: held-out log-likelihood {ll:.4}, first {first:.4}");
    for sweep in 0..SWEEPS {
        for g in 0..GROUPS {
            // Level 0 of the other groups stays 1: mark it as never won
            // by restoring it after the update.
            update_group(&train, &mut gammas, g, &wins);
            if !PATTERN_GROUPS.contains(&g) {
                let none = offsets[g] as usize;
                let scale = gammas[none];
                for level in 0..LEVELS[g] {
                    gammas[none + level] /= scale;
                }
            }
        }
        let (ll, first) = held_out.judge(&gammas);
        eprintln!("sweep {sweep}: held-out log-likelihood {ll:.4}, first {first:.4}");
    }

    let mut table = String::new();
    table.push_str(&format!(
        "# Bradley-Terry gammas of kosumi::go::features, fitted by\n\
         # examples/train_features.rs on {} positions ({} games).\n\
         # group level gamma; pattern levels are canonical codes in hex.\n",
        train.positions() + held_out.positions(),
        files.len()
    ));
    if let Some(note) = note {
        table.push_str(&format!("# Games: {note}\n"));
    }
    let (ll, first) = held_out.judge(&gammas);
    table.push_str(&format!(
        "# Held-out games: log-likelihood {ll:.4} a move, first choice {first:.4}.\n\
         shape default 1\n\
         diamond default 1\n"
    ));
    let mut pattern_lines: Vec<((usize, u32), f64)> = (0..patterns as usize)
        .filter(|&i| counts[i] >= MIN_PATTERN_COUNT)
        .map(|i| (index.pattern_codes[i], gammas[i]))
        .collect();
    pattern_lines.sort_by_key(|&(key, _)| key);
    for ((g, code), gamma) in pattern_lines {
        table.push_str(&format!("{} {code:x} {gamma:.4}\n", GROUP_NAMES[g]));
    }
    for g in (0..GROUPS).filter(|g| !PATTERN_GROUPS.contains(g)) {
        for level in 1..LEVELS[g] {
            let i = offsets[g] as usize + level;
            table.push_str(&format!("{} {level} {:.4}\n", GROUP_NAMES[g], gammas[i]));
        }
    }
    fs::write(out, table)?;
    Ok(())
}
