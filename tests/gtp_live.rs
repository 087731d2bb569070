//! What the engine does between and during commands, as a process:
//! pondering after genmove (tree reuse, instant stop, silence on stdout)
//! and GoGui live graphics on stderr.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

const KOSUMI: &str = env!("CARGO_BIN_EXE_kosumi");

const LINE_TIMEOUT: Duration = Duration::from_secs(60);

/// A running engine with its output read line by line on two channels.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
}

fn lines_of(source: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(source).lines() {
            let Ok(line) = line else { return };
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    receiver
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(KOSUMI)
            .args(args)
            .env("RUST_LOG", "info")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = lines_of(child.stdout.take().expect("piped stdout"));
        let stderr = lines_of(child.stderr.take().expect("piped stderr"));
        Engine {
            child,
            stdin,
            stdout,
            stderr,
        }
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).expect("engine input");
        self.stdin.flush().expect("engine input");
    }

    /// The next reply: its lines up to the blank line that ends it.
    fn reply(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .stdout
                .recv_timeout(LINE_TIMEOUT)
                .expect("a reply in time");
            if line.is_empty() {
                return lines;
            }
            lines.push(line);
        }
    }

    /// Stderr lines until one contains `marker` (that one included).
    fn stderr_until(&mut self, marker: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .stderr
                .recv_timeout(LINE_TIMEOUT)
                .unwrap_or_else(|_| panic!("no {marker:?} on stderr; got {lines:#?}"));
            let found = line.contains(marker);
            lines.push(line);
            if found {
                return lines;
            }
        }
    }
}

/// The sum of the visits of every candidate of an `info move ...` line:
/// the visits below the root, reused ones included.
fn root_visits(info_line: &str) -> u64 {
    let words: Vec<&str> = info_line.split_whitespace().collect();
    words
        .windows(2)
        .filter(|pair| pair[0] == "visits")
        .map(|pair| pair[1].parse::<u64>().expect("visits are numbers"))
        .sum()
}

#[test]
fn pondering_grows_the_tree_that_the_next_genmove_reuses() {
    const PLAYOUTS: u64 = 50;
    let mut engine = Engine::start(&[
        "--ponder",
        "--seed",
        "5",
        "--threads",
        "1",
        "--playouts",
        "50",
    ]);
    engine.send("boardsize 7\ngenmove b\n");
    assert_eq!(engine.reply(), ["= "]);
    let answer = engine.reply();
    assert!(answer[0].starts_with("= "), "{answer:?}");
    // The opponent thinks; the engine ponders without a word on stdout.
    thread::sleep(Duration::from_millis(300));
    assert!(
        engine.stdout.try_recv().is_err(),
        "pondering wrote to stdout"
    );
    // `# interrupt` stops pondering and is dropped; the next command is answered.
    engine.send("# interrupt\nname\n");
    assert_eq!(engine.reply(), ["= Kosumi"]);
    let log = engine.stderr_until("pondered");
    let pondered = log.last().expect("the pondering line");
    let words: Vec<&str> = pondered.split_whitespace().collect();
    let at = words
        .iter()
        .position(|&w| w == "pondered")
        .expect("pondered N");
    let playouts: u64 = words[at + 1].parse().expect("a playout count");
    assert!(playouts > PLAYOUTS, "{pondered}");
    let expected = *words.last().expect("the expected reply");
    // The opponent plays the expected move: the next search starts from
    // the pondered subtree, so its root holds far more than its own playouts.
    engine.send(&format!("play w {expected}\nlz-genmove_analyze b 0\n"));
    assert_eq!(engine.reply(), ["= "]);
    let stream = engine.reply();
    let info = stream
        .iter()
        .find(|line| line.starts_with("info "))
        .unwrap_or_else(|| panic!("no info line in {stream:?}"));
    let visits = root_visits(info);
    eprintln!("pondered {playouts} playouts; next search's root visits {visits}");
    assert!(
        visits > 3 * PLAYOUTS,
        "root visits {visits} after pondering {playouts} playouts"
    );
    engine.send("quit\n");
    assert_eq!(engine.reply(), ["= "]);
    assert!(engine.child.wait().expect("exit status").success());
}

#[test]
fn quit_during_pondering_exits_at_once() {
    let mut engine = Engine::start(&["--ponder", "--threads", "2", "--playouts", "50"]);
    engine.send("boardsize 19\ngenmove b\n");
    engine.reply();
    let answer = engine.reply();
    assert!(answer[0].starts_with("= "), "{answer:?}");
    thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    engine.send("quit\n");
    assert_eq!(engine.reply(), ["= "]);
    assert!(engine.child.wait().expect("exit status").success());
    let took = asked.elapsed();
    eprintln!("quit during pondering: exited after {took:?}");
    assert!(took < Duration::from_secs(2), "quit took {took:?}");
}

#[test]
fn live_graphics_go_to_stderr_and_end_with_clear() {
    // No book: at 9x9 and the default komi, 7.5, it would answer at once.
    let mut engine = Engine::start(&["--gogui-gfx", "--threads", "1", "--no-book"]);
    // An hour of main time: the move would take long; # interrupt ends it.
    engine.send("boardsize 9\ntime_settings 3600 0 0\ngenmove b\n");
    engine.reply();
    engine.reply();
    thread::sleep(Duration::from_millis(1300));
    engine.send("# interrupt\n");
    let answer = engine.reply();
    assert_eq!(answer.len(), 1, "stdout holds only the reply: {answer:?}");
    assert!(answer[0].starts_with("= "), "{answer:?}");
    let log = engine.stderr_until("gogui-gfx: CLEAR");
    let blocks = log.iter().filter(|line| *line == "gogui-gfx:").count();
    assert!(blocks >= 1, "no live graphics block in {log:#?}");
    let variation = log
        .iter()
        .find(|line| line.starts_with("VAR "))
        .unwrap_or_else(|| panic!("no VAR line in {log:#?}"));
    assert!(variation.starts_with("VAR b "), "{variation}");
    assert!(log.iter().any(|line| line.starts_with("INFLUENCE ")));
    assert!(log.iter().any(|line| line.starts_with("TEXT black ")));
    engine.send("quit\n");
    engine.reply();
    assert!(engine.child.wait().expect("exit status").success());
}
