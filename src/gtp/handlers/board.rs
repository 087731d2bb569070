//! The board: size, komi, moves, undo, handicap stones, the rules' game
//! (Go or NoGo) and the `showboard` diagram.

use std::fmt::Write as _;

use super::text;
use crate::board::{Cell, Color, GameKind, Geometry, MAX_SIZE, Move, Point, free_handicap_points};
use crate::gtp::args::{parse_color, parse_komi, parse_stone_count};
use crate::gtp::engine::{Call, DEFAULT_GO_KOMI, Engine, MIN_BOARD_SIZE, Response};
use crate::gtp::error::GtpError;
use crate::gtp::format::{color_word, number_text};
use crate::gtp::parse::{self, Vertex};

pub(crate) fn boardsize(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let size = parse::parse_int(&call.args[0])?;
    let geometry = usize::try_from(size)
        .ok()
        .filter(|size| (MIN_BOARD_SIZE..=MAX_SIZE).contains(size))
        .and_then(|size| Geometry::square(size).ok())
        .ok_or(GtpError::UnacceptableSize)?;
    let kind = engine.game().kind();
    engine.reset_board(geometry, kind);
    text("")
}

pub(crate) fn clear_board(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let (geometry, kind) = (engine.geometry(), engine.game().kind());
    engine.reset_board(geometry, kind);
    text("")
}

pub(crate) fn komi(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let komi = parse_komi(&call.args[0])?;
    engine.game_mut().set_komi(komi);
    text("")
}

pub(crate) fn play(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(2)?;
    let color = parse_color(&call.args[0])?;
    let mv = engine.parse_move(&call.args[1])?;
    engine.game_mut().play(color, mv)?;
    text("")
}

pub(crate) fn undo(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    engine.game_mut().undo()?;
    text("")
}

/// Handicap is only for a board with nothing on it yet.
fn require_empty_board(engine: &Engine) -> Result<(), GtpError> {
    let game = engine.game();
    if game.moves().is_empty() && game.setup().is_empty() {
        Ok(())
    } else {
        Err(GtpError::BoardNotEmpty)
    }
}

pub(crate) fn fixed_handicap(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let stones = parse_stone_count(&call.args[0])?;
    require_empty_board(engine)?;
    let points = engine.game_mut().place_fixed_handicap(stones)?;
    text(engine.points_text(&points))
}

pub(crate) fn place_free_handicap(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let stones = parse_stone_count(&call.args[0])?;
    require_empty_board(engine)?;
    let points =
        free_handicap_points(engine.geometry(), stones).ok_or(GtpError::InvalidStoneCount)?;
    engine.game_mut().place_handicap(&points)?;
    text(engine.points_text(&points))
}

pub(crate) fn set_free_handicap(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
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
    engine.game_mut().place_handicap(&points)?;
    text("")
}

/// The board diagram of `showboard`: coordinates around it, `X` Black,
/// `O` White, the last move in parentheses, then a status line.
fn board_diagram(engine: &Engine) -> String {
    let g = engine.geometry();
    let position = engine.game().position();
    let letters: String = (0..g.width())
        .map(|col| {
            let name = parse::format_vertex(Vertex::Point { col, row: 0 });
            format!(" {}", name.chars().next().unwrap_or('?'))
        })
        .collect();
    let last = match engine.game().moves().last() {
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
    let game = engine.game();
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

pub(crate) fn showboard(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(format!("\n{}", board_diagram(engine)))
}

pub(crate) fn kosumi_game(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let kind = match call.args[0].to_ascii_lowercase().as_str() {
        "go" => GameKind::Go,
        "nogo" => GameKind::NoGo,
        _ => return Err(GtpError::Syntax),
    };
    let komi = match (engine.game().kind(), kind) {
        (_, GameKind::NoGo) => 0.0,
        (GameKind::NoGo, GameKind::Go) => DEFAULT_GO_KOMI,
        (GameKind::Go, GameKind::Go) => engine.game().komi(),
    };
    let geometry = engine.geometry();
    engine.reset_board(geometry, kind);
    engine.game_mut().set_komi(komi);
    text("")
}
