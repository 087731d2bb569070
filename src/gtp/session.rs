//! Where lines come from and replies go: stdin/stdout, or TCP.
//!
//! A reader thread turns the input stream into [`Input`] lines on a
//! channel, so the main thread can watch for `# interrupt` and new
//! commands while a search runs. Lines that arrive during a search are
//! kept in order and answered after it.
//!
//! Memory stays bounded whatever the controller sends: a line longer than
//! [`SessionLimits::max_line_bytes`] is dropped (its bytes are read and
//! thrown away) and answered with an error, and at most
//! [`SessionLimits::queued_lines`] lines wait between the reader and the
//! engine. Past that the reader stops reading, so a controller that sends
//! faster than the engine answers fills only its own socket or pipe.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::dispatch::{Control, write_failure};
use super::engine::{
    Engine, EngineConfig, FileAccess, REMOTE_MAX_AFTERMATH_PLAYOUTS, REMOTE_MAX_OWNERSHIP_PLAYOUTS,
    ResourceCaps,
};
use super::error::GtpError;
use super::parse::is_interrupt_comment;
use crate::player::Watcher;

/// One event from the input stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its line feed (a CR, if any, is left for GTP
    /// preprocessing to remove).
    Line(String),
    /// A line longer than the limit, dropped whole.
    TooLong,
    /// End of input, or a read error.
    End,
}

/// Bounds on what one controller's input may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionLimits {
    /// Longest input line kept, in bytes (without the line feed).
    pub max_line_bytes: usize,
    /// Lines waiting for the engine at most, in the channel and in a
    /// search's queue each.
    pub queued_lines: usize,
}

/// Longest input line by default: 1 MiB, far above any command a
/// controller sends (a `set_free_handicap` of every 25x25 point is 1.3 KB).
pub const DEFAULT_MAX_LINE_BYTES: usize = 1 << 20;

/// Lines queued by default between the reader and the engine.
pub const DEFAULT_QUEUED_LINES: usize = 256;

impl Default for SessionLimits {
    fn default() -> SessionLimits {
        SessionLimits {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            queued_lines: DEFAULT_QUEUED_LINES,
        }
    }
}

/// Starts a thread that reads `source` line by line onto a channel, with
/// the default [`SessionLimits`].
pub fn spawn_reader<R: Read + Send + 'static>(source: R) -> Receiver<Input> {
    spawn_reader_with(source, SessionLimits::default())
}

/// Starts a thread that reads `source` line by line onto a channel that
/// holds at most `limits.queued_lines` lines. Bytes that are not UTF-8
/// become U+FFFD, which the parser rejects.
pub fn spawn_reader_with<R: Read + Send + 'static>(
    source: R,
    limits: SessionLimits,
) -> Receiver<Input> {
    let (sender, receiver) = mpsc::sync_channel(limits.queued_lines.max(1));
    thread::spawn(move || {
        let mut reader = BufReader::new(source);
        loop {
            let input = read_line(&mut reader, limits.max_line_bytes);
            let ended = input == Input::End;
            if sender.send(input).is_err() || ended {
                return;
            }
        }
    });
    receiver
}

/// The next line of `reader`, or [`Input::TooLong`] once it passes
/// `max_bytes` (the rest of it is read and dropped, never stored). A last
/// line without a line feed still counts; then [`Input::End`].
fn read_line(reader: &mut impl BufRead, max_bytes: usize) -> Input {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return Input::End,
        };
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let (part, found_end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(end) => (&chunk[..end], true),
            None => (chunk, false),
        };
        if !too_long && line.len() + part.len() <= max_bytes {
            line.extend_from_slice(part);
        } else {
            too_long = true;
            line = Vec::new();
        }
        let used = part.len() + usize::from(found_end);
        reader.consume(used);
        if found_end {
            break;
        }
    }
    match (read_any, too_long) {
        (false, _) => Input::End,
        (true, true) => Input::TooLong,
        (true, false) => Input::Line(String::from_utf8_lossy(&line).into_owned()),
    }
}

/// The input as a search sees it: lines that are not for the search wait
/// in `pending` for their turn, at most `max_pending` of them (then the
/// channel fills and the reader waits).
struct ChannelWatcher<'a> {
    input: &'a Receiver<Input>,
    pending: VecDeque<Input>,
    max_pending: usize,
    ended: bool,
    /// The end of input stops any search: the controller is gone (TCP).
    /// On stdin a closed pipe may only mean "no more commands", and a
    /// genmove still answers its move.
    stop_at_end: bool,
}

impl ChannelWatcher<'_> {
    /// The next input to answer, `None` at the end of input.
    fn next_input(&mut self) -> Option<Input> {
        if let Some(input) = self.pending.pop_front() {
            return Some(input);
        }
        if self.ended {
            return None;
        }
        match self.input.recv() {
            Ok(Input::End) | Err(_) => {
                self.ended = true;
                None
            }
            Ok(input) => Some(input),
        }
    }

    /// Files an arriving event; true when it asks a search to stop.
    fn take(&mut self, input: Input, stop_on_any_line: bool) -> bool {
        match input {
            Input::Line(line) if is_interrupt_comment(&line) => true,
            Input::End => {
                self.ended = true;
                stop_on_any_line || self.stop_at_end
            }
            input => {
                self.pending.push_back(input);
                stop_on_any_line
            }
        }
    }
}

