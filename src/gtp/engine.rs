//! The engine state behind the command table, and the shared helpers the
//! handlers use (vertex conversion, ownership, scoring).

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::SeedableRng;

use super::GtpError;
use super::commands::find_command;
use super::parse::{self, GtpColor, Vertex, parse_command_line};
use super::thinking;
use crate::board::{Bitboard, Color, Game, GameKind, Geometry, Move, Outcome, Point};
use crate::go::ownership::{DEAD_THRESHOLD, Ownership};
use crate::player::clock::{Clock, DEFAULT_LAG};
use crate::search::{FastRng, SearchParams, Searcher};

/// Board side of Go when the engine starts.
pub const DEFAULT_BOARD_SIZE: usize = 19;

/// Board side of NoGo when the engine starts: the size the Computer
/// Olympiad and TAAI play it on.
pub const DEFAULT_NOGO_BOARD_SIZE: usize = 9;

/// Komi of a Go game until the controller sets one.
pub const DEFAULT_GO_KOMI: f32 = 7.5;

/// Playouts behind ownership, dead stones and final_score.
pub const DEFAULT_OWNERSHIP_PLAYOUTS: u32 = 400;

/// Strings whose average ownership is this close to 0 are reported as seki:
/// the playouts leave their points to neither side.
pub const SEKI_BAND: f32 = 0.2;

/// The first word of `version` under `--lizzie`. Lizzie 0.7 reads the
/// second number of that word as Leela Zero's minor version and stops at a
/// dialog below 15 (or silently, where it is no number): Kosumi's own
/// analysis commands are Leela Zero 0.17's, so it says so.
pub const LIZZIE_VERSION: &str = "0.17";

/// `loadsgf`'s default size cap: 4 MiB, some thousand times a long game
/// record. The reader's own limits ([`crate::record::sgf::MAX_NODES`],
/// [`crate::record::sgf::MAX_VALUES`]) bound the memory a file of any size costs.
pub const DEFAULT_MAX_SGF_BYTES: u64 = 4 << 20;

/// Which files `loadsgf` and `printsgf` may reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileAccess {
    /// Any path the process may read or write: a controller on stdin runs
    /// with its user's own rights anyway.
    Anywhere,
    /// None: a daemon on TCP started without `--files-dir`.
    Refused,
    /// Relative paths inside this folder only: no absolute path, no `..`,
    /// no symbolic link that leads out.
    Within(PathBuf),
}

/// What a remote controller may ask of the machine at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceCaps {
    /// Search threads: the machine's cores.
    pub threads: u32,
    /// Tree memory in MiB: what the daemon was started with.
    pub max_tree_mb: u32,
    /// Playouts behind ownership, dead stones and `final_score`.
    pub ownership_playouts: u32,
}

/// The most ownership playouts a remote controller may set: a few seconds
/// on 19x19.
pub const REMOTE_MAX_OWNERSHIP_PLAYOUTS: u32 = 50_000;

/// How often an interruptible command looks at the input.
const INTERRUPT_POLL: Duration = Duration::from_millis(5);

/// The most lag `--lag` and `kosumi-param lag` accept, in seconds.
pub const MAX_LAG_SECONDS: f64 = 60.0;

/// Komi beyond this is certainly a mistake (and would lose precision).
const MAX_KOMI: f64 = 1000.0;

