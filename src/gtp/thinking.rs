//! Commands that run the search: genmove and its variants, and the
//! Leela Zero / KataGo analysis streams.
//!
//! The search runs in a scoped worker thread with a stop flag; the main
//! thread polls the [`Watcher`](super::Watcher) for input and writes the
//! progress lines the worker sends it, so only one thread ever writes to
//! the controller.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::GtpError;
use super::engine::{Call, Engine, Response, Watcher, parse_color};
use super::parse;
use crate::board::{Bitboard, Color, Game, GameKind, Geometry, Move, Outcome};
use crate::go::ownership::Ownership;
use crate::player::book::OpeningBook;
use crate::player::clock::{DEFAULT_MOVE_TIME, expected_moves_go, expected_moves_nogo};
use crate::search::{Candidate, Decision, SearchLimits, SearchReport, dyn_komi, wilson_interval};

/// How often the main thread looks at the input while a search runs.
const POLL_INTERVAL: Duration = Duration::from_millis(2);

/// Analysis report interval when the controller gives none (centiseconds).
const DEFAULT_INTERVAL_CS: u32 = 100;

/// An analysis that nobody stops still ends after this long.
const ANALYSIS_TIME_CAP: Duration = Duration::from_secs(3600);

/// Moves per handicap stone added to the opening in which White never
/// resigns a handicap game.
const HANDICAP_OPENING_MOVES: usize = 10;

/// Candidates listed per info line at most.
const MAX_INFO_CANDIDATES: usize = 30;

/// Moves of the opening book's line a book move's analysis shows at most.
const MAX_BOOK_PV: usize = 12;

/// Live graphics (`gogui-gfx:` on stderr) are refreshed this often.
const GFX_INTERVAL: Duration = Duration::from_millis(500);

/// Candidates shown in a live graphics update at most.
const MAX_GFX_CANDIDATES: usize = 40;

/// Moves of the principal variation drawn by live graphics at most.
const MAX_GFX_VARIATION: usize = 12;

/// Pondering that nobody stops still ends after this long.
const PONDER_TIME_CAP: Duration = Duration::from_secs(3600);

/// Playouts of the analysis commands (kosumi-visits, -pv, -winrate) when
/// no fixed playout count is set.
pub(crate) const ANALYZE_COMMAND_PLAYOUTS: u64 = 2000;

/// What a generated move is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// genmove: the move is played.
    Play,
    /// reg_genmove: the move is only reported.
    Report,
    /// kgs-genmove_cleanup: played, never a pass while dead stones remain,
    /// never a resignation.
    Cleanup,
}

/// genmove's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Play(Move),
    Resign,
}

/// Which engine's analysis format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InfoStyle {
    /// Integers x10000 for winrate, prior and lcb.
    LeelaZero,
    /// Floats in [0, 1].
    KataGo,
    /// One line of JSON per report, as the CGOS analysis extension
    /// (zakki/cgos, `cgos-genmove_analyze`) defines it.
    Cgos,
}

/// Candidates in a CGOS analysis line at most (it ends up in the SGF).
const MAX_CGOS_CANDIDATES: usize = 10;

/// Arguments of the analysis commands.
#[derive(Clone, Debug, PartialEq)]
struct AnalyzeArgs {
    color: Option<Color>,
    /// Between progress lines; zero means only the final line.
    interval: Duration,
    /// Whether the controller gave the interval (CGOS gives none and wants
    /// only the final line).
    interval_given: bool,
    ownership: bool,
    /// `maxmoves N`: candidates a line lists at most.
    max_moves: Option<usize>,
}

/// Turns search reports into `info` lines.
#[derive(Clone, Debug)]
struct InfoFormatter {
    style: InfoStyle,
    geometry: Geometry,
    /// Ownership appended to every line, if asked: ` ownership v1 v2 ...`
    /// (KataGo) or `,"ownership":"..."` (CGOS).
    ownership: Option<String>,
    /// Candidates a line lists at most (`maxmoves`).
    max_moves: usize,
    /// Every candidate listed carries `scoreLead` (KataGo's format in Go):
    /// Sabaki's score graph breaks on a candidate without one, so a move
    /// that this search has not yet played out through waits for a line.
    score_leads: bool,
}

impl InfoFormatter {
    /// The formatter for an analysis of `game` (to move as analysed).
    fn new(engine: &Engine, game: &Game, style: InfoStyle, args: &AnalyzeArgs) -> InfoFormatter {
        let most = match style {
            InfoStyle::Cgos => MAX_CGOS_CANDIDATES,
            InfoStyle::LeelaZero | InfoStyle::KataGo => MAX_INFO_CANDIDATES,
        };
        InfoFormatter {
            style,
            geometry: game.geometry(),
            ownership: args
                .ownership
                .then(|| ownership_suffix(engine, game, style)),
            max_moves: args.max_moves.map_or(most, |n| n.min(most)),
            score_leads: style == InfoStyle::KataGo && game.kind() == GameKind::Go,
        }
    }

    /// One line holding every visited candidate, best first, or `None`
    /// when nothing was visited yet.
    fn line(&self, report: &SearchReport) -> Option<String> {
        if self.style == InfoStyle::Cgos {
            return self.json_line(report);
        }
        let mut line = String::new();
        for (order, candidate) in report
            .candidates
            .iter()
            .filter(|c| c.visits > 0 && (!self.score_leads || c.score_lead.is_some()))
            .take(self.max_moves)
            .enumerate()
        {
            let winrate = candidate.winrate.clamp(0.0, 1.0);
            let lcb = lower_confidence_bound(winrate, candidate.visits);
            if !line.is_empty() {
                line.push(' ');
            }
            // Sabaki reads KataGo's score estimate; Leela Zero has none.
            let score_lead = match (self.style, candidate.score_lead) {
                (InfoStyle::KataGo, Some(lead)) => format!(" scoreLead {lead:.3}"),
                _ => String::new(),
            };
            line.push_str(&format!(
                "info move {} visits {} winrate {}{score_lead} prior {} lcb {} order {order} pv",
                self.vertex(candidate.mv),
                candidate.visits,
                self.fraction(winrate),
                self.fraction(candidate.prior.clamp(0.0, 1.0)),
                self.fraction(lcb),
            ));
            let pv = if candidate.pv.is_empty() {
                std::slice::from_ref(&candidate.mv)
            } else {
                candidate.pv.as_slice()
            };
            for &mv in pv {
                line.push(' ');
                line.push_str(&self.vertex(mv));
            }
        }
        if line.is_empty() {
            return None;
        }
        if let Some(ownership) = &self.ownership {
            line.push_str(ownership);
        }
        Some(line)
    }

