//! Fits the gammas of `kosumi::go::features` and the spatial patterns of
//! `kosumi::go::spatial` to game records, with Coulom's
//! minorization–maximization (MM) for Bradley–Terry teams.
//!
//!     cargo run --release --example train_features -- [OPTIONS] OUT.txt INPUT...
//!
//! Inputs are SGF files, folders of them, or Tygem archives (`.zip`, one
//! game a line; see `records`). Every move played is one competition: it
//! wins against all the other legal moves Kosumi's tree would consider
//! (not filling its own eye). A move's team is its level in each feature
//! group and its largest spatial pattern in the dictionary, which holds
//! the patterns around moves played at least `--min-count` times in the
//! harvested games.
//!
//! The fit is judged on held-out games: `--held-out LABEL=PATH` (any
//! number of sets), else every tenth game. The figures are the mean
//! log-likelihood of the move played (log-evidence) and how often it ranks
//! first and in the first five.
//!
//! Each gamma starts with Coulom's prior, one virtual win and one virtual
//! loss against a gamma of 1, so rare levels stay near 1. Level 0 of every
//! group but the 3x3 and diamond patterns means "none" and stays 1, which
//! fixes the scale of each group.

mod data;
mod factor;
mod records;

use std::collections::HashSet;
use std::error::Error;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use kosumi::go::features::{GROUP_NAMES, GROUPS, PATTERN_GROUPS};

use data::{COLUMNS, Data, Dictionary, Judgement, Layout, SPATIAL};
use factor::{Factored, Schedule};
use records::{Record, read_all, spread};

/// Patterns seen fewer times than this among candidates are not written
/// (they keep the default gamma 1).
const MIN_PATTERN_COUNT: u32 = 3;

#[derive(Parser)]
#[command(about = "Fits Kosumi's Go move features to game records")]
struct Args {
    /// A line on where the games came from, for the table's header.
    #[arg(long)]
    note: Option<String>,
    /// Learn only the moves of the side whose SGF player name contains this.
    #[arg(long)]
    player: Option<String>,
    /// Training games to fit the gammas on, spread over the inputs (0: all).
    #[arg(long, default_value_t = 0)]
    fit_games: usize,
    /// Keep one learned move in this many of each fitting (and streamed)
    /// game: more games in the same memory (held-out games keep every move).
    #[arg(long, default_value_t = 1)]
    every: usize,
    /// Training games to harvest spatial patterns from (0: all).
    #[arg(long, default_value_t = 0)]
    harvest_games: usize,
    /// Times a spatial pattern must be played to enter the dictionary
    /// (0: no spatial patterns).
    #[arg(long, default_value_t = 0)]
    min_count: u32,
    /// A held-out set, `LABEL=PATH[,PATH...]`; repeatable.
    #[arg(long)]
    held_out: Vec<String>,
    /// Games of each held-out set to judge on, spread over it (0: all).
    #[arg(long, default_value_t = 0)]
    held_out_games: usize,
    /// Sweeps of MM over every group.
    #[arg(long, default_value_t = 25)]
    sweeps: usize,
    /// Latent dimension of the factorization model fitted after MM (0: none).
    #[arg(long, default_value_t = 0)]
    factors: usize,
    /// Candidates a gamma must belong to in the fitting set to get a latent vector.
    #[arg(long, default_value_t = 1000)]
    factor_min_count: u32,
    /// Groups whose levels get no latent vector, as the table names them;
    /// spatial patterns never get one (Kosumi reads none for them).
    #[arg(long, value_delimiter = ',', default_value = "spatial")]
    factor_skip: Vec<String>,
    /// Epochs of stochastic gradient descent for the factorization model.
    #[arg(long, default_value_t = 4)]
    epochs: usize,
    /// Training games apart from the fitting games whose positions the
    /// descent also learns from, an equal share each epoch, each seen once
    /// (read and described as the epoch needs them, so they cost little
    /// memory).
    #[arg(long, default_value_t = 0)]
    stream_games: usize,
    /// Step size of the first epoch.
    #[arg(long, default_value_t = 0.01)]
    rate: f64,
    /// Factor each later epoch's step size by this.
    #[arg(long, default_value_t = 0.5)]
    decay: f64,
    /// L2 penalty on the latent vectors.
    #[arg(long, default_value_t = 0.001)]
    penalty: f64,
    /// Where to write the table.
    out: PathBuf,
    /// Training games: SGF files, folders, Tygem `.zip` archives.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
}

