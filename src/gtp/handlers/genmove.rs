//! The commands that generate a move: `genmove`, `reg_genmove` (the move
//! is not played), `kgs-genmove_cleanup` (dead stones are captured before
//! any pass), and `lz-`, `kata-` and `cgos-genmove_analyze`, which stream
//! analysis lines while the search runs and end with `play MOVE`. The
//! player decides ([`crate::player::Player::genmove`]); these parse, show
//! and answer.

use std::time::Duration;

use super::analysis::{analysis_formatter, parse_analyze_args};
use super::stream::{Reporting, start_stream, write_line};
use super::text;
use crate::gtp::args::parse_color;
use crate::gtp::engine::{Call, Engine, Response};
use crate::gtp::error::GtpError;
use crate::gtp::format::{InfoStyle, choice_text};
use crate::player::{Choice, Purpose, game_for};

fn generate(engine: &mut Engine, call: &mut Call, purpose: Purpose) -> Result<Response, GtpError> {
    call.expect_args(1)?;
    let color = parse_color(&call.args[0])?;
    let mut reporting = Reporting::plain(call.out, engine.geometry(), engine.gogui_gfx());
    let choice = engine.genmove(color, purpose, call.watcher, &mut reporting)?;
    text(choice_text(engine.geometry(), choice))
}

pub(crate) fn genmove(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    generate(engine, call, Purpose::Play)
}

pub(crate) fn reg_genmove(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    generate(engine, call, Purpose::Report)
}

pub(crate) fn kgs_genmove_cleanup(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    generate(engine, call, Purpose::Cleanup)
}

fn genmove_analyze(
    engine: &mut Engine,
    call: &mut Call,
    style: InfoStyle,
) -> Result<Response, GtpError> {
    let args = parse_analyze_args(call.args)?;
    let color = args.color.ok_or(GtpError::Syntax)?;
    start_stream(call)?;
    let formatter = analysis_formatter(engine, &game_for(engine.game(), color), style, &args);
    // CGOS asks without an interval and reads only the last line.
    let interval = if style == InfoStyle::Cgos && !args.interval_given {
        Duration::ZERO
    } else {
        args.interval
    };
    let (geometry, gfx) = (engine.geometry(), engine.gogui_gfx());
    let mut reporting = Reporting::info(call.out, geometry, &formatter, interval, gfx);
    let choice = match engine.genmove(color, Purpose::Play, call.watcher, &mut reporting) {
        Ok(choice) => choice,
        Err(GtpError::Output(error)) => return Err(GtpError::Output(error)),
        Err(error) => {
            // The reply has started; it can only end with a move.
            log::error!("genmove_analyze failed after its reply began: {error}");
            Choice::Resign
        }
    };
    let played = choice_text(engine.geometry(), choice);
    write_line(call.out, &format!("play {played}"))?;
    call.out.write_all(b"\n")?;
    call.out.flush()?;
    Ok(Response::Streamed)
}