/// What the command line chose.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// Go or NoGo at start-up.
    pub game: GameKind,
    /// Board side at start-up (19 for Go, 9 for NoGo when `None`). It must
    /// be a size `boardsize` accepts.
    pub size: Option<usize>,
    /// Komi at start-up (7.5 for Go, 0 for NoGo when `None`).
    pub komi: Option<f32>,
    /// Time kept back for lag on every move (see [`DEFAULT_LAG`]).
    pub lag: Duration,
    /// Answer `version` as Lizzie 0.7 requires (see [`LIZZIE_VERSION`]).
    pub lizzie: bool,
    /// Search seed; the search's default when `None`.
    pub seed: Option<u64>,
    /// Fixed playouts per move instead of the clock's budget.
    pub playouts: Option<u64>,
    /// Search threads (default: every core; one makes searches repeatable).
    pub threads: Option<usize>,
    /// Folder that relative `loadsgf`/`printsgf` paths start from (the
    /// process's working directory when `None`), where files may be reached
    /// anywhere.
    pub base_dir: Option<PathBuf>,
    /// Which files `loadsgf` and `printsgf` may reach.
    pub file_access: FileAccess,
    /// `loadsgf` refuses files larger than this (see
    /// [`DEFAULT_MAX_SGF_BYTES`]).
    pub max_sgf_bytes: u64,
    /// Caps on what a remote controller may ask of the machine; `None` for
    /// a controller on stdin, whose user owns the machine.
    pub resource_caps: Option<ResourceCaps>,
    /// Keep searching after genmove answers, until the next input line.
    pub ponder: bool,
    /// Live graphics for GoGui (`gogui-gfx:` lines on stderr) during genmove.
    pub gogui_gfx: bool,
    /// Genmove plays the opening book's move where it has one (see
    /// [`crate::player::book`]).
    pub opening_book: bool,
    /// Search tunables to start from (`seed` and `threads` above override).
    pub params: SearchParams,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            game: GameKind::Go,
            size: None,
            komi: None,
            lag: DEFAULT_LAG,
            lizzie: false,
            seed: None,
            playouts: None,
            threads: None,
            base_dir: None,
            file_access: FileAccess::Anywhere,
            max_sgf_bytes: DEFAULT_MAX_SGF_BYTES,
            resource_caps: None,
            ponder: false,
            gogui_gfx: false,
            opening_book: true,
            params: SearchParams::default(),
        }
    }
}

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    Quit,
}

/// The input side as a running search sees it.
pub trait Watcher {
    /// Waits up to `timeout` for input while a search runs. True means stop
    /// the search: on `# interrupt`, or on any line when
    /// `stop_on_any_line`. Lines that arrive are kept to be answered later.
    fn poll(&mut self, timeout: Duration, stop_on_any_line: bool) -> bool;
    /// An analysis that finished by itself waits here for the next line
    /// (kept for later) or the end of input.
    fn wait_for_line(&mut self);
}

/// What a handler produced.
pub enum Response {
    /// The text after `=` (possibly empty or several lines).
    Text(String),
    /// The handler wrote its whole reply itself (analysis streams).
    Streamed,
}

/// One command as a handler sees it.
pub struct Call<'a> {
    pub id: Option<u32>,
    pub args: &'a [String],
    pub out: &'a mut dyn Write,
    pub watcher: &'a mut dyn Watcher,
}

impl Call<'_> {
    /// Fails with `syntax error` unless there are exactly `n` arguments.
    pub fn expect_args(&self, n: usize) -> Result<(), GtpError> {
        if self.args.len() == n {
            Ok(())
        } else {
            Err(GtpError::Syntax)
        }
    }

    /// The `=id ` that starts a successful reply, space included (see
    /// [`write_success`]).
    pub fn success_prefix(&self) -> String {
        match self.id {
            Some(id) => format!("={id} "),
            None => "= ".to_string(),
        }
    }
}

/// Life status of a string at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringStatus {
    Alive,
    Dead,
    Seki,
}

/// The engine: the game, the clock, the searcher and their settings.
pub struct Engine {
    pub(crate) game: Game,
    pub(crate) clock: Clock,
    pub(crate) params: SearchParams,
    pub(crate) searcher: Searcher,
    /// Fixed playouts per genmove; `None` means the clock decides.
    pub(crate) fixed_playouts: Option<u64>,
    pub(crate) ownership_playouts: u32,
    /// As `kgs-rules` named them (lower case); Japanese rules allow passing
    /// with dead stones on the board.
    pub(crate) rules: String,
    pub(crate) base_dir: Option<PathBuf>,
    pub(crate) file_access: FileAccess,
    pub(crate) max_sgf_bytes: u64,
    pub(crate) resource_caps: Option<ResourceCaps>,
    pub(crate) started: Instant,
    /// Ponder after each move the engine plays.
    pub(crate) ponder: bool,
    /// Set by a genmove that played with pondering on: ponder once the
    /// reply is out.
    pub(crate) ponder_pending: bool,
    /// Write live graphics for GoGui while genmove searches.
    pub(crate) gogui_gfx: bool,
    /// Genmove plays the opening book's move where it has one.
    pub(crate) opening_book: bool,
    /// `version` answers in Lizzie's form.
    pub(crate) lizzie: bool,
    /// Set while an interruptible command runs, once the controller asks
    /// it to stop (see [`Engine::interruptible`]).
    pub(crate) interrupted: Arc<AtomicBool>,
}

