//! Where lines come from and replies go: stdin/stdout, or TCP.
//!
//! A reader thread turns the input stream into [`Input`] lines on a
//! channel, so the main thread can watch for `# interrupt` and new
//! commands while a search runs. Lines that arrive during a search are
//! kept in order and answered after it.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::net::{Shutdown, TcpListener};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use super::engine::{Control, Engine, EngineConfig, Watcher};
use super::parse::is_interrupt_comment;

/// One event from the input stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its line feed (a CR, if any, is left for GTP
    /// preprocessing to remove).
    Line(String),
    /// End of input, or a read error.
    End,
}

/// Starts a thread that reads `source` line by line onto a channel. Bytes
/// that are not UTF-8 become U+FFFD, which the parser rejects.
pub fn spawn_reader<R: Read + Send + 'static>(source: R) -> Receiver<Input> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(source);
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match reader.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => {
                    let _ = sender.send(Input::End);
                    return;
                }
                Ok(_) => {
                    if buffer.last() == Some(&b'\n') {
                        buffer.pop();
                    }
                    let line = String::from_utf8_lossy(&buffer).into_owned();
                    if sender.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    receiver
}

/// The input as a search sees it: lines that are not for the search wait
/// in `pending` for their turn.
struct ChannelWatcher<'a> {
    input: &'a Receiver<Input>,
    pending: VecDeque<String>,
    ended: bool,
}

impl ChannelWatcher<'_> {
    /// The next line to answer, `None` at the end of input.
    fn next_line(&mut self) -> Option<String> {
        if let Some(line) = self.pending.pop_front() {
            return Some(line);
        }
        if self.ended {
            return None;
        }
        match self.input.recv() {
            Ok(Input::Line(line)) => Some(line),
            Ok(Input::End) | Err(_) => {
                self.ended = true;
                None
            }
        }
    }

    /// Files an arriving event; true when it asks a search to stop.
    fn take(&mut self, input: Input, stop_on_any_line: bool) -> bool {
        match input {
            Input::Line(line) if is_interrupt_comment(&line) => true,
            Input::Line(line) => {
                self.pending.push_back(line);
                stop_on_any_line
            }
            Input::End => {
                self.ended = true;
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
        if self.ended {
            thread::sleep(timeout);
            return stop_on_any_line;
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
    let mut watcher = ChannelWatcher {
        input,
        pending: VecDeque::new(),
        ended: false,
    };
    while let Some(line) = watcher.next_line() {
        if engine.execute_line(&line, out, &mut watcher)? == Control::Quit {
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

/// The address to listen on: a bare port means loopback.
pub fn listen_address(text: &str) -> String {
    if text.bytes().all(|b| b.is_ascii_digit()) {
        format!("127.0.0.1:{text}")
    } else {
        text.to_string()
    }
}

/// GTP over TCP: one controller at a time, each with a fresh engine. A
/// controller's `quit` or disconnect ends its session; the next may connect.
pub fn run_listen(address: &str, config: EngineConfig) -> io::Result<()> {
    let listener = TcpListener::bind(listen_address(address))?;
    log::warn!(
        "listening for a GTP controller on {}",
        listener.local_addr()?
    );
    for connection in listener.incoming() {
        let stream = match connection {
            Ok(stream) => stream,
            Err(error) => {
                log::warn!("accept failed: {error}");
                continue;
            }
        };
        let peer = stream
            .peer_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        log::info!("controller {peer} connected");
        let input = spawn_reader(stream.try_clone()?);
        let mut engine = Engine::new(config.clone());
        let mut out = BufWriter::new(stream.try_clone()?);
        if let Err(error) = serve(&mut engine, &input, &mut out) {
            log::info!("controller {peer}: {error}");
        }
        // Ends the reader thread too: its read returns at once.
        let _ = stream.shutdown(Shutdown::Both);
        log::info!("controller {peer} gone");
    }
    Ok(())
}
