//! The logic behind every fuzz target, kept out of the `fuzz_target!`
//! wrappers so that `tests/fuzz_seeds.rs` replays the checked-in seeds
//! (`fuzz/seeds/<target>/`) through the very same functions on stable Rust.
//!
//! Each function takes the fuzzer's bytes and panics when Kosumi misbehaves:
//! a panic inside the engine, a reply that is not well formed, a reply that
//! answers the wrong id, a record that does not load back, a session that
//! does not end.
//!
//! The harness keeps each run fast and inside its own folder: `loadsgf` and
//! `printsgf` see only plain file names in a fresh temporary folder (the
//! engine's `base_dir`), and the settings that would make a run slow
//! (`playouts`, `ownership_playouts`, `aftermath_playouts`, `threads`,
//! `max_tree_mb`, the seconds of `kosumi-solve`) are capped before the
//! line is sent.

#![allow(dead_code)] // each fuzz target uses one entry point

use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use kosumi::board::GameKind;
use kosumi::gtp::parse::{parse_command_line, parse_float};
use kosumi::gtp::session::NoInput;
use kosumi::gtp::{Control, Engine, EngineConfig, serve, spawn_reader};

/// Lines of one run: enough for a game fragment, few enough to stay fast.
pub const MAX_LINES: usize = 64;

/// The most `playouts`, `ownership_playouts` (and `aftermath_playouts`),
/// `threads` and `max_tree_mb` the harness lets through.
const MAX_PLAYOUTS: u64 = 8;
const MAX_OWNERSHIP_PLAYOUTS: u64 = 16;
const MAX_THREADS: u64 = 2;
const MAX_TREE_MB: u64 = 16;
/// `kosumi-solve` gets at most this many seconds.
const SOLVE_SECONDS: f64 = 0.02;

/// Sent before every run: dead stones and scores from 16 playouts, and
/// unsure strings played out with 16 playouts a move.
pub const SETUP_LINES: [&str; 2] = [
    "kosumi-param ownership_playouts 16",
    "kosumi-param aftermath_playouts 16",
];

// ---------------------------------------------------------------------------
// Temporary folders

/// A fresh, empty folder removed on drop.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("kosumi-fuzz-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create the run's temporary folder");
        TempDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

fn engine_in(folder: &Path, game: GameKind) -> Engine {
    let mut engine = Engine::new(EngineConfig {
        game,
        seed: Some(1),
        threads: Some(1),
        playouts: Some(4),
        base_dir: Some(folder.to_path_buf()),
        ..EngineConfig::default()
    });
    for line in SETUP_LINES {
        assert_eq!(ask(&mut engine, line), "= \n\n");
    }
    engine
}

/// One line's whole reply (checked to be one well-formed reply).
fn ask(engine: &mut Engine, line: &str) -> String {
    let mut out = Vec::new();
    engine
        .execute_line(line, &mut out, &mut NoInput)
        .expect("writing to a Vec cannot fail");
    let reply = String::from_utf8(out).expect("replies are UTF-8");
    if parse_command_line(line).is_some() {
        let replies = split_replies(&reply);
        assert_eq!(replies.len(), 1, "{line:?} got {reply:?}");
        assert_eq!(replies[0].id, expected_id(line), "{line:?} got {reply:?}");
    } else {
        assert_eq!(reply, "", "{line:?} is not a command");
    }
    reply
}

/// The text of a successful reply (after `= `), failing on `?`.
fn ask_ok(engine: &mut Engine, line: &str) -> String {
    let reply = ask(engine, line);
    assert!(reply.starts_with("= "), "{line:?} failed: {reply:?}");
    reply[2..reply.len() - 2].to_string()
}

// ---------------------------------------------------------------------------
// Replies

/// One reply as a controller reads it.
#[derive(Debug)]
pub struct Reply<'a> {
    pub success: bool,
    pub id: Option<u32>,
    /// Everything after the status, the id and the space, up to (without)
    /// the blank line.
    pub body: &'a str,
}

