//! Running the playouts of one search: the main thread and its helpers on
//! the shared tree, until a limit, a checkpoint of the dynamic komi, or a
//! clear decision; progress reports on the way.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::Domain;
use super::report::{SearchReport, report};
use super::tree::{NodeId, ROOT, Tree, UNPROVEN};
use super::uct::{Shared, Worker};

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

/// How often (in playouts) the main search thread adds its playouts to the
/// shared count, checks limits and reports.
pub(super) const CHECK_EVERY: u64 = 32;

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
pub(super) const ROOT_VISIT_CEILING: u32 = (1 << 30) - (1 << 20);

/// Playouts for a search given neither a playout nor a time limit.
pub(super) const UNLIMITED_FALLBACK_PLAYOUTS: u64 = 10_000;

/// A point in a search's budget: after this many playouts or this much time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Checkpoint {
    playouts: Option<u64>,
    time: Option<Duration>,
}

impl Checkpoint {
    /// `share` of the search's budget.
    pub(super) fn share_of(
        playout_cap: Option<u64>,
        time: Option<Duration>,
        share: f64,
    ) -> Checkpoint {
        Checkpoint {
            playouts: playout_cap.map(|cap| (cap as f64 * share) as u64),
            time: time.map(|t| t.mul_f64(share)),
        }
    }

    fn reached(&self, playouts: u64, elapsed: Duration) -> bool {
        self.playouts.is_some_and(|n| playouts >= n) || self.time.is_some_and(|t| elapsed >= t)
    }
}

/// What a stretch of playouts needs to know of its search.
pub(super) struct Run<'a> {
    pub(super) limits: &'a SearchLimits,
    pub(super) playout_cap: Option<u64>,
    pub(super) stop: &'a AtomicBool,
    pub(super) start: Instant,
    /// When the playouts began (see `decided_early`).
    pub(super) playouts_start: Instant,
    pub(super) interval: Option<Duration>,
    /// Playouts run so far, by all threads and stretches.
    pub(super) done: &'a AtomicU64,
    /// The dynamic komi the stretch searches under, for its reports.
    pub(super) extra_margin: i32,
}

/// Runs playouts on `shared` with `worker` on this thread and `helpers` on
/// their own, until a limit or `checkpoint` is reached; returns whether it
/// was the checkpoint. Progress reports go to `progress` every `interval`.
pub(super) fn run_playouts<D: Domain>(
    run: &Run,
    shared: &Shared,
    worker: &mut Worker<D>,
    helpers: &mut [Worker<D>],
    checkpoint: Option<Checkpoint>,
    progress: &mut dyn FnMut(&SearchReport),
) -> bool {
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for helper in helpers.iter_mut() {
            let finished = &finished;
            scope.spawn(move || helper_playouts(helper, shared, run.done, finished));
        }
        let checkpoint_reached = main_playouts(run, shared, worker, checkpoint, progress);
        finished.store(true, Ordering::Relaxed);
        checkpoint_reached
    })
}

/// A helper thread's playouts, until `finished` is set.
fn helper_playouts<D: Domain>(
    helper: &mut Worker<D>,
    shared: &Shared,
    done: &AtomicU64,
    finished: &AtomicBool,
) {
    // Counted in batches: one shared counter bumped by every playout of
    // every thread is a contended line.
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
}

/// This thread's playouts, which check the limits, the checkpoint and
/// whether the search is decided, and report progress. Returns whether it
/// stopped at the checkpoint.
fn main_playouts<D: Domain>(
    run: &Run,
    shared: &Shared,
    worker: &mut Worker<D>,
    checkpoint: Option<Checkpoint>,
    progress: &mut dyn FnMut(&SearchReport),
) -> bool {
    let (done, tree, mover) = (run.done, shared.tree, shared.root.to_move());
    let mut checkpoint_reached = false;
    let mut last_report = run.start;
    // This thread's playouts not yet added to `done`, added in batches as
    // the helpers' are (an atomic add per playout costs), but counted in
    // the cap test: one thread stops exactly there.
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
            let extra = run.extra_margin;
            progress(&report(
                tree,
                shared.scores,
                mover,
                playouts,
                elapsed,
                extra,
            ));
        }
    }
    done.fetch_add(pending, Ordering::Relaxed);
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
pub(super) fn decided_early(
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
