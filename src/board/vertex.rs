//! Vertex names: the GTP spelling of a point (`D4`, `pass`), shared by the
//! protocol, the opening book and the SGF tools. Column letters skip `I`;
//! row 1 is the bottom row.

use nom::{
    IResult, Parser,
    character::complete::{anychar, digit1},
    combinator::{all_consuming, map_opt},
};
use thiserror::Error;

/// A vertex. `col` 0 is column `A` (letters skip `I`); `row` 0 is row 1,
/// the bottom row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Vertex {
    Pass,
    Point { col: usize, row: usize },
}

/// Why a text is not a vertex on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum VertexError {
    /// Not `pass` and not a column letter followed by a row number.
    #[error("not a vertex")]
    Invalid,
    /// `resign`, which names no point.
    #[error("resign is not a vertex")]
    Resign,
    /// Well formed, but off the board (column past the width, row 0 or
    /// above the height).
    #[error("vertex off the board")]
    OffBoard,
}

/// Column letters: `I` is skipped to avoid confusion with `J`/`1`.
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The column of a letter, either case.
fn column_index(letter: char) -> Option<usize> {
    let upper = letter.to_ascii_uppercase();
    COLUMN_LETTERS
        .iter()
        .position(|&column| char::from(column) == upper)
}

/// `<column letter><row digits>` with nothing around it; the row is not yet
/// range-checked.
fn column_and_row_digits(input: &str) -> IResult<&str, (usize, &str)> {
    all_consuming((map_opt(anychar, column_index), digit1)).parse(input)
}

/// Parses a vertex (`D4`, `pass`, any case) on a board of the given size.
/// Column `I` and two-letter columns are [`VertexError::Invalid`]; `A0`,
/// `T20` on 19x19 or `A26` are [`VertexError::OffBoard`].
pub fn parse_vertex(
    text: &str,
    board_width: usize,
    board_height: usize,
) -> Result<Vertex, VertexError> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Vertex::Pass);
    }
    if text.eq_ignore_ascii_case("resign") {
        return Err(VertexError::Resign);
    }
    let (_, (col, row_digits)) = column_and_row_digits(text).map_err(|_| VertexError::Invalid)?;
    // A row too long for usize is still well formed, just far off the board.
    let row_number = row_digits
        .parse::<usize>()
        .map_err(|_| VertexError::OffBoard)?;
    if col >= board_width || row_number == 0 || row_number > board_height {
        return Err(VertexError::OffBoard);
    }
    Ok(Vertex::Point {
        col,
        row: row_number - 1,
    })
}

/// Upper-case spelling, as in GTP responses: `D4`, `PASS`.
///
/// Columns past `Z` cannot be written; the engine never has them, and they
/// print as `?` rather than panic.
pub fn format_vertex(vertex: Vertex) -> String {
    match vertex {
        Vertex::Pass => "PASS".to_owned(),
        Vertex::Point { col, row } => {
            debug_assert!(col < COLUMN_LETTERS.len(), "column {col} has no GTP letter");
            let letter = COLUMN_LETTERS
                .get(col)
                .map_or('?', |&byte| char::from(byte));
            // Saturating only matters for absurd rows; it keeps this panic-free.
            format!("{letter}{}", row.saturating_add(1))
        }
    }
}

/// Lower-case spelling, as analysis `info` lines use: `d4`, `pass`.
pub fn format_vertex_lower(vertex: Vertex) -> String {
    format_vertex(vertex).to_ascii_lowercase()
}
