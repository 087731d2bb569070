//! Games to and from SGF: what a record's properties mean on the board.
//!
//! `sgf` knows the syntax only. Here [`SgfRecord`] reads the first game of
//! a collection onto its square board and decodes its moves and points;
//! loadsgf's [`game_from_sgf`] and the book tools' even-game reading
//! (`player::book::recorded_game`) are both built on it, each with its own
//! rules about what a record may hold: loadsgf plays every move by the
//! rules and takes setup stones, a handicap and PL; the book tools take
//! even games only, and their moves as written, up to the first pass.
//! [`game_to_sgf`] writes a game as printsgf does, so that loadsgf reads it
//! back to the same game.
//!
//! SGF counts rows from the top and the board from the bottom: `(x, y)`
//! pairs are SGF's, points the board's.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use super::sgf::{self, Node};
use crate::board::{Color, Game, GameKind, Geometry, MAX_SIZE, Move, Point};

/// The first game of an SGF collection: its main line, on its board.
#[derive(Debug)]
pub struct SgfRecord {
    root: Node,
    /// The main line after the root.
    line: Vec<Node>,
    geometry: Geometry,
}

impl SgfRecord {
    /// Reads the first game of `text`, whose board must be square with a
    /// side in `sides`.
    pub fn read(text: &str, sides: RangeInclusive<usize>) -> Result<SgfRecord, String> {
        let collection = sgf::parse(text).map_err(|e| e.to_string())?;
        let tree = collection.games.first().ok_or("no game")?;
        let mut nodes = tree.main_line().into_iter().cloned();
        let root = nodes.next().ok_or("no root node")?;
        let (width, height) = sgf::board_size(&root).map_err(|e| e.to_string())?;
        if width != height || !sides.contains(&width) {
            return Err(format!("board {width}x{height} not supported"));
        }
        let geometry = Geometry::square(width).map_err(|e| e.to_string())?;
        Ok(SgfRecord {
            root,
            line: nodes.collect(),
            geometry,
        })
    }

    /// The root node, which holds the game information (SZ, KM, ...).
    pub fn root(&self) -> &Node {
        &self.root
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The nodes of the main line, the root first.
    pub fn main_line(&self) -> impl Iterator<Item = &Node> {
        std::iter::once(&self.root).chain(&self.line)
    }

    /// The point a move's value names; `None` for a pass.
    pub fn decode_move(&self, value: &str) -> Result<Option<Point>, String> {
        let size = self.geometry.width();
        match sgf::decode_point(value, size, size).map_err(|e| e.to_string())? {
            None => Ok(None),
            Some(xy) => sgf_point(self.geometry, xy)
                .map(Some)
                .ok_or_else(|| "move off the board".to_string()),
        }
    }

    /// The points of a point-list property (AB, AW, AE).
    fn decode_points(&self, values: &[String]) -> Result<Vec<Point>, String> {
        let size = self.geometry.width();
        sgf::decode_point_list(values, size, size)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|xy| sgf_point(self.geometry, xy).ok_or_else(|| "point off the board".to_string()))
            .collect()
    }
}

/// The moves a node holds, Black's first, with their values.
pub fn node_moves(node: &Node) -> impl Iterator<Item = (Color, &str)> {
    [("B", Color::Black), ("W", Color::White)]
        .into_iter()
        .filter_map(|(id, color)| Some((color, node.first(id)?)))
}

/// What a record leaves to loadsgf, and the engine's reading of komi.
pub struct LoadSettings {
    /// Go or NoGo: SGF's GM says Go for both.
    pub kind: GameKind,
    /// Komi when the record gives none.
    pub default_komi: f32,
    /// Reads a KM value as the engine reads komi (`None`: refused).
    pub parse_komi: fn(&str) -> Option<f32>,
    /// Stop before this move (1-based); `None`: play every move.
    pub move_number: Option<usize>,
}

/// Builds the position before move `move_number` (all moves if `None`) of
/// the main line of the first game in `text`: every move is played by the
/// rules, and setup stones stand only before the first move.
pub fn game_from_sgf(text: &str, settings: &LoadSettings) -> Result<Game, String> {
    let record = SgfRecord::read(text, 2..=MAX_SIZE)?;
    let root = record.root();
    let komi = match root.first("KM") {
        Some(value) if !value.trim().is_empty() => {
            (settings.parse_komi)(value.trim()).ok_or_else(|| format!("bad komi {value:?}"))?
        }
        _ => settings.default_komi,
    };
    let handicap = match root.first("HA") {
        Some(value) => value
            .trim()
            .parse::<usize>()
            .map_err(|_| format!("bad handicap {value:?}"))?,
        None => 0,
    };
    let mut game = Game::new(record.geometry(), settings.kind, komi);
    // Set up before the first move is played; `None` once it is.
    let mut setup = Some(Setup {
        handicap,
        ..Setup::default()
    });
    let mut moves_played = 0usize;
    for node in record.main_line() {
        match &mut setup {
            Some(pending) => pending.read(&record, node)?,
            None if has_setup(node) => {
                return Err("setup stones after the first move are not supported".into());
            }
            None => {}
        }
        let mut moves = node_moves(node);
        let Some((color, value)) = moves.next() else {
            continue;
        };
        if moves.next().is_some() {
            return Err("a node with both B and W".into());
        }
        if settings.move_number.is_some_and(|n| moves_played + 1 >= n) {
            break;
        }
        if let Some(pending) = setup.take() {
            pending.apply(&mut game)?;
        }
        let mv = record.decode_move(value)?.map_or(Move::Pass, Move::Play);
        game.play(color, mv)
            .map_err(|e| format!("move {}: {e}", moves_played + 1))?;
        moves_played += 1;
    }
    if let Some(pending) = setup {
        pending.apply(&mut game)?;
    }
    Ok(game)
}

