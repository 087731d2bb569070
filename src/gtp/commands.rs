//! The command table and the handlers that do not think.
//!
//! One table drives dispatch, `list_commands`, `known_command` and `help`
//! (the Pachi way): adding a command means adding one row here.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use super::GtpError;
use super::engine::{
    Call, DEFAULT_GO_KOMI, Engine, LIZZIE_VERSION, Response, StringStatus, color_letter,
    color_word, number_text, parse_color, parse_komi, parse_lag,
};
use super::files;
use super::parse::{self, Vertex};
use super::thinking;
use crate::board::{
    Cell, Color, GameKind, Geometry, MAX_SIZE, Move, Outcome, Point, free_handicap_points,
};
use crate::go::reading::{Effect, root_effects};
use crate::go::tactics::laddered_strings;
use crate::nogo::solver::{SolveOptions, SolveOutcome};
use crate::player::clock::TimeSystem;
#[cfg(test)]
use crate::search::SearchParams;
use crate::search::{PARAM_TABLE, ParamError};

/// A command handler: checks its arguments, then changes the engine.
pub type Handler = fn(&mut Engine, &mut Call) -> Result<Response, GtpError>;

/// One row of the command table.
pub struct CommandSpec {
    pub name: &'static str,
    pub handler: Handler,
    pub help: &'static str,
}

/// Engine name as `name` reports it.
pub const ENGINE_NAME: &str = "Kosumi";

/// Smallest board `boardsize` accepts.
pub const MIN_BOARD_SIZE: usize = 2;

macro_rules! command {
    ($name:literal, $handler:path, $help:literal) => {
        CommandSpec {
            name: $name,
            handler: $handler,
            help: $help,
        }
    };
}

