//! `kosumi-solve`: the exact NoGo solver on the current position, run
//! interruptibly; `kosumi-regions`: the NoGo region decision (the sum of
//! the game values of the board's independent parts).

use std::sync::Arc;
use std::time::Duration;

use super::text;
use crate::board::{GameKind, Move, Point, Position};
use crate::gtp::args::parse_color;
use crate::gtp::engine::{Call, Engine, Response};
use crate::gtp::error::GtpError;
use crate::gtp::format::color_word;
use crate::gtp::parse;
use crate::nogo::regions::{MAX_REGION_AREA, RegionBudget, RegionDecision, RegionReport, decide};
use crate::nogo::solver::{SolveOptions, SolveOutcome};

/// Solves the current NoGo position for `COLOR` to move (default: the side
/// to move) within `SECONDS` (default 10): `black C3 D4` (the winner, then
/// the winning first moves of the side to move, if it is the winner),
/// `unknown` when time ran out before the winner was known. If it ran out
/// after, some moves are not classified: `black C3 unresolved D4 E5`, so
/// that a partial list is never mistaken for the whole winning set.
/// The solver runs on the search's threads. Progress goes to stderr.
pub(crate) fn kosumi_solve(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let (position, seconds) = nogo_question(
        engine,
        call,
        "the solver plays NoGo",
        crate::nogo::solver::MAX_SOLVER_AREA,
    )?;
    let outcome = engine.interruptible(call.watcher, |engine| {
        let options = SolveOptions {
            limit: Some(Duration::from_secs_f64(seconds)),
            stop: Some(Arc::clone(engine.player().interrupted())),
            // The search's threads: the answer does not depend on them.
            threads: engine.player().params().threads as usize,
            ..SolveOptions::default()
        };
        crate::nogo::solver::solve_with(&position, &options, &mut |progress| {
            log::info!(
                "solving: {} nodes, depth {}, {:.1} s",
                progress.nodes,
                progress.depth,
                progress.elapsed.as_secs_f64()
            );
        })
    });
    log::info!(
        "solved in {} nodes, {:.2} s",
        outcome.nodes,
        outcome.elapsed.as_secs_f64()
    );
    text(solve_reply(&outcome, |p| engine.move_text(Move::Play(p))))
}

/// The arguments of `kosumi-solve` and `kosumi-regions`, `[COLOR]
/// [SECONDS]` in either order: the current NoGo position with COLOR (by
/// default the side to move) to move, and the seconds (default 10, at
/// most a day). `not_nogo` is the error outside NoGo; boards over
/// `max_area` points are refused.
fn nogo_question(
    engine: &Engine,
    call: &Call,
    not_nogo: &'static str,
    max_area: usize,
) -> Result<(Position, f64), GtpError> {
    if call.args.len() > 2 {
        return Err(GtpError::Syntax);
    }
    let mut color = engine.game().to_move();
    let mut seconds = 10.0;
    for arg in call.args.iter() {
        match (parse_color(arg), parse::parse_float(arg)) {
            (Ok(c), _) => color = c,
            (_, Ok(s)) if s > 0.0 && s <= 86_400.0 => seconds = s,
            _ => return Err(GtpError::Syntax),
        }
    }
    if engine.game().kind() != GameKind::NoGo {
        return Err(GtpError::CannotSolve(not_nogo));
    }
    if engine.geometry().area() > max_area {
        return Err(GtpError::CannotSolve("board too large"));
    }
    let mut position = engine.game().position().clone();
    position.set_to_move(color);
    Ok((position, seconds))
}

/// The reply of `kosumi-solve` to `outcome`, moves written by `vertex`.
fn solve_reply(outcome: &SolveOutcome, vertex: impl Fn(Point) -> String) -> String {
    let Some(winner) = outcome.winner else {
        return "unknown".into();
    };
    let mut words = vec![color_word(winner).to_string()];
    words.extend(outcome.winning_moves.iter().map(|&p| vertex(p)));
    if !outcome.unresolved_moves.is_empty() {
        words.push("unresolved".into());
        words.extend(outcome.unresolved_moves.iter().map(|&p| vertex(p)));
    }
    words.join(" ")
}

