//! The opening book: replies that long searches of Kosumi's own chose for
//! the first moves of a Go game, played by genmove without searching.
//!
//! A move at match time comes from about a second of search, and in the
//! opening that search is unsure: on the empty 9x9 board it chose E5 only
//! 58% of the time, where half a million playouts always choose it. The
//! book gives the first moves the judgement of searches a hundred times
//! longer. `examples/build_book.rs` writes it.
//!
//! Each line of the book is one position, given by the moves that reach
//! it from the empty board (Black first, no handicap):
//!
//! ```text
//! size komi | moves | reply | win rate | playouts
//! 9 7 | E5 D3 | C4 | 0.512 | 1000000
//! ```
//!
//! The win rate (for the side to move) and the playouts are what the
//! search found, kept for the reader. Positions are matched whatever their
//! orientation: the eight symmetries of the board map to one key, and the
//! reply turns with the position. A position matches only with the same
//! board size, komi and side to move, and never while a ko is banned.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::board::vertex::{Vertex, format_vertex, parse_vertex};
use crate::board::{Color, Game, GameKind, Geometry, MAX_SIZE, Move, Point, Position};
use crate::record::game::{SgfRecord, node_moves};

/// The book shipped with Kosumi.
const SHIPPED_BOOK: &str = include_str!("go_book.txt");

/// Why a book's text could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BookError {
    #[error("book line {line}: {why}")]
    BadLine { line: usize, why: String },
}

/// A position as the book knows it: board size, komi in half points, and
/// the cells in the canonical orientation followed by the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BookKey {
    size: usize,
    komi_halves: i32,
    cells: Vec<u8>,
}

/// A book position's reply as stored: the (column, row) it has in its
/// position's canonical orientation, and the search that chose it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct StoredReply {
    canonical: (usize, usize),
    winrate: f64,
    playouts: u64,
}

/// The book's move in a game, with the search that chose it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    pub point: Point,
    /// The reply's win rate for the side to move in that search.
    pub winrate: f64,
    /// That search's playouts.
    pub playouts: u64,
}

/// Replies by position.
#[derive(Debug, Default)]
pub struct OpeningBook {
    replies: HashMap<BookKey, StoredReply>,
}

/// `(col, row)` under `symmetry` of a `size`-wide square: bit 2 swaps
/// columns and rows, then bits 0 and 1 mirror the columns and the rows.
fn oriented(size: usize, (col, row): (usize, usize), symmetry: usize) -> (usize, usize) {
    let (col, row) = if symmetry & 4 != 0 {
        (row, col)
    } else {
        (col, row)
    };
    let col = if symmetry & 1 != 0 {
        size - 1 - col
    } else {
        col
    };
    let row = if symmetry & 2 != 0 {
        size - 1 - row
    } else {
        row
    };
    (col, row)
}

/// The book's key for `position` with `to_move` to play, and the symmetry
/// that takes the position to its canonical orientation (the smallest
/// cell sequence of the eight). `None` on a board that is not square or
/// while a ko is banned.
pub fn book_key(position: &Position, to_move: Color, komi: f32) -> Option<(BookKey, usize)> {
    let geometry = position.geometry();
    let komi_halves = komi_in_halves(komi)?;
    if !geometry.is_square() || position.ko_point(to_move).is_some() {
        return None;
    }
    let size = geometry.width();
    let oriented_cells = |symmetry: usize| {
        let mut cells = vec![0u8; size * size + 1];
        for p in geometry.points() {
            let coords = geometry.coords(p)?;
            let (col, row) = oriented(size, coords, symmetry);
            cells[row * size + col] = position.cell(p) as u8;
        }
        cells[size * size] = to_move as u8;
        Some(cells)
    };
    let (cells, symmetry) = (0..8)
        .filter_map(|symmetry| Some((oriented_cells(symmetry)?, symmetry)))
        .min()?;
    let key = BookKey {
        size,
        komi_halves,
        cells,
    };
    Some((key, symmetry))
}

/// Komi in half points, if it is a whole number of them.
fn komi_in_halves(komi: f32) -> Option<i32> {
    let halves = komi * 2.0;
    (halves.fract() == 0.0 && halves.abs() < 1000.0).then_some(halves as i32)
}

