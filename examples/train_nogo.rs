//! Fits the gammas of `kosumi::nogo::features` to labelled NoGo positions
//! with Coulom's minorization–maximization (MM) for Bradley–Terry teams,
//! and writes the table `kosumi::nogo::gammas` reads.
//!
//!     cargo run --release --example train_nogo -- [OPTIONS] OUT.txt LABELS...
//!
//! A labels file has one position a line, `SIZE<TAB>MOVES<TAB>LABEL`
//! (scripts/nogo_labels.py writes them): the moves from the empty board,
//! Black first, and the move chosen there. Each line is one competition:
//! the label wins against every other legal move. A move's team is its
//! level in each group and its canonical shape if that shape was chosen at
//! least `--min-count` times in the training lines (else "other").
//!
//! Positions whose first `--game-prefix` moves hash into the held-out
//! tenth are held out (so most positions of one game fall on one side);
//! the figures are the mean log-likelihood of the label (log-evidence) and
//! how often it ranks first and in the first five. Each gamma starts with
//! one virtual win and one virtual loss against a gamma of 1.

use std::collections::HashMap;
use std::error::Error;
use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};

use kosumi::board::vertex::{Vertex, parse_vertex};
use kosumi::board::{Color, GameKind, Geometry, Point, Position};
use kosumi::nogo::features::{
    GROUP_NAMES, GROUPS, LEVELS, NogoFeatures, NogoRating, SHAPE, canonical_shape,
};
use kosumi::search::domain::RecentMoves;

/// One labelled position: every legal move's features, the label's index.
struct Competition {
    moves: Vec<NogoFeatures>,
    winner: usize,
}

/// Command-line options.
struct Args {
    out: String,
    inputs: Vec<String>,
    min_count: usize,
    sweeps: usize,
    game_prefix: usize,
    note: String,
}

fn parse_args() -> Result<Args, Box<dyn Error>> {
    let mut args = Args {
        out: String::new(),
        inputs: Vec::new(),
        min_count: 3,
        sweeps: 20,
        game_prefix: 8,
        note: String::new(),
    };
    let mut words = std::env::args().skip(1);
    let mut files = Vec::new();
    while let Some(word) = words.next() {
        let mut value = || words.next().ok_or(format!("{word} needs a value"));
        match word.as_str() {
            "--min-count" => args.min_count = value()?.parse()?,
            "--sweeps" => args.sweeps = value()?.parse()?,
            "--game-prefix" => args.game_prefix = value()?.parse()?,
            "--note" => args.note = value()?,
            _ => files.push(word),
        }
    }
    if files.len() < 2 {
        return Err("usage: train_nogo [OPTIONS] OUT.txt LABELS...".into());
    }
    args.out = files.remove(0);
    args.inputs = files;
    Ok(args)
}

/// The competition of one labels line, and whether it is held out.
fn competition(line: &str, game_prefix: usize) -> Result<(Competition, bool), Box<dyn Error>> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [size, moves, label] = fields[..] else {
        return Err(format!("not SIZE, MOVES, LABEL: {line}").into());
    };
    let geometry = Geometry::square(size.parse()?)?;
    let mut position = Position::new(geometry, GameKind::NoGo);
    let mut recent = RecentMoves::default();
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let mut color = Color::Black;
    for text in &moves {
        let p = point(geometry, text)?;
        position.check_move(p, color)?;
        position.play(p, color);
        recent = RecentMoves {
            last: Some(p),
            before_last: recent.last,
        };
        color = color.opponent();
    }
    let label = point(geometry, label)?;
    let rating = NogoRating::new(&position, recent);
    let legal: Vec<Point> = position.legal_moves(color).iter().collect();
    let winner = legal
        .iter()
        .position(|&p| p == label)
        .ok_or(format!("label {label:?} not legal in {line}"))?;
    let moves_features = legal
        .iter()
        .map(|&p| rating.features(&position, p))
        .collect();
    let mut hasher = DefaultHasher::new();
    moves[..moves.len().min(game_prefix)].hash(&mut hasher);
    let held_out = hasher.finish().is_multiple_of(10);
    Ok((
        Competition {
            moves: moves_features,
            winner,
        },
        held_out,
    ))
}

fn point(geometry: Geometry, text: &str) -> Result<Point, Box<dyn Error>> {
    match parse_vertex(text, geometry.width(), geometry.height())? {
        Vertex::Point { col, row } => Ok(geometry.point(col, row)?),
        Vertex::Pass => Err(format!("not a point: {text}").into()),
    }
}

/// Global feature indices: the kept shapes, "other", then each group's levels.
struct Layout {
    shapes: HashMap<u32, usize>,
    offsets: [usize; GROUPS],
    total: usize,
}

impl Layout {
    fn new(train: &[Competition], min_count: usize) -> Layout {
        let mut counts: HashMap<u32, usize> = HashMap::new();
        for c in train {
            *counts
                .entry(canonical_shape(c.moves[c.winner][SHAPE]))
                .or_default() += 1;
        }
        let mut kept: Vec<u32> = counts
            .into_iter()
            .filter(|&(_, n)| n >= min_count)
            .map(|(code, _)| code)
            .collect();
        kept.sort_unstable();
        let shapes: HashMap<u32, usize> = kept.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let mut offsets = [0; GROUPS];
        let mut total = shapes.len() + 1;
        for group in 1..GROUPS {
            offsets[group] = total;
            total += LEVELS[group];
        }
        Layout {
            shapes,
            offsets,
            total,
        }
    }