/// Held-out games, set by set, with their labels.
type HeldOutSets = Vec<(String, Vec<Record>)>;

/// How a held-out set was predicted before the fit (every gamma 1) and after.
struct Verdict {
    label: String,
    before: Judgement,
    after: Judgement,
}

/// The training games and the labelled held-out sets.
fn read_games(args: &Args) -> Result<(Vec<Record>, HeldOutSets), Box<dyn Error>> {
    let player = args.player.as_deref();
    let mut train = read_all(&args.inputs, player)?;
    let mut held_out = Vec::new();
    for set in &args.held_out {
        let (label, paths) = set
            .split_once('=')
            .ok_or_else(|| format!("--held-out {set:?}: expected LABEL=PATH[,PATH...]"))?;
        let paths: Vec<PathBuf> = paths.split(',').map(PathBuf::from).collect();
        held_out.push((label.to_string(), read_all(&paths, player)?));
    }
    if held_out.is_empty() {
        let (mut kept, mut out) = (Vec::new(), Vec::new());
        for (k, record) in train.into_iter().enumerate() {
            if k % 10 == 0 {
                out.push(record);
            } else {
                kept.push(record);
            }
        }
        train = kept;
        held_out.push(("held-out".to_string(), out));
    }
    Ok((train, held_out))
}

fn report(label: &str, judgement: &Judgement) {
    eprintln!(
        "{label}: {} positions, log-likelihood {:.4}, top-1 {:.4}, top-5 {:.4}",
        judgement.positions, judgement.log_likelihood, judgement.top1, judgement.top5
    );
}

fn main() -> Result<(), Box<dyn Error>> {
    for verdict in run(&Args::parse())? {
        eprintln!(
            "{}: log-likelihood {:.4} -> {:.4}, top-1 {:.4} -> {:.4} (uniform -> fitted)",
            verdict.label,
            verdict.before.log_likelihood,
            verdict.after.log_likelihood,
            verdict.before.top1,
            verdict.after.top1
        );
    }
    Ok(())
}

