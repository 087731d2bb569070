//! Turning a search's report into genmove's answer.

use crate::board::{Game, GameKind, Move, Outcome};

use super::Searcher;
use super::report::{Candidate, Decision, Proof, SearchReport};

impl Searcher {
    /// Turns a report into genmove's answer: a proven win at once, never a
    /// proven loss if anything else is left, a pass only when it does not
    /// lose on the board as it stands, and resignation when hopeless (never
    /// in the opening nor under a dynamic komi that asks points; in NoGo
    /// when no move is legal).
    pub fn decide(&self, game: &Game, report: &SearchReport) -> Decision {
        let mover = report.to_move;
        if report.candidates.is_empty() {
            return match game.kind() {
                GameKind::Go => Decision::Play(Move::Pass),
                GameKind::NoGo => Decision::Resign,
            };
        }
        if let Some(win) = report.candidates.iter().find(|c| c.proof == Proof::Win) {
            return Decision::Play(win.mv);
        }
        let mut choices: Vec<&Candidate> = report
            .candidates
            .iter()
            .filter(|c| c.proof != Proof::Loss)
            .collect();
        if choices.is_empty() {
            choices = report.candidates.iter().collect();
        }
        if game.kind() == GameKind::Go {
            let board_wins = match game.area_score().outcome(game.komi()) {
                Outcome::Win(color, _) => color == mover,
                Outcome::Draw => false,
            };
            let opponent_passed = game.moves().last().is_some_and(|&(_, m)| m == Move::Pass);
            let pass_searched = report.candidates.iter().any(|c| c.mv == Move::Pass);
            if opponent_passed && board_wins && pass_searched {
                return Decision::Play(Move::Pass);
            }
            if !board_wins && choices.len() > 1 {
                choices.retain(|c| c.mv != Move::Pass);
            }
        }
        let best = choices[0];
        // Under a dynamic komi the candidates' win rates are not the
        // game's: with points asked the game looked won when they were;
        // with points given the probe's win rate is the game's.
        let game_winrate = match report.extra_margin {
            0 => Some(best.winrate),
            extra if extra < 0 => report.probe_winrate,
            _ => None,
        };
        if game_winrate.is_some_and(|winrate| winrate < self.params.resign_threshold)
            && game.moves().len() >= self.params.resign_min_moves
            && best.visits >= 100
        {
            return Decision::Resign;
        }
        Decision::Play(best.mv)
    }
}
