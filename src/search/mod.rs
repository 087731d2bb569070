//! Search: what the GTP layer asks for a move, and how it is found.
//!
//! The GTP layer sees only [`Searcher::search`] with a [`SearchLimits`] and
//! a stop flag; it never hands the search its input stream. Progress
//! reports (for analysis streaming and GoGui) arrive through a callback.
//!
//! - `tree`, `uct`: the MCTS tree and one simulation (UCT + RAVE + solver,
//!   with the root moves' criticality in their AMAF values).
//! - `params`: every tunable in one table.
//! - `playout`: light random playouts (the default policy) and the
//!   playouts' random numbers.
//! - `dyn_komi`: the margins playouts end with, for dynamic komi.
//!
//! Go's knowledge (priors, heavy playouts, reading) is in `crate::go`,
//! NoGo's and its exact solver in `crate::nogo`.

pub mod dyn_komi;
pub mod params;
pub mod playout;
pub mod tree;
mod uct;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::SeedableRng;

use crate::board::{Bitboard, Color, Game, GameKind, Geometry, Move, Outcome, Point, Position};

use crate::go::features::RecentMoves;
use crate::go::prior;
use crate::nogo::solver;
pub use params::{PARAM_TABLE, ParamError, SearchParams};
pub use playout::{FastRng, PlayoutResult, light_playout};
use tree::{NodeId, PROVEN_LOSS, PROVEN_WIN, ROOT, Tree, UNPROVEN};

/// The 95% Wilson score interval of a win rate `share` over `trials`
/// (more than zero), clamped to [0, 1]: narrow for many trials, wide and
/// away from 0 and 1 for few. Search reports and match tools both use it.
pub fn wilson_interval(share: f64, trials: f64) -> (f64, f64) {
    const Z: f64 = 1.96;
    let z2 = Z * Z;
    let centre = share + z2 / (2.0 * trials);
    let spread = Z * (share * (1.0 - share) / trials + z2 / (4.0 * trials * trials)).sqrt();
    let scale = 1.0 + z2 / trials;
    (
        ((centre - spread) / scale).clamp(0.0, 1.0),
        ((centre + spread) / scale).clamp(0.0, 1.0),
    )
}

/// The stone played `back` moves before the game's last (0: the last
/// move), or `None` for a pass or before the game's start.
pub(crate) fn stone_before(game: &Game, back: usize) -> Option<Point> {
    match game.moves().iter().rev().nth(back) {
        Some(&(_, Move::Play(p))) => Some(p),
        _ => None,
    }
}

/// When a search must stop (whichever comes first; the stop flag always
/// wins), and what it is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Stop after this many playouts.
    pub playouts: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
    /// Go: a clearly won position is searched demanding a bigger margin
    /// (see `dyn_komi`). Set for moves to play; analysis reports the win
    /// rates at the real komi.
    pub dynamic_komi: bool,
    /// Stop once the most visited move can no longer be overtaken in the
    /// time left. Worth it only where the time saved is spent later (see
    /// `Clock::keeps_unused_time`); otherwise playing on grows the tree the
    /// next move reuses.
    pub stop_when_decided: bool,
    /// Go: whether passing is a move at the root. A caller that found a
    /// pass would end the game without winning it as a scorer counts it
    /// (the raw board still holding our dead stones) rules it out.
    pub may_pass: bool,
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
    /// Go: the side to move's mean margin at the real komi over this
    /// search's playouts through the move (`None` before any, and in NoGo).
    pub score_lead: Option<f64>,
    /// Whether the solver proved the move won or lost.
    pub proof: Proof,
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
    /// Points beyond komi the search asked of the side to move (the
    /// dynamic komi: positive in a won position, negative, points given,
    /// in a lost one; 0 when none), under which `candidates`' win rates are.
    pub extra_margin: i32,
    /// Under a dynamic komi, the best win rate the probe found at the
    /// real komi before the komi moved.
    pub probe_winrate: Option<f64>,
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

/// How often (in playouts) the main search thread adds its playouts to the
/// shared count, checks limits and reports.
const CHECK_EVERY: u64 = 32;

/// Playouts a helper thread runs between updates of the shared count.
const HELPER_COUNT_BATCH: u64 = 16;

/// Most playouts the root may count, a reused tree's included: the search
/// stops there whatever its limits. A node's counts are 32-bit words: wins
/// are kept in half points, the AMAF wins share a word with the AMAF count
/// (they carry into it past 2^31 playouts), and `select` converts counts
/// as signed. No node counts more playouts than the root (plus its prior,
/// below 2^16), so a ceiling 2^20 short of 2^30, a margin for the priors
/// and for the playouts other threads run between two checks, keeps every
/// win count below 2^31. Only a long analysis or ponder on many threads
/// gets there (about 9 minutes at 2 million playouts a second).
const ROOT_VISIT_CEILING: u32 = (1 << 30) - (1 << 20);

/// Playouts for a search given neither a playout nor a time limit.
const UNLIMITED_FALLBACK_PLAYOUTS: u64 = 10_000;

/// NoGo: under a time limit the exact solver is tried when at most this
/// many points are legal for either side and it may spend 200 ms, one point
/// more for each doubling of its time. On Kosumi's positions of 40 games
/// against HaHaNoGo (170 ms a solve, 32 MiB table kept from move to move)
/// it finished 8 times in 8 at 20 points, 10 in 15 at 21 and 11 in 14 at
/// 22; with a fresh table each time, 15 in 29 at 21 and 22 points against
/// 18 in 29 with the kept one, run side by side. A solve that does not
/// finish costs the playouts only its share of the time. With the solver's
/// incremental look-ahead (about twice as fast on 9x9 endgames) the same
/// test finished 12 in 15 at 21 points and 13 in 14 at 22, but only 4 in
/// 15 at 23 and at 24: one point more would mostly waste the solver's share.
const SOLVER_EITHER_LEGAL_AT_200_MS: u32 = 23;

/// NoGo: without a time limit, the solver runs (to the end) only when at
/// most this many points are legal for either side: 9x9 endgames take at
/// most 80 ms, the empty 4x4 board (the worst case) about 0.3 s.
const SOLVER_EITHER_LEGAL_UNTIMED: usize = 16;

/// NoGo: share of the move's time the solver may use.
const SOLVER_TIME_SHARE: f64 = 0.4;

/// NoGo: one to this many points beyond the solver's reach, the search
/// stops its playouts at [`VERIFY_PLAYOUT_SHARE`] of the time and spends
/// the rest asking the solver about its most visited moves in turn: a move
/// proven to win is played, one proven to lose is passed over. Of 15 games
/// lost to HaHaNoGo (solved afterwards, 20 s a position), 3 were still won
/// at 24 points and thrown away there or soon after by a move the playouts
/// liked (and one more between 27 and 25 points). On 57 solved decisions
/// at 23 to 26 points from real games, at the match clock (0.58 s a move),
/// 3 seeds: 155 of 171 moves won against 151 without; half or 70% of the
/// time for the playouts made no difference (155, 154, 154).
const VERIFY_EXTRA_POINTS: usize = 4;

/// NoGo: share of the move's time the playouts keep when the search
/// verifies its candidates.
const VERIFY_PLAYOUT_SHARE: f64 = 0.5;

/// Where a move's search stands with its dynamic komi (see `dyn_komi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KomiPhase {
    /// Searching at the real komi, counting the playouts' margins, until
    /// the first checkpoint.
    Probe,
    /// Searching a new tree under the dynamic komi, until the second
    /// checkpoint shows whether the margin asked is within reach.
    Shifted,
    /// The komi is settled for the rest of the search.
    Settled,
}

/// The tree a search runs on and the komi it scores playouts at, with the
/// probe's tree kept while a dynamic komi is on trial.
struct KomiState {
    /// The tree being searched.
    tree: Tree,
    /// Its root moves' playout margins in this search.
    scores: uct::RootScores,
    /// The komi the playouts are scored at.
    komi: f32,
    /// Points asked (positive) or given (negative) on top of the real komi.
    extra_margin: i32,
    /// The probe's best win rate at the real komi, once a margin is set.
    probe_winrate: Option<f64>,
    /// The probe's tree and its root moves' margins, kept until the margin
    /// has proved within reach.
    probe_tree: Option<(Tree, uct::RootScores)>,
}