/// The setup read before the first move: stones, handicap and who moves
/// first.
#[derive(Default)]
struct Setup {
    /// In board order, as printsgf writes them.
    stones: BTreeMap<Point, Color>,
    handicap: usize,
    /// PL may stand in any node before the first move (GNU Go's regression
    /// games give it with the setup stones, in the root's child); the last
    /// one read decides.
    first_player: Option<Color>,
}

impl Setup {
    /// Takes a node's PL and its setup stones: AE's points are cleared
    /// before AB's and AW's are set.
    fn read(&mut self, record: &SgfRecord, node: &Node) -> Result<(), String> {
        if let Some(value) = node.first("PL") {
            self.first_player = Some(sgf_color(value).ok_or(format!("bad PL {value:?}"))?);
        }
        if !has_setup(node) {
            return Ok(());
        }
        for p in record.decode_points(node.get("AE").unwrap_or(&[]))? {
            self.stones.remove(&p);
        }
        for (id, color) in [("AB", Color::Black), ("AW", Color::White)] {
            for p in record.decode_points(node.get(id).unwrap_or(&[]))? {
                self.stones.insert(p, color);
            }
        }
        Ok(())
    }

    /// Puts the setup stones down and decides who moves first: PL if given,
    /// White after a handicap, else Black.
    fn apply(&self, game: &mut Game) -> Result<(), String> {
        let stones: Vec<(Point, Color)> = self.stones.iter().map(|(&p, &c)| (p, c)).collect();
        if !stones.is_empty() {
            game.add_setup(&stones).map_err(|e| e.to_string())?;
        }
        let only_black = stones.iter().all(|&(_, c)| c == Color::Black);
        let first = self.first_player.unwrap_or(
            if self.handicap >= 2 && only_black && !stones.is_empty() {
                Color::White
            } else {
                Color::Black
            },
        );
        game.set_first_to_move(first);
        Ok(())
    }
}

/// Whether a node adds or removes setup stones (AB, AW, AE).
fn has_setup(node: &Node) -> bool {
    ["AB", "AW", "AE"].iter().any(|id| node.get(id).is_some())
}

fn sgf_color(value: &str) -> Option<Color> {
    match value.trim() {
        "B" | "b" => Some(Color::Black),
        "W" | "w" => Some(Color::White),
        _ => None,
    }
}

/// The property letter of `color`'s moves and of PL.
fn sgf_letter(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// Converts SGF `(x, y)` (y from the top) to a point.
fn sgf_point(geometry: Geometry, (x, y): (usize, usize)) -> Option<Point> {
    let row = geometry.height().checked_sub(y + 1)?;
    geometry.point(x, row).ok()
}

/// Converts a point to SGF `(x, y)`.
fn point_xy(geometry: Geometry, p: Point) -> Option<(usize, usize)> {
    geometry
        .coords(p)
        .map(|(col, row)| (col, geometry.height() - 1 - row))
}

/// `game` as FF[4] SGF, with `komi` written as given (KM) and, once the
/// game is over, what `result` gives (RE). A handicap given as plain
/// `play`s before White's first move is written as setup (HA and AB), as a
/// handicap game records it.
pub fn game_to_sgf(game: &Game, komi: &str, result: impl FnOnce() -> Option<String>) -> String {
    let g = game.geometry();
    let handicap = game.handicap();
    let inferred = if game.setup().is_empty() { handicap } else { 0 };
    let mut black_setup: Vec<Point> = Vec::new();
    let mut white_setup: Vec<Point> = Vec::new();
    for &(p, color) in game.setup() {
        match color {
            Color::Black => black_setup.push(p),
            Color::White => white_setup.push(p),
        }
    }
    for &(_, mv) in &game.moves()[..inferred] {
        if let Move::Play(p) = mv {
            black_setup.push(p);
        }
    }
    // Board order, as loadsgf rebuilds them: the record is the same after a
    // round trip.
    black_setup.sort_unstable();
    white_setup.sort_unstable();
    let encode = |points: &[Point]| -> Vec<String> {
        points
            .iter()
            .filter_map(|&p| point_xy(g, p))
            .map(|(x, y)| sgf::encode_point(x, y))
            .collect()
    };
    let mut root: Vec<(String, Vec<String>)> = vec![
        ("SZ".into(), vec![g.width().to_string()]),
        ("KM".into(), vec![komi.to_string()]),
    ];
    if game.kind() == GameKind::NoGo {
        root.push(("RU".into(), vec!["NoGo".into()]));
    }
    if handicap > 0 {
        root.push(("HA".into(), vec![handicap.to_string()]));
    }
    if !black_setup.is_empty() {
        root.push(("AB".into(), encode(&black_setup)));
    }
    if !white_setup.is_empty() {
        root.push(("AW".into(), encode(&white_setup)));
    }
    let moves = &game.moves()[inferred..];
    if moves.is_empty() {
        root.push(("PL".into(), vec![sgf_letter(game.to_move()).to_string()]));
    }
    if game.is_over()
        && let Some(result) = result()
    {
        root.push(("RE".into(), vec![result]));
    }
    let moves: Vec<(char, Option<(usize, usize)>)> = moves
        .iter()
        .map(|&(color, mv)| {
            let xy = match mv {
                Move::Pass => None,
                Move::Play(p) => point_xy(g, p),
            };
            (sgf_letter(color), xy)
        })
        .collect();
    sgf::write_game(&root, &moves)
}