    /// A move's team: one global index per group.
    fn team(&self, features: &NogoFeatures) -> [usize; GROUPS] {
        let mut team = [0; GROUPS];
        let canonical = canonical_shape(features[SHAPE]);
        team[SHAPE] = self
            .shapes
            .get(&canonical)
            .copied()
            .unwrap_or(self.shapes.len());
        for group in 1..GROUPS {
            team[group] = self.offsets[group] + features[group] as usize;
        }
        team
    }
}

/// Competitions as teams of global indices.
struct Teams {
    moves: Vec<Vec<[usize; GROUPS]>>,
    winners: Vec<usize>,
}

fn teams(layout: &Layout, competitions: &[Competition]) -> Teams {
    Teams {
        moves: competitions
            .iter()
            .map(|c| c.moves.iter().map(|f| layout.team(f)).collect())
            .collect(),
        winners: competitions.iter().map(|c| c.winner).collect(),
    }
}

fn strength(gammas: &[f64], team: &[usize; GROUPS]) -> f64 {
    team.iter().map(|&i| gammas[i]).product()
}

/// One MM update of every gamma of `group` (only its indices have
/// wins or denominators).
fn mm_group(gammas: &mut [f64], data: &Teams, group: usize) {
    let mut wins = vec![0.0; gammas.len()];
    let mut denominators = vec![0.0; gammas.len()];
    for (moves, &winner) in data.moves.iter().zip(&data.winners) {
        let total: f64 = moves.iter().map(|t| strength(gammas, t)).sum();
        for team in moves {
            let i = team[group];
            denominators[i] += strength(gammas, team) / gammas[i] / total;
        }
        wins[moves[winner][group]] += 1.0;
    }
    for i in 0..gammas.len() {
        if denominators[i] > 0.0 {
            // Coulom's prior: a virtual win and a virtual loss against a gamma of 1.
            gammas[i] = (wins[i] + 1.0) / (denominators[i] + 2.0 / (gammas[i] + 1.0));
        }
    }
}

/// Top-1 and top-5 rates and the mean log-evidence of the labels.
struct Judgement {
    positions: usize,
    top1: f64,
    top5: f64,
    log_evidence: f64,
}

fn judge(gammas: &[f64], data: &Teams) -> Judgement {
    let (mut top1, mut top5, mut log_evidence) = (0, 0, 0.0);
    for (moves, &winner) in data.moves.iter().zip(&data.winners) {
        let strengths: Vec<f64> = moves.iter().map(|t| strength(gammas, t)).collect();
        let best = strengths[winner];
        let above = strengths.iter().filter(|&&s| s > best).count();
        top1 += usize::from(above == 0);
        top5 += usize::from(above < 5);
        log_evidence += (best / strengths.iter().sum::<f64>()).ln();
    }
    let n = data.winners.len().max(1) as f64;
    Judgement {
        positions: data.winners.len(),
        top1: top1 as f64 / n,
        top5: top5 as f64 / n,
        log_evidence: log_evidence / n,
    }
}

fn describe(label: &str, j: &Judgement) -> String {
    format!(
        "{label}: {} positions, top-1 {:.2}%, top-5 {:.2}%, log-evidence {:.4}",
        j.positions,
        100.0 * j.top1,
        100.0 * j.top5,
        j.log_evidence
    )
}

fn write_table(args: &Args, layout: &Layout, gammas: &[f64], figures: &[String]) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Learned NoGo move strengths (kosumi::nogo::features), fitted by MM with"
    );
    let _ = writeln!(
        text,
        "# `cargo run --release --example train_nogo -- --min-count {} --sweeps {} --game-prefix {}`.",
        args.min_count, args.sweeps, args.game_prefix
    );
    for line in args.note.lines() {
        let _ = writeln!(text, "# {line}");
    }
    for figure in figures {
        let _ = writeln!(text, "# {figure}");
    }
    let mut shapes: Vec<(&u32, &usize)> = layout.shapes.iter().collect();
    shapes.sort_unstable();
    for (code, &i) in shapes {
        let _ = writeln!(text, "shape 0x{code:x} {:.5}", gammas[i]);
    }
    let _ = writeln!(text, "shape other {:.5}", gammas[layout.shapes.len()]);
    for group in 1..GROUPS {
        for level in 0..LEVELS[group] {
            let i = layout.offsets[group] + level;
            let _ = writeln!(text, "{} {level} {:.5}", GROUP_NAMES[group], gammas[i]);
        }
    }
    text
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = parse_args()?;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for input in &args.inputs {
        for line in std::fs::read_to_string(input)?.lines() {
            if line.trim().is_empty() {
                continue;
            }
            let (c, held_out) = competition(line, args.game_prefix)?;
            if held_out {
                held.push(c)
            } else {
                train.push(c)
            }
        }
    }
    let layout = Layout::new(&train, args.min_count);
    eprintln!(
        "{} training positions, {} held out, {} shapes kept",
        train.len(),
        held.len(),
        layout.shapes.len()
    );
    let (train, held) = (teams(&layout, &train), teams(&layout, &held));
    let mut gammas = vec![1.0; layout.total];
    for sweep in 0..args.sweeps {
        for group in 0..GROUPS {
            mm_group(&mut gammas, &train, group);
        }
        eprintln!(
            "sweep {}: {}",
            sweep + 1,
            describe("held out", &judge(&gammas, &held))
        );
    }
    let figures = [
        describe("training", &judge(&gammas, &train)),
        describe("held out", &judge(&gammas, &held)),
    ];
    for figure in &figures {
        println!("{figure}");
    }
    std::fs::write(&args.out, write_table(&args, &layout, &gammas, &figures))?;
    Ok(())
}