    /// The CGOS analysis JSON on one line: root win rate and visits for the
    /// side to move, then the most visited candidates with the principal
    /// variation that follows each.
    fn json_line(&self, report: &SearchReport) -> Option<String> {
        let best = report.best().filter(|best| best.visits > 0)?;
        let visits: u64 = report.candidates.iter().map(|c| c.visits).sum();
        let moves: Vec<String> = report
            .candidates
            .iter()
            .filter(|c| c.visits > 0)
            .take(self.max_moves)
            .map(|c| {
                let follow: Vec<String> = c.pv.iter().skip(1).map(|&mv| self.vertex(mv)).collect();
                format!(
                    r#"{{"move":"{}","visits":{},"winrate":{:.4},"prior":{:.4},"pv":"{}"}}"#,
                    self.vertex(c.mv),
                    c.visits,
                    c.winrate.clamp(0.0, 1.0),
                    c.prior.clamp(0.0, 1.0),
                    follow.join(" ")
                )
            })
            .collect();
        Some(format!(
            r#"{{"winrate":{:.4},"visits":{visits},"moves":[{}]{}}}"#,
            best.winrate.clamp(0.0, 1.0),
            moves.join(","),
            self.ownership.as_deref().unwrap_or("")
        ))
    }

    /// The line for a move the opening book answers: the book's line from
    /// here as the principal variation, the win rate of the search that
    /// chose the move when the book was built, and no visits (none were
    /// searched now; Leela Zero's and KataGo's forms need the field, so it
    /// reads 0 there, and CGOS's leaves it out). `pv` starts with the move.
    fn book_line(&self, winrate: f64, pv: &[Move]) -> String {
        let first = pv.first().map_or_else(String::new, |&mv| self.vertex(mv));
        let follow: Vec<String> = pv.iter().skip(1).map(|&mv| self.vertex(mv)).collect();
        let winrate = winrate.clamp(0.0, 1.0);
        let line = match self.style {
            InfoStyle::Cgos => format!(
                r#"{{"winrate":{winrate:.4},"moves":[{{"move":"{first}","winrate":{winrate:.4},"prior":1.0000,"pv":"{}"}}]"#,
                follow.join(" ")
            ),
            InfoStyle::LeelaZero | InfoStyle::KataGo => {
                let all: Vec<String> = pv.iter().map(|&mv| self.vertex(mv)).collect();
                format!(
                    "info move {first} visits 0 winrate {} prior {} lcb {} order 0 pv {}",
                    self.fraction(winrate),
                    self.fraction(1.0),
                    self.fraction(0.0),
                    all.join(" ")
                )
            }
        };
        let ownership = self.ownership.as_deref().unwrap_or("");
        format!("{line}{ownership}{}", self.json_close())
    }

    /// What closes a line: the JSON object's brace in CGOS's form.
    fn json_close(&self) -> &'static str {
        match self.style {
            InfoStyle::Cgos => "}",
            InfoStyle::LeelaZero | InfoStyle::KataGo => "",
        }
    }

    /// Upper-case vertex, lower-case `pass` (as Leela Zero and KataGo write).
    fn vertex(&self, mv: Move) -> String {
        match mv {
            Move::Pass => "pass".to_string(),
            Move::Play(p) => super::engine::point_text(self.geometry, p),
        }
    }

    fn fraction(&self, value: f64) -> String {
        match self.style {
            InfoStyle::LeelaZero => format!("{}", (value * 10000.0).round() as i64),
            InfoStyle::KataGo | InfoStyle::Cgos => format!("{value:.6}"),
        }
    }
}

/// Lower end of the Wilson score interval (95%) of the winrate: low for
/// few visits even when every playout won.
fn lower_confidence_bound(winrate: f64, visits: u64) -> f64 {
    if visits == 0 {
        return 0.0;
    }
    wilson_interval(winrate, visits as f64).0
}

/// Ownership of every point, top row first, from the view of the side to
/// move of `game` (1: the mover's, -1: the opponent's).
fn mover_ownership(engine: &Engine, game: &Game) -> Vec<f32> {
    let ownership =
        Ownership::estimate(game, engine.ownership_playouts, &mut engine.position_rng());
    let sign = if game.to_move() == Color::Black {
        1.0
    } else {
        -1.0
    };
    let g = game.geometry();
    (0..g.height())
        .rev()
        .flat_map(|row| (0..g.width()).map(move |col| (col, row)))
        .map(|(col, row)| sign * ownership.value(g.point_unchecked(col, row)))
        .collect()
}

