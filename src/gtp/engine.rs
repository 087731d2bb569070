//! The engine as a handler sees it: the game in progress, the
//! [`Player`] that thinks about it, the session's settings (files,
//! caps on a remote controller, live graphics, Lizzie's version), and
//! [`Call`], one command's arguments and streams.
//!
//! Handlers change the engine through its methods; the fields that stay
//! `pub(crate)` are the ones `files.rs` (loadsgf, printsgf) reads directly.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::error::GtpError;
use super::format;
use super::parse::{self, Vertex};
use crate::board::{Color, Game, GameError, GameKind, Geometry, Move, Point};
use crate::player::aftermath::DEFAULT_AFTERMATH_PLAYOUTS;
use crate::player::clock::{Clock, DEFAULT_LAG};
use crate::player::scoring::DEFAULT_OWNERSHIP_PLAYOUTS;
use crate::player::watch::interruptible;
use crate::player::{Choice, MoveView, Player, Purpose, Settings, Watcher};
use crate::search::SearchParams;

// `files.rs` reaches these through this module.
pub(crate) use super::args::parse_komi;
pub(crate) use super::format::{color_letter, number_text};

/// Board side of Go when the engine starts.
pub const DEFAULT_BOARD_SIZE: usize = 19;

/// Board side of NoGo when the engine starts: the size the Computer
/// Olympiad and TAAI play it on.
pub const DEFAULT_NOGO_BOARD_SIZE: usize = 9;

/// Komi of a Go game until the controller sets one.
pub const DEFAULT_GO_KOMI: f32 = 7.5;

/// Smallest board `boardsize` accepts.
pub const MIN_BOARD_SIZE: usize = 2;

/// Engine name as `name` reports it.
pub const ENGINE_NAME: &str = "Kosumi";

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
    /// Playouts of each move when a finished game is played out.
    pub aftermath_playouts: u32,
}

/// The most ownership playouts a remote controller may set: a few seconds
/// on 19x19.
pub const REMOTE_MAX_OWNERSHIP_PLAYOUTS: u32 = 50_000;

/// The most playouts a move a remote controller may give the play-out of a
/// finished game: twice the default.
pub const REMOTE_MAX_AFTERMATH_PLAYOUTS: u32 = 4_000;

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
    /// [`super::dispatch::write_success`]).
    pub fn success_prefix(&self) -> String {
        match self.id {
            Some(id) => format!("={id} "),
            None => "= ".to_string(),
        }
    }
}

/// The engine: the game, the player that thinks about it, and the
/// session's settings.
pub struct Engine {
    pub(crate) game: Game,
    player: Player,
    pub(crate) base_dir: Option<PathBuf>,
    pub(crate) file_access: FileAccess,
    pub(crate) max_sgf_bytes: u64,
    resource_caps: Option<ResourceCaps>,
    started: Instant,
    /// Write live graphics for GoGui while genmove searches.
    gogui_gfx: bool,
    /// `version` answers in Lizzie's form.
    lizzie: bool,
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
        let settings = Settings {
            fixed_playouts: config.playouts.filter(|&n| n > 0),
            ownership_playouts: DEFAULT_OWNERSHIP_PLAYOUTS,
            aftermath_playouts: DEFAULT_AFTERMATH_PLAYOUTS,
            ponder: config.ponder,
            opening_book: config.opening_book,
            rules: "chinese".to_string(),
        };
        Engine {
            game: Game::new(geometry, config.game, komi),
            player: Player::new(params, clock, settings),
            base_dir: config.base_dir,
            file_access: config.file_access,
            max_sgf_bytes: config.max_sgf_bytes,
            resource_caps: config.resource_caps,
            started: Instant::now(),
            gogui_gfx: config.gogui_gfx,
            lizzie: config.lizzie,
        }
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub(crate) fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// Nodes in the search tree kept for the next search.
    pub fn tree_size(&self) -> usize {
        self.player.tree_size()
    }

    /// The player: searcher, clock and settings.
    pub(crate) fn player(&self) -> &Player {
        &self.player
    }

    pub(crate) fn player_mut(&mut self) -> &mut Player {
        &mut self.player
    }

    /// What a remote controller may ask for at most; `None` on stdin.
    pub(crate) fn resource_caps(&self) -> Option<ResourceCaps> {
        self.resource_caps
    }

    /// When the engine started.
    pub(crate) fn started(&self) -> Instant {
        self.started
    }

    /// Whether genmove writes live graphics for GoGui.
    pub(crate) fn gogui_gfx(&self) -> bool {
        self.gogui_gfx
    }

    pub(crate) fn set_gogui_gfx(&mut self, on: bool) {
        self.gogui_gfx = on;
    }

    /// Whether `version` answers in Lizzie's form.
    pub(crate) fn lizzie(&self) -> bool {
        self.lizzie
    }

    /// Board size.
    pub(crate) fn geometry(&self) -> Geometry {
        self.game.geometry()
    }

    /// A fresh board of `geometry` and `kind`, komi kept.
    pub(crate) fn reset_board(&mut self, geometry: Geometry, kind: GameKind) {
        self.game = Game::new(geometry, kind, self.game.komi());
        self.player.clock_mut().new_game();
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
        format::move_text(self.geometry(), mv)
    }

    /// Upper-case GTP spelling of a point.
    pub(crate) fn point_text(&self, p: Point) -> String {
        format::point_text(self.geometry(), p)
    }

    /// Points in their upper-case GTP spelling, separated by spaces.
    pub(crate) fn points_text(&self, points: &[Point]) -> String {
        let names: Vec<String> = points.iter().map(|&p| self.point_text(p)).collect();
        names.join(" ")
    }

    /// Runs `work` in a worker thread while the main thread watches the
    /// input: `# interrupt`, or the controller going away over TCP, stops
    /// the long computations (ownership playouts, the exact solver), which
    /// then answer at once with what they have.
    pub(crate) fn interruptible<T: Send>(
        &self,
        watcher: &mut dyn Watcher,
        work: impl FnOnce(&Engine) -> T + Send,
    ) -> T {
        interruptible(self.player.interrupted(), watcher, || work(self))
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
            GameKind::Go => Some(format::outcome_text(self.player.final_outcome(&self.game))),
        }
    }

    /// Generates a move for `color` (see [`Player::genmove`]).
    pub(crate) fn genmove<V>(
        &mut self,
        color: Color,
        purpose: Purpose,
        watcher: &mut dyn Watcher,
        view: &mut V,
    ) -> Result<Choice, V::Error>
    where
        V: MoveView,
        V::Error: From<GameError>,
    {
        self.player
            .genmove(&mut self.game, color, purpose, watcher, view)
    }

    /// Ponders if the last genmove asked for it (see [`Player::ponder`]),
    /// and logs what it found.
    pub(crate) fn ponder(&mut self, watcher: &mut dyn Watcher) {
        let Some(pondered) = self.player.ponder(&self.game, watcher) else {
            return;
        };
        let expected = pondered
            .report
            .best()
            .map_or_else(|| "nothing".to_string(), |best| self.move_text(best.mv));
        log::info!(
            "pondered {} playouts in {:.2} s, tree {} nodes, expecting {expected}",
            pondered.report.playouts,
            pondered.elapsed.as_secs_f64(),
            pondered.tree_size,
        );
    }
}