impl KomiState {
    /// Searching `tree`, whose root has at most `children` children, at
    /// the real komi.
    fn real(tree: Tree, komi: f32, children: usize) -> KomiState {
        KomiState {
            tree,
            scores: uct::RootScores::new(children),
            komi,
            extra_margin: 0,
            probe_winrate: None,
            probe_tree: None,
        }
    }

    /// Sets `extra` points (asked or given) on the real komi, and a new tree
    /// to search them on; the probe's tree is kept.
    fn shift(&mut self, extra: i32, komi: f32, probe_winrate: f64, new_tree: Tree) {
        self.extra_margin = extra;
        self.komi = komi;
        self.probe_winrate = Some(probe_winrate);
        let children = self.scores.children();
        self.probe_tree = Some((
            std::mem::replace(&mut self.tree, new_tree),
            std::mem::replace(&mut self.scores, uct::RootScores::new(children)),
        ));
    }

    /// Why the points asked must go, if they must: the search under them
    /// wins less than `dyn_komi_floor`, or the move it prefers is a gamble
    /// for the margin, one that the probe's tree at the real komi rates
    /// more than `dyn_komi_tolerance` below its own best. Points given never
    /// go: the search then plays to lose by as little as it can.
    fn asked_margin_fault(&self, mover: Color, params: &SearchParams) -> Option<String> {
        let (probe, _) = self.probe_tree.as_ref().filter(|_| self.extra_margin > 0)?;
        let shifted = report(&self.tree, None, mover, 0, Duration::ZERO, 0);
        let winrate = shifted.winrate();
        if winrate < params.dyn_komi_floor {
            return Some(format!("won {winrate:.3} of the time"));
        }
        let choice = shifted.best()?;
        let real = report(probe, None, mover, 0, Duration::ZERO, 0);
        let best = real.best()?;
        let rated = real
            .candidates
            .iter()
            .find(|c| c.mv == choice.mv && c.visits >= GAMBLE_MIN_VISITS)?;
        // The move's rate, raised by one standard error: a move the probe
        // barely tried counts as a gamble only when it did clearly badly.
        let p = rated.winrate;
        let upper = p + (p * (1.0 - p) / rated.visits as f64).sqrt();
        (best.winrate - upper > params.dyn_komi_tolerance).then(|| {
            format!(
                "led to a gamble, rated {:.3} at the real komi against {:.3}",
                rated.winrate, best.winrate
            )
        })
    }

    /// Drops the margin and goes back to the probe's tree at `real_komi`.
    fn back_to_probe(&mut self, real_komi: f32) {
        if let Some((tree, scores)) = self.probe_tree.take() {
            self.tree = tree;
            self.scores = scores;
            self.komi = real_komi;
            self.extra_margin = 0;
            self.probe_winrate = None;
        }
    }
}

/// A point in a search's budget: after this many playouts or this much time.
#[derive(Clone, Copy, Debug)]
struct Checkpoint {
    playouts: Option<u64>,
    time: Option<Duration>,
}

impl Checkpoint {
    /// `share` of the search's budget.
    fn share_of(playout_cap: Option<u64>, time: Option<Duration>, share: f64) -> Checkpoint {
        Checkpoint {
            playouts: playout_cap.map(|cap| (cap as f64 * share) as u64),
            time: time.map(|t| t.mul_f64(share)),
        }
    }

    fn reached(&self, playouts: u64, elapsed: Duration) -> bool {
        self.playouts.is_some_and(|n| playouts >= n) || self.time.is_some_and(|t| elapsed >= t)
    }
}

/// Expands a root new to this search and gives its children what the
/// search knows before any playout: the root reading's priors, and proven
/// losses from the NoGo solver (the MCTS-solver passes over them).
fn prepare_root(
    shared: &uct::Shared,
    legal: &[Move],
    reading_priors: &[(Point, prior::Prior)],
    proven_losing: &[Point],
) {
    let tree = shared.tree;
    if !legal.is_empty() {
        let mut prior_board = shared.root.clone();
        uct::expand(
            shared,
            ROOT,
            shared.root,
            shared.root_recent,
            &mut prior_board,
        );
    }
    // A fresh tree always has room for the root's children.
    let (first, count) = tree.node(ROOT).children();
    for child in tree.block(first, count) {
        if let Move::Play(p) = child.mv()
            && proven_losing.contains(&p)
        {
            child.set_proof(PROVEN_LOSS);
        }
    }
    for &(p, prior) in reading_priors {
        if let Some(child) = tree
            .block(first, count)
            .iter()
            .find(|c| c.mv() == Move::Play(p))
        {
            // A reused child's playouts ran before the reading found its
            // move futile (a loose ladder the playouts escape): they would
            // keep it the most played move whatever its prior says.
            if prior.wins == 0 && child.proof() == UNPROVEN {
                child.forget_playouts();
            }
            let (visits, wins) = prior.to_node();
            child.add_prior(visits, wins);
        }
    }
}

/// NoGo: transposition table of an in-game solve, in MiB.
const SOLVER_TABLE_MB: usize = 32;

/// Moves that may be replayed from the previous search's tree before it is
/// thrown away instead of reused.
const MAX_REUSE_DEPTH: usize = 4;

/// Shortest time limit for which the root's tactical reading runs (it
/// takes about 10 ms on a typical 19x19 position, up to 100 ms or so):
/// below it, in time trouble, the search gets all the time.
const ROOT_READING_MIN_TIME: Duration = Duration::from_millis(250);

/// Playouts the probe's tree must have spent on a move before it may call
/// the move a gamble for a margin asked (see `dyn_komi_tolerance`); the
/// standard error the check allows covers the noise of few playouts.
const GAMBLE_MIN_VISITS: u64 = 10;

/// The tree kept from the last search, for reuse.
struct KeptTree {
    tree: Tree,
    /// The game record the tree's root stands for.
    moves: Vec<(Color, Move)>,
    setup: Vec<(Point, Color)>,
    geometry: Geometry,
    kind: GameKind,
    komi: f32,
    /// Side to move at the root.
    to_move: Color,
}

/// What the in-game NoGo solver settled before the playouts start.
enum Endgame {
    /// Not tried, or nothing proven that changes the search.
    Open,
    /// A proven win: genmove plays it at once.
    Won(SearchReport),
    /// Root moves proven to lose while others are still unresolved.
    Losing(Vec<Point>),
}

/// The move finder: MCTS with UCT and RAVE over a shared tree. Keeps the
/// tree between moves, and its seed, so that one-thread searches with the
/// same seed and limits are reproducible.
pub struct Searcher {
    params: SearchParams,
    kept: Option<KeptTree>,
    /// The in-game NoGo solver's transposition table, kept between moves.
    solver_table: solver::KeptTable,
    /// Searches run so far (each seeds its workers from this).
    searches: u64,
}

impl Searcher {
    /// A searcher with these tunables.
    pub fn new(params: SearchParams) -> Searcher {
        Searcher {
            params,
            kept: None,
            solver_table: solver::KeptTable::default(),
            searches: 0,
        }
    }

    /// The tunables.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Changes the tunables and keeps the tree for the next search: its
    /// statistics stay true under new tunables. A new seed starts afresh
    /// (no kept tree, the search count back to 0), so that a seed set in
    /// the middle of a session gives the same searches as at its start.
    pub fn set_params(&mut self, params: SearchParams) {
        if params.seed != self.params.seed {
            *self = Searcher::new(params);
        } else {
            self.params = params;
        }
    }