impl Engine {
    pub fn new(config: EngineConfig) -> Engine {
        let mut params = config.params.clone();
        if let Some(seed) = config.seed {
            params.seed = seed;
        }
        if let Some(threads) = config.threads {
            params.threads = threads.clamp(1, 256) as u32;
        }
        let (default_size, default_komi) = match config.game {
            GameKind::Go => (DEFAULT_BOARD_SIZE, DEFAULT_GO_KOMI),
            GameKind::NoGo => (DEFAULT_NOGO_BOARD_SIZE, 0.0),
        };
        let komi = config.komi.unwrap_or(default_komi);
        let mut clock = Clock::new();
        clock.set_lag(config.lag);
        let geometry = config
            .size
            .and_then(|size| Geometry::square(size).ok())
            .or_else(|| Geometry::square(default_size).ok())
            .expect("the default size is valid");
        Engine {
            game: Game::new(geometry, config.game, komi),
            clock,
            searcher: Searcher::new(params.clone()),
            params,
            fixed_playouts: config.playouts.filter(|&n| n > 0),
            ownership_playouts: DEFAULT_OWNERSHIP_PLAYOUTS,
            rules: "chinese".to_string(),
            base_dir: config.base_dir,
            file_access: config.file_access,
            max_sgf_bytes: config.max_sgf_bytes,
            resource_caps: config.resource_caps,
            started: Instant::now(),
            ponder: config.ponder,
            ponder_pending: false,
            gogui_gfx: config.gogui_gfx,
            opening_book: config.opening_book,
            lizzie: config.lizzie,
            interrupted: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Nodes in the search tree kept for the next search.
    pub fn tree_size(&self) -> usize {
        self.searcher.tree_size()
    }

    /// Answers one raw input line on `out` (nothing for blank and comment
    /// lines). Errors are only output errors: the controller is gone.
    pub fn execute_line(
        &mut self,
        raw: &str,
        out: &mut dyn Write,
        watcher: &mut dyn Watcher,
    ) -> io::Result<Control> {
        let command = match parse_command_line(raw) {
            None => return Ok(Control::Continue),
            Some(Err(error)) => {
                write_failure(out, error.id(), &GtpError::from(error))?;
                return Ok(Control::Continue);
            }
            Some(Ok(command)) => command,
        };
        let Some(spec) = find_command(&command.name) else {
            log::debug!("unknown command {:?}", command.name);
            write_failure(out, command.id, &GtpError::UnknownCommand)?;
            return Ok(Control::Continue);
        };
        let mut call = Call {
            id: command.id,
            args: &command.args,
            out,
            watcher,
        };
        let result = (spec.handler)(self, &mut call);
        match result {
            Ok(Response::Text(text)) => write_success(out, command.id, &text)?,
            Ok(Response::Streamed) => {}
            Err(GtpError::Output(error)) => return Err(error),
            Err(error) => {
                log::debug!("{} {:?}: {error}", command.name, command.args);
                write_failure(out, command.id, &error)?;
            }
        }
        // The reply is out: the opponent thinks, and so do we.
        if std::mem::take(&mut self.ponder_pending) {
            thinking::ponder(self, watcher);
        }
        Ok(if spec.name == "quit" {
            Control::Quit
        } else {
            Control::Continue
        })
    }

    /// Board size.
    pub(crate) fn geometry(&self) -> Geometry {
        self.game.geometry()
    }

    /// A fresh board of `geometry` and `kind`, komi kept.
    pub(crate) fn reset_board(&mut self, geometry: Geometry, kind: GameKind) {
        self.game = Game::new(geometry, kind, self.game.komi());
        self.clock.new_game();
    }

    /// Parses a vertex on the current board.
    pub(crate) fn parse_move(&self, text: &str) -> Result<Move, GtpError> {
        let g = self.geometry();
        match parse::parse_vertex(text, g.width(), g.height())? {
            Vertex::Pass => Ok(Move::Pass),
            Vertex::Point { col, row } => g
                .point(col, row)
                .map(Move::Play)
                .map_err(|_| GtpError::IllegalMove),
        }
    }

    /// Upper-case GTP spelling of a move: `D4`, `PASS`.
    pub(crate) fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Pass => "PASS".to_string(),
            Move::Play(p) => self.point_text(p),
        }
    }

    /// Upper-case GTP spelling of a point.
    pub(crate) fn point_text(&self, p: Point) -> String {
        point_text(self.geometry(), p)
    }

    /// A generator for estimates that depend on the position only, so
    /// final_score and friends answer the same whatever came before.
    pub(crate) fn position_rng(&self) -> FastRng {
        FastRng::seed_from_u64(self.params.seed ^ self.game.position().hash_with_side())
    }

