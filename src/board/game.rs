//! The game record: what GTP and SGF talk to.
//!
//! A `Game` owns the current [`Position`] plus everything a position does
//! not know: setup stones (handicap, SGF AB/AW), the moves played, komi,
//! and the hashes of every position so far for positional superko. Undo
//! replays the record from the setup, which keeps the playout board free of
//! undo bookkeeping and costs microseconds.

use std::collections::HashSet;

use super::{
    AreaScore, Bitboard, BoardError, Color, GameKind, Geometry, Move, Point, Position,
    fixed_handicap_points,
};

/// Why a game-level request failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("illegal move: {0}")]
    Illegal(#[from] BoardError),
    #[error("cannot undo")]
    NothingToUndo,
    #[error("board not empty")]
    BoardNotEmpty,
    #[error("invalid number of stones")]
    BadHandicap,
}

/// A game in progress.
#[derive(Clone)]
pub struct Game {
    /// Go or NoGo.
    kind: GameKind,
    /// Points White receives at the end (Go).
    komi: f32,
    /// Stones placed before the first move; not undoable.
    setup: Vec<(Point, Color)>,
    /// Colour to move once the setup is in place.
    first_to_move: Color,
    /// The moves played, in order.
    moves: Vec<(Color, Move)>,
    /// The position now.
    position: Position,
    /// Board hash after the setup and after each move.
    history: Vec<u64>,
    /// The same hashes as a set, for superko look-ups.
    seen: HashSet<u64>,
}