/// What analysis lines append for ownership, in `style`'s format.
fn ownership_suffix(engine: &Engine, game: &Game, style: InfoStyle) -> String {
    let values = mover_ownership(engine, game);
    match style {
        InfoStyle::LeelaZero | InfoStyle::KataGo => {
            let mut suffix = String::from(" ownership");
            for value in values {
                suffix.push_str(&format!(" {:.4}", value + 0.0));
            }
            suffix
        }
        InfoStyle::Cgos => format!(r#","ownership":"{}""#, cgos_ownership(&values)),
    }
}

/// The CGOS ownership string: one character a point, `A` (-1) to `+` (1),
/// as the reference encoder of the CGOS extension writes it.
fn cgos_ownership(values: &[f32]) -> String {
    const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    values
        .iter()
        .map(|&value| {
            let unit = ((value + 1.0) / 2.0).clamp(0.0, 1.0);
            char::from(CHARS[(unit * 62.0).round() as usize])
        })
        .collect()
}

fn parse_analyze_args(args: &[String]) -> Result<AnalyzeArgs, GtpError> {
    let mut color = None;
    let mut interval = None;
    let mut ownership = false;
    let mut max_moves = None;
    let mut i = 0;
    while i < args.len() {
        let word = args[i].as_str();
        let value = |k: usize| args.get(i + k).ok_or(GtpError::Syntax);
        if i == 0
            && let Ok(c) = parse_color(word)
        {
            color = Some(c);
            i += 1;
            continue;
        }
        if interval.is_none()
            && let Ok(centiseconds) = parse::parse_u32(word)
        {
            interval = Some(centiseconds);
            i += 1;
            continue;
        }
        match word {
            "interval" => {
                interval = Some(parse::parse_u32(value(1)?)?);
                i += 2;
            }
            "ownership" => {
                ownership = match value(1)?.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(GtpError::Syntax),
                };
                i += 2;
            }
            "maxmoves" => {
                max_moves = Some(parse::parse_u32(value(1)?)? as usize);
                i += 2;
            }
            // avoid/allow COLOR VERTICES UNTIL_DEPTH: accepted, not used.
            "avoid" | "allow" => {
                value(3)?;
                i += 4;
            }
            // Options of Leela Zero and KataGo that change nothing here.
            "minmoves"
            | "pvVisits"
            | "ownershipStdev"
            | "movesOwnership"
            | "movesOwnershipStdev"
            | "rootInfo"
            | "pvEdgeVisits" => {
                value(1)?;
                i += 2;
            }
            _ => return Err(GtpError::Syntax),
        }
    }
    let centiseconds = interval.unwrap_or(DEFAULT_INTERVAL_CS);
    Ok(AnalyzeArgs {
        color,
        interval: Duration::from_millis(u64::from(centiseconds) * 10),
        interval_given: interval.is_some(),
        ownership,
        max_moves,
    })
}

/// Search limits for a move: fixed playouts if set, else the clock's
/// budget; a clock without limit still gets the default time per move, so
/// the engine never thinks forever.
fn move_limits(engine: &Engine, color: Color) -> SearchLimits {
    let may_pass = pass_may_end_the_game(engine, color);
    match engine.fixed_playouts {
        Some(playouts) => SearchLimits {
            playouts: Some(playouts),
            time: None,
            dynamic_komi: true,
            stop_when_decided: true,
            may_pass,
        },
        None => {
            let game = &engine.game;
            let area = game.geometry().area();
            let moves_left = match game.kind() {
                GameKind::Go => expected_moves_go(area, game.moves().len()),
                GameKind::NoGo => {
                    let legal = game.position().legal_moves(color).count() as usize;
                    expected_moves_nogo(area, legal)
                }
            };
            let budget = engine.clock.budget(color, moves_left);
            SearchLimits {
                playouts: None,
                time: Some(budget.unwrap_or(DEFAULT_MOVE_TIME)),
                dynamic_komi: true,
                // NoGo keeps the early stop: spending a whole 0.3 s period
                // gained nothing against the early-stopping engine (29-31
                // of 60), where Go scored 58% of 120.
                stop_when_decided: game.kind() == GameKind::NoGo
                    || engine.clock.keeps_unused_time(color),
                may_pass,
            }
        }
    }
}

/// Whether the opponent's last move was a pass, in Go.
fn opponent_passed(engine: &Engine, color: Color) -> bool {
    let game = &engine.game;
    game.kind() == GameKind::Go
        && game
            .moves()
            .last()
            .is_some_and(|&(who, mv)| who != color && mv == Move::Pass)
}

/// Whether `color` may pass: not right after the opponent's pass (ending
/// the game) unless the game is won as a scorer counts it, by area with
/// the dead stones removed. The board as it stands may hold our dead
/// stones in the opponent's area, which GNU Go and KGS remove.
fn pass_may_end_the_game(engine: &Engine, color: Color) -> bool {
    if !opponent_passed(engine, color) || engine.rules == "japanese" {
        return true;
    }
    matches!(engine.counted_outcome(), Outcome::Win(winner, _) if winner == color)
}

/// After the opponent's pass, a game `color` has won needs no search: a
/// pass ends it. Won means won both by area with the dead stones removed
/// (GNU Go, KGS, GoGui) and by Tromp-Taylor as the board stands, every
/// stone alive (CGOS). Where only the first holds, the opponent's dead
/// stones in our area must go first: capture them, again without a
/// search, so that a decided game costs no clock. `None`: search.
fn decided_after_a_pass(engine: &Engine, color: Color, purpose: Purpose) -> Option<Choice> {
    if purpose != Purpose::Play || !opponent_passed(engine, color) {
        return None;
    }
    let won = |outcome: Outcome| matches!(outcome, Outcome::Win(winner, _) if winner == color);
    let game = &engine.game;
    let dead = engine.dead_stones(None);
    if !won(game.area_score_with_dead(&dead).outcome(game.komi())) {
        return None;
    }
    if engine.rules == "japanese" || won(game.area_score().outcome(game.komi())) {
        return Some(Choice::Play(Move::Pass));
    }
    let opponent_dead = dead.and(&engine.game.position().stones(color.opponent()));
    if opponent_dead.is_empty() {
        return None;
    }
    Some(pass_or_capture(engine, color, &[], purpose))
}

/// Analysis runs until stopped (or the fixed playouts, for repeatable tests).
fn analysis_limits(engine: &Engine) -> SearchLimits {
    match engine.fixed_playouts {
        Some(playouts) => SearchLimits {
            playouts: Some(playouts),
            time: None,
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        },
        None => SearchLimits {
            playouts: None,
            time: Some(ANALYSIS_TIME_CAP),
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        },
    }
}

fn write_line(out: &mut dyn Write, line: &str) -> std::io::Result<()> {
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// What a running search reports, and how often.
#[derive(Clone, Copy, Default)]
struct Reporting<'a> {
    /// Info lines on the reply stream (the analysis commands).
    info: Option<&'a InfoFormatter>,
    /// Between info lines; zero or `None` means only the final line.
    info_interval: Option<Duration>,
    /// Live graphics for GoGui on stderr, then `gogui-gfx: CLEAR`.
    gfx: bool,
}

