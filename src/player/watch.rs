//! Thinking while the input is watched: the search (or a long estimate)
//! runs in a scoped worker thread, and the thread that started it polls
//! the input through a [`Watcher`] and hands the search's progress to a
//! [`SearchView`]. Only the watching thread ever touches the view, so
//! only one thread writes to the controller.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::board::Game;
use crate::search::{SearchLimits, SearchReport, Searcher};

/// How often the watching thread looks at the input while a search runs.
const POLL_INTERVAL: Duration = Duration::from_millis(2);

/// How often an interruptible computation looks at the input, at most.
const INTERRUPT_POLL: Duration = Duration::from_millis(5);

/// How often an interruptible computation looks at the input at first.
/// The answer waits for the watcher's next look, so a short computation
/// is watched closely (a count of 10 ms would wait up to 5 ms more), a
/// long one more loosely: each wait is an eighth of the time so far.
const FIRST_INTERRUPT_POLL: Duration = Duration::from_micros(100);

/// The input side as a running search sees it.
pub trait Watcher {
    /// Waits up to `timeout` for input while a search runs. True means stop
    /// the search: on `# interrupt`, or on any line when
    /// `stop_on_any_line`. Lines that arrive are kept to be answered later.
    fn poll(&mut self, timeout: Duration, stop_on_any_line: bool) -> bool;
    /// An analysis that finished by itself waits here for the next line
    /// (kept for later) or the end of input.
    fn wait_for_line(&mut self);
}

/// What the controller is shown of a search, on the watching thread.
pub trait SearchView {
    /// Why the view could not show something (the controller is gone).
    type Error;
    /// How often the running search reports (`None`: never).
    fn interval(&self) -> Option<Duration>;
    /// A report of the search so far; `running` is false for one that
    /// arrived as the search ended. False asks the search to stop.
    fn progress(&mut self, report: &SearchReport, running: bool) -> bool;
    /// The search ended with `report`; an error from an earlier report
    /// comes out here.
    fn finished(&mut self, report: &SearchReport) -> Result<(), Self::Error>;
}

/// A view that shows nothing (pondering, searches that answer at the end).
pub struct Silent;

impl SearchView for Silent {
    type Error = std::convert::Infallible;

    fn interval(&self) -> Option<Duration> {
        None
    }

    fn progress(&mut self, _: &SearchReport, _: bool) -> bool {
        true
    }

    fn finished(&mut self, _: &SearchReport) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Runs `searcher` on `game` in a worker thread while watching the input,
/// handing `view` the reports the search makes. Returns the final report
/// and whether the watcher stopped the search.
pub(crate) fn search_watched<V: SearchView>(
    searcher: &mut Searcher,
    game: &Game,
    limits: &SearchLimits,
    watcher: &mut dyn Watcher,
    stop_on_any_line: bool,
    view: &mut V,
) -> Result<(SearchReport, bool), V::Error> {
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<SearchReport>();
    let interval = view.interval();
    let mut stopped = false;
    let outcome = thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let mut progress = |report: &SearchReport| {
                // The receiver lives until the worker is joined.
                let _ = sender.send(report.clone());
            };
            searcher.search(game, limits, &stop, interval, &mut progress)
        });
        while !worker.is_finished() {
            if stopped {
                thread::sleep(POLL_INTERVAL);
            } else if watcher.poll(POLL_INTERVAL, stop_on_any_line) {
                stop.store(true, Ordering::Relaxed);
                stopped = true;
            }
            for report in receiver.try_iter() {
                if !view.progress(&report, true) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        worker.join()
    });
    let report = match outcome {
        Ok(report) => report,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    for late in receiver.try_iter() {
        view.progress(&late, false);
    }
    view.finished(&report)?;
    Ok((report, stopped))
}

/// Runs `work` in a worker thread while the calling thread watches the
/// input: `# interrupt`, or the controller going away over TCP, sets
/// `interrupted`, which the long computations (ownership playouts, the
/// exact solver) read to answer at once with what they have.
pub fn interruptible<T: Send>(
    interrupted: &AtomicBool,
    watcher: &mut dyn Watcher,
    work: impl FnOnce() -> T + Send,
) -> T {
    interrupted.store(false, Ordering::Relaxed);
    let started = Instant::now();
    let outcome = thread::scope(|scope| {
        let worker = scope.spawn(work);
        while !worker.is_finished() {
            let wait = (started.elapsed() / 8).clamp(FIRST_INTERRUPT_POLL, INTERRUPT_POLL);
            if watcher.poll(wait, false) {
                interrupted.store(true, Ordering::Relaxed);
            }
        }
        worker.join()
    });
    interrupted.store(false, Ordering::Relaxed);
    outcome.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
