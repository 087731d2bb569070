//! Search: what the GTP layer asks for a move, and how it is found.
//!
//! The player sees only [`Searcher::search_as`] with a [`SearchLimits`] and
//! a stop flag; it never hands the search its input stream. Progress
//! reports (for analysis streaming and GoGui) arrive through a callback.
//!
//! The search knows no game: it sees one through the [`Domain`] trait
//! (`domain`), implemented by `crate::go::GoDomain` and
//! `crate::nogo::NogoDomain`, and imports neither; `Searcher::search` (in
//! `crate::player`) picks the game once and runs a search monomorphised
//! for it.
//!
//! - `tree`: the node arena (counts, AMAF, proofs) and its reuse.
//! - `uct`: one simulation (descend, expand, play out, back up, proofs);
//!   `select`: UCT blended with RAVE, four children at a time.
//! - `run`: limits, the search threads and when to stop.
//! - `dyn_komi`: dynamic komi, probe to settled margin, as one unit.
//! - `root_stats`: score leads and criticality of the root's moves.
//! - `report`: what a search returns (the player turns it into a move).
//! - `params`: every tunable, declared once.
//! - `playout`: light random playouts and the playouts' random numbers.

pub mod domain;
pub mod dyn_komi;
pub mod params;
pub mod playout;
mod report;
mod root_stats;
mod run;
mod select;
pub mod tree;
pub mod uct;

use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::SeedableRng;

use crate::board::{Bitboard, Color, Game, GameKind, Geometry, Move, Point, Position};
use domain::{Prior, RecentMoves};

pub use domain::{Domain, PlayoutEnd, RootPlan};
use dyn_komi::{KomiPhase, KomiState, MarginTally};
pub use params::{PARAM_TABLE, ParamError, SearchParams};
pub use playout::{FastRng, PlayoutResult, light_playout};
use report::report;
pub use report::{Candidate, Proof, SearchReport, wilson_interval};
use root_stats::RootCriticality;
pub use run::SearchLimits;
use run::{Checkpoint, Run, UNLIMITED_FALLBACK_PLAYOUTS, run_playouts};
use select::excluded_at_root;
use tree::{NodeId, PROVEN_LOSS, ROOT, Tree, UNPROVEN};
use uct::{Shared, Worker, expand};

/// The stone played `back` moves before the game's last (0: the last
/// move), or `None` for a pass or before the game's start.
pub(crate) fn stone_before(game: &Game, back: usize) -> Option<Point> {
    match game.moves().iter().rev().nth(back) {
        Some(&(_, Move::Play(p))) => Some(p),
        _ => None,
    }
}

/// Moves that may be replayed from the previous search's tree before it is
/// thrown away instead of reused.
const MAX_REUSE_DEPTH: usize = 4;

/// Shortest time limit for which the root's tactical reading runs (it
/// takes about 10 ms on a typical 19x19 position, up to 100 ms or so):
/// below it, in time trouble, the search gets all the time.
pub(crate) const ROOT_READING_MIN_TIME: Duration = Duration::from_millis(250);

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

/// The move finder: MCTS with UCT and RAVE over a shared tree. Keeps the
/// tree between moves, and its seed, so that one-thread searches with the
/// same seed and limits are reproducible.
pub struct Searcher {
    params: SearchParams,
    kept: Option<KeptTree>,
    /// What each game keeps from search to search (`Domain::Memory`),
    /// one entry per game searched, found by its type.
    memories: Vec<Box<dyn Any + Send + Sync>>,
    /// Searches run so far (each seeds its workers from this).
    searches: u64,
    /// The level of the search's own log lines (its dynamic komi):
    /// info, or debug for a searcher that plays hundreds of moves to
    /// answer one command (the aftermath's play-outs).
    log_level: log::Level,
}

impl Searcher {
    /// A searcher with these tunables.
    pub fn new(params: SearchParams) -> Searcher {
        Searcher {
            params,
            kept: None,
            memories: Vec::new(),
            searches: 0,
            log_level: log::Level::Info,
        }
    }

