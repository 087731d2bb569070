//! SGF reading and writing.
//!
//! This module knows the SGF FF[4] syntax only; it does not know the rules
//! of Go. The reader returns raw properties (identifier plus unescaped
//! values) and the engine layer decides what they mean. Point helpers turn
//! SGF coordinates into `(x, y)` pairs counted from the top-left corner,
//! and `write_game` writes a single line of play.
//!
//! Grammar (FF[4]):
//!
//! ```text
//! Collection = GameTree { GameTree }
//! GameTree   = "(" Sequence { GameTree } ")"
//! Sequence   = Node { Node }
//! Node       = ";" { Property }
//! Property   = PropIdent PropValue { PropValue }
//! PropValue  = "[" text with "\]", "\\" escapes and "\<newline>" soft breaks "]"
//! ```

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Game trees nested deeper than this are rejected. The reader itself uses
/// an explicit stack, but dropping, cloning or comparing a `GameTree` still
/// recurses once per level, so unbounded nesting could overflow the stack.
pub const MAX_TREE_DEPTH: usize = 1000;

/// A collection with more nodes than this is rejected: far more than any
/// game record holds, and it keeps a hostile file's memory bounded (a
/// node costs a few hundred bytes once read).
pub const MAX_NODES: usize = 100_000;

/// A collection with more property values than this is rejected, for the
/// same reason (a value costs a few dozen bytes beside its text).
pub const MAX_VALUES: usize = 1_000_000;

/// SGF coordinates are 'a'..='z' then 'A'..='Z', so no side can be longer.
pub const MAX_BOARD_SIDE: usize = 52;

/// Board size when the root node has no `SZ` property (FF[4] default for Go).
pub const DEFAULT_BOARD_SIZE: usize = 19;

/// `write_game` starts a new line after this many moves.
const MOVES_PER_LINE: usize = 10;

/// Line and column (both 1-based, column counted in characters) of a place
/// in the input, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Everything that can go wrong while reading SGF or decoding its values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    #[error("no game tree found: an SGF collection needs at least one '(' ... ')'")]
    EmptyCollection,
    #[error("unexpected end of input at {at}: expected {expected}")]
    UnexpectedEnd {
        expected: &'static str,
        at: Location,
    },
    #[error("unexpected character {found:?} at {at}: expected {expected}")]
    UnexpectedChar {
        found: char,
        expected: &'static str,
        at: Location,
    },
    #[error("game tree opened at {at} is never closed: missing ')'")]
    UnclosedGameTree { at: Location },
    #[error("bad property identifier {id:?} at {at}: it needs at least one upper-case letter")]
    BadPropertyId { id: String, at: Location },
    #[error("property {id} at {at} has no value: expected '[' after the identifier")]
    MissingValue { id: String, at: Location },
    #[error("value of property {id} starting at {at} is never closed: missing ']'")]
    UnclosedValue { id: String, at: Location },
    #[error("more than {limit} {what} at {at}")]
    TooLarge {
        what: &'static str,
        limit: usize,
        at: Location,
    },
    #[error("game trees nested deeper than {limit} levels at {at}")]
    TooDeep { limit: usize, at: Location },
    #[error("bad point {value:?} on a {width}x{height} board: {reason}")]
    BadPoint {
        value: String,
        width: usize,
        height: usize,
        reason: &'static str,
    },
    #[error("bad board size {value:?}: expected SZ[n] or SZ[columns:rows] with sides from 1 to 52")]
    BadBoardSize { value: String },
}

/// One property: an identifier such as `B` or `AB` and its values, with
/// escapes and soft line breaks already removed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Property {
    pub id: String,
    pub values: Vec<String>,
}

/// A node (`;` followed by properties). Within one node each identifier
/// appears once: the reader merges repeated identifiers, keeping all values.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Node {
    pub props: Vec<Property>,
}