pub(crate) fn lz_genmove_analyze(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    genmove_analyze(engine, call, InfoStyle::LeelaZero)
}
pub(crate) fn cgos_genmove_analyze(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    genmove_analyze(engine, call, InfoStyle::Cgos)
}
pub(crate) fn kata_genmove_analyze(
    engine: &mut Engine,
    call: &mut Call,
) -> Result<Response, GtpError> {
    genmove_analyze(engine, call, InfoStyle::KataGo)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::board::{Color, Move};
    use crate::search::SearchReport;

    /// The player's decision for `color` on `report` in the engine's game.
    fn choose(engine: &Engine, color: Color, report: &SearchReport, purpose: Purpose) -> Choice {
        engine
            .player()
            .choose(engine.game(), color, report, purpose)
    }

    fn pass_may_end_the_game(engine: &Engine, color: Color) -> bool {
        engine.player().pass_may_end_the_game(engine.game(), color)
    }

    /// A report in which every move loses.
    fn hopeless(engine: &Engine) -> SearchReport {
        let mv = engine
            .geometry()
            .points()
            .map(Move::Play)
            .find(|&mv| engine.game().check_move(Color::White, mv).is_ok())
            .unwrap();
        SearchReport {
            to_move: Color::White,
            candidates: vec![crate::search::Candidate {
                mv,
                visits: 1000,
                winrate: 0.01,
                prior: 0.1,
                pv: vec![mv],
                score_lead: None,
                proof: crate::search::Proof::Unknown,
            }],
            playouts: 1000,
            elapsed: Duration::ZERO,
            extra_margin: 0,
            probe_winrate: None,
        }
    }

    /// Plays `first` (Black), then alternating moves along the rows.
    fn game_with(first: &[&str], alternating: usize) -> Engine {
        let mut engine = Engine::new(crate::gtp::EngineConfig::default());
        let mut out = Vec::new();
        let mut run = |engine: &mut Engine, line: &str| {
            out.clear();
            engine
                .execute_line(line, &mut out, &mut crate::gtp::NoInput)
                .unwrap();
            assert!(
                out.starts_with(b"="),
                "{line}: {}",
                String::from_utf8_lossy(&out)
            );
        };
        run(&mut engine, "boardsize 9");
        for vertex in first {
            run(&mut engine, &format!("play b {vertex}"));
        }
        let rows = [
            "A1 B1 D1 E1 F1 H1 J1",
            "A9 B9 C9 D9 E9 F9 G9 H9 J9",
            "A5 B5 C5 D5",
        ];
        let vertices: Vec<&str> = rows.iter().flat_map(|r| r.split(' ')).collect();
        for (k, vertex) in vertices.iter().take(alternating).enumerate() {
            let color = if k % 2 == 0 { "w" } else { "b" };
            run(&mut engine, &format!("play {color} {vertex}"));
        }
        engine
    }

    /// A fresh period a move (match.sh's `time_settings 0 1 1`): Go spends
    /// it whole, NoGo still stops on a decided move; sudden death stops
    /// early in both.
    #[test]
    fn only_go_spends_a_whole_period_a_move() {
        let mut engine = Engine::new(crate::gtp::EngineConfig::default());
        let mut out = Vec::new();
        let mut stops_early = |lines: &[&str]| {
            for line in lines {
                engine
                    .execute_line(line, &mut out, &mut crate::gtp::NoInput)
                    .unwrap();
            }
            engine
                .player()
                .move_limits(engine.game(), Color::Black)
                .stop_when_decided
        };
        assert!(!stops_early(&["time_settings 0 1 1"]));
        assert!(stops_early(&["time_settings 300 0 0"]));
        assert!(stops_early(&["kosumi-game nogo", "time_settings 0 1 1"]));
    }

    /// dead_stone_7x7.sgf: White's B1 is dead in Black's area. At komi 4.5
    /// White wins by half a point on the board as it stands and loses by
    /// 2.5 once B1 is removed: after Black's pass, White must not pass.
    #[test]
    fn no_pass_ends_a_game_won_only_by_a_dead_stone() {
        let mut engine = Engine::new(crate::gtp::EngineConfig::default());
        let mut out = Vec::new();
        let sgf = concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-tests/dead_stone_7x7.sgf");
        for line in [&format!("loadsgf {sgf}"), "komi 4.5"] {
            engine
                .execute_line(line, &mut out, &mut crate::gtp::NoInput)
                .unwrap();
        }
        assert!(pass_may_end_the_game(&engine, Color::White));
        engine
            .execute_line("play b pass", &mut out, &mut crate::gtp::NoInput)
            .unwrap();
        assert!(!pass_may_end_the_game(&engine, Color::White));
        // Only the opponent's pass makes ours end the game.
        assert!(pass_may_end_the_game(&engine, Color::Black));
        assert!(out.iter().all(|&b| b == b'=' || b == b'\n' || b == b' '));
    }

    /// dead_stone_7x7.sgf after White's pass: won by both counts (komi
    /// 0.5), Black passes; won only once White's dead B1 is removed (komi
    /// 4.5), Black takes it at A1 first; lost (komi 10), Black searches.
    /// None of these needs a search.
    #[test]
    fn a_won_game_ends_without_a_search_after_the_opponent_passes() {
        let decision = |komi: &str| {
            let mut engine = Engine::new(crate::gtp::EngineConfig::default());
            let mut out = Vec::new();
            let sgf = concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-tests/dead_stone_7x7.sgf");
            for line in [&format!("loadsgf {sgf}"), komi, "play w pass"] {
                engine
                    .execute_line(line, &mut out, &mut crate::gtp::NoInput)
                    .unwrap();
            }
            engine
                .player()
                .decided_after_a_pass(engine.game(), Color::Black, Purpose::Play)
                .map(|choice| choice_text(engine.geometry(), choice))
        };
        assert_eq!(decision("komi 0.5").as_deref(), Some("PASS"));
        assert_eq!(decision("komi 4.5").as_deref(), Some("A1"));
        assert_eq!(decision("komi 10"), None);
    }

    #[test]
    fn white_does_not_resign_early_in_a_handicap_game() {
        // Handicap 2 sent as plain moves, then 20 more: past the usual
        // opening, inside the handicap one.
        let engine = game_with(&["C3", "G7"], 19);
        assert_eq!(engine.game().handicap(), 2);
        let report = hopeless(&engine);
        assert!(matches!(
            choose(&engine, Color::White, &report, Purpose::Play),
            Choice::Play(_)
        ));
        // An even game with as many moves resigns.
        let even = game_with(&["C3"], 20);
        assert_eq!(even.game().handicap(), 0);
        let report = hopeless(&even);
        assert_eq!(
            choose(&even, Color::White, &report, Purpose::Play),
            Choice::Resign
        );
    }

    #[test]
    fn under_a_dynamic_komi_only_the_real_komi_win_rate_resigns() {
        let engine = game_with(&["C3"], 20);
        let resigns = |extra_margin, winrate, probe_winrate| {
            let mut report = hopeless(&engine);
            report.extra_margin = extra_margin;
            report.candidates[0].winrate = winrate;
            report.probe_winrate = probe_winrate;
            choose(&engine, Color::White, &report, Purpose::Play) == Choice::Resign
        };
        // Points given: the shifted win rate looks fine, the probe's decides.
        assert!(resigns(-6, 0.5, Some(0.05)));
        assert!(!resigns(-6, 0.5, Some(0.15)));
        assert!(!resigns(-6, 0.01, Some(0.15)));
        // Points asked: the game looked won when they were.
        assert!(!resigns(6, 0.01, Some(0.97)));
    }
}
