//! The one interface through which the search sees a game.
//!
//! The MCTS (`uct`, `select`, the search loop in `mod.rs`) knows no game:
//! it walks a tree of moves on a [`Position`] and asks a [`Domain`] what a
//! leaf's children are worth, how to finish a game from a leaf, when the
//! tree itself ended the game, and what to settle at the root before any
//! playout. `crate::go::GoDomain` and `crate::nogo::NogoDomain` implement
//! it; [`crate::search::Searcher::search`] picks one per search, so inside
//! the search every call is static and the game is never asked again.

use std::time::Instant;

use crate::board::{Bitboard, Color, Game, GameKind, Move, Point, Position};

use super::params::SearchParams;
use super::playout::FastRng;
use super::tree::{Node, Tree};
use super::uct::Shared;
use super::{SearchLimits, SearchReport};

/// Virtual playouts of a prior: `visits`, of which `wins` half points won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prior {
    pub visits: u32,
    pub wins: u32,
}

impl Prior {
    /// `n` playouts at 50%.
    pub fn even(n: u32) -> Prior {
        Prior { visits: n, wins: n }
    }

    pub fn won(&mut self, n: u32) {
        self.visits += n;
        self.wins += 2 * n;
    }

    pub fn lost(&mut self, n: u32) {
        self.visits += n;
    }

    /// `n` virtual playouts judged by a learned model: the move wins the
    /// share `ratio ^ exponent`, `ratio` being its strength over the
    /// strongest sibling's (in (0, 1]).
    pub fn learned(&mut self, n: u32, exponent: f64, ratio: f32) {
        // The common exponent takes a square root: `powf`, paid for every
        // candidate of every expansion, was 1% of a 9x9 search's instructions.
        let share = if exponent == 0.5 {
            ratio.sqrt()
        } else {
            ratio.powf(exponent as f32)
        };
        self.visits += n;
        self.wins += (share * 2.0 * n as f32 + 0.5) as u32;
    }

    /// As stored in a node (visits capped to 16 bits).
    pub fn to_node(self) -> (u16, u32) {
        let visits = self.visits.min(u16::MAX as u32);
        (visits as u16, self.wins.min(2 * visits))
    }
}

/// The last two moves before a position, where they were stones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecentMoves {
    /// The opponent's last stone.
    pub last: Option<Point>,
    /// The mover's own stone before it.
    pub before_last: Option<Point>,
}

/// Where a leaf being expanded stands: the moves before it, and its
/// distance from the root in moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Leaf {
    pub recent: RecentMoves,
    pub depth: usize,
}

/// How a playout from a leaf ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutEnd {
    /// The winner (`None`: a draw, or a result blended into one).
    pub winner: Option<Color>,
    /// Whether the game was played to its end (not stopped by a mercy
    /// rule), so that the final board says who owns each point.
    pub finished: bool,
    /// Go: Black's margin at the real komi.
    pub black_margin: Option<f32>,
}

/// What a game settles at the root before the playouts start.
pub enum RootPlan {
    /// Nothing settled: search every legal move.
    Open,
    /// A proven win, to play at once without a search.
    Won(SearchReport),
    /// Root moves proven to lose; the playouts look at the others.
    Losing(Vec<Point>),
}