/// The point whose image under `symmetry` is `canonical`.
fn point_from_canonical(
    geometry: Geometry,
    canonical: (usize, usize),
    symmetry: usize,
) -> Option<Point> {
    let size = geometry.width();
    geometry.points().find(|&p| {
        geometry
            .coords(p)
            .is_some_and(|coords| oriented(size, coords, symmetry) == canonical)
    })
}

impl BookKey {
    /// Whether the position is on a `size`-wide board with `komi`.
    pub fn is_for(&self, size: usize, komi: f32) -> bool {
        self.size == size && komi_in_halves(komi) == Some(self.komi_halves)
    }
}

/// The book lines of `text` with their line numbers: `#` starts a
/// comment, blank lines are skipped.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, raw)| (index + 1, raw.split('#').next().unwrap_or("").trim()))
        .filter(|(_, content)| !content.is_empty())
}

/// Each line of a book's text (its comment cut off) with the position it
/// answers, for a tool that rewrites books.
pub fn keyed_lines(text: &str) -> Result<Vec<(BookKey, &str)>, BookError> {
    content_lines(text)
        .map(|(line, content)| {
            let (key, _) = parse_line(content).map_err(|why| BookError::BadLine { line, why })?;
            Ok((key, content))
        })
        .collect()
}

impl OpeningBook {
    /// Reads a book's text: `#` starts a comment, blank lines are skipped.
    pub fn parse(text: &str) -> Result<OpeningBook, BookError> {
        let mut book = OpeningBook::default();
        for (line, content) in content_lines(text) {
            let bad = |why: String| BookError::BadLine { line, why };
            let (key, reply) = parse_line(content).map_err(bad)?;
            if book.replies.insert(key, reply).is_some() {
                return Err(bad("the position is already in the book".to_string()));
            }
        }
        Ok(book)
    }

    /// The book shipped with Kosumi (empty, with an error logged, should
    /// its text ever fail to read; a test reads it).
    pub fn shipped() -> &'static OpeningBook {
        static BOOK: OnceLock<OpeningBook> = OnceLock::new();
        BOOK.get_or_init(|| {
            OpeningBook::parse(SHIPPED_BOOK).unwrap_or_else(|error| {
                log::error!("opening book not loaded: {error}");
                OpeningBook::default()
            })
        })
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.replies.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.replies.is_empty()
    }

    /// The book's move for `color` in `game`, if the position is in the
    /// book and the move is legal there (superko included).
    pub fn reply(&self, game: &Game, color: Color) -> Option<Point> {
        self.book_move(game, color).map(|book_move| book_move.point)
    }

    /// The book's line from `game` with `color` to move: its reply, then its
    /// replies to that for either side, while the book holds the position
    /// (at most `max_moves`).
    pub fn line(&self, game: &Game, color: Color, max_moves: usize) -> Vec<Point> {
        let mut game = game.clone();
        let mut color = color;
        let mut line = Vec::new();
        while line.len() < max_moves
            && let Some(book_move) = self.book_move(&game, color)
            && game.play(color, Move::Play(book_move.point)).is_ok()
        {
            line.push(book_move.point);
            color = color.opponent();
        }
        line
    }

    /// [`OpeningBook::reply`] with the win rate and playouts of the search
    /// that chose it.
    pub fn book_move(&self, game: &Game, color: Color) -> Option<BookMove> {
        if game.kind() != GameKind::Go {
            return None;
        }
        let (key, symmetry) = book_key(game.position(), color, game.komi())?;
        let stored = self.replies.get(&key)?;
        let p = point_from_canonical(game.geometry(), stored.canonical, symmetry)?;
        game.check_move(color, Move::Play(p))
            .is_ok()
            .then_some(BookMove {
                point: p,
                winrate: stored.winrate,
                playouts: stored.playouts,
            })
    }
}