/// Part positions `kosumi-regions` may value (its memos then hold some
/// 40 MiB; about 1.5 us a position).
const REGIONS_POSITIONS: u64 = 500_000;

/// Decides the current NoGo position for `COLOR` to move (default: the
/// side to move) by the values of its independent parts, within `SECONDS`
/// (default 10): `won D4` (a winning move), `lost` or `unknown`, then the
/// parts, the positions valued and the sum of the parts' values.
pub(crate) fn kosumi_regions(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let (position, seconds) = nogo_question(
        engine,
        call,
        "the region decision plays NoGo",
        MAX_REGION_AREA,
    )?;
    let deadline = std::time::Instant::now() + Duration::from_secs_f64(seconds);
    let budget = RegionBudget::new(REGIONS_POSITIONS, Some(deadline));
    let report = decide(&position, &budget);
    text(regions_reply(&report, |p| engine.move_text(Move::Play(p))))
}

/// The reply of `kosumi-regions` to `report`, moves written by `vertex`.
fn regions_reply(report: &RegionReport, vertex: impl Fn(Point) -> String) -> String {
    let decision = match &report.decision {
        RegionDecision::Won(p) => format!("won {}", vertex(*p)),
        RegionDecision::Lost(_) => "lost".into(),
        RegionDecision::Unknown => "unknown".into(),
    };
    format!(
        "{decision} parts {} contested {} largest {} positions {} sum {}",
        report.components,
        report.contested,
        report.largest,
        report.positions,
        report.value.as_deref().unwrap_or("unknown")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    /// A solve that ran out of time after finding the winner lists the
    /// moves it did not classify, apart from the winning ones.
    #[test]
    fn a_partial_solve_says_which_moves_are_unresolved() {
        use crate::nogo::solver::SolveStatus::{Complete, OutOfTime, WinnerOnly};
        let outcome = |winner, status, winning: &[u16], unresolved: &[u16]| SolveOutcome {
            winner,
            status,
            winning_moves: winning.iter().map(|&p| Point(p)).collect(),
            losing_moves: vec![Point(9)],
            unresolved_moves: unresolved.iter().map(|&p| Point(p)).collect(),
            nodes: 1,
            elapsed: Duration::ZERO,
        };
        let vertex = |p: Point| format!("p{}", p.0);
        let partial = outcome(Some(Color::White), WinnerOnly, &[3], &[5, 7]);
        assert_eq!(solve_reply(&partial, vertex), "white p3 unresolved p5 p7");
        let complete = outcome(Some(Color::Black), Complete, &[3, 4], &[]);
        assert_eq!(solve_reply(&complete, vertex), "black p3 p4");
        let unknown = outcome(None, OutOfTime, &[], &[3]);
        assert_eq!(solve_reply(&unknown, vertex), "unknown");
    }

    /// `kosumi-regions` on a board of two walled areas, lost for Black and
    /// won for White: the decision, the parts and the sum of their values.
    #[test]
    fn the_region_reply_names_the_win_and_the_parts() {
        let mut position = crate::board::Position::from_text(
            "..XO.
             ..XO.
             ..XO.
             ..XO.",
            GameKind::NoGo,
        )
        .unwrap();
        let budget = RegionBudget {
            positions: 10_000,
            work: 100_000,
            deadline: None,
        };
        let vertex = |p: Point| format!("p{}", p.0);
        let reply = regions_reply(&decide(&position, &budget), vertex);
        assert!(
            reply.starts_with("lost parts 2 contested 2 largest 8 "),
            "{reply}"
        );
        assert!(reply.ends_with(" sum {-1|{-1|-1}}"), "{reply}");
        position.set_to_move(Color::White);
        let reply = regions_reply(&decide(&position, &budget), vertex);
        assert!(reply.starts_with("won p"), "{reply}");
    }
}
