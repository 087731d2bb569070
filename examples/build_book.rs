//! Builds the opening book (`src/player/go_book.txt`) from long searches.
//!
//!     cargo run --release --example build_book -- [OPTIONS] OUT.txt
//!
//! From the empty board, positions are followed along two kinds of line:
//! Kosumi as Black and Kosumi as White. Where Kosumi is to move, the line
//! goes on by the book's reply, the most visited move of a search of
//! `--playouts` playouts. Where the opponent is to move, it goes on by each
//! of the `--width` moves that search visited most (moves leading to the
//! same position up to symmetry count as one, their playouts summed), if
//! it had at least `--share` of the top move's playouts: the openings an
//! opponent is likely to choose. With `--games`, the opponent's moves in
//! those game records (SGF files or folders of them) are followed too,
//! each one played in at least `--min-games` of them from the position (up
//! to symmetry). Every position searched, up to `--plies`
//! moves deep, gets a book line. Lines are written as they are found, so
//! an interrupted run leaves a usable book.
//!
//! With `--reuse OLD.txt`, every line of that book is kept, and a position
//! it answers is not searched again where Kosumi is to move: a deeper book
//! costs only its new positions, and the lines already measured in matches
//! stay as they were. Its lines for other board sizes or komi are copied
//! unchanged, so one file can hold several books.

use std::collections::{HashMap, HashSet, VecDeque};
use std::error::Error;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Parser;

use kosumi::board::{Color, Game, GameKind, Geometry, Move, Point};
use kosumi::player::book::{BookKey, OpeningBook, book_key, book_line, keyed_lines, recorded_game};
use kosumi::record::sgf;
use kosumi::search::{SearchLimits, SearchParams, Searcher};

#[derive(Parser)]
#[command(about = "Build Kosumi's opening book from long searches")]
struct Options {
    /// Board size.
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// Komi.
    #[arg(long, default_value_t = 7.0)]
    komi: f32,
    /// Positions up to this many moves from the empty board get a reply.
    #[arg(long, default_value_t = 5)]
    plies: usize,
    /// Opponent moves followed from each position, most visited first.
    #[arg(long, default_value_t = 5)]
    width: usize,
    /// Least share of the reply's playouts a move needs to be followed.
    #[arg(long, default_value_t = 0.02)]
    share: f64,
    /// Playouts a position.
    #[arg(long, default_value_t = 1_000_000)]
    playouts: u64,
    /// Search threads.
    #[arg(long, default_value_t = 2)]
    threads: u32,
    /// Search seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Game records whose openings are followed too (SGF files or
    /// folders; repeatable). Only games of the same size and komi without
    /// handicap count.
    #[arg(long = "games", value_name = "PATH")]
    games: Vec<PathBuf>,
    /// Games a move must be played in, from its position, to be followed.
    #[arg(long, default_value_t = 3)]
    min_games: usize,
    /// A book whose lines are kept (see above).
    #[arg(long, value_name = "OLD")]
    reuse: Option<PathBuf>,
    /// Where to write the book.
    out: PathBuf,
}

fn replay(geometry: Geometry, komi: f32, moves: &[Point]) -> Result<Game, Box<dyn Error>> {
    let mut game = Game::new(geometry, GameKind::Go, komi);
    for &p in moves {
        let color = game.to_move();
        game.play(color, Move::Play(p))?;
    }
    Ok(game)
}

/// What the search of one position found.
struct Searched {
    /// The most visited move.
    reply: Point,
    /// Its win rate for the side to move.
    winrate: f64,
    /// Playouts the search ran.
    playouts: u64,
    /// One move for each position the moves lead to up to symmetry, with
    /// the playouts of all such moves, most first.
    choices: Vec<(Point, u64)>,
}

fn search(searcher: &mut Searcher, limits: &SearchLimits, game: &Game) -> Option<Searched> {
    let report = searcher.search(game, limits, &AtomicBool::new(false), None, &mut |_| {});
    let best = report.best()?;
    let Move::Play(reply) = best.mv else {
        return None;
    };
    let mut choices: Vec<(BookKey, Point, u64)> = Vec::new();
    for candidate in &report.candidates {
        let Move::Play(p) = candidate.mv else {
            continue;
        };
        let mut after = game.clone();
        let color = after.to_move();
        if after.play(color, candidate.mv).is_err() {
            continue;
        }
        let Some((key, _)) = book_key(after.position(), after.to_move(), after.komi()) else {
            continue;
        };
        match choices.iter_mut().find(|(known, _, _)| *known == key) {
            Some(choice) => choice.2 += candidate.visits,
            None => choices.push((key, p, candidate.visits)),
        }
    }
    choices.sort_by_key(|&(_, _, visits)| std::cmp::Reverse(visits));
    Some(Searched {
        reply,
        winrate: best.winrate,
        playouts: report.playouts,
        choices: choices
            .into_iter()
            .map(|(_, p, visits)| (p, visits))
            .collect(),
    })
}