    /// Nodes in the kept tree.
    pub fn tree_size(&self) -> usize {
        self.kept.as_ref().map_or(0, |k| k.tree.len())
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
        let max_bytes = self.params.max_tree_mb as usize * (1 << 20);
        let tree = self
            .reusable_tree(game, max_bytes)
            .unwrap_or_else(|| Tree::new(max_bytes));
        let root = game.position();
        let mover = root.to_move();
        let legal: Vec<Move> = root_moves(game);
        let solvable = solvable_points(game, &legal);
        let endgame = solvable.map_or(Endgame::Open, |points| {
            self.solve_endgame(root, points, limits, start)
        });
        let proven_losing = match endgame {
            Endgame::Won(report) => return report,
            Endgame::Losing(moves) => moves,
            Endgame::Open => Vec::new(),
        };
        let verify_until = solvable.and_then(|points| verification_deadline(points, limits, start));
        // The playouts' own limits: less time when candidates are verified.
        let limits = &match verify_until {
            Some(_) => SearchLimits {
                time: limits.time.map(|t| t.mul_f64(VERIFY_PLAYOUT_SHARE)),
                ..*limits
            },
            None => *limits,
        };
        let mut root_excluded = Bitboard::EMPTY;
        for p in root.empty_points().iter().map(|&p| Point(p)) {
            if !legal.contains(&Move::Play(p)) {
                root_excluded.set(p);
            }
        }
        let reading_priors = if limits.time.is_none_or(|t| t >= ROOT_READING_MIN_TIME) {
            prior::root_reading_priors(&self.params, root, mover)
        } else {
            Vec::new()
        };
        let seed = self.params.seed ^ self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.searches += 1;
        let playout_cap = match (limits.playouts, limits.time) {
            (None, None) => Some(UNLIMITED_FALLBACK_PLAYOUTS),
            (cap, _) => cap,
        };
        // The dynamic komi's probe: the first share of the budget is
        // searched at the real komi, counting the playouts' margins.
        let share = self.params.dyn_komi_probe;
        let mut phase = if limits.dynamic_komi
            && root.kind() == GameKind::Go
            && self.params.dyn_komi_trigger <= 1.0
            && !legal.is_empty()
        {
            KomiPhase::Probe
        } else {
            KomiPhase::Settled
        };
        let mut next_checkpoint = Checkpoint::share_of(playout_cap, limits.time, share);
        let tally = dyn_komi::MarginTally::new(root.geometry().area(), game.komi());
        let mut state = KomiState::real(tree, game.komi(), root.geometry().area() + 1);
        // Whether `tree`'s root still needs this search's expansion and priors.
        let mut fresh_root = true;
        let done = AtomicU64::new(0);
        // The playouts' own start: an unfinished solve or the reading must
        // not count as time they ran, or their rate looks low and a reused
        // tree may stop the search at once as "decided".
        let playouts_start = Instant::now();
        let threads = self.params.threads.max(1) as usize;
        // Workers outlive the probe, so that their random numbers go on
        // where they stopped.
        let mut worker = uct::Worker::new(root, FastRng::seed_from_u64(seed));
        let mut helpers: Vec<uct::Worker> = (1..threads)
            .map(|helper| {
                uct::Worker::new(
                    root,
                    FastRng::seed_from_u64(seed.wrapping_add(helper as u64)),
                )
            })
            .collect();
        loop {
            let criticality = (root.kind() == GameKind::Go && self.params.criticality != 0.0)
                .then(|| uct::RootCriticality::new(root.geometry().area() + 1));
            let mut shared = uct::Shared {
                tree: &state.tree,
                root,
                komi: state.komi,
                params: &self.params,
                root_excluded,
                root_may_pass: limits.may_pass && legal.contains(&Move::Pass),
                root_has_excluded: false,
                root_recent: RecentMoves {
                    last: stone_before(game, 0),
                    before_last: stone_before(game, 1),
                },
                expand_threshold: self
                    .params
                    .expand_threshold(root.kind(), root.geometry().area()),
                inverse_rave_equivalence: (1.0
                    / self
                        .params
                        .rave_equivalence_for(root.kind(), root.geometry().area()))
                    as f32,
                margins: (phase == KomiPhase::Probe).then_some(&tally),
                criticality: criticality.as_ref(),
                scores: (root.kind() == GameKind::Go).then_some(&state.scores),
                real_komi: game.komi(),
            };
            if fresh_root {
                prepare_root(&shared, &legal, &reading_priors, &proven_losing);
                fresh_root = false;
            }
            let (first, count) = state.tree.node(ROOT).children();
            shared.root_has_excluded = state
                .tree
                .block(first, count)
                .iter()
                .any(|child| uct::excluded_at_root(&shared, child.mv()));
            let run = Run {
                limits,
                playout_cap,
                stop,
                start,
                playouts_start,
                interval,
                done: &done,
                extra_margin: state.extra_margin,
            };
            let checkpoint = (phase != KomiPhase::Settled).then_some(next_checkpoint);
            // No legal move: nothing to play out.
            let checkpoint_reached = !legal.is_empty()
                && run_playouts(
                    &run,
                    &shared,
                    &mut worker,
                    &mut helpers,
                    checkpoint,
                    progress,
                );
            // A search that ends early (a clear best move, time, a stop)
            // under a margin asked still checks that margin against the
            // floor: it must not play a move that only looked best there.
            if !checkpoint_reached && phase != KomiPhase::Shifted {
                break;
            }
            let winrate = report(&state.tree, None, mover, 0, start.elapsed(), 0).winrate();
            let playouts = done.load(Ordering::Relaxed);
            match phase {
                KomiPhase::Probe => {
                    phase = KomiPhase::Settled;
                    // A lost position is given as many points as its
                    // playouts need to win as often as a won one's keep.
                    let extra = if winrate > self.params.dyn_komi_trigger {
                        tally.extra_margin(mover, self.params.dyn_komi_target) as i32
                    } else if winrate < self.params.dyn_komi_losing {
                        let most = self.params.dyn_komi_most_given * root.geometry().area() as f64;
                        tally
                            .concession(mover, 1.0 - self.params.dyn_komi_target, most as u32)
                            .map_or(0, |given| -(given as i32))
                    } else {
                        0
                    };
                    if extra != 0 {
                        log::info!(
                            "dynamic komi: win rate {winrate:.3} after {playouts} playouts, {}",
                            dyn_komi::describe(extra)
                        );
                        state.shift(
                            extra,
                            dyn_komi::shifted_komi(game.komi(), mover, extra),
                            winrate,
                            Tree::new(max_bytes),
                        );
                        fresh_root = true;
                        phase = KomiPhase::Shifted;
                        next_checkpoint =
                            Checkpoint::share_of(playout_cap, limits.time, 2.0 * share);
                    }
                }
                KomiPhase::Shifted => {
                    phase = KomiPhase::Settled;
                    if let Some(fault) = state.asked_margin_fault(mover, &self.params) {
                        log::info!(
                            "dynamic komi: {} points more {fault} after {playouts} playouts, back to the real komi",
                            state.extra_margin
                        );
                        state.back_to_probe(game.komi());
                    } else if !checkpoint_reached {
                        break;
                    }
                }
                KomiPhase::Settled => break,
            }
        }
        // A margin that passed at the checkpoint can still fail by the end:
        // the probe's move at the real komi is then the safer one.
        if let Some(fault) = state.asked_margin_fault(mover, &self.params) {
            log::info!(
                "dynamic komi: {} points more {fault} by the end, back to the probe",
                state.extra_margin
            );
            state.back_to_probe(game.komi());
        }
        let KomiState {
            tree,
            scores,
            komi,
            extra_margin,
            probe_winrate,
            ..
        } = state;
        if let Some(deadline) = verify_until {
            self.verify_candidates(&tree, root, deadline);
        }
        let playouts = done.load(Ordering::Relaxed);
        let mut result = report(
            &tree,
            Some(&scores),
            mover,
            playouts,
            start.elapsed(),
            extra_margin,
        );
        result.probe_winrate = probe_winrate;
        log::debug!(
            "search: {} playouts in {:?}, {} nodes ({} KiB)",
            result.playouts,
            result.elapsed,
            tree.len(),
            tree.bytes() / 1024
        );
        self.kept = Some(KeptTree {
            tree,
            moves: game.moves().to_vec(),
            setup: game.setup().to_vec(),
            geometry: game.geometry(),
            kind: game.kind(),
            komi,
            to_move: mover,
        });
        result
    }

