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
/// folder for the `.sgf` files directly in it.
pub fn files_under<P: AsRef<Path>>(paths: &[P]) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        let path = path.as_ref();
        if path.is_dir() {
            for entry in std::fs::read_dir(path)? {
                let entry = entry?.path();
                if entry.extension().is_some_and(|e| e == "sgf") {
                    files.push(entry);
                }
            }
        } else {
            files.push(path.to_path_buf());
        }
    }
    files.sort();
    Ok(files)
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
mod tests {
    use super::*;

    fn only_game(text: &str) -> GameTree {
        let mut collection = parse(text).unwrap_or_else(|error| panic!("{text:?}: {error}"));
        assert_eq!(collection.games.len(), 1, "{text:?}");
        collection.games.remove(0)
    }

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|value| value.to_string()).collect()
    }

    fn move_of(node: &Node) -> Option<(char, &str)> {
        if let Some(point) = node.first("B") {
            Some(('B', point))
        } else {
            node.first("W").map(|point| ('W', point))
        }
    }

    #[test]
    fn sgf_round_trip_keeps_properties_and_moves() {
        let root = vec![
            ("SZ".to_string(), strings(&["9"])),
            ("KM".to_string(), strings(&["7"])),
            ("PB".to_string(), strings(&["Kosumi ]v1[ \\ test"])),
            ("C".to_string(), strings(&["line one\nline two\\"])),
            ("AB".to_string(), strings(&["aa", "bb:cc"])),
        ];
        let moves: Vec<(char, Option<(usize, usize)>)> = (0..25)
            .map(|turn| {
                let color = if turn % 2 == 0 { 'B' } else { 'W' };
                let point = if turn % 7 == 6 {
                    None
                } else {
                    Some((turn % 9, (turn * 4) % 9))
                };
                (color, point)
            })
            .collect();

        let text = write_game(&root, &moves);
        let game = only_game(&text);
        let line = game.main_line();
        assert_eq!(line.len(), 1 + moves.len());

        let root_node = line[0];
        assert_eq!(root_node.first("FF"), Some("4"));
        assert_eq!(root_node.first("GM"), Some("1"));
        for (id, values) in &root {
            assert_eq!(root_node.get(id), Some(values.as_slice()), "{id}");
        }
        assert_eq!(board_size(root_node), Ok((9, 9)));

        for (node, &(color, point)) in line[1..].iter().zip(&moves) {
            let (read_color, value) = move_of(node).expect("every node after the root is a move");
            assert_eq!(read_color, color);
            assert_eq!(decode_point(value, 9, 9), Ok(point));
        }
    }

    #[test]
    fn sgf_writer_layout() {
        let root = vec![
            ("SZ".to_string(), strings(&["9"])),
            ("KM".to_string(), strings(&["7"])),
        ];
        let moves = vec![('B', Some((4, 4))), ('W', None)];
        assert_eq!(
            write_game(&root, &moves),
            "(;FF[4]GM[1]SZ[9]KM[7]\n;B[ee];W[])\n"
        );

        let many_moves = vec![('B', None); 25];
        let text = write_game(&[], &many_moves);
        // Root line, then 10 + 10 + 5 moves.
        assert_eq!(text.lines().count(), 4);

        let given_ff = vec![("FF".to_string(), strings(&["4"]))];
        assert_eq!(write_game(&given_ff, &[]), "(;GM[1]FF[4])\n");

        let non_ascii = vec![("PW".to_string(), strings(&["小林"]))];
        assert!(write_game(&non_ascii, &[]).contains("CA[UTF-8]"));
        let no_values = vec![("XX".to_string(), Vec::new())];
        assert_eq!(write_game(&no_values, &[]), "(;FF[4]GM[1]XX[])\n");
    }

    #[test]
    fn sgf_escapes_in_values() {
        let game = only_game(r"(;C[a\]b\\c\d[e]GN[\\])");
        let root = &game.nodes[0];
        assert_eq!(root.first("C"), Some(r"a]b\cd[e"));
        assert_eq!(root.first("GN"), Some("\\"));
    }

    #[test]
    fn sgf_soft_line_breaks_are_removed() {
        for text in [
            "(;C[soft\\\nbreak])",
            "(;C[soft\\\r\nbreak])",
            "(;C[soft\\\n\rbreak])",
            "(;C[soft\\\rbreak])",
        ] {
            assert_eq!(
                only_game(text).nodes[0].first("C"),
                Some("softbreak"),
                "{text:?}"
            );
        }
        let hard = only_game("(;C[hard\nbreak])");
        assert_eq!(hard.nodes[0].first("C"), Some("hard\nbreak"));
    }

    #[test]
    fn sgf_whitespace_between_tokens_and_multiple_values() {
        let game = only_game("\u{feff} \n ( ; AB [aa]\n [bb] \t[cc] ; W [dd] ) \r\n");
        assert_eq!(game.nodes.len(), 2);
        assert_eq!(
            game.nodes[0].get("AB"),
            Some(strings(&["aa", "bb", "cc"]).as_slice())
        );
        assert_eq!(game.nodes[1].first("W"), Some("dd"));
        assert_eq!(game.nodes[1].first("B"), None);
        assert_eq!(game.nodes[1].get("AB"), None);
    }

    #[test]
    fn sgf_old_lower_case_identifiers_keep_upper_case_letters() {
        let game = only_game("(;FF[3]AddBlack[aa]AddWhite[bb]CoPyright[me];Black[cc])");
        let root = &game.nodes[0];
        assert_eq!(root.first("AB"), Some("aa"));
        assert_eq!(root.first("AW"), Some("bb"));
        assert_eq!(root.first("CP"), Some("me"));
        assert_eq!(game.nodes[1].first("B"), Some("cc"));
    }

    #[test]
    fn sgf_repeated_identifiers_in_a_node_are_merged() {
        let game = only_game("(;AB[aa]AW[cc]AB[bb])");
        let root = &game.nodes[0];
        assert_eq!(root.props.len(), 2);
        assert_eq!(root.get("AB"), Some(strings(&["aa", "bb"]).as_slice()));
    }

    #[test]
    fn sgf_variations_and_main_line() {
        let text = "(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))";
        let game = only_game(text);
        assert_eq!(game.nodes.len(), 2);
        assert_eq!(game.variations.len(), 2);
        assert_eq!(game.variations[1].nodes[0].first("W"), Some("ff"));
        assert_eq!(game.variations[0].variations.len(), 2);

        let main_moves: Vec<_> = game.main_line().into_iter().filter_map(move_of).collect();
        assert_eq!(
            main_moves,
            vec![('B', "aa"), ('W', "bb"), ('B', "cc"), ('W', "dd")]
        );
    }

    #[test]
    fn sgf_collection_with_several_games() {
        let collection = parse("(;GN[one])\n(;GN[two];B[aa])").expect("valid collection");
        let names: Vec<_> = collection
            .games
            .iter()
            .filter_map(|game| game.root()?.first("GN"))
            .collect();
        assert_eq!(names, vec!["one", "two"]);
    }

    #[test]
    fn sgf_nesting_below_the_limit_is_accepted() {
        let depth = MAX_TREE_DEPTH;
        let text = format!("{}{}", "(;B[aa]".repeat(depth), ")".repeat(depth));
        let game = only_game(&text);
        assert_eq!(game.main_line().len(), depth);
    }

    #[test]
    fn sgf_decode_point() {
        assert_eq!(decode_point("ab", 19, 19), Ok(Some((0, 1))));
        assert_eq!(decode_point("ia", 9, 9), Ok(Some((8, 0))));
        assert_eq!(decode_point("", 9, 9), Ok(None));
        assert_eq!(decode_point("tt", 19, 19), Ok(None));
        assert_eq!(decode_point("tt", 9, 9), Ok(None));
        assert_eq!(decode_point("tt", 21, 21), Ok(Some((19, 19))));
        assert_eq!(decode_point("Aa", 30, 30), Ok(Some((26, 0))));
        assert_eq!(decode_point("ZZ", 52, 52), Ok(Some((51, 51))));
        for bad in ["j", "abc", "a1", "ss", "  ", "é"] {
            assert!(
                matches!(decode_point(bad, 9, 19), Err(SgfError::BadPoint { .. })),
                "{bad:?}"
            );
        }
        // Width and height are checked separately: 13 columns, 9 rows.
        assert_eq!(decode_point("ma", 13, 9), Ok(Some((12, 0))));
        assert!(decode_point("am", 13, 9).is_err());
    }

    #[test]
    fn files_under_lists_folders_one_level_deep_and_files_as_given() {
        let dir = std::env::temp_dir().join(format!("kosumi-sgf-files-{}", std::process::id()));
        let nested = dir.join("nested");
        std::fs::create_dir_all(&nested).expect("temp folder");
        for name in ["b.sgf", "a.sgf", "notes.txt"] {
            std::fs::write(dir.join(name), "").expect("temp file");
        }
        std::fs::write(nested.join("c.sgf"), "").expect("temp file");
        let given = nested.join("c.sgf");
        let files = files_under(&[dir.clone(), given.clone()]).expect("listed");
        assert_eq!(files, vec![dir.join("a.sgf"), dir.join("b.sgf"), given]);
        std::fs::remove_dir_all(&dir).expect("cleaned up");
    }

    #[test]
    fn sgf_encode_point_round_trips() {
        assert_eq!(encode_point(0, 0), "aa");
        assert_eq!(encode_point(0, 1), "ab");
        assert_eq!(encode_point(4, 4), "ee");
        assert_eq!(encode_point(26, 51), "AZ");
        for y in 0..25 {
            for x in 0..25 {
                assert_eq!(decode_point(&encode_point(x, y), 25, 25), Ok(Some((x, y))));
            }
        }
    }

    #[test]
    fn sgf_compressed_point_lists() {
        let points = decode_point_list(&strings(&["aa:bc", "ee"]), 9, 9).expect("valid list");
        assert_eq!(
            points,
            vec![(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (4, 4)]
        );
        // Corners in the other order give the same rectangle.
        let reversed = decode_point_list(&strings(&["bc:aa"]), 9, 9).expect("valid list");
        assert_eq!(reversed, points[..6].to_vec());
        assert_eq!(decode_point_list(&strings(&[""]), 9, 9), Ok(Vec::new()));
        for bad in ["aa:jj", "aa:", ":aa", "aa:bb:cc", "tt"] {
            assert!(
                decode_point_list(&strings(&[bad]), 9, 9).is_err(),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn sgf_board_size() {
        let root_of = |text: &str| only_game(text).nodes.remove(0);
        assert_eq!(board_size(&root_of("(;FF[4])")), Ok((19, 19)));
        assert_eq!(board_size(&root_of("(;SZ[9])")), Ok((9, 9)));
        assert_eq!(board_size(&root_of("(;SZ[19:13])")), Ok((19, 13)));
        assert_eq!(board_size(&root_of("(;SZ[ 13 ])")), Ok((13, 13)));
        for bad in ["0", "53", "x", "", "9:", "-1", "9:9:9"] {
            let root = root_of(&format!("(;SZ[{bad}])"));
            assert!(
                matches!(board_size(&root), Err(SgfError::BadBoardSize { .. })),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn sgf_pass_moves_read_as_none() {
        let game = only_game("(;SZ[19];B[];W[tt];B[dd])");
        let moves: Vec<_> = game.nodes[1..]
            .iter()
            .filter_map(move_of)
            .map(|(_, value)| decode_point(value, 19, 19))
            .collect();
        assert_eq!(moves, vec![Ok(None), Ok(None), Ok(Some((3, 3)))]);
    }

    #[test]
    fn sgf_malformed_inputs_are_errors() {
        type IsExpectedError = fn(&SgfError) -> bool;
        let cases: &[(&str, IsExpectedError)] = &[
            ("", |e| matches!(e, SgfError::EmptyCollection)),
            (" \n\t", |e| matches!(e, SgfError::EmptyCollection)),
            ("(;C[never closed)", |e| {
                matches!(e, SgfError::UnclosedValue { .. })
            }),
            (";B[aa])", |e| {
                matches!(e, SgfError::UnexpectedChar { found: ';', .. })
            }),
            ("garbage", |e| {
                matches!(e, SgfError::UnexpectedChar { found: 'g', .. })
            }),
            ("(;B[aa]", |e| {
                matches!(e, SgfError::UnclosedGameTree { .. })
            }),
            ("(;B[aa](;W[bb])", |e| {
                matches!(e, SgfError::UnclosedGameTree { .. })
            }),
            ("(", |e| matches!(e, SgfError::UnexpectedEnd { .. })),
            ("()", |e| {
                matches!(e, SgfError::UnexpectedChar { found: ')', .. })
            }),
            ("(B[aa])", |e| {
                matches!(e, SgfError::UnexpectedChar { found: 'B', .. })
            }),
            ("(;B)", |e| matches!(e, SgfError::MissingValue { .. })),
            ("(;B;W[aa])", |e| matches!(e, SgfError::MissingValue { .. })),
            ("(;black[aa])", |e| {
                matches!(e, SgfError::BadPropertyId { .. })
            }),
            ("(;B[aa]1[x])", |e| {
                matches!(e, SgfError::UnexpectedChar { found: '1', .. })
            }),
            ("(;B[aa](;W[bb]);B[cc])", |e| {
                matches!(e, SgfError::UnexpectedChar { found: ';', .. })
            }),
            ("(;B[aa]))", |e| {
                matches!(e, SgfError::UnexpectedChar { found: ')', .. })
            }),
            ("(;B[aa])x", |e| {
                matches!(e, SgfError::UnexpectedChar { found: 'x', .. })
            }),
            ("(;C[ends in escape\\", |e| {
                matches!(e, SgfError::UnclosedValue { .. })
            }),
        ];
        for (text, is_expected_error) in cases {
            match parse(text) {
                Ok(collection) => panic!("{text:?} parsed as {collection:?}"),
                Err(error) => assert!(is_expected_error(&error), "{text:?} gave {error:?}"),
            }
        }
    }

    #[test]
    fn sgf_deep_nesting_is_an_error_not_a_crash() {
        let unclosed = "(".repeat(10_000);
        assert!(parse(&unclosed).is_err());
        let unclosed_nodes = "(;".repeat(10_000);
        assert!(matches!(
            parse(&unclosed_nodes),
            Err(SgfError::TooDeep { .. })
        ));
        let closed = format!("{}{}", "(;".repeat(10_000), ")".repeat(10_000));
        assert!(matches!(parse(&closed), Err(SgfError::TooDeep { .. })));
    }

    #[test]
    fn sgf_error_messages_say_where() {
        let error = parse("(;FF[4]\n;B[aa]\n;W[bb").expect_err("unclosed value");
        assert_eq!(
            error.to_string(),
            "value of property W starting at line 3, column 3 is never closed: missing ']'"
        );
        let error = parse("(;B[aa]1)").expect_err("stray character");
        assert_eq!(
            error.to_string(),
            "unexpected character '1' at line 1, column 8: expected a property identifier"
        );
        let error = decode_point("zz", 9, 9).expect_err("off board");
        assert_eq!(
            error.to_string(),
            "bad point \"zz\" on a 9x9 board: the point is off the board"
        );
    }

    /// Tiny deterministic xorshift64 generator, so the fuzz loop needs no
    /// extra crate and failures reproduce.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, bound: usize) -> usize {
            (self.next() % bound as u64) as usize
        }
    }

    /// Exercises every helper on whatever parsed, to make sure none of them
    /// panics on odd values either.
    fn use_everything(collection: &Collection) {
        for game in &collection.games {
            let line = game.main_line();
            if let Some(root) = game.root() {
                let _ = board_size(root);
            }
            for node in line {
                for property in &node.props {
                    let _ = decode_point_list(&property.values, 19, 19);
                    for value in &property.values {
                        let _ = decode_point(value, 9, 13);
                    }
                }
            }
        }
    }

    #[test]
    fn sgf_fuzz_random_bytes_never_panic() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3000 {
            let bytes: Vec<u8> = (0..rng.below(200)).map(|_| rng.next() as u8).collect();
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(collection) = parse(&text) {
                use_everything(&collection);
            }
            // A valid opening gets the random tail past the first token.
            if let Ok(collection) = parse(&format!("(;{text}")) {
                use_everything(&collection);
            }
        }
    }

    #[test]
    fn sgf_fuzz_random_token_soup_never_panics() {
        // Raw bytes rarely get past the first token, so also glue together
        // SGF fragments, which reach every branch of the reader.
        const FRAGMENTS: &[&str] = &[
            "(", ")", ";", "(;", "B", "W", "AB", "SZ", "AddBlack", "b", "[", "]", "[aa]", "[tt]",
            "[]", "[aa:cc]", "[19:13]", "[9]", "\\", "\\]", "\\\n", " ", "\n", "\r\n", ":", "1",
            "é", "\u{feff}",
        ];
        let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
        let mut parsed = 0;
        let mut rejected = 0;
        for _ in 0..5000 {
            let text: String = (0..rng.below(60))
                .map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())])
                .collect();
            match parse(&text) {
                Ok(collection) => {
                    parsed += 1;
                    use_everything(&collection);
                }
                Err(_) => rejected += 1,
            }
        }
        // Guards the generator: a fuzz loop that only ever fails at the
        // first character would test very little.
        assert!(
            parsed > 0 && rejected > 0,
            "parsed {parsed}, rejected {rejected}"
        );
    }

    #[test]
    fn sgf_fuzz_mutated_records_never_panic() {
        let base = write_game(
            &[
                ("SZ".to_string(), strings(&["19:13"])),
                ("C".to_string(), strings(&["a ] b \\ c"])),
                ("AB".to_string(), strings(&["aa:cc", "dd"])),
            ],
            &[('B', Some((3, 3))), ('W', None), ('B', Some((18, 12)))],
        )
        .into_bytes();
        let mut rng = XorShift(0x0123_4567_89AB_CDEF);
        for _ in 0..3000 {
            let mut bytes = base.clone();
            for _ in 0..1 + rng.below(4) {
                let position = rng.below(bytes.len());
                match rng.below(3) {
                    0 => bytes[position] = rng.next() as u8,
                    1 => {
                        bytes.remove(position);
                    }
                    _ => bytes.insert(position, b"()[];\\:"[rng.below(7)]),
                }
                if bytes.is_empty() {
                    break;
                }
            }
            if let Ok(collection) = parse(&String::from_utf8_lossy(&bytes)) {
                use_everything(&collection);
            }
        }
    }
}
