//! GTP v2 input layer: line preprocessing, command-line splitting and
//! argument parsing.
//!
//! This module knows nothing about the board: vertices come back as plain
//! column/row coordinates and colours as [`GtpColor`], and the engine maps
//! them onto its own types. Every [`ParseError`] displays as the GTP 2
//! standard failure text, so the command layer can answer `? {error}`.
//!
//! Case-insensitive matching is done on ASCII only (`eq_ignore_ascii_case`),
//! never with nom's `tag_no_case` on `&str`: in nom 8.0.0 that combinator
//! compares Unicode lowercase forms but then slices by the tag's byte length,
//! so input such as `blac\u{212A}` (Kelvin sign) panics on a char boundary.

use std::collections::HashSet;

use nom::{
    IResult, Parser,
    character::complete::{digit1, one_of},
    combinator::{all_consuming, opt, recognize},
    number::complete::recognize_float,
};
use thiserror::Error;

use crate::board::vertex::{self, VertexError};
pub use crate::board::vertex::{Vertex, format_vertex, format_vertex_lower};

/// Why a command line or argument was rejected.
///
/// `Display` is the GTP 2 failure message to send. The spec words most
/// argument failures as `syntax error`, so several variants share that text;
/// they stay distinct so callers, logs and tests can tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The line starts with an all-digit id too large for `u32`. No id was
    /// read, so the answer carries none: `? syntax error`.
    #[error("syntax error")]
    IdOutOfRange,
    /// The line is an id and nothing else. The answer echoes the id.
    #[error("syntax error")]
    MissingCommandName { id: u32 },
    /// Not one of `b`, `w`, `black`, `white` (any case).
    #[error("syntax error")]
    InvalidColor,
    /// Not `pass` and not a column letter followed by a row number.
    #[error("syntax error")]
    InvalidVertex,
    /// `resign` where a vertex was expected. GTP only uses `resign` as a
    /// `genmove` answer; it is kept apart so a caller may accept it.
    #[error("syntax error")]
    ResignNotAVertex,
    /// A well-formed vertex that lies off the board (column past the width,
    /// row 0 or above the height). The text is `play`'s spec wording; other
    /// commands should answer `syntax error` instead.
    #[error("illegal move")]
    VertexOffBoard,
    /// Not a decimal integer, or outside the range the caller asked for.
    #[error("syntax error")]
    InvalidInteger,
    /// Not a finite decimal number.
    #[error("syntax error")]
    InvalidFloat,
    /// `set_free_handicap`: the same vertex listed twice.
    #[error("bad vertex list")]
    DuplicateVertex,
    /// `set_free_handicap`: `pass` or an off-board vertex in the list, or a
    /// list shorter than 2 or longer than the board's points minus one.
    #[error("bad vertex list")]
    BadVertexList,
}

impl ParseError {
    /// The command id read before the error, for answering `?id ...`.
    pub fn id(&self) -> Option<u32> {
        match *self {
            ParseError::MissingCommandName { id } => Some(id),
            _ => None,
        }
    }
}

/// A colour as GTP spells it; the engine maps it to its own colour type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GtpColor {
    Black,
    White,
}

/// A `color vertex` argument pair, as taken by `play`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GtpMove {
    pub color: GtpColor,
    pub vertex: Vertex,
}

/// One preprocessed, non-empty command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    pub id: Option<u32>,
    /// Case-sensitive, as GTP requires; kept exactly as sent.
    pub name: String,
    pub args: Vec<String>,
}

/// GTP 2 section 3.1 steps 1-3: drop control characters other than HT and
/// LF (so CR goes), cut each line from `#` to its end, turn HT into space.
/// Line breaks are kept, so a multi-line input stays multi-line; discarding
/// blank lines (step 4) is left to [`parse_command_line`].
pub fn preprocess(raw: &str) -> String {
    let mut cleaned = String::with_capacity(raw.len());
    let mut in_comment = false;
    for ch in raw.chars() {
        match ch {
            '\n' => {
                in_comment = false;
                cleaned.push('\n');
            }
            _ if in_comment => {}
            '#' => in_comment = true,
            '\t' => cleaned.push(' '),
            // GTP's control characters are ASCII 0-31 and 127 (spec 2.2);
            // non-ASCII text is left for the argument parsers to reject.
            _ if ch.is_ascii_control() => {}
            _ => cleaned.push(ch),
        }
    }
    cleaned
}

/// True for the `# interrupt` comment line GoGui sends to stop a search.
/// It is a comment, so it must be checked on the raw line, before
/// [`preprocess`] strips it.
pub fn is_interrupt_comment(raw: &str) -> bool {
    raw.trim().eq_ignore_ascii_case("# interrupt")
}

/// Splits one raw input line into `[id] name args...`.
///
/// Returns `None` when the line is empty, blank or only a comment, since
/// GTP ignores such lines without answering. A first word made only of
/// ASCII digits is the id; any other first word is the command name. A
/// trailing LF is fine; an LF inside `raw` is treated as a word separator.
pub fn parse_command_line(raw: &str) -> Option<Result<CommandLine, ParseError>> {
    let line = preprocess(raw);
    // After preprocessing the only GTP whitespace left is space (and LF).
    let mut words = line.split([' ', '\n']).filter(|word| !word.is_empty());
    let first_word = words.next()?;
    Some(command_from_words(first_word, words))
}

fn command_from_words<'a>(
    first_word: &'a str,
    mut rest: impl Iterator<Item = &'a str>,
) -> Result<CommandLine, ParseError> {
    let (id, name) = if first_word.bytes().all(|byte| byte.is_ascii_digit()) {
        let id = first_word
            .parse::<u32>()
            .map_err(|_| ParseError::IdOutOfRange)?;
        let name = rest.next().ok_or(ParseError::MissingCommandName { id })?;
        (Some(id), name)
    } else {
        (None, first_word)
    };
    Ok(CommandLine {
        id,
        name: name.to_owned(),
        args: rest.map(str::to_owned).collect(),
    })
}