/// Every GTP command the engine knows, in `list_commands` order.
pub const COMMANDS: &[CommandSpec] = &[
    command!("protocol_version", protocol_version, "GTP version: 2"),
    command!("name", name, "engine name"),
    command!("version", version, "engine version"),
    command!(
        "known_command",
        known_command,
        "known_command NAME: true or false"
    ),
    command!("list_commands", list_commands, "every command, one a line"),
    command!("help", help, "every command with a line of help"),
    command!("quit", quit, "answer and exit"),
    command!(
        "boardsize",
        boardsize,
        "boardsize N: new empty N x N board (2..25), komi kept"
    ),
    command!("clear_board", clear_board, "empty the board"),
    command!("komi", komi, "komi K: set komi"),
    command!(
        "play",
        play,
        "play COLOR VERTEX: play a move (either colour, any order)"
    ),
    command!(
        "genmove",
        thinking::genmove,
        "genmove COLOR: think, play and answer a move"
    ),
    command!(
        "reg_genmove",
        thinking::reg_genmove,
        "reg_genmove COLOR: a move, not played"
    ),
    command!("undo", undo, "take back the last move"),
    command!(
        "fixed_handicap",
        fixed_handicap,
        "fixed_handicap N: standard handicap stones"
    ),
    command!(
        "place_free_handicap",
        place_free_handicap,
        "place_free_handicap N: engine places N stones"
    ),
    command!(
        "set_free_handicap",
        set_free_handicap,
        "set_free_handicap V...: handicap stones given"
    ),
    command!(
        "time_settings",
        time_settings,
        "time_settings MAIN BYO STONES (seconds; Canadian)"
    ),
    command!("time_left", time_left, "time_left COLOR SECONDS STONES"),
    command!(
        "final_score",
        final_score,
        "area score with dead stones removed: B+3.5, W+0.5, 0"
    ),
    command!(
        "final_status_list",
        final_status_list,
        "final_status_list alive|dead|seki: one string a line (seki: strings the playouts leave to neither side)"
    ),
    command!(
        "loadsgf",
        files::loadsgf,
        "loadsgf FILE [N]: position before move N of the main line"
    ),
    command!(
        "printsgf",
        files::printsgf,
        "printsgf [FILE]: the game as SGF, in the reply or to FILE"
    ),
    command!("showboard", showboard, "board diagram"),
    command!(
        "kgs-genmove_cleanup",
        thinking::kgs_genmove_cleanup,
        "kgs-genmove_cleanup COLOR: genmove that captures dead stones before passing"
    ),
    command!(
        "kgs-time_settings",
        kgs_time_settings,
        "kgs-time_settings none | absolute M | byoyomi M P N | canadian M P S"
    ),
    command!(
        "kgs-rules",
        kgs_rules,
        "kgs-rules NAME: rules of the game (stored)"
    ),
    command!("kgs-game_over", kgs_game_over, "KGS says the game is over"),
    command!(
        "kgs-chat",
        kgs_chat,
        "kgs-chat game|private NAME MESSAGE: a one-line polite answer"
    ),
    command!(
        "cgos-gameover",
        cgos_gameover,
        "cgos-gameover RESULT: CGOS says the game is over"
    ),
    command!("cputime", cputime, "CPU seconds used by the process"),
    command!(
        "kosumi-game",
        kosumi_game,
        "kosumi-game go|nogo: switch rules (clears the board)"
    ),
    command!(
        "kosumi-solve",
        kosumi_solve,
        "kosumi-solve [COLOR] [SECONDS]: exact NoGo solve (default side to move, 10 s): the winner (or unknown) and the winning moves, then `unresolved` and the moves not classified in time"
    ),
    command!(
        "kosumi-ownership",
        kosumi_ownership,
        "ownership of each point, -1 (White) to 1 (Black), top row first"
    ),
    command!(
        "kosumi-param",
        kosumi_param,
        "kosumi-param [NAME [VALUE]]: list every parameter, show one or set one: every search parameter, playouts, ownership_playouts, ponder, gogui_gfx, opening_book"
    ),
    command!(
        "kosumi-visits",
        thinking::kosumi_visits,
        "kosumi-visits [COLOR]: search, then the visits of each move as a board, top row first"
    ),
    command!(
        "kosumi-pv",
        thinking::kosumi_pv,
        "kosumi-pv [COLOR]: search, then the principal variation"
    ),
    command!(
        "kosumi-winrate",
        thinking::kosumi_winrate,
        "kosumi-winrate [COLOR]: search, then the best move, its win rate and visits"
    ),
    command!(
        "kosumi-ladders",
        kosumi_ladders,
        "kosumi-ladders: GoGui gfx marking the strings a ladder captures"
    ),
    command!(
        "kosumi-tactics",
        kosumi_tactics,
        "kosumi-tactics: GoGui gfx of the captures, saves and futile extensions reading finds for the side to move"
    ),
    command!(
        "gogui-analyze_commands",
        gogui_analyze_commands,
        "GoGui analyze commands"
    ),
    command!(
        "gogui-interrupt",
        gogui_interrupt,
        "GoGui may stop a search with '# interrupt'"
    ),
    command!("gogui-rules_game_id", gogui_rules_game_id, "Go or NoGo"),
    command!(
        "gogui-rules_board_size",
        gogui_rules_board_size,
        "board side"
    ),
    command!(
        "gogui-rules_board",
        gogui_rules_board,
        "board rows, top first: X black, O white, . empty"
    ),
    command!(
        "gogui-rules_legal_moves",
        gogui_rules_legal_moves,
        "legal moves of the side to move (empty once the game is over)"
    ),
    command!(
        "gogui-rules_side_to_move",
        gogui_rules_side_to_move,
        "black or white"
    ),
    command!(
        "gogui-rules_final_result",
        gogui_rules_final_result,
        "unknown while the game runs, else the result"
    ),
    command!(
        "lz-analyze",
        thinking::lz_analyze,
        "lz-analyze [COLOR] [INTERVAL]: stream Leela Zero info lines until the next command"
    ),
    command!(
        "lz-genmove_analyze",
        thinking::lz_genmove_analyze,
        "lz-genmove_analyze COLOR [INTERVAL]: genmove with Leela Zero info lines"
    ),
    command!(
        "kata-analyze",
        thinking::kata_analyze,
        "kata-analyze [COLOR] [INTERVAL] [ownership true]: stream KataGo info lines"
    ),
    command!(
        "kata-genmove_analyze",
        thinking::kata_genmove_analyze,
        "kata-genmove_analyze COLOR [INTERVAL]: genmove with KataGo info lines"
    ),
    command!(
        "cgos-genmove_analyze",
        thinking::cgos_genmove_analyze,
        "cgos-genmove_analyze COLOR [INTERVAL]: genmove with CGOS analysis JSON lines"
    ),
];

/// The table row of `name` (GTP command names are case-sensitive).
pub fn find_command(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|spec| spec.name == name)
}

/// Every command name, in table order.
pub fn command_names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|spec| spec.name)
}