impl Watcher for ChannelWatcher<'_> {
    fn poll(&mut self, timeout: Duration, stop_on_any_line: bool) -> bool {
        if stop_on_any_line && !self.pending.is_empty() {
            return true;
        }
        if self.ended || self.pending.len() >= self.max_pending {
            thread::sleep(timeout);
            return self.ended && (stop_on_any_line || self.stop_at_end);
        }
        match self.input.recv_timeout(timeout) {
            Ok(input) => self.take(input, stop_on_any_line),
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => self.take(Input::End, stop_on_any_line),
        }
    }

    fn wait_for_line(&mut self) {
        if !self.pending.is_empty() || self.ended {
            return;
        }
        match self.input.recv() {
            Ok(input) => {
                self.take(input, true);
            }
            Err(_) => self.ended = true,
        }
    }
}

/// For driving the engine without an input stream (tests, tools): a
/// genmove runs to its limit, an analysis stops at once.
pub struct NoInput;

impl Watcher for NoInput {
    fn poll(&mut self, timeout: Duration, stop_on_any_line: bool) -> bool {
        if !stop_on_any_line {
            thread::sleep(timeout.min(Duration::from_millis(1)));
        }
        stop_on_any_line
    }

    fn wait_for_line(&mut self) {}
}

/// Answers the lines of `input` on `out` until `quit` or the end of input.
pub fn serve(engine: &mut Engine, input: &Receiver<Input>, out: &mut dyn Write) -> io::Result<()> {
    serve_session(engine, input, out, false, None)
}

/// [`serve`], with the end of input stopping a search where `stop_at_end`
/// holds, and `busy` set while a command runs (the idle timeout waits
/// for the engine then).
fn serve_session(
    engine: &mut Engine,
    input: &Receiver<Input>,
    out: &mut dyn Write,
    stop_at_end: bool,
    busy: Option<&AtomicBool>,
) -> io::Result<()> {
    let mut watcher = ChannelWatcher {
        input,
        pending: VecDeque::new(),
        max_pending: DEFAULT_QUEUED_LINES,
        ended: false,
        stop_at_end,
    };
    while let Some(input) = watcher.next_input() {
        let line = match input {
            Input::Line(line) => line,
            Input::TooLong => {
                write_failure(out, None, &GtpError::LineTooLong)?;
                continue;
            }
            Input::End => break,
        };
        if let Some(busy) = busy {
            busy.store(true, Ordering::Relaxed);
        }
        let control = engine.execute_line(&line, out, &mut watcher);
        if let Some(busy) = busy {
            busy.store(false, Ordering::Relaxed);
        }
        if control? == Control::Quit {
            break;
        }
    }
    out.flush()
}

/// GTP on stdin and stdout.
pub fn run_stdio(config: EngineConfig) -> io::Result<()> {
    let input = spawn_reader(io::stdin());
    let mut engine = Engine::new(config);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    serve(&mut engine, &input, &mut out)
}

/// How the daemon serves controllers over TCP.
#[derive(Clone, Debug, PartialEq)]
pub struct ListenOptions {
    /// `ADDRESS:PORT`, or a bare port for loopback.
    pub address: String,
    /// Whether an address other than loopback may be bound: GTP has no
    /// authentication, so whoever can connect controls the engine.
    pub any_address: bool,
    /// A connection that sends nothing for this long while no command runs
    /// is closed (`None`: never).
    pub idle_timeout: Option<Duration>,
    /// A reply that cannot be written for this long (the controller does
    /// not read) closes the connection.
    pub write_timeout: Duration,
    /// Controllers served at once, each with its own engine; the others
    /// wait to be accepted.
    pub max_controllers: usize,
    /// The folder remote `loadsgf`/`printsgf` are confined to; without it
    /// they are refused.
    pub files_dir: Option<PathBuf>,
}

/// A controller that sends nothing for an hour while no command runs is
/// gone, whatever its socket says.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(3600);

/// A reply blocked this long by a controller that does not read ends its
/// connection.
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(60);

/// The address to listen on: a bare port means loopback.
pub fn listen_address(text: &str) -> String {
    if text.bytes().all(|b| b.is_ascii_digit()) {
        format!("127.0.0.1:{text}")
    } else {
        text.to_string()
    }
}

