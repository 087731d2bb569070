//! loadsgf and printsgf: the game record to and from SGF files.
//!
//! loadsgf builds a whole new game on the side and swaps it in only when
//! everything in the file made sense, so a bad file changes nothing.

use std::collections::BTreeMap;

use super::GtpError;
use std::path::{Component, Path, PathBuf};

use super::engine::{Call, Engine, FileAccess, Response, color_letter, number_text};
use super::parse;
use crate::board::{Color, Game, GameKind, Geometry, MAX_SIZE, Move, Point};
use crate::record::sgf;

/// Whether a file is to be read or written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
}

/// The path a file argument names, if this session may reach it (see
/// [`FileAccess`]).
fn reachable_path(engine: &Engine, name: &str, access: Access) -> Result<PathBuf, GtpError> {
    let path = Path::new(name);
    let root = match &engine.file_access {
        FileAccess::Anywhere => {
            return Ok(match &engine.base_dir {
                Some(base) if path.is_relative() => base.join(path),
                _ => path.to_path_buf(),
            });
        }
        FileAccess::Refused => {
            return Err(GtpError::FileRefused(
                "files are off for this controller (start the daemon with --files-dir DIR)",
            ));
        }
        FileAccess::Within(root) => root,
    };
    if name.is_empty()
        || !path
            .components()
            .all(|part| matches!(part, Component::Normal(_)))
    {
        return Err(outside_error());
    }
    let joined = root.join(path);
    let root = root.canonicalize().map_err(|_| outside_error())?;
    // What the path really names, symbolic links followed: the file itself
    // where it exists, else (a new file to write) its folder.
    let real = match joined.canonicalize() {
        Ok(real) => real,
        Err(_) if access == Access::Write => {
            let parent = joined.parent().ok_or_else(outside_error)?;
            let file_name = joined.file_name().ok_or_else(outside_error)?;
            parent
                .canonicalize()
                .map_err(|_| outside_error())?
                .join(file_name)
        }
        Err(_) => return Err(GtpError::CannotLoadFile),
    };
    if real.starts_with(&root) && real != root {
        Ok(real)
    } else {
        Err(outside_error())
    }
}

/// A path that leads out of the files folder, or names no file in it.
fn outside_error() -> GtpError {
    GtpError::FileRefused("only relative paths inside the files folder")
}

/// The bytes of the regular file at `path`, if it holds at most `cap`
/// bytes. FIFOs, devices and folders are refused before anything is read,
/// and no more than `cap + 1` bytes are ever read (a file may grow).
fn read_capped(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    // Opening a FIFO would wait for a writer: look before opening.
    if !std::fs::metadata(path)?.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    let file = std::fs::File::open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    if metadata.len() > cap {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("larger than {cap} bytes"),
        ));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("larger than {cap} bytes"),
        ));
    }
    Ok(bytes)
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

