//! The one move decision: what genmove answers once it knows the game,
//! the searched candidates and what the move is for.
//!
//! - After a search, [`Player::choose`] takes the searcher's decision,
//!   checks it against the real game (the search may have run on a copy),
//!   resigns when the search says the game is hopeless, except for White
//!   in the opening of a handicap game, which looks lost from the start.
//! - A pass is replaced by a capture while the opponent has dead stones on
//!   the board (area scoring counts them for the opponent), unless
//!   `kgs-rules japanese` was given.
//! - Right after the opponent's pass, a won game needs no search
//!   ([`Player::decided_after_a_pass`]), and a pass that would end a game
//!   not won is left out of the search ([`Player::pass_may_end_the_game`]).

use super::Player;
use crate::board::{Bitboard, Color, Game, GameKind, Move, Outcome};
use crate::search::{Candidate, Proof, SearchParams, SearchReport};

/// Moves per handicap stone added to the opening in which White never
/// resigns a handicap game.
const HANDICAP_OPENING_MOVES: usize = 10;

/// What a generated move is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// genmove: the move is played.
    Play,
    /// reg_genmove: the move is only reported.
    Report,
    /// kgs-genmove_cleanup: played, never a pass while dead stones remain,
    /// never a resignation.
    Cleanup,
}

/// genmove's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Play(Move),
    Resign,
}

/// What the search's report says genmove should answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// The search's own answer, before the player checks it against the
/// real game: a proven win at once, never a proven loss if anything else
/// is left, a pass only when it does not lose on the board as it stands,
/// and resignation when hopeless (never in the opening nor under a dynamic
/// komi that asks points; in NoGo when no move is legal).
pub fn search_decision(params: &SearchParams, game: &Game, report: &SearchReport) -> Decision {
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
    if game_winrate.is_some_and(|winrate| winrate < params.resign_threshold)
        && game.moves().len() >= params.resign_min_moves
        && best.visits >= 100
    {
        return Decision::Resign;
    }
    Decision::Play(best.mv)
}

/// Whether the opponent's last move was a pass, in Go.
fn opponent_passed(game: &Game, color: Color) -> bool {
    game.kind() == GameKind::Go
        && game
            .moves()
            .last()
            .is_some_and(|&(who, mv)| who != color && mv == Move::Pass)
}

impl Player {
    /// Whether the rules allow passing with dead stones on the board.
    fn japanese_rules(&self) -> bool {
        self.settings.rules == "japanese"
    }

    /// Whether `color` may pass: not right after the opponent's pass
    /// (ending the game) unless the game is won as a scorer counts it, by
    /// area with the dead stones removed. The board as it stands may hold
    /// our dead stones in the opponent's area, which GNU Go and KGS remove.
    pub fn pass_may_end_the_game(&self, game: &Game, color: Color) -> bool {
        if !opponent_passed(game, color) || self.japanese_rules() {
            return true;
        }
        matches!(self.counted_outcome(game), Outcome::Win(winner, _) if winner == color)
    }

    /// After the opponent's pass, a game `color` has won needs no search: a
    /// pass ends it. Won means won both by area with the dead stones
    /// removed (GNU Go, KGS, GoGui) and by Tromp-Taylor as the board
    /// stands, every stone alive (CGOS). Where only the first holds, the
    /// opponent's dead stones in our area must go first: capture them,
    /// again without a search, so that a decided game costs no clock.
    /// `None`: search.
    pub fn decided_after_a_pass(
        &self,
        game: &Game,
        color: Color,
        purpose: Purpose,
    ) -> Option<Choice> {
        if purpose != Purpose::Play || !opponent_passed(game, color) {
            return None;
        }
        let won = |outcome: Outcome| matches!(outcome, Outcome::Win(winner, _) if winner == color);
        let dead = self.dead_stones(game, None);
        if !won(game.area_score_with_dead(&dead).outcome(game.komi())) {
            return None;
        }
        if self.japanese_rules() || won(game.area_score().outcome(game.komi())) {
            return Some(Choice::Play(Move::Pass));
        }
        let opponent_dead = dead.and(&game.position().stones(color.opponent()));
        if opponent_dead.is_empty() {
            return None;
        }
        Some(capture_or_pass(game, color, &[], &opponent_dead, purpose))
    }

