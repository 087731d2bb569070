//! The protocol's own commands and the engine's identity:
//! `protocol_version`, `name`, `version` (Lizzie's form under `--lizzie`),
//! `quit`, and `cputime`.

use super::text;
use crate::gtp::engine::{Call, ENGINE_NAME, Engine, LIZZIE_VERSION, Response};
use crate::gtp::error::GtpError;

pub(crate) fn protocol_version(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text("2")
}

pub(crate) fn name(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    text(ENGINE_NAME)
}

pub(crate) fn version(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let own = env!("CARGO_PKG_VERSION");
    if engine.lizzie() {
        text(format!("{LIZZIE_VERSION} ({ENGINE_NAME} {own})"))
    } else {
        text(own)
    }
}

pub(crate) fn quit(_: &mut Engine, _: &mut Call) -> Result<Response, GtpError> {
    text("")
}

/// CPU seconds of this process (user plus system) from /proc; wall-clock
/// seconds since start where /proc is missing.
pub(crate) fn cputime(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(0)?;
    let seconds = process_cpu_seconds().unwrap_or_else(|| engine.started().elapsed().as_secs_f64());
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