    /// NoGo endgames on boards the exact solver handles: when few points
    /// are left to play, try to prove a win and play it at once; a solve
    /// that runs out of time still rules out the moves it proved lost. Under a
    /// time limit the solver gets part of the time, and runs only when it
    /// likely finishes within it; without one it runs only when so few
    /// points are left that it surely finishes fast, so fixed-playout
    /// searches stay reproducible.
    /// `either_legal` is what [`solvable_points`] gave for `position`.
    fn solve_endgame(
        &mut self,
        position: &Position,
        either_legal: usize,
        limits: &SearchLimits,
        start: Instant,
    ) -> Endgame {
        let limit = limits.time.map(|time| time.mul_f64(SOLVER_TIME_SHARE));
        let within_reach = match limit {
            Some(limit) => either_legal <= solver_either_legal_within(limit),
            None => either_legal <= SOLVER_EITHER_LEGAL_UNTIMED,
        };
        if !within_reach {
            return Endgame::Open;
        }
        let outcome = self.solve_in_game(position, limit);
        let mover = position.to_move();
        log::info!(
            "solver: {either_legal} points, winner {:?} ({:?}) in {} nodes, {:?}",
            outcome.winner,
            outcome.status,
            outcome.nodes,
            outcome.elapsed
        );
        endgame_from(outcome, mover, start)
    }

    /// Solves `position` within `limit` (none: to the end) on the table kept
    /// from move to move, finding the winner only (not every winning move).
    fn solve_in_game(
        &mut self,
        position: &Position,
        limit: Option<Duration>,
    ) -> solver::SolveOutcome {
        let options = solver::SolveOptions {
            limit,
            stop: None,
            table_mb: Some(SOLVER_TABLE_MB),
            all_moves: false,
        };
        solver::solve_kept(position, &options, &mut |_| {}, &mut self.solver_table)
    }

    /// Asks the solver about the root's searched moves, most visited first,
    /// until one is proven to win or `deadline` passes; marks each proven
    /// move in the tree (where [`Searcher::decide`] and the kept tree see it).
    fn verify_candidates(&mut self, tree: &Tree, root: &Position, deadline: Instant) {
        let mover = root.to_move();
        let (first, count) = tree.node(ROOT).children();
        let mut candidates: Vec<NodeId> = (first..first + count as NodeId)
            .filter(|&id| tree.node(id).proof() == UNPROVEN && tree.node(id).visits() > 0)
            .collect();
        candidates.sort_by_key(|&id| std::cmp::Reverse(tree.node(id).visits()));
        for id in candidates {
            let Move::Play(p) = tree.node(id).mv() else {
                continue;
            };
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            let mut after = root.clone();
            after.play(p, mover);
            let outcome = self.solve_in_game(&after, Some(deadline - now));
            log::info!(
                "verify {p:?}: winner {:?} in {} nodes, {:?}",
                outcome.winner,
                outcome.nodes,
                outcome.elapsed
            );
            match outcome.winner {
                Some(winner) if winner == mover => {
                    tree.node(id).set_proof(PROVEN_WIN);
                    break;
                }
                Some(_) => tree.node(id).set_proof(PROVEN_LOSS),
                None => break,
            }
        }
    }
}

/// Points legal for either side of a position the exact solver takes (NoGo,
/// on a board within its size), `None` for any other: what both the root
/// solve and the verification of candidates decide on.
fn solvable_points(game: &Game, legal: &[Move]) -> Option<usize> {
    let position = game.position();
    (game.kind() == GameKind::NoGo && position.geometry().area() <= solver::MAX_SOLVER_AREA)
        .then(|| points_legal_for_either(position, legal))
}

/// When a timed NoGo search with `either_legal` points left (from
/// [`solvable_points`]) should stop to verify its candidates: the deadline
/// of the verification if the root is a little beyond the root solver's
/// reach (see [`VERIFY_EXTRA_POINTS`]), `None` otherwise.
fn verification_deadline(
    either_legal: usize,
    limits: &SearchLimits,
    start: Instant,
) -> Option<Instant> {
    let time = limits.time?;
    let reach = solver_either_legal_within(time.mul_f64(SOLVER_TIME_SHARE));
    (either_legal > reach && either_legal <= reach + VERIFY_EXTRA_POINTS).then(|| start + time)
}

/// What a solve of the root (`mover` to play) settles for the search.
fn endgame_from(outcome: solver::SolveOutcome, mover: Color, start: Instant) -> Endgame {
    let win = outcome
        .winning_moves
        .first()
        .filter(|_| outcome.winner == Some(mover));
    let Some(&win) = win else {
        // A position proven lost keeps every move: the playouts then pick
        // the one likeliest to draw an error from the opponent.
        return if outcome.winner.is_none() && !outcome.losing_moves.is_empty() {
            Endgame::Losing(outcome.losing_moves)
        } else {
            Endgame::Open
        };
    };
    let mv = Move::Play(win);
    Endgame::Won(SearchReport {
        to_move: mover,
        candidates: vec![Candidate {
            mv,
            visits: 0,
            winrate: 1.0,
            prior: 1.0,
            pv: vec![mv],
            score_lead: None,
            proof: Proof::Win,
        }],
        playouts: 0,
        elapsed: start.elapsed(),
        extra_margin: 0,
        probe_winrate: None,
    })
}

impl Searcher {
    /// The subtree of the kept tree for `game`'s position, if the game
    /// continues the kept one by a few moves.
    fn reusable_tree(&mut self, game: &Game, max_bytes: usize) -> Option<Tree> {
        let kept = self.kept.take()?;
        let same_game = kept.geometry == game.geometry()
            && kept.kind == game.kind()
            && kept.komi == game.komi()
            && kept.setup == game.setup()
            && game.moves().starts_with(&kept.moves)
            && game.moves().len() - kept.moves.len() <= MAX_REUSE_DEPTH;
        if !same_game {
            return None;
        }
        // The tree alternates colours; a record that does not cannot be followed.
        let mut node = ROOT;
        let mut to_move = kept.to_move;
        for &(color, mv) in &game.moves()[kept.moves.len()..] {
            if color != to_move {
                return None;
            }
            let (first, count) = kept.tree.node(node).children();
            node = (0..count as NodeId)
                .map(|k| first + k)
                .find(|&id| kept.tree.node(id).mv() == mv)?;
            to_move = color.opponent();
        }
        // Same record but another side to move (GTP lets either colour play).
        if to_move != game.position().to_move() {
            return None;
        }
        if node == ROOT {
            return Some(kept.tree);
        }
        Some(kept.tree.extract(node, max_bytes))
    }

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

/// What a stretch of playouts needs to know of its search.
struct Run<'a> {
    limits: &'a SearchLimits,
    playout_cap: Option<u64>,
    stop: &'a AtomicBool,
    start: Instant,
    /// When the playouts began (see `decided_early`).
    playouts_start: Instant,
    interval: Option<Duration>,
    /// Playouts run so far, by all threads and stretches.
    done: &'a AtomicU64,
    /// The dynamic komi the stretch searches under, for its reports.
    extra_margin: i32,
}

