//! The analysis commands: the Leela Zero and KataGo streams
//! (`lz-analyze`, `kata-analyze`), which run until the next line, and
//! the GoGui analysis searches (`kosumi-visits`, `kosumi-pv`,
//! `kosumi-winrate`), which answer after a fixed number of playouts.
//! Their arguments' parser serves the `*-genmove_analyze` family too.

use std::time::Duration;

use super::stream::{Reporting, start_stream};
use super::text;
use crate::board::{Color, Game, Move};
use crate::gtp::args::parse_color;
use crate::gtp::engine::{Call, Engine, Response};
use crate::gtp::error::GtpError;
use crate::gtp::format::{InfoFormatter, InfoStyle, color_word, short_count};
use crate::gtp::parse;
use crate::player::game_for;
use crate::search::SearchReport;

/// Analysis report interval when the controller gives none (centiseconds).
const DEFAULT_INTERVAL_CS: u32 = 100;

/// Arguments of the analysis commands.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct AnalyzeArgs {
    pub(super) color: Option<Color>,
    /// Between progress lines; zero means only the final line.
    pub(super) interval: Duration,
    /// Whether the controller gave the interval (CGOS gives none and wants
    /// only the final line).
    pub(super) interval_given: bool,
    pub(super) ownership: bool,
    /// `maxmoves N`: candidates a line lists at most.
    pub(super) max_moves: Option<usize>,
}

pub(super) fn parse_analyze_args(args: &[String]) -> Result<AnalyzeArgs, GtpError> {
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

/// The info line formatter for an analysis of `analysed` (the position
/// with the side to move as analysed); ownership is estimated now if the
/// arguments ask for it.
pub(super) fn analysis_formatter(
    engine: &Engine,
    analysed: &Game,
    style: InfoStyle,
    args: &AnalyzeArgs,
) -> InfoFormatter {
    let ownership = args
        .ownership
        .then(|| engine.player().mover_ownership(engine.game(), analysed));
    InfoFormatter::new(analysed, style, args.max_moves, ownership.as_deref())
}

fn analyze(engine: &mut Engine, call: &mut Call, style: InfoStyle) -> Result<Response, GtpError> {
    let args = parse_analyze_args(call.args)?;
    let color = args.color.unwrap_or_else(|| engine.game().to_move());
    let game = game_for(engine.game(), color);
    start_stream(call)?;
    let formatter = analysis_formatter(engine, &game, style, &args);
    let mut reporting =
        Reporting::info(call.out, game.geometry(), &formatter, args.interval, false);
    engine
        .player_mut()
        .analyze(&game, call.watcher, &mut reporting)?;
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

/// The search behind the GoGui analysis commands: the side to move (or
/// the colour given), see [`crate::player::Player::analysis_search`].
fn analysis_command_search(engine: &mut Engine, call: &mut Call) -> Result<SearchReport, GtpError> {
    let color = match call.args {
        [] => engine.game().to_move(),
        [color] => parse_color(color)?,
        _ => return Err(GtpError::Syntax),
    };
    let game = game_for(engine.game(), color);
    Ok(engine.player_mut().analysis_search(&game, call.watcher))
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
    text(format!("\n{}", rows.join("\n")))
}
/// `kosumi-pv [COLOR]` (GoGui var): a search, then the principal
/// variation of its best move, starting with the side searched.
pub(crate) fn kosumi_pv(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let report = analysis_command_search(engine, call)?;
    let line: Vec<String> = report
        .best()
        .map(|best| best.pv.iter().map(|&mv| engine.move_text(mv)).collect())
        .unwrap_or_default();
    text(line.join(" "))
}
/// `kosumi-winrate [COLOR]` (GoGui string): a search, then one line with
/// the best move, its win rate, its visits and the playouts run.
pub(crate) fn kosumi_winrate(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let report = analysis_command_search(engine, call)?;
    let color = color_word(report.to_move);
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
}