/// A game as the search sees it. Every method is static: a search is
/// monomorphised for its game.
pub trait Domain: 'static {
    /// A search thread's own playout state (candidate lists and the like).
    type Scratch: Default + Send;
    /// What the game keeps from one search to the next (say, an exact
    /// solver's table).
    type Memory: Default + Send + Sync + 'static;

    /// Whether playouts end with a score: dynamic komi, per-move score
    /// leads and criticality run only then.
    const SCORED: bool;
    /// Whether passing is a move (always the last child of a node).
    const HAS_PASS: bool;
    /// Whether the exploration bonus is scaled by the real statistics'
    /// share of the RAVE blend (see `select`) instead of added whole.
    const SHARED_EXPLORATION: bool;

    /// The game, for the tunables that differ between games.
    const KIND: GameKind;

    /// The UCT exploration constant.
    fn exploration(params: &SearchParams) -> f64 {
        params.exploration_for(Self::KIND)
    }
    /// RAVE's equivalence on a board of `area` points.
    fn rave_equivalence(params: &SearchParams, area: usize) -> f64 {
        params.rave_equivalence_for(Self::KIND, area)
    }
    /// Playouts a leaf needs before it is expanded on a board of `area` points.
    fn expand_threshold(params: &SearchParams, area: usize) -> u32 {
        params.expand_threshold(Self::KIND, area)
    }

    /// The moves the search considers at the root of `game`: the legal
    /// tree candidates in point order, and a pass last where passing is a
    /// move.
    fn root_moves(game: &Game) -> Vec<Move> {
        let position = game.position();
        let mover = position.to_move();
        let mut points: Vec<Point> = position
            .empty_points()
            .iter()
            .map(|&p| Point(p))
            .filter(|&p| {
                Self::tree_candidate(position, p, mover)
                    && game.check_move(mover, Move::Play(p)).is_ok()
            })
            .collect();
        points.sort_unstable_by_key(|p| p.0);
        let mut moves: Vec<Move> = points.into_iter().map(Move::Play).collect();
        if Self::HAS_PASS {
            moves.push(Move::Pass);
        }
        moves
    }
    /// Whether the legal move `p` is worth a child in the tree.
    fn tree_candidate(position: &Position, p: Point, mover: Color) -> bool;
    /// The points that get a child at a leaf of `position`: legal for the
    /// side to move and tree candidates. A bit set, so that they read in
    /// grid order (cheaper than sorting the unordered empties list).
    fn tree_points(position: &Position) -> Bitboard {
        let mover = position.to_move();
        let mut points = Bitboard::EMPTY;
        for &p in position.empty_points() {
            let p = Point(p);
            if position.is_legal_empty(p, mover) && Self::tree_candidate(position, p, mover) {
                points.set(p);
            }
        }
        points
    }
    /// Gives a new leaf's `children` their moves and priors: `moves` in
    /// order, then the pass where passing is a move. `prior_board` is
    /// scratch space for priors that play a move out.
    fn rate_children(
        shared: &Shared,
        position: &Position,
        leaf: Leaf,
        moves: &[Point],
        prior_board: &mut Position,
        children: &[Node],
    );
    /// Whether the tree's last move ended the game: the winner and Black's
    /// margin at the real komi. `komi` is the one the search scores at.
    fn ended_in_tree(
        position: &Position,
        komi: f32,
        real_komi: f32,
    ) -> Option<(Option<Color>, f32)>;
    /// Finishes the game from a leaf; `record` sees every stone played.
    fn play_out(
        shared: &Shared,
        scratch: &mut Self::Scratch,
        position: &mut Position,
        last: Option<Point>,
        rng: &mut FastRng,
        record: impl FnMut(Point, Color),
    ) -> PlayoutEnd;

    /// Priors the root's moves get from reading done once a search
    /// (`recent`: the stones that led to the root).
    fn root_priors(
        params: &SearchParams,
        position: &Position,
        recent: RecentMoves,
        limits: &SearchLimits,
    ) -> Vec<(Point, Prior)>;
    /// Priors for the moves of a tree node below the root once its
    /// playouts reach `SearchParams::deep_reading_visits`: the reading the
    /// root gets, for the positions the search keeps coming back to.
    /// `last` is the move into the node.
    fn deep_priors(params: &SearchParams, position: &Position, last: Point) -> Vec<(Point, Prior)>;
    /// What to settle at the root before the playouts (`legal` are the
    /// root moves), and until when to verify candidates after them, if the
    /// playouts are to stop early for that: then the share of the time
    /// they keep.
    fn plan_root(
        memory: &mut Self::Memory,
        game: &Game,
        legal: &[Move],
        limits: &SearchLimits,
        start: Instant,
    ) -> (RootPlan, Option<(Instant, f64)>);
    /// Checks the root's most visited moves until `deadline`, marking those
    /// proven won or lost in `tree`.
    fn verify(memory: &mut Self::Memory, tree: &Tree, root: &Position, deadline: Instant);
}