/// Moves played from each position (up to symmetry) in game records: the
/// positions they led to (up to symmetry), each with the games that did.
type Observed = HashMap<BookKey, Vec<(BookKey, usize)>>;

/// Adds `moves` (played in that order, from `game`) to `observed`.
fn observe(observed: &mut Observed, mut game: Game, moves: &[Point]) {
    for &p in moves {
        let color = game.to_move();
        let Some((key, _)) = book_key(game.position(), color, game.komi()) else {
            return;
        };
        if game.play(color, Move::Play(p)).is_err() {
            return;
        }
        let Some((child, _)) = book_key(game.position(), game.to_move(), game.komi()) else {
            return;
        };
        let seen = observed.entry(key).or_default();
        match seen.iter_mut().find(|(known, _)| *known == child) {
            Some(entry) => entry.1 += 1,
            None => seen.push((child, 1)),
        }
    }
}

/// The move that takes `game` to the position `child` (up to symmetry).
/// A recorded move cannot be replayed as it stands: its game may have
/// reached the position in another orientation.
fn move_to(game: &Game, child: &BookKey) -> Option<Point> {
    let color = game.to_move();
    game.geometry().points().find(|&p| {
        let mut after = game.clone();
        after.play(color, Move::Play(p)).is_ok()
            && book_key(after.position(), after.to_move(), after.komi())
                .is_some_and(|(key, _)| key == *child)
    })
}

