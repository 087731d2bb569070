//! The one command table: name, handler and help text of every command.
//! Dispatch, `list_commands`, `known_command` and `help` all read it, so
//! a command exists exactly when it is in the table (the Pachi way):
//! adding a command means adding one row here and its handler under
//! `handlers/`.

use super::engine::{Call, Engine, Response};
use super::error::GtpError;
use super::files;
use super::handlers::{
    analysis, board, genmove, gogui, params, protocol, score, servers, solve, text, time,
};

/// A command handler: checks its arguments, then changes the engine.
pub type Handler = fn(&mut Engine, &mut Call) -> Result<Response, GtpError>;

/// One row of the command table.
pub struct CommandSpec {
    pub name: &'static str,
    pub handler: Handler,
    pub help: &'static str,
}

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
    command!(
        "protocol_version",
        protocol::protocol_version,
        "GTP version: 2"
    ),
    command!("name", protocol::name, "engine name"),
    command!("version", protocol::version, "engine version"),
    command!(
        "known_command",
        known_command,
        "known_command NAME: true or false"
    ),
    command!("list_commands", list_commands, "every command, one a line"),
    command!("help", help, "every command with a line of help"),
    command!("quit", protocol::quit, "answer and exit"),
    command!(
        "boardsize",
        board::boardsize,
        "boardsize N: new empty N x N board (2..25), komi kept"
    ),
    command!("clear_board", board::clear_board, "empty the board"),
    command!("komi", board::komi, "komi K: set komi"),
    command!(
        "play",
        board::play,
        "play COLOR VERTEX: play a move (either colour, any order)"
    ),
    command!(
        "genmove",
        genmove::genmove,
        "genmove COLOR: think, play and answer a move"
    ),
    command!(
        "reg_genmove",
        genmove::reg_genmove,
        "reg_genmove COLOR: a move, not played"
    ),
    command!("undo", board::undo, "take back the last move"),
    command!(
        "fixed_handicap",
        board::fixed_handicap,
        "fixed_handicap N: standard handicap stones"
    ),
    command!(
        "place_free_handicap",
        board::place_free_handicap,
        "place_free_handicap N: engine places N stones"
    ),
    command!(
        "set_free_handicap",
        board::set_free_handicap,
        "set_free_handicap V...: handicap stones given"
    ),
    command!(
        "time_settings",
        time::time_settings,
        "time_settings MAIN BYO STONES (seconds; Canadian)"
    ),
    command!(
        "time_left",
        time::time_left,
        "time_left COLOR SECONDS STONES"
    ),
    command!(
        "final_score",
        score::final_score,
        "area score with dead stones removed: B+3.5, W+0.5, 0"
    ),
    command!(
        "final_status_list",
        score::final_status_list,
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
    command!("showboard", board::showboard, "board diagram"),
    command!(
        "kgs-genmove_cleanup",
        genmove::kgs_genmove_cleanup,
        "kgs-genmove_cleanup COLOR: genmove that captures dead stones before passing"
    ),
    command!(
        "kgs-time_settings",
        time::kgs_time_settings,
        "kgs-time_settings none | absolute M | byoyomi M P N | canadian M P S"
    ),
    command!(
        "kgs-rules",
        servers::kgs_rules,
        "kgs-rules NAME: rules of the game (stored)"
    ),
    command!(
        "kgs-game_over",
        servers::kgs_game_over,
        "KGS says the game is over"
    ),
    command!(
        "kgs-chat",
        servers::kgs_chat,
        "kgs-chat game|private NAME MESSAGE: a one-line polite answer"
    ),
    command!(
        "cgos-gameover",
        servers::cgos_gameover,
        "cgos-gameover RESULT: CGOS says the game is over"
    ),
    command!(
        "cputime",
        protocol::cputime,
        "CPU seconds used by the process"
    ),
    command!(
        "kosumi-game",
        board::kosumi_game,
        "kosumi-game go|nogo: switch rules (clears the board)"
    ),
    command!(
        "kosumi-solve",
        solve::kosumi_solve,
        "kosumi-solve [COLOR] [SECONDS]: exact NoGo solve (default side to move, 10 s): the winner (or unknown) and the winning moves, then `unresolved` and the moves not classified in time"
    ),
    command!(
        "kosumi-regions",
        solve::kosumi_regions,
        "kosumi-regions [COLOR] [SECONDS]: NoGo decision by the game values of the board's independent parts (default side to move, 10 s): won MOVE, lost or unknown, then the parts and the sum of their values"
    ),
    command!(
        "kosumi-ownership",
        score::kosumi_ownership,
        "ownership of each point, -1 (White) to 1 (Black), top row first"
    ),
    command!(
        "kosumi-param",
        params::kosumi_param,
        "kosumi-param [NAME [VALUE]]: list every parameter, show one or set one: every search parameter, playouts, ownership_playouts, aftermath_playouts, lag, ponder, gogui_gfx, opening_book"
    ),
    command!(
        "kosumi-visits",
        analysis::kosumi_visits,
        "kosumi-visits [COLOR]: search, then the visits of each move as a board, top row first"
    ),
    command!(
        "kosumi-pv",
        analysis::kosumi_pv,
        "kosumi-pv [COLOR]: search, then the principal variation"
    ),
    command!(
        "kosumi-winrate",
        analysis::kosumi_winrate,
        "kosumi-winrate [COLOR]: search, then the best move, its win rate and visits"
    ),
    command!(
        "kosumi-ladders",
        gogui::kosumi_ladders,
        "kosumi-ladders: GoGui gfx marking the strings a ladder captures"
    ),
    command!(
        "kosumi-patterns",
        gogui::kosumi_patterns,
        "kosumi-patterns: GoGui gfx of the learned move model's chance of each move of the side to move"
    ),
    command!(
        "kosumi-tactics",
        gogui::kosumi_tactics,
        "kosumi-tactics: GoGui gfx of the captures, saves and futile extensions reading finds for the side to move"
    ),
    command!(
        "kosumi-life",
        gogui::kosumi_life,
        "kosumi-life: GoGui gfx of the count now: dead stones marked, seki stones in triangles, unconditionally alive strings in squares, vital points of undecided eye spaces in circles, territories shaded"
    ),
    command!(
        "gogui-analyze_commands",
        gogui::gogui_analyze_commands,
        "GoGui analyze commands"
    ),
    command!(
        "gogui-interrupt",
        gogui::gogui_interrupt,
        "GoGui may stop a search with '# interrupt'"
    ),
    command!(
        "gogui-rules_game_id",
        gogui::gogui_rules_game_id,
        "Go or NoGo"
    ),
    command!(
        "gogui-rules_board_size",
        gogui::gogui_rules_board_size,
        "board side"
    ),
    command!(
        "gogui-rules_board",
        gogui::gogui_rules_board,
        "board rows, top first: X black, O white, . empty"
    ),
    command!(
        "gogui-rules_legal_moves",
        gogui::gogui_rules_legal_moves,
        "legal moves of the side to move (empty once the game is over)"
    ),
    command!(
        "gogui-rules_side_to_move",
        gogui::gogui_rules_side_to_move,
        "black or white"
    ),
    command!(
        "gogui-rules_final_result",
        gogui::gogui_rules_final_result,
        "unknown while the game runs, else the result"
    ),
    command!(
        "lz-analyze",
        analysis::lz_analyze,
        "lz-analyze [COLOR] [INTERVAL]: stream Leela Zero info lines until the next command"
    ),
    command!(
        "lz-genmove_analyze",
        genmove::lz_genmove_analyze,
        "lz-genmove_analyze COLOR [INTERVAL]: genmove with Leela Zero info lines"
    ),
    command!(
        "kata-analyze",
        analysis::kata_analyze,
        "kata-analyze [COLOR] [INTERVAL] [ownership true]: stream KataGo info lines"
    ),
    command!(
        "kata-genmove_analyze",
        genmove::kata_genmove_analyze,
        "kata-genmove_analyze COLOR [INTERVAL]: genmove with KataGo info lines"
    ),
    command!(
        "cgos-genmove_analyze",
        genmove::cgos_genmove_analyze,
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