/// One line: `size komi | moves | reply | win rate | playouts`.
fn parse_line(content: &str) -> Result<(BookKey, StoredReply), String> {
    let fields: Vec<&str> = content.split('|').map(str::trim).collect();
    let [head, moves, reply, winrate, playouts] = fields[..] else {
        return Err(format!(
            "expected 5 fields split by '|', found {}",
            fields.len()
        ));
    };
    let mut head = head.split_whitespace();
    let (Some(size), Some(komi), None) = (head.next(), head.next(), head.next()) else {
        return Err("the first field is 'size komi'".to_string());
    };
    let size: usize = size.parse().map_err(|_| format!("bad size '{size}'"))?;
    let komi: f32 = komi.parse().map_err(|_| format!("bad komi '{komi}'"))?;
    let winrate = winrate
        .parse::<f64>()
        .ok()
        .filter(|w| (0.0..=1.0).contains(w))
        .ok_or_else(|| format!("bad win rate '{winrate}'"))?;
    let playouts = playouts
        .parse::<u64>()
        .map_err(|_| format!("bad playouts '{playouts}'"))?;
    let geometry = Geometry::square(size).map_err(|error| error.to_string())?;
    let point = |text: &str| match parse_vertex(text, size, size) {
        Ok(Vertex::Point { col, row }) => Ok(geometry.point_unchecked(col, row)),
        _ => Err(format!("bad point '{text}'")),
    };
    let mut game = Game::new(geometry, GameKind::Go, komi);
    for text in moves.split_whitespace() {
        let color = game.to_move();
        game.play(color, Move::Play(point(text)?))
            .map_err(|error| format!("{text}: {error}"))?;
    }
    let to_move = game.to_move();
    let reply = point(reply)?;
    game.check_move(to_move, Move::Play(reply))
        .map_err(|error| format!("reply: {error}"))?;
    let (key, symmetry) = book_key(game.position(), to_move, komi).ok_or_else(|| {
        "the position cannot be keyed (ko, or komi not in half points)".to_string()
    })?;
    let coords = geometry.coords(reply).ok_or("reply off the board")?;
    let stored = StoredReply {
        canonical: oriented(size, coords, symmetry),
        winrate,
        playouts,
    };
    Ok((key, stored))
}

/// The book line for `moves` from the empty board answered by `reply`.
pub fn book_line(
    geometry: Geometry,
    komi: f32,
    moves: &[Point],
    reply: Point,
    winrate: f64,
    playouts: u64,
) -> String {
    let text = |p: Point| {
        geometry.coords(p).map_or_else(
            || "?".to_string(),
            |(col, row)| format_vertex(Vertex::Point { col, row }),
        )
    };
    let moves: Vec<String> = moves.iter().map(|&p| text(p)).collect();
    format!(
        "{} {} | {} | {} | {winrate:.3} | {playouts}",
        geometry.width(),
        komi,
        moves.join(" "),
        text(reply)
    )
}

/// An even game's record, as the book's tools read it.
#[derive(Debug, PartialEq)]
pub struct RecordedGame {
    /// Board size.
    pub size: usize,
    /// Komi (KM).
    pub komi: f32,
    /// Black's and White's names (PB, PW), empty where not given.
    pub black: String,
    pub white: String,
    /// The result (RE), empty where not given.
    pub result: String,
    /// The main line's first moves, up to the first pass.
    pub moves: Vec<Point>,
}