impl<'a> Reporting<'a> {
    /// Info lines with a final line after the search.
    fn info(formatter: &'a InfoFormatter, interval: Duration) -> Reporting<'a> {
        Reporting {
            info: Some(formatter),
            info_interval: Some(interval),
            gfx: false,
        }
    }

    /// Nothing at all (pondering, analysis commands that answer at the end).
    fn silent() -> Reporting<'a> {
        Reporting::default()
    }

    /// Between progress info lines, if there are any.
    fn info_every(&self) -> Option<Duration> {
        self.info
            .and(self.info_interval)
            .filter(|every| !every.is_zero())
    }
}

/// A progress message from the search thread to the thread that writes.
enum Progress {
    /// An info line for the reply stream.
    Info(String),
    /// A whole live graphics block for stderr.
    Gfx(String),
}

/// Live graphics for a search in progress, as one `gogui-gfx:` block (the
/// block form, so GoGui shows all its commands together): the share of
/// visits of each candidate as influence, the principal variation, and a
/// status line. `None` before anything was visited.
fn gfx_block(report: &SearchReport, geometry: Geometry) -> Option<String> {
    let best = report.best().filter(|best| best.visits > 0)?;
    let sign = if report.to_move == Color::Black {
        1.0
    } else {
        -1.0
    };
    let mut influence = String::from("INFLUENCE");
    for candidate in report.candidates.iter().take(MAX_GFX_CANDIDATES) {
        if let Move::Play(p) = candidate.mv
            && candidate.visits > 0
        {
            let share = candidate.visits as f64 / best.visits as f64;
            influence.push_str(&format!(
                " {} {:.2}",
                super::engine::point_text(geometry, p),
                sign * share
            ));
        }
    }
    let mut variation = String::from("VAR");
    let mut color = report.to_move;
    for &mv in best.pv.iter().take(MAX_GFX_VARIATION) {
        let letter = super::engine::color_letter(color).to_ascii_lowercase();
        let vertex = match mv {
            Move::Pass => "PASS".to_string(),
            Move::Play(p) => super::engine::point_text(geometry, p),
        };
        variation.push_str(&format!(" {letter} {vertex}"));
        color = color.opponent();
    }
    let best_vertex = match best.mv {
        Move::Pass => "PASS".to_string(),
        Move::Play(p) => super::engine::point_text(geometry, p),
    };
    let status = format!(
        "TEXT {} {best_vertex} win rate {:.1}% after {} playouts",
        super::engine::color_word(report.to_move),
        100.0 * best.winrate.clamp(0.0, 1.0),
        report.playouts
    );
    Some(format!(
        "gogui-gfx:\n{influence}\n{variation}\n{status}\n\n"
    ))
}

/// Writes live graphics to stderr in one write, so the lines arrive whole
/// and are never split by log lines. Errors are ignored: graphics are a
/// courtesy.
fn write_gfx(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    let _ = stderr.flush();
}

