//! Search: what the GTP layer asks for a move, and how it is found.
//!
//! The GTP layer sees only [`Searcher::search`] with a [`SearchLimits`] and
//! a stop flag; it never hands the search its input stream. Progress
//! reports (for analysis streaming and GoGui) arrive through a callback.
//!
//! - `playout`: light random playouts (the default policy).
//! - `time`: turning GTP clock settings into a budget per move.
//! - `ownership`: who owns each point at the end of playouts (dead stones).
//! - `solver`: exact NoGo solving.

pub mod ownership;
pub mod playout;
pub mod solver;
pub mod time;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::SeedableRng;

use crate::board::{Color, Game, GameKind, Move, Point, Position};

pub use playout::{FastRng, PlayoutResult, light_playout};

/// When a search must stop (whichever comes first; the stop flag always wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Stop after this many playouts.
    pub playouts: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
}

/// Statistics of one candidate move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Playouts through this move.
    pub visits: u64,
    /// Share of those playouts won by the side to move, in [0, 1].
    pub winrate: f64,
    /// Prior probability the search gave the move before any playout, in [0, 1].
    pub prior: f64,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

/// What a search found, best candidate first.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// The side the search played for.
    pub to_move: Color,
    /// Root candidates, most visited first.
    pub candidates: Vec<Candidate>,
    /// Playouts run.
    pub playouts: u64,
    /// Time spent.
    pub elapsed: Duration,
}

impl SearchReport {
    /// The most visited candidate, if any move was legal.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }

    /// Win rate of the best candidate for the side to move (0.5 if none).
    pub fn winrate(&self) -> f64 {
        self.best().map_or(0.5, |c| c.winrate)
    }
}

/// What genmove should answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// Tunables of the search, with their defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Seed of the playout generator (fixed seeds make searches repeatable).
    pub seed: u64,
    /// UCB1 exploration constant.
    pub exploration: f64,
    /// Resign when the best move's win rate is below this.
    pub resign_threshold: f64,
    /// Never resign before this many moves have been played.
    pub resign_min_moves: usize,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            seed: 0x6b6f_7375_6d69,
            exploration: 0.7,
            resign_threshold: 0.1,
            resign_min_moves: 20,
        }
    }
}

/// How often a search without another limit checks the clock and the flag.
const CHECK_EVERY: u64 = 64;

/// The move finder. Holds its random generator, so successive searches
/// with the same seed and limits are reproducible.
pub struct Searcher {
    params: SearchParams,
    rng: FastRng,
}

impl Searcher {
    /// A searcher with these tunables.
    pub fn new(params: SearchParams) -> Searcher {
        let rng = FastRng::seed_from_u64(params.seed);
        Searcher { params, rng }
    }

    /// The tunables.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Searches the position of `game` for the side to move until a limit
    /// is reached or `stop` is set. `progress` is called about every
    /// `interval` with the report so far (never if `interval` is `None`).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        stop: &AtomicBool,
        interval: Option<Duration>,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let start = Instant::now();
        let root = game.position();
        let to_move = root.to_move();
        let mut arms: Vec<Arm> = root_moves(game)
            .into_iter()
            .map(|mv| Arm {
                mv,
                visits: 0,
                wins: 0.0,
            })
            .collect();
        let mut scratch = root.clone();
        let max_moves = 3 * root.geometry().area() as u32;
        let mut playouts = 0u64;
        let mut last_report = start;
        let unlimited = limits.playouts.is_none() && limits.time.is_none();
        while !arms.is_empty() {
            if limits.playouts.is_some_and(|n| playouts >= n) {
                break;
            }
            if playouts.is_multiple_of(CHECK_EVERY) {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let now = Instant::now();
                if limits.time.is_some_and(|t| now - start >= t) {
                    break;
                }
                if unlimited && playouts >= 10_000 {
                    break;
                }
                if let Some(every) = interval
                    && now - last_report >= every
                {
                    last_report = now;
                    progress(&report(to_move, &arms, playouts, now - start));
                }
            }
            let chosen = select_arm(&arms, playouts, self.params.exploration);
            scratch.copy_from(root);
            if let Move::Play(p) = arms[chosen].mv {
                scratch.play(p, to_move);
            } else {
                scratch.pass();
            }
            let result = light_playout(&mut scratch, game.komi(), max_moves, &mut self.rng);
            arms[chosen].visits += 1;
            arms[chosen].wins += match result.winner {
                Some(c) if c == to_move => 1.0,
                None => 0.5,
                Some(_) => 0.0,
            };
            playouts += 1;
        }
        report(to_move, &arms, playouts, start.elapsed())
    }

    /// Turns a report into genmove's answer: resign when hopeless (never in
    /// the opening), and in NoGo when no move is legal.
    pub fn decide(&self, game: &Game, report: &SearchReport) -> Decision {
        let Some(best) = report.best() else {
            return match game.kind() {
                GameKind::Go => Decision::Play(Move::Pass),
                GameKind::NoGo => Decision::Resign,
            };
        };
        if game.moves().len() >= self.params.resign_min_moves
            && best.visits > 0
            && best.winrate < self.params.resign_threshold
        {
            return Decision::Resign;
        }
        Decision::Play(best.mv)
    }
}

/// One root move's running statistics.
struct Arm {
    mv: Move,
    visits: u64,
    wins: f64,
}

/// UCB1 over the root moves; unvisited moves first.
fn select_arm(arms: &[Arm], total: u64, exploration: f64) -> usize {
    let log_total = ((total + 1) as f64).ln();
    let mut best = (f64::NEG_INFINITY, 0);
    for (k, arm) in arms.iter().enumerate() {
        if arm.visits == 0 {
            return k;
        }
        let n = arm.visits as f64;
        let value = arm.wins / n + exploration * (log_total / n).sqrt();
        if value > best.0 {
            best = (value, k);
        }
    }
    best.1
}

fn report(to_move: Color, arms: &[Arm], playouts: u64, elapsed: Duration) -> SearchReport {
    let prior = 1.0 / arms.len().max(1) as f64;
    let mut candidates: Vec<Candidate> = arms
        .iter()
        .map(|arm| Candidate {
            mv: arm.mv,
            visits: arm.visits,
            winrate: if arm.visits == 0 {
                0.0
            } else {
                arm.wins / arm.visits as f64
            },
            prior,
            pv: vec![arm.mv],
        })
        .collect();
    candidates.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    SearchReport {
        to_move,
        candidates,
        playouts,
        elapsed,
    }
}

/// The moves the search considers at the root: every legal move that does
/// not fill the mover's own eye, and in Go a pass.
fn root_moves(game: &Game) -> Vec<Move> {
    let position: &Position = game.position();
    let mover = position.to_move();
    let mut moves: Vec<Move> = position
        .empty_points()
        .iter()
        .map(|&p| Point(p))
        .filter(|&p| {
            (game.kind() == GameKind::NoGo || !position.is_eye(p, mover))
                && game.check_move(mover, Move::Play(p)).is_ok()
        })
        .map(Move::Play)
        .collect();
    moves.sort_unstable_by_key(|m| match m {
        Move::Play(p) => p.0,
        Move::Pass => 0,
    });
    if game.kind() == GameKind::Go {
        moves.push(Move::Pass);
    }
    moves
}
