//! The end of the game: `final_score`, `final_status_list` and
//! `kosumi-ownership`, from the player's playout ownership. Each runs
//! interruptibly: `# interrupt` answers with the playouts done so far.

use super::text;
use crate::gtp::engine::{Call, Engine, Response};
use crate::gtp::error::GtpError;
use crate::player::StringStatus;

pub(crate) fn final_score(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    engine
        .interruptible(call.watcher, Engine::result_text)
        .map(Response::Text)
        .ok_or(GtpError::CannotScore)
}

pub(crate) fn final_status_list(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let wanted = match call.args[0].to_ascii_lowercase().as_str() {
        "alive" => StringStatus::Alive,
        "dead" => StringStatus::Dead,
        "seki" => StringStatus::Seki,
        _ => return Err(GtpError::Syntax),
    };
    let lines: Vec<String> = engine
        .interruptible(call.watcher, |engine| {
            engine.player().final_statuses(engine.game())
        })
        .into_iter()
        .filter(|(_, status)| *status == wanted)
        .map(|(points, _)| engine.points_text(&points))
        .collect();
    text(lines.join("\n"))
}

pub(crate) fn kosumi_ownership(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let ownership = engine.interruptible(call.watcher, |engine| {
        engine.player().ownership(engine.game())
    });
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