/// Reads the games, harvests the dictionary, fits and writes the table;
/// returns how each held-out set was predicted.
fn run(args: &Args) -> Result<Vec<Verdict>, Box<dyn Error>> {
    let clock = Instant::now();
    let (train, held_out_records) = read_games(args)?;
    let moves: usize = train.iter().map(Record::length).sum();
    eprintln!(
        "{} training games ({moves} moves), read in {:.1} s",
        train.len(),
        clock.elapsed().as_secs_f64()
    );
    let harvest = spread(&train, nonzero_or(args.harvest_games, train.len()));
    let harvested: &[&Record] = if args.min_count > 0 { &harvest } else { &[] };
    let dictionary = Dictionary::harvest(harvested, args.min_count.max(1));
    eprintln!(
        "{} spatial patterns from {} games, at {:.1} s",
        dictionary.entries.len(),
        harvested.len(),
        clock.elapsed().as_secs_f64()
    );
    let fit_records = spread(&train, nonzero_or(args.fit_games, train.len()));
    let mut fit = Data::of(&fit_records, args.every, &dictionary, false);
    let mut held_out = held_out_data(args, &held_out_records, &dictionary);
    let mut layout = Layout::new(dictionary.entries.len());
    fit.densify(&mut layout);
    for (_, data) in &mut held_out {
        data.densify(&mut layout);
    }
    let mut sets: Vec<&mut Data> = vec![&mut fit];
    sets.extend(held_out.iter_mut().map(|(_, data)| data));
    let total = layout.finish(&mut sets);
    eprintln!(
        "{} fitting positions from {} games, {} gammas, at {:.1} s",
        fit.positions(),
        fit_records.len(),
        total,
        clock.elapsed().as_secs_f64()
    );
    for (label, data) in &held_out {
        report(
            &format!("{label}, shipped 9x9 table"),
            &data.judge_shipped(),
        );
    }
    let uniform = vec![1.0; total];
    let before: Vec<Judgement> = held_out.iter().map(|(_, d)| d.judge(&uniform)).collect();
    let (counts, wins) = fit.tallies(total);
    let mut gammas = fit_gammas(args, &fit, &held_out, &layout, &wins);
    let mut judgements: Vec<(String, Judgement)> = held_out
        .iter()
        .map(|(label, data)| (label.clone(), data.judge(&gammas)))
        .collect();
    for (label, judgement) in &judgements {
        report(label, judgement);
    }
    let model = (args.factors > 0).then(|| {
        let fitted = Fitted {
            layout: &layout,
            dictionary: &dictionary,
            counts: &counts,
            gammas: &gammas,
            model: None,
        };
        let stream = fresh_records(&train, &fit_records, args.stream_games);
        fit_factors(args, &fit, &held_out, &fitted, &stream)
    });
    if let Some(model) = &model {
        gammas = model.weights.iter().map(|w| w.exp()).collect();
        judgements = held_out
            .iter()
            .map(|(label, data)| (label.clone(), model.judge(data)))
            .collect();
    }
    let fitted = Fitted {
        layout: &layout,
        dictionary: &dictionary,
        counts: &counts,
        gammas: &gammas,
        model: model.as_ref(),
    };
    let table = write_table(args, &fit, &fitted, &judgements);
    fs::write(&args.out, table)?;
    eprintln!("done at {:.1} s", clock.elapsed().as_secs_f64());
    Ok(judgements
        .into_iter()
        .zip(before)
        .map(|((label, after), before)| Verdict {
            label,
            before,
            after,
        })
        .collect())
}

/// The competitions of each held-out set's judged games.
fn held_out_data(args: &Args, sets: &HeldOutSets, dictionary: &Dictionary) -> Vec<(String, Data)> {
    sets.iter()
        .map(|(label, records)| {
            let chosen = spread(records, nonzero_or(args.held_out_games, records.len()));
            (label.clone(), Data::of(&chosen, 1, dictionary, true))
        })
        .collect()
}

/// `count` training games spread over `train`, none of them a fitting game.
fn fresh_records<'a>(train: &'a [Record], fitting: &[&Record], count: usize) -> Vec<&'a Record> {
    if count == 0 {
        return Vec::new();
    }
    let taken: HashSet<*const Record> = fitting.iter().map(|&r| r as *const Record).collect();
    spread(train, count + fitting.len())
        .into_iter()
        .filter(|&r| !taken.contains(&(r as *const Record)))
        .take(count)
        .collect()
}

fn nonzero_or(count: usize, all: usize) -> usize {
    if count == 0 { all } else { count }
}

/// MM sweeps over every column, reporting the first held-out set's figures
/// after each.
fn fit_gammas(
    args: &Args,
    fit: &Data,
    held_out: &[(String, Data)],
    layout: &Layout,
    wins: &[f64],
) -> Vec<f64> {
    let mut gammas = vec![1.0; wins.len()];
    for sweep in 0..args.sweeps {
        for column in 0..COLUMNS {
            fit.update_column(&mut gammas, column, wins);
            if !PATTERN_GROUPS.contains(&column) {
                let levels = layout.levels(column);
                let scale = gammas[levels.start];
                for gamma in &mut gammas[levels] {
                    *gamma /= scale;
                }
            }
        }
        if let Some((label, data)) = held_out.first() {
            report(&format!("sweep {sweep}, {label}"), &data.judge(&gammas));
        }
    }
    gammas
}