impl Node {
    /// All values of property `id`, if the node has it.
    pub fn get(&self, id: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|property| property.id == id)
            .map(|property| property.values.as_slice())
    }

    /// The first value of property `id`, if the node has it.
    pub fn first(&self, id: &str) -> Option<&str> {
        self.get(id)?.first().map(String::as_str)
    }
}

/// A sequence of nodes followed by its variations. The first variation is
/// the main line; the reader guarantees `nodes` is not empty.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameTree {
    pub nodes: Vec<Node>,
    pub variations: Vec<GameTree>,
}

impl GameTree {
    /// The root node, which holds the game information (SZ, KM, ...).
    pub fn root(&self) -> Option<&Node> {
        self.nodes.first()
    }

    /// The nodes of the main line: this tree's sequence, then the first
    /// variation at each fork, down to a leaf.
    pub fn main_line(&self) -> Vec<&Node> {
        let mut line = Vec::new();
        let mut tree = self;
        loop {
            line.extend(tree.nodes.iter());
            match tree.variations.first() {
                Some(first_variation) => tree = first_variation,
                None => return line,
            }
        }
    }
}

/// The game trees of one SGF file, in file order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Collection {
    pub games: Vec<GameTree>,
}

/// Reads an SGF collection. Accepts FF[1]-FF[4] syntax: lower-case letters
/// in property identifiers (FF[3] style `AddBlack`) are dropped, leaving
/// the upper-case letters (`AB`). Never panics; nesting deeper than
/// `MAX_TREE_DEPTH` is an error.
pub fn parse(text: &str) -> Result<Collection, SgfError> {
    Reader::new(text).collection()
}

/// A cursor over the input. It only ever advances by whole characters, so
/// `pos` is always a char boundary.
struct Reader<'a> {
    text: &'a str,
    pos: usize,
    /// Nodes and property values read so far (see [`MAX_NODES`] and
    /// [`MAX_VALUES`]).
    nodes: usize,
    values: usize,
}

/// What [`Reader::count`] counts.
enum Counted {
    Node,
    Value,
}

/// A game tree still being read, with where its '(' was for error messages.
struct OpenTree {
    tree: GameTree,
    opened_at: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        // Editors on Windows like to start files with a byte order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Reader {
            text,
            pos: 0,
            nodes: 0,
            values: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text.get(self.pos..)?.chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let next = self.peek()?;
        self.pos += next.len_utf8();
        Some(next)
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn location(&self, offset: usize) -> Location {
        let before = self.text.get(..offset).unwrap_or(self.text);
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
        let column = before.get(line_start..).unwrap_or("").chars().count() + 1;
        Location { line, column }
    }

    fn unexpected(&self, found: Option<char>, expected: &'static str) -> SgfError {
        let at = self.location(self.pos);
        match found {
            Some(found) => SgfError::UnexpectedChar {
                found,
                expected,
                at,
            },
            None => SgfError::UnexpectedEnd { expected, at },
        }
    }

