//! Command arguments as the handlers take them, on top of [`super::parse`]:
//! colours, komi, seconds, lag, switches and stone counts, each failing
//! with the GTP wording.

use std::time::Duration;

use super::error::GtpError;
use super::parse::{self, GtpColor};
use crate::board::Color;

/// The most lag `--lag` and `kosumi-param lag` accept, in seconds.
pub const MAX_LAG_SECONDS: f64 = 60.0;

/// Komi beyond this is certainly a mistake (and would lose precision).
const MAX_KOMI: f64 = 1000.0;

/// Parses a GTP colour into the board's colour.
pub(crate) fn parse_color(text: &str) -> Result<Color, GtpError> {
    Ok(match parse::parse_color(text)? {
        GtpColor::Black => Color::Black,
        GtpColor::White => Color::White,
    })
}

/// Seconds of lag allowance, from 0 to [`MAX_LAG_SECONDS`].
pub fn parse_lag(text: &str) -> Result<Duration, GtpError> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|seconds| (0.0..=MAX_LAG_SECONDS).contains(seconds))
        .map(Duration::from_secs_f64)
        .ok_or(GtpError::Syntax)
}

/// Parses komi: a finite number of sensible size.
pub(crate) fn parse_komi(text: &str) -> Result<f32, GtpError> {
    let komi = parse::parse_float(text)?;
    if komi.abs() > MAX_KOMI {
        return Err(GtpError::Syntax);
    }
    Ok(komi as f32)
}

/// Seconds as GTP gives them (integers, but fractions do no harm).
pub(crate) fn parse_seconds(text: &str) -> Result<Duration, GtpError> {
    let seconds = parse::parse_float(text)?;
    if !(0.0..=1e9).contains(&seconds) {
        return Err(GtpError::Syntax);
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// `1`/`0` (GoGui's boolean parameters) or `true`/`false`.
pub(crate) fn parse_switch(text: &str) -> Result<bool, GtpError> {
    match text.to_ascii_lowercase().as_str() {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(GtpError::Syntax),
    }
}

/// Parses a handicap stone count (a syntax error if not a number).
pub(crate) fn parse_stone_count(text: &str) -> Result<usize, GtpError> {
    let count = parse::parse_int(text)?;
    usize::try_from(count).map_err(|_| GtpError::InvalidStoneCount)
}
