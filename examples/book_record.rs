//! How the opening book's lines fared in game records: the results a book
//! built from searches alone never sees.
//!
//!     cargo run --release --example book_record -- [--book FILE] [--player NAME] GAMES...
//!
//! A game counts when exactly one player's name (PB, PW) contains NAME
//! (any case) and the game has a result (RE: `B+…`, `W+…`, `0` or
//! `Draw`). It is followed from the empty board for as long as that
//! player's moves are the book's replies, and every book line so played
//! is credited with the game's result. All the player's games count
//! towards its score with that colour, book or not: the baseline a line
//! is judged by.
//!
//! Printed: the player's score with each colour, then each line played
//! (most games first) with its games, wins-losses-draws and score with the
//! 95% Wilson interval, draws counting half. `LOW` marks a line whose
//! interval lies wholly below its colour's score: a line that loses more
//! than the player's other games do, to be searched again at length.

use std::collections::HashMap;
use std::error::Error;
use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;

use clap::Parser;

use kosumi::board::{Color, Game, GameKind, Geometry, Move, Point};
use kosumi::player::book::{
    BookKey, OpeningBook, RecordedGame, book_key, keyed_lines, recorded_game,
};
use kosumi::record::sgf;
use kosumi::search::wilson_interval;

/// Moves read from each record: more than any book line holds.
const RECORD_PLIES: usize = 32;

#[derive(Parser)]
#[command(about = "Results of the opening book's lines in game records")]
struct Options {
    /// The book (default: the one Kosumi ships).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/src/player/go_book.txt"))]
    book: PathBuf,
    /// The player whose book moves are followed: part of its PB or PW.
    #[arg(long, default_value = "kosumi")]
    player: String,
    /// Game records (SGF files or folders of them).
    #[arg(required = true)]
    games: Vec<PathBuf>,
}

/// How a game ended for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Win,
    Loss,
    Draw,
}

/// The winner a result (RE) names, `None` for a draw; no answer for a
/// game without a result.
fn winner(result: &str) -> Option<Option<Color>> {
    let result = result.trim();
    if result.starts_with("B+") {
        Some(Some(Color::Black))
    } else if result.starts_with("W+") {
        Some(Some(Color::White))
    } else if result == "0" || result.eq_ignore_ascii_case("draw") {
        Some(None)
    } else {
        None
    }
}

/// Wins, losses and draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Record {
    wins: u32,
    losses: u32,
    draws: u32,
}

impl Record {
    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Loss => self.losses += 1,
            Outcome::Draw => self.draws += 1,
        }
    }

    fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The share of points won, draws counting half.
    fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// The 95% Wilson interval of the score.
    fn interval(&self) -> (f64, f64) {
        wilson_interval(self.score(), self.games().max(1) as f64)
    }

    fn describe(&self) -> String {
        let (low, high) = self.interval();
        format!(
            "{}-{}-{} of {}, {:.1}% [{:.1}, {:.1}]",
            self.wins,
            self.losses,
            self.draws,
            self.games(),
            100.0 * self.score(),
            100.0 * low,
            100.0 * high
        )
    }
}

/// What the records say: the player's record with each colour, and each
/// book line's record by the position it answers.
#[derive(Default)]
struct Tally {
    by_colour: HashMap<Color, Record>,
    by_line: HashMap<BookKey, (Color, Record)>,
}

impl Tally {
    /// Adds one game, if `player` played exactly one side of it and it has
    /// a result.
    fn add(&mut self, book: &OpeningBook, record: &RecordedGame, player: &str) {
        let player = player.to_lowercase();
        let ours = match (
            record.black.to_lowercase().contains(&player),
            record.white.to_lowercase().contains(&player),
        ) {
            (true, false) => Color::Black,
            (false, true) => Color::White,
            _ => return,
        };
        let Some(winner) = winner(&record.result) else {
            return;
        };
        let outcome = match winner {
            None => Outcome::Draw,
            Some(color) if color == ours => Outcome::Win,
            Some(_) => Outcome::Loss,
        };
        self.by_colour.entry(ours).or_default().add(outcome);
        let Ok(geometry) = Geometry::square(record.size) else {
            return;
        };
        let mut game = Game::new(geometry, GameKind::Go, record.komi);
        for &p in &record.moves {
            let color = game.to_move();
            if color == ours {
                // Compared as positions: in a symmetric position another
                // point than the book's may be the same reply.
                let Some(reply) = book.reply(&game, color) else {
                    break;
                };
                let (Some(played), Some(booked)) = (key_after(&game, p), key_after(&game, reply))
                else {
                    break;
                };
                if played != booked {
                    break;
                }
                let Some((key, _)) = book_key(game.position(), color, game.komi()) else {
                    break;
                };
                self.by_line
                    .entry(key)
                    .or_insert((ours, Record::default()))
                    .1
                    .add(outcome);
            }
            if game.play(color, Move::Play(p)).is_err() {
                break;
            }
        }
    }
}

/// The key of the position after the side to move plays `p` in `game`.
fn key_after(game: &Game, p: Point) -> Option<BookKey> {
    let mut after = game.clone();
    let color = after.to_move();
    after.play(color, Move::Play(p)).ok()?;
    Some(book_key(after.position(), after.to_move(), after.komi())?.0)
}