    /// Reads game trees with an explicit stack of open trees instead of
    /// recursion, so hostile nesting cannot overflow the call stack.
    fn collection(&mut self) -> Result<Collection, SgfError> {
        let mut games = Vec::new();
        let mut open: Vec<OpenTree> = Vec::new();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some('(') => {
                    if open.len() >= MAX_TREE_DEPTH {
                        return Err(SgfError::TooDeep {
                            limit: MAX_TREE_DEPTH,
                            at: self.location(self.pos),
                        });
                    }
                    let opened_at = self.pos;
                    self.bump();
                    let nodes = self.sequence()?;
                    open.push(OpenTree {
                        tree: GameTree {
                            nodes,
                            variations: Vec::new(),
                        },
                        opened_at,
                    });
                }
                Some(')') if !open.is_empty() => {
                    self.bump();
                    if let Some(finished) = open.pop() {
                        match open.last_mut() {
                            Some(parent) => parent.tree.variations.push(finished.tree),
                            None => games.push(finished.tree),
                        }
                    }
                }
                None => {
                    return match open.last() {
                        Some(unclosed) => Err(SgfError::UnclosedGameTree {
                            at: self.location(unclosed.opened_at),
                        }),
                        None if games.is_empty() => Err(SgfError::EmptyCollection),
                        None => Ok(Collection { games }),
                    };
                }
                found if open.is_empty() => {
                    return Err(self.unexpected(found, "'(' starting a game tree"));
                }
                found => {
                    return Err(self.unexpected(
                        found,
                        "'(' starting a variation or ')' closing the game tree",
                    ));
                }
            }
        }
    }

    /// Counts one more node or value, failing past its limit.
    fn count(&mut self, what: Counted) -> Result<(), SgfError> {
        let (count, limit, name) = match what {
            Counted::Node => (&mut self.nodes, MAX_NODES, "nodes"),
            Counted::Value => (&mut self.values, MAX_VALUES, "property values"),
        };
        *count += 1;
        if *count > limit {
            return Err(SgfError::TooLarge {
                what: name,
                limit,
                at: self.location(self.pos),
            });
        }
        Ok(())
    }

    /// Reads the nodes right after a '('; there must be at least one.
    fn sequence(&mut self) -> Result<Vec<Node>, SgfError> {
        let mut nodes = Vec::new();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(';') => {
                    self.count(Counted::Node)?;
                    self.bump();
                    nodes.push(self.node()?);
                }
                found if nodes.is_empty() => {
                    return Err(self.unexpected(found, "';' starting the first node"));
                }
                _ => return Ok(nodes),
            }
        }
    }

    /// Reads the properties of a node whose ';' has been consumed.
    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::default();
        // Index of each identifier in `node.props`, to merge repeats without
        // a quadratic scan on nodes with many properties.
        let mut index_of_id: HashMap<String, usize> = HashMap::new();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(letter) if letter.is_ascii_alphabetic() => {
                    let property = self.property()?;
                    match index_of_id.get(&property.id) {
                        Some(&index) => {
                            if let Some(existing) = node.props.get_mut(index) {
                                existing.values.extend(property.values);
                            }
                        }
                        None => {
                            index_of_id.insert(property.id.clone(), node.props.len());
                            node.props.push(property);
                        }
                    }
                }
                Some(';' | '(' | ')') | None => return Ok(node),
                found => return Err(self.unexpected(found, "a property identifier")),
            }
        }
    }

    fn property(&mut self) -> Result<Property, SgfError> {
        let id_start = self.pos;
        let mut written_id = String::new();
        while let Some(letter) = self.peek().filter(char::is_ascii_alphabetic) {
            written_id.push(letter);
            self.bump();
        }
        // FF[3] and older allowed lower-case letters in identifiers
        // ("AddBlack"); only the upper-case ones are significant.
        let id: String = written_id
            .chars()
            .filter(char::is_ascii_uppercase)
            .collect();
        if id.is_empty() {
            return Err(SgfError::BadPropertyId {
                id: written_id,
                at: self.location(id_start),
            });
        }
        let mut values = Vec::new();
        loop {
            self.skip_whitespace();
            if self.peek() != Some('[') {
                break;
            }
            let value_start = self.pos;
            self.count(Counted::Value)?;
            self.bump();
            match self.value_text() {
                Some(value) => values.push(value),
                None => {
                    return Err(SgfError::UnclosedValue {
                        id,
                        at: self.location(value_start),
                    });
                }
            }
        }
        if values.is_empty() {
            return Err(SgfError::MissingValue {
                id,
                at: self.location(id_start),
            });
        }
        Ok(Property { id, values })
    }

    /// Reads a value after its '[' up to and including the closing ']'.
    /// Returns `None` if the input ends first.
    fn value_text(&mut self) -> Option<String> {
        let mut value = String::new();
        loop {
            match self.bump()? {
                ']' => return Some(value),
                '\\' => match self.bump()? {
                    // Soft line break: the backslash and the line break
                    // vanish, whichever of the four line-break styles it is.
                    '\n' => self.skip_paired_line_break('\r'),
                    '\r' => self.skip_paired_line_break('\n'),
                    escaped => value.push(escaped),
                },
                plain => value.push(plain),
            }
        }
    }

    fn skip_paired_line_break(&mut self, partner: char) {
        if self.peek() == Some(partner) {
            self.bump();
        }
    }
}

