//! The clock as controllers set it: `time_settings` (GTP's Canadian
//! form), `time_left`, and KGS's `kgs-time_settings`.

use super::text;
use crate::gtp::args::{parse_color, parse_seconds};
use crate::gtp::engine::{Call, Engine, Response};
use crate::gtp::error::GtpError;
use crate::gtp::parse;
use crate::player::clock::TimeSystem;

pub(crate) fn time_settings(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(3)?;
    let main = parse_seconds(&call.args[0])?;
    let period = parse_seconds(&call.args[1])?;
    let stones = parse::parse_u32(&call.args[2])?;
    engine
        .player_mut()
        .clock_mut()
        .set_gtp_time_settings(main, period, stones);
    text("")
}

pub(crate) fn time_left(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(3)?;
    let color = parse_color(&call.args[0])?;
    let left = parse_seconds(&call.args[1])?;
    let stones = parse::parse_u32(&call.args[2])?;
    engine
        .player_mut()
        .clock_mut()
        .set_time_left(color, left, stones);
    text("")
}

pub(crate) fn kgs_time_settings(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
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
    engine.player_mut().clock_mut().set_system(system);
    text("")
}