impl Game {
    /// An empty board.
    pub fn new(geometry: Geometry, kind: GameKind, komi: f32) -> Game {
        let position = Position::new(geometry, kind);
        let start = position.hash();
        Game {
            kind,
            komi,
            setup: Vec::new(),
            first_to_move: Color::Black,
            moves: Vec::new(),
            position,
            history: vec![start],
            seen: HashSet::from([start]),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Board size.
    pub fn geometry(&self) -> Geometry {
        self.position.geometry()
    }

    /// Go or NoGo.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// Komi.
    pub fn komi(&self) -> f32 {
        self.komi
    }

    /// Sets komi (kept across clear_board and boardsize by the GTP layer).
    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }

    /// Colour to play next.
    pub fn to_move(&self) -> Color {
        self.position.to_move()
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// Setup stones (handicap and the like).
    pub fn setup(&self) -> &[(Point, Color)] {
        &self.setup
    }

    /// Number of handicap stones: Black setup stones placed on an otherwise
    /// empty board, or Black stones played before White's first move when a
    /// controller sends the handicap as plain `play`s.
    pub fn handicap(&self) -> usize {
        let stones = if self.setup.is_empty() {
            self.moves
                .iter()
                .take_while(|&&(c, m)| c == Color::Black && m != Move::Pass)
                .count()
        } else if self.setup.iter().all(|&(_, c)| c == Color::Black) {
            self.setup.len()
        } else {
            0
        };
        if stones >= 2 { stones } else { 0 }
    }

    /// Whether `color` may play `mv` now, and if not, why.
    pub fn check_move(&self, color: Color, mv: Move) -> Result<(), BoardError> {
        match mv {
            Move::Pass if self.kind == GameKind::NoGo => Err(BoardError::NoGoPass),
            Move::Pass => Ok(()),
            Move::Play(p) => {
                self.position.check_move(p, color)?;
                if self.kind == GameKind::Go {
                    let mut after = self.position.clone();
                    after.play(p, color);
                    if self.seen.contains(&after.hash()) {
                        return Err(BoardError::Superko);
                    }
                }
                Ok(())
            }
        }
    }

    /// Plays `mv` for `color` (either colour may move, as GTP allows).
    /// On error nothing changes.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), GameError> {
        self.check_move(color, mv)?;
        match mv {
            Move::Pass => {
                self.position.set_to_move(color);
                self.position.pass();
            }
            Move::Play(p) => {
                self.position.play(p, color);
            }
        }
        self.moves.push((color, mv));
        self.history.push(self.position.hash());
        self.seen.insert(self.position.hash());
        Ok(())
    }

    /// Takes back the last move; setup stones stay.
    pub fn undo(&mut self) -> Result<(), GameError> {
        if self.moves.pop().is_none() {
            return Err(GameError::NothingToUndo);
        }
        self.history.pop();
        self.seen = self.history.iter().copied().collect();
        self.rebuild_position();
        Ok(())
    }

    /// Puts setup stones on the board (handicap, SGF AB/AW). Allowed only
    /// before the first move; on error nothing changes.
    pub fn add_setup(&mut self, stones: &[(Point, Color)]) -> Result<(), GameError> {
        if !self.moves.is_empty() {
            return Err(GameError::BoardNotEmpty);
        }
        let mut trial = self.position.clone();
        for &(p, color) in stones {
            trial.place_setup_stone(p, color)?;
        }
        self.setup.extend_from_slice(stones);
        self.position = trial;
        self.reset_history();
        Ok(())
    }

    /// Sets who moves first after the setup (White after handicap).
    pub fn set_first_to_move(&mut self, color: Color) {
        self.first_to_move = color;
        if self.moves.is_empty() {
            self.position.set_to_move(color);
        }
    }

    /// Places `stones` fixed handicap stones on an empty board; White moves next.
    pub fn place_fixed_handicap(&mut self, stones: usize) -> Result<Vec<Point>, GameError> {
        if !self.moves.is_empty() || !self.setup.is_empty() {
            return Err(GameError::BoardNotEmpty);
        }
        let points =
            fixed_handicap_points(self.geometry(), stones).map_err(|_| GameError::BadHandicap)?;
        self.place_handicap(&points)?;
        Ok(points)
    }

    /// Places free handicap stones on an empty board; White moves next.
    pub fn place_handicap(&mut self, points: &[Point]) -> Result<(), GameError> {
        if !self.moves.is_empty() || !self.setup.is_empty() {
            return Err(GameError::BoardNotEmpty);
        }
        let mut distinct = points.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        if points.len() < 2 || distinct.len() != points.len() {
            return Err(GameError::BadHandicap);
        }
        if points.len() >= self.geometry().area() {
            return Err(GameError::BadHandicap);
        }
        let stones: Vec<(Point, Color)> = points.iter().map(|&p| (p, Color::Black)).collect();
        self.add_setup(&stones)?;
        self.set_first_to_move(Color::White);
        Ok(())
    }

    /// Tromp–Taylor area score of the current board.
    pub fn area_score(&self) -> AreaScore {
        self.position.area_score()
    }

    /// Area score with `dead` stones removed.
    pub fn area_score_with_dead(&self, dead: &Bitboard) -> AreaScore {
        self.position.area_score_with_dead(dead)
    }

    /// Whether the game has ended: two passes in a row (Go), or the side to
    /// move has no legal move (NoGo).
    pub fn is_over(&self) -> bool {
        match self.kind {
            GameKind::Go => self.position.consecutive_passes() >= 2,
            GameKind::NoGo => !self.position.has_legal_move(self.to_move()),
        }
    }

    fn reset_history(&mut self) {
        let start = self.position.hash();
        self.history = vec![start];
        self.seen = HashSet::from([start]);
    }

    fn rebuild_position(&mut self) {
        let mut position = Position::new(self.geometry(), self.kind);
        for &(p, color) in &self.setup {
            // The setup was accepted once; replaying it cannot fail.
            let placed = position.place_setup_stone(p, color);
            debug_assert!(placed.is_ok());
        }
        position.set_to_move(self.first_to_move);
        for &(color, mv) in &self.moves {
            match mv {
                Move::Pass => {
                    position.set_to_move(color);
                    position.pass();
                }
                Move::Play(p) => {
                    position.play(p, color);
                }
            }
        }
        self.position = position;
    }
}