fn main() -> Result<(), Box<dyn Error>> {
    let options = Options::parse();
    let geometry = Geometry::square(options.size)?;
    let mut out = BufWriter::new(File::create(&options.out)?);
    writeln!(
        out,
        "# Kosumi's opening book (see src/player/book.rs): {}x{} Go, komi {}.",
        options.size, options.size, options.komi
    )?;
    writeln!(
        out,
        "# Built by: cargo run --release --example build_book -- --size {} --komi {} --plies {} --width {} --share {} --playouts {} --threads {} --seed {}",
        options.size,
        options.komi,
        options.plies,
        options.width,
        options.share,
        options.playouts,
        options.threads,
        options.seed
    )?;
    writeln!(out, "# size komi | moves | reply | win rate | playouts")?;
    let mut searcher = Searcher::new(SearchParams {
        seed: options.seed,
        threads: options.threads,
        ..SearchParams::default()
    });
    let limits = SearchLimits {
        playouts: Some(options.playouts),
        time: None,
        dynamic_komi: false,
        stop_when_decided: false,
        may_pass: false,
    };
    let empty = Game::new(geometry, GameKind::Go, options.komi);
    let mut observed = Observed::new();
    let mut games_read = 0;
    for file in sgf::files_under(&options.games)? {
        let text = fs::read_to_string(&file)?;
        if let Some(record) = recorded_game(&text, options.plies)
            && record.size == options.size
            && record.komi == options.komi
        {
            observe(&mut observed, empty.clone(), &record.moves);
            games_read += 1;
        }
    }
    if !options.games.is_empty() {
        writeln!(
            out,
            "# Opponent moves also followed: those played in at least {} of {games_read} game records.",
            options.min_games
        )?;
    }
    let (old_book, old_lines, other_books) = match &options.reuse {
        Some(path) => {
            let text = fs::read_to_string(path)?;
            let (lines, others) = kept_lines(&text, geometry, options.komi)?;
            writeln!(
                out,
                "# {} lines kept from {} (--reuse), and {} lines of other sizes or komi.",
                lines.len(),
                path.display(),
                others.len()
            )?;
            (OpeningBook::parse(&text)?, lines, others)
        }
        None => (OpeningBook::default(), HashMap::new(), Vec::new()),
    };
    let started = Instant::now();
    let mut searched: HashMap<BookKey, Searched> = HashMap::new();
    let mut written = HashSet::new();
    let mut followed = HashSet::new();
    let mut queue: VecDeque<(Vec<Point>, Color)> =
        VecDeque::from([(Vec::new(), Color::Black), (Vec::new(), Color::White)]);
    while let Some((moves, ours)) = queue.pop_front() {
        let game = replay(geometry, options.komi, &moves)?;
        let Some((key, _)) = book_key(game.position(), game.to_move(), options.komi) else {
            continue;
        };
        let last_ply = moves.len() + 1 >= options.plies;
        let our_move = game.to_move() == ours;
        if (last_ply && !our_move) || !followed.insert((key.clone(), ours)) {
            continue;
        }
        let kept_reply = if our_move {
            old_book.reply(&game, game.to_move())
        } else {
            None
        };
        if kept_reply.is_none() && !searched.contains_key(&key) {
            let Some(result) = search(&mut searcher, &limits, &game) else {
                continue;
            };
            searched.insert(key.clone(), result);
        }
        if !written.contains(&key) {
            let line = match (old_lines.get(&key), searched.get(&key)) {
                (Some(kept), _) => kept.clone(),
                (None, Some(result)) => book_line(
                    geometry,
                    options.komi,
                    &moves,
                    result.reply,
                    result.winrate,
                    result.playouts,
                ),
                (None, None) => continue,
            };
            written.insert(key.clone());
            writeln!(out, "{line}")?;
            out.flush()?;
            eprintln!(
                "{:7.1} s  {line}  ({} lines queued)",
                started.elapsed().as_secs_f64(),
                queue.len()
            );
        }
        if last_ply {
            continue;
        }
        let next: Vec<Point> = if our_move {
            match kept_reply.or_else(|| searched.get(&key).map(|result| result.reply)) {
                Some(reply) => vec![reply],
                None => continue,
            }
        } else {
            let Some(result) = searched.get(&key) else {
                continue;
            };
            let least = options.share * result.choices.first().map_or(0, |c| c.1) as f64;
            let searched = result
                .choices
                .iter()
                .filter(|&&(_, visits)| visits as f64 >= least)
                .take(options.width)
                .map(|&(p, _)| p);
            let played = observed
                .get(&key)
                .into_iter()
                .flatten()
                .filter(|&&(_, games)| games >= options.min_games)
                .filter_map(|(child, _)| move_to(&game, child));
            searched.chain(played).collect()
        };
        for p in next {
            let mut line = moves.clone();
            line.push(p);
            queue.push_back((line, ours));
        }
    }
    // Kept lines this build's lines no longer reach stay in the book: an
    // opponent may still play into them.
    let mut unreached: Vec<&String> = old_lines
        .iter()
        .filter(|(key, _)| !written.contains(*key))
        .map(|(_, line)| line)
        .collect();
    unreached.sort();
    for line in unreached.into_iter().chain(&other_books) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Kept lines: the lines of a book's text for the book's size and komi,
/// by the position each answers, and the other lines (other sizes or
/// komi) as they stand. The text must also read as an `OpeningBook`.
type KeptLines = (HashMap<BookKey, String>, Vec<String>);

fn kept_lines(text: &str, geometry: Geometry, komi: f32) -> Result<KeptLines, Box<dyn Error>> {
    let mut ours = HashMap::new();
    let mut others = Vec::new();
    for (key, line) in keyed_lines(text)? {
        if key.is_for(geometry.width(), komi) {
            ours.insert(key, line.to_string());
        } else {
            others.push(line.to_string());
        }
    }
    Ok((ours, others))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kosumi::gtp::parse::{Vertex, parse_vertex};

    fn points(geometry: Geometry, moves: &[&str]) -> Vec<Point> {
        moves
            .iter()
            .map(|text| match parse_vertex(text, 9, 9) {
                Ok(Vertex::Point { col, row }) => geometry.point(col, row).expect("on the board"),
                other => panic!("{text}: {other:?}"),
            })
            .collect()
    }

    fn key_of(game: &Game) -> BookKey {
        book_key(game.position(), game.to_move(), game.komi())
            .expect("keyed")
            .0
    }

    #[test]
    fn a_recorded_move_is_followed_in_the_lines_orientation() {
        let geometry = Geometry::square(9).expect("9x9");
        let empty = Game::new(geometry, GameKind::Go, 7.0);
        let mut observed = Observed::new();
        observe(
            &mut observed,
            empty.clone(),
            &points(geometry, &["E5", "C3", "C4"]),
        );
        // The same position as E5 C3, turned half a turn.
        let line = replay(geometry, 7.0, &points(geometry, &["E5", "G7"])).expect("legal");
        let [(child, games)] = &observed[&key_of(&line)][..] else {
            panic!("one move recorded from E5 C3");
        };
        assert_eq!(*games, 1);
        let p = move_to(&line, child).expect("a move reaches the recorded position");
        let mut after = line.clone();
        after.play(Color::Black, Move::Play(p)).expect("legal");
        assert_eq!(&key_of(&after), child);
        // C4 as recorded would lead elsewhere on this board.
        let mut as_recorded = line.clone();
        let c4 = points(geometry, &["C4"])[0];
        as_recorded
            .play(Color::Black, Move::Play(c4))
            .expect("legal");
        assert_ne!(&key_of(&as_recorded), child);
    }

    #[test]
    fn kept_lines_are_found_whatever_their_orientation() {
        let geometry = Geometry::square(9).expect("9x9");
        let text = "# comment\n9 7 |  | E5 | 0.515 | 1000\n9 7 | E5 C3 | D4 | 0.532 | 1000\n\
                    9 6.5 | E5 | E6 | 0.5 | 1000\n";
        let (lines, others) = kept_lines(text, geometry, 7.0).expect("readable");
        assert_eq!(lines.len(), 2);
        assert_eq!(
            others,
            ["9 6.5 | E5 | E6 | 0.5 | 1000"],
            "another book's line"
        );
        let mirrored = replay(geometry, 7.0, &points(geometry, &["E5", "G3"])).expect("legal");
        assert_eq!(
            lines.get(&key_of(&mirrored)).map(String::as_str),
            Some("9 7 | E5 C3 | D4 | 0.532 | 1000")
        );
    }
}