/// Runs the search on `game` in a worker thread while watching the input.
/// Reports progress as `reporting` says. Returns the final report and
/// whether the watcher stopped the search.
fn run_search(
    engine: &mut Engine,
    game: &Game,
    limits: SearchLimits,
    reporting: Reporting,
    stop_on_any_line: bool,
    call: &mut Call,
) -> Result<(SearchReport, bool), GtpError> {
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Progress>();
    let info_every = reporting.info_every();
    let interval = info_every.or(reporting.gfx.then_some(GFX_INTERVAL));
    let geometry = game.geometry();
    let searcher = &mut engine.searcher;
    let mut stopped = false;
    let mut write_error = None;
    let outcome = thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let mut progress = |report: &SearchReport| {
                // The receiver lives until the worker is joined.
                if info_every.is_some()
                    && let Some(line) = reporting.info.and_then(|f| f.line(report))
                {
                    let _ = sender.send(Progress::Info(line));
                }
                if reporting.gfx
                    && let Some(block) = gfx_block(report, geometry)
                {
                    let _ = sender.send(Progress::Gfx(block));
                }
            };
            searcher.search(game, &limits, &stop, interval, &mut progress)
        });
        while !worker.is_finished() {
            if stopped {
                thread::sleep(POLL_INTERVAL);
            } else if call.watcher.poll(POLL_INTERVAL, stop_on_any_line) {
                stop.store(true, Ordering::Relaxed);
                stopped = true;
            }
            for message in receiver.try_iter() {
                match message {
                    Progress::Gfx(block) => write_gfx(&block),
                    Progress::Info(line) => {
                        if write_error.is_none()
                            && let Err(error) = write_line(call.out, &line)
                        {
                            write_error = Some(error);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        }
        worker.join()
    });
    let report = match outcome {
        Ok(report) => report,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    for message in receiver.try_iter() {
        if let (Progress::Info(line), None) = (message, &write_error)
            && let Err(error) = write_line(call.out, &line)
        {
            write_error = Some(error);
        }
    }
    if reporting.gfx {
        write_gfx("gogui-gfx: CLEAR\n");
    }
    if let Some(error) = write_error {
        return Err(GtpError::Output(error));
    }
    if let Some(line) = reporting.info.and_then(|f| f.line(&report)) {
        write_line(call.out, &line)?;
    }
    Ok((report, stopped))
}

/// Searches a move for `color`, plays it unless `purpose` is Report. A
/// move played with pondering on leaves the engine to ponder once the
/// reply is out.
fn think(
    engine: &mut Engine,
    call: &mut Call,
    color: Color,
    purpose: Purpose,
    reporting: Reporting,
) -> Result<Choice, GtpError> {
    let started = Instant::now();
    let game = engine.game_for(color);
    if purpose != Purpose::Cleanup
        && engine.opening_book
        && let Some(book_move) = OpeningBook::shipped().book_move(&game, color)
    {
        let mv = Move::Play(book_move.point);
        log::info!(
            "genmove {color:?}: {} from the opening book",
            engine.move_text(mv)
        );
        if let Some(formatter) = reporting.info {
            let line = OpeningBook::shipped().line(&game, color, MAX_BOOK_PV);
            let pv: Vec<Move> = line.into_iter().map(Move::Play).collect();
            write_line(call.out, &formatter.book_line(book_move.winrate, &pv))?;
        }
        return settle(engine, color, Choice::Play(mv), purpose, started);
    }
    if let Some(choice) = decided_after_a_pass(engine, color, purpose) {
        log::info!(
            "genmove {color:?}: {} without a search: the opponent passed and the game is won",
            choice_text(engine, choice)
        );
        return settle(engine, color, choice, purpose, started);
    }
    let limits = move_limits(engine, color);
    let reporting = Reporting {
        gfx: engine.gogui_gfx,
        ..reporting
    };
    let (report, _) = run_search(engine, &game, limits, reporting, false, call)?;
    let choice = choose(engine, color, &report, purpose);
    let seconds = report.elapsed.as_secs_f64();
    let answer = choice_text(engine, choice);
    let margin = match report.extra_margin {
        0 => String::new(),
        extra => format!(" with {}", dyn_komi::describe(extra)),
    };
    log::info!(
        "genmove {color:?}: {answer}, winrate {:.3}{margin}, {} playouts, {:.0} playouts/s, tree {} nodes, {:.2} s",
        report.winrate(),
        report.playouts,
        report.playouts as f64 / seconds.max(1e-9),
        engine.searcher.tree_size(),
        seconds
    );
    settle(engine, color, choice, purpose, started)
}

/// Plays `choice` (unless `purpose` only reports it), sets pondering to
/// follow, and charges the clock the time since `started`.
fn settle(
    engine: &mut Engine,
    color: Color,
    choice: Choice,
    purpose: Purpose,
    started: Instant,
) -> Result<Choice, GtpError> {
    if purpose == Purpose::Report {
        return Ok(choice);
    }
    if let Choice::Play(mv) = choice {
        engine.game.play(color, mv)?;
        engine.ponder_pending = engine.ponder;
    }
    engine.clock.charge(color, started.elapsed());
    Ok(choice)
}

/// Searches the position after our move, for the opponent, until input
/// arrives: the next genmove reuses the tree when the game goes on by the
/// moves searched. Writes nothing to the controller; the tree stays within
/// its memory cap. Any line stops it at once (and is answered afterwards,
/// `# interrupt` is dropped).
pub(crate) fn ponder(engine: &mut Engine, watcher: &mut dyn Watcher) {
    if engine.game.is_over() || watcher.poll(Duration::ZERO, true) {
        return;
    }
    let game = engine.game.clone();
    let limits = SearchLimits {
        playouts: None,
        time: Some(PONDER_TIME_CAP),
        dynamic_komi: false,
        stop_when_decided: true,
        may_pass: true,
    };
    let mut sink = std::io::sink();
    let mut call = Call {
        id: None,
        args: &[],
        out: &mut sink,
        watcher,
    };
    let started = Instant::now();
    match run_search(engine, &game, limits, Reporting::silent(), true, &mut call) {
        Ok((report, _)) => {
            let expected = report
                .best()
                .map_or_else(|| "nothing".to_string(), |best| engine.move_text(best.mv));
            log::info!(
                "pondered {} playouts in {:.2} s, tree {} nodes, expecting {expected}",
                report.playouts,
                started.elapsed().as_secs_f64(),
                engine.searcher.tree_size(),
            );
        }
        Err(error) => log::warn!("pondering failed: {error}"),
    }
}

/// The move to answer: the search's decision, checked against the real
/// game, with a pass replaced by a capture while the opponent has dead
/// stones on the board (area scoring counts them for the opponent).
fn choose(engine: &Engine, color: Color, report: &SearchReport, purpose: Purpose) -> Choice {
    let game = &engine.game;
    // White in a handicap game (set up, or sent as plain moves) looks lost
    // from the start, as intended: no resigning in the opening of one.
    let handicap = game.handicap();
    let handicap_opening = color == Color::White
        && handicap > 0
        && game.moves().len() < engine.params.resign_min_moves + HANDICAP_OPENING_MOVES * handicap;
    // The search's decision: proven wins first, no proven losses, passes
    // only when they do not lose on the board, resignation when hopeless.
    let decision = engine.searcher.decide(game, report);
    if purpose != Purpose::Cleanup && !handicap_opening && decision == Decision::Resign {
        return Choice::Resign;
    }
    let legal = |mv: Move| game.check_move(color, mv).is_ok();
    let chosen = match decision {
        Decision::Play(mv) if legal(mv) => Some(mv),
        _ => report.candidates.iter().map(|c| c.mv).find(|&mv| legal(mv)),
    };
    match (chosen, game.kind()) {
        (Some(Move::Play(p)), _) => Choice::Play(Move::Play(p)),
        (_, GameKind::NoGo) => Choice::Resign,
        (_, GameKind::Go) => pass_or_capture(engine, color, &report.candidates, purpose),
    }
}

/// Passes unless the opponent has dead stones to remove first.
fn pass_or_capture(
    engine: &Engine,
    color: Color,
    candidates: &[Candidate],
    purpose: Purpose,
) -> Choice {
    let japanese = engine.rules == "japanese";
    if purpose != Purpose::Cleanup && japanese {
        return Choice::Play(Move::Pass);
    }
    let dead = engine.dead_stones(Some(color.opponent()));
    if dead.is_empty() {
        return Choice::Play(Move::Pass);
    }
    let game = &engine.game;
    let position = game.position();
    let mut targets = Bitboard::EMPTY;
    for p in dead.iter() {
        targets = targets.or(&position.string_liberties(p));
    }
    let legal_point = |p| game.check_move(color, Move::Play(p)).is_ok();
    let searched: Vec<_> = candidates
        .iter()
        .filter_map(|c| match c.mv {
            Move::Play(p) if legal_point(p) => Some(p),
            _ => None,
        })
        .collect();
    // Unsearched, a liberty where our own stone would not stand in atari.
    let capture = searched
        .iter()
        .copied()
        .find(|&p| targets.contains(p))
        .or_else(|| {
            targets
                .iter()
                .find(|&p| legal_point(p) && !position.is_self_atari(p, color))
        })
        .or_else(|| targets.iter().find(|&p| legal_point(p)));
    match capture {
        Some(p) => Choice::Play(Move::Play(p)),
        // Cleanup must keep playing while dead stones stand; any searched
        // move will do until the liberties open up.
        None if purpose == Purpose::Cleanup => searched
            .first()
            .map_or(Choice::Play(Move::Pass), |&p| Choice::Play(Move::Play(p))),
        None => Choice::Play(Move::Pass),
    }
}

fn choice_text(engine: &Engine, choice: Choice) -> String {
    match choice {
        Choice::Play(mv) => engine.move_text(mv),
        Choice::Resign => "resign".to_string(),
    }
}

fn generate(engine: &mut Engine, call: &mut Call, purpose: Purpose) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let color = parse_color(&call.args[0])?;
    let choice = think(engine, call, color, purpose, Reporting::silent())?;
    Ok(Response::Text(choice_text(engine, choice)))
}

pub(crate) fn genmove(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    generate(engine, call, Purpose::Play)
}

pub(crate) fn reg_genmove(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    generate(engine, call, Purpose::Report)
}

pub(crate) fn kgs_genmove_cleanup(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    generate(engine, call, Purpose::Cleanup)
}

/// `=id` then the first line: the reply is under way.
fn start_stream(call: &mut Call) -> Result<(), GtpError> {
    let prefix = call.success_prefix();
    write_line(call.out, &prefix)?;
    Ok(())
}

fn analyze(engine: &mut Engine, call: &mut Call, style: InfoStyle) -> Result<Response, GtpError> {
    let args = parse_analyze_args(call.args)?;
    let color = args.color.unwrap_or_else(|| engine.game.to_move());
    let game = engine.game_for(color);
    start_stream(call)?;
    let formatter = InfoFormatter::new(engine, &game, style, &args);
    let limits = analysis_limits(engine);
    let reporting = Reporting::info(&formatter, args.interval);
    let (_, stopped) = run_search(engine, &game, limits, reporting, true, call)?;
    if !stopped {
        call.watcher.wait_for_line();
    }
    call.out.write_all(b"\n")?;
    call.out.flush()?;
    Ok(Response::Streamed)
}

fn genmove_analyze(
    engine: &mut Engine,
    call: &mut Call,
    style: InfoStyle,
) -> Result<Response, GtpError> {
    let args = parse_analyze_args(call.args)?;
    let color = args.color.ok_or(GtpError::Syntax)?;
    start_stream(call)?;
    let formatter = InfoFormatter::new(engine, &engine.game_for(color), style, &args);
    // CGOS asks without an interval and reads only the last line.
    let interval = if style == InfoStyle::Cgos && !args.interval_given {
        Duration::ZERO
    } else {
        args.interval
    };
    let reporting = Reporting::info(&formatter, interval);
    let choice = match think(engine, call, color, Purpose::Play, reporting) {
        Ok(choice) => choice,
        Err(GtpError::Output(error)) => return Err(GtpError::Output(error)),
        Err(error) => {
            // The reply has started; it can only end with a move.
            log::error!("genmove_analyze failed after its reply began: {error}");
            Choice::Resign
        }
    };
    let played = choice_text(engine, choice);
    write_line(call.out, &format!("play {played}"))?;
    call.out.write_all(b"\n")?;
    call.out.flush()?;
    Ok(Response::Streamed)
}

pub(crate) fn lz_analyze(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    analyze(engine, call, InfoStyle::LeelaZero)
}

pub(crate) fn kata_analyze(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    analyze(engine, call, InfoStyle::KataGo)
}

pub(crate) fn lz_genmove_analyze(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    genmove_analyze(engine, call, InfoStyle::LeelaZero)
}

pub(crate) fn cgos_genmove_analyze(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    genmove_analyze(engine, call, InfoStyle::Cgos)
}

pub(crate) fn kata_genmove_analyze(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    genmove_analyze(engine, call, InfoStyle::KataGo)
}

/// The search behind the GoGui analysis commands: the side to move (or
/// the colour given) with the fixed playout count, or
/// [`ANALYZE_COMMAND_PLAYOUTS`]. `# interrupt` cuts it short.
fn analysis_command_search(engine: &mut Engine, call: &mut Call) -> Result<SearchReport, GtpError> {
    let color = match call.args {
        [] => engine.game.to_move(),
        [color] => parse_color(color)?,
        _ => return Err(GtpError::Syntax),
    };
    let game = engine.game_for(color);
    let limits = SearchLimits {
        playouts: Some(engine.fixed_playouts.unwrap_or(ANALYZE_COMMAND_PLAYOUTS)),
        time: None,
        dynamic_komi: false,
        stop_when_decided: true,
        may_pass: true,
    };
    let (report, _) = run_search(engine, &game, limits, Reporting::silent(), false, call)?;
    Ok(report)
}

/// A count short enough for a board point (GoGui sboard): `734`, `1.2k`,
/// `56k`, `3.4M`.
fn short_count(count: u64) -> String {
    match count {
        0..1_000 => count.to_string(),
        1_000..10_000 => format!("{:.1}k", count as f64 / 1e3),
        10_000..1_000_000 => format!("{}k", count / 1_000),
        1_000_000..10_000_000 => format!("{:.1}M", count as f64 / 1e6),
        _ => format!("{}M", count / 1_000_000),
    }
}

/// `kosumi-visits [COLOR]` (GoGui sboard): a search, then the visits of
/// each candidate on its point, top row first; `""` where none.
pub(crate) fn kosumi_visits(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let report = analysis_command_search(engine, call)?;
    let g = engine.geometry();
    let mut visits = vec![0u64; g.area()];
    for candidate in &report.candidates {
        if let Move::Play(p) = candidate.mv
            && let Some((col, row)) = g.coords(p)
        {
            visits[row * g.width() + col] = candidate.visits;
        }
    }
    let rows: Vec<String> = (0..g.height())
        .rev()
        .map(|row| {
            let cells: Vec<String> = (0..g.width())
                .map(|col| match visits[row * g.width() + col] {
                    0 => "\"\"".to_string(),
                    n => short_count(n),
                })
                .collect();
            cells.join(" ")
        })
        .collect();
    Ok(Response::Text(format!("\n{}", rows.join("\n"))))
}

/// `kosumi-pv [COLOR]` (GoGui var): a search, then the principal
/// variation of its best move, starting with the side searched.
pub(crate) fn kosumi_pv(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let report = analysis_command_search(engine, call)?;
    let line: Vec<String> = report
        .best()
        .map(|best| best.pv.iter().map(|&mv| engine.move_text(mv)).collect())
        .unwrap_or_default();
    Ok(Response::Text(line.join(" ")))
}

/// `kosumi-winrate [COLOR]` (GoGui string): a search, then one line with
/// the best move, its win rate, its visits and the playouts run.
pub(crate) fn kosumi_winrate(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let report = analysis_command_search(engine, call)?;
    let color = super::engine::color_word(report.to_move);
    Ok(Response::Text(match report.best() {
        None => format!("{color} has no move to search"),
        Some(best) => format!(
            "{color} {} win rate {:.1}% visits {} playouts {}",
            engine.move_text(best.mv),
            100.0 * best.winrate.clamp(0.0, 1.0),
            best.visits,
            report.playouts
        ),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn analysis_arguments_in_the_forms_clients_send() {
        let sabaki = parse_analyze_args(&words("B 50")).unwrap();
        assert_eq!(sabaki.color, Some(Color::Black));
        assert_eq!(sabaki.interval, Duration::from_millis(500));
        let bare = parse_analyze_args(&words("50")).unwrap();
        assert_eq!(
            (bare.color, bare.interval),
            (None, Duration::from_millis(500))
        );
        let keyed = parse_analyze_args(&words("w interval 20 ownership true")).unwrap();
        assert_eq!(keyed.color, Some(Color::White));
        assert_eq!(keyed.interval, Duration::from_millis(200));
        assert!(keyed.ownership);
        let avoid = parse_analyze_args(&words("b 10 avoid b d4,e5 1 minmoves 2")).unwrap();
        assert_eq!(avoid.interval, Duration::from_millis(100));
        assert!(parse_analyze_args(&words("b interval")).is_err());
        assert!(parse_analyze_args(&words("b ownership maybe")).is_err());
        assert_eq!(
            parse_analyze_args(&[]).unwrap().interval,
            Duration::from_millis(10 * u64::from(DEFAULT_INTERVAL_CS))
        );
    }

    /// A report in which every move loses.
    fn hopeless(engine: &Engine) -> SearchReport {
        let mv = engine
            .geometry()
            .points()
            .map(Move::Play)
            .find(|&mv| engine.game.check_move(Color::White, mv).is_ok())
            .unwrap();
        SearchReport {
            to_move: Color::White,
            candidates: vec![crate::search::Candidate {
                mv,
                visits: 1000,
                winrate: 0.01,
                prior: 0.1,
                pv: vec![mv],
                score_lead: None,
                proof: crate::search::Proof::Unknown,
            }],
            playouts: 1000,
            elapsed: Duration::ZERO,
            extra_margin: 0,
            probe_winrate: None,
        }
    }

    /// Plays `first` (Black), then alternating moves along the rows.
    fn game_with(first: &[&str], alternating: usize) -> Engine {
        let mut engine = Engine::new(crate::gtp::EngineConfig::default());
        let mut out = Vec::new();
        let mut run = |engine: &mut Engine, line: &str| {
            out.clear();
            engine
                .execute_line(line, &mut out, &mut crate::gtp::NoInput)
                .unwrap();
            assert!(
                out.starts_with(b"="),
                "{line}: {}",
                String::from_utf8_lossy(&out)
            );
        };
        run(&mut engine, "boardsize 9");
        for vertex in first {
            run(&mut engine, &format!("play b {vertex}"));
        }
        let rows = [
            "A1 B1 D1 E1 F1 H1 J1",
            "A9 B9 C9 D9 E9 F9 G9 H9 J9",
            "A5 B5 C5 D5",
        ];
        let vertices: Vec<&str> = rows.iter().flat_map(|r| r.split(' ')).collect();
        for (k, vertex) in vertices.iter().take(alternating).enumerate() {
            let color = if k % 2 == 0 { "w" } else { "b" };
            run(&mut engine, &format!("play {color} {vertex}"));
        }
        engine
    }

    /// A fresh period a move (match.sh's `time_settings 0 1 1`): Go spends
    /// it whole, NoGo still stops on a decided move; sudden death stops
    /// early in both.
    #[test]
    fn only_go_spends_a_whole_period_a_move() {
        let mut engine = Engine::new(crate::gtp::EngineConfig::default());
        let mut out = Vec::new();
        let mut stops_early = |lines: &[&str]| {
            for line in lines {
                engine
                    .execute_line(line, &mut out, &mut crate::gtp::NoInput)
                    .unwrap();
            }
            move_limits(&engine, Color::Black).stop_when_decided
        };
        assert!(!stops_early(&["time_settings 0 1 1"]));
        assert!(stops_early(&["time_settings 300 0 0"]));
        assert!(stops_early(&["kosumi-game nogo", "time_settings 0 1 1"]));
    }

    /// dead_stone_7x7.sgf: White's B1 is dead in Black's area. At komi 4.5
    /// White wins by half a point on the board as it stands and loses by
    /// 2.5 once B1 is removed: after Black's pass, White must not pass.
    #[test]
    fn no_pass_ends_a_game_won_only_by_a_dead_stone() {
        let mut engine = Engine::new(crate::gtp::EngineConfig::default());
        let mut out = Vec::new();
        let sgf = concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-tests/dead_stone_7x7.sgf");
        for line in [&format!("loadsgf {sgf}"), "komi 4.5"] {
            engine
                .execute_line(line, &mut out, &mut crate::gtp::NoInput)
                .unwrap();
        }
        assert!(pass_may_end_the_game(&engine, Color::White));
        engine
            .execute_line("play b pass", &mut out, &mut crate::gtp::NoInput)
            .unwrap();
        assert!(!pass_may_end_the_game(&engine, Color::White));
        // Only the opponent's pass makes ours end the game.
        assert!(pass_may_end_the_game(&engine, Color::Black));
        assert!(out.iter().all(|&b| b == b'=' || b == b'\n' || b == b' '));
    }

    /// dead_stone_7x7.sgf after White's pass: won by both counts (komi
    /// 0.5), Black passes; won only once White's dead B1 is removed (komi
    /// 4.5), Black takes it at A1 first; lost (komi 10), Black searches.
    /// None of these needs a search.
    #[test]
    fn a_won_game_ends_without_a_search_after_the_opponent_passes() {
        let decision = |komi: &str| {
            let mut engine = Engine::new(crate::gtp::EngineConfig::default());
            let mut out = Vec::new();
            let sgf = concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-tests/dead_stone_7x7.sgf");
            for line in [&format!("loadsgf {sgf}"), komi, "play w pass"] {
                engine
                    .execute_line(line, &mut out, &mut crate::gtp::NoInput)
                    .unwrap();
            }
            decided_after_a_pass(&engine, Color::Black, Purpose::Play)
                .map(|choice| choice_text(&engine, choice))
        };
        assert_eq!(decision("komi 0.5").as_deref(), Some("PASS"));
        assert_eq!(decision("komi 4.5").as_deref(), Some("A1"));
        assert_eq!(decision("komi 10"), None);
    }

    #[test]
    fn white_does_not_resign_early_in_a_handicap_game() {
        // Handicap 2 sent as plain moves, then 20 more: past the usual
        // opening, inside the handicap one.
        let engine = game_with(&["C3", "G7"], 19);
        assert_eq!(engine.game.handicap(), 2);
        let report = hopeless(&engine);
        assert!(matches!(
            choose(&engine, Color::White, &report, Purpose::Play),
            Choice::Play(_)
        ));
        // An even game with as many moves resigns.
        let even = game_with(&["C3"], 20);
        assert_eq!(even.game.handicap(), 0);
        let report = hopeless(&even);
        assert_eq!(
            choose(&even, Color::White, &report, Purpose::Play),
            Choice::Resign
        );
    }

    #[test]
    fn under_a_dynamic_komi_only_the_real_komi_win_rate_resigns() {
        let engine = game_with(&["C3"], 20);
        let resigns = |extra_margin, winrate, probe_winrate| {
            let mut report = hopeless(&engine);
            report.extra_margin = extra_margin;
            report.candidates[0].winrate = winrate;
            report.probe_winrate = probe_winrate;
            choose(&engine, Color::White, &report, Purpose::Play) == Choice::Resign
        };
        // Points given: the shifted win rate looks fine, the probe's decides.
        assert!(resigns(-6, 0.5, Some(0.05)));
        assert!(!resigns(-6, 0.5, Some(0.15)));
        assert!(!resigns(-6, 0.01, Some(0.15)));
        // Points asked: the game looked won when they were.
        assert!(!resigns(6, 0.01, Some(0.97)));
    }

    fn report_with(to_move: Color, candidates: &[(Move, u64, f64, &[Move])]) -> SearchReport {
        SearchReport {
            to_move,
            candidates: candidates
                .iter()
                .map(|&(mv, visits, winrate, pv)| crate::search::Candidate {
                    mv,
                    visits,
                    winrate,
                    prior: 0.25,
                    pv: pv.to_vec(),
                    score_lead: None,
                    proof: crate::search::Proof::Unknown,
                })
                .collect(),
            playouts: 120,
            elapsed: Duration::ZERO,
            extra_margin: 0,
            probe_winrate: None,
        }
    }

    #[test]
    fn live_graphics_block_shows_shares_variation_and_status() {
        let g = Geometry::square(9).unwrap();
        let at = |col, row| Move::Play(g.point(col, row).unwrap());
        let report = report_with(
            Color::White,
            &[
                (at(3, 3), 80, 0.55, &[at(3, 3), at(4, 4), Move::Pass]),
                (at(4, 4), 20, 0.4, &[at(4, 4)]),
                (Move::Pass, 10, 0.1, &[Move::Pass]),
            ],
        );
        assert_eq!(
            gfx_block(&report, g).unwrap(),
            "gogui-gfx:\nINFLUENCE D4 -1.00 E5 -0.25\nVAR w D4 b E5 w PASS\n\
             TEXT white D4 win rate 55.0% after 120 playouts\n\n"
        );
        assert_eq!(gfx_block(&report_with(Color::Black, &[]), g), None);
    }

    #[test]
    fn cgos_analysis_is_one_json_line() {
        let g = Geometry::square(9).unwrap();
        let at = |col, row| Move::Play(g.point(col, row).unwrap());
        let report = report_with(
            Color::Black,
            &[
                (at(2, 2), 30, 0.6, &[at(2, 2), at(6, 6)]),
                (Move::Pass, 2, 0.25, &[Move::Pass]),
            ],
        );
        let formatter = InfoFormatter {
            style: InfoStyle::Cgos,
            geometry: g,
            ownership: None,
            max_moves: MAX_CGOS_CANDIDATES,
            score_leads: false,
        };
        assert_eq!(
            formatter.line(&report).unwrap(),
            r#"{"winrate":0.6000,"visits":32,"moves":[{"move":"C3","visits":30,"winrate":0.6000,"prior":0.2500,"pv":"G7"},{"move":"pass","visits":2,"winrate":0.2500,"prior":0.2500,"pv":""}]}"#
        );
        // As the reference encoder: index round(62 x share), so `/` never appears.
        assert_eq!(cgos_ownership(&[-1.0, 0.0, 1.0, 2.0]), "Af++");
    }

    #[test]
    fn counts_fit_on_a_point() {
        let texts: Vec<String> = [0, 999, 1_000, 9_949, 10_000, 999_999, 1_250_000, 12_000_000]
            .into_iter()
            .map(short_count)
            .collect();
        assert_eq!(
            texts,
            ["0", "999", "1.0k", "9.9k", "10k", "999k", "1.2M", "12M"]
        );
    }

    #[test]
    fn lcb_stays_in_range() {
        assert_eq!(lower_confidence_bound(0.0, 10), 0.0);
        assert!(lower_confidence_bound(0.6, 100) < 0.6);
        assert_eq!(lower_confidence_bound(1.0, 0), 0.0);
        assert!(lower_confidence_bound(1.0, 1) < 0.3);
        assert!(lower_confidence_bound(1.0, 1000) > 0.99);
    }
}