    /// The move to answer: the search's decision, checked against the real
    /// game, with a pass replaced by a capture while the opponent has dead
    /// stones on the board (area scoring counts them for the opponent).
    pub fn choose(
        &self,
        game: &Game,
        color: Color,
        report: &SearchReport,
        purpose: Purpose,
    ) -> Choice {
        // White in a handicap game (set up, or sent as plain moves) looks
        // lost from the start, as intended: no resigning in the opening of
        // one.
        let handicap = game.handicap();
        let handicap_opening = color == Color::White
            && handicap > 0
            && game.moves().len()
                < self.params.resign_min_moves + HANDICAP_OPENING_MOVES * handicap;
        // The search's decision: proven wins first, no proven losses,
        // passes only when they do not lose on the board, resignation when
        // hopeless.
        let decision = search_decision(&self.params, game, report);
        if purpose != Purpose::Cleanup && !handicap_opening && decision == Decision::Resign {
            return Choice::Resign;
        }
        let legal = |mv: Move| game.check_move(color, mv).is_ok();
        let chosen = match decision {
            Decision::Play(mv) if legal(mv) => Some(mv),
            _ => report.candidates.iter().map(|c| c.mv).find(|&mv| legal(mv)),
        };
        match (chosen, game.kind()) {
            (Some(Move::Play(p)), _) => Choice::Play(Move::Play(p)),
            (_, GameKind::NoGo) => Choice::Resign,
            (_, GameKind::Go) => self.pass_or_capture(game, color, &report.candidates, purpose),
        }
    }

    /// Passes unless the opponent has dead stones to remove first.
    fn pass_or_capture(
        &self,
        game: &Game,
        color: Color,
        candidates: &[Candidate],
        purpose: Purpose,
    ) -> Choice {
        if purpose != Purpose::Cleanup && self.japanese_rules() {
            return Choice::Play(Move::Pass);
        }
        let dead = self.dead_stones(game, Some(color.opponent()));
        capture_or_pass(game, color, candidates, &dead, purpose)
    }
}

/// A move on a liberty of the opponent's `dead` stones, the searched
/// `candidates` first; a pass when there are none, or when no liberty can
/// be played (cleanup then plays a searched move if it has one).
fn capture_or_pass(
    game: &Game,
    color: Color,
    candidates: &[Candidate],
    dead: &Bitboard,
    purpose: Purpose,
) -> Choice {
    if dead.is_empty() {
        return Choice::Play(Move::Pass);
    }
    let position = game.position();
    let mut targets = Bitboard::EMPTY;
    for p in dead.iter() {
        targets = targets.or(&position.string_liberties(p));
    }
    let legal_point = |p| game.check_move(color, Move::Play(p)).is_ok();
    let searched: Vec<_> = candidates
        .iter()
        .filter_map(|c| match c.mv {
            Move::Play(p) if legal_point(p) => Some(p),
            _ => None,
        })
        .collect();
    // Unsearched, a liberty where our own stone would not stand in atari.
    let capture = searched
        .iter()
        .copied()
        .find(|&p| targets.contains(p))
        .or_else(|| {
            targets
                .iter()
                .find(|&p| legal_point(p) && !position.is_self_atari(p, color))
        })
        .or_else(|| targets.iter().find(|&p| legal_point(p)));
    match capture {
        Some(p) => Choice::Play(Move::Play(p)),
        // Cleanup must keep playing while dead stones stand; any
        // searched move will do until the liberties open up.
        None if purpose == Purpose::Cleanup => searched
            .first()
            .map_or(Choice::Play(Move::Pass), |&p| Choice::Play(Move::Play(p))),
        None => Choice::Play(Move::Pass),
    }
}