/// Decodes one SGF point such as `"ab"` into `(x, y)`: x is the column
/// ('a' = 0), y the row counted from the top ('b' = 1). `""`, and `"tt"` on
/// boards up to 19x19, mean pass and give `Ok(None)`.
pub fn decode_point(
    value: &str,
    width: usize,
    height: usize,
) -> Result<Option<(usize, usize)>, SgfError> {
    let is_old_style_pass = value == "tt" && width <= 19 && height <= 19;
    if value.is_empty() || is_old_style_pass {
        return Ok(None);
    }
    decode_board_point(value, width, height).map(Some)
}

/// Decodes the values of a point-list property (AB, AW, AE, ...). Each value
/// is a point or a compressed rectangle `"aa:cc"` (two opposite corners).
/// Empty values are skipped: FF[4] writes an empty list as `[]`. Passes are
/// not points, so `"tt"` here is only valid on boards larger than 19.
pub fn decode_point_list(
    values: &[String],
    width: usize,
    height: usize,
) -> Result<Vec<(usize, usize)>, SgfError> {
    let mut points = Vec::new();
    for value in values.iter().filter(|value| !value.is_empty()) {
        match value.split_once(':') {
            None => points.push(decode_board_point(value, width, height)?),
            Some((first_corner, second_corner)) => {
                let (x1, y1) = decode_board_point(first_corner, width, height)?;
                let (x2, y2) = decode_board_point(second_corner, width, height)?;
                // Corners should be upper-left then lower-right, but
                // accepting either order costs nothing.
                for y in y1.min(y2)..=y1.max(y2) {
                    for x in x1.min(x2)..=x1.max(x2) {
                        points.push((x, y));
                    }
                }
            }
        }
    }
    Ok(points)
}

/// Decodes a two-letter point that must lie on the board (no pass).
fn decode_board_point(
    value: &str,
    width: usize,
    height: usize,
) -> Result<(usize, usize), SgfError> {
    let bad_point = |reason| SgfError::BadPoint {
        value: value.to_owned(),
        width,
        height,
        reason,
    };
    let mut letters = value.chars();
    let (Some(column), Some(row), None) = (letters.next(), letters.next(), letters.next()) else {
        return Err(bad_point("a point is exactly two letters"));
    };
    let (Some(x), Some(y)) = (coordinate_index(column), coordinate_index(row)) else {
        return Err(bad_point("coordinates are letters a-z or A-Z"));
    };
    if x >= width || y >= height {
        return Err(bad_point("the point is off the board"));
    }
    Ok((x, y))
}

fn coordinate_index(letter: char) -> Option<usize> {
    match letter {
        'a'..='z' => Some(letter as usize - 'a' as usize),
        'A'..='Z' => Some(letter as usize - 'A' as usize + 26),
        _ => None,
    }
}

/// Board size `(columns, rows)` from the `SZ` property of a root node:
/// `SZ[19]` is square, `SZ[19:13]` is 19 columns by 13 rows. Without `SZ`
/// the board is 19x19.
pub fn board_size(node: &Node) -> Result<(usize, usize), SgfError> {
    let Some(value) = node.first("SZ") else {
        return Ok((DEFAULT_BOARD_SIZE, DEFAULT_BOARD_SIZE));
    };
    let bad_size = || SgfError::BadBoardSize {
        value: value.to_owned(),
    };
    let parse_side = |text: &str| {
        text.trim()
            .parse::<usize>()
            .ok()
            .filter(|side| (1..=MAX_BOARD_SIDE).contains(side))
            .ok_or_else(bad_size)
    };
    match value.split_once(':') {
        None => {
            let side = parse_side(value)?;
            Ok((side, side))
        }
        Some((columns, rows)) => Ok((parse_side(columns)?, parse_side(rows)?)),
    }
}