/// Runs playouts on `shared` with `worker` on this thread and `helpers` on
/// their own, until a limit or `checkpoint` is reached; returns whether it
/// was the checkpoint. Progress reports go to `progress` every `interval`.
fn run_playouts(
    run: &Run,
    shared: &uct::Shared,
    worker: &mut uct::Worker,
    helpers: &mut [uct::Worker],
    checkpoint: Option<Checkpoint>,
    progress: &mut dyn FnMut(&SearchReport),
) -> bool {
    let (done, tree, mover) = (run.done, shared.tree, shared.root.to_move());
    let finished = AtomicBool::new(false);
    let mut checkpoint_reached = false;
    std::thread::scope(|scope| {
        for helper in helpers.iter_mut() {
            let finished = &finished;
            scope.spawn(move || {
                // Counted in batches: one shared counter bumped by every
                // playout of every thread is a contended line.
                let mut pending = 0;
                while !finished.load(Ordering::Relaxed) {
                    helper.simulate(shared);
                    pending += 1;
                    if pending == HELPER_COUNT_BATCH {
                        done.fetch_add(pending, Ordering::Relaxed);
                        pending = 0;
                    }
                }
                done.fetch_add(pending, Ordering::Relaxed);
            });
        }
        let mut last_report = run.start;
        // This thread's playouts not yet added to `done`, added in batches
        // as the helpers' are (an atomic add per playout costs), but
        // counted in the cap test: one thread stops exactly there.
        let mut pending = 0;
        loop {
            if run
                .playout_cap
                .is_some_and(|cap| done.load(Ordering::Relaxed) + pending >= cap)
            {
                break;
            }
            worker.simulate(shared);
            pending += 1;
            if pending < CHECK_EVERY {
                continue;
            }
            let total = done.fetch_add(pending, Ordering::Relaxed) + pending;
            pending = 0;
            let elapsed = run.start.elapsed();
            if run.stop.load(Ordering::Relaxed)
                || run.limits.time.is_some_and(|t| elapsed >= t)
                || tree.node(ROOT).proof() != UNPROVEN
                || counters_full(tree)
            {
                break;
            }
            match checkpoint {
                Some(checkpoint) if checkpoint.reached(total, elapsed) => {
                    checkpoint_reached = true;
                    break;
                }
                // Until the komi is settled, the search runs on.
                Some(_) => {}
                None => {
                    let playing = run.playouts_start.elapsed();
                    if decided_early(tree, run.limits, run.playout_cap, total, elapsed, playing) {
                        break;
                    }
                }
            }
            if let Some(every) = run.interval
                && last_report.elapsed() >= every
            {
                last_report = Instant::now();
                let playouts = done.load(Ordering::Relaxed);
                progress(&report(
                    tree,
                    shared.scores,
                    mover,
                    playouts,
                    elapsed,
                    run.extra_margin,
                ));
            }
        }
        done.fetch_add(pending, Ordering::Relaxed);
        finished.store(true, Ordering::Relaxed);
    });
    checkpoint_reached
}

/// Whether the root has counted [`ROOT_VISIT_CEILING`] playouts: the
/// search must stop before any node's counters overflow.
fn counters_full(tree: &Tree) -> bool {
    let full = tree.node(ROOT).visits_with_prior() >= ROOT_VISIT_CEILING;
    if full {
        log::info!("search: stopped at {ROOT_VISIT_CEILING} playouts, the most the tree counts");
    }
    full
}

/// Whether the most visited root move can no longer be overtaken in the
/// playouts left (stop early, saving time for later moves). `elapsed` is
/// the search's time so far, `playing` the part of it spent on playouts.
fn decided_early(
    tree: &Tree,
    limits: &SearchLimits,
    playout_cap: Option<u64>,
    done: u64,
    elapsed: Duration,
    playing: Duration,
) -> bool {
    if !limits.stop_when_decided {
        return false;
    }
    let remaining = match (playout_cap, limits.time) {
        // A fixed playout count is a reproducibility promise: run it all.
        (Some(_), None) => return false,
        (_, Some(time)) if playing.as_secs_f64() > 0.0 => {
            let rate = done as f64 / playing.as_secs_f64();
            let by_time = rate * (time.saturating_sub(elapsed)).as_secs_f64();
            let by_cap = playout_cap.map_or(f64::INFINITY, |cap| cap.saturating_sub(done) as f64);
            by_time.min(by_cap)
        }
        _ => return false,
    };
    if playing < Duration::from_millis(50) {
        return false;
    }
    let (first, count) = tree.node(ROOT).children();
    let mut visits: Vec<u32> = (0..count as NodeId)
        .map(|k| tree.node(first + k).visits())
        .collect();
    visits.sort_unstable_by(|a, b| b.cmp(a));
    match visits.as_slice() {
        [] | [_] => true,
        [best, second, ..] => (*best - *second) as f64 > remaining,
    }
}

/// Proof status of a candidate, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    Unknown,
    /// The move wins with perfect play.
    Win,
    /// The move loses with perfect play.
    Loss,
}

/// Longest principal variation reported.
const MAX_PV: usize = 24;

fn report(
    tree: &Tree,
    scores: Option<&uct::RootScores>,
    to_move: Color,
    playouts: u64,
    elapsed: Duration,
    extra_margin: i32,
) -> SearchReport {
    let (first, count) = tree.node(ROOT).children();
    let prior_total: f64 = (0..count as NodeId)
        .map(|k| prior_share(tree.node(first + k)))
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let mut candidates: Vec<Candidate> = (0..count as NodeId)
        .map(|k| {
            let id = first + k;
            let node = tree.node(id);
            Candidate {
                mv: node.mv(),
                visits: node.visits() as u64,
                winrate: node.winrate(),
                prior: prior_share(node) / prior_total,
                pv: principal_variation(tree, id),
                score_lead: scores
                    .and_then(|scores| scores.mean(k as usize))
                    .map(|black_margin| match to_move {
                        Color::Black => black_margin,
                        Color::White => -black_margin,
                    }),
                proof: match node.proof() {
                    PROVEN_WIN => Proof::Win,
                    PROVEN_LOSS => Proof::Loss,
                    _ => Proof::Unknown,
                },
            }
        })
        .filter(|c| c.visits > 0 || c.proof != Proof::Unknown)
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
        extra_margin,
        probe_winrate: None,
    }
}

/// A node's prior win rate, as a weight for the reported prior.
fn prior_share(node: &tree::Node) -> f64 {
    let visits = node.prior_visits();
    if visits == 0 {
        0.5
    } else {
        node.prior_wins() as f64 / (2.0 * visits as f64)
    }
}