/// The first game of an SGF text with up to `plies` of its moves, if it
/// is an even game: a square board, komi given, no handicap or setup
/// stones, Black first and the colours alternating.
pub fn recorded_game(text: &str, plies: usize) -> Option<RecordedGame> {
    // Any side the rules take: 1x1 too, which loadsgf refuses.
    let record = SgfRecord::read(text, 1..=MAX_SIZE).ok()?;
    let root = record.root();
    let komi = root.first("KM")?.trim().parse::<f32>().ok()?;
    if ["AB", "AW", "HA"].iter().any(|id| root.get(id).is_some()) {
        return None;
    }
    let text_of = |id: &str| root.first(id).unwrap_or_default().trim().to_string();
    let mut moves = Vec::new();
    'nodes: for node in record.main_line() {
        for (color, value) in node_moves(node) {
            if moves.len() == plies {
                break 'nodes;
            }
            if (color == Color::Black) != (moves.len() % 2 == 0) {
                return None;
            }
            let Some(p) = record.decode_move(value).ok()? else {
                break 'nodes;
            };
            moves.push(p);
        }
    }
    Some(RecordedGame {
        size: record.geometry().width(),
        komi,
        black: text_of("PB"),
        white: text_of("PW"),
        result: text_of("RE"),
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_after(moves: &[&str]) -> Game {
        game_at_komi(7.0, moves)
    }

    fn game_at_komi(komi: f32, moves: &[&str]) -> Game {
        let geometry = Geometry::square(9).expect("9x9");
        let mut game = Game::new(geometry, GameKind::Go, komi);
        for text in moves {
            let Ok(Vertex::Point { col, row }) = parse_vertex(text, 9, 9) else {
                panic!("bad test move {text}");
            };
            let color = game.to_move();
            game.play(color, Move::Play(geometry.point_unchecked(col, row)))
                .expect("legal test move");
        }
        game
    }

    fn vertex(game: &Game, p: Point) -> String {
        let (col, row) = game.geometry().coords(p).expect("on the board");
        format_vertex(Vertex::Point { col, row })
    }

    /// The key of `game` once `reply` is played: equal keys mean equal
    /// positions up to symmetry.
    fn key_after(game: &Game, reply: Point) -> BookKey {
        let mut after = game.clone();
        let color = after.to_move();
        after.play(color, Move::Play(reply)).expect("legal reply");
        book_key(after.position(), after.to_move(), after.komi())
            .expect("keyed")
            .0
    }

    #[test]
    fn a_reply_turns_with_the_position() {
        let book = OpeningBook::parse("9 7 | D6 | C4 | 0.5 | 100\n").expect("reads");
        assert_eq!(book.len(), 1);
        let original = game_after(&["D6"]);
        let geometry = original.geometry();
        let expected = key_after(&original, geometry.point_unchecked(2, 3));
        // D6's images: F6 (columns mirrored), D4 (rows), F4 (both), and the
        // transposes of those; the reply must turn with each.
        for first in ["D6", "F6", "D4", "F4"] {
            let game = game_after(&[first]);
            let p = book.reply(&game, Color::White).expect("in the book");
            assert_eq!(
                key_after(&game, p),
                expected,
                "{first}: {}",
                vertex(&game, p)
            );
        }
    }

    #[test]
    fn only_the_same_size_komi_and_side_match() {
        let book = OpeningBook::parse("9 7 | E5 | C4 | 0.5 | 100\n").expect("reads");
        let game = game_after(&["E5"]);
        assert!(book.reply(&game, Color::White).is_some());
        assert!(book.reply(&game, Color::Black).is_none());
        let mut other_komi = game.clone();
        other_komi.set_komi(6.5);
        assert!(book.reply(&other_komi, Color::White).is_none());
        let geometry = Geometry::square(7).expect("7x7");
        let mut small = Game::new(geometry, GameKind::Go, 7.0);
        small
            .play(Color::Black, Move::Play(geometry.point_unchecked(3, 3)))
            .expect("legal");
        assert!(book.reply(&small, Color::White).is_none());
        let mut nogo = Game::new(Geometry::square(9).expect("9x9"), GameKind::NoGo, 7.0);
        nogo.play(
            Color::Black,
            Move::Play(Geometry::square(9).expect("9x9").point_unchecked(4, 4)),
        )
        .expect("legal");
        assert!(book.reply(&nogo, Color::White).is_none());
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        for text in [
            "9 7 | E5 | E5 | 0.5 | 100",
            "9 7 | E5 | Z9 | 0.5 | 100",
            "9 7 | E5 E5 | C4 | 0.5 | 100",
            "9 | E5 | C4 | 0.5 | 100",
            "9 7 | E5 | C4 | 1.5 | 100",
            "9 7 | E5 | C4 | 0.5",
        ] {
            let book = format!("# header\n{text}\n");
            for error in [
                OpeningBook::parse(&book).expect_err(text),
                keyed_lines(&book).expect_err(text),
            ] {
                assert!(
                    matches!(error, BookError::BadLine { line: 2, .. }),
                    "{text}"
                );
            }
        }
        let twice = "9 7 | D6 | C4 | 0.5 | 1\n9 7 | F4 | G6 | 0.5 | 1\n";
        assert!(OpeningBook::parse(twice).is_err());
    }

    #[test]
    fn a_record_gives_its_players_result_and_moves_up_to_a_pass() {
        let text = "(;GM[1]SZ[9]KM[7]PB[kosumi]PW[pachi]RE[W+R];B[ee];W[cg];B[];W[dd])";
        let record = recorded_game(text, 10).expect("an even game");
        let game = game_after(&["E5", "C3"]);
        let moves: Vec<String> = record.moves.iter().map(|&p| vertex(&game, p)).collect();
        assert_eq!(moves, ["E5", "C3"], "the pass ends the moves");
        assert_eq!(
            (
                record.size,
                record.komi,
                &record.black[..],
                &record.white[..]
            ),
            (9, 7.0, "kosumi", "pachi")
        );
        assert_eq!(record.result, "W+R");
        assert_eq!(recorded_game(text, 1).expect("even").moves.len(), 1);
    }

    #[test]
    fn handicap_games_and_colours_out_of_turn_are_not_records() {
        for text in [
            "(;SZ[9]KM[0.5]HA[2]AB[cc][gg];W[ee])",
            "(;SZ[9]KM[7];W[ee])",
            "(;SZ[9]KM[7];B[ee];B[cc])",
            "(;SZ[9];B[ee])",
        ] {
            assert_eq!(recorded_game(text, 10), None, "{text}");
        }
    }

    #[test]
    fn keyed_lines_key_each_line_for_its_size_and_komi() {
        let text = "# header\n9 7 | E5 | E6 | 0.5 | 1 # note\n\n13 6.5 | | G7 | 0.5 | 1\n";
        let lines = keyed_lines(text).expect("readable");
        let texts: Vec<&str> = lines.iter().map(|(_, line)| *line).collect();
        assert_eq!(
            texts,
            ["9 7 | E5 | E6 | 0.5 | 1", "13 6.5 | | G7 | 0.5 | 1"]
        );
        assert!(lines[0].0.is_for(9, 7.0));
        assert!(!lines[0].0.is_for(9, 6.5));
        assert!(!lines[0].0.is_for(13, 7.0));
        assert!(lines[1].0.is_for(13, 6.5));
        let after_e5 = game_after(&["E5"]);
        let key = book_key(after_e5.position(), after_e5.to_move(), after_e5.komi());
        assert_eq!(Some(&lines[0].0), key.as_ref().map(|(key, _)| key));
    }

    #[test]
    fn the_shipped_book_reads_and_answers_its_own_lines() {
        let book = OpeningBook::parse(SHIPPED_BOOK).expect("the shipped book reads");
        assert!(!book.is_empty());
        for line in SHIPPED_BOOK
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
        {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            if fields.len() != 5 {
                continue;
            }
            let komi: f32 = match fields[0].split_whitespace().collect::<Vec<_>>()[..] {
                ["9", komi] => komi.parse().expect("komi"),
                _ => panic!("the shipped book is 9x9: {line}"),
            };
            let moves: Vec<&str> = fields[1].split_whitespace().collect();
            let game = game_at_komi(komi, &moves);
            let p = book
                .reply(&game, game.to_move())
                .expect("its own line matches");
            let Ok(Vertex::Point { col, row }) = parse_vertex(fields[2], 9, 9) else {
                panic!("bad reply in {line}");
            };
            let written = game.geometry().point_unchecked(col, row);
            assert_eq!(key_after(&game, p), key_after(&game, written), "{line}");
        }
    }

    #[test]
    fn line_text_reads_back() {
        let game = game_after(&["E5", "D3"]);
        let geometry = game.geometry();
        let moves: Vec<Point> = game
            .moves()
            .iter()
            .filter_map(|&(_, mv)| match mv {
                Move::Play(p) => Some(p),
                Move::Pass => None,
            })
            .collect();
        let line = book_line(
            geometry,
            7.0,
            &moves,
            geometry.point_unchecked(2, 3),
            0.5123,
            1000,
        );
        assert_eq!(line, "9 7 | E5 D3 | C4 | 0.512 | 1000");
        assert!(OpeningBook::parse(&line).is_ok());
    }
}