fn text(text: impl Into<String>) -> Result<Response, GtpError> {
    Ok(Response::Text(text.into()))
}

fn protocol_version(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text("2")
}

fn name(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(ENGINE_NAME)
}

fn version(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let own = env!("CARGO_PKG_VERSION");
    if engine.lizzie {
        text(format!("{LIZZIE_VERSION} ({ENGINE_NAME} {own})"))
    } else {
        text(own)
    }
}

fn known_command(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    text(if find_command(&call.args[0]).is_some() {
        "true"
    } else {
        "false"
    })
}

fn list_commands(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(command_names().collect::<Vec<_>>().join("\n"))
}

fn help(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let lines: Vec<String> = COMMANDS
        .iter()
        .map(|spec| format!("{}: {}", spec.name, spec.help))
        .collect();
    text(lines.join("\n"))
}

fn quit(_: &mut Engine, _: &mut Call) -> Result<Response, GtpError> {
    text("")
}

fn boardsize(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let size = parse::parse_int(&call.args[0])?;
    let geometry = usize::try_from(size)
        .ok()
        .filter(|size| (MIN_BOARD_SIZE..=MAX_SIZE).contains(size))
        .and_then(|size| Geometry::square(size).ok())
        .ok_or(GtpError::UnacceptableSize)?;
    let kind = engine.game.kind();
    engine.reset_board(geometry, kind);
    text("")
}

fn clear_board(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let (geometry, kind) = (engine.geometry(), engine.game.kind());
    engine.reset_board(geometry, kind);
    text("")
}

fn komi(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let komi = parse_komi(&call.args[0])?;
    engine.game.set_komi(komi);
    text("")
}

fn play(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(2)?;
    let color = parse_color(&call.args[0])?;
    let mv = engine.parse_move(&call.args[1])?;
    engine.game.play(color, mv)?;
    text("")
}

fn undo(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    engine.game.undo()?;
    text("")
}

/// Parses a handicap stone count (a syntax error if not a number).
fn parse_stone_count(text: &str) -> Result<usize, GtpError> {
    let count = parse::parse_int(text)?;
    usize::try_from(count).map_err(|_| GtpError::InvalidStoneCount)
}

/// Handicap is only for a board with nothing on it yet.
fn require_empty_board(engine: &Engine) -> Result<(), GtpError> {
    let game = &engine.game;
    if game.moves().is_empty() && game.setup().is_empty() {
        Ok(())
    } else {
        Err(GtpError::BoardNotEmpty)
    }
}

fn points_text(engine: &Engine, points: &[Point]) -> String {
    let names: Vec<String> = points.iter().map(|&p| engine.point_text(p)).collect();
    names.join(" ")
}

fn fixed_handicap(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let stones = parse_stone_count(&call.args[0])?;
    require_empty_board(engine)?;
    let points = engine.game.place_fixed_handicap(stones)?;
    text(points_text(engine, &points))
}

fn place_free_handicap(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let stones = parse_stone_count(&call.args[0])?;
    require_empty_board(engine)?;
    let points =
        free_handicap_points(engine.geometry(), stones).ok_or(GtpError::InvalidStoneCount)?;
    engine.game.place_handicap(&points)?;
    text(points_text(engine, &points))
}

fn set_free_handicap(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    require_empty_board(engine)?;
    let g = engine.geometry();
    let vertices = parse::parse_vertex_list(call.args, g.width(), g.height())?;
    let points = vertices
        .into_iter()
        .map(|vertex| match vertex {
            Vertex::Point { col, row } => g.point(col, row).map_err(|_| GtpError::BadVertexList),
            Vertex::Pass => Err(GtpError::BadVertexList),
        })
        .collect::<Result<Vec<Point>, GtpError>>()?;
    engine.game.place_handicap(&points)?;
    text("")
}