/// Most-visited line from `node` down.
fn principal_variation(tree: &Tree, node: NodeId) -> Vec<Move> {
    let mut line = vec![tree.node(node).mv()];
    let mut current = node;
    while line.len() < MAX_PV {
        let (first, count) = tree.node(current).children();
        let Some(best) = (0..count as NodeId)
            .map(|k| first + k)
            .filter(|&id| tree.node(id).visits() > 0)
            .max_by_key(|&id| tree.node(id).visits())
        else {
            break;
        };
        line.push(tree.node(best).mv());
        current = best;
    }
    line
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

/// Points where the side to move (whose legal moves are `legal`) or its
/// opponent may play: what is left of a NoGo game, and what the solver's
/// time grows with.
fn points_legal_for_either(position: &Position, legal: &[Move]) -> usize {
    let opponent = position.to_move().opponent();
    let opponent_only = position
        .empty_points()
        .iter()
        .map(|&p| Point(p))
        .filter(|&p| position.is_legal(p, opponent) && !legal.contains(&Move::Play(p)))
        .count();
    legal
        .iter()
        .filter(|mv| matches!(mv, Move::Play(_)))
        .count()
        + opponent_only
}

/// The most points legal for either side at which the solver likely
/// finishes within `limit` (see [`SOLVER_EITHER_LEGAL_AT_200_MS`]).
fn solver_either_legal_within(limit: Duration) -> usize {
    let doublings = (limit.as_secs_f64() / 0.2).log2().floor();
    // The cast saturates: a zero limit gives no points at all.
    (f64::from(SOLVER_EITHER_LEGAL_AT_200_MS) + doublings) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    /// A solve that ran out of time rules out only the root moves it proved
    /// lost; a position proven lost keeps all its moves; a win is played.
    #[test]
    fn an_unfinished_solve_rules_out_the_moves_it_proved_lost() {
        let outcome = |winner, status, winning: &[u16], losing: &[u16]| solver::SolveOutcome {
            winner,
            status,
            winning_moves: winning.iter().map(|&p| Point(p)).collect(),
            losing_moves: losing.iter().map(|&p| Point(p)).collect(),
            unresolved_moves: Vec::new(),
            nodes: 1,
            elapsed: Duration::ZERO,
        };
        let start = Instant::now();
        let (black, white) = (Color::Black, Color::White);
        use solver::SolveStatus::{Complete, OutOfTime};
        match endgame_from(outcome(None, OutOfTime, &[], &[12, 13]), black, start) {
            Endgame::Losing(moves) => assert_eq!(moves, vec![Point(12), Point(13)]),
            _ => panic!("an unfinished solve's proven losses are ruled out"),
        }
        assert!(matches!(
            endgame_from(outcome(Some(white), Complete, &[], &[12]), black, start),
            Endgame::Open
        ));
        assert!(matches!(
            endgame_from(outcome(None, OutOfTime, &[], &[]), black, start),
            Endgame::Open
        ));
        match endgame_from(outcome(Some(black), Complete, &[14], &[12]), black, start) {
            Endgame::Won(report) => {
                assert_eq!(report.best().map(|c| c.mv), Some(Move::Play(Point(14))))
            }
            _ => panic!("a proven win is played"),
        }
    }

    fn searcher(playouts_seed: u64) -> Searcher {
        searcher_with(SearchParams {
            seed: playouts_seed,
            ..SearchParams::default()
        })
    }

    /// A one-thread searcher with these tunables.
    fn searcher_with(params: SearchParams) -> Searcher {
        Searcher::new(SearchParams {
            threads: 1,
            ..params
        })
    }

    fn run(searcher: &mut Searcher, game: &Game, playouts: u64) -> SearchReport {
        let limits = SearchLimits {
            playouts: Some(playouts),
            time: None,
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        };
        searcher.search(game, &limits, &AtomicBool::new(false), None, &mut |_| {})
    }

    fn game_from(text: &str, kind: GameKind, to_move: Color) -> Game {
        let position = Position::from_text(text, kind).unwrap();
        let g = position.geometry();
        let mut game = Game::new(g, kind, if kind == GameKind::Go { 7.0 } else { 0.0 });
        let stones: Vec<(Point, Color)> = [Color::Black, Color::White]
            .into_iter()
            .flat_map(|c| {
                position
                    .stones(c)
                    .iter()
                    .map(move |p| (p, c))
                    .collect::<Vec<_>>()
            })
            .collect();
        game.add_setup(&stones).unwrap();
        game.set_first_to_move(to_move);
        game
    }

    #[test]
    fn one_thread_with_a_seed_is_reproducible() {
        let game = Game::new(Geometry::square(9).unwrap(), GameKind::Go, 7.0);
        let a = run(&mut searcher(7), &game, 2000);
        let b = run(&mut searcher(7), &game, 2000);
        assert_eq!(a.candidates, b.candidates);
        assert_eq!(a.playouts, 2000);
    }

    fn run_for_move(searcher: &mut Searcher, game: &Game, playouts: u64) -> SearchReport {
        let limits = SearchLimits {
            playouts: Some(playouts),
            time: None,
            dynamic_komi: true,
            stop_when_decided: true,
            may_pass: true,
        };
        searcher.search(game, &limits, &AtomicBool::new(false), None, &mut |_| {})
    }

    /// White owns seven columns to Black's one: a won game, White to move.
    fn won_for_white() -> Game {
        game_from(
            "X.O......
             X.O......
             X.O......
             X.O......
             X.O......
             X.O......
             X.O......
             X.O......
             X.O......",
            GameKind::Go,
            Color::White,
        )
    }

    /// A won game is searched for a move demanding more than komi, within
    /// the same playouts.
    #[test]
    fn a_won_position_is_searched_with_a_dynamic_komi() {
        let game = won_for_white();
        let plain = run(&mut searcher(3), &game, 4000);
        let report = run_for_move(&mut searcher(3), &game, 4000);
        assert_eq!(plain.extra_margin, 0);
        assert!(plain.winrate() > 0.9, "{}", plain.winrate());
        assert!(report.extra_margin >= 5, "{}", report.extra_margin);
        assert!(report.winrate() < plain.winrate());
        assert_eq!(report.playouts, 4000);
    }

    /// A one-thread searcher whose probe takes `probe_share` of the budget,
    /// under a floor of 1 that no margin asked can reach.
    fn unreachable_floor(probe_share: f64) -> Searcher {
        searcher_with(SearchParams {
            seed: 3,
            dyn_komi_probe: probe_share,
            dyn_komi_floor: 1.0,
            ..SearchParams::default()
        })
    }

    /// A margin the search under it wins less often than the floor is
    /// dropped at the second checkpoint (a floor of 1: always), and the
    /// search ends on the probe's tree at the real komi.
    #[test]
    fn a_margin_out_of_reach_is_dropped() {
        let game = won_for_white();
        let mut strict = unreachable_floor(SearchParams::default().dyn_komi_probe);
        let report = run_for_move(&mut strict, &game, 4000);
        assert_eq!(report.extra_margin, 0);
        assert!(report.winrate() > 0.9, "{}", report.winrate());
        assert_eq!(report.playouts, 4000);
        assert_eq!(
            strict.kept.as_ref().map(|kept| kept.komi),
            Some(game.komi())
        );
    }

    /// Black owns four columns to White's four with komi 7 and the middle
    /// one open: lost by a few points, Black to move.
    #[test]
    fn a_lost_position_is_searched_given_points() {
        let game = game_from(
            "...X.O...
             ...X.O...
             ...X.O...
             ...X.O...
             ...X.O...
             ...X.O...
             ...X.O...
             ...X.O...
             ...X.O...",
            GameKind::Go,
            Color::Black,
        );
        let plain = run(&mut searcher(3), &game, 4000);
        let report = run_for_move(&mut searcher(3), &game, 4000);
        assert!(plain.winrate() < 0.2, "{}", plain.winrate());
        assert!(report.extra_margin < 0, "{}", report.extra_margin);
        let probe = report.probe_winrate.unwrap();
        assert!(probe < 0.2, "{probe}");
        assert!(report.winrate() > probe + 0.2, "{}", report.winrate());
        assert_eq!(report.playouts, 4000);
    }

    /// A search that ends before its second checkpoint (here the probe's
    /// share is so large that the checkpoint lies past the budget) still
    /// holds the margin asked to the floor.
    #[test]
    fn a_search_ending_under_a_margin_checks_it_against_the_floor() {
        let game = won_for_white();
        let mut late = unreachable_floor(0.6);
        let report = run_for_move(&mut late, &game, 4000);
        assert_eq!(report.extra_margin, 0);
        assert_eq!(report.playouts, 4000);
        assert!(report.winrate() > 0.9, "{}", report.winrate());
    }

    /// Fuego's nakade-4pts.1 (life and death, 9x9): White, far ahead, must
    /// play B1 to live in the corner. Asked some 34 points more, the search
    /// prefers gambling on an invasion at A5, which the probe's tree rates
    /// well below B1 at the real komi.
    fn corner_nakade() -> Game {
        game_from(
            "....XO...
             ....XO...
             ....XO...
             .XX.XOO..
             ....XO...
             XOOOXO...
             .OOOXO...
             OOXOXO...
             ..XOXO...",
            GameKind::Go,
            Color::White,
        )
    }

    /// The gamble for a margin asked is caught: the search goes back to the
    /// real komi and plays the vital point, which it misses without the check.
    #[test]
    fn a_margin_that_leads_to_a_gamble_is_dropped() {
        let game = corner_nakade();
        let vital = Move::Play(game.geometry().point(1, 0).unwrap());
        let checked = run_for_move(&mut searcher(1), &game, 10_000);
        assert_eq!(checked.extra_margin, 0);
        assert_eq!(checked.best().map(|c| c.mv), Some(vital));
        let mut unchecked = searcher_with(SearchParams {
            seed: 1,
            dyn_komi_tolerance: 1.0,
            ..SearchParams::default()
        });
        let gambled = run_for_move(&mut unchecked, &game, 10_000);
        assert!(gambled.extra_margin > 0, "{}", gambled.extra_margin);
        assert_ne!(gambled.best().map(|c| c.mv), Some(vital));
    }

    /// Black owns three columns to White's six: lost by more than a
    /// quarter of the board (34 points with komi), so it keeps the real
    /// komi, though the mercy rule's worth would allow more.
    #[test]
    fn a_position_lost_by_too_much_is_given_nothing() {
        let game = game_from(
            "X.XO.O.O.
             X.XO.O.O.
             X.XO.O.O.
             X.XO.O.O.
             X.XO.O.O.
             X.XO.O.O.
             X.XO.O.O.
             X.XO.O.O.
             X.XO.O.O.",
            GameKind::Go,
            Color::Black,
        );
        let report = run_for_move(&mut searcher(3), &game, 4000);
        assert!(report.winrate() < 0.05, "{}", report.winrate());
        assert_eq!(report.extra_margin, 0);
        let mut generous = searcher_with(SearchParams {
            seed: 3,
            dyn_komi_most_given: 1.0,
            ..SearchParams::default()
        });
        assert!(run_for_move(&mut generous, &game, 4000).extra_margin < 0);
    }

    /// On an even board the probe finds nothing to ask for, and the search
    /// goes on exactly as one without a probe.
    #[test]
    fn an_even_position_is_searched_at_the_real_komi() {
        let game = Game::new(Geometry::square(9).unwrap(), GameKind::Go, 7.0);
        let plain = run(&mut searcher(5), &game, 3000);
        let report = run_for_move(&mut searcher(5), &game, 3000);
        assert_eq!(report.extra_margin, 0);
        assert_eq!(report.candidates, plain.candidates);
    }

    #[test]
    fn captures_a_big_string_in_atari() {
        let game = game_from(
            ".........
             .........
             .........
             ..OOOO...
             .OXXXX...
             ..OOOO...
             .........
             .........
             .........",
            GameKind::Go,
            Color::White,
        );
        let mut s = searcher(1);
        let report = run(&mut s, &game, 3000);
        let capture = game.geometry().point(6, 4).unwrap();
        assert_eq!(
            s.decide(&game, &report),
            Decision::Play(Move::Play(capture))
        );
    }

    /// Black's L7-L6 in atari (CGOS game 31410 before move 69, Fuego's
    /// tactics test): M7 reaches three liberties, and dies in a loose
    /// ladder after White N8 that only the root's reading sees. A search
    /// without that reading plays M7 out most; the next search of the
    /// position, reading first, forgets those playouts rather than keep M7
    /// the most played move by its old count.
    #[test]
    fn a_futile_extension_forgets_its_reused_playouts() {
        let game = game_from(
            "...................
             .................O.
             ..X..XX.O..O...OOX.
             ...O..........O.X..
             ................O..
             .X...X..........O..
             ...................
             ...................
             ...X.....X.X.......
             ............X..O...
             ..X..X.............
             .....OX...O........
             ..X.O....OX.X..O...
             ......X..OXOOO.....
             ..X.O.....O....O...
             .OOO.X....OX.X.OX..
             ....OX..X.XX..XXOO.
             ..O.OX..........XO.
             ...OXX.............",
            GameKind::Go,
            Color::Black,
        );
        let m7 = Move::Play(game.geometry().point(11, 6).unwrap());
        let visits_of = |report: &SearchReport| {
            report
                .candidates
                .iter()
                .find(|c| c.mv == m7)
                .map_or(0, |c| c.visits)
        };
        // The first search weighs AMAF as long as small boards do: at
        // 19x19's own equivalence its 300 playouts go most to another move.
        let mut s = searcher_with(SearchParams {
            prior_read_win: 0,
            prior_read_futile: 0,
            rave_equivalence_large: SearchParams::default().rave_equivalence,
            ..SearchParams::default()
        });
        let first = run(&mut s, &game, 300);
        s.params = SearchParams {
            threads: 1,
            ..SearchParams::default()
        };
        assert_eq!(first.best().map(|c| c.mv), Some(m7), "{:?}", first.best());
        let second = run(&mut s, &game, 600);
        assert!(
            visits_of(&second) < visits_of(&first) / 4,
            "{} {}",
            visits_of(&first),
            visits_of(&second)
        );
    }

    /// White's seven columns to Black's one, and komi: up to 61 points up
    /// (about 42 in playouts, where Black still lives in some of them).
    /// The moves' score leads say so, at the real komi also when the
    /// search asked a margin on top of it.
    #[test]
    fn score_leads_are_the_mean_margins_at_the_real_komi() {
        let game = won_for_white();
        let plain = run(&mut searcher(3), &game, 4000);
        let shifted = run_for_move(&mut searcher(3), &game, 4000);
        assert!(shifted.extra_margin >= 5, "{}", shifted.extra_margin);
        let lead = |report: &SearchReport| report.best().and_then(|c| c.score_lead).unwrap();
        let (plain_lead, shifted_lead) = (lead(&plain), lead(&shifted));
        assert!((30.0..61.0).contains(&plain_lead), "{plain_lead}");
        assert!(
            (plain_lead - shifted_lead).abs() < 4.0,
            "{plain_lead} {shifted_lead}"
        );
    }

    /// The tree kept from the last move has its best move 900 playouts
    /// ahead. 640 playouts in 60 ms run at 10,667 a second: in the 235 ms
    /// left they could overtake it. Counted over the 200 ms that include a
    /// solve that ran out of time they would seem too slow to, and the
    /// search would stop with a handful of playouts.
    #[test]
    fn an_unfinished_solve_does_not_cut_the_playouts_short() {
        let tree = Tree::new(1 << 20);
        let first = tree.allocate(2).unwrap();
        tree.node(first).init(Move::Play(Point(12)), 0, 0);
        tree.node(first + 1).init(Move::Play(Point(13)), 0, 0);
        tree.node(ROOT).finish_expansion(first, 2);
        (0..1000).for_each(|_| tree.node(first).add_visit());
        (0..100).for_each(|_| tree.node(first + 1).add_visit());
        let limits = SearchLimits {
            playouts: None,
            time: Some(Duration::from_millis(435)),
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        };
        let ms = Duration::from_millis;
        assert!(!decided_early(&tree, &limits, None, 640, ms(200), ms(60)));
        assert!(decided_early(&tree, &limits, None, 640, ms(200), ms(200)));
        let play_on = SearchLimits {
            stop_when_decided: false,
            ..limits
        };
        assert!(!decided_early(&tree, &play_on, None, 640, ms(200), ms(200)));
    }

    /// A search that starts from a reused tree whose root has counted as
    /// many playouts as the counters allow stops at its first check, long
    /// before its time limit.
    #[test]
    fn the_search_stops_at_the_counters_ceiling() {
        let game = Game::new(Geometry::square(9).unwrap(), GameKind::Go, 7.0);
        let mut s = searcher(3);
        run(&mut s, &game, 500);
        let kept = s.kept.as_ref().expect("the search keeps its tree");
        let root = kept.tree.node(ROOT);
        root.add_visits(ROOT_VISIT_CEILING - root.visits_with_prior());
        let limits = SearchLimits {
            playouts: None,
            time: Some(Duration::from_secs(30)),
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        };
        let report = s.search(&game, &limits, &AtomicBool::new(false), None, &mut |_| {});
        assert!(report.playouts <= CHECK_EVERY, "{}", report.playouts);
        assert!(
            report.elapsed < Duration::from_secs(10),
            "{:?}",
            report.elapsed
        );
    }

    /// A NoGo position with 17 points left on 5x4: beyond the untimed
    /// solver's reach, and quick to solve after any move.
    fn nogo_5x4_with_17_points() -> Game {
        let mut game = Game::new(Geometry::new(5, 4).unwrap(), GameKind::NoGo, 0.0);
        for (color, col, row) in [
            (Color::Black, 1, 1),
            (Color::White, 3, 2),
            (Color::Black, 2, 3),
        ] {
            let p = game.geometry().point(col, row).unwrap();
            game.play(color, Move::Play(p)).unwrap();
        }
        game
    }

    #[test]
    fn verified_candidates_agree_with_the_solver() {
        let game = nogo_5x4_with_17_points();
        let mut s = searcher(5);
        run(&mut s, &game, 3000);
        let kept = s.kept.take().expect("the search keeps its tree");
        let root = game.position();
        s.verify_candidates(&kept.tree, root, Instant::now() + Duration::from_secs(60));
        let mover = root.to_move();
        let (first, count) = kept.tree.node(ROOT).children();
        let mut proven = 0;
        for child in kept.tree.block(first, count) {
            let Move::Play(p) = child.mv() else { continue };
            let mut after = root.clone();
            after.play(p, mover);
            let winner = solver::solve_nogo(&after).expect("NoGo").winner;
            match child.proof() {
                PROVEN_WIN => assert_eq!(winner, mover, "{p:?}"),
                PROVEN_LOSS => assert_eq!(winner, mover.opponent(), "{p:?}"),
                _ => continue,
            }
            proven += 1;
        }
        // With a minute for it, verification stops only at a proven win
        // or after every searched move is proven lost.
        let won = kept
            .tree
            .block(first, count)
            .iter()
            .any(|c| c.proof() == PROVEN_WIN);
        let searched = kept
            .tree
            .block(first, count)
            .iter()
            .filter(|c| c.visits() > 0)
            .count();
        assert!(won || proven == searched, "{proven} of {searched} proven");
    }

    #[test]
    fn candidates_are_verified_just_beyond_the_solvers_reach() {
        let game = nogo_5x4_with_17_points();
        let points = solvable_points(&game, &root_moves(&game)).expect("solvable");
        assert_eq!(points, 17);
        let start = Instant::now();
        // 17 points: a time whose reach is 13 to 16 points verifies.
        let at = |points: u32| {
            let time = Duration::from_secs_f64(
                0.2 / SOLVER_TIME_SHARE
                    * 2f64.powf(f64::from(points) - f64::from(SOLVER_EITHER_LEGAL_AT_200_MS) + 0.5),
            );
            SearchLimits {
                playouts: None,
                time: Some(time),
                dynamic_komi: false,
                stop_when_decided: true,
                may_pass: true,
            }
        };
        assert!(verification_deadline(points, &at(13), start).is_some());
        assert!(verification_deadline(points, &at(16), start).is_some());
        assert!(verification_deadline(points, &at(12), start).is_none());
        assert!(verification_deadline(points, &at(17), start).is_none());
        let untimed = SearchLimits {
            playouts: Some(100),
            time: None,
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        };
        assert!(verification_deadline(points, &untimed, start).is_none());
    }

    #[test]
    fn nogo_solver_proves_a_small_board() {
        // 2x2 NoGo is a first-player win (nogo-solved.md).
        let game = Game::new(Geometry::square(2).unwrap(), GameKind::NoGo, 0.0);
        let mut s = searcher(3);
        let report = run(&mut s, &game, 5000);
        assert!(report.candidates.iter().any(|c| c.proof == Proof::Win));
        let Decision::Play(mv) = s.decide(&game, &report) else {
            panic!("a won position must not resign");
        };
        let best = report.candidates.iter().find(|c| c.mv == mv).unwrap();
        assert_eq!(best.proof, Proof::Win);
    }

    #[test]
    fn nogo_endgames_are_solved_under_a_time_limit() {
        let mut game = Game::new(Geometry::square(3).unwrap(), GameKind::NoGo, 0.0);
        let g = game.geometry();
        game.play(Color::Black, Move::Play(g.point(1, 1).unwrap()))
            .unwrap();
        let mut s = searcher(3);
        let limits = SearchLimits {
            playouts: None,
            time: Some(Duration::from_secs(2)),
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        };
        let report = s.search(&game, &limits, &AtomicBool::new(false), None, &mut |_| {});
        // 3x3 is a first-player win: after the centre, White to move loses,
        // so no proven win for White exists and the tree search answers.
        assert!(report.candidates.iter().all(|c| c.proof != Proof::Win));
        let empty = Game::new(g, GameKind::NoGo, 0.0);
        let report = s.search(&empty, &limits, &AtomicBool::new(false), None, &mut |_| {});
        assert_eq!(report.playouts, 0, "the solver answered");
        assert_eq!(report.best().map(|c| c.proof), Some(Proof::Win));
    }

    #[test]
    fn the_solver_gets_one_more_point_per_doubling_of_its_time() {
        let within = |ms| solver_either_legal_within(Duration::from_millis(ms));
        assert_eq!(within(200), 23);
        assert_eq!(within(399), 23);
        assert_eq!(within(400), 24);
        assert_eq!(within(100), 22);
        assert_eq!(within(3200), 27);
        assert_eq!(within(0), 0);
    }

    /// A 9x9 self-play endgame, White to move and winning: 15 points are
    /// legal for either side, so the solver answers with or without a clock.
    #[test]
    fn nogo_nine_by_nine_endgames_are_solved() {
        let game = game_from(
            "OXXO.OXOO
             .X.XOOX.O
             XOXO..OXX
             OO..OXX.X
             XOXOX.OX.
             .XO.OXX.O
             OO.X.XOOX
             .O...XXOX
             OXXOX.OX.",
            GameKind::NoGo,
            Color::White,
        );
        let legal = root_moves(&game);
        assert_eq!(points_legal_for_either(game.position(), &legal), 15);
        let mut s = searcher(3);
        let report = run(&mut s, &game, 5000);
        assert_eq!(report.playouts, 0, "the solver answered");
        assert_eq!(report.best().map(|c| c.proof), Some(Proof::Win));
        let limits = SearchLimits {
            playouts: None,
            time: Some(Duration::from_millis(500)),
            dynamic_komi: false,
            stop_when_decided: true,
            may_pass: true,
        };
        let report = s.search(&game, &limits, &AtomicBool::new(false), None, &mut |_| {});
        assert_eq!(report.playouts, 0, "the solver answered");
        assert_eq!(report.best().map(|c| c.proof), Some(Proof::Win));
    }

    #[test]
    fn nogo_without_moves_resigns() {
        // White to move: every empty point is a capture or suicide for White.
        let game = game_from(
            ".X
             X.",
            GameKind::NoGo,
            Color::White,
        );
        let mut s = searcher(3);
        let report = run(&mut s, &game, 100);
        assert_eq!(s.decide(&game, &report), Decision::Resign);
    }

    #[test]
    fn the_tree_is_reused_after_two_moves() {
        let mut game = Game::new(Geometry::square(9).unwrap(), GameKind::Go, 7.0);
        let mut s = searcher(5);
        let first = run(&mut s, &game, 3000);
        let reply = first.best().unwrap().pv.clone();
        assert!(reply.len() >= 2, "{reply:?}");
        game.play(Color::Black, reply[0]).unwrap();
        game.play(Color::White, reply[1]).unwrap();
        let kept = s
            .reusable_tree(&game, 1 << 24)
            .expect("the subtree is kept");
        assert!(kept.node(ROOT).visits() > 0);
    }

    #[test]
    fn the_tree_is_not_reused_for_the_other_side_to_move() {
        let mut game = Game::new(Geometry::square(5).unwrap(), GameKind::Go, 7.0);
        let mut s = searcher(5);
        run(&mut s, &game, 200);
        game.set_first_to_move(Color::White);
        assert!(s.reusable_tree(&game, 1 << 24).is_none());
        let report = run(&mut s, &game, 200);
        assert_eq!(report.to_move, Color::White);
    }

    #[test]
    fn two_threads_share_the_tree() {
        let game = Game::new(Geometry::square(9).unwrap(), GameKind::Go, 7.0);
        let mut s = Searcher::new(SearchParams {
            threads: 2,
            ..SearchParams::default()
        });
        let report = run(&mut s, &game, 4000);
        assert!(report.playouts >= 4000);
        let visits: u64 = report.candidates.iter().map(|c| c.visits).sum();
        assert!(visits >= 3900, "{visits}");
    }

    #[test]
    fn passes_back_when_the_board_already_wins() {
        // White owns most of the board; Black passed: White passes too.
        let mut game = game_from(
            "..X.O
             XXX.O
             ..XOO
             XXXO.
             ...O.",
            GameKind::Go,
            Color::Black,
        );
        game.set_komi(0.5);
        game.play(Color::Black, Move::Pass).unwrap();
        let mut s = searcher(1);
        let report = run(&mut s, &game, 500);
        // Black has 15 points to White's 10: White must not pass back.
        assert_ne!(s.decide(&game, &report), Decision::Play(Move::Pass));
    }
}