/// The factorization model on top of MM's gammas (`mm`), reported after
/// each epoch on every held-out set.
fn fit_factors(
    args: &Args,
    fit: &Data,
    held_out: &[(String, Data)],
    mm: &Fitted<'_>,
    stream: &[&Record],
) -> Factored {
    let Fitted {
        layout,
        dictionary,
        counts,
        gammas,
        ..
    } = *mm;
    let mut free = vec![true; gammas.len()];
    let mut group = vec![""; gammas.len()];
    for (i, &(g, _)) in layout.pattern_codes.iter().enumerate() {
        group[i] = GROUP_NAMES[g];
    }
    for column in (0..COLUMNS).filter(|c| !PATTERN_GROUPS.contains(c)) {
        let levels = layout.levels(column);
        free[levels.start] = false;
        let name = if column == SPATIAL {
            "spatial"
        } else {
            GROUP_NAMES[column]
        };
        for i in levels {
            group[i] = name;
        }
    }
    let has_vector = |i: usize| {
        counts[i] >= args.factor_min_count
            && group[i] != "spatial"
            && !args.factor_skip.iter().any(|skip| skip == group[i])
    };
    let mut model = Factored::new(gammas, free, has_vector, args.factors);
    eprintln!(
        "factorization: {} latent vectors of {} numbers",
        model.vector_count(),
        args.factors
    );
    let schedule = Schedule {
        epochs: args.epochs,
        rate: args.rate,
        decay: args.decay,
        penalty: args.penalty,
    };
    let clock = Instant::now();
    // A pattern code the fitting games never showed keeps gamma 1: the
    // spatial column's "none", which the descent leaves alone.
    let unknown = layout.levels(SPATIAL).start as u32;
    let epochs = args.epochs.max(1);
    let fresh = |epoch: usize| {
        let share = &stream[epoch * stream.len() / epochs..(epoch + 1) * stream.len() / epochs];
        (!share.is_empty()).then(|| {
            let mut data = Data::of(share, args.every, dictionary, false);
            data.densify_known(layout, unknown);
            eprintln!(
                "epoch {epoch}: {} fresh positions from {} games at {:.0} s",
                data.positions(),
                share.len(),
                clock.elapsed().as_secs_f64()
            );
            data
        })
    };
    model.fit(fit, &schedule, fresh, |epoch, model| {
        for (label, data) in held_out {
            report(
                &format!(
                    "epoch {epoch} at {:.0} s, {label}",
                    clock.elapsed().as_secs_f64()
                ),
                &model.judge(data),
            );
        }
    });
    model
}

/// What a fit made: the gammas (after the factorization model's descent,
/// if one ran), where each lies, how often each is a fitting candidate's,
/// and the latent vectors.
struct Fitted<'a> {
    layout: &'a Layout,
    dictionary: &'a Dictionary,
    counts: &'a [u32],
    gammas: &'a [f64],
    model: Option<&'a Factored>,
}