/// Encodes `(x, y)`, counted from the top-left corner, as SGF letters:
/// `(0, 1)` is `"ab"`. Coordinates from 26 to 51 use 'A'..='Z'.
pub fn encode_point(x: usize, y: usize) -> String {
    [coordinate_letter(x), coordinate_letter(y)]
        .iter()
        .collect()
}

fn coordinate_letter(index: usize) -> char {
    debug_assert!(
        index < MAX_BOARD_SIDE,
        "SGF cannot encode coordinate {index}"
    );
    // Out-of-range coordinates become '?', which readers reject, rather than
    // a wrong point or a silent pass.
    match u8::try_from(index) {
        Ok(small @ 0..=25) => char::from(b'a' + small),
        Ok(large @ 26..=51) => char::from(b'A' + (large - 26)),
        _ => '?',
    }
}

/// The SGF files named by `paths`, sorted: a file stands for itself, a
/// folder for the `.sgf` files (any case) anywhere under it. Collections
/// such as computer-go-dataset's AI folder nest games by program and
/// month; links to folders are not followed, so a loop cannot trap the walk.
pub fn files_under<P: AsRef<Path>>(paths: &[P]) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        let path = path.as_ref();
        if path.is_dir() {
            sgf_files_in(path, &mut files)?;
        } else {
            files.push(path.to_path_buf());
        }
    }
    files.sort();
    Ok(files)
}

fn sgf_files_in(folder: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            sgf_files_in(&path, files)?;
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
        {
            files.push(path);
        }
    }
    Ok(())
}

/// Writes a game record with one line of play, e.g.
/// `(;FF[4]GM[1]SZ[9]KM[7]\n;B[ee];W[])`.
///
/// `root` holds the root properties in order; `FF[4]` and `GM[1]` are put
/// first unless given, and `CA[UTF-8]` is added when some value is not ASCII
/// and no `CA` is given. A property with no values is written with one empty
/// value. `moves` are `'B'` or `'W'` with a point from the top-left corner,
/// or `None` for a pass. Values are escaped; a line break follows the root
/// and every ten moves.
pub fn write_game(
    root: &[(String, Vec<String>)],
    moves: &[(char, Option<(usize, usize)>)],
) -> String {
    let has_property = |wanted: &str| root.iter().any(|(id, _)| id == wanted);
    let has_non_ascii_value = root
        .iter()
        .flat_map(|(_, values)| values)
        .any(|value| !value.is_ascii());

    let mut out = String::from("(;");
    if !has_property("FF") {
        out.push_str("FF[4]");
    }
    if !has_property("GM") {
        out.push_str("GM[1]");
    }
    if has_non_ascii_value && !has_property("CA") {
        out.push_str("CA[UTF-8]");
    }
    for (id, values) in root {
        out.push_str(id);
        if values.is_empty() {
            out.push_str("[]");
        }
        for value in values {
            out.push('[');
            push_escaped(&mut out, value);
            out.push(']');
        }
    }
    for (index, &(color, point)) in moves.iter().enumerate() {
        debug_assert!(matches!(color, 'B' | 'W'), "move colour must be B or W");
        if index % MOVES_PER_LINE == 0 {
            out.push('\n');
        }
        out.push(';');
        out.push(color);
        out.push('[');
        if let Some((x, y)) = point {
            out.push_str(&encode_point(x, y));
        }
        out.push(']');
    }
    out.push_str(")\n");
    out
}

/// Appends a value with `]` and `\` escaped so the reader gets it back.
fn push_escaped(out: &mut String, value: &str) {
    for character in value.chars() {
        if matches!(character, ']' | '\\') {
            out.push('\\');
        }
        out.push(character);
    }
}

#[cfg(test)]
mod tests;