    /// This searcher with its own log lines at debug level.
    pub fn quiet(self) -> Searcher {
        Searcher {
            log_level: log::Level::Debug,
            ..self
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

    /// Searches the position of `game`, a game of `D`, for the side to
    /// move until a limit is reached or `stop` is set. `progress` is called
    /// about every `interval` with the report so far (never if `interval`
    /// is `None`). `Searcher::search` (in `crate::player`, the layer that
    /// knows both games) picks `D` from the game.
    pub fn search_as<D: Domain>(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        stop: &AtomicBool,
        interval: Option<Duration>,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let watch = Watch {
            stop,
            interval,
            start: Instant::now(),
        };
        self.search_watched::<D>(game, limits, &watch, progress)
    }

    /// What game `D` keeps between searches.
    fn memory<D: Domain>(&mut self) -> &mut D::Memory {
        let index = match self.memories.iter().position(|m| m.is::<D::Memory>()) {
            Some(index) => index,
            None => {
                self.memories.push(Box::new(D::Memory::default()));
                self.memories.len() - 1
            }
        };
        self.memories[index]
            .downcast_mut()
            .expect("found by its type")
    }

    /// [`Searcher::search_as`]: settle what the game settles at the root,
    /// run the playouts (with a dynamic komi where it applies), verify the
    /// candidates if the game asked to, report and keep the tree.
    fn search_watched<D: Domain>(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        watch: &Watch,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let max_bytes = self.params.max_tree_mb as usize * (1 << 20);
        let tree = self
            .reusable_tree(game, max_bytes)
            .unwrap_or_else(|| Tree::new(max_bytes));
        let legal = D::root_moves(game);
        let (plan, verify) = D::plan_root(self.memory::<D>(), game, &legal, limits, watch.start);
        let proven_losing = match plan {
            RootPlan::Won(report) => return report,
            RootPlan::Losing(moves) => moves,
            RootPlan::Open => Vec::new(),
        };
        // The playouts' own limits: less time when candidates are verified.
        let limits = match verify {
            Some((_, share)) => SearchLimits {
                time: limits.time.map(|t| t.mul_f64(share)),
                ..*limits
            },
            None => *limits,
        };
        let setup = self.setup::<D>(game, limits, legal, proven_losing, max_bytes);
        let (state, playouts) = self.run_phases::<D>(&setup, tree, watch, progress);
        let KomiState {
            tree,
            scores,
            komi,
            extra_margin,
            probe_winrate,
            ..
        } = state;
        if let Some((deadline, _)) = verify {
            D::verify(self.memory::<D>(), &tree, game.position(), deadline);
        }
        let mover = setup.mover;
        let elapsed = watch.start.elapsed();
        let mut result = report(&tree, Some(&scores), mover, playouts, elapsed, extra_margin);
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

    /// A search's fixed inputs, worked out before its playouts.
    fn setup<'g, D: Domain>(
        &mut self,
        game: &'g Game,
        limits: SearchLimits,
        legal: Vec<Move>,
        proven_losing: Vec<Point>,
        max_bytes: usize,
    ) -> RootSetup<'g> {
        let root = game.position();
        let mut root_excluded = Bitboard::EMPTY;
        for p in root.empty_points().iter().map(|&p| Point(p)) {
            if !legal.contains(&Move::Play(p)) {
                root_excluded.set(p);
            }
        }
        let recent = RecentMoves {
            last: stone_before(game, 0),
            before_last: stone_before(game, 1),
        };
        let reading_priors = D::root_priors(&self.params, root, recent, &limits);
        let seed = self.params.seed ^ self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.searches += 1;
        let playout_cap = match (limits.playouts, limits.time) {
            (None, None) => Some(UNLIMITED_FALLBACK_PLAYOUTS),
            (cap, _) => cap,
        };
        let area = root.geometry().area();
        RootSetup {
            game,
            root,
            mover: root.to_move(),
            legal,
            limits,
            playout_cap,
            root_excluded,
            reading_priors,
            proven_losing,
            seed,
            max_bytes,
            expand_threshold: D::expand_threshold(&self.params, area),
            inverse_rave_equivalence: (1.0 / D::rave_equivalence(&self.params, area)) as f32,
        }
    }

    /// Runs the playouts: with a dynamic komi, a probe at the real komi, then
    /// a new tree under the margin, kept only if the margin holds; otherwise
    /// one run to the limits. Returns the tree searched with its komi
    /// state, and the playouts run.
    fn run_phases<D: Domain>(
        &self,
        setup: &RootSetup,
        tree: Tree,
        watch: &Watch,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> (KomiState, u64) {
        let (game, root, mover) = (setup.game, setup.root, setup.mover);
        let area = root.geometry().area();
        // The dynamic komi's probe: the first share of the budget is
        // searched at the real komi, counting the playouts' margins.
        let share = self.params.dyn_komi_probe;
        let mut phase = self.first_phase::<D>(setup);
        let mut next_checkpoint = Checkpoint::share_of(setup.playout_cap, setup.limits.time, share);
        let tally = MarginTally::new(area, game.komi());
        let mut state = KomiState::real(tree, game.komi(), area + 1);
        // Whether the tree's root still needs this search's expansion and priors.
        let mut fresh_root = true;
        let done = AtomicU64::new(0);
        // The playouts' own start: an unfinished solve or the reading must
        // not count as time they ran, or their rate looks low and a reused
        // tree may stop the search at once as "decided".
        let playouts_start = Instant::now();
        let mut workers = Workers::<D>::new(root, setup.seed, self.params.threads);
        loop {
            let criticality = (D::SCORED && self.params.criticality != 0.0)
                .then(|| RootCriticality::new(area + 1));
            let probing = phase == KomiPhase::Probe;
            let shared =
                self.shared_for::<D>(setup, &state, &tally, probing, &criticality, fresh_root);
            fresh_root = false;
            let run = Run {
                limits: &setup.limits,
                playout_cap: setup.playout_cap,
                stop: watch.stop,
                start: watch.start,
                playouts_start,
                interval: watch.interval,
                done: &done,
                extra_margin: state.extra_margin,
            };
            let checkpoint = (phase != KomiPhase::Settled).then_some(next_checkpoint);
            // No legal move: nothing to play out.
            let checkpoint_reached =
                !setup.legal.is_empty() && workers.run(&run, &shared, checkpoint, progress);
            // A search that ends early (a clear best move, time, a stop)
            // under a margin asked still checks that margin against the
            // floor: it must not play a move that only looked best there.
            if !checkpoint_reached && phase != KomiPhase::Shifted {
                break;
            }
            let winrate = report(&state.tree, None, mover, 0, watch.start.elapsed(), 0).winrate();
            let playouts = done.load(Ordering::Relaxed);
            match phase {
                KomiPhase::Probe => {
                    phase = KomiPhase::Settled;
                    if self.shift_after_probe(setup, &mut state, &tally, winrate, playouts) {
                        fresh_root = true;
                        phase = KomiPhase::Shifted;
                        next_checkpoint =
                            Checkpoint::share_of(setup.playout_cap, setup.limits.time, 2.0 * share);
                    }
                }
                KomiPhase::Shifted => {
                    phase = KomiPhase::Settled;
                    let when = format!("after {playouts} playouts, back to the real komi");
                    let dropped = state.drop_faulty_margin(
                        mover,
                        &self.params,
                        game.komi(),
                        &when,
                        self.log_level,
                    );
                    if !dropped && !checkpoint_reached {
                        break;
                    }
                }
                KomiPhase::Settled => break,
            }
        }
        // A margin that passed at the checkpoint can still fail by the end:
        // the probe's move at the real komi is then the safer one.
        let when = "by the end, back to the probe";
        state.drop_faulty_margin(mover, &self.params, game.komi(), when, self.log_level);
        (state, done.load(Ordering::Relaxed))
    }

    /// Where the dynamic komi starts: with a probe where it applies (a
    /// scored game, for a move to play, with a move to search).
    fn first_phase<D: Domain>(&self, setup: &RootSetup) -> KomiPhase {
        if setup.limits.dynamic_komi
            && D::SCORED
            && self.params.dyn_komi_trigger <= 1.0
            && !setup.legal.is_empty()
        {
            KomiPhase::Probe
        } else {
            KomiPhase::Settled
        }
    }

    /// What the threads share for one stretch of playouts; a root new to
    /// this search (`fresh_root`) is expanded and given its priors first.
    fn shared_for<'s, D: Domain>(
        &'s self,
        setup: &'s RootSetup,
        state: &'s KomiState,
        tally: &'s MarginTally,
        probing: bool,
        criticality: &'s Option<RootCriticality>,
        fresh_root: bool,
    ) -> Shared<'s> {
        let mut shared = Shared {
            tree: &state.tree,
            root: setup.root,
            komi: state.komi,
            params: &self.params,
            root_excluded: setup.root_excluded,
            root_may_pass: setup.limits.may_pass && setup.legal.contains(&Move::Pass),
            root_has_excluded: false,
            root_recent: RecentMoves {
                last: stone_before(setup.game, 0),
                before_last: stone_before(setup.game, 1),
            },
            expand_threshold: setup.expand_threshold,
            inverse_rave_equivalence: setup.inverse_rave_equivalence,
            margins: probing.then_some(tally),
            criticality: criticality.as_ref(),
            scores: D::SCORED.then_some(&state.scores),
            real_komi: setup.game.komi(),
        };
        if fresh_root {
            prepare_root::<D>(
                &shared,
                &setup.legal,
                &setup.reading_priors,
                &setup.proven_losing,
            );
        }
        let (first, count) = state.tree.node(ROOT).children();
        shared.root_has_excluded = state
            .tree
            .block(first, count)
            .iter()
            .any(|child| excluded_at_root(&shared, child.mv()));
        shared
    }