/// Splits `output` into replies, panicking unless it is a sequence of
/// well-formed ones: `=` or `?`, an optional id, a space, text without a
/// blank line, and a blank line to end it.
pub fn split_replies(output: &str) -> Vec<Reply<'_>> {
    let mut replies = Vec::new();
    let mut rest = output;
    while !rest.is_empty() {
        let end = rest
            .find("\n\n")
            .unwrap_or_else(|| panic!("reply without its blank line: {rest:?} in {output:?}"));
        let reply = &rest[..end];
        rest = &rest[end + 2..];
        let success = match reply.as_bytes()[0] {
            b'=' => true,
            b'?' => false,
            _ => panic!("reply starts with neither = nor ?: {reply:?} in {output:?}"),
        };
        let digits = reply[1..]
            .bytes()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let id = (digits > 0).then(|| {
            reply[1..1 + digits]
                .parse::<u32>()
                .unwrap_or_else(|_| panic!("id out of range: {reply:?}"))
        });
        let body = &reply[1 + digits..];
        assert!(
            body.starts_with(' '),
            "no space after the status: {reply:?} in {output:?}"
        );
        if !success {
            assert!(
                !body[1..].trim().is_empty(),
                "failure without a message: {reply:?}"
            );
        }
        replies.push(Reply {
            success,
            id,
            body: &body[1..],
        });
    }
    replies
}

/// The id a reply to `line` must carry (`None` for a line that is not a
/// command, or whose id could not be read).
fn expected_id(line: &str) -> Option<u32> {
    match parse_command_line(line) {
        None => None,
        Some(Ok(command)) => command.id,
        Some(Err(error)) => error.id(),
    }
}

// ---------------------------------------------------------------------------
// Making lines safe to send

/// What the harness does with an input line.
#[derive(Debug, PartialEq, Eq)]
pub enum Prepared {
    /// Send it as it is.
    Keep,
    /// Send this instead.
    Replace(String),
    /// Do not send it (a path outside the run's folder, a value that could
    /// not be capped for sure).
    Drop,
}

/// A file argument as a plain name inside the run's folder: relative paths
/// become one name (`a/b` is `a_b`); absolute paths and `.`/`..` are
/// refused.
fn plain_name(argument: &str) -> Option<String> {
    let path = Path::new(argument);
    let mut parts = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?.to_string()),
            _ => return None,
        }
    }
    if parts.is_empty() || argument.contains('\\') {
        return None;
    }
    Some(parts.join("_"))
}

/// A numeric value capped to `most`; `None` when the engine might read a
/// number the harness cannot (then the line is dropped). Values without a
/// digit go through unchanged, for the engine to refuse.
fn capped(value: &str, low: u64, most: u64) -> Option<String> {
    match value.trim().parse::<u64>() {
        Ok(n) => Some(n.clamp(low, most).to_string()),
        Err(_) if value.bytes().any(|b| b.is_ascii_digit()) => None,
        Err(_) => Some(value.to_string()),
    }
}

/// Rewrites file arguments and slow settings; see [`Prepared`].
pub fn prepare_line(line: &str) -> Prepared {
    let Some(Ok(command)) = parse_command_line(line) else {
        return Prepared::Keep;
    };
    let mut args = command.args.clone();
    match command.name.as_str() {
        "loadsgf" | "printsgf" => {
            if let Some(file) = args.first_mut() {
                match plain_name(file) {
                    Some(name) => *file = name,
                    None => return Prepared::Drop,
                }
            }
        }
        "kosumi-param" if args.len() == 2 => {
            let bounds = match args[0].as_str() {
                // 0 means "the clock decides": a second a move.
                "playouts" => Some((1, MAX_PLAYOUTS)),
                "ownership_playouts" | "aftermath_playouts" => Some((0, MAX_OWNERSHIP_PLAYOUTS)),
                "threads" => Some((0, MAX_THREADS)),
                "max_tree_mb" => Some((0, MAX_TREE_MB)),
                _ => None,
            };
            if let Some((low, most)) = bounds {
                match capped(&args[1], low, most) {
                    Some(value) => args[1] = value,
                    None => return Prepared::Drop,
                }
            }
        }
        "kosumi-solve" => {
            let seconds = |arg: &String| parse_float(arg).is_ok_and(|s| s > 0.0);
            let mut timed = false;
            for arg in args.iter_mut() {
                if seconds(arg) {
                    *arg = SOLVE_SECONDS.to_string();
                    timed = true;
                }
            }
            if !timed {
                if args.len() >= 2 {
                    args[1] = SOLVE_SECONDS.to_string();
                } else {
                    args.push(SOLVE_SECONDS.to_string());
                }
            }
        }
        _ => return Prepared::Keep,
    }
    if args == command.args {
        return Prepared::Keep;
    }
    let mut words: Vec<String> = command.id.map(|id| id.to_string()).into_iter().collect();
    words.push(command.name);
    words.extend(args);
    Prepared::Replace(words.join(" "))
}

