//! Game records for training, read from SGF files or from Tygem archives
//! (zip files of text with one game a line, `id<TAB>;B[pd];W[dp];...`, as
//! the yenw/computer-go-dataset repository keeps them), stored compactly
//! so that hundreds of thousands of games fit in memory.

use std::error::Error;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use kosumi::board::{Color, GameKind, Geometry, Point, Position};
use kosumi::record::sgf;
use kosumi::search::domain::RecentMoves;

/// A move or a setup stone: the colour in bit 15, a pass in bit 14,
/// otherwise the SGF column (from the left) in bits 5–9 and row (from the
/// top) in bits 0–4.
type Code = u16;
const WHITE: Code = 1 << 15;
const PASS: Code = 1 << 14;

fn encode(color: Color, xy: Option<(usize, usize)>) -> Code {
    let colour = if color == Color::White { WHITE } else { 0 };
    match xy {
        Some((x, y)) => colour | (x as Code) << 5 | y as Code,
        None => colour | PASS,
    }
}

fn decode(code: Code) -> (Color, Option<(usize, usize)>) {
    let color = if code & WHITE != 0 {
        Color::White
    } else {
        Color::Black
    };
    let xy = (code & PASS == 0).then(|| (usize::from(code >> 5 & 31), usize::from(code & 31)));
    (color, xy)
}

/// One game.
pub struct Record {
    pub width: usize,
    pub height: usize,
    setup: Vec<Code>,
    moves: Vec<Code>,
    /// Whether Black's and White's moves are learned.
    learns: [bool; 2],
}

/// What a replay shows of each move played: the position before it, the
/// move, its colour and the two moves before it.
pub struct Seen<'a> {
    pub position: &'a Position,
    pub played: Point,
    pub color: Color,
    pub recent: RecentMoves,
}