    /// Ownership of the current position. The playouts start from a copy
    /// of the board without its history, because the order in which a
    /// position keeps its empty points depends on the moves that made it:
    /// the same board reached two ways must get the same estimate.
    pub(crate) fn ownership(&self) -> Ownership {
        let board = self.board_copy(self.game.to_move());
        Ownership::estimate_until(
            &board,
            self.ownership_playouts,
            &mut self.position_rng(),
            &self.interrupted,
        )
    }

    /// Runs `work` in a worker thread while the main thread watches the
    /// input: `# interrupt`, or the controller going away over TCP, sets
    /// `interrupted`, which the long computations (ownership playouts, the
    /// exact solver) read to answer at once with what they have.
    pub(crate) fn interruptible<T: Send>(
        &self,
        watcher: &mut dyn Watcher,
        work: impl FnOnce(&Engine) -> T + Send,
    ) -> T {
        self.interrupted.store(false, Ordering::Relaxed);
        let outcome = std::thread::scope(|scope| {
            let worker = scope.spawn(|| work(self));
            while !worker.is_finished() {
                if watcher.poll(INTERRUPT_POLL, false) {
                    self.interrupted.store(true, Ordering::Relaxed);
                }
            }
            worker.join()
        });
        self.interrupted.store(false, Ordering::Relaxed);
        outcome.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }

    /// Every string on the board with its status, strings in board order
    /// (by their lowest point), each a list of points in board order.
    pub(crate) fn string_statuses(&self) -> Vec<(Vec<Point>, StringStatus)> {
        let position = self.game.position();
        let ownership = match self.game.kind() {
            GameKind::Go => Some(self.ownership()),
            // NoGo never captures: every stone stays to the end.
            GameKind::NoGo => None,
        };
        let mut seen = Bitboard::EMPTY;
        let mut strings = Vec::new();
        for p in self.geometry().points() {
            let Some(color) = position.cell(p).color() else {
                continue;
            };
            if seen.contains(p) {
                continue;
            }
            let stones = position.string_stones(p);
            seen = seen.or(&stones);
            let points: Vec<Point> = stones.iter().collect();
            let status = match &ownership {
                None => StringStatus::Alive,
                Some(own) => {
                    let sign = if color == Color::Black { 1.0 } else { -1.0 };
                    let mean = points.iter().map(|&q| sign * own.value(q)).sum::<f32>()
                        / points.len().max(1) as f32;
                    if mean < -DEAD_THRESHOLD {
                        StringStatus::Dead
                    } else if mean.abs() < SEKI_BAND {
                        StringStatus::Seki
                    } else {
                        StringStatus::Alive
                    }
                }
            };
            strings.push((points, status));
        }
        strings
    }

    /// The stones judged dead, of `color` or of both sides.
    pub(crate) fn dead_stones(&self, color: Option<Color>) -> Bitboard {
        let position = self.game.position();
        let mut dead = Bitboard::EMPTY;
        for (points, status) in self.string_statuses() {
            let owner = points.first().and_then(|&p| position.cell(p).color());
            if status == StringStatus::Dead && (color.is_none() || owner == color) {
                for p in points {
                    dead.set(p);
                }
            }
        }
        dead
    }

    /// The Go game's result as a scorer counts it now: by area, with the
    /// stones the ownership playouts find dead removed.
    pub(crate) fn counted_outcome(&self) -> Outcome {
        let score = self.game.area_score_with_dead(&self.dead_stones(None));
        score.outcome(self.game.komi())
    }

    /// The result as GTP and SGF write it: `B+3.5`, `W+0.5`, `0`; NoGo
    /// `B+`/`W+` once the side to move has no move. `None` while a NoGo
    /// game runs (there is no score to give).
    pub(crate) fn result_text(&self) -> Option<String> {
        match self.game.kind() {
            GameKind::NoGo => self
                .game
                .is_over()
                .then(|| format!("{}+", color_letter(self.game.to_move().opponent()))),
            GameKind::Go => Some(match self.counted_outcome() {
                Outcome::Draw => "0".to_string(),
                Outcome::Win(color, margin) => {
                    format!("{}+{}", color_letter(color), number_text(margin.into()))
                }
            }),
        }
    }

    /// A copy of the game with `color` to move, for searching a move for
    /// the side not on turn. The copy keeps the board but not the history,
    /// so its answer is checked against the real game afterwards.
    pub(crate) fn game_for(&self, color: Color) -> Game {
        if self.game.to_move() == color {
            return self.game.clone();
        }
        self.board_copy(color)
    }