// ---------------------------------------------------------------------------
// Target `gtp_input`: lines straight into `Engine::execute_line`

/// Arbitrary bytes, split into lines, fed to one engine: every reply well
/// formed and carrying the command's id, nothing panics.
pub fn gtp_input(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let folder = TempDir::new("input");
    let mut engine = engine_in(folder.path(), GameKind::Go);
    for raw in text.split('\n').take(MAX_LINES) {
        let line = match prepare_line(raw) {
            Prepared::Keep => raw.to_string(),
            Prepared::Replace(line) => line,
            Prepared::Drop => continue,
        };
        let mut out = Vec::new();
        let control = engine
            .execute_line(&line, &mut out, &mut NoInput)
            .expect("writing to a Vec cannot fail");
        let reply = String::from_utf8(out).expect("replies are UTF-8");
        if parse_command_line(&line).is_none() {
            assert_eq!(reply, "", "{line:?} is not a command");
            continue;
        }
        let replies = split_replies(&reply);
        assert_eq!(replies.len(), 1, "{line:?} got {reply:?}");
        assert_eq!(replies[0].id, expected_id(&line), "{line:?} got {reply:?}");
        if control == Control::Quit {
            break;
        }
    }
}

// ---------------------------------------------------------------------------
// Target `sgf_roundtrip`: loadsgf, printsgf, loadsgf

/// What a position looks like through GTP.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    showboard: String,
    board: String,
    to_move: String,
    legal: String,
    record: String,
}

fn look(engine: &mut Engine) -> Seen {
    Seen {
        showboard: ask_ok(engine, "showboard"),
        board: ask_ok(engine, "gogui-rules_board"),
        to_move: ask_ok(engine, "gogui-rules_side_to_move"),
        legal: ask_ok(engine, "gogui-rules_legal_moves"),
        record: ask_ok(engine, "printsgf"),
    }
}

/// The bytes as an SGF file, loaded into Go and into NoGo. A file that
/// loads must be written by printsgf as a record that loads back to the
/// same position, and whose own record is the same; a file that does not
/// load must leave the engine as it was.
pub fn sgf_roundtrip(data: &[u8]) {
    let folder = TempDir::new("sgf");
    std::fs::write(folder.path().join("in.sgf"), data).expect("write the input file");
    for kind in [GameKind::Go, GameKind::NoGo] {
        let mut engine = engine_in(folder.path(), kind);
        let before = look(&mut engine);
        let reply = ask(&mut engine, "loadsgf in.sgf");
        if reply != "= \n\n" {
            assert_eq!(reply, "? cannot load file\n\n");
            assert_eq!(
                look(&mut engine),
                before,
                "a file that failed changed the game"
            );
            continue;
        }
        let original = look(&mut engine);
        // A handicap played as plain Black moves is written as setup: the
        // move count and the last-move mark go, and the positions of the
        // handicap moves leave the superko history.
        let game = engine.game();
        let handicap_as_moves = game.setup().is_empty() && game.handicap() > 0;
        assert_eq!(ask(&mut engine, "printsgf out.sgf"), "= \n\n");
        let written = std::fs::read_to_string(folder.path().join("out.sgf"))
            .expect("printsgf wrote its file");
        assert_eq!(
            written.trim_end(),
            original.record,
            "printsgf FILE and printsgf differ"
        );
        let mut fresh = engine_in(folder.path(), kind);
        let reply = ask(&mut fresh, "loadsgf out.sgf");
        assert_eq!(
            reply, "= \n\n",
            "printsgf's record does not load:\n{written}"
        );
        let reloaded = look(&mut fresh);
        assert_eq!(
            (&reloaded.board, &reloaded.to_move),
            (&original.board, &original.to_move),
            "position changed by the round trip:\n{written}"
        );
        if handicap_as_moves {
            assert_eq!(
                status_without_moves(&reloaded.showboard),
                status_without_moves(&original.showboard),
                "{written}"
            );
        } else {
            assert_eq!(reloaded.showboard, original.showboard, "{written}");
            assert_eq!(reloaded.legal, original.legal, "{written}");
        }
        assert_eq!(
            reloaded.record, original.record,
            "printsgf is not a fixed point"
        );
    }
}