/// Seconds as GTP gives them (integers, but fractions do no harm).
fn parse_seconds(text: &str) -> Result<Duration, GtpError> {
    let seconds = parse::parse_float(text)?;
    if !(0.0..=1e9).contains(&seconds) {
        return Err(GtpError::Syntax);
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn time_settings(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(3)?;
    let main = parse_seconds(&call.args[0])?;
    let period = parse_seconds(&call.args[1])?;
    let stones = parse::parse_u32(&call.args[2])?;
    engine.clock.set_gtp_time_settings(main, period, stones);
    text("")
}

fn time_left(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(3)?;
    let color = parse_color(&call.args[0])?;
    let left = parse_seconds(&call.args[1])?;
    let stones = parse::parse_u32(&call.args[2])?;
    engine.clock.set_time_left(color, left, stones);
    text("")
}

fn kgs_time_settings(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let args = call.args;
    let system = match args.first().map(|s| s.to_ascii_lowercase()).as_deref() {
        Some("none") if args.len() == 1 => TimeSystem::Unlimited,
        Some("absolute") if args.len() == 2 => TimeSystem::Absolute {
            main: parse_seconds(&args[1])?,
        },
        Some("byoyomi") if args.len() == 4 => TimeSystem::ByoYomi {
            main: parse_seconds(&args[1])?,
            period: parse_seconds(&args[2])?,
            periods: parse::parse_u32(&args[3])?,
        },
        Some("canadian") if args.len() == 4 => TimeSystem::Canadian {
            main: parse_seconds(&args[1])?,
            period: parse_seconds(&args[2])?,
            stones: parse::parse_u32(&args[3])?,
        },
        _ => return Err(GtpError::Syntax),
    };
    engine.clock.set_system(system);
    text("")
}

fn final_score(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    engine
        .interruptible(call.watcher, Engine::result_text)
        .map(Response::Text)
        .ok_or(GtpError::CannotScore)
}

fn final_status_list(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let wanted = match call.args[0].to_ascii_lowercase().as_str() {
        "alive" => StringStatus::Alive,
        "dead" => StringStatus::Dead,
        "seki" => StringStatus::Seki,
        _ => return Err(GtpError::Syntax),
    };
    let lines: Vec<String> = engine
        .interruptible(call.watcher, Engine::string_statuses)
        .into_iter()
        .filter(|(_, status)| *status == wanted)
        .map(|(points, _)| points_text(engine, &points))
        .collect();
    text(lines.join("\n"))
}

/// The board diagram of `showboard`: coordinates around it, `X` Black,
/// `O` White, the last move in parentheses, then a status line.
pub(crate) fn board_diagram(engine: &Engine) -> String {
    let g = engine.geometry();
    let position = engine.game.position();
    let letters: String = (0..g.width())
        .map(|col| {
            let name = parse::format_vertex(Vertex::Point { col, row: 0 });
            format!(" {}", name.chars().next().unwrap_or('?'))
        })
        .collect();
    let last = match engine.game.moves().last() {
        Some(&(_, Move::Play(p))) => Some(p),
        _ => None,
    };
    let mut out = String::new();
    let _ = writeln!(out, "   {}", letters.trim_start());
    for row in (0..g.height()).rev() {
        let mut line = format!("{:>2}", row + 1);
        let mut previous_was_last = false;
        for col in 0..g.width() {
            let p = g.point_unchecked(col, row);
            let is_last = Some(p) == last;
            // The separator before a point brackets the last move.
            line.push(match (is_last, previous_was_last) {
                (true, _) => '(',
                (false, true) => ')',
                (false, false) => ' ',
            });
            line.push(match position.cell(p) {
                Cell::Black => 'X',
                Cell::White => 'O',
                _ => '.',
            });
            previous_was_last = is_last;
        }
        line.push(if previous_was_last { ')' } else { ' ' });
        let _ = writeln!(out, "{line}{}", row + 1);
    }
    let _ = writeln!(out, "   {}", letters.trim_start());
    let game = &engine.game;
    let kind = match game.kind() {
        GameKind::Go => "Go",
        GameKind::NoGo => "NoGo",
    };
    let _ = write!(
        out,
        "{kind}, {} to move, komi {}, moves {}, handicap {}, captures B {} W {}",
        color_word(game.to_move()),
        number_text(game.komi().into()),
        game.moves().len(),
        game.handicap(),
        position.prisoners(Color::Black),
        position.prisoners(Color::White),
    );
    out
}

fn showboard(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(format!("\n{}", board_diagram(engine)))
}

fn kgs_rules(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    engine.rules = call.args[0].to_ascii_lowercase();
    text("")
}

fn kgs_game_over(_: &mut Engine, _: &mut Call) -> Result<Response, GtpError> {
    log::info!("KGS: game over");
    text("")
}

fn cgos_gameover(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    log::info!("CGOS: game over {}", call.args.join(" "));
    text("")
}

/// CPU seconds of this process (user plus system) from /proc; wall-clock
/// seconds since start where /proc is missing.
fn cputime(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let seconds = process_cpu_seconds().unwrap_or_else(|| engine.started.elapsed().as_secs_f64());
    text(format!("{seconds:.3}"))
}

fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; count from its ')'.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    // Linux reports clock ticks of 1/100 s on every platform Rust targets.
    Some((user + system) / 100.0)
}

fn kosumi_game(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let kind = match call.args[0].to_ascii_lowercase().as_str() {
        "go" => GameKind::Go,
        "nogo" => GameKind::NoGo,
        _ => return Err(GtpError::Syntax),
    };
    let komi = match (engine.game.kind(), kind) {
        (_, GameKind::NoGo) => 0.0,
        (GameKind::NoGo, GameKind::Go) => DEFAULT_GO_KOMI,
        (GameKind::Go, GameKind::Go) => engine.game.komi(),
    };
    let geometry = engine.geometry();
    engine.reset_board(geometry, kind);
    engine.game.set_komi(komi);
    text("")
}

/// Solves the current NoGo position for `COLOR` to move (default: the side
/// to move) within `SECONDS` (default 10): `black C3 D4` (the winner, then
/// the winning first moves of the side to move, if it is the winner),
/// `unknown` when time ran out before the winner was known. If it ran out
/// after, some moves are not classified: `black C3 unresolved D4 E5`, so
/// that a partial list is never mistaken for the whole winning set.
/// Progress goes to stderr.
fn kosumi_solve(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    if call.args.len() > 2 {
        return Err(GtpError::Syntax);
    }
    let mut color = engine.game.to_move();
    let mut seconds = 10.0;
    for arg in call.args.iter() {
        match (parse_color(arg), parse::parse_float(arg)) {
            (Ok(c), _) => color = c,
            (_, Ok(s)) if s > 0.0 && s <= 86_400.0 => seconds = s,
            _ => return Err(GtpError::Syntax),
        }
    }
    if engine.game.kind() != GameKind::NoGo {
        return Err(GtpError::CannotSolve("the solver plays NoGo"));
    }
    if engine.geometry().area() > crate::nogo::solver::MAX_SOLVER_AREA {
        return Err(GtpError::CannotSolve("board too large"));
    }
    let mut position = engine.game.position().clone();
    position.set_to_move(color);
    let outcome = engine.interruptible(call.watcher, |engine| {
        let options = SolveOptions {
            limit: Some(Duration::from_secs_f64(seconds)),
            stop: Some(Arc::clone(&engine.interrupted)),
            ..SolveOptions::default()
        };
        crate::nogo::solver::solve_with(&position, &options, &mut |progress| {
            log::info!(
                "solving: {} nodes, depth {}, {:.1} s",
                progress.nodes,
                progress.depth,
                progress.elapsed.as_secs_f64()
            );
        })
    });
    log::info!(
        "solved in {} nodes, {:.2} s",
        outcome.nodes,
        outcome.elapsed.as_secs_f64()
    );
    text(solve_reply(&outcome, |p| engine.move_text(Move::Play(p))))
}

/// The reply of `kosumi-solve` to `outcome`, moves written by `vertex`.
fn solve_reply(outcome: &SolveOutcome, vertex: impl Fn(Point) -> String) -> String {
    let Some(winner) = outcome.winner else {
        return "unknown".into();
    };
    let mut words = vec![color_word(winner).to_string()];
    words.extend(outcome.winning_moves.iter().map(|&p| vertex(p)));
    if !outcome.unresolved_moves.is_empty() {
        words.push("unresolved".into());
        words.extend(outcome.unresolved_moves.iter().map(|&p| vertex(p)));
    }
    words.join(" ")
}

fn kosumi_ownership(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let ownership = engine.interruptible(call.watcher, Engine::ownership);
    let g = engine.geometry();
    let rows: Vec<String> = (0..g.height())
        .rev()
        .map(|row| {
            let values: Vec<String> = (0..g.width())
                .map(|col| format!("{:.2}", ownership.value(g.point_unchecked(col, row)) + 0.0))
                .collect();
            values.join(" ")
        })
        .collect();
    text(format!("\n{}", rows.join("\n")))
}

/// Fails when a remote controller asks `name` for more than the daemon's
/// cap allows; the message names the cap and where it comes from.
fn check_cap(engine: &Engine, name: &str, value: u64) -> Result<(), GtpError> {
    let Some(caps) = engine.resource_caps else {
        return Ok(());
    };
    let (cap, source) = match name {
        "threads" => (caps.threads, "the machine's cores"),
        "max_tree_mb" => (caps.max_tree_mb, "the daemon's start-up setting"),
        "ownership_playouts" => (caps.ownership_playouts, "the remote limit"),
        _ => return Ok(()),
    };
    if value > u64::from(cap) {
        return Err(GtpError::OverCap(format!(
            "{name} above the cap of {cap} ({source}) for a remote controller"
        )));
    }
    Ok(())
}

/// `1`/`0` (GoGui's boolean parameters) or `true`/`false`.
fn parse_switch(text: &str) -> Result<bool, GtpError> {
    match text.to_ascii_lowercase().as_str() {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(GtpError::Syntax),
    }
}

/// Every parameter as (GoGui type, name, value): the search's whole
/// table, then the engine's own.
fn parameters(engine: &Engine) -> Vec<(&'static str, &'static str, String)> {
    let mut entries: Vec<(&str, &str, String)> = PARAM_TABLE
        .iter()
        .map(|&(name, _)| ("string", name, engine.params.get(name).unwrap_or_default()))
        .collect();
    entries.extend([
        (
            "string",
            "playouts",
            engine.fixed_playouts.unwrap_or(0).to_string(),
        ),
        (
            "string",
            "ownership_playouts",
            engine.ownership_playouts.to_string(),
        ),
        (
            "string",
            "lag",
            number_text(engine.clock.lag().as_secs_f64()),
        ),
        ("bool", "ponder", u8::from(engine.ponder).to_string()),
        ("bool", "gogui_gfx", u8::from(engine.gogui_gfx).to_string()),
        (
            "bool",
            "opening_book",
            u8::from(engine.opening_book).to_string(),
        ),
    ]);
    entries
}

fn kosumi_param(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    match call.args {
        // GoGui's param format: a "[type] name value" line each.
        [] => text(
            parameters(engine)
                .into_iter()
                .map(|(kind, name, value)| format!("[{kind}] {name} {value}"))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        [name] => parameters(engine)
            .into_iter()
            .find(|&(_, known, _)| known == name.as_str())
            .map_or(Err(GtpError::UnknownParameter), |(_, _, value)| text(value)),
        [name, value] => {
            match name.as_str() {
                "playouts" => {
                    let playouts = value.parse::<u64>().map_err(|_| GtpError::Syntax)?;
                    engine.fixed_playouts = (playouts > 0).then_some(playouts);
                }
                "ownership_playouts" => {
                    let playouts = parse::parse_u32(value)?;
                    if playouts == 0 {
                        return Err(GtpError::Syntax);
                    }
                    check_cap(engine, name, u64::from(playouts))?;
                    engine.ownership_playouts = playouts;
                }
                "lag" => engine.clock.set_lag(parse_lag(value)?),
                "ponder" => engine.ponder = parse_switch(value)?,
                "gogui_gfx" => engine.gogui_gfx = parse_switch(value)?,
                "opening_book" => engine.opening_book = parse_switch(value)?,
                search_parameter => {
                    if search_parameter == "resign_threshold"
                        && !(0.0..=1.0).contains(&parse::parse_float(value)?)
                    {
                        return Err(GtpError::Syntax);
                    }
                    let mut params = engine.params.clone();
                    params
                        .set(search_parameter, value)
                        .map_err(|error| match error {
                            ParamError::Unknown(_) => GtpError::UnknownParameter,
                            ParamError::BadValue { .. } => GtpError::Syntax,
                        })?;
                    check_cap(engine, "threads", u64::from(params.threads))?;
                    check_cap(engine, "max_tree_mb", u64::from(params.max_tree_mb))?;
                    engine.params = params;
                    engine.update_search_params();
                }
            }
            text("")
        }
        _ => Err(GtpError::Syntax),
    }
}

/// `kosumi-ladders` (GoGui gfx): every stone of each string a ladder
/// captures with the opponent of the string to move, in red, and a status
/// line naming one stone of each.
fn kosumi_ladders(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    if engine.game.kind() == GameKind::NoGo {
        return text("TEXT no ladders in NoGo: nothing is ever captured");
    }
    let position = engine.game.position();
    let strings = laddered_strings(position);
    if strings.is_empty() {
        return text("TEXT no string dies in a ladder");
    }
    let stones: Vec<Point> = strings
        .iter()
        .flat_map(|&p| position.string_stones(p).iter().collect::<Vec<Point>>())
        .collect();
    text(format!(
        "COLOR red {}\nTEXT dies in a ladder: {}",
        points_text(engine, &stones),
        points_text(engine, &strings)
    ))
}

/// `kosumi-tactics` (GoGui gfx): what the root's tactical reading finds
/// for the side to move (see `go::reading`): in green the points that
/// capture an enemy string short of liberties, in blue those that save an
/// own one, in red the extensions that die anyway, and a status line
/// listing each.
fn kosumi_tactics(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    if engine.game.kind() == GameKind::NoGo {
        return text("TEXT no tactics in NoGo: nothing is ever captured");
    }
    let position = engine.game.position();
    let mover = position.to_move();
    let (mut captures, mut saves, mut futile) = (Vec::new(), Vec::new(), Vec::new());
    for (p, effect) in root_effects(position, mover) {
        let list = match effect {
            Effect::Captures(_) => &mut captures,
            Effect::Saves(_) => &mut saves,
            Effect::FailsToSave(_) => &mut futile,
        };
        if !list.contains(&p) {
            list.push(p);
        }
    }
    if captures.is_empty() && saves.is_empty() && futile.is_empty() {
        return text("TEXT no string short of liberties is at stake");
    }
    futile.retain(|p| !captures.contains(p) && !saves.contains(p));
    for list in [&mut captures, &mut saves, &mut futile] {
        list.sort_by_key(|&p| engine.point_text(p));
    }
    let shown_saves: Vec<Point> = saves
        .iter()
        .copied()
        .filter(|p| !captures.contains(p))
        .collect();
    let mut lines = Vec::new();
    for (color, points) in [
        ("green", &captures),
        ("blue", &shown_saves),
        ("red", &futile),
    ] {
        if !points.is_empty() {
            lines.push(format!("COLOR {color} {}", points_text(engine, points)));
        }
    }
    let listed = |points: &[Point]| match points {
        [] => "none".to_string(),
        _ => points_text(engine, points),
    };
    lines.push(format!(
        "TEXT {} captures: {}; saves: {}; futile: {}",
        super::engine::color_word(mover),
        listed(&captures),
        listed(&saves),
        listed(&futile)
    ));
    text(lines.join("\n"))
}

/// Chat from KGS: `kgs-chat game|private NAME TEXT...`. kgsGtp sends the
/// text of a successful reply back to the speaker, and nothing for an
/// empty one. A private message gets one short line saying what Kosumi is;
/// game chat gets silence, so that players and watchers are not answered
/// by the same sentence every time they speak.
fn kgs_chat(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    if call.args.len() < 3 {
        return Err(GtpError::Syntax);
    }
    match call.args[0].to_ascii_lowercase().as_str() {
        "game" => text(""),
        "private" => text(format!(
            "Hello, I am {ENGINE_NAME} {}, a Go program. I cannot chat, but I wish you a good game.",
            env!("CARGO_PKG_VERSION")
        )),
        _ => Err(GtpError::Syntax),
    }
}

fn gogui_analyze_commands(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(
        [
            "dboard/Ownership/kosumi-ownership",
            "sboard/Visits/kosumi-visits",
            "var/Principal variation/kosumi-pv",
            "string/Win rate/kosumi-winrate",
            "gfx/Ladders/kosumi-ladders",
            "gfx/Tactics/kosumi-tactics",
            "plist/Dead stones/final_status_list dead",
            "plist/Seki stones/final_status_list seki",
            "string/Final score/final_score",
            "string/Show board/showboard",
            "param/Engine parameters/kosumi-param",
        ]
        .join("\n"),
    )
}

fn gogui_interrupt(_: &mut Engine, _: &mut Call) -> Result<Response, GtpError> {
    text("")
}

/// GoGui's documented form: a capital letter, then lower case only. GoGui
/// treats an engine that answers `Go` as a Go program and any other as the
/// ruler of its game.
fn gogui_rules_game_id(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(match engine.game.kind() {
        GameKind::Go => "Go",
        GameKind::NoGo => "Nogo",
    })
}

fn gogui_rules_board_size(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(engine.geometry().width().to_string())
}

fn gogui_rules_board(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let board = engine.game.position().to_text();
    text(format!("\n{}", board.trim_end()))
}

fn gogui_rules_legal_moves(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let game = &engine.game;
    if game.is_over() {
        return text("");
    }
    let mover = game.to_move();
    let mut moves: Vec<String> = engine
        .geometry()
        .points()
        .filter(|&p| game.check_move(mover, Move::Play(p)).is_ok())
        .map(|p| engine.point_text(p))
        .collect();
    if game.kind() == GameKind::Go {
        moves.push("PASS".to_string());
    }
    text(moves.join(" "))
}

fn gogui_rules_side_to_move(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(color_word(engine.game.to_move()))
}

/// The sentence GoGui shows in its "game finished" dialog (its
/// documentation's form: who won, and by how much where that means
/// something).
fn gogui_rules_final_result(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let game = &engine.game;
    if !game.is_over() {
        return text("The game is not over.");
    }
    let capitalized = |color: Color| {
        let mut word = color_word(color).to_string();
        word[..1].make_ascii_uppercase();
        word
    };
    if game.kind() == GameKind::NoGo {
        let loser = game.to_move();
        return text(format!(
            "{} wins: {} has no legal move.",
            capitalized(loser.opponent()),
            color_word(loser)
        ));
    }
    match engine.counted_outcome() {
        Outcome::Draw => text("Draw: the area count is even."),
        Outcome::Win(color, margin) => {
            let margin = number_text(margin.into());
            text(format!(
                "{} wins by {margin} points ({}+{margin}), counting area with dead stones removed.",
                capitalized(color),
                color_letter(color),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::{EngineConfig, NoInput};

    fn run(engine: &mut Engine, line: &str) -> String {
        let mut out = Vec::new();
        engine.execute_line(line, &mut out, &mut NoInput).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// kosumi-param lists and sets every entry of the search's table, so a
    /// parameter added there is reachable from GTP (and GoGui) at once.
    #[test]
    fn kosumi_param_covers_the_whole_search_table() {
        let mut engine = Engine::new(EngineConfig::default());
        let listing = run(&mut engine, "kosumi-param");
        for (name, _) in PARAM_TABLE {
            let value = engine.params.get(name).expect("table entries have values");
            assert!(
                listing.contains(&format!("[string] {name} {value}\n")),
                "{name} missing from {listing}"
            );
            assert_eq!(
                run(&mut engine, &format!("kosumi-param {name} {value}")),
                "= \n\n",
                "{name}"
            );
        }
        assert_eq!(engine.params, SearchParams::default());
    }

    /// Setting a tunable keeps the tree the next genmove reuses; a new
    /// seed starts afresh.
    #[test]
    fn a_tunable_keeps_the_tree_and_a_seed_starts_afresh() {
        let mut engine = Engine::new(EngineConfig {
            threads: Some(1),
            playouts: Some(200),
            opening_book: false,
            ..EngineConfig::default()
        });
        run(&mut engine, "boardsize 9");
        run(&mut engine, "genmove b");
        let kept = engine.tree_size();
        assert!(kept > 0);
        assert_eq!(run(&mut engine, "kosumi-param exploration 0.2"), "= \n\n");
        assert_eq!(engine.tree_size(), kept);
        assert_eq!(run(&mut engine, "kosumi-param seed 5"), "= \n\n");
        assert_eq!(engine.tree_size(), 0);
    }

    /// A solve that ran out of time after finding the winner lists the
    /// moves it did not classify, apart from the winning ones.
    #[test]
    fn a_partial_solve_says_which_moves_are_unresolved() {
        use crate::nogo::solver::SolveStatus::{Complete, OutOfTime, WinnerOnly};
        let outcome = |winner, status, winning: &[u16], unresolved: &[u16]| SolveOutcome {
            winner,
            status,
            winning_moves: winning.iter().map(|&p| Point(p)).collect(),
            losing_moves: vec![Point(9)],
            unresolved_moves: unresolved.iter().map(|&p| Point(p)).collect(),
            nodes: 1,
            elapsed: Duration::ZERO,
        };
        let vertex = |p: Point| format!("p{}", p.0);
        let partial = outcome(Some(Color::White), WinnerOnly, &[3], &[5, 7]);
        assert_eq!(solve_reply(&partial, vertex), "white p3 unresolved p5 p7");
        let complete = outcome(Some(Color::Black), Complete, &[3, 4], &[]);
        assert_eq!(solve_reply(&complete, vertex), "black p3 p4");
        let unknown = outcome(None, OutOfTime, &[], &[3]);
        assert_eq!(solve_reply(&unknown, vertex), "unknown");
    }
}