fn colour_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let options = Options::parse();
    let text = fs::read_to_string(&options.book)?;
    let book = OpeningBook::parse(&text)?;
    let lines: HashMap<BookKey, &str> = keyed_lines(&text)?.into_iter().collect();
    let mut tally = Tally::default();
    for file in sgf::files_under(&options.games)? {
        if let Some(record) = recorded_game(&fs::read_to_string(&file)?, RECORD_PLIES) {
            tally.add(&book, &record, &options.player);
        }
    }
    // Written, not printed: a closed pipe (say, `| head`) ends the run
    // with an error instead of a panic.
    let mut out = io::stdout().lock();
    for color in [Color::Black, Color::White] {
        let record = tally.by_colour.get(&color).copied().unwrap_or_default();
        writeln!(
            out,
            "{} as {}: {}",
            options.player,
            colour_name(color),
            record.describe()
        )?;
    }
    let mut played: Vec<(&BookKey, &(Color, Record))> = tally.by_line.iter().collect();
    played.sort_by_key(|(key, (_, record))| (std::cmp::Reverse(record.games()), lines.get(*key)));
    for (key, (color, record)) in played {
        let baseline = tally.by_colour.get(color).copied().unwrap_or_default();
        let low = record.interval().1 < baseline.score();
        writeln!(
            out,
            "{:<5} {:<34} {}{}",
            colour_name(*color),
            record.describe(),
            lines.get(key).unwrap_or(&"?"),
            if low { "  LOW" } else { "" }
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str = "9 7 |  | E5 | 0.5 | 1000\n9 7 | E5 C3 | D4 | 0.5 | 1000\n";

    fn wins_losses_draws(wins: u32, losses: u32, draws: u32) -> Record {
        Record {
            wins,
            losses,
            draws,
        }
    }

    fn record(black: &str, white: &str, result: &str, moves: &str) -> RecordedGame {
        let text = format!("(;SZ[9]KM[7]PB[{black}]PW[{white}]RE[{result}]{moves})");
        recorded_game(&text, RECORD_PLIES).expect("an even game")
    }

    fn tally(games: &[RecordedGame]) -> (Tally, HashMap<String, Record>) {
        let book = OpeningBook::parse(BOOK).expect("readable");
        let mut tally = Tally::default();
        for game in games {
            tally.add(&book, game, "Kosumi");
        }
        let lines: HashMap<BookKey, &str> =
            keyed_lines(BOOK).expect("readable").into_iter().collect();
        let by_text = tally
            .by_line
            .iter()
            .map(|(key, (_, record))| (lines[key].to_string(), *record))
            .collect();
        (tally, by_text)
    }

    #[test]
    fn results_name_the_winner_or_a_draw() {
        assert_eq!(winner("B+R"), Some(Some(Color::Black)));
        assert_eq!(winner("W+6.5"), Some(Some(Color::White)));
        assert_eq!(winner("0"), Some(None));
        assert_eq!(winner("Draw"), Some(None));
        assert_eq!(winner("Void"), None);
        assert_eq!(winner(""), None);
    }

    #[test]
    fn book_lines_are_credited_until_the_player_leaves_the_book() {
        let (tally, lines) = tally(&[
            // Both book moves, E5 C3 D4.
            record("kosumi 0.1", "pachi", "B+R", ";B[ee];W[cg];B[df]"),
            // The same, turned: E5 G7 F6.
            record("Kosumi", "pachi", "W+R", ";B[ee];W[gc];B[fd]"),
            // Leaves the book at its second move.
            record("kosumi", "pachi", "0", ";B[ee];W[cg];B[cc]"),
            // Kosumi is White: no book line here answers White.
            record("pachi", "kosumi", "B+R", ";B[ee];W[cg]"),
            // Self-play and unfinished games do not count.
            record("kosumi", "kosumi", "B+R", ";B[ee]"),
            record("kosumi", "pachi", "", ";B[ee]"),
        ]);
        let first = wins_losses_draws(1, 1, 1);
        let second = wins_losses_draws(1, 1, 0);
        assert_eq!(lines["9 7 |  | E5 | 0.5 | 1000"], first);
        assert_eq!(lines["9 7 | E5 C3 | D4 | 0.5 | 1000"], second);
        assert_eq!(tally.by_colour[&Color::Black], first);
        assert_eq!(tally.by_colour[&Color::White], wins_losses_draws(0, 1, 0));
    }

    #[test]
    fn the_interval_holds_the_score_and_narrows_with_games() {
        let few = wins_losses_draws(3, 2, 0);
        let many = wins_losses_draws(300, 200, 0);
        for record in [few, many] {
            let (low, high) = record.interval();
            assert!(low < 0.6 && 0.6 < high);
        }
        assert!(many.interval().1 - many.interval().0 < few.interval().1 - few.interval().0);
        let lost_all = wins_losses_draws(0, 5, 0);
        assert_eq!(lost_all.describe(), "0-5-0 of 5, 0.0% [0.0, 43.4]");
        // 290-299-21 of 610, as reported in issue #5: 49.3% [45.3, 53.2].
        let pooled = wins_losses_draws(290, 299, 21);
        assert_eq!(pooled.describe(), "290-299-21 of 610, 49.3% [45.3, 53.2]");
    }
}