/// Parses `b`, `w`, `black` or `white`, in any case.
pub fn parse_color(text: &str) -> Result<GtpColor, ParseError> {
    const SPELLINGS: [(&str, GtpColor); 4] = [
        ("b", GtpColor::Black),
        ("black", GtpColor::Black),
        ("w", GtpColor::White),
        ("white", GtpColor::White),
    ];
    SPELLINGS
        .iter()
        .find(|(spelling, _)| text.eq_ignore_ascii_case(spelling))
        .map(|&(_, color)| color)
        .ok_or(ParseError::InvalidColor)
}

/// Parses a vertex (`D4`, `pass`, any case) on a board of the given size:
/// [`crate::board::vertex::parse_vertex`] with its errors as GTP's.
///
/// Errors: [`ParseError::InvalidVertex`] for malformed text (including
/// column `I` and two-letter columns), [`ParseError::ResignNotAVertex`] for
/// `resign`, [`ParseError::VertexOffBoard`] for well-formed vertices outside
/// the board such as `A0`, `T20` on 19x19 or `A26`.
pub fn parse_vertex(
    text: &str,
    board_width: usize,
    board_height: usize,
) -> Result<Vertex, ParseError> {
    vertex::parse_vertex(text, board_width, board_height).map_err(|error| match error {
        VertexError::Invalid => ParseError::InvalidVertex,
        VertexError::Resign => ParseError::ResignNotAVertex,
        VertexError::OffBoard => ParseError::VertexOffBoard,
    })
}

/// An optional sign then ASCII digits, with nothing around them.
fn signed_digits(input: &str) -> IResult<&str, &str> {
    all_consuming(recognize((opt(one_of("+-")), digit1))).parse(input)
}

/// Parses a decimal integer with an optional `+`/`-` sign into `i64`.
///
/// GTP's `int` is unsigned; the sign is accepted so callers can give a
/// precise range check, e.g. with [`parse_u32`].
pub fn parse_int(text: &str) -> Result<i64, ParseError> {
    let (_, digits) = signed_digits(text).map_err(|_| ParseError::InvalidInteger)?;
    digits
        .parse::<i64>()
        .map_err(|_| ParseError::InvalidInteger)
}

/// [`parse_int`] limited to `u32` (negative or too large is an error).
pub fn parse_u32(text: &str) -> Result<u32, ParseError> {
    u32::try_from(parse_int(text)?).map_err(|_| ParseError::InvalidInteger)
}

/// [`parse_int`] limited to `usize` (negative or too large is an error).
pub fn parse_usize(text: &str) -> Result<usize, ParseError> {
    usize::try_from(parse_int(text)?).map_err(|_| ParseError::InvalidInteger)
}

fn float_text(input: &str) -> IResult<&str, &str> {
    all_consuming(recognize_float).parse(input)
}

/// Parses a GTP `float` such as `7`, `6.5`, `-3`, `.5` or `5.`.
///
/// Exponents (`1e3`) are accepted, as the reference implementation GNU Go
/// reads floats with C's `%f`. `nan`, `inf` and values that overflow to
/// infinity (`1e999`) are rejected: no komi or time may be non-finite.
pub fn parse_float(text: &str) -> Result<f64, ParseError> {
    let (_, number) = float_text(text).map_err(|_| ParseError::InvalidFloat)?;
    let value = number
        .parse::<f64>()
        .map_err(|_| ParseError::InvalidFloat)?;
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ParseError::InvalidFloat)
    }
}

/// Parses `play`'s `color vertex` pair; errors as for [`parse_color`] and
/// [`parse_vertex`].
pub fn parse_move(
    color: &str,
    vertex: &str,
    board_width: usize,
    board_height: usize,
) -> Result<GtpMove, ParseError> {
    Ok(GtpMove {
        color: parse_color(color)?,
        vertex: parse_vertex(vertex, board_width, board_height)?,
    })
}

/// Parses `set_free_handicap`'s arguments (all of them) per the spec: at
/// least 2 and at most (points - 1) distinct on-board vertices, no `pass`.
/// Every returned vertex is a [`Vertex::Point`].
///
/// Malformed text is [`ParseError::InvalidVertex`] (`syntax error`); a
/// repeat is [`ParseError::DuplicateVertex`]; pass, off-board vertices and
/// a wrong count are [`ParseError::BadVertexList`] (`bad vertex list`).
pub fn parse_vertex_list<S: AsRef<str>>(
    words: &[S],
    board_width: usize,
    board_height: usize,
) -> Result<Vec<Vertex>, ParseError> {
    let mut vertices = Vec::with_capacity(words.len());
    let mut seen = HashSet::with_capacity(words.len());
    for word in words {
        let vertex = match parse_vertex(word.as_ref(), board_width, board_height) {
            Ok(Vertex::Pass) | Err(ParseError::VertexOffBoard) => {
                return Err(ParseError::BadVertexList);
            }
            Ok(point) => point,
            Err(syntax) => return Err(syntax),
        };
        if !seen.insert(vertex) {
            return Err(ParseError::DuplicateVertex);
        }
        vertices.push(vertex);
    }
    let max_stones = board_width.saturating_mul(board_height).saturating_sub(1);
    if vertices.len() < 2 || vertices.len() > max_stones {
        return Err(ParseError::BadVertexList);
    }
    Ok(vertices)
}

#[cfg(test)]
mod tests;
