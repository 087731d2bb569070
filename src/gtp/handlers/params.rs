//! `kosumi-param`: every search parameter and the engine's own settings,
//! listed in GoGui's param format, shown or set one at a time; a remote
//! controller may not raise threads, tree memory, ownership or aftermath
//! playouts past the daemon's caps.

use super::text;
use crate::gtp::args::{parse_lag, parse_switch};
use crate::gtp::engine::{Call, Engine, Response};
use crate::gtp::error::GtpError;
use crate::gtp::format::number_text;
use crate::gtp::parse;
use crate::search::{PARAM_TABLE, ParamError};

/// Fails when a remote controller asks `name` for more than the daemon's
/// cap allows; the message names the cap and where it comes from.
fn check_cap(engine: &Engine, name: &str, value: u64) -> Result<(), GtpError> {
    let Some(caps) = engine.resource_caps() else {
        return Ok(());
    };
    let (cap, source) = match name {
        "threads" => (caps.threads, "the machine's cores"),
        "max_tree_mb" => (caps.max_tree_mb, "the daemon's start-up setting"),
        "ownership_playouts" => (caps.ownership_playouts, "the remote limit"),
        "aftermath_playouts" => (caps.aftermath_playouts, "the remote limit"),
        _ => return Ok(()),
    };
    if value > u64::from(cap) {
        return Err(GtpError::OverCap(format!(
            "{name} above the cap of {cap} ({source}) for a remote controller"
        )));
    }
    Ok(())
}

/// Every parameter as (GoGui type, name, value): the search's whole
/// table, then the engine's own.
fn parameters(engine: &Engine) -> Vec<(&'static str, &'static str, String)> {
    let player = engine.player();
    let settings = player.settings();
    let mut entries: Vec<(&str, &str, String)> = PARAM_TABLE
        .iter()
        .map(|&(name, _)| {
            (
                "string",
                name,
                player.params().get(name).unwrap_or_default(),
            )
        })
        .collect();
    entries.extend([
        (
            "string",
            "playouts",
            settings.fixed_playouts.unwrap_or(0).to_string(),
        ),
        (
            "string",
            "ownership_playouts",
            settings.ownership_playouts.to_string(),
        ),
        (
            "string",
            "aftermath_playouts",
            settings.aftermath_playouts.to_string(),
        ),
        (
            "string",
            "lag",
            number_text(player.clock().lag().as_secs_f64()),
        ),
        ("bool", "ponder", u8::from(settings.ponder).to_string()),
        (
            "bool",
            "gogui_gfx",
            u8::from(engine.gogui_gfx()).to_string(),
        ),
        (
            "bool",
            "opening_book",
            u8::from(settings.opening_book).to_string(),
        ),
    ]);
    entries
}

pub(crate) fn kosumi_param(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
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
                    engine.player_mut().settings_mut().fixed_playouts =
                        (playouts > 0).then_some(playouts);
                }
                "ownership_playouts" => {
                    let playouts = parse::parse_u32(value)?;
                    if playouts == 0 {
                        return Err(GtpError::Syntax);
                    }
                    check_cap(engine, name, u64::from(playouts))?;
                    engine.player_mut().settings_mut().ownership_playouts = playouts;
                }
                "aftermath_playouts" => {
                    let playouts = parse::parse_u32(value)?;
                    check_cap(engine, name, u64::from(playouts))?;
                    engine.player_mut().settings_mut().aftermath_playouts = playouts;
                }
                "lag" => engine.player_mut().clock_mut().set_lag(parse_lag(value)?),
                "ponder" => engine.player_mut().settings_mut().ponder = parse_switch(value)?,
                "gogui_gfx" => engine.set_gogui_gfx(parse_switch(value)?),
                "opening_book" => {
                    engine.player_mut().settings_mut().opening_book = parse_switch(value)?;
                }
                search_parameter => {
                    if search_parameter == "resign_threshold"
                        && !(0.0..=1.0).contains(&parse::parse_float(value)?)
                    {
                        return Err(GtpError::Syntax);
                    }
                    let mut params = engine.player().params().clone();
                    params
                        .set(search_parameter, value)
                        .map_err(|error| match error {
                            ParamError::Unknown(_) => GtpError::UnknownParameter,
                            ParamError::BadValue { .. } => GtpError::Syntax,
                        })?;
                    check_cap(engine, "threads", u64::from(params.threads))?;
                    check_cap(engine, "max_tree_mb", u64::from(params.max_tree_mb))?;
                    engine.player_mut().set_params(params);
                }
            }
            text("")
        }
        _ => Err(GtpError::Syntax),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::{EngineConfig, NoInput};
    use crate::search::SearchParams;

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
            let value = engine
                .player()
                .params()
                .get(name)
                .expect("table entries have values");
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
        assert_eq!(*engine.player().params(), SearchParams::default());
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
}