    /// A new game holding this board as setup stones, `color` to move.
    fn board_copy(&self, color: Color) -> Game {
        let position = self.game.position();
        let stones: Vec<(Point, Color)> = self
            .geometry()
            .points()
            .filter_map(|p| position.cell(p).color().map(|c| (p, c)))
            .collect();
        let mut copy = Game::new(self.geometry(), self.game.kind(), self.game.komi());
        if copy.add_setup(&stones).is_err() {
            // Cannot happen for a legal board; searching the real game is
            // the safe fallback.
            log::warn!("could not copy the board for {color:?}");
            return self.game.clone();
        }
        copy.set_first_to_move(color);
        copy
    }

    /// Hands changed tunables to the searcher, which keeps its tree.
    pub(crate) fn update_search_params(&mut self) {
        self.searcher.set_params(self.params.clone());
    }
}

/// Parses a GTP colour into the board's colour.
pub(crate) fn parse_color(text: &str) -> Result<Color, GtpError> {
    Ok(match parse::parse_color(text)? {
        GtpColor::Black => Color::Black,
        GtpColor::White => Color::White,
    })
}

/// Parses komi: a finite number of sensible size.
/// Seconds of lag allowance, from 0 to [`MAX_LAG_SECONDS`].
pub fn parse_lag(text: &str) -> Result<Duration, GtpError> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|seconds| (0.0..=MAX_LAG_SECONDS).contains(seconds))
        .map(Duration::from_secs_f64)
        .ok_or(GtpError::Syntax)
}

pub(crate) fn parse_komi(text: &str) -> Result<f32, GtpError> {
    let komi = parse::parse_float(text)?;
    if komi.abs() > MAX_KOMI {
        return Err(GtpError::Syntax);
    }
    Ok(komi as f32)
}

/// Upper-case GTP spelling of a point on `geometry`.
pub(crate) fn point_text(geometry: Geometry, p: Point) -> String {
    match geometry.coords(p) {
        Some((col, row)) => parse::format_vertex(Vertex::Point { col, row }),
        None => "PASS".to_string(),
    }
}

/// `B` or `W`.
pub(crate) fn color_letter(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// `black` or `white`.
pub(crate) fn color_word(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A number with at most two decimals and no trailing zeros: `7.5`, `7`,
/// `-0.25`. f32 komi values such as 6.3 would otherwise print as 6.2999997.
pub(crate) fn number_text(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" || text.is_empty() {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// Writes `=id text` and the blank line that ends every reply.
pub(crate) fn write_success(out: &mut dyn Write, id: Option<u32>, text: &str) -> io::Result<()> {
    let mut reply = match id {
        Some(id) => format!("={id}"),
        None => "=".to_string(),
    };
    append_body(&mut reply, text);
    out.write_all(reply.as_bytes())?;
    out.flush()
}

/// Writes `?id message` and the blank line.
pub(crate) fn write_failure(
    out: &mut dyn Write,
    id: Option<u32>,
    error: &GtpError,
) -> io::Result<()> {
    let mut reply = match id {
        Some(id) => format!("?{id}"),
        None => "?".to_string(),
    };
    append_body(&mut reply, &error.to_string());
    out.write_all(reply.as_bytes())?;
    out.flush()
}

/// Appends a reply body and the closing blank line. The status is always
/// followed by a space, as GNU Go writes it: GoGui takes a reply's text from
/// after the first space of the whole reply, so `=` then a line feed would
/// lose the first word of the next line. Blank lines inside the body would
/// end the reply early for the controller, so they are dropped.
fn append_body(reply: &mut String, text: &str) {
    let mut lines = text.split('\n').map(|line| line.trim_end_matches('\r'));
    reply.push(' ');
    reply.push_str(lines.next().unwrap_or(""));
    for line in lines.filter(|line| !line.trim().is_empty()) {
        reply.push('\n');
        reply.push_str(line);
    }
    reply.push_str("\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_short() {
        assert_eq!(number_text(7.5), "7.5");
        assert_eq!(number_text(7.0), "7");
        assert_eq!(number_text(f64::from(6.3f32)), "6.3");
        assert_eq!(number_text(-0.001), "0");
        assert_eq!(number_text(-2.25), "-2.25");
    }

    #[test]
    fn reply_bodies_never_hold_blank_lines() {
        let mut reply = String::from("=");
        append_body(&mut reply, "\na\n\nb\n");
        assert_eq!(reply, "= \na\nb\n\n");
        let mut empty = String::from("=3");
        append_body(&mut empty, "");
        assert_eq!(empty, "=3 \n\n");
    }
}