/// The table's header: how it was made and how well it predicts.
fn header(
    args: &Args,
    fit: &Data,
    fitted: &Fitted<'_>,
    judgements: &[(String, Judgement)],
) -> String {
    let mut table = format!(
        "# Bradley-Terry gammas of kosumi::go::features and kosumi::go::spatial,\n\
         # fitted by examples/train_features on {} positions (one move in {} of\n\
         # {} games); {} spatial patterns played at least {} times.\n\
         # group level gamma; 3x3 and diamond levels are canonical codes in hex,\n\
         # spatial levels radius:key.\n",
        fit.positions(),
        args.every.max(1),
        fit.games(),
        fitted.dictionary.entries.len(),
        args.min_count
    );
    if let Some(model) = fitted.model {
        table.push_str(&format!(
            "# Factorization Bradley-Terry (Xiao and Mueller 2016): MM's gammas, then\n\
             # {} epochs of gradient descent (step {}, times {} an epoch, penalty {})\n\
             # with latent vectors of {} numbers for the {} levels among at least {}\n\
             # candidates (not {}): `factor group level v1 .. vk` lines. The descent\n\
             # also saw the positions of {} more games, once each.\n",
            args.epochs,
            args.rate,
            args.decay,
            args.penalty,
            model.dims,
            model.vector_count(),
            args.factor_min_count,
            args.factor_skip.join(", "),
            model.fresh_games
        ));
    }
    if let Some(note) = &args.note {
        table.push_str(&format!("# Games: {note}\n"));
    }
    for (label, j) in judgements {
        table.push_str(&format!(
            "# {label}: {} positions, log-likelihood {:.4} a move, top-1 {:.4}, top-5 {:.4}.\n",
            j.positions, j.log_likelihood, j.top1, j.top5
        ));
    }
    table
}