    /// After the probe: asks a won position for part of its lead, or gives
    /// a lost one the points it needs, on a new tree. Returns whether the
    /// komi moved.
    fn shift_after_probe(
        &self,
        setup: &RootSetup,
        state: &mut KomiState,
        tally: &MarginTally,
        winrate: f64,
        playouts: u64,
    ) -> bool {
        let (mover, area) = (setup.mover, setup.root.geometry().area());
        // A lost position is given as many points as its playouts need to
        // win as often as a won one's keep.
        let extra = if winrate > self.params.dyn_komi_trigger {
            tally.extra_margin(mover, self.params.dyn_komi_target) as i32
        } else if winrate < self.params.dyn_komi_losing {
            let most = self.params.dyn_komi_most_given * area as f64;
            tally
                .concession(mover, 1.0 - self.params.dyn_komi_target, most as u32)
                .map_or(0, |given| -(given as i32))
        } else {
            0
        };
        if extra == 0 {
            return false;
        }
        log::log!(
            self.log_level,
            "dynamic komi: win rate {winrate:.3} after {playouts} playouts, {}",
            dyn_komi::describe(extra)
        );
        let komi = setup.game.komi();
        state.shift(
            extra,
            dyn_komi::shifted_komi(komi, mover, extra),
            winrate,
            Tree::new(setup.max_bytes),
        );
        true
    }
}