impl Record {
    /// Plays the game through, calling `visit` before each learned move;
    /// stops quietly at the first move that is not legal.
    pub fn replay(&self, mut visit: impl FnMut(Seen<'_>)) -> Result<(), Box<dyn Error>> {
        let geometry = Geometry::new(self.width, self.height)?;
        let mut position = Position::new(geometry, GameKind::Go);
        let point = |(x, y): (usize, usize)| geometry.point(x, self.height - 1 - y);
        for &code in &self.setup {
            let (color, xy) = decode(code);
            if let Some(xy) = xy {
                position.place_setup_stone(point(xy)?, color)?;
            }
        }
        let mut recent = RecentMoves::default();
        for &code in &self.moves {
            let (color, xy) = decode(code);
            position.set_to_move(color);
            let Some(xy) = xy else {
                position.pass();
                recent = RecentMoves {
                    last: None,
                    before_last: recent.last,
                };
                continue;
            };
            let played = point(xy)?;
            if position.check_move(played, color).is_err() {
                return Ok(());
            }
            if self.learns[usize::from(color == Color::White)] {
                visit(Seen {
                    position: &position,
                    played,
                    color,
                    recent,
                });
            }
            position.play(played, color);
            recent = RecentMoves {
                last: Some(played),
                before_last: recent.last,
            };
        }
        Ok(())
    }

    /// The moves played, passes included.
    pub fn length(&self) -> usize {
        self.moves.len()
    }
}

/// The main line of an SGF game; with `player`, only the moves of the side
/// whose `PB` or `PW` contains it are learned.
pub fn from_sgf(text: &str, player: Option<&str>) -> Result<Option<Record>, Box<dyn Error>> {
    let collection = sgf::parse(text)?;
    let Some(tree) = collection.games.first() else {
        return Ok(None);
    };
    let nodes = tree.main_line();
    let Some(root) = nodes.first() else {
        return Ok(None);
    };
    let (width, height) = sgf::board_size(root)?;
    let learns = ["PB", "PW"]
        .map(|id| player.is_none_or(|name| root.first(id).is_some_and(|p| p.contains(name))));
    let mut setup = Vec::new();
    for (id, color) in [("AB", Color::Black), ("AW", Color::White)] {
        if let Some(values) = root.get(id) {
            for xy in sgf::decode_point_list(values, width, height)? {
                setup.push(encode(color, Some(xy)));
            }
        }
    }
    let mut moves = Vec::new();
    for node in &nodes {
        for (id, color) in [("B", Color::Black), ("W", Color::White)] {
            if let Some(value) = node.first(id) {
                moves.push(encode(color, sgf::decode_point(value, width, height)?));
            }
        }
    }
    Ok(Some(Record {
        width,
        height,
        setup,
        moves,
        learns,
    }))
}

/// One line of a Tygem archive: an id, a tab, then `;B[xy]` and `;W[xy]`
/// moves on 19x19 (`[]` or `[tt]` a pass). `None` for a line that is not
/// a game.
pub fn from_tygem_line(line: &str) -> Option<Record> {
    let (_, moves_text) = line.split_once('\t')?;
    let mut moves = Vec::new();
    for item in moves_text.split(';').filter(|item| !item.trim().is_empty()) {
        let item = item.trim();
        let color = match item.as_bytes().first()? {
            b'B' => Color::Black,
            b'W' => Color::White,
            _ => return None,
        };
        let value = item.get(1..)?.strip_prefix('[')?.strip_suffix(']')?;
        moves.push(encode(color, sgf::decode_point(value, 19, 19).ok()?));
    }
    (!moves.is_empty()).then_some(Record {
        width: 19,
        height: 19,
        setup: Vec::new(),
        moves,
        learns: [true, true],
    })
}

/// The games of one Tygem zip archive, in order.
pub fn from_tygem_archive(path: &Path) -> Result<Vec<Record>, Box<dyn Error>> {
    let mut archive = zip::ZipArchive::new(fs::File::open(path)?)?;
    let mut records = Vec::new();
    for k in 0..archive.len() {
        let mut text = String::new();
        archive.by_index(k)?.read_to_string(&mut text)?;
        records.extend(text.lines().filter_map(from_tygem_line));
    }
    Ok(records)
}

/// The games under `inputs`: Tygem archives (`.zip`), SGF files and
/// folders of SGF files, in order.
pub fn read_all(inputs: &[PathBuf], player: Option<&str>) -> Result<Vec<Record>, Box<dyn Error>> {
    let mut records = Vec::new();
    let (archives, others): (Vec<&PathBuf>, Vec<&PathBuf>) = inputs
        .iter()
        .partition(|path| path.extension().is_some_and(|e| e == "zip"));
    for archive in archives {
        records.extend(from_tygem_archive(archive)?);
    }
    for file in sgf::files_under(&others)? {
        // Records in other encodings (GB2312, EUC-KR) keep their moves.
        let text = String::from_utf8_lossy(&fs::read(&file)?).into_owned();
        match from_sgf(&text, player) {
            Ok(record) => records.extend(record),
            Err(e) => eprintln!("{}: {e}", file.display()),
        }
    }
    Ok(records)
}

/// `count` of `records` spread evenly over them (all if there are fewer).
pub fn spread(records: &[Record], count: usize) -> Vec<&Record> {
    let n = records.len();
    if count >= n {
        return records.iter().collect();
    }
    (0..count).map(|k| &records[k * n / count]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tygem_lines_replay_as_played() {
        let record = from_tygem_line("12345\t;B[pd];W[dp];B[];W[tt];B[dd]").expect("a game");
        assert_eq!(record.length(), 5);
        let mut seen = Vec::new();
        record
            .replay(|s| {
                let g = s.position.geometry();
                seen.push((s.color, g.coords(s.played)));
            })
            .expect("replays");
        assert_eq!(
            seen,
            [
                (Color::Black, Some((15, 15))),
                (Color::White, Some((3, 3))),
                (Color::Black, Some((3, 15))),
            ]
        );
        assert!(from_tygem_line("no tab here").is_none());
        assert!(from_tygem_line("1\t;X[pd]").is_none());
    }

    #[test]
    fn sgf_games_learn_only_the_named_player() {
        let text = "(;SZ[9]PB[kosumi]PW[other]AB[ee];W[cc];B[gg])";
        let record = from_sgf(text, Some("kosumi"))
            .expect("parses")
            .expect("a game");
        let mut colors = Vec::new();
        record.replay(|s| colors.push(s.color)).expect("replays");
        assert_eq!(colors, [Color::Black]);
    }
}