/// The table: a header saying how it was made, the 3x3 and diamond
/// patterns seen often enough, the other groups' levels, every spatial
/// pattern of the dictionary (all of them, so that a lookup walking out
/// from the smallest radius meets the same patterns as training did), and
/// the latent vectors of the factorization model.
fn write_table(
    args: &Args,
    fit: &Data,
    fitted: &Fitted<'_>,
    judgements: &[(String, Judgement)],
) -> String {
    let Fitted {
        layout,
        dictionary,
        counts,
        gammas,
        model,
    } = *fitted;
    let mut table = header(args, fit, fitted, judgements);
    table.push_str("shape default 1\ndiamond default 1\n");
    // Each written gamma's index, group and level as the table names them.
    let mut named: Vec<(usize, &str, String)> = Vec::new();
    let mut pattern_lines: Vec<(usize, u32, usize)> = (0..layout.pattern_codes.len())
        .filter(|&i| counts[i] >= MIN_PATTERN_COUNT)
        .map(|i| (layout.pattern_codes[i].0, layout.pattern_codes[i].1, i))
        .collect();
    pattern_lines.sort_unstable();
    for (g, code, i) in pattern_lines {
        named.push((i, GROUP_NAMES[g], format!("{code:x}")));
    }
    for g in (0..GROUPS).filter(|g| !PATTERN_GROUPS.contains(g)) {
        for (level, i) in layout.levels(g).enumerate().skip(1) {
            named.push((i, GROUP_NAMES[g], level.to_string()));
        }
    }
    for (&(radius, key), i) in dictionary
        .entries
        .iter()
        .zip(layout.levels(SPATIAL).skip(1))
    {
        named.push((i, "spatial", format!("{radius}:{key:x}")));
    }
    for (i, group, level) in &named {
        table.push_str(&format!("{group} {level} {:.4}\n", gammas[*i]));
    }
    for (i, group, level) in &named {
        if let Some(vector) = model.and_then(|m| m.vector(*i)) {
            let numbers: Vec<String> = vector.iter().map(|x| format!("{x:.4}")).collect();
            table.push_str(&format!("factor {group} {level} {}\n", numbers.join(" ")));
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use kosumi::board::{Cell, Color, GameKind, Geometry, Point, Position};
    use kosumi::go::gammas::Gammas;
    use kosumi::search::FastRng;
    use kosumi::search::playout::below;
    use rand_xoshiro::rand_core::SeedableRng;

    use super::*;

    /// A game in a Tygem archive's line format whose players answer next
    /// to the last stone whenever they can: a habit the fit must find.
    fn habit_game(id: usize, rng: &mut FastRng) -> String {
        let geometry = Geometry::square(19).expect("19x19");
        let mut position = Position::new(geometry, GameKind::Go);
        let mut line = format!("{id}\t");
        let mut last: Option<Point> = None;
        for _ in 0..120 {
            let mover = position.to_move();
            let legal = |p: &Point| {
                position.cell(*p) == Cell::Empty
                    && position.is_legal_empty(*p, mover)
                    && !position.is_eye(*p, mover)
            };
            let near: Vec<Point> = last
                .map(|l| geometry.neighbours(l).into_iter().filter(legal).collect())
                .unwrap_or_default();
            let all: Vec<Point> = geometry.points().filter(legal).collect();
            let pool = if near.is_empty() { &all } else { &near };
            if pool.is_empty() {
                break;
            }
            let p = pool[below(rng, pool.len())];
            let (col, row) = geometry.coords(p).expect("on the board");
            let letter = |i: usize| char::from(b'a' + i as u8);
            let side = if mover == Color::Black { 'B' } else { 'W' };
            line.push_str(&format!(";{side}[{}{}]", letter(col), letter(18 - row)));
            position.play(p, mover);
            last = Some(p);
        }
        line
    }

    fn write_archive(path: &std::path::Path, games: std::ops::Range<usize>) {
        let mut rng = FastRng::seed_from_u64(games.start as u64);
        let text: Vec<String> = games.map(|id| habit_game(id, &mut rng)).collect();
        let mut zip = zip::ZipWriter::new(fs::File::create(path).expect("archive"));
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("games", options).expect("zip entry");
        zip.write_all(text.join("\n").as_bytes())
            .expect("zip write");
        zip.finish().expect("zip finish");
    }

    #[test]
    fn a_fixture_archive_trains_a_table_that_predicts_and_loads() {
        let dir = std::env::temp_dir().join(format!("kosumi-train-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("temp dir");
        let (train, held) = (dir.join("train.zip"), dir.join("held.zip"));
        write_archive(&train, 0..12);
        write_archive(&held, 100..104);
        let out = dir.join("table.txt");
        let args = Args::parse_from([
            "train_features".to_string(),
            "--min-count".into(),
            "2".into(),
            "--sweeps".into(),
            "3".into(),
            "--factors".into(),
            "4".into(),
            "--factor-min-count".into(),
            "50".into(),
            "--epochs".into(),
            "2".into(),
            // Half the games fitted, one move in two; the rest streamed.
            "--fit-games".into(),
            "6".into(),
            "--every".into(),
            "2".into(),
            "--stream-games".into(),
            "6".into(),
            "--held-out".into(),
            format!("fixture={}", held.display()),
            out.display().to_string(),
            train.display().to_string(),
        ]);
        let judgements = run(&args).expect("the pipeline runs");
        let [
            Verdict {
                label,
                before,
                after,
            },
        ] = &judgements[..]
        else {
            panic!("one held-out set");
        };
        assert_eq!(label, "fixture");
        assert!(before.positions > 400, "{} positions", before.positions);
        assert!(
            after.log_likelihood > before.log_likelihood + 1.0,
            "{} against uniform {}",
            after.log_likelihood,
            before.log_likelihood
        );
        assert!(after.top5 > before.top5 + 0.3, "top-5 {}", after.top5);
        let table = fs::read_to_string(&out).expect("table written");
        assert!(table.lines().any(|l| l.starts_with("spatial 3:")));
        assert!(table.lines().any(|l| l.starts_with("factor distance 1 ")));
        assert!(table.contains("positions of 6 more games, once each"));
        let gammas = Gammas::parse(&table).expect("the table loads");
        let position = Position::new(Geometry::square(19).expect("19x19"), GameKind::Go);
        let p = position.geometry().point(3, 3).expect("D4");
        let reach = kosumi::go::spatial::EmptyReach::of(&position);
        assert!(gammas.spatial_gamma(&position, p, Color::Black, &reach) > 0.0);
        fs::remove_dir_all(&dir).expect("temp dir removed");
    }
}