pub(crate) fn loadsgf(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let (file, move_number) = match call.args {
        [file] => (file, None),
        [file, number] => {
            let n = parse::parse_usize(number)?;
            if n == 0 {
                return Err(GtpError::Syntax);
            }
            (file, Some(n))
        }
        _ => return Err(GtpError::Syntax),
    };
    let path = reachable_path(engine, file, Access::Read)?;
    let bytes = read_capped(&path, engine.max_sgf_bytes).map_err(|error| {
        log::info!("loadsgf {}: {error}", path.display());
        GtpError::CannotLoadFile
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let game = game_from_sgf(&text, engine.game.kind(), engine.game.komi(), move_number).map_err(
        |reason| {
            log::info!("loadsgf {}: {reason}", path.display());
            GtpError::CannotLoadFile
        },
    )?;
    engine.game = game;
    Ok(Response::Text(String::new()))
}

/// Builds the position before move `move_number` (1-based; all moves if
/// `None`) of the main line of the first game in `text`.
pub(crate) fn game_from_sgf(
    text: &str,
    kind: GameKind,
    default_komi: f32,
    move_number: Option<usize>,
) -> Result<Game, String> {
    let collection = sgf::parse(text).map_err(|e| e.to_string())?;
    let tree = collection.games.first().ok_or("no game")?;
    let root = tree.root().ok_or("no root node")?;
    let (width, height) = sgf::board_size(root).map_err(|e| e.to_string())?;
    if width != height || !(2..=MAX_SIZE).contains(&width) {
        return Err(format!("board {width}x{height} not supported"));
    }
    let geometry = Geometry::square(width).map_err(|e| e.to_string())?;
    let komi = match root.first("KM") {
        Some(value) if !value.trim().is_empty() => {
            super::engine::parse_komi(value.trim()).map_err(|_| format!("bad komi {value:?}"))?
        }
        _ => default_komi,
    };
    let handicap = match root.first("HA") {
        Some(value) => value
            .trim()
            .parse::<usize>()
            .map_err(|_| format!("bad handicap {value:?}"))?,
        None => 0,
    };
    // PL may stand in any node before the first move (GNU Go's regression
    // games give it with the setup stones, in the root's child); the last
    // one read decides.
    let mut first_player = None;
    let mut game = Game::new(geometry, kind, komi);
    let mut setup: BTreeMap<Point, Color> = BTreeMap::new();
    let mut moves_played = 0usize;
    let mut setup_done = false;
    let decode_list = |values: &[String]| -> Result<Vec<Point>, String> {
        sgf::decode_point_list(values, width, height)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|xy| sgf_point(geometry, xy).ok_or_else(|| "point off the board".to_string()))
            .collect()
    };
    for node in tree.main_line() {
        if !setup_done && let Some(value) = node.first("PL") {
            first_player = Some(sgf_color(value).ok_or(format!("bad PL {value:?}"))?);
        }
        let has_setup = ["AB", "AW", "AE"].iter().any(|id| node.get(id).is_some());
        if has_setup {
            if setup_done {
                return Err("setup stones after the first move are not supported".into());
            }
            for p in decode_list(node.get("AE").unwrap_or(&[]))? {
                setup.remove(&p);
            }
            for (id, color) in [("AB", Color::Black), ("AW", Color::White)] {
                for p in decode_list(node.get(id).unwrap_or(&[]))? {
                    setup.insert(p, color);
                }
            }
        }
        let mv = match (node.first("B"), node.first("W")) {
            (Some(_), Some(_)) => return Err("a node with both B and W".into()),
            (Some(value), None) => Some((Color::Black, value)),
            (None, Some(value)) => Some((Color::White, value)),
            (None, None) => None,
        };
        let Some((color, value)) = mv else {
            continue;
        };
        if move_number.is_some_and(|n| moves_played + 1 >= n) {
            break;
        }
        if !setup_done {
            apply_setup(&mut game, &setup, handicap, first_player)?;
            setup_done = true;
        }
        let mv = match sgf::decode_point(value, width, height).map_err(|e| e.to_string())? {
            None => Move::Pass,
            Some(xy) => Move::Play(sgf_point(geometry, xy).ok_or("move off the board")?),
        };
        game.play(color, mv)
            .map_err(|e| format!("move {}: {e}", moves_played + 1))?;
        moves_played += 1;
    }
    if !setup_done {
        apply_setup(&mut game, &setup, handicap, first_player)?;
    }
    Ok(game)
}

/// Puts the setup stones down and decides who moves first: PL if given,
/// White after a handicap, else Black.
fn apply_setup(
    game: &mut Game,
    setup: &BTreeMap<Point, Color>,
    handicap: usize,
    first_player: Option<Color>,
) -> Result<(), String> {
    let stones: Vec<(Point, Color)> = setup.iter().map(|(&p, &c)| (p, c)).collect();
    if !stones.is_empty() {
        game.add_setup(&stones).map_err(|e| e.to_string())?;
    }
    let only_black = stones.iter().all(|&(_, c)| c == Color::Black);
    let first = first_player.unwrap_or(if handicap >= 2 && only_black && !stones.is_empty() {
        Color::White
    } else {
        Color::Black
    });
    game.set_first_to_move(first);
    Ok(())
}

fn sgf_color(value: &str) -> Option<Color> {
    match value.trim() {
        "B" | "b" => Some(Color::Black),
        "W" | "w" => Some(Color::White),
        _ => None,
    }
}

pub(crate) fn printsgf(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let file = match call.args {
        [] => None,
        [file] => Some(file),
        _ => return Err(GtpError::Syntax),
    };
    let record = game_to_sgf(engine);
    match file {
        None => Ok(Response::Text(record.trim_end().to_string())),
        Some(name) => {
            let path = reachable_path(engine, name, Access::Write)?;
            std::fs::write(&path, record).map_err(|error| {
                log::info!("printsgf {}: {error}", path.display());
                GtpError::CannotWriteFile
            })?;
            Ok(Response::Text(String::new()))
        }
    }
}

/// The game as FF[4] SGF. A handicap given as plain `play`s before White's
/// first move is written as setup (HA and AB), as a handicap game records it.
pub(crate) fn game_to_sgf(engine: &Engine) -> String {
    let game = &engine.game;
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
        ("KM".into(), vec![number_text(game.komi().into())]),
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
        root.push(("PL".into(), vec![color_letter(game.to_move()).to_string()]));
    }
    if game.is_over()
        && let Some(result) = engine.result_text()
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
            (color_letter(color), xy)
        })
        .collect();
    sgf::write_game(&root, &moves)
}
