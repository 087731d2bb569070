//! What game servers send: KGS's rules, chat and game over, and CGOS's
//! game over.

use super::text;
use crate::gtp::engine::{Call, ENGINE_NAME, Engine, Response};
use crate::gtp::error::GtpError;

pub(crate) fn kgs_rules(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    engine.player_mut().settings_mut().rules = call.args[0].to_ascii_lowercase();
    text("")
}

pub(crate) fn kgs_game_over(_: &mut Engine, _: &mut Call) -> Result<Response, GtpError> {
    log::info!("KGS: game over");
    text("")
}

/// Chat from KGS: `kgs-chat game|private NAME TEXT...`. kgsGtp sends the
/// text of a successful reply back to the speaker, and nothing for an
/// empty one. A private message gets one short line saying what Kosumi is;
/// game chat gets silence, so that players and watchers are not answered
/// by the same sentence every time they speak.
pub(crate) fn kgs_chat(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
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

pub(crate) fn cgos_gameover(_: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    log::info!("CGOS: game over {}", call.args.join(" "));
    text("")
}