/// The last line of showboard without its move count.
fn status_without_moves(showboard: &str) -> String {
    let status = showboard.lines().last().unwrap_or("");
    status
        .split(", ")
        .filter(|part| !part.starts_with("moves "))
        .collect::<Vec<_>>()
        .join(", ")
}

// ---------------------------------------------------------------------------
// Target `session`: the reader thread and `serve`

/// Hands out its bytes in chunks of the given sizes, in turn.
struct ChunkedReader {
    data: Vec<u8>,
    position: usize,
    sizes: Vec<usize>,
    next_size: usize,
}

impl Read for ChunkedReader {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let left = self.data.len() - self.position;
        let chunk = if self.sizes.is_empty() {
            left
        } else {
            let size = self.sizes[self.next_size % self.sizes.len()];
            self.next_size += 1;
            size
        };
        let n = chunk.min(left).min(buffer.len());
        buffer[..n].copy_from_slice(&self.data[self.position..self.position + n]);
        self.position += n;
        Ok(n)
    }
}

/// The first byte says how many of the next bytes are chunk sizes (0-7),
/// those give the sizes (1-256), the rest is the input stream: lines with
/// CR/LF mixes, ids, `# interrupt`, `quit`. The output must be one
/// well-formed reply per command line up to `quit` (or the end), each with
/// its command's id, in order; `serve` must return.
pub fn session(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let count = usize::from(first % 8).min(rest.len());
    let sizes: Vec<usize> = rest[..count].iter().map(|&b| usize::from(b) + 1).collect();
    let stream = &rest[count..];

    // The input as the reader will split it, made safe line by line.
    let mut input = Vec::with_capacity(stream.len());
    let mut expected = Vec::new();
    let mut quit = false;
    let pieces: Vec<&[u8]> = stream.split(|&b| b == b'\n').collect();
    let last = pieces.len() - 1;
    for (k, piece) in pieces.into_iter().enumerate().take(MAX_LINES) {
        let line = String::from_utf8_lossy(piece);
        let bytes = match prepare_line(&line) {
            Prepared::Keep => piece.to_vec(),
            Prepared::Replace(line) => line.into_bytes(),
            Prepared::Drop => Vec::new(),
        };
        let sent = String::from_utf8_lossy(&bytes).into_owned();
        input.extend_from_slice(&bytes);
        if k < last {
            input.push(b'\n');
        }
        if quit {
            continue;
        }
        match parse_command_line(&sent) {
            None => {}
            Some(parsed) => {
                expected.push((expected_id(&sent), sent.clone()));
                quit = matches!(parsed, Ok(command) if command.name == "quit");
            }
        }
    }

    let folder = TempDir::new("session");
    let mut engine = engine_in(folder.path(), GameKind::Go);
    let receiver = spawn_reader(ChunkedReader {
        data: input,
        position: 0,
        sizes,
        next_size: 0,
    });
    let mut out = Vec::new();
    serve(&mut engine, &receiver, &mut out).expect("writing to a Vec cannot fail");
    out.flush().expect("a Vec flushes");
    let output = String::from_utf8(out).expect("replies are UTF-8");
    let replies = split_replies(&output);
    assert_eq!(
        replies.len(),
        expected.len(),
        "one reply per command: {expected:?} got {output:?}"
    );
    for (reply, (id, line)) in replies.iter().zip(&expected) {
        assert_eq!(
            reply.id, *id,
            "{line:?} answered as {reply:?} in {output:?}"
        );
    }
}