/// GTP over TCP. Up to `max_controllers` controllers at a time, each with a
/// fresh engine of its own, under the remote limits: files only inside
/// `files_dir`, tunables capped (see [`ResourceCaps`]), idle and stalled
/// connections closed. A controller's `quit` or disconnect ends its
/// session and frees its place for the next.
pub fn run_listen(options: &ListenOptions, config: EngineConfig) -> io::Result<()> {
    let listener = TcpListener::bind(listen_address(&options.address))?;
    let local = listener.local_addr()?;
    if !local.ip().is_loopback() {
        if !options.any_address {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "{local} is not a loopback address: GTP has no authentication, so anyone who \
                     can connect controls the engine; add --listen-any to bind it anyway"
                ),
            ));
        }
        log::warn!(
            "listening on {local}, beyond loopback: GTP has no authentication, anyone who can \
             connect controls this engine (an SSH tunnel to a loopback port is safer)"
        );
    }
    log::warn!("listening for GTP controllers on {local}");
    let config = remote_config(options, config);
    let free = Arc::new((Mutex::new(options.max_controllers.max(1)), Condvar::new()));
    loop {
        take_place(&free);
        let (stream, peer) = match listener.accept() {
            Ok(accepted) => accepted,
            Err(error) => {
                log::warn!("accept failed: {error}");
                give_place(&free);
                continue;
            }
        };
        let (config, free, options) = (config.clone(), Arc::clone(&free), options.clone());
        thread::spawn(move || {
            log::info!("controller {peer} connected");
            if let Err(error) = serve_connection(&stream, config, &options) {
                log::info!("controller {peer}: {error}");
            }
            // Ends the reader thread too: its read returns at once.
            let _ = stream.shutdown(Shutdown::Both);
            log::info!("controller {peer} gone");
            give_place(&free);
        });
    }
}

/// The engine configuration for remote controllers: files confined or
/// refused, tunables capped.
fn remote_config(options: &ListenOptions, mut config: EngineConfig) -> EngineConfig {
    config.file_access = match &options.files_dir {
        Some(dir) => FileAccess::Within(dir.clone()),
        None => FileAccess::Refused,
    };
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    config.resource_caps = Some(ResourceCaps {
        threads: u32::try_from(cores).unwrap_or(u32::MAX),
        max_tree_mb: config.params.max_tree_mb,
        ownership_playouts: REMOTE_MAX_OWNERSHIP_PLAYOUTS,
        aftermath_playouts: REMOTE_MAX_AFTERMATH_PLAYOUTS,
    });
    config
}

/// Waits for a free place among the controllers served at once, and takes it.
fn take_place(free: &(Mutex<usize>, Condvar)) {
    let (count, freed) = free;
    let mut count = count.lock().unwrap_or_else(PoisonError::into_inner);
    while *count == 0 {
        count = freed.wait(count).unwrap_or_else(PoisonError::into_inner);
    }
    *count -= 1;
}

/// Gives a place back.
fn give_place(free: &(Mutex<usize>, Condvar)) {
    let (count, freed) = free;
    *count.lock().unwrap_or_else(PoisonError::into_inner) += 1;
    freed.notify_one();
}

/// One controller's session on `stream`.
fn serve_connection(
    stream: &TcpStream,
    config: EngineConfig,
    options: &ListenOptions,
) -> io::Result<()> {
    stream.set_write_timeout(Some(options.write_timeout.max(Duration::from_millis(1))))?;
    let busy = Arc::new(AtomicBool::new(false));
    let reader = IdleReader::new(stream.try_clone()?, options.idle_timeout, Arc::clone(&busy))?;
    let input = spawn_reader(reader);
    let mut engine = Engine::new(config);
    let mut out = BufWriter::new(stream.try_clone()?);
    serve_session(&mut engine, &input, &mut out, true, Some(&busy))
}

/// A TCP stream that reads as ended once the controller has sent nothing
/// for the idle timeout while the engine had no command to run.
struct IdleReader {
    stream: TcpStream,
    idle_timeout: Option<Duration>,
    busy: Arc<AtomicBool>,
    last_input: Instant,
}

/// How often an idle reader looks at the clock.
const IDLE_CHECK: Duration = Duration::from_secs(1);

impl IdleReader {
    fn new(
        stream: TcpStream,
        idle_timeout: Option<Duration>,
        busy: Arc<AtomicBool>,
    ) -> io::Result<IdleReader> {
        if let Some(idle) = idle_timeout {
            stream.set_read_timeout(Some(idle.clamp(Duration::from_millis(1), IDLE_CHECK)))?;
        }
        Ok(IdleReader {
            stream,
            idle_timeout,
            busy,
            last_input: Instant::now(),
        })
    }
}

impl Read for IdleReader {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.stream.read(buffer) {
                Ok(n) => {
                    self.last_input = Instant::now();
                    return Ok(n);
                }
                Err(error)
                    if matches!(
                        error.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    if self.busy.load(Ordering::Relaxed) {
                        self.last_input = Instant::now();
                    } else if self
                        .idle_timeout
                        .is_some_and(|idle| self.last_input.elapsed() >= idle)
                    {
                        log::info!("controller idle for {:?}: closing", self.idle_timeout);
                        return Ok(0);
                    }
                }
                Err(error) => return Err(error),
            }
        }
    }
}