/// How a search is watched: its stop flag, its progress interval and when
/// it began.
struct Watch<'a> {
    stop: &'a AtomicBool,
    interval: Option<Duration>,
    start: Instant,
}

/// A search's fixed inputs, worked out before its playouts.
struct RootSetup<'g> {
    game: &'g Game,
    root: &'g Position,
    mover: Color,
    /// The root moves the game allows.
    legal: Vec<Move>,
    /// The playouts' own limits.
    limits: SearchLimits,
    /// The playouts to stop at (limits.playouts, or a fallback without any limit).
    playout_cap: Option<u64>,
    /// Empty points that are no root move (superko, or not worth it).
    root_excluded: Bitboard,
    /// Priors from the root's reading.
    reading_priors: Vec<(Point, Prior)>,
    /// Root moves the game proved lost.
    proven_losing: Vec<Point>,
    /// Seed of the workers' random numbers.
    seed: u64,
    /// Size cap of a new tree, in bytes.
    max_bytes: usize,
    expand_threshold: u32,
    inverse_rave_equivalence: f32,
}

/// The search threads' states: this thread's worker and the helpers'.
/// They outlive the dynamic komi's probe, so that their random numbers go
/// on where they stopped.
struct Workers<D: Domain> {
    main: Worker<D>,
    helpers: Vec<Worker<D>>,
}

impl<D: Domain> Workers<D> {
    fn new(root: &Position, seed: u64, threads: u32) -> Workers<D> {
        Workers {
            main: Worker::new(root, FastRng::seed_from_u64(seed)),
            helpers: (1..threads.max(1) as u64)
                .map(|helper| Worker::new(root, FastRng::seed_from_u64(seed.wrapping_add(helper))))
                .collect(),
        }
    }

    /// Runs playouts until a limit or `checkpoint`; returns whether it was
    /// the checkpoint.
    fn run(
        &mut self,
        run: &Run,
        shared: &Shared,
        checkpoint: Option<Checkpoint>,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> bool {
        run_playouts(
            run,
            shared,
            &mut self.main,
            &mut self.helpers,
            checkpoint,
            progress,
        )
    }
}

/// Expands a root new to this search and gives its children what the
/// search knows before any playout: the root reading's priors, and the
/// moves the game proved lost (the MCTS-solver passes over them).
fn prepare_root<D: Domain>(
    shared: &Shared,
    legal: &[Move],
    reading_priors: &[(Point, Prior)],
    proven_losing: &[Point],
) {
    let tree = shared.tree;
    if !legal.is_empty() {
        let mut prior_board = shared.root.clone();
        expand::<D>(
            shared,
            ROOT,
            shared.root,
            shared.root_recent,
            0,
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
}

#[cfg(test)]
mod tests;
