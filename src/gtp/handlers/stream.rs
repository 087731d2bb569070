//! How a search in progress reaches the controller: info lines on the
//! reply stream (the analysis commands), live graphics for GoGui on
//! stderr, the opening book's line for a book move, and the log line that
//! says how genmove chose. [`Reporting`] is the protocol's
//! [`SearchView`]; the player calls it on the thread that watches the
//! input, so only that thread ever writes to the controller.

use std::io::{self, Write};
use std::time::Duration;

use crate::board::{Color, Geometry, Move};
use crate::gtp::engine::Call;
use crate::gtp::error::GtpError;
use crate::gtp::format::{InfoFormatter, choice_text, gfx_block};
use crate::player::book::OpeningBook;
use crate::player::{Choice, MoveView, SearchView, Source};
use crate::search::{SearchReport, dyn_komi};

/// Live graphics (`gogui-gfx:` on stderr) are refreshed this often.
const GFX_INTERVAL: Duration = Duration::from_millis(500);

/// Moves of the opening book's line a book move's analysis shows at most.
const MAX_BOOK_PV: usize = 12;

/// Writes one line of a streamed reply and flushes it.
pub(super) fn write_line(out: &mut dyn Write, line: &str) -> io::Result<()> {
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// `=id` then the first line: the reply is under way.
pub(super) fn start_stream(call: &mut Call) -> Result<(), GtpError> {
    let prefix = call.success_prefix();
    write_line(call.out, &prefix)?;
    Ok(())
}

/// Writes live graphics to stderr in one write, so the lines arrive whole
/// and are never split by log lines. Errors are ignored: graphics are a
/// courtesy.
fn write_gfx(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    let _ = stderr.flush();
}

/// What a running search shows, and how often.
pub(super) struct Reporting<'a> {
    /// The reply stream.
    out: &'a mut dyn Write,
    geometry: Geometry,
    /// Info lines on the reply stream (the analysis commands).
    info: Option<&'a InfoFormatter>,
    /// Between info lines; zero or `None` means only the final line.
    info_interval: Option<Duration>,
    /// Live graphics for GoGui on stderr, then `gogui-gfx: CLEAR`.
    gfx: bool,
    /// The first failure to write an info line: the search stops, and the
    /// command fails with it once the search has ended.
    write_error: Option<io::Error>,
}

impl<'a> Reporting<'a> {
    /// No info lines; live graphics if `gfx`.
    pub(super) fn plain(out: &'a mut dyn Write, geometry: Geometry, gfx: bool) -> Reporting<'a> {
        Reporting {
            out,
            geometry,
            info: None,
            info_interval: None,
            gfx,
            write_error: None,
        }
    }

    /// Info lines every `interval`, with a final line after the search;
    /// live graphics if `gfx`.
    pub(super) fn info(
        out: &'a mut dyn Write,
        geometry: Geometry,
        formatter: &'a InfoFormatter,
        interval: Duration,
        gfx: bool,
    ) -> Reporting<'a> {
        Reporting {
            info: Some(formatter),
            info_interval: Some(interval),
            ..Reporting::plain(out, geometry, gfx)
        }
    }

    /// Between progress info lines, if there are any.
    fn info_every(&self) -> Option<Duration> {
        self.info
            .and(self.info_interval)
            .filter(|every| !every.is_zero())
    }
}

impl SearchView for Reporting<'_> {
    type Error = GtpError;

    fn interval(&self) -> Option<Duration> {
        self.info_every().or(self.gfx.then_some(GFX_INTERVAL))
    }

    fn progress(&mut self, report: &SearchReport, running: bool) -> bool {
        let mut go_on = true;
        if self.info_every().is_some()
            && self.write_error.is_none()
            && let Some(line) = self.info.and_then(|f| f.line(report))
            && let Err(error) = write_line(self.out, &line)
        {
            self.write_error = Some(error);
            go_on = false;
        }
        // Graphics that arrive as the search ends are cleared at once.
        if running
            && self.gfx
            && let Some(block) = gfx_block(report, self.geometry)
        {
            write_gfx(&block);
        }
        go_on
    }

    fn finished(&mut self, report: &SearchReport) -> Result<(), GtpError> {
        if self.gfx {
            write_gfx("gogui-gfx: CLEAR\n");
        }
        if let Some(error) = self.write_error.take() {
            return Err(GtpError::Output(error));
        }
        if let Some(line) = self.info.and_then(|f| f.line(report)) {
            write_line(self.out, &line)?;
        }
        Ok(())
    }
}

impl MoveView for Reporting<'_> {
    /// Logs how genmove chose; a book move's analysis shows the book's
    /// line from here as its principal variation.
    fn chosen(&mut self, color: Color, choice: Choice, source: Source) -> Result<(), GtpError> {
        let answer = choice_text(self.geometry, choice);
        match source {
            Source::Book { game, winrate } => {
                log::info!("genmove {color:?}: {answer} from the opening book");
                if let Some(formatter) = self.info {
                    let line = OpeningBook::shipped().line(game, color, MAX_BOOK_PV);
                    let pv: Vec<Move> = line.into_iter().map(Move::Play).collect();
                    write_line(self.out, &formatter.book_line(winrate, &pv))?;
                }
            }
            Source::AfterPass => log::info!(
                "genmove {color:?}: {answer} without a search: the opponent passed and the game is won"
            ),
            Source::Search { report, tree_size } => {
                let seconds = report.elapsed.as_secs_f64();
                let margin = match report.extra_margin {
                    0 => String::new(),
                    extra => format!(" with {}", dyn_komi::describe(extra)),
                };
                log::info!(
                    "genmove {color:?}: {answer}, winrate {:.3}{margin}, {} playouts, {:.0} playouts/s, tree {tree_size} nodes, {:.2} s",
                    report.winrate(),
                    report.playouts,
                    report.playouts as f64 / seconds.max(1e-9),
                    seconds
                );
            }
        }
        Ok(())
    }
}
